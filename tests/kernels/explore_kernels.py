"""Kernel factories for the design-space exploration tests (module level, so worker processes import them).

No `from __future__ import annotations` here: `vector` needs its annotation evaluated at `def` time.
"""

import hls

N = 8


def matmul(ii: int, unroll: int, partition: int) -> hls.Kernel:
    """An N x N matrix multiply whose pipeline II, inner unroll factor and partitioning are parameters."""

    @hls.kernel
    def mm(a: hls.int16[N, N], b: hls.int16[N, N], c: hls.int32[N, N]):
        hls.interface(a, "ap_memory")
        hls.interface(b, "ap_memory")
        hls.array_partition(a, "cyclic", factor=partition, dim=2)
        hls.array_partition(b, "cyclic", factor=partition, dim=1)
        for i in range(N):
            for j in range(N):
                acc = hls.int32(0)
                for k in range(N):
                    hls.pipeline(ii=ii)
                    hls.unroll(factor=unroll)
                    acc += a[i, k] * b[k, j]
                c[i, j] = acc

    return mm


def broken(size: int) -> hls.Kernel:
    """Fails to build for an unroll factor below 1, builds otherwise."""

    @hls.kernel
    def scale(x: hls.int32[4]):
        for i in range(4):
            hls.unroll(factor=size)
            x[i] = x[i] * 2

    return scale


def vector(n: int) -> hls.Kernel:
    """`n` appears only in the signature: it is no closure cell of `fill`, Python's evaluation gives the shape."""

    @hls.kernel
    def fill(x: hls.int32[n]):
        for i in range(4):
            x[i] = i

    return fill
