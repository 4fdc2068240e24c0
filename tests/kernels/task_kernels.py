"""Kernels with @hls.task processes (hls::task): good ones, deadlocking ones, and the refused ones.

Each bad kernel's error line carries `# E <name>` (tests/error_marks.py).
"""

import hls

N = 8


@hls.kernel
def load(a: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def store(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = inp.read()


@hls.task
def scale(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    out.write(inp.read() * 3 - 1)


@hls.task
def bump(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    v = inp.read()
    if v > 0:
        out.write(v + 100)
    else:
        out.write(-v)


@hls.kernel
def task_chain(a: hls.int16[N], b: hls.int32[N]):
    """A loop, two tasks and a loop: the tasks idle once `load` is done and `store` has its N items."""
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    u = hls.stream(hls.int32, depth=4)
    load(a, s)
    scale(s, t)
    bump(t, u)
    store(u, b)


@hls.task
def splitter(inp: hls.stream[hls.int32], odds: hls.stream[hls.int32], evens: hls.stream[hls.int32]):
    v = inp.read()
    if v % 2 == 1:
        odds.write(v)
    else:
        evens.write(v)


@hls.task
def tag_odd(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    out.write(inp.read() * 10 + 1)


@hls.task
def tag_even(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    out.write(inp.read() * 10)


@hls.kernel
def odds_and_evens(inp: hls.stream[hls.int32], out1: hls.stream[hls.int32], out2: hls.stream[hls.int32]):
    """UG1399's purely streaming shape: three tasks on top-level streams; it ends when `inp` is empty."""
    hls.dataflow()
    s1 = hls.stream(hls.int32)
    s2 = hls.stream(hls.int32)
    splitter(inp, s1, s2)
    tag_odd(s1, out1)
    tag_even(s2, out2)


@hls.task
def running_sum(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    """A free-running top kernel with state: the sum so far, kept from one iteration to the next."""
    acc = hls.static(hls.int32(0))
    acc += inp.read()
    out.write(acc)


@hls.task
def pairs(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    x = inp.read()
    y = inp.read()
    out.write(x + y)


@hls.kernel
def starved(a: hls.int16[N], b: hls.int32[N]):
    """Deadlock: `pairs` writes N/2 items, `store` waits for N (a loop process is not a task: it must end)."""
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    load(a, s)
    pairs(s, t)
    store(t, b)


@hls.task
def twice(inp: hls.stream[hls.int16], out: hls.stream[hls.int32]):
    v = inp.read()
    out.write(v)
    out.write(v)


@hls.kernel
def flooded(a: hls.int16[N], b: hls.int32[N]):
    """Deadlock: `twice` writes 2N items, `store` reads N and ends; `twice` then waits on a full FIFO,
    which is not a task's idle state."""
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    load(a, s)
    twice(s, t)
    store(t, b)


# ---- refused -------------------------------------------------------------------------------------


@hls.task
def task_array_arg(inp: hls.stream[hls.int16], table: hls.int16[N]):  # E task_array_arg
    inp.read()


@hls.task
def task_scalar_arg(inp: hls.stream[hls.int16], gain: hls.int16):  # E task_scalar_arg
    inp.read()


@hls.task
def task_returns(inp: hls.stream[hls.int16]) -> hls.int16:  # E task_returns
    return inp.read()


@hls.kernel
def task_outside_region(x: hls.stream[hls.int16], y: hls.stream[hls.int32]):
    scale(x, y)  # E task_outside_region


@hls.kernel
def task_in_loop(a: hls.int16[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    load(a, s)
    for _i in range(N):
        scale(s, t)  # E task_in_loop
    store(t, b)


@hls.task
def task_with_region(x: hls.stream[hls.int16], y: hls.stream[hls.int32]):
    hls.dataflow()  # E task_with_region
    scale(x, y)


@hls.kernel
def inner_tasks(x: hls.stream[hls.int16], y: hls.stream[hls.int32]):
    hls.dataflow()
    scale(x, y)


@hls.kernel
def nested_tasks(a: hls.int16[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    load(a, s)
    inner_tasks(s, t)  # E nested_tasks
    store(t, b)


@hls.kernel
def task_two_readers(a: hls.int16[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int16)
    t = hls.stream(hls.int32)
    u = hls.stream(hls.int32)
    load(a, s)
    scale(s, t)
    scale(s, u)  # E task_two_readers
    store(t, b)


@hls.task
def task_without_read(out: hls.stream[hls.int32]):  # E task_without_read
    out.write(1)
