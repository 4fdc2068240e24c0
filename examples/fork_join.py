"""Fork/join: subtract the mean. `fork` sends every sample both to `total` and down a bypass FIFO;
`join` needs the total before it can take the first sample back from the bypass.

With the bypass at depth 2 (as written) the region deadlocks: `fork` blocks writing the full bypass,
`total` waits for samples `fork` cannot send, `join` waits for the total. Python mode reports the
three blocked lines; `KERNEL.size_fifos()` says how deep the bypass must be (every sample:
N items), and `centered` (below) uses that depth.
"""

import hls

N = 64


@hls.kernel
def fork(x: hls.int16[N], to_total: hls.stream[hls.int16], bypass: hls.stream[hls.int16]):
    for i in range(N):
        hls.pipeline(ii=1)
        to_total.write(x[i])
        bypass.write(x[i])


@hls.kernel
def total(samples: hls.stream[hls.int16], result: hls.stream[hls.int32]):
    acc = hls.int32(0)
    for _i in range(N):
        hls.pipeline(ii=1)
        acc += samples.read()
    result.write(acc)


@hls.kernel
def join(result: hls.stream[hls.int32], bypass: hls.stream[hls.int16], y: hls.int32[N]):
    s = result.read()
    for i in range(N):
        hls.pipeline(ii=1)
        y[i] = bypass.read() * N - s


@hls.kernel
def fork_join(x: hls.int16[N], y: hls.int32[N]):
    """Deadlocks: the bypass holds 2 samples, `join` reads it only after all N went to `total`."""
    hls.dataflow()
    a = hls.stream(hls.int16, depth=2)
    bypass = hls.stream(hls.int16, depth=2)
    t = hls.stream(hls.int32, depth=2)
    fork(x, a, bypass)
    total(a, t)
    join(t, bypass, y)


@hls.kernel
def centered(x: hls.int16[N], y: hls.int32[N]):
    """The same region with the bypass depth that fork_join.size_fifos() reports."""
    hls.dataflow()
    a = hls.stream(hls.int16, depth=2)
    bypass = hls.stream(hls.int16, depth=N)
    t = hls.stream(hls.int32, depth=2)
    fork(x, a, bypass)
    total(a, t)
    join(t, bypass, y)


KERNEL = centered
