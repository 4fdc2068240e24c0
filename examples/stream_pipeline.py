"""A load/compute/store dataflow pipeline: three processes joined by two FIFOs of depth 2.

The processes run concurrently (in Python mode as in hardware): `load` reads the array into s1,
`scale` turns each item into a*x + b on the way to s2, `store` writes the array back.
"""

import hls

N = 256


@hls.kernel
def load(a: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        hls.pipeline(ii=1)
        out.write(a[i])


@hls.kernel
def scale(inp: hls.stream[hls.int16], out: hls.stream[hls.int32], gain: hls.int16, offset: hls.int16):
    for _i in range(N):
        hls.pipeline(ii=1)
        out.write(inp.read() * gain + offset)


@hls.kernel
def store(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        b[i] = inp.read()


@hls.kernel
def stream_pipeline(a: hls.int16[N], b: hls.int32[N], gain: hls.int16, offset: hls.int16):
    hls.dataflow()
    s1 = hls.stream(hls.int16, depth=2)
    s2 = hls.stream(hls.int32, depth=2)
    load(a, s1)
    scale(s1, s2, gain, offset)
    store(s2, b)


KERNEL = stream_pipeline
