"""FIR filter: coefficients captured from a module-level numpy array (a ROM), and a shift register."""

import numpy as np

import hls

TAPS = np.array([0.0125, -0.025, 0.05, -0.1, 0.2, 0.4, 0.8, 1.0,
                 1.0, 0.8, 0.4, 0.2, -0.1, 0.05, -0.025, 0.0125], dtype=np.float32)


@hls.kernel
def fir(x: hls.float32[256], y: hls.float32[256]):
    shift = hls.zeros((16,), hls.float32)
    hls.array_partition(shift, "complete")
    for n in range(256):
        hls.pipeline(ii=1)
        for k in range(15, 0, -1):
            shift[k] = shift[k - 1]
        shift[0] = x[n]
        acc = hls.float32(0)
        for t in range(16):
            acc += shift[t] * TAPS[t]
        y[n] = acc


KERNEL = fir
