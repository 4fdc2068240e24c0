"""Kernels with tuple returns, array results and state between calls (tests/frontend/test_results.py)."""

import typing

import hls


@hls.kernel
def divmod_typing(a: hls.int16, b: hls.uint8) -> typing.Tuple[hls.int16, hls.uint8]:  # noqa: UP006
    d = b | 1
    return a // d, a % d


@hls.kernel
def minmax3(a: hls.int8[3]) -> tuple[hls.int8, hls.int8, hls.ap_fixed[8, 4]]:
    lo = min(a[0], a[1], a[2])
    hi = max(a[0], a[1], a[2])
    return lo, hi, hls.ap_fixed[8, 4](0.5)


@hls.kernel
def sums_via_tuple(a: hls.int8[3], out: hls.int16[4]):
    lo, hi, half = minmax3(a)
    out[0], out[1] = divmod_typing(hi * 100, lo & 127)
    out[2] = lo
    out[3] = hls.int16(half * 4)


@hls.kernel
def scale(x: hls.int9[2, 3], s: hls.int8) -> hls.int9[2, 3]:
    y = hls.zeros((2, 3), hls.int9)
    for i in range(2):
        for j in range(3):
            y[i, j] = hls.int9(x[i, j] * s >> 3)
    return y


@hls.kernel
def scale_twice(x: hls.int9[2, 3]) -> hls.int9[2, 3]:
    t = scale(x, 3)
    z = scale(t, -2)
    return z


@hls.kernel
def first_half(x: hls.float32[8]) -> hls.float32[8]:
    y = hls.zeros((8,), hls.float32)
    for i in range(4):
        y[i] = x[i] * 0.5
    return y


@hls.kernel
def running(x: hls.int16) -> hls.int32:
    total = hls.static(hls.int32(-5))
    seen = hls.static(hls.zeros((4,), hls.uint8))
    total += x
    seen[x & 3] += 1
    return total * 10 + seen[0]


@hls.kernel
def counter() -> hls.uint4:
    n = hls.static(hls.uint4(0))
    n += 1
    return n


@hls.kernel
def uses_counter(a: hls.uint8[2]):
    a[0] = counter()
    a[1] = counter()


@hls.kernel
def smoother(x: hls.float32, q: hls.ap_fixed[12, 4]) -> tuple[hls.float32, hls.ap_fixed[12, 4]]:
    avg = hls.static(hls.float32(0.25))
    level = hls.static(hls.ap_fixed[12, 4](-1.5))
    avg = avg * 0.75 + x * 0.25
    level += q
    return avg, level
