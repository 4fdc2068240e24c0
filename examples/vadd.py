"""Vector add: the smallest pipelined kernel."""

import hls


@hls.kernel
def vadd(a: hls.float32[256], b: hls.float32[256], c: hls.float32[256]):
    for i in range(256):
        hls.pipeline(ii=1)
        c[i] = a[i] + b[i]


KERNEL = vadd
