"""Issue 25's dataflow structures (tests/frontend/test_chains.py): a list of FIFOs joining a row of
processing elements unrolled when the design is built, streams declared before hls.dataflow(), and
hls.interface(x, "axis") on a stream argument."""

import hls

N = 8
P = 3


@hls.kernel
def load(a: hls.int32[N], out: hls.stream[hls.int32]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def pe(inp: hls.stream[hls.int32], out: hls.stream[hls.int32], k: hls.int32):
    for _i in range(N):
        hls.pipeline()
        out.write(inp.read() * 2 + k)


@hls.kernel
def store(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = inp.read()


@hls.kernel
def systolic(a: hls.int32[N], b: hls.int32[N]):
    """UG1399's chain of identical processes cascaded through an array of streams."""
    s = [hls.stream(hls.int32, depth=2) for _ in range(P + 1)]
    hls.dataflow()
    load(a, s[0])
    for p in range(P):
        pe(s[p], s[p + 1], p)
    store(s[P], b)


@hls.kernel
def fan(inp: hls.stream[hls.int32], outs0: hls.stream[hls.int32], outs1: hls.stream[hls.int32]):
    for i in range(N):
        v = inp.read()
        if i % 2 == 0:
            outs0.write(v)
        else:
            outs1.write(v + 100)


@hls.kernel
def drain(inp: hls.stream[hls.int32], b: hls.int32[N // 2]):
    for i in range(N // 2):
        b[i] = inp.read()


@hls.kernel
def diamond(a: hls.int32[N], even: hls.int32[N // 2], odd: hls.int32[N // 2]):
    """Streams declared before hls.dataflow() (the Vitis diamond examples' order), an unrolled loop of
    two calls per iteration with hls.unroll()."""
    src = hls.stream(hls.int32, depth=2)
    lanes = [hls.stream(hls.int32, depth=N) for _ in range(2)]
    hls.dataflow()
    load(a, src)
    fan(src, lanes[0], lanes[1])
    for k in range(1):
        hls.unroll()
        drain(lanes[k], even)
        drain(lanes[k + 1], odd)


@hls.kernel
def axis_gain(x: hls.stream[hls.int16], y: hls.stream[hls.int16], g: hls.int16):
    """hls.interface(x, "axis") on stream arguments (their default interface, written out)."""
    hls.interface(x, "axis")
    hls.interface(y, "axis")
    for _i in range(N):
        y.write(x.read() * g)
