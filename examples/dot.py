"""Dot product: a reduction carried across loop iterations, returned as a scalar."""

import hls


@hls.kernel
def dot(a: hls.int16[128], b: hls.int16[128]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(128):
        hls.pipeline(ii=1)
        acc += a[i] * b[i]
    return acc


KERNEL = dot
