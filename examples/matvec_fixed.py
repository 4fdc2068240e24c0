"""Fixed-point matrix-vector product: ap_fixed<16,6> operands, ap_fixed<32,12> accumulator."""

import hls

Q = hls.ap_fixed[16, 6]
ACC = hls.ap_fixed[32, 12]


@hls.kernel
def matvec(A: Q[8, 8], x: Q[8], y: ACC[8]):
    for i in range(8):
        acc = ACC(0)
        for j in range(8):
            hls.pipeline(ii=1)
            acc += A[i, j] * x[j]
        y[i] = acc


KERNEL = matvec
