"""Kernels for test_straighten.py (a file: the frontend reads source with inspect)."""

import numpy as np

import hls

COEF = np.array([3, 0, 5, 7], dtype=np.int32)


@hls.kernel
def scale(x: hls.int32, k: hls.int32) -> hls.int32:
    return x * k + 1


@hls.kernel
def taps(a: hls.int32[16], out: hls.int32[16]):
    for i in range(16):
        hls.pipeline()
        acc = hls.int32(0)
        for j in range(4):
            acc += scale(a[j], COEF[j])
        out[i] = acc + i


@hls.kernel
def triangle(a: hls.int32[8], out: hls.int32[8]):
    for i in range(8):
        hls.pipeline()
        acc = hls.int32(0)
        for j in range(4):
            for k in range(j + 1):
                acc += a[k]
        out[i] = acc


@hls.kernel
def variable_inner(a: hls.int32[8], n: hls.int32, out: hls.int32[8]):
    for i in range(8):
        hls.pipeline()
        acc = hls.int32(0)
        for j in range(n):
            hls.label("by_n")
            acc += a[j]
        out[i] = acc


@hls.kernel
def while_inner(a: hls.int32[8], out: hls.int32[8]):
    for i in range(8):
        hls.pipeline()
        j = hls.int32(0)
        while a[j] > 0 and j < 7:
            j += 1
        out[i] = j


@hls.kernel
def huge_inner(a: hls.int32[8], out: hls.int32[8]):
    for i in range(8):
        hls.pipeline()
        acc = hls.int32(0)
        for j in range(400000):
            acc += a[j % 8]
        out[i] = acc
