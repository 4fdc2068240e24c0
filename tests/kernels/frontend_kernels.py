"""Kernels exercising each supported construct once."""

import math

import numpy as np

import hls

LIMIT = 100
GAIN = 0.5
LUT = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int16)


@hls.kernel
def branches(a: hls.int32[32], out: hls.int32[32]):
    for i in range(32):
        x = a[i]
        if x > LIMIT:
            y = hls.int32(LIMIT)
        elif x < -LIMIT:
            y = hls.int32(-LIMIT)
        else:
            y = x * 2
        out[i] = y


@hls.kernel
def logic(a: hls.int16[32], b: hls.int16[32], out: hls.bool_[32]):
    for i in range(32):
        out[i] = (0 < a[i] < 100 and b[i] != 0) or not (a[i] >= b[i])


@hls.kernel
def ternary_minmax(a: hls.int16[32], b: hls.uint8[32], out: hls.int32[32]):
    for i in range(32):
        out[i] = max(a[i], b[i], 7) - min(a[i], b[i]) if a[i] > 0 else abs(a[i])


@hls.kernel
def math_funcs(x: hls.float32[16], y: hls.float32[16], d: hls.float64[16]):
    for i in range(16):
        v = math.fabs(x[i]) + 0.5
        y[i] = math.sqrt(v) + math.log(v) + math.sin(x[i]) * math.cos(x[i]) + math.tanh(x[i]) \
            + math.floor(x[i] * 4.0) + math.ceil(x[i]) + math.pow(v, 1.5) + math.exp(x[i]) * GAIN
        d[i] = math.sqrt(hls.float64(v))


@hls.kernel
def bounds_and_steps(a: hls.int32[64], n: hls.int32, lo: hls.int32):
    for i in range(lo, n, 3):
        a[i] = i
    for j in range(63, 40, -2):
        a[j] = a[j] + LUT[j % 8]


@hls.kernel
def augmented(a: hls.uint16[16], out: hls.uint16[16]):
    for i in range(16):
        v = a[i]
        v <<= 2
        v |= 1
        v ^= 0x5A
        v &= 0x3FF
        v >>= 1
        v -= 3
        v *= 3
        out[i] = v


@hls.kernel
def nested_if_in_loop_carry(a: hls.int32[32]) -> hls.int32:
    best = a[0]
    count = hls.int16(0)
    for i in range(1, 32):
        if a[i] > best:
            best = a[i]
            count += 1
    return best + count


@hls.kernel
def gather(table: hls.int32[16], idx: hls.int32[8], out: hls.int32[8]):
    for i in range(8):
        out[i] = table[idx[i]]
        table[idx[i] & 15] = i


@hls.kernel
def divide(a: hls.int32[8], b: hls.int32[8], q: hls.int32[8]):
    for i in range(8):
        q[i] = a[i] // b[i]


@hls.kernel
def long_reduction(a: hls.float32[400]) -> hls.float32:
    acc = hls.float32(0)
    for i in range(400):
        hls.unroll()
        acc += a[i]
    return acc
