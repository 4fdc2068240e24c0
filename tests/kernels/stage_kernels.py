"""A dataflow region whose FIFO depths hold in Python statement order but deadlock in pipeline-stage
timing (tests/schedule/test_stage_timing.py): `split` writes both FIFOs in one stage of its pipeline."""

import hls

N = 16


@hls.kernel
def split(a: hls.int32[N], b: hls.int32[N], s1: hls.stream[hls.int32], s2: hls.stream[hls.int32]):
    for i in range(N):
        hls.pipeline()
        s1.write(a[i])
        s2.write(b[i])


@hls.kernel
def firsts_then_seconds(s1: hls.stream[hls.int32], s2: hls.stream[hls.int32], out: hls.int32[N]):
    for i in range(N):
        hls.pipeline()
        out[i] = s1.read()
    for i in range(N):
        hls.pipeline()
        out[i] += s2.read()


@hls.kernel
def same_stage(a: hls.int32[N], b: hls.int32[N], out: hls.int32[N]):
    """s2 needs N slots: the writes of s1 and s2 issue together, so s1's last item waits for room in s2."""
    hls.dataflow()
    s1 = hls.stream(hls.int32, depth=2)
    s2 = hls.stream(hls.int32, depth=N - 1)
    split(a, b, s1, s2)
    firsts_then_seconds(s1, s2, out)
