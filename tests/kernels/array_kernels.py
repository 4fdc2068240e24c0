"""Whole-array kernels (issue 22): element-wise operators with broadcasting, views, casts, numpy
functions, reductions and contractions; and bad ones, each marked `# E <name>` at the line its error
names (tests/frontend/test_array_exprs.py)."""

import numpy as np

import hls


@hls.kernel
def ew_arith(A: hls.int16[4, 8], B: hls.int16[8], s: hls.int16, C: hls.int32[4, 8]):
    C[:, :] = (A + B[None, :]) * s - A // 3 + A % 5 + (B << 2) - (A >> 1)


@hls.kernel
def ew_bits(A: hls.uint8[6, 5], B: hls.uint8[6, 1], C: hls.uint8[6, 5]):
    C[:, :] = (A & B) | (A ^ 0x5A) | ~A


@hls.kernel
def ew_logic(A: hls.int8[16], B: hls.int8[16], lo: hls.int8, C: hls.bool_[16], D: hls.int8[16]):
    C[:] = ((A > lo) & (B <= A)) | ~(A == B)
    D[:] = np.where(A > B, A, -B)


@hls.kernel
def ew_funcs(A: hls.int8[3, 4], B: hls.int8[4], C: hls.int16[3, 4]):
    C[:, :] = np.maximum(A, B) + np.minimum(A, 0) - np.abs(A)


@hls.kernel
def ew_float(x: hls.float32[2, 8]) -> hls.float32[2, 8]:
    return np.tanh(x) + np.sqrt(np.abs(x)) * np.exp(-x) + np.log(x * x + 1.0)


@hls.kernel
def views(A: hls.int16[12], M: hls.int16[4, 6], B: hls.int16[12], T: hls.int16[3, 6]):
    B[1:-1] = A[:-2] - A[2:]
    B[::4] = A[::-1][::4]
    T[:, :] = M[1:, ::-1] + M.T[::2, 0][:, None]


@hls.kernel
def transposes(X: hls.int8[2, 3, 4], Y: hls.int16[4, 2, 3]):
    Y[:, :, :] = np.transpose(X, (2, 0, 1)) * 2


@hls.kernel
def casts(x: hls.int16[10]) -> hls.int9[10]:
    y = hls.int8(x) * hls.int8(x)
    z = hls.ap_fixed[10, 4](x) + hls.ap_fixed[4, 2](1.5)
    return hls.int9(y) + hls.int9(z)


@hls.kernel
def augmented(A: hls.int32[8], B: hls.int16[8]):
    A[:] += B * 2
    A[2:6] -= 1


@hls.kernel
def reductions(x: hls.int8[4, 6], rows: hls.int16[4], cols: hls.int8[1, 6], both: hls.int32[4, 1]) -> hls.int32:
    rows[:] = x.sum(axis=1)
    cols[:, :] = np.max(x, axis=0, keepdims=True)
    both[:, :] = x.min(axis=-1, keepdims=True) + np.sum(x, axis=(1,), keepdims=True)
    return x.sum() + np.min(x)


@hls.kernel
def contractions(A: hls.int8[3, 5], B: hls.int8[5, 4], v: hls.int8[5], w: hls.int8[4], M: hls.int32[3, 4],
                 Av: hls.int32[3], wB: hls.int32[5]) -> hls.int32:
    M[:, :] = A @ B
    Av[:] = np.matmul(A, v)
    wB[:] = np.dot(B, w)
    return v @ v


@hls.kernel
def batched(A: hls.int8[2, 3, 4], B: hls.int8[4, 5], C: hls.int32[2, 3, 5]):
    C[:, :, :] = A @ B


@hls.kernel
def narrow_acc(A: hls.int8[4, 16], x: hls.int8[16]) -> hls.int8[4]:
    return hls.matmul(A, x, acc=hls.int8)


@hls.kernel
def matmul_array(A: hls.int16[8, 8], B: hls.int16[8, 8], C: hls.int64[8, 8]):
    C[:, :] = A @ B


@hls.kernel
def matmul_loops(A: hls.int16[8, 8], B: hls.int16[8, 8], C: hls.int64[8, 8]):
    for i in range(8):
        for j in range(8):
            acc = 0
            for k in range(8):
                acc = acc + A[i, k] * B[k, j]
            C[i, j] = acc


@hls.kernel
def directed(A: hls.int16[8, 8], B: hls.int16[8, 8], C: hls.int64[8, 8]):
    hls.label("mm")
    hls.pipeline(ii=1)
    C[:, :] = A @ B


@hls.kernel
def in_loop(A: hls.int16[4, 8], C: hls.int32[4, 8]):
    for i in range(4):
        hls.unroll(factor=2)
        C[i, :] = A[i, :] * i


# ---- bad kernels -------------------------------------------------------------------------------------


@hls.kernel
def bad_broadcast(A: hls.int16[8, 16], B: hls.int16[16, 8], C: hls.int32[8, 16]):
    C[:, :] = A + B  # E bad_broadcast


@hls.kernel
def bad_matmul(A: hls.int16[8, 16], B: hls.int16[8, 16], C: hls.int32[8, 8]):
    C[:, :] = A @ B  # E bad_matmul


@hls.kernel
def bad_axis(A: hls.int16[8, 16], C: hls.int32[8]):
    C[:] = A.sum(axis=2)  # E bad_axis


@hls.kernel
def bad_target(A: hls.int16[8], C: hls.int32[6]):
    C[:] = A[1:]  # E bad_target


@hls.kernel
def bad_lossy(x: hls.float32[8], C: hls.int32[8]):
    C[:] = x * 2  # E bad_lossy


@hls.kernel
def bad_alias(A: hls.int32[8]):
    A[1:] = A[:-1]  # E bad_alias


@hls.kernel
def bad_rebind(A: hls.int32[8]):
    y = A + 1
    y = A * 2  # E bad_rebind
    A[:] = y


@hls.kernel
def bad_view_name(A: hls.int32[8], B: hls.int32[8]):
    y = A[::2]  # E bad_view_name
    B[::2] = y


@hls.kernel
def reshapes(x: hls.int16[2, 6], y: hls.int16[3, 4], z: hls.int32[12]):
    y[:, :] = x.reshape(3, 4) + 1
    z[:] = x.reshape(-1) * x.T.reshape((12,))


@hls.kernel
def concats(a: hls.int8[3, 4], b: hls.int16[2, 4], c: hls.int8[3, 2], C: hls.int32[5, 4], D: hls.int32[3, 6]):
    C[:, :] = np.concatenate((a, b)) * 2 - np.concatenate([b[::-1, :], a], axis=0)
    D[:, :] = np.concatenate([a, c, a[:, :0]], axis=-1) + np.concatenate((c, a), 1).T.T


@hls.kernel
def concat_reduce(a: hls.int8[4, 3], b: hls.int8[2, 3]) -> hls.int16[3]:
    y = np.concatenate((a, b)).sum(axis=0)
    return np.concatenate((a.max(axis=0, keepdims=True), y[None, :]), axis=0).sum(axis=0)


@hls.kernel
def concat_return(a: hls.int16[4], b: hls.float32[2]) -> hls.float32[7]:
    return np.concatenate((a, b, a[3:])) * 0.5


@hls.kernel
def bad_concat_shapes(a: hls.int8[3, 4], b: hls.int8[3, 5], C: hls.int32[6, 4]):
    C[:, :] = np.concatenate((a, b))  # E bad_concat_shapes


@hls.kernel
def bad_concat_rank(a: hls.int8[3, 4], b: hls.int8[4], C: hls.int32[7, 4]):
    C[:, :] = np.concatenate((a, b), axis=0)  # E bad_concat_rank


@hls.kernel
def bad_concat_none(a: hls.int8[3, 4], b: hls.int8[4], C: hls.int32[16]):
    C[:] = np.concatenate((a, b), axis=None)  # E bad_concat_none


@hls.kernel
def bad_concat_axis(a: hls.int8[3, 4], b: hls.int8[3, 4], C: hls.int32[6, 4]):
    C[:, :] = np.concatenate((a, b), axis=2)  # E bad_concat_axis


@hls.kernel
def bad_concat_scalar(a: hls.int8[3], s: hls.int8, C: hls.int32[4]):
    C[:] = np.concatenate((a, s))  # E bad_concat_scalar


@hls.kernel
def dots(A: hls.int8[2, 3, 4], B: hls.int8[5, 4, 6], v: hls.int8[4], W: hls.int8[4, 3], M: hls.int8[3, 4],
         C: hls.int32[2, 3, 5, 6], D: hls.int32[2, 3], E: hls.int32[5, 6], F: hls.int32[2, 3, 3]):
    C[:, :, :, :] = np.dot(A, B)
    D[:, :] = np.dot(A, v)
    E[:, :] = np.dot(v, B)
    F[:, :, :] = np.dot(A, W) + np.matmul(A, W) - A @ W


@hls.kernel
def dot_batched_matmul(A: hls.int8[2, 3, 4], B: hls.int8[2, 4, 5], C: hls.int32[2, 3, 5],
                       D: hls.int32[2, 3, 2, 5]):
    C[:, :, :] = np.matmul(A, B) + hls.matmul(A, B)
    D[:, :, :, :] = np.dot(A, B)


@hls.kernel
def bad_dot(A: hls.int8[2, 3, 4], B: hls.int8[2, 3, 4], C: hls.int32[2, 3, 2, 4]):
    C[:, :, :, :] = np.dot(A, B)  # E bad_dot


@hls.kernel
def means(x: hls.float32[4, 6], y: hls.int16[4, 6], C: hls.float32[4, 6], D: hls.float64[6]) -> hls.float64:
    C[:, :] = x - x.mean(axis=1, keepdims=True)
    D[:] = np.mean(y, axis=0)
    return y.mean() + np.mean(y * 2, axis=(0, 1))


@hls.kernel
def stacks(a: hls.int8[3], b: hls.int8[3], M: hls.int16[2, 3], H: hls.int32[6], V: hls.int32[4, 3],
           S: hls.int32[3, 2], T: hls.int32[2, 3, 2], W: hls.int32[2, 6]):
    H[:] = np.hstack((a, b * 2))
    V[:, :] = np.vstack([a, M, b])
    S[:, :] = np.stack((a, b), axis=-1)
    T[:, :, :] = np.stack([M, M * 3], axis=2) + np.stack((M, M), 2) * 0
    W[:, :] = np.hstack((M, M[:, ::-1]))


@hls.kernel
def bad_stack(a: hls.int8[3], b: hls.int8[4], S: hls.int32[2, 3]):
    S[:, :] = np.stack((a, b))  # E bad_stack


@hls.kernel
def bad_vstack(a: hls.int8[3], M: hls.int8[2, 4], S: hls.int32[3, 3]):
    S[:, :] = np.vstack((a, M))  # E bad_vstack


@hls.kernel
def bad_row_matmul(x: hls.int8[4, 6], W: hls.int8[6, 3], y: hls.int32[3]):
    y[:] = x[0] @ W  # E bad_row_matmul


@hls.kernel
def bad_scalar_matmul(s: hls.int8, W: hls.int8[6, 3], y: hls.int32[6, 3]):
    y[:, :] = np.matmul(W, s)  # E bad_scalar_matmul
