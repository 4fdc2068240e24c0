"""A 64x64 matmul written as plain loops, scheduled to II 1 apart from the algorithm (docs/schedules.md).

The kernel carries no directive; `hls.customize` pipelines the column loop, unrolls the dot product
and partitions A by columns and B by rows, so the 64 products of one C[i, j] are read in one cycle.
`SCHEDULE.explain()` prints what each step bought; `SCHEDULE.to_tcl()` is the same schedule as a
Vitis directives.tcl, `SCHEDULE.to_json()` as data.
"""

import hls

N = 64


@hls.kernel(flow="vivado")
def matmul(A: hls.int16[N, N], B: hls.int16[N, N], C: hls.int32[N, N]):
    for i in range(N):
        hls.label("ROW")
        for j in range(N):
            hls.label("COL")
            acc: hls.int32 = 0
            for k in range(N):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


SCHEDULE = (hls.customize(matmul)
            .pipeline("COL", ii=1)
            .unroll("k")
            .partition("A", "complete", dim=2)
            .partition("B", "complete", dim=1))

KERNEL = SCHEDULE.build()


if __name__ == "__main__":
    SCHEDULE.explain()
    print(SCHEDULE.to_tcl())
    print(KERNEL.verify(trials=2).coverage)
