"""Kernels for the MLIR export tests: signedness, odd widths, carried values, fixed-point modes, calls."""

import math

import numpy as np

import hls

Q_RND = hls.ap_fixed[8, 4, "AP_RND", "AP_SAT"]
Q_CONV = hls.ap_fixed[8, 4, "AP_RND_CONV", "AP_SAT_SYM"]
Q_ZERO = hls.ap_fixed[8, 4, "AP_TRN_ZERO", "AP_SAT_ZERO"]
Q_INF = hls.ap_ufixed[6, 3, "AP_RND_INF", "AP_SAT"]
Q_MIN = hls.ap_fixed[7, 2, "AP_RND_MIN_INF", "AP_WRAP", 2]
Q_SM = hls.ap_fixed[6, 3, "AP_RND_ZERO", "AP_WRAP_SM", 1]
Q_SM0 = hls.ap_fixed[6, 3, "AP_TRN", "AP_WRAP_SM"]
BAD = hls.ap_ufixed[8, 4, "AP_TRN", "AP_WRAP_SM"]
LUT = np.array([3, -7, 11, 0, 250, -128, 5, 9], dtype=np.int16)


@hls.kernel
def signedness(a: hls.uint8[16], b: hls.uint8[16], c: hls.int8[16], d: hls.int8[16], q: hls.int32[16, 8],
               f: hls.bool_[16, 4]):
    for i in range(16):
        q[i, 0] = a[i] // (b[i] | hls.uint8(1))      # divui
        q[i, 1] = a[i] % (b[i] | hls.uint8(1))       # remui
        q[i, 2] = c[i] // (d[i] | 1)      # floordivsi
        q[i, 3] = c[i] % (d[i] | 1)       # remsi + correction
        q[i, 4] = a[i] >> 3               # shrui
        q[i, 5] = c[i] >> 3               # shrsi
        q[i, 6] = min(a[i], b[i]) + max(c[i], d[i])
        q[i, 7] = a[i] * c[i]             # extui * extsi
        f[i, 0] = a[i] < b[i]             # ult
        f[i, 1] = c[i] < d[i]             # slt
        f[i, 2] = a[i] < c[i]             # mixed: compared in a wider signed type
        f[i, 3] = a[i] == 255


@hls.kernel
def odd_widths(x: hls.int9[8], u: hls.uint12[8], n: hls.uint5[8], y: hls.int33[8], s: hls.int9[8]):
    for i in range(8):
        y[i] = x[i] * u[i] - 3
        s[i] = x[i] << n[i]               # variable count: 0 at or past the width, as ap_int
        s[i] += x[i] >> n[i]


@hls.kernel
def carried_if(a: hls.int16[32], out: hls.int32[2]) -> hls.int32:
    pos = hls.int32(0)
    neg = hls.int32(0)
    for i in range(32):
        if a[i] >= 0:
            pos += a[i]
        else:
            neg -= a[i]
    best = hls.int32(0)
    for k in range(31, -1, -2):      # a negative step: counted form
        best = best * 3 + a[k] if best < 1000 else best - a[k]
    out[0] = pos
    out[1] = neg
    return best


@hls.kernel
def fixed_modes(x: hls.ap_fixed[10, 3][16], r: hls.int8[16], y: Q_RND[16], z: Q_CONV[16], w: Q_ZERO[16],
                v: Q_INF[16], m: Q_MIN[16], sm: Q_SM[16], sm0: Q_SM0[16], t: hls.int8[16], c: hls.bool_[16]):
    for i in range(16):
        y[i] = Q_RND(x[i] * 3)
        z[i] = Q_CONV(x[i])
        w[i] = Q_ZERO(-x[i])
        v[i] = Q_INF(abs(x[i]))
        m[i] = Q_MIN(x[i] + x[i])
        sm[i] = Q_SM(x[i] * r[i])
        sm0[i] = Q_SM0(x[i] * 2)
        t[i] = hls.int8(x[i] / (r[i] | 1))
        c[i] = x[i] > r[i]


@hls.kernel
def scaled(a: hls.int16, b: hls.int16) -> hls.int32:
    return a * b + LUT[a & 7]


@hls.kernel
def calls_rom(a: hls.int16[8], out: hls.int32[8]):
    for i in range(8):
        out[i] = scaled(a[i], LUT[i])


@hls.kernel
def wrap_sm_unsigned(x: hls.ap_fixed[12, 5][4], y: BAD[4]):
    for i in range(4):
        y[i] = BAD(x[i])


@hls.kernel
def directives(a: hls.int32[64], n: hls.int32) -> hls.int32:
    hls.array_partition(a, "cyclic", factor=4, dim=1)
    hls.interface(a, "m_axi", bundle="gmem0")
    acc = hls.int32(0)
    for i in range(n):
        hls.loop_tripcount(min=1, max=64)
        hls.pipeline(ii=2)
        acc += a[i]
    for j in range(4):
        hls.unroll()
        a[j] = acc
    return acc


@hls.kernel
def small_gemm(A: hls.float32[8, 8], B: hls.float32[8, 8], C: hls.float32[8, 8]):
    for i in range(8):
        for j in range(8):
            acc = hls.float32(0.0)
            for k in range(8):
                hls.pipeline(ii=1)
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


F_SAT = hls.ap_fixed[12, 4, "AP_RND_CONV", "AP_SAT"]


@hls.kernel
def float_casts(x: hls.float32[16], d: hls.float64[16], n: hls.int12[16], u: hls.uint40[16], i: hls.int16[16],
                f: hls.float32[16, 6], g: hls.float64[16, 2], q: F_SAT[16], w: hls.ap_fixed[10, 6][16],
                h: F_SAT[16], b: hls.bool_[16]):
    for k in range(16):
        f[k, 0] = n[k] + x[k]                       # sitofp, addf
        f[k, 1] = hls.float32(u[k])                 # uitofp of 40 bits: one rounding
        f[k, 2] = hls.float32(d[k])                 # truncf
        f[k, 3] = min(x[k], -x[k]) / 3.0            # cmpf + select, negf, divf
        f[k, 4] = math.sqrt(abs(x[k])) + math.floor(x[k])
        f[k, 5] = hls.float32(q[k])                 # fixed -> float
        g[k, 0] = d[k] * x[k]                       # extf
        g[k, 1] = n[k] / (i[k] | 1)                 # int / int is float64
        i[k] = hls.int16(x[k] * 100.0)              # fptosi, then wrap
        q[k] = F_SAT(x[k] * 0.3)                    # float -> fixed: floor, fraction bits, saturate
        w[k] = d[k] / 8.0                           # float -> fixed: wrap
        h[k] = F_SAT(n[k] / 512.0)                  # exact halves: round-half-to-even decides
        b[k] = x[k] > d[k] and x[k] != 0.0


@hls.kernel
def coarse_fixed(a: hls.int32[8], c: hls.ap_ufixed[6, 8][8], out: hls.uint2[8]):
    for i in range(8):
        c[i] = hls.ap_ufixed[6, 8](a[i])          # lsb 4: rounds away two integer bits
        out[i] = hls.uint2(c[i] * c[i])           # lsb 16: every bit is shifted out of 2 bits (fuzz seed 0)


@hls.kernel
def one_bit(a: hls.int48[2], ones: hls.int1[4], f: hls.ap_fixed[1, 1][4]) -> hls.int53:
    for i in range(4):
        ones[i] = hls.int1(i & 1)                  # int1 holds 0 and -1
        f[i] = hls.ap_fixed[1, 1](-1)
    return (LUT[a[0] % 3] << 5) // (-1)          # a signed 1-bit constant -1 (fuzz seed 63)
