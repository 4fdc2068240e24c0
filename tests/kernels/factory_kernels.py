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


def make_adder(W, S):  # noqa: N803
    @hls.kernel
    def adder(a: hls.ap_int[W]) -> hls.ap_int[W]:
        return a + S

    return adder


ADDERS = [make_adder(8, 2), make_adder(16, 1), make_adder(8, 3)]


@hls.kernel
def use_adders(a: hls.int8) -> hls.int32:
    x = ADDERS[0](a)
    y = ADDERS[1](a)
    z = ADDERS[2](a)
    return x + y + z


def make_scaler(T, N, II):  # noqa: N803
    """One kernel, eight instances: element type, length and pipeline II are factory parameters."""

    @hls.kernel
    def scale(a: T[N], out: T[N]):
        for i in range(N):
            hls.pipeline(ii=II)
            out[i] = T(a[i] * 3)

    return scale


SCALERS = [make_scaler(t, n, ii) for t, n, ii in [
    (hls.int8, 4, 1), (hls.int16, 4, 2), (hls.uint8, 8, 1), (hls.int9, 8, 1),
    (hls.ap_fixed[16, 6], 4, 1), (hls.float32, 4, 1), (hls.int32, 2, 3), (hls.uint12, 6, 1)]]


@hls.kernel
def eight(a0: hls.int8[4], o0: hls.int8[4], a1: hls.int16[4], o1: hls.int16[4], a2: hls.uint8[8],
          o2: hls.uint8[8], a3: hls.int9[8], o3: hls.int9[8], a4: hls.ap_fixed[16, 6][4],
          o4: hls.ap_fixed[16, 6][4], a5: hls.float32[4], o5: hls.float32[4], a6: hls.int32[2], o6: hls.int32[2],
          a7: hls.uint12[6], o7: hls.uint12[6]):
    SCALERS[0](a0, o0)
    SCALERS[1](a1, o1)
    SCALERS[2](a2, o2)
    SCALERS[3](a3, o3)
    SCALERS[4](a4, o4)
    SCALERS[5](a5, o5)
    SCALERS[6](a6, o6)
    SCALERS[7](a7, o7)
