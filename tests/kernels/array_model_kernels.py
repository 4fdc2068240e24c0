"""Whole-array kernels of the shapes public ML projects write (issue 22): layer norm, attention, a 1x1
convolution as reshape + matmul, GELU, a dense layer with ReLU and a residual, a two-layer integer MLP,
row softmax and an integer variance. tests/frontend/test_array_models.py checks each against numpy;
the MLIR tests can import them too."""

import numpy as np

import hls


@hls.kernel
def layernorm(x: hls.float32[4, 16], gamma: hls.float32[16], beta: hls.float32[16]) -> hls.float32[4, 16]:
    mean = x.sum(axis=1, keepdims=True) / 16.0
    d = x - mean
    var = (d * d).sum(axis=1, keepdims=True) / 16.0
    return d / np.sqrt(var + 1e-5) * gamma[None, :] + beta


@hls.kernel
def attention(Q: hls.float32[8, 16], K: hls.float32[8, 16], V: hls.float32[8, 16]) -> hls.float32[8, 16]:
    s = Q @ K.T * 0.25
    e = np.exp(s - s.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    return p @ V


@hls.kernel
def conv1x1(x: hls.int8[1, 3, 4, 4], w: hls.int8[8, 3], b: hls.int16[8]) -> hls.int32[1, 8, 4, 4]:
    y = w @ x.reshape(3, 16)
    return y.reshape(1, 8, 4, 4) + b[None, :, None, None]


@hls.kernel
def gelu(x: hls.float32[2, 32]) -> hls.float32[2, 32]:
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


@hls.kernel
def dense_relu_residual(X: hls.int8[4, 16], W: hls.int8[16, 16], b: hls.int16[16]) -> hls.int32[4, 16]:
    h = X @ W.T + b[None, :]
    return np.maximum(h, 0) + X


@hls.kernel
def mlp2(x: hls.int8[16], W1: hls.int8[8, 16], b1: hls.int16[8], W2: hls.int8[4, 8],
         b2: hls.int16[4]) -> hls.int32[4]:
    h = np.maximum(hls.int8((W1 @ x + b1) >> 7), 0)
    return W2 @ h + b2


@hls.kernel
def row_softmax(x: hls.float32[4, 10]) -> hls.float32[4, 10]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@hls.kernel
def int_variance(x: hls.int16[8, 32]) -> hls.int64[8]:
    s = x.sum(axis=1)
    ss = (x * x).sum(axis=1)
    return (32 * ss - s * s) // 1024


@hls.kernel
def layernorm_mean(x: hls.float32[4, 16], gamma: hls.float32[16], beta: hls.float32[16]) -> hls.float32[4, 16]:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) * (x - mu)).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * gamma + beta
