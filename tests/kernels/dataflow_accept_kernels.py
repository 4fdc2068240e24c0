"""Dataflow regions Vitis accepts beyond the canonical form: scalars of the region, conditional tasks."""

import hls

N = 8


@hls.kernel
def scaled(a: hls.int32[N], s: hls.stream[hls.int32], k: hls.int32):
    for i in range(N):
        s.write(a[i] * k)


@hls.kernel
def negated(a: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N):
        s.write(-a[i])


@hls.kernel
def offset(s: hls.stream[hls.int32], b: hls.int32[N], off: hls.int32):
    for i in range(N):
        b[i] = s.read() + off


@hls.kernel
def branch_region(a: hls.int32[N], b: hls.int32[N], mode: hls.int32, scale: hls.int32):
    """A scalar computed in the region and an if/else around the producer (both branches write N items)."""
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    k = scale * 2 + 1
    off: hls.int32 = mode - 3
    if mode > 0:
        scaled(a, s, k)
    else:
        negated(a, s)
    offset(s, b, off)


@hls.kernel
def double_all(x: hls.int16[N], y: hls.int16[N]):
    for i in range(N):
        y[i] = x[i] * 2


@hls.kernel
def add_bias(x: hls.int16[N], y: hls.int16[N], bias: hls.int16):
    for i in range(N):
        y[i] = x[i] + bias


@hls.kernel
def optional_stage(a: hls.int16[N], b: hls.int16[N], bias: hls.int16):
    """An `if` with no else around the second task of a ping-pong chain: b keeps its values when bias is 0."""
    hls.dataflow()
    tmp = hls.zeros(N, hls.int16)
    double_all(a, tmp)
    if bias != 0:
        add_bias(tmp, b, bias)
