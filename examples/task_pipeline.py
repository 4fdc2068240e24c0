"""Free-running tasks in a dataflow region: a loop feeds two `@hls.task` stages, a loop drains them.

`clip` and `energy` are hls::task processes (`hls_thread_local hls::task` in the C++): started once,
each runs its body again and again, whenever an item is in its input FIFO. `load` and `store` are
ordinary loop processes, so the region still has a start and an end: Python mode and csim end it when
`store` has its N items and both tasks wait on empty inputs (their idle state, not a deadlock).
"""

import hls

N = 64
LIMIT = 1000


@hls.kernel
def load(a: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        hls.pipeline(ii=1)
        out.write(a[i])


@hls.task
def clip(inp: hls.stream[hls.int16], out: hls.stream[hls.int16]):
    v = inp.read()
    out.write(max(-LIMIT, min(LIMIT, v)))


@hls.task
def energy(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    v = inp.read()
    out.write(v * v)


@hls.kernel
def store(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        b[i] = inp.read()


@hls.kernel
def task_pipeline(a: hls.int16[N], b: hls.int32[N]):
    hls.dataflow()
    s1 = hls.stream(hls.int16, depth=2)
    s2 = hls.stream(hls.int16, depth=2)
    s3 = hls.stream(hls.int32, depth=2)
    load(a, s1)
    clip(s1, s2)
    energy(s2, s3)
    store(s3, b)


KERNEL = task_pipeline
