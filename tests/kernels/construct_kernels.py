"""Kernels written as Python programmers write them (issue 11): compile-time Python, unpacking,
chained assignment, int(), iteration over arrays, enumerate and zip."""

from __future__ import annotations

import math

import numpy as np

import hls

PIPE = 0
MODE = 1
WIDTHS = (1, 2, 4)


def make_pipelined(pipe, mode):
    @hls.kernel
    def scaled(a: hls.int16[16], out: hls.int16[16]):
        for i in range(a.shape[0]):
            if pipe == 0:
                hls.pipeline(off=True)
            else:
                hls.pipeline(ii=max(pipe, 1))
            out[i] = hls.int16(a[i] * 2 if mode == 1 else a[i] + 1)

    return scaled


@hls.kernel
def fib(n: hls.uint8) -> hls.int32:
    a: hls.int32 = 0
    b: hls.int32 = 1
    for i in range(46):
        if i < n:
            a, b = b, a + b
    return a


@hls.kernel
def swaps(a: hls.int16[8]):
    for i in range(4):
        a[i], a[7 - i] = a[7 - i], a[i]


@hls.kernel
def chained(x: hls.int16) -> hls.int32:
    p: hls.int8 = 0
    q: hls.int16 = 0
    p = q = x * 3  # each target converts the same value to its own type, as Python mode does
    return p + q


@hls.kernel
def truncations(f: hls.ap_fixed[12, 5], g: hls.float32, u: hls.ap_ufixed[8, 3], out: hls.int32[3]):
    out[0] = int(f)
    out[1] = int(g)
    out[2] = int(u) + int(out[0])


@hls.kernel
def iterate(a: hls.int16[8], b: hls.int16[6], m: hls.int8[3, 4], out: hls.int32[4]) -> hls.int32:
    s: hls.int32 = 0
    for v in a:
        s += v
    for i, v2 in enumerate(b):
        s += i * v2
    for x, y in zip(a, b, strict=False):  # stops at the shorter, as zip does
        s += x - y
    for row in m:
        for j in range(len(row)):
            out[j] += row[j]
    for k, (c, d) in enumerate(zip(b, a, strict=False)):
        s += k * (c + d)
    return s + a.ndim + m.shape[1]


@hls.kernel
def tuple_loop(a: hls.int16[8], f: hls.float32) -> hls.int32:
    s: hls.int32 = 0
    for w in WIDTHS:
        hls.unroll()
        if w == 2:  # decided per copy of the body
            s += a[w]
        else:
            s += w * a[0]
    for scale in (0.5, 1.5):  # float64 constants, as in the C++
        s += hls.int32(scale * f)
    return s


@hls.kernel
def chooses(a: hls.int16) -> hls.int16:
    if MODE == 1:
        y = a + 1
    else:
        y = undefined_name  # noqa: F821 - never compiled: the branch is not taken
    return y if PIPE == 0 else y * 2


@hls.kernel
def recursive_filter(x: hls.float32[256], y: hls.float32[256]):
    """A recursive filter through every float32 maths function: one ulp per call would compound."""
    acc = hls.float32(0.0)
    for i in range(256):
        acc = hls.float32(0.9) * acc + math.exp(x[i]) * math.sin(x[i]) - math.log(math.fabs(x[i]) + 1.0) \
            + math.tanh(acc) + math.pow(math.fabs(x[i]), hls.float32(0.3)) + math.cos(acc) + math.sqrt(math.fabs(x[i]))
        y[i] = acc


@hls.kernel
def traced(a: hls.int16[4], f: hls.float32, x: hls.ap_fixed[12, 4], u: hls.uint8) -> hls.int32:
    s: hls.int32 = 0
    for i in range(4):
        s += a[i]
        print("i =", i, "s:", s, a[i] > 0, end=";\n")
    wide = hls.ap_uint[100](u) << 90
    print(f, f * 3, x, wide, -wide, u, '100% "done"\t', 2.5, 7, sep="|")
    return s


N = 8
ELEM = hls.int16


@hls.kernel
def total(a: ELEM[N]) -> hls.int32:
    s: hls.int32 = 0
    for i in range(N):
        hls.pipeline(ii=max(N // 8, 1))
        s += a[i]
    return s


@hls.kernel
def two_totals(a: hls.int8[16], b: hls.int16[8]) -> hls.int32:
    return TOTAL_16_INT8(a) + total(b)


TOTAL_16_INT8 = total.specialize(N=16, ELEM=hls.int8)


COEFFS = np.array([3, -1, 4, 1, -5], dtype=np.int8)


@hls.kernel
def rom_and_fresh_arrays(a: hls.int16[5]) -> hls.int32:
    s: hls.int32 = 0
    for k, c in enumerate(COEFFS):  # a module-level numpy array is a ROM; it can be iterated too
        s += c * a[k]
    for c2, x in zip(COEFFS, a, strict=True):
        s += c2 - x
    for w in (1, 2):
        buf = hls.zeros((2,), hls.int16)  # a fresh array in each copy of the body, as in Python
        buf[0] += w
        s += buf[0] * 10
    return s


@hls.kernel
def elementwise_maths(x: hls.float32[256], y: hls.float32[256]):
    for i in range(256):
        y[i] = math.exp(x[i]) * math.sin(x[i]) + math.tanh(x[i]) - math.log(math.fabs(x[i]) + 1.0)
