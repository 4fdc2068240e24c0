"""Issue 25's misuse kernels: each fails to compile at the line marked `# E <name>`."""

import hls
from tests.kernels.scoping_kernels import backward_stage, forward_stage

N = 8
ZERO = 0


@hls.kernel
def write_a(a: hls.int32[N], b: hls.int32[N]):
    for i in range(N):
        b[i] = a[i]


@hls.kernel
def write_b(a: hls.int32[N], b: hls.int32[N]):
    for i in range(N):
        b[i] = a[i] + 1


@hls.kernel
def add_arrays(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    for i in range(N):
        c[i] = a[i] + b[i]


@hls.kernel
def floor_by_zero(a: hls.int32[N]) -> hls.int32:
    return a[1] // 0  # E floor_by_zero


@hls.kernel
def mod_by_named_zero(a: hls.int32[N]) -> hls.int32:
    return a[1] % ZERO  # E mod_by_named_zero


@hls.kernel
def augmented_by_zero(a: hls.int32[N]) -> hls.int32:
    x = a[0]
    x //= (N - 8)  # E augmented_by_zero
    return x


@hls.kernel
def fixed_by_zero(x: hls.ap_fixed[16, 4]) -> hls.ap_fixed[16, 4]:
    return x / 0  # E fixed_by_zero


@hls.kernel
def two_writers(a: hls.int32[N], c: hls.int32[N]):
    hls.dataflow()
    b = hls.zeros((N,), hls.int32)
    write_a(a, b)
    write_b(a, b)  # E two_writers
    write_a(b, c)


@hls.kernel
def two_writers_of_output(a: hls.int32[N], c: hls.int32[N]):
    hls.dataflow()
    write_a(a, c)
    for i in range(N):  # E two_writers_of_output
        c[i] += 1


@hls.kernel
def pipo_feedback(a: hls.int32[N], c: hls.int32[N]):
    hls.dataflow()
    t = hls.zeros((N,), hls.int32)
    u = hls.zeros((N,), hls.int32)
    add_arrays(a, u, t)  # E pipo_feedback
    add_arrays(a, t, u)
    write_a(u, c)


@hls.kernel
def unordered_in_place(a: hls.int32[N], b: hls.int32[N]):
    """A later loop overwrites the argument an earlier one reads, nothing between them (schedule fuzz seed
    2314000671, via dataflow(f)): in a region the two run concurrently, so the read could see the new value."""
    hls.dataflow()
    for i in range(N):  # E unordered_in_place
        b[i] = a[N - 1 - i]
    for i in range(N):
        a[i] = i


@hls.kernel
def process_writes_region_scalar(a: hls.int32[N], b: hls.int32[N], s: hls.int16):
    hls.dataflow()
    acc = s + 1
    for i in range(N):
        acc += a[i]  # E process_writes_region_scalar
        b[i] = acc


@hls.kernel
def consume_back(a: hls.int32[N], fb: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    for i in range(N):
        out.write(a[i] + fb.read())


@hls.kernel
def blocking_feedback(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    fb = hls.stream(hls.int32, depth=N)
    consume_back(a, fb, s)  # E blocking_feedback
    backward_stage(s, fb, b)


@hls.kernel
def shallow_feedback(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    fb = hls.stream(hls.int32, depth=2)
    forward_stage(a, fb, s)  # E shallow_feedback
    backward_stage(s, fb, b)


@hls.kernel
def endless_recursion(x: hls.int32) -> hls.int32:
    def down(v):
        return down(v - 1)  # E endless_recursion
    return down(x)


@hls.kernel
def helper_early_return(x: hls.int32) -> hls.int32:
    def clip(v):
        if v > 3:
            return 3  # E helper_early_return
        return v
    return clip(x)


@hls.kernel
def decorated_helper(x: hls.int32) -> hls.int32:
    @hls.kernel  # noqa: B023
    def inner(v: hls.int32) -> hls.int32:  # E decorated_helper
        return v
    return inner(x)


@hls.kernel
def nested_loop_reuse(a: hls.int32[N]):
    for i in range(N):
        for i in range(2):  # E nested_loop_reuse
            a[i] += 1
