"""Streaming FIR: one sample in, one sample out per call; the shift register is state kept between calls
(`hls.static`, a C++ `static` array, as in the Vitis FIR examples). `KERNEL.reset()` clears it."""

import numpy as np

import hls

N = 11
TAPS = np.array([53, 0, -91, 0, 313, 500, 313, 0, -91, 0, 53], dtype=np.int16)


@hls.kernel
def fir_static(x: hls.int16) -> hls.int32:
    shift_reg = hls.static(hls.zeros((N,), hls.int16))
    hls.array_partition(shift_reg, "complete")
    acc = hls.int32(0)
    for i in range(N - 1, 0, -1):
        hls.unroll()
        shift_reg[i] = shift_reg[i - 1]
        acc += shift_reg[i] * TAPS[i]
    shift_reg[0] = x
    acc += x * TAPS[0]
    return acc


KERNEL = fir_static
