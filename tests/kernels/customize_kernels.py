"""Kernels for tests/customize (a file: the frontend reads source with inspect)."""

import hls

N = 64


def make_matmul(inline: bool, n: int = N, shape: tuple[int, int, int] | None = None,
                types: tuple = (hls.int16, hls.int32)):
    """A plain-loop matmul, n x n or `shape` (m, k, n) = (m x k) @ (k x n), of operand and accumulator
    `types`; with `inline`, the directives that reach II 1 written in the kernel. Both come from one
    definition, so the C++ names the same source line."""
    rows, depth, cols = shape or (n, n, n)
    operand, accumulator = types

    @hls.kernel(flow="vivado")
    def matmul(A: operand[rows, depth], B: operand[depth, cols], C: accumulator[rows, cols]):
        if inline:
            hls.array_partition(A, "complete", dim=2)
            hls.array_partition(B, "complete", dim=1)
        for i in range(rows):
            hls.label("ROW")
            for j in range(cols):
                hls.label("COL")
                if inline:
                    hls.pipeline(ii=1)
                acc = accumulator(0)
                for k in range(depth):
                    if inline:
                        hls.unroll()
                    acc += A[i, k] * B[k, j]
                C[i, j] = acc

    return matmul


@hls.kernel(flow="vivado")
def small_mm(A: hls.int16[12, 10], B: hls.int16[10, 8], C: hls.int32[12, 8]):
    for i in range(12):
        hls.label("ROW")
        for j in range(8):
            hls.label("COL")
            acc: hls.int32 = 0
            for k in range(10):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@hls.kernel(flow="vivado")
def wavefront(A: hls.int32[8, 8]):
    """A[i, j] reads A[i-1, j+1]: interchanging i and j would read it before it is written."""
    for i in range(1, 8):
        for j in range(7):
            A[i, j] = A[i - 1, j + 1] + 1


@hls.kernel(flow="vivado")
def column_sweep(A: hls.int32[8, 8]):
    """A[i, j] reads A[i-1, j]: the dependence runs along i only, so i and j may be interchanged."""
    for i in range(1, 8):
        for j in range(8):
            A[i, j] = A[i - 1, j] * 3 + j


@hls.kernel(flow="vivado")
def two_passes(A: hls.int16[16], B: hls.int32[16], C: hls.int32[16]):
    for i in range(16):
        hls.label("SCALE")
        B[i] = A[i] * 3
    for i in range(16):
        hls.label("SHIFT")
        C[i] = B[i] + i


@hls.kernel(flow="vivado")
def two_passes_ahead(A: hls.int16[16], B: hls.int32[16], C: hls.int32[16]):
    """The second loop reads B[i + 1], which the first writes one iteration later: fusion is illegal."""
    for i in range(15):
        hls.label("SCALE")
        B[i] = A[i] * 3
    for i in range(15):
        hls.label("SHIFT")
        C[i] = B[i + 1] + i


@hls.kernel(flow="vivado")
def row_sums(M: hls.int16[8, 8], out: hls.int32[8]):
    for i in range(8):
        acc: hls.int32 = 0
        for j in range(8):
            acc += M[i, j]
        out[i] = acc


@hls.kernel(flow="vivado")
def caller(X: hls.int16[8, 8], y: hls.int32[8]):
    """Passes X to row_sums: a partition of X follows it into row_sums' port M."""
    buf = hls.zeros((8,), hls.int32)
    row_sums(X, buf)
    for i in range(8):
        y[i] = buf[i] * 2


@hls.kernel(flow="vivado")
def two_callers(X: hls.int16[8, 8], Z: hls.int16[8, 8], y: hls.int32[8]):
    """Calls row_sums from two sites: Vitis partitions its port M once, for both."""
    first = hls.zeros((8,), hls.int32)
    second = hls.zeros((8,), hls.int32)
    row_sums(X, first)
    row_sums(Z, second)
    for i in range(8):
        y[i] = first[i] - second[i]


@hls.kernel(flow="vivado")
def twin_loops(a: hls.int16[8], b: hls.int16[8], out: hls.int32[8]):
    """Two loops with the variable i: `i` alone is ambiguous."""
    for i in range(8):
        out[i] = a[i]
    for i in range(8):
        out[i] = out[i] + b[i]


@hls.kernel(flow="vivado")
def accumulate_in_place(A: hls.int16[6, 5], B: hls.int16[5, 4], C: hls.int32[6, 4]):
    """C[i, j] is read and written inside the k loop: the dependence check enumerates the inner loop too."""
    for i in range(6):
        for j in range(4):
            for k in range(5):
                C[i, j] = C[i, j] + A[i, k] * B[k, j]


@hls.kernel(flow="vivado")
def wavefront_inner(A: hls.int32[8, 8]):
    for i in range(1, 8):
        for j in range(7):
            for k in range(2):
                A[i, j] = A[i - 1, j + 1] + k
