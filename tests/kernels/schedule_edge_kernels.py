"""Edge kernels for tests/customize/test_schedule_edges.py: loop nests that run zero or one times, empty
bodies, stepped and negative ranges (a file: the frontend reads source with inspect)."""

import hls


@hls.kernel(flow="vivado")
def zero_outer(A: hls.int16[4, 4], B: hls.int32[4, 4]):
    for i0 in range(4):
        for j0 in range(4):
            B[i0, j0] = A[i0, j0] + 1
    for i1 in range(3, 2):  # noqa: B007 (a nest that never runs)
        for j1 in range(4):
            B[0, j1] = B[0, j1] * 2


@hls.kernel(flow="vivado")
def zero_inner(A: hls.int16[4, 4], B: hls.int32[4, 4]):
    for i in range(4):
        for j in range(5, 5):
            B[i, 0] = A[i, j]
        for k in range(4):
            B[i, k] = A[i, k] - i


@hls.kernel(flow="vivado")
def one_trip(A: hls.int16[4], B: hls.int32[4]):
    for i in range(2, 3):
        for j in range(4):
            B[j] = A[j] * i
    for k in range(1):
        B[k] = B[k] + A[3]


@hls.kernel(flow="vivado")
def empty_bodies(A: hls.int16[4], B: hls.int32[4]):
    for i in range(4):  # noqa: B007
        for j in range(3):  # noqa: B007
            pass
    for k in range(4):
        B[k] = A[k]
    for m in range(4):  # noqa: B007
        pass


@hls.kernel(flow="vivado")
def stepped(A: hls.int16[12], B: hls.int32[12]):
    for i in range(1, 12, 3):
        for j in range(0, 3, 2):
            B[i - 1 + j] = A[i] + j
    for k in range(2, 12, 5):
        B[k] = B[k] + A[k - 2]


@hls.kernel(flow="vivado")
def negative(A: hls.int16[8], B: hls.int32[8]):
    for i in range(7, -1, -1):
        B[i] = A[i] + i
    for j in range(-3, 3):
        B[j + 3] = B[j + 3] + A[j + 4]


@hls.kernel(flow="vivado")
def carried(A: hls.int16[6], B: hls.int32[6]):
    acc: hls.int32 = 0
    for i in range(6):
        acc += A[i]
        B[i] = acc
    for j in range(6, 0, -2):
        B[j - 1] = B[j - 1] - acc


@hls.kernel(flow="vivado")
def zero_siblings(A: hls.int16[4, 4], B: hls.int32[4, 4]):
    for i in range(4):
        for j in range(4):
            B[i, j] = A[i, j]
    for p in range(2, 2):
        for q in range(3):
            B[p, q] = A[q, p] * 3
    for r in range(2, 2):
        for s in range(3):
            B[s, r] = B[r, s] + 1


@hls.kernel(flow="vivado")
def region_nest(A: hls.int16[4, 4], B: hls.int32[4, 4], v: hls.int32[4]):
    """A dataflow region of two processes: a nest, then a loop that reads what it wrote."""
    hls.dataflow()
    for i in range(4):
        for j in range(4):
            B[i, j] = A[i, j] * 2 + j
    for k in range(4):
        v[k] = B[k, 1] - B[k, 2]


@hls.kernel(flow="vivado")
def with_while(A: hls.int16[4], B: hls.int32[4]):
    """A while loop next to for loops (fuzz seeds 2400000026/35/46 fused one: a crash, now a clean error)."""
    n: hls.int32 = 0
    while n < 4:
        B[n] = A[n] + 1
        n += 1
    for i in range(4):
        B[i] = B[i] * 3


@hls.kernel(flow="vivado")
def indirect(A: hls.int16[4, 4], idx: hls.uint8[4], B: hls.int32[4, 4]):
    """An index read from data: a reorder or fusion cannot be checked, an error at the schedule's call."""
    for i in range(4):
        for j in range(4):
            B[idx[i] % 4, j] = A[i, j]
    for k in range(4):
        B[k, 0] = B[k, 0] + 1

