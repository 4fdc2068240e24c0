"""Kernels built inside factories, with module globals of the same names that must NOT be used.

Python resolves a name in the enclosing function before the module; the frontend must too, also for
names used only in annotations (which are not closure cells).
"""

from __future__ import annotations

import hls

T = hls.int8  # decoys: the factories' own T and N must win
N = 3


def make_inc(T):  # noqa: N803 - a type parameter, named as users name them
    @hls.kernel
    def inc(a: hls.int32) -> T:
        return a + 1

    return inc


def make_total(N):  # noqa: N803
    @hls.kernel
    def total(a: hls.int32[N]) -> hls.int32:
        s: hls.int32 = 0
        for i in range(N):
            s += a[i]
        return s

    return total


def make_local_annotation(T):  # noqa: N803
    @hls.kernel
    def widen(a: hls.int16) -> hls.int32:
        x: T = a * 3  # T only in a body annotation: not a closure cell, not evaluated by Python
        return x

    return widen
