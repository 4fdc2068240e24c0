"""Kernels a Vitis or Allo user would schedule (issue 23's hidden checks, for
tests/customize/test_hidden_shapes.py): a 2-D stencil, a conv, elementwise pairs, whole-array statements,
a kernel whose loops live in a sub-kernel, carried dependences that forbid a reorder or a fusion."""

import numpy as np

import hls

H, W = 10, 12


@hls.kernel(flow="vivado")
def blur(img: hls.int16[H, W], out: hls.int32[H, W]):
    """A 3x3 box stencil over the interior; the border is copied."""
    for y in range(H):
        hls.label("ROWS")
        for x in range(W):
            hls.label("COLS")
            if y == 0 or x == 0 or y == H - 1 or x == W - 1:
                out[y, x] = img[y, x]
            else:
                s: hls.int32 = 0
                for dy in range(3):
                    hls.label("KY")
                    for dx in range(3):
                        hls.label("KX")
                        s += img[y + dy - 1, x + dx - 1]
                out[y, x] = s


@hls.kernel(flow="vivado")
def jacobi(a: hls.int32[H, W], b: hls.int32[H, W]):
    """A 5-point stencil on the interior only: a perfect 2-D nest."""
    for i in range(1, H - 1):
        hls.label("I")
        for j in range(1, W - 1):
            hls.label("J")
            b[i, j] = a[i, j] * 4 - a[i - 1, j] - a[i + 1, j] - a[i, j - 1] - a[i, j + 1]


@hls.kernel(flow="vivado")
def mm_ijk(A: hls.int16[8, 6], B: hls.int16[6, 10], C: hls.int32[8, 10]):
    """C += A @ B written i, j, k over C in place: reorder to i, k, j is legal (sums of one element keep
    their order)."""
    for i in range(8):
        hls.label("I")
        for j in range(10):
            hls.label("J")
            for k in range(6):
                hls.label("K")
                C[i, j] += A[i, k] * B[k, j]


@hls.kernel(flow="vivado")
def conv2d(img: hls.int16[9, 9], w: hls.int16[3, 3], out: hls.int32[7, 7]):
    """A valid 3x3 convolution, output-stationary."""
    for oy in range(7):
        hls.label("OY")
        for ox in range(7):
            hls.label("OX")
            acc: hls.int32 = 0
            for ky in range(3):
                for kx in range(3):
                    acc += img[oy + ky, ox + kx] * w[ky, kx]
            out[oy, ox] = acc


def make_elementwise(reversed_read: bool):
    """Two elementwise loops. The second reads a[i], which the first wrote at the same index (fusion is
    legal), or with `reversed_read` a[31 - i], which the first writes later (fusion is illegal)."""

    @hls.kernel(flow="vivado")
    def scale_bias(x: hls.int16[32], a: hls.int32[32], y: hls.int32[32]):
        for i in range(32):
            hls.label("SCALE")
            a[i] = x[i] * 5
        for i in range(32):
            hls.label("BIAS")
            y[i] = (a[31 - i] if reversed_read else a[i]) + 7

    return scale_bias


scale_bias = make_elementwise(False)
shift_then_read = make_elementwise(True)


@hls.kernel(flow="vivado")
def prefix_rows(A: hls.int32[6, 7]):
    """A[i, j] += A[i - 1, j + 1] along a diagonal: interchanging the two loops changes the result."""
    for i in range(1, 6):
        hls.label("R")
        for j in range(6):
            hls.label("C")
            A[i, j] = A[i, j] + A[i - 1, j + 1]


@hls.kernel(flow="vivado")
def dense_tensor(A: hls.int16[8, 8], B: hls.int16[8, 8], x: hls.int32[8, 8], C: hls.int32[8, 8],
                 y: hls.int32[8, 8]):
    """Whole-array statements: their generated loops are scheduled by name."""
    C[:, :] = A @ B
    y[:, :] = np.maximum(x, 0)


@hls.kernel(flow="vivado")
def saxpy_sub(a: hls.int32, x: hls.int32[16], y: hls.int32[16]):
    buf = hls.zeros((16,), hls.int32)
    for i in range(16):
        hls.label("LOOP")
        buf[i] = a * x[i]
    for i in range(16):
        hls.label("ADD")
        y[i] = buf[i] + y[i]


@hls.kernel(flow="vivado")
def top_calls_sub(x: hls.int32[16], y: hls.int32[16]):
    """The loops to schedule are the callee's: Vitis locates them "saxpy_sub/LOOP"."""
    for i in range(16):
        hls.label("LOOP")
        y[i] = 0
    saxpy_sub(3, x, y)


@hls.kernel(flow="vivado")
def vadd_axi(a: hls.int32[64], b: hls.int32[64], c: hls.int32[64], n: hls.int32):
    """A Vitis-style vadd with a run-time trip count (for loop_tripcount)."""
    for i in range(n):
        hls.label("VADD")
        c[i] = a[i] + b[i]


@hls.kernel
def load(a: hls.int32[32], s: hls.stream[hls.int32]):
    for i in range(32):
        hls.label("RD")
        s.write(a[i])


@hls.kernel
def square(s: hls.stream[hls.int32], t: hls.stream[hls.int32]):
    for _i in range(32):
        hls.label("SQ")
        v = s.read()
        t.write(v * v + 1)


@hls.kernel
def store(t: hls.stream[hls.int32], b: hls.int32[32]):
    for i in range(32):
        hls.label("WR")
        b[i] = t.read()


@hls.kernel
def load_compute_store(a: hls.int32[32], b: hls.int32[32]):
    """Vitis's load/compute/store shape with local FIFOs, written without hls.dataflow(): the schedule adds it."""
    s = hls.stream(hls.int32, depth=2)
    t = hls.stream(hls.int32)
    load(a, s)
    square(s, t)
    store(t, b)


@hls.kernel(flow="vivado")
def stacked_wavefront(A: hls.int32[2, 6, 7]):
    """Two independent planes of a diagonal wavefront: within a plane, interchanging R and C is illegal."""
    for t in range(2):
        hls.label("T")
        for i in range(1, 6):
            hls.label("R")
            for j in range(6):
                hls.label("C")
                A[t, i, j] = A[t, i, j] + A[t, i - 1, j + 1]


@hls.kernel(flow="vivado")
def plane_shift(A: hls.int32[8]):
    """Iterations (i, j) = (0, 1) and (1, 0) update one element, so interchanging P and Q changes the
    result; the element also depends on the enclosing counter t, which the dependence check enumerates."""
    for t in range(3):
        hls.label("T")
        for i in range(2):
            hls.label("P")
            for j in range(2):
                hls.label("Q")
                A[i + t + j] = A[i + t + j] * 2 + i * 10 + j


@hls.kernel(flow="vivado")
def offset_rows(A: hls.int32[4, 8], off: hls.int32):
    """An index reads the scalar argument `off`: no enumeration can check a reorder of this nest."""
    for i in range(4):
        hls.label("R")
        for j in range(4):
            hls.label("C")
            A[i, j + off] = A[i, j] + 1


def make_window(inline: bool):
    """A 4-tap window over a run-time length, in the Vitis flow, with local arrays (one declared in a loop);
    with `inline`, the directives a schedule gives written in the kernel. One definition, so both C++ texts
    name the same lines."""

    @hls.kernel
    def window(x: hls.int16[64], y: hls.int32[64], n: hls.int32):
        if inline:
            hls.interface(x, "ap_memory")
            hls.interface(y, "ap_memory")
            hls.array_partition(x, "cyclic", factor=4)
        taps = hls.zeros((4,), hls.int32)
        if inline:
            hls.array_partition(taps, "complete")
        for t in range(4):
            hls.label("INIT")
            if inline:
                hls.unroll()
            taps[t] = t + 1
        for i in range(n & 31):
            hls.label("MAIN")
            if inline:
                hls.loop_tripcount(0, 31, avg=16)
                hls.pipeline(ii=1)
            acc: hls.int32 = 0
            for t in range(4):
                hls.label("TAP")
                acc += x[i + t] * taps[t]
            y[i] = acc
        for r in range(2):
            hls.label("ROUND")
            tmp = hls.zeros((8,), hls.int32)
            if inline:
                hls.bind_storage(tmp, "ram_1p", impl="lutram")
            for j in range(8):
                hls.label("FILL")
                tmp[j] = x[j + r] + y[j]
            for j in range(8):
                hls.label("BACK")
                if inline:
                    hls.pipeline(ii=2)
                    hls.loop_flatten(off=True)
                y[j + 32] = tmp[7 - j] * 2

    return window


@hls.kernel(flow="vivado")
def negate_sub(x: hls.int32[16], y: hls.int32[16]):
    buf = hls.zeros((16,), hls.int32)
    for i in range(16):
        hls.label("LOOP")
        buf[i] = -x[i]
    for i in range(16):
        hls.label("OUT")
        y[i] = buf[15 - i]


@hls.kernel(flow="vivado")
def two_subs(x: hls.int32[16], y: hls.int32[16], z: hls.int32[16]):
    """Both callees have a local `buf` and a loop `LOOP`, the top neither: the bare names are ambiguous."""
    saxpy_sub(2, x, y)
    negate_sub(x, z)


@hls.kernel(flow="vivado")
def mlp_layer(A: hls.int16[8, 8], B: hls.int16[8, 8], bias: hls.int32[8]) -> hls.int32[8, 8]:
    """`T = A @ B` into a local, then `np.maximum(T + bias, 0)` returned: both whole-array."""
    T = A @ B
    return np.maximum(T + bias, 0)


@hls.kernel(flow="vivado")
def shadowing(x: hls.int32[12], y: hls.int32[12], i_outer: hls.int32):
    """A scalar named as split's outer counter would be (`i_outer`), read inside the loop it splits."""
    i_inner = i_outer * 2
    for i in range(12):
        hls.label("L")
        y[i] = x[i] + i_outer - i_inner


def make_row_pair(mirrored: bool):
    """Per row, two elementwise loops over the columns; the second reads B[i, j] (fusing them is legal) or,
    `mirrored`, B[i, 7 - j], which the first writes later (illegal). The indices read the row counter i."""

    @hls.kernel(flow="vivado")
    def row_pair(A: hls.int16[6, 8], B: hls.int32[6, 8], C: hls.int32[6, 8]):
        for i in range(6):
            hls.label("ROW")
            for j in range(8):
                hls.label("FIRST")
                B[i, j] = A[i, j] * 2
            for j in range(8):
                hls.label("SECOND")
                C[i, j] = B[i, 7 - j if mirrored else j] + i
    return row_pair


row_pair = make_row_pair(False)
row_pair_mirrored = make_row_pair(True)


def make_mirror_rows(always_mirrored: bool):
    """Row i reads row i - 1 at a mirrored column: `j if j < 4 else 7 - j` reads only columns at or left of j
    (interchanging the loops is legal); `7 - j` reads columns right of j for j < 4 (illegal)."""

    @hls.kernel(flow="vivado")
    def mirror_rows(A: hls.int32[6, 8]):
        for i in range(1, 6):
            hls.label("R")
            for j in range(8):
                hls.label("C")
                A[i, j] = A[i - 1, 7 - j if always_mirrored or j >= 4 else j] * 2 + 1
    return mirror_rows


mirror_rows = make_mirror_rows(False)
mirror_rows_always = make_mirror_rows(True)


COEFFS = np.array([3, -1, 4, 1, -5, 9, 2, -6], dtype=np.int16)


def make_fir_rom(inline: bool):
    """An 8-tap FIR over a block, its coefficients a module-level numpy array (a ROM in the C++) and its
    window a static (state kept between calls); with `inline`, the partitions written in the kernel."""

    @hls.kernel(flow="vivado")
    def fir_rom(x: hls.int16[16], y: hls.int32[16]):
        window = hls.static(hls.zeros((8,), hls.int16))
        if inline:
            hls.array_partition(COEFFS, "complete")
            hls.array_partition(window, "complete")
        for n in range(16):
            hls.label("SAMPLE")
            acc = hls.int32(0)
            for t in range(7, 0, -1):
                hls.label("SHIFT")
                window[t] = window[t - 1]
                acc += window[t] * COEFFS[t]
            window[0] = x[n]
            y[n] = acc + x[n] * COEFFS[0]

    return fir_rom
