"""GEMM with a pipelined inner loop (the DESIGN.md example)."""

import hls


@hls.kernel
def gemm(A: hls.float32[64, 64], B: hls.float32[64, 64], C: hls.float32[64, 64]):
    for i in range(64):
        for j in range(64):
            acc = hls.float32(0)
            for k in range(64):
                hls.pipeline(ii=1)
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


KERNEL = gemm
