"""2-D convolution on int8 with int32 accumulation: every product overflows 8 bits, the sum does not."""

import hls


@hls.kernel
def conv2d(img: hls.int8[18, 18], w: hls.int8[3, 3], out: hls.int32[16, 16]):
    for r in range(16):
        for c in range(16):
            acc = hls.int32(0)
            for i in range(3):
                for j in range(3):
                    acc += img[r + i, c + j] * w[i, j]
            out[r, c] = acc


KERNEL = conv2d
