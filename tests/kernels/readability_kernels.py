"""Kernels whose C++ must read like the Python (tests/backend/test_readability.py): the issue's FIR and
half-word swap, typed ROMs, re-assigned locals where re-using the C++ variable is and is not allowed."""

from __future__ import annotations

import numpy as np

import hls

TAPS = np.array([0.125, -0.25, 0.5, 0.25])
Q = hls.ap_fixed[16, 2]
TYPED = Q[4](np.array([0.1, -0.2, 0.3, 0.7]))  # 0.1 is not a value of Q: quantized once, here
LUT = hls.uint8[4]([1, 2, 3, 4])


@hls.kernel
def fir4(x: hls.ap_fixed[16, 2][64], y: hls.ap_fixed[32, 8][64]):
    shift = hls.zeros((4,), hls.ap_fixed[16, 2])
    for n in range(64):
        hls.pipeline(ii=1)
        for k in range(3, 0, -1):
            hls.unroll()
            shift[k] = shift[k - 1]
        shift[0] = x[n]
        acc = hls.ap_fixed[32, 8](0)
        for t in range(4):
            hls.unroll()
            acc += shift[t] * hls.ap_fixed[16, 2](TAPS[t])
        y[n] = acc


@hls.kernel
def typed_rom(x: hls.ap_fixed[16, 2][8], y: hls.ap_fixed[24, 6][8]):
    for n in range(8):
        acc = hls.ap_fixed[24, 6](0)
        for t in range(4):
            hls.unroll(factor=2)
            acc += x[(n + t) % 8] * TYPED[t]
        y[n] = acc + LUT[n % 4]


@hls.kernel
def swap(w: hls.uint32) -> hls.uint32:
    lo = w[0:16]
    hi = w[16:32]
    sw = hls.concat(lo, hi)
    return sw


@hls.kernel
def keeps_old_value(a: hls.int16[8], out: hls.int32[8]):
    """`t` holds x's old value after x is re-assigned: x needs a second C++ variable here."""
    for i in range(8):
        x = hls.int32(a[i])
        t = x
        x = x * 3 + 1
        out[i] = t * 100 + x


@hls.kernel
def branch_reassign(a: hls.int16[8], out: hls.int32[8]) -> hls.int32:
    total = hls.int32(0)
    for i in range(8):
        v = hls.int32(a[i])
        if v < 0:
            v = -v
        else:
            v = v + 1
        if v > 100:
            v = hls.int32(100)
        total += v
        out[i] = v
    return total


@hls.kernel
def loop_reads_before_write(a: hls.float32[8], out: hls.float32[8]):
    """`prev` is read at the top of each iteration and re-assigned at its end (a loop-carried value)."""
    prev = hls.float32(0)
    for i in range(8):
        out[i] = prev * 0.5
        prev = a[i] + prev


@hls.struct
class Sample:
    re: hls.int16
    im: hls.int16
    tag: hls.uint8


Packet = hls.axis[hls.int16, 4, 0, 0]


@hls.kernel
def struct_reads(p: Sample[8], q: Sample[8], out: hls.stream[Sample]) -> hls.int64:
    """`cur = p[i]` keeps its name; a field changed after the read, a whole copy written back, a FIFO
    item built from keywords and a struct local written whole."""
    total = hls.int64(0)
    for i in range(8):
        cur = p[i]
        total += cur.re * cur.im
        cur.tag = cur.tag + 1
        q[i] = cur
        out.write(Sample(re=cur.im, im=cur.re, tag=cur.tag))
        out.write(cur)
    return total


@hls.kernel
def packet_copy(inp: hls.stream[Packet], out: hls.stream[Packet]):
    """A packet read and forwarded whole, and one with a changed field: `out.write(pkt)`."""
    for _ in range(4):
        pkt = inp.read()
        out.write(pkt)
        pkt.data = pkt.data + 1
        out.write(pkt)
