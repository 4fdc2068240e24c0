"""Kernels for tests/top/test_verify_inputs.py (in a file of their own: coverage reads their lines)."""

import hls


@hls.kernel
def branchy(c: hls.bool_, x: hls.int32, a: hls.int16[8], out: hls.int32[8]) -> hls.int32:
    for i in range(8):
        out[i] = a[i] + 1 if a[i] < 5 else a[i] - 1
    if x == 12345:
        return 1
    n = 0
    while n < 3 and c:
        n += 1
    return n


@hls.kernel
def one_sided(c: hls.bool_, x: hls.int32) -> hls.int64:
    if c:
        return x + 1
    return x + 2


@hls.kernel
def products(a: hls.int16[8], b: hls.int16[8], out: hls.int16[8]):
    for i in range(8):
        out[i] = a[i] * b[i]


@hls.kernel
def always_wraps(a: hls.int8[4], out: hls.int8[4]):
    for i in range(4):
        out[i] = a[i] + 1000
