"""Kernels using bit access (tests/frontend/test_bits.py runs each in Python mode and csim)."""

from __future__ import annotations

import hls

F = hls.ap_fixed[16, 6]


@hls.kernel
def int_bits(a: hls.uint32[4], s: hls.int8, out: hls.uint8[4]) -> hls.uint32:
    x: hls.uint32 = 0
    for i in range(4):
        v = a[i]
        out[i] = v[0:8]
        x[i] = v[i]
        x[8:16] = a[i][4:12]
        out[i][0:2] = v[30:32]
    y = s
    y[7] = 0
    y[0:3] = s[5:8]
    return hls.concat(x[0:4], hls.uint4(3)) + a[0].bit_count() + hls.leading_zeros(a[1]) + a[2][0:8].reverse() \
        + y + s.bit_count() + hls.leading_zeros(s) + s.reverse() + s[:4] + s[4:]


@hls.kernel
def mixed_bits(a: hls.float32[4], f: F, s: hls.int8, n: hls.int32, out: hls.uint32[8]) -> F:
    w: hls.ap_int[100] = s * (1 << 92) + 12345 + s
    for i in range(4):
        u = a[i].bitcast()
        out[i] = u[23:31]
    out[4] = f.bitcast()[0:16]
    r = f.bitcast()
    r[15] = 0
    out[5] = hls.concat(s, f, r[3])[10:25]
    out[6] = w[60:92] + hls.concat(w[99], s, w[0:3])[0:12] + w.bit_count() + hls.leading_zeros(w)
    g = f
    g[0:4] = 15
    out[7] = hls.bitcast(hls.bitcast(a[0], hls.uint32), hls.float32) == a[0]
    g[n] = 1
    return g + hls.bitcast(r, F)


@hls.kernel
def variable_bits(a: hls.uint16[8], b: hls.int64[8], n: hls.int32):
    for i in range(8):
        j = (a[i] + n) & 15
        t = b[i]
        t[j * 4] = a[i][j]
        b[i] = t
        a[i][j] = b[i][63]
        if b[i][j]:
            a[i][0:4] = hls.leading_zeros(a[i])


@hls.kernel
def augmented_bits(a: hls.uint8[4], n: hls.int32) -> hls.int16:
    x: hls.int16 = -3
    for i in range(4):
        x[0:8] ^= a[i]
        a[i][4:8] += 3
        x[i] |= a[i][0]
        x[8:16] -= n
    return x
