"""Kernels with known schedules, for test_schedule.py (a file: the frontend reads source with inspect)."""

import numpy as np

import hls

N = 256
M = 64


@hls.kernel
def vadd(a: hls.float32[N], b: hls.float32[N], c: hls.float32[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        c[i] = a[i] + b[i]


@hls.kernel
def facc(x: hls.float32[M]) -> hls.float32:
    acc = hls.float32(0)
    for i in range(M):
        hls.pipeline(ii=1)
        acc += x[i]
    return acc


@hls.kernel
def iacc(a: hls.int16[M], b: hls.int16[M]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(M):
        hls.pipeline(ii=1)
        acc += a[i] * b[i]
    return acc


@hls.kernel
def two_reads(a: hls.int32[M], b: hls.int32[M]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    for i in range(M - 1):
        hls.pipeline(ii=1)
        b[i] = a[i] + a[i + 1]


@hls.kernel
def three_reads(a: hls.int32[M], b: hls.int32[M]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    for i in range(M - 2):
        hls.pipeline(ii=1)
        b[i] = a[i] + a[i + 1] + a[i + 2]


@hls.kernel
def three_reads_partitioned(a: hls.int32[M], b: hls.int32[M]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.array_partition(a, "cyclic", factor=2)
    for i in range(M - 2):
        hls.pipeline(ii=1)
        b[i] = a[i] + a[i + 1] + a[i + 2]


@hls.kernel
def raw_float(a: hls.float32[M], x: hls.float32):
    hls.interface(a, "ap_memory")
    for i in range(1, M):
        hls.pipeline(ii=1)
        a[i] = a[i - 1] + x


@hls.kernel
def raw_int(a: hls.int32[M], x: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(1, M):
        hls.pipeline(ii=1)
        a[i] = hls.int32(a[i - 1] + x)


@hls.kernel
def raw_far(a: hls.int32[M], x: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(4, M):
        hls.pipeline(ii=1)
        a[i] = hls.int32(a[i - 4] + x)


@hls.kernel
def unroll4(a: hls.int32[M]):
    hls.interface(a, "ap_memory", storage_type="ram_t2p")
    for i in range(M):
        hls.unroll(factor=4)
        a[i] = i


@hls.kernel
def nest_sequential(a: hls.int32[8, 8]):
    hls.interface(a, "ap_memory")
    for i in range(8):
        for j in range(8):
            a[i, j] = a[i, j] + 1


@hls.kernel
def nest_pipelined(a: hls.float32[8, M], s: hls.float32[8]):
    hls.interface(a, "ap_memory")
    hls.interface(s, "ap_memory")
    for i in range(8):
        for j in range(M):
            hls.pipeline(ii=1)
            hls.loop_flatten(off=True)  # kept as a nest: the test is about how latencies compose
            s[i] = a[i, j] * 2.0


@hls.kernel
def variable_trip(a: hls.int32[M], n: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(n):
        hls.pipeline(ii=1)
        hls.loop_tripcount(min=4, max=M)
        a[i] = i


@hls.kernel
def branchy(a: hls.int32[M], flag: hls.int32):
    hls.interface(a, "ap_memory")
    if flag > 0:
        for i in range(M):
            hls.pipeline(ii=1)
            a[i] = i
    else:
        a[0] = 1


@hls.kernel
def fill(v: hls.int32[16]):
    for i in range(16):
        v[i] = i


@hls.kernel
def caller(a: hls.int32[16]):
    hls.interface(a, "ap_memory")
    fill(a)
    fill(a)


@hls.kernel
def long_loop(a: hls.int32[128]):
    hls.interface(a, "ap_memory")
    for i in range(128):
        a[i] = i * 3


@hls.kernel
def inner_unrolled(a: hls.int32[M, 4], s: hls.int32[M]):
    hls.interface(a, "ap_memory")
    hls.interface(s, "ap_memory")
    hls.array_partition(a, "complete", dim=2)
    for i in range(M):
        hls.pipeline(ii=1)
        total = hls.int32(0)
        for k in range(4):
            total += a[i, k]
        s[i] = total


TAPS = np.arange(16, dtype=np.int32)


@hls.kernel
def shift_fir(x: hls.int32) -> hls.int32:
    regs = hls.zeros((16,), hls.int32)
    acc = hls.int32(0)
    for i in range(15, -1, -1):
        hls.pipeline()
        if i == 0:
            acc += x * TAPS[0]
            regs[0] = x
        else:
            regs[i] = regs[i - 1]
            acc += regs[i] * TAPS[i]
    return acc


@hls.kernel
def invariant_sum(a: hls.int32[16], out: hls.int32[16]):
    hls.interface(a, "ap_memory")
    hls.interface(out, "ap_memory")
    for i in range(16):
        hls.pipeline()
        total = hls.int32(0)
        for j in range(16):
            total += a[j]  # the same in every iteration of i: computed once, before the loop
        out[i] = total + i


@hls.kernel
def unrolled_mac(a: hls.int16[8], b: hls.int16[8]) -> hls.int16:
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.array_partition(a, "block", factor=4)
    hls.array_partition(b, "block", factor=4)
    acc = hls.int16(0)
    for i in range(8):
        hls.pipeline(ii=1)
        hls.unroll(factor=4)
        acc += a[i] * b[i]
    return acc
