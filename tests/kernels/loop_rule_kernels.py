"""Kernels for tests/schedule/test_loop_rules.py: Vitis's loop rules of docs/oplib.md section 9 on our own code."""

import numpy as np

import hls

ROWS = np.arange(4 * 64, dtype=np.int32).reshape(4, 64) % 97


@hls.kernel
def short_loop(a: hls.int32[11]):
    hls.interface(a, "ap_memory")
    for i in range(11):
        a[i] = a[i] * 3


@hls.kernel
def variable_loop(a: hls.int32[100], n: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(n):
        hls.loop_tripcount(min=1, max=100)
        a[i] = a[i] + 1


@hls.kernel
def square_nest(a: hls.int32[1024], n: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(n):
        hls.loop_tripcount(min=32, max=32)
        for j in range(n):
            hls.loop_tripcount(min=32, max=32)
            a[j] = a[j] + i


@hls.kernel
def triangle(a: hls.int32[64], n: hls.int32):
    hls.interface(a, "ap_memory")
    for i in range(n):
        hls.loop_tripcount(min=64, max=64)
        for j in range(i):
            hls.loop_tripcount(min=0, max=63)
            a[j] = a[j] + i


@hls.kernel
def unrolled_inner(a: hls.int32[128, 8], s: hls.int32[128]):
    hls.interface(a, "ap_memory")
    hls.interface(s, "ap_memory")
    hls.array_partition(a, "complete", dim=2)
    for i in range(128):
        acc = hls.int32(0)
        for k in range(8):
            hls.unroll()
            acc += a[i, k]
        s[i] = acc


@hls.kernel
def counter_index(x: hls.int32[512], y: hls.int32[512]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    hls.array_partition(x, "block", factor=2)
    hls.array_partition(y, "block", factor=2)
    j = hls.int32(256)
    for i in range(256):
        y[j] = x[i] + x[j]
        y[i] = x[i] - x[j]
        j += 1


@hls.kernel
def row_reads(out: hls.int32[64]):
    hls.interface(out, "ap_memory")
    for i in range(64):
        out[i] = ROWS[0, i] + ROWS[1, i] + ROWS[2, i] + ROWS[3, i]


@hls.kernel
def narrow_product(a: hls.int32[16], b: hls.int32[16], c: hls.int32[16]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(c, "ap_memory")
    for i in range(16):
        c[i] = hls.int32(a[i] * b[i])


@hls.kernel
def branch_products(a: hls.int32[32], b: hls.int32[32], c: hls.int32[32], k: hls.int32):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(c, "ap_memory")
    for i in range(32):
        if a[i] > k:
            c[i] = hls.int32(a[i] * b[i])
        else:
            c[i] = hls.int32(b[i] * k)


@hls.kernel
def one_product(a: hls.int32[32], b: hls.int32[32], c: hls.int32[32]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(c, "ap_memory")
    for i in range(32):
        c[i] = hls.int32(a[i] * b[i])


@hls.kernel
def banked_buffer(x: hls.float32[256], y: hls.float32[256]):
    hls.interface(x, "ap_memory")
    hls.interface(y, "ap_memory")
    buf = hls.zeros((256,), hls.float32)
    hls.array_partition(buf, "cyclic", factor=16)
    for i in range(256):
        buf[i] = x[i] * 2.0
    for i in range(256):
        y[i] = buf[255 - i]
