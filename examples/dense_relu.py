"""A dense layer `relu(W @ x + b)` in ap_fixed, written whole-array: the contraction accumulates in the
declared `acc=` type (hls.matmul), the bias add and the relu fuse into the same nest as the sum."""

import numpy as np

import hls

N_IN, N_OUT = 16, 8
T = hls.ap_fixed[8, 3]


@hls.kernel
def dense_relu(W: T[N_OUT, N_IN], x: T[N_IN], b: T[N_OUT]) -> hls.ap_fixed[12, 6][N_OUT]:
    hls.label("fc")
    return np.maximum(hls.matmul(W, x, acc=hls.ap_fixed[24, 10]) + b, 0)


KERNEL = dense_relu
