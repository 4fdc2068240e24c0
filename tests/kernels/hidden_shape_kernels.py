"""Kernels of the shapes the reports of other projects exercise (issue 24), for tests/schedule/test_hidden_shapes.py:
no directive at all, triangular and data-dependent bounds, double-precision stencils, indirect loads,
fixed point with sub-kernels and function pipelining, dataflow over streams of structs, AXI4-Stream tops."""

import numpy as np

import hls
from examples.rgb565 import Pixel

N = 16


@hls.kernel
def plain_matmul(a: hls.int32[N, N], b: hls.int32[N, N], c: hls.int32[N, N]):
    for i in range(N):
        for j in range(N):
            acc = hls.int32(0)
            for k in range(N):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc


@hls.kernel
def plain_vector_scale(x: hls.int32[256], y: hls.int32[256], k: hls.int32):
    for i in range(256):
        y[i] = x[i] * k + 1


@hls.kernel
def lower_triangle_solve(L: hls.float32[N, N], b: hls.float32[N], x: hls.float32[N]):
    hls.interface(L, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(x, "ap_memory")
    for i in range(N):
        s = b[i]
        for j in range(i):
            s -= L[i, j] * x[j]
        x[i] = s / L[i, i]


@hls.kernel
def row_sums_counted(n: hls.int32[N], a: hls.int32[N, 64], out: hls.int32[N]):
    hls.interface(n, "ap_memory")
    hls.interface(a, "ap_memory")
    hls.interface(out, "ap_memory")
    for r in range(N):
        s = hls.int32(0)
        for k in range(n[r]):
            hls.loop_tripcount(min=1, max=64)
            s += a[r, k]
        out[r] = s


@hls.kernel
def prefix_uncounted(a: hls.int32[64], out: hls.int32[64], n: hls.int32):
    hls.interface(a, "ap_memory")
    hls.interface(out, "ap_memory")
    for k in range(n):
        out[k] = a[k] * 2


@hls.kernel
def stencil3_f64(a: hls.float64[256], b: hls.float64[256]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    for i in range(1, 255):
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * 0.25


@hls.kernel
def stencil3_f64_banked(a: hls.float64[256], b: hls.float64[256]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.array_partition(a, "cyclic", factor=3)
    for i in range(1, 255):
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * 0.25


@hls.kernel
def sum_f64(a: hls.float64[128]) -> hls.float64:
    hls.interface(a, "ap_memory")
    s = hls.float64(0)
    for i in range(128):
        s += a[i]
    return s


@hls.kernel
def gather(a: hls.int32[1024], idx: hls.uint16[256], out: hls.int32[256]):
    hls.interface(a, "ap_memory")
    hls.interface(idx, "ap_memory")
    hls.interface(out, "ap_memory")
    for i in range(256):
        out[i] = a[idx[i] & 1023]


@hls.kernel
def histogram(idx: hls.uint8[512], h: hls.int32[256]):
    hls.interface(idx, "ap_memory")
    hls.interface(h, "ap_memory")
    for i in range(512):
        h[idx[i]] += 1


Q = hls.ap_fixed[18, 8]
TAPS = np.array([0.125, 0.25, 0.375, 0.25, 0.125, -0.0625, 0.03125, 0.015625])


@hls.kernel
def fx_tap(x: Q, c: Q) -> Q:
    return Q(x * c)


@hls.kernel
def fx_fir8(x: Q) -> Q:
    hls.pipeline(ii=1)
    taps = hls.static(hls.zeros((8,), Q))
    acc = Q(0)
    for i in range(7, 0, -1):
        taps[i] = taps[i - 1]
        acc += fx_tap(taps[i], Q(TAPS[i]))
    taps[0] = x
    acc += fx_tap(x, Q(TAPS[0]))
    return acc


@hls.kernel
def window3(x: hls.int32[64], y: hls.int32[64]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    w = hls.zeros((3,), hls.int32)
    for i in range(64):
        w[2] = w[1]
        w[1] = w[0]
        w[0] = x[i]
        y[i] = w[0] + w[1] + w[2]


@hls.kernel
def window4(x: hls.int32[64], y: hls.int32[64]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    w = hls.zeros((4,), hls.int32)
    for i in range(64):
        w[3] = w[2]
        w[2] = w[1]
        w[1] = w[0]
        w[0] = x[i]
        y[i] = w[0] + w[1] + w[2] + w[3]


@hls.kernel
def read_pixels(a: Pixel[64], s: hls.stream[Pixel]):
    for i in range(64):
        s.write(a[i])


@hls.kernel
def to_gray(s: hls.stream[Pixel], t: hls.stream[hls.uint8]):
    for _i in range(64):
        p = s.read()
        t.write(hls.uint8((p.r * 77 + p.g * 150 + p.b * 29) >> 8))


@hls.kernel
def write_gray(t: hls.stream[hls.uint8], o: hls.uint8[64]):
    for i in range(64):
        o[i] = t.read()


@hls.kernel
def gray_dataflow(a: Pixel[64], o: hls.uint8[64]):
    hls.dataflow()
    s = hls.stream(Pixel, depth=4)
    t = hls.stream(hls.uint8, depth=4)
    read_pixels(a, s)
    to_gray(s, t)
    write_gray(t, o)


Beat = hls.axis[hls.int32, 1, 0, 0]


@hls.kernel
def axis_gain_frame(inp: hls.stream[Beat], out: hls.stream[Beat], k: hls.int32):
    last = False
    while not last:
        hls.loop_tripcount(min=1, max=256)
        p = inp.read()
        out.write(Beat(data=p.data * k, user=p.user, last=p.last))
        last = p.last == 1


@hls.kernel
def stream_add_one(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    for _i in range(128):
        out.write(inp.read() + 1)


A = hls.ap_fixed[32, 12]


@hls.kernel
def mac_kept(a: Q, b: Q, c: A) -> A:
    hls.pipeline(ii=1)
    hls.inline(off=True)
    return A(c + a * b)


@hls.kernel
def dot_with_kept_mac(x: Q[64], w: Q[64]) -> A:
    hls.interface(x, "ap_memory")
    hls.interface(w, "ap_memory")
    acc = A(0)
    for i in range(64):
        acc = mac_kept(x[i], w[i], acc)
    return acc
