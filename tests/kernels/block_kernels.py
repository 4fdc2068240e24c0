"""hls.stream_of_blocks kernels (UG1399 "HLS Stream of Blocks Library") for tests/frontend/test_stream_of_blocks.py.

Each bad kernel's error line carries `# E <name>` (tests/error_marks.py).
"""

import hls

M = 4  # blocks per run
N = 8  # items per block
BLOCK = hls.int32[N]


@hls.kernel
def fill(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(M):
        with hls.write_lock(buf) as b:
            for i in range(N):
                b[N - 1 - i] = a[k * N + i] * 3  # a block is written in any order
    return


@hls.kernel
def drain(buf: hls.stream_of_blocks[BLOCK], out: hls.int32[M * N]):
    for k in range(M):
        with hls.read_lock(buf) as b:
            for i in range(N):
                out[k * N + i] = b[i] + b[(i + 1) % N]


@hls.kernel
def reverse_pairs(a: hls.int32[M * N], out: hls.int32[M * N]):
    """A producer and a consumer sub-kernel joined by a stream of blocks of the default depth."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill(a, buf)
    drain(buf, out)


@hls.kernel
def loops(a: hls.int16[M * N], out: hls.int32[M * N]):
    """The two processes as loops of the region; a block of depth 3 and a running sum over blocks."""
    hls.dataflow()
    buf = hls.stream_of_blocks(hls.int16[N], depth=3)
    for k in range(M):
        with hls.write_lock(buf) as b:
            for i in range(N):
                b[i] = a[k * N + i] - k
    for k in range(M):
        with hls.read_lock(buf) as b:
            acc = hls.int32(0)
            for i in range(N):
                acc += b[N - 1 - i]
                out[k * N + i] = acc


R, C = 2, 4
TILE = hls.ap_fixed[12, 4][R, C]


@hls.kernel
def tiles(a: hls.ap_fixed[12, 4][M * R * C], out: hls.ap_fixed[16, 6][M * R * C]):
    """2-D ap_fixed blocks: the producer writes each tile transposed in its index order, the consumer
    reads it back row by row and doubles every item."""
    hls.dataflow()
    buf = hls.stream_of_blocks(TILE)
    for k in range(M):
        with hls.write_lock(buf) as t:
            for j in range(C):
                for i in range(R):
                    t[i, j] = a[k * R * C + j * R + i]
    for k in range(M):
        with hls.read_lock(buf) as t:
            for i in range(R):
                for j in range(C):
                    out[k * R * C + i * C + j] = t[i, j] * 2


@hls.task
def unpack(buf: hls.stream_of_blocks[BLOCK], out: hls.stream[hls.int32]):
    """A task consuming blocks: one block per iteration, idle once none is released."""
    with hls.read_lock(buf) as b:
        for i in range(N):
            out.write(b[i] - b[0])


@hls.kernel
def drain_stream(s: hls.stream[hls.int32], out: hls.int32[M * N]):
    for k in range(M * N):
        out[k] = s.read()


@hls.kernel
def task_consumer(a: hls.int32[M * N], out: hls.int32[M * N]):
    """fill -> a stream of blocks -> a task -> a stream: the region ends with the task idle."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    s = hls.stream(hls.int32)
    fill(a, buf)
    unpack(buf, s)
    drain_stream(s, out)


@hls.kernel
def scale(blk: hls.int32[N], k: hls.int32):
    for i in range(N):
        blk[i] = blk[i] * k


@hls.kernel
def pipelined(a: hls.int32[M * N], out: hls.int32[M * N]):
    """A pipelined producer loop whose block goes to a sub-kernel inside the `with` (C++: the lock
    converts to the array it holds)."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    for k in range(M):
        hls.pipeline()
        with hls.write_lock(buf) as b:
            for i in range(N):
                b[i] = a[k * N + i]
            scale(b, k + 1)
    for k in range(M):
        with hls.read_lock(buf) as b:
            for i in range(N):
                hls.pipeline()
                out[k * N + i] = b[N - 1 - i]


@hls.kernel
def fill_more(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(M + 1):
        with hls.write_lock(buf) as b:
            for i in range(N):
                b[i] = a[(k * N + i) % (M * N)]


@hls.kernel
def short_of_blocks(a: hls.int32[M * N], out: hls.int32[M * N]):
    """The consumer reads one block more than the producer writes: a deadlock in both models."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill(a, buf)
    for k in range(M + 1):
        with hls.read_lock(buf) as b:
            for i in range(N):
                out[(k * N + i) % (M * N)] = b[i]


def make_pair(depth: int):
    """A producer that writes every block before it tells the consumer to start, and that consumer,
    on a stream of blocks of `depth` (a parameter's depth is part of its C++ type)."""

    @hls.kernel
    def ahead(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK, depth], s: hls.stream[hls.int32]):
        for k in range(M):
            with hls.write_lock(buf) as b:
                for i in range(N):
                    b[i] = a[k * N + i]
        s.write(1)

    @hls.kernel
    def behind(buf: hls.stream_of_blocks[BLOCK, depth], s: hls.stream[hls.int32], out: hls.int32[M * N]):
        go = s.read()  # waits until the producer has written every block
        for k in range(M):
            with hls.read_lock(buf) as b:
                for i in range(N):
                    out[k * N + i] = b[i] + go

    return ahead, behind


ahead, behind = make_pair(2)
ahead_deep, behind_deep = make_pair(M)
ahead_short, behind_short = make_pair(M - 1)


@hls.kernel
def full_of_blocks(a: hls.int32[M * N], out: hls.int32[M * N]):
    """The producer must write M blocks before the consumer takes one: depth 2 deadlocks."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    s = hls.stream(hls.int32)
    ahead(a, buf, s)
    behind(buf, s, out)


@hls.kernel
def deep_enough(a: hls.int32[M * N], out: hls.int32[M * N]):
    """The same with room for the M blocks (the producer's own block counts, and it releases each one
    before it takes the next): no deadlock."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK, depth=M)
    s = hls.stream(hls.int32)
    ahead_deep(a, buf, s)
    behind_deep(buf, s, out)


@hls.kernel
def one_short(a: hls.int32[M * N], out: hls.int32[M * N]):
    """Depth M - 1: the producer's last write lock waits for a block the consumer never frees."""
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK, depth=M - 1)
    s = hls.stream(hls.int32)
    ahead_short(a, buf, s)
    behind_short(buf, s, out)


# ---- refused shapes ---------------------------------------------------------------------------


@hls.kernel
def two_writers(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill(a, buf)
    fill(a, buf)  # E two_writers
    drain(buf, out)


@hls.kernel
def lock_in_region(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    with hls.write_lock(buf) as b:  # E lock_in_region
        b[0] = a[0]
    drain(buf, out)


@hls.kernel
def fill_escaping(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(M):
        with hls.write_lock(buf) as b:
            b[0] = a[k]
        b[1] = a[k]  # E escaping


@hls.kernel
def escaping(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill_escaping(a, buf)
    drain(buf, out)


@hls.kernel
def fill_rank(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(M):
        with hls.write_lock(buf) as b:
            b[0, 1] = a[k]  # E wrong_rank


@hls.kernel
def wrong_rank(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill_rank(a, buf)
    drain(buf, out)


@hls.kernel
def drain_writes(buf: hls.stream_of_blocks[BLOCK], out: hls.int32[M * N]):
    for k in range(M):
        with hls.read_lock(buf) as b:
            b[0] = 1  # E write_in_read_lock
            out[k] = b[1]


@hls.kernel
def write_in_read_lock(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill(a, buf)
    drain_writes(buf, out)


@hls.kernel
def varying_shape(a: hls.int32[M * N], out: hls.int32[M * N], n: hls.int32):
    hls.dataflow()
    buf = hls.stream_of_blocks(hls.int32[n])  # E varying_shape
    fill(a, buf)
    drain(buf, out)


@hls.kernel
def no_region(a: hls.int32[M * N], out: hls.int32[M * N]):
    buf = hls.stream_of_blocks(BLOCK)  # E no_region
    for k in range(M):
        with hls.write_lock(buf) as b:
            b[0] = a[k]


@hls.kernel
def fill_nested(a: hls.int32[M * N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(M // 2):
        with hls.write_lock(buf) as b:
            with hls.write_lock(buf) as c:  # E nested_locks
                b[0] = a[k]
                c[0] = a[k]


@hls.kernel
def nested_locks(a: hls.int32[M * N], out: hls.int32[M * N]):
    hls.dataflow()
    buf = hls.stream_of_blocks(BLOCK)
    fill_nested(a, buf)
    drain(buf, out)
