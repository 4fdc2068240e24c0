"""The seed's batch-norm: int9 in, truncate to int8, multiply and add in 8 bits, sign-extend to int9 out."""

import hls


@hls.kernel
def batchnorm(x: hls.int9[1, 4, 8, 8], scale: hls.int8[4], bias: hls.int8[4], y: hls.int9[1, 4, 8, 8]):
    for c in range(4):
        for h in range(8):
            for w in range(8):
                hls.pipeline(ii=1)
                t = hls.int8(x[0, c, h, w])
                m = hls.int8(t * scale[c])
                s = hls.int8(m + bias[c])
                y[0, c, h, w] = s


KERNEL = batchnorm
