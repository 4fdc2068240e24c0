"""Kernels written as a hidden checker would (issue 24), for tests/schedule/test_hidden_estimates.py: shapes of
public HLS course labs (a FIR whose shift register moves in an inner loop, an AXI4-Stream FIR read until TLAST)."""

import numpy as np

import hls

Beat = hls.axis[hls.int16, 1, 0, 0]
TAPS = 5


@hls.kernel
def fir_shift_loop(x: hls.int16[256], y: hls.int16[256]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    w = hls.zeros((TAPS,), hls.int16)
    for i in range(256):
        for j in range(TAPS - 1, 0, -1):
            w[j] = w[j - 1]
        w[0] = x[i]
        acc = hls.int32(0)
        for j in range(TAPS):
            acc += w[j] * (j + 1)
        y[i] = hls.int16(acc >> 4)


@hls.kernel
def moving_sum_pipelined(x: hls.int32[128], y: hls.int32[128]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    win = hls.static(hls.zeros((6,), hls.int32))
    for i in range(128):
        hls.pipeline(ii=1)
        s = x[i]
        for j in range(5):
            win[j] = win[j + 1]
            s += win[j]
        win[5] = x[i]
        y[i] = s


@hls.kernel
def axis_fir(inp: hls.stream[Beat], out: hls.stream[Beat]):
    w = hls.static(hls.zeros((TAPS,), hls.int16))
    last = False
    while not last:
        hls.loop_tripcount(min=16, max=1024)
        p = inp.read()
        for j in range(TAPS - 1, 0, -1):
            w[j] = w[j - 1]
        w[0] = p.data
        acc = hls.int32(0)
        for j in range(TAPS):
            acc += w[j] * (j + 1)
        out.write(Beat(data=hls.int16(acc >> 4), user=p.user, last=p.last))
        last = p.last == 1


Fx = hls.ap_fixed[18, 3]
ATAN = np.arctan(2.0 ** -np.arange(14))


@hls.kernel
def cordic_rotate(theta: Fx, cs: Fx[2]):
    """A CORDIC rotation as course labs write it: `y >> k` on ap_fixed, no multiply."""
    x = Fx(0.6072529350088813)
    y = Fx(0)
    z = theta
    for k in range(14):
        dx = y >> k
        dy = x >> k
        if z >= 0:
            x = Fx(x - dx)
            y = Fx(y + dy)
            z = Fx(z - Fx(ATAN[k]))
        else:
            x = Fx(x + dx)
            y = Fx(y - dy)
            z = Fx(z + Fx(ATAN[k]))
    cs[0] = x
    cs[1] = y


@hls.kernel
def fixed_shifts(a: Fx[8], n: hls.int32, out: Fx[24]):
    """ap_fixed shifts by constants and by a variable count, left (wrapping) and right (truncating)."""
    for i in range(8):
        out[i] = a[i] >> n
        out[8 + i] = a[i] << 2
        out[16 + i] = a[i] >> 3


@hls.kernel
def squared_norm(v: hls.float32[16]) -> hls.float32:
    s = hls.float32(0)
    for i in range(16):
        s += v[i] * v[i]
    return s


@hls.kernel
def row_norms(m: hls.float32[64, 16], out: hls.float32[64]):
    """A sub-function with a loop called per row: whether Vitis inlines it is its own size judgement."""
    hls.interface(m, "ap_memory")
    hls.interface(out, "ap_memory")
    for r in range(64):
        out[r] = squared_norm(m[r])


@hls.struct
class Cplx:
    re: hls.float32
    im: hls.float32


@hls.kernel
def struct_grid_sum(a: Cplx[4, 8]) -> hls.float32:
    hls.interface(a, "ap_memory")
    s = hls.float32(0)
    for i in range(4):
        for j in range(8):
            s += a[i, j].re
    return s
