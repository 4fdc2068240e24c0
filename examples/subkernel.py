"""A kernel calling sub-kernels: a scalar multiply-accumulate and an array-to-array activation."""

import hls


@hls.kernel
def mac(a: hls.int16, b: hls.int16, c: hls.int32) -> hls.int32:
    return c + a * b


@hls.kernel
def relu(v: hls.int32[16], out: hls.int32[16]):
    for i in range(16):
        out[i] = v[i] if v[i] > 0 else 0


@hls.kernel
def dense_relu(W: hls.int16[16, 16], x: hls.int16[16], y: hls.int32[16]):
    pre = hls.zeros((16,), hls.int32)
    for r in range(16):
        acc = hls.int32(0)
        for c in range(16):
            acc = mac(W[r, c], x[c], acc)
        pre[r] = acc
    relu(pre, y)


KERNEL = dense_relu
