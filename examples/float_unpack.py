"""IEEE-754 single precision taken apart: sign, biased exponent and mantissa of each value."""

import hls


@hls.kernel
def float_unpack(x: hls.float32[64], sign: hls.bool_[64], exponent: hls.uint8[64], mantissa: hls.uint32[64]):
    for i in range(64):
        bits = x[i].bitcast()  # the uint32 encoding
        sign[i] = bits[31]
        exponent[i] = bits[23:31]
        mantissa[i] = bits[0:23]


KERNEL = float_unpack
