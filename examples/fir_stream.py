"""A streaming FIR filter with AXI4-Stream input and output: one sample in, one sample out per
cycle (II=1), coefficients in a ROM, the delay line in registers."""

import numpy as np

import hls

TAPS = np.array([3, -7, 12, 40, 12, -7, 3], dtype=np.int16)
N = 128


@hls.kernel
def fir_stream(x: hls.stream[hls.int16], y: hls.stream[hls.int32]):
    delay = hls.zeros((7,), hls.int16)
    hls.array_partition(delay, "complete")
    for _n in range(N):
        hls.pipeline(ii=1)
        for k in range(6, 0, -1):
            delay[k] = delay[k - 1]
        delay[0] = x.read()
        acc = hls.int32(0)
        for t in range(7):
            acc += delay[t] * TAPS[t]
        y.write(acc)


KERNEL = fir_stream
