"""Kernel pairs for tests/customize/test_schedule_spellings.py: each `*_inline` writes hls.dataflow(),
hls.inline() or a FIFO depth in its body, its `*_plain` twin leaves them to a schedule. The twins
have the same statements on the same relative lines, so errors compare by their offset from the def."""

import hls

N = 8


@hls.kernel
def scale(a: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N):
        s.write(a[i] * 3)


@hls.kernel
def shift(s: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = s.read() + 1


@hls.kernel
def both_halves(a: hls.int32[N], s: hls.stream[hls.int32], t: hls.stream[hls.int32]):
    for i in range(N):
        s.write(a[i])
    for j in range(N):
        t.write(a[j] * 2)


@hls.kernel
def interleave(s: hls.stream[hls.int32], t: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = s.read() - t.read()


@hls.kernel
def chain_inline(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=3)
    scale(a, s)
    shift(s, b)


@hls.kernel
def chain_plain(a: hls.int32[N], b: hls.int32[N]):

    s = hls.stream(hls.int32)
    scale(a, s)
    shift(s, b)


@hls.kernel
def diamond_inline(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=1)
    t = hls.stream(hls.int32, depth=N)
    both_halves(a, s, t)
    interleave(s, t, b)


@hls.kernel
def diamond_plain(a: hls.int32[N], b: hls.int32[N]):

    s = hls.stream(hls.int32, depth=N)
    t = hls.stream(hls.int32, depth=N)
    both_halves(a, s, t)
    interleave(s, t, b)


@hls.kernel
def region_inline(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    for i in range(N):
        s.write(a[i] + i)
    for j in range(N):
        b[j] = s.read() * 2


@hls.kernel
def region_plain(a: hls.int32[N], b: hls.int32[N]):

    s = hls.stream(hls.int32, depth=2)
    for i in range(N):
        s.write(a[i] + i)
    for j in range(N):
        b[j] = s.read() * 2


@hls.kernel
def top_of_region_inline(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    region_inline(a, b)
    for i in range(N):
        c[i] = b[i] + a[i]


@hls.kernel
def top_of_region_plain(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    region_plain(a, b)
    for i in range(N):
        c[i] = b[i] + a[i]


@hls.kernel
def two_writers_inline(a: hls.int32[N], b: hls.int32[N]):
    hls.dataflow()
    for i in range(N):
        b[i] = a[i]
    for j in range(N):
        b[j] = a[j] + 1


@hls.kernel
def two_writers_plain(a: hls.int32[N], b: hls.int32[N]):

    for i in range(N):
        b[i] = a[i]
    for j in range(N):
        b[j] = a[j] + 1


@hls.kernel
def helper_inline(a: hls.int32[N], i: hls.int32) -> hls.int32:
    hls.inline()
    return a[i] * 2


@hls.kernel
def helper_plain(a: hls.int32[N], i: hls.int32) -> hls.int32:

    return a[i] * 2


@hls.kernel
def uses_helper_inline(a: hls.int32[N], b: hls.int32[N]):
    for i in range(N):
        b[i] = helper_inline(a, i) + 1


@hls.kernel
def uses_helper_plain(a: hls.int32[N], b: hls.int32[N]):
    for i in range(N):
        b[i] = helper_plain(a, i) + 1


class _Stages:
    """Sub-kernels reached through an attribute, not a plain name of the caller's namespace."""

    region = region_plain


@hls.kernel
def top_by_attribute(a: hls.int32[N], b: hls.int32[N]):
    _Stages.region(a, b)
