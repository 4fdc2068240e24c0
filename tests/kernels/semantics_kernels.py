"""Kernels whose Python meaning differs from naive C++: each must verify bit-exactly."""

import hls


@hls.kernel
def floor_ops(a: hls.int16[64], b: hls.int8[64], q: hls.int32[64], r: hls.int32[64]):
    for i in range(64):
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@hls.kernel
def mixed_compare(a: hls.int32[64], b: hls.uint32[64], lt: hls.bool_[64]):
    for i in range(64):
        lt[i] = a[i] < b[i]


@hls.kernel
def wide_arith(a: hls.int64[64], b: hls.uint64[64], s: hls.int64[64], d: hls.uint32[64]):
    for i in range(64):
        s[i] = hls.int64(a[i] + b[i])
        d[i] = hls.uint32(b[i] - a[i])


@hls.kernel
def shifts(a: hls.int16[64], n: hls.uint4[64], l: hls.int32[64], r: hls.int16[64]):
    for i in range(64):
        l[i] = a[i] << 3
        r[i] = a[i] >> n[i]


@hls.kernel
def neg_abs_invert(a: hls.int8[64], u: hls.uint8[64], x: hls.int16[64], y: hls.int16[64], z: hls.int16[64]):
    for i in range(64):
        x[i] = -a[i]
        y[i] = abs(a[i])
        z[i] = ~u[i]


@hls.kernel
def true_div(a: hls.int32[64], b: hls.int32[64], f: hls.float64[64]):
    for i in range(64):
        f[i] = a[i] / (b[i] | 1)


@hls.kernel
def float32_literals(x: hls.float32[64], y: hls.float32[64]):
    for i in range(64):
        y[i] = x[i] * 0.1 + 0.2


@hls.kernel
def float_to_int(x: hls.float32[64], y: hls.int8[64]):
    for i in range(64):
        y[i] = hls.int8(x[i] * 1000.0)


@hls.kernel
def declared_local_wraps(a: hls.int8[64], out: hls.int8[64]):
    for i in range(64):
        acc: hls.int8 = a[i]
        acc += 100
        out[i] = acc


@hls.kernel
def overflowing(a: hls.int16[8], out: hls.int8[8]) -> hls.int8:
    total: hls.int8 = 0
    for i in range(8):
        out[i] = a[i] * 2
        total += a[i]
        h = hls.uint8(a[i] * 1103515245 + 12345)
        out[i] = out[i] + h - h
    return total


@hls.kernel
def nep50(a: hls.int8[4], f: hls.float32[4], out: hls.int16[4], g: hls.float32[4]):
    for i in range(4):
        out[i] = a[i] + 200
        g[i] = f[i] + 3.0


@hls.kernel
def wide_shift_counts(a: hls.int16[32], n: hls.uint5[32], r: hls.int16[32], l: hls.int16[32]):
    for i in range(32):
        r[i] = a[i] >> n[i]
        l[i] = a[i] << n[i]


@hls.kernel
def fused(a: hls.float32[4], x: hls.float32[4], y: hls.float32[4], out: hls.float32[4]):
    for i in range(4):
        out[i] = a[i] * x[i] + y[i]
