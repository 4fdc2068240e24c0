"""The bit-reverse permutation that orders an in-place radix-2 FFT's input: x[rev(i)]."""

import hls

LOG_N = 8
N = 1 << LOG_N


@hls.kernel
def bit_reverse(x: hls.int32[N], y: hls.int32[N]):
    for i in range(N):
        index: hls.uint8 = i
        y[index.reverse()] = x[i]


KERNEL = bit_reverse
