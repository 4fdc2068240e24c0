"""Kernels for test_reassociate.py (a file: the frontend reads source with inspect)."""

import hls

FX = hls.ap_fixed[16, 16]


@hls.kernel
def dot8(a: FX[8], b: FX[8]) -> FX:
    hls.pipeline()
    acc = FX(0)
    for i in range(8):
        acc += a[i] * b[i]
    return acc


@hls.kernel
def dot8_float(a: hls.float32[8], b: hls.float32[8]) -> hls.float32:
    hls.pipeline()
    acc = hls.float32(0)
    for i in range(8):
        acc += a[i] * b[i]
    return acc


@hls.kernel
def mac4(a: FX[8], b: FX[8]) -> FX:
    acc = FX(0)
    for i in range(8):
        hls.pipeline()
        hls.unroll(factor=4)
        acc += a[i] * b[i]
    return acc


@hls.kernel
def mac_loop(a: FX[8], b: FX[8]) -> FX:
    acc = FX(0)
    for i in range(8):
        hls.label("mac")
        hls.pipeline()
        acc += a[i] * b[i]
    return acc


@hls.kernel
def two_products(a: FX, b: FX, c: FX, d: FX) -> FX:
    hls.pipeline()
    return a * b + c * d
