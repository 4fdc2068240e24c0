"""The seed's batch-norm written whole-array: `int9` activations of 1x3x224x224, an `int8` weight and
bias per channel broadcast over the other dimensions, truncated to 8 bits, multiplied and added in 8
bits and sign-extended to the `int9` result. One statement becomes one loop nest `bn_i` .. `bn_l`
(named by the label), pipelined at its innermost loop by the directive written before it."""

import hls

C, H, W = 3, 224, 224


@hls.kernel
def batchnorm_array(x: hls.int9[1, C, H, W], scale: hls.int8[C], bias: hls.int8[C]) -> hls.int9[1, C, H, W]:
    hls.label("bn")
    hls.pipeline(ii=1)
    return hls.int8(hls.int8(hls.int8(x) * scale[None, :, None, None]) + bias[None, :, None, None])


KERNEL = batchnorm_array
