"""Softmax with math.exp: float32 throughout (std::exp(float) in C++), compared with a tolerance."""

import math

import hls


@hls.kernel
def softmax(x: hls.float32[32], y: hls.float32[32]):
    peak = x[0]
    for i in range(1, 32):
        peak = max(peak, x[i])
    total = hls.float32(0)
    for i in range(32):
        e = math.exp(x[i] - peak)
        y[i] = e
        total += e
    for i in range(32):
        y[i] = y[i] / total


KERNEL = softmax
