"""Small stream kernels for tests/frontend/test_streams.py (good ones first, then the ones the checks reject)."""

import hls

N = 8


@hls.kernel
def produce(a: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N):
        s.write(a[i])


@hls.kernel
def produce_more(a: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N + 1):
        s.write(a[i % N])


@hls.kernel
def consume(s: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = s.read()


@hls.kernel
def consume_half(s: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        if i < 4:
            b[i] = s.read()


@hls.kernel
def chain(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    produce(a, s)
    consume(s, b)


@hls.kernel
def leftover(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=N)
    produce(a, s)
    consume_half(s, b)


@hls.kernel
def nonblocking(x: hls.stream[hls.int8], y: hls.stream[hls.int8], got: hls.int32[1]):
    """Counts the items read_nb finds, writes them doubled while write_nb succeeds."""
    count = hls.int32(0)
    for _i in range(N):
        ok, v = x.read_nb()
        if ok:
            count += 1
            done = y.write_nb(v * 2)
            if not done:
                count += 100
    if x.empty():
        count += 1000
    if y.full():
        count += 10000
    got[0] = count


@hls.kernel
def loops_as_processes(a: hls.float32[N], b: hls.float32[N]):
    hls.dataflow()
    s = hls.stream(hls.float32, depth=4)
    for i in range(N):
        s.write(a[i] * 0.5)
    for j in range(N):
        b[j] = s.read() + 1


@hls.kernel
def pingpong(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    buf = hls.zeros((N,), hls.int32)
    for i in range(N):
        buf[i] = a[i] + 1
    for j in range(N):
        b[j] = buf[N - 1 - j]


@hls.kernel
def passthrough(x: hls.stream[hls.int16], y: hls.stream[hls.int16], n: hls.int32):
    for _i in range(n):
        y.write(x.read())


@hls.kernel
def inner_region(s: hls.stream[hls.int32], t: hls.stream[hls.int32]):
    hls.dataflow()
    q = hls.stream(hls.int32, depth=2)
    for _i in range(N):
        q.write(s.read() + 1)
    for _j in range(N):
        t.write(q.read() * 2)


@hls.kernel
def outer_region(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    t = hls.stream(hls.int32, depth=2)
    produce(a, s)
    inner_region(s, t)
    consume(t, b)


@hls.kernel
def odd_types(x: hls.stream[hls.ap_fixed[16, 6]], y: hls.stream[hls.uint12], z: hls.stream[hls.bool_]):
    for _i in range(4):
        v = x.read()
        y.write(hls.uint12(v * 8))
        z.write(v < 0)


@hls.kernel
def fill_and_send(a: hls.int32[N], buf: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N):
        buf[i] = a[i] * 2
        s.write(a[i])


@hls.kernel
def pingpong_with_fifo(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    """The writer of `buf` blocks on the FIFO (depth 1) long before it is done; the drain runs then,
    but the reader of `buf` must still wait for the writer to finish."""
    hls.dataflow()
    buf = hls.zeros((N,), hls.int32)
    s = hls.stream(hls.int32, depth=1)
    fill_and_send(a, buf, s)
    for i in range(N):
        c[i] = s.read()
    for j in range(N):
        b[j] = buf[N - 1 - j]


@hls.kernel
def same_depth_deadlock(a: hls.int32[N], b: hls.int32[N]):
    """Loops as processes: the first writes all of s before any of t, the second reads t first."""
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    t = hls.stream(hls.int32, depth=2)
    for _r in range(1):
        for i in range(N):
            s.write(a[i])
        for k in range(N):
            t.write(a[k])
    for j in range(N):
        b[j] = t.read() + s.read()


M = 1024


@hls.kernel
def stage_in(x: hls.stream[hls.int32], o: hls.stream[hls.int32]):
    for _i in range(M):
        hls.pipeline(ii=1)
        o.write(x.read() + 1)


@hls.kernel
def stage_mid(i: hls.stream[hls.int32], o: hls.stream[hls.int32]):
    for _i in range(M):
        hls.pipeline(ii=1)
        o.write(i.read() * 3)


@hls.kernel
def stage_out(i: hls.stream[hls.int32], y: hls.stream[hls.int32]):
    for _i in range(M):
        hls.pipeline(ii=1)
        y.write(i.read() - 2)


@hls.kernel
def three_stages(x: hls.stream[hls.int32], y: hls.stream[hls.int32]):
    hls.dataflow()
    s1 = hls.stream(hls.int32, depth=2)
    s2 = hls.stream(hls.int32, depth=2)
    stage_in(x, s1)
    stage_mid(s1, s2)
    stage_out(s2, y)


@hls.kernel
def two_reads(x: hls.stream[hls.int32], y: hls.stream[hls.int32]):
    for _i in range(16):
        hls.pipeline(ii=1)
        y.write(x.read() + x.read())


@hls.kernel
def skip_first(x: hls.stream[hls.int16], y: hls.stream[hls.int16]):
    x.read()
    for _i in range(3):
        y.write(x.read())
