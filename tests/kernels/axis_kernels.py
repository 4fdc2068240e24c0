"""Kernels on AXI-stream packets (tests/frontend/test_axis.py)."""

from __future__ import annotations

import hls

Word = hls.axis[hls.int32]
Tagged = hls.axis[hls.int16, 2, 0, 3]
Fixed = hls.axis[hls.ap_fixed[12, 4]]


@hls.kernel
def sum_until_last(inp: hls.stream[Word]) -> hls.int32:
    """Reads packets until TLAST: the count is decided by the data."""
    acc = hls.int32(0)
    done = False
    while not done:
        p = inp.read()
        acc += p.data
        done = p.last == 1
    return acc


@hls.kernel
def retag(inp: hls.stream[Tagged], out: hls.stream[Tagged]):
    """A packet copied and changed (side channels kept), then one built from scratch per input."""
    for i in range(4):
        p = inp.read()
        q = p
        q.data = p.data * 3
        q.user = p.user + 1  # wraps in 2 bits
        out.write(q)
        out.write(Tagged(data=i, last=i == 3, user=p.user, dest=p.dest + 5))


@hls.kernel
def halve(inp: hls.stream[Fixed], out: hls.stream[Fixed]):
    """Fixed-point packets; keep and strb pass through, last set on the final output only."""
    for i in range(3):
        p = inp.read()
        out.write(Fixed(data=p.data * hls.ap_fixed[4, 0](0.5), keep=p.keep, strb=p.strb, last=i == 2))


Routed = hls.axis[hls.uint8, 0, 0, 2]


@hls.kernel
def bump_dest(a: hls.stream[Routed], b: hls.stream[Routed]):
    for _ in range(4):
        p = a.read()
        p.dest = p.dest + 1  # wraps in 2 bits
        b.write(p)


@hls.kernel
def route_twice(inp: hls.stream[Routed], out: hls.stream[Routed]):
    """Packets through a local FIFO between two dataflow processes (sub-kernel stream parameters)."""
    hls.dataflow()
    mid = hls.stream(Routed, depth=2)
    bump_dest(inp, mid)
    bump_dest(mid, out)
