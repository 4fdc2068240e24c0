"""saxpy: y = a*x + y with a scalar argument (an s_axilite register in hardware)."""

import hls


@hls.kernel
def saxpy(a: hls.float32, x: hls.float32[1024], y: hls.float32[1024]):
    for i in range(1024):
        hls.pipeline(ii=1)
        y[i] = a * x[i] + y[i]


KERNEL = saxpy
