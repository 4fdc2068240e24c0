"""hls.split / hls.merge kernels (UG1399 split/merge channels): farms of tasks, and the refused shapes.

Each bad kernel's error line carries `# E <name>` (tests/error_marks.py).
"""

import hls

N = 12


@hls.kernel
def load(a: hls.int32[N], out: hls.stream[hls.int32]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def store(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = inp.read()


@hls.task
def plus(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    out.write(inp.read() + 1000)


@hls.task
def twice(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    out.write(inp.read() * 2)


@hls.task
def negate(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    out.write(-inp.read())


@hls.kernel
def farm(a: hls.int32[N], b: hls.int32[N]):
    """Round robin both ways: item i goes to worker i % 3 and comes back in its place."""
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    w2 = hls.stream(hls.int32)
    r0 = hls.stream(hls.int32)
    r1 = hls.stream(hls.int32)
    r2 = hls.stream(hls.int32)
    out = hls.stream(hls.int32, depth=4)
    load(a, s)
    hls.split.round_robin(s, [w0, w1, w2])
    plus(w0, r0)
    twice(w1, r1)
    negate(w2, r2)
    hls.merge.round_robin([r0, r1, r2], out)
    store(out, b)


@hls.kernel
def balanced(a: hls.int32[N], b: hls.int32[N]):
    """Load balance both ways: which worker gets an item follows the interleaving (deterministic here)."""
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32, depth=1)
    w1 = hls.stream(hls.int32, depth=3)
    r0 = hls.stream(hls.int32)
    r1 = hls.stream(hls.int32)
    out = hls.stream(hls.int32)
    load(a, s)
    hls.split.load_balance(s, [w0, w1])
    plus(w0, r0)
    twice(w1, r1)
    hls.merge.load_balance([r0, r1], out)
    store(out, b)


@hls.kernel
def scatter(x: hls.stream[hls.int32], y0: hls.stream[hls.int32], y1: hls.stream[hls.int32]):
    """A purely streaming split: a task copies the input into the split, the ends are tasks too."""
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    plus(x, s)
    hls.split.round_robin(s, [w0, w1])
    twice(w0, y0)
    negate(w1, y1)


@hls.task
def pair_sum(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    x = inp.read()
    y = inp.read()
    out.write(x + y)


@hls.kernel
def unbalanced_merge(a: hls.int32[N], b: hls.int32[N]):
    """Deadlock: worker 1 gives one item per two, round robin then waits on r1 while r0 fills up."""
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    r0 = hls.stream(hls.int32)
    r1 = hls.stream(hls.int32)
    out = hls.stream(hls.int32)
    load(a, s)
    hls.split.round_robin(s, [w0, w1])
    plus(w0, r0)
    pair_sum(w1, r1)
    hls.merge.round_robin([r0, r1], out)
    store(out, b)


# ---- refused -------------------------------------------------------------------------------------


@hls.kernel
def split_of_argument(x: hls.stream[hls.int32], b: hls.int32[N]):
    hls.dataflow()
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    hls.split.round_robin(x, [w0, w1])  # E split_of_argument
    store(w0, b)


@hls.kernel
def split_one_output(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    load(a, s)
    hls.split.round_robin(s, [w0])  # E split_one_output
    store(w0, b)


@hls.kernel
def split_mixed_types(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int16)
    load(a, s)
    hls.split.round_robin(s, [w0, w1])  # E split_mixed_types
    store(w0, b)


@hls.kernel
def split_into_merge(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    out = hls.stream(hls.int32)
    load(a, s)
    hls.split.round_robin(s, [w0, w1])
    hls.merge.round_robin([w0, w1], out)  # E split_into_merge
    store(out, b)


@hls.kernel
def split_two_readers(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    r0 = hls.stream(hls.int32)
    load(a, s)
    hls.split.round_robin(s, [w0, w1])
    plus(w0, r0)
    twice(w0, w1)  # E split_two_readers
    store(r0, b)


@hls.kernel
def merge_duplicate(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    r0 = hls.stream(hls.int32)
    out = hls.stream(hls.int32)
    load(a, s)
    plus(s, r0)
    hls.merge.round_robin([r0, r0], out)  # E merge_duplicate
    store(out, b)


@hls.kernel
def relay(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    for _ in range(N):
        out.write(inp.read())


@hls.kernel
def listed_farm(a: hls.int32[N], b: hls.int32[N]):
    """A split reading `r[1]` and a merge writing `q[0]` of lists of streams (the fuzzer's row into a farm)."""
    hls.dataflow()
    r = [hls.stream(hls.int32, depth=2) for _ in range(2)]
    q = [hls.stream(hls.int32, depth=3) for _ in range(2)]
    w = [hls.stream(hls.int32) for _ in range(2)]
    back = [hls.stream(hls.int32) for _ in range(2)]
    load(a, r[0])
    relay(r[0], r[1])
    hls.split.round_robin(r[1], [w[0], w[1]])
    plus(w[0], back[0])
    negate(w[1], back[1])
    hls.merge.round_robin([back[0], back[1]], q[0])
    relay(q[0], q[1])
    store(q[1], b)


@hls.kernel
def listed_duplicate(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    r = [hls.stream(hls.int32) for _ in range(2)]
    out = hls.stream(hls.int32)
    load(a, r[0])
    plus(r[0], r[1])
    hls.merge.round_robin([r[1], r[1]], out)  # E listed_duplicate
    store(out, b)


@hls.kernel
def in_place_farm(a: hls.int32[N]):
    """`a` read by the first process and overwritten by the last, which the first feeds through the farm."""
    hls.dataflow()
    s = [hls.stream(hls.int32) for _ in range(2)]
    w = [hls.stream(hls.int32) for _ in range(2)]
    r = [hls.stream(hls.int32) for _ in range(2)]
    load(a, s[0])
    hls.split.round_robin(s[0], [w[0], w[1]])
    plus(w[0], r[0])
    negate(w[1], r[1])
    hls.merge.round_robin([r[0], r[1]], s[1])
    store(s[1], a)
