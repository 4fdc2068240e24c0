"""Kernels for tests/sim/test_boundary.py: every value crossing into a kernel, and the faults csim flags
where Python mode raises (issue 19, items 3 and 4). Each fault kernel puts the faulting expression on
a line of its own, marked `# fault`, so the tests can find the line both modes must name."""

from __future__ import annotations

import hls

Packet = hls.axis[hls.int16, 2, 0, 3]


@hls.struct
class Pixel:
    r: hls.uint5
    g: hls.int16
    gain: hls.ap_fixed[8, 4]


@hls.kernel
def echo32(x: hls.int32) -> hls.int64:
    return x * 2


@hls.kernel
def scalars(a: hls.uint8, b: hls.ap_int[40], c: hls.bool_, f: hls.ap_fixed[8, 4], g: hls.float32) -> hls.float64:
    t = a + b
    if c:
        t = t + 1
    return hls.float64(t + f) + g


@hls.kernel
def total(xs: hls.stream[hls.int16]) -> hls.int32:
    s = hls.int32(0)
    for _i in range(2):
        s += xs.read()
    return s


@hls.kernel
def packet_sum(inp: hls.stream[Packet]) -> hls.int32:
    s = hls.int32(0)
    for _i in range(2):
        p = inp.read()
        s += p.data + p.user + p.dest
    return s


@hls.kernel
def pixel_sum(p: Pixel) -> hls.float64:
    return p.r + p.g + p.gain


@hls.kernel
def pixel_stream(ps: hls.stream[Pixel]) -> hls.int32:
    s = hls.int32(0)
    for _i in range(2):
        p = ps.read()
        s += p.r + p.g
    return s


@hls.kernel
def narrow(x: hls.int8) -> hls.int8:
    return x


@hls.kernel
def calls_narrow(x: hls.int32) -> hls.int8:
    return narrow(x + 200)  # a sub-kernel argument converts (wraps) as the C++ call does


# ---- faults: Python mode raises, csim flags them at the same line -------------------------------


@hls.kernel
def to_int(x: hls.float64) -> hls.int32:
    y = x * 2
    return hls.int32(y)  # fault


@hls.kernel
def to_int64(x: hls.float32) -> hls.int64:
    y = x + 1
    return int(y)  # fault


@hls.kernel
def to_fixed(x: hls.float64) -> hls.ap_fixed[16, 8]:
    return hls.ap_fixed[16, 8](x)  # fault


@hls.kernel
def shift_left(x: hls.int32, n: hls.int8) -> hls.int32:
    y = x + 1
    return y << n  # fault


@hls.kernel
def shift_right(x: hls.int32, n: hls.int16) -> hls.int32:
    y = x - 1
    return y >> n  # fault


@hls.kernel
def shift_unsigned(x: hls.int32, n: hls.uint5) -> hls.int32:
    return x >> n  # an unsigned count cannot be negative: no check


@hls.kernel
def bit_of(x: hls.uint16, i: hls.int32) -> hls.bool_:
    return x[i]  # fault


@hls.kernel
def set_bit(x: hls.uint16, i: hls.int32) -> hls.uint16:
    y = x
    y[i] = 1  # fault
    return y


@hls.kernel
def rotate(x: hls.uint8, n: hls.int32) -> hls.uint8:
    return hls.rotr(x, n)  # fault


@hls.kernel
def divide(a: hls.int32, b: hls.int32) -> hls.int32:
    q = a + 1
    return q // b  # fault


@hls.kernel
def gather(t: hls.int16[4], i: hls.int32) -> hls.int16:
    return t[i]  # fault


@hls.kernel
def second_fault(xs: hls.float64[4], out: hls.int32[4]):
    for i in range(4):
        out[i] = hls.int32(xs[i])  # fault


@hls.kernel
def fixed_divide(a: hls.ap_fixed[12, 6], b: hls.ap_fixed[6, 8]) -> hls.ap_fixed[24, 12]:
    return a / hls.ap_fixed[6, 8](b * 2)  # fault
