"""Kernels of issue 25's scoping and misuse families that compile (tests/frontend/test_scoping.py)."""

import hls

N = 8
DEPTH = 4


def make_mix(rounds: int):
    """A factory whose top kernel calls a helper kernel defined after it (Python resolves it at call time)."""

    @hls.kernel
    def mix(a: hls.uint8[N], b: hls.uint8[N]):
        for i in range(N):
            b[i] = double_gf(a[i]) ^ rounds

    @hls.kernel
    def double_gf(x: hls.uint8) -> hls.uint8:
        return hls.uint8(((x << 1) ^ (0x1B if x & 0x80 else 0)) & 0xFF)

    return mix


@hls.kernel
def nested_helpers(a: hls.int32[N], b: hls.int32[N], k: hls.int16):
    """A value helper, a helper writing an array, a helper reading the kernel's scalar, one calling another."""
    def square(x):
        return x * x

    def scaled(x):
        t = square(x) + k  # `t` is the helper's own local
        return t * 2

    def bump(arr, i, by):
        arr[i] += by

    t = 5
    for i in range(N):
        b[i] = scaled(a[i]) - t
        bump(b, i, 3)


@hls.kernel
def fibonacci(x: hls.int32) -> hls.int32:
    """Vitis's fibon<N> template example: a recursion on a compile-time argument unfolds while building."""
    def fibon(n, a, b):
        return a if n == 0 else fibon(n - 1, b, a + b)
    return fibon(10, x, x + 1)


@hls.kernel
def power_unrolled(x: hls.int32) -> hls.int32:
    """Recursion through an `if` statement decided at compile time."""
    def pw(n, v):
        if n == 1:
            r = v
        else:
            r = v * pw(n - 1, v)
        return r
    return pw(5, x) + pw(1, x)


@hls.kernel
def last_index(a: hls.int32[N], n: hls.int32) -> hls.int32:
    """`prev = 0; for prev in range(1, n)`: the loop variable is `prev`, its last value after the loop."""
    prev = 0
    for prev in range(1, n):
        a[prev] += a[prev - 1]
    return prev * 10 + a[N - 1]


@hls.kernel
def search_count(a: hls.int16[N], key: hls.int16) -> hls.int32:
    """The loop variable reused in a nested loop body, and after the loop, with a pipeline directive first."""
    j = -1
    found = hls.int32(0)
    for j in range(N):
        hls.pipeline()
        if a[j] == key:
            found += j
    return found * 100 + j


@hls.kernel
def merged(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    """hls.loop_merge (UG1399 loop_merge) at function level and inside a loop body."""
    hls.loop_merge()
    for i in range(N):
        b[i] = a[i] + 1
    for i in range(N):
        c[i] = a[i] * 2
    for r in range(2):
        hls.loop_merge(force=True)
        for i in range(N):
            b[i] += r
        for i in range(N):
            c[i] -= r


@hls.kernel
def big_unroll(a: hls.int32[N]) -> hls.int32:
    """A 2**20-way unroll: Vitis would take very long or stop; a size warning at the directive."""
    s = hls.int32(0)
    for i in range(1 << 20):
        hls.unroll()
        s += a[i & 7]
    return s


@hls.kernel
def forward_stage(a: hls.int32[N], fb: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    acc = hls.int32(0)
    for i in range(N):
        ok, v = fb.read_nb()
        if ok:
            acc += v
        out.write(a[i] + acc)


@hls.kernel
def backward_stage(inp: hls.stream[hls.int32], fb: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        x = inp.read()
        b[i] = x
        fb.write(x & 3)


@hls.kernel
def feedback_kept(a: hls.int32[N], b: hls.int32[N]):
    """A FIFO back to an earlier process, kept by UG1399's feedback rules: read_nb, depth for one run."""
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    fb = hls.stream(hls.int32, depth=N)
    forward_stage(a, fb, s)
    backward_stage(s, fb, b)
