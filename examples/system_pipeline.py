"""A system of three kernels (docs/systems.md): `load` reads memory into a stream, `scale` (free-running:
started by nothing, it runs as items arrive) transforms the stream, `store` writes it back to memory."""

import hls

N = 64


@hls.kernel
def load(src: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        hls.pipeline(ii=1)
        out.write(src[i])


@hls.task
def scale(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    x = inp.read()  # one iteration: a task runs its body again for every item (docs/dataflow.md)
    out.write(hls.int32(x) * 3 + 1)


@hls.kernel
def store(inp: hls.stream[hls.int32], dst: hls.int32[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        dst[i] = inp.read()


SYSTEM = hls.System([load, scale, store], connect=[("load.out", "scale.inp"), ("scale.out", "store.inp")],
                    memory={"load.src": "DDR[0]", "store.dst": "DDR[1]"}, name="pipeline")

KERNEL = scale
