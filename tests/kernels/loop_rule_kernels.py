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


TWIDDLE = np.array([1.0, 0.5, -0.0, 0.25], dtype=np.float32)


@hls.kernel
def add_then_sub(a: hls.float32[64], b: hls.float32[64], c: hls.float32[64]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(c, "ap_memory")
    for i in range(64):
        hls.pipeline(off=True)
        c[i] = (a[i] + b[i]) - c[i]


@hls.kernel
def scale_and_add(a: hls.float32[64], b: hls.float32[64]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    for i in range(64):
        hls.pipeline(off=True)
        b[i] = a[i] * 3.0 + 1.0


@hls.kernel
def low_byte_product(a: hls.int32, b: hls.int32) -> hls.uint8:
    return hls.uint8(a * b)


def _times_entry(k: int):
    """b[i] = a[i] * TWIDDLE[k], the entry read once before the loop."""
    @hls.kernel
    def times_entry(a: hls.float32[64], b: hls.float32[64]):
        hls.interface(a, "ap_memory")
        hls.interface(b, "ap_memory")
        w = TWIDDLE[k]
        for i in range(64):
            b[i] = a[i] * w
    return times_entry


times_table_one = _times_entry(0)
times_table_half = _times_entry(1)


@hls.kernel
def float_identities(a: hls.float32[64], b: hls.float32[64]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    for i in range(64):
        b[i] = (a[i] * 1.0 - 0.0) / 1.0


@hls.kernel
def signed_sum(x: hls.float32[64]) -> hls.float32:
    hls.interface(x, "ap_memory")
    acc = hls.float32(0.0)
    for i in range(64):
        if x[i] > 0.0:
            acc = acc + x[i]
        else:
            acc = acc - x[i]
    return acc


@hls.kernel
def plain_sum(x: hls.float32[64]) -> hls.float32:
    hls.interface(x, "ap_memory")
    acc = hls.float32(0.0)
    for i in range(64):
        acc = acc + x[i]
    return acc


def _two_reads(n: int):
    """y[i] = buf[i] + buf[n - 1 - i] from a local buffer of n words (the two indices move in opposite
    directions, so no cyclic split gives them banks of their own: M3 leaves the buffer whole)."""
    @hls.kernel
    def two_reads(x: hls.int32[n], y: hls.int32[n]):
        hls.interface(x, "ap_memory")
        hls.interface(y, "ap_memory")
        buf = hls.zeros((n,), hls.int32)
        for i in range(n):
            buf[i] = x[i]
        for i in range(n - 1):
            y[i] = buf[i] + buf[n - 1 - i]
    return two_reads


two_reads_small = _two_reads(32)
two_reads_large = _two_reads(1024)


@hls.kernel
def four_products_ii4(a: hls.int16[64], b: hls.int16[64], y: hls.int32[64]):
    hls.interface(a, "ap_memory")
    hls.interface(b, "ap_memory")
    hls.interface(y, "ap_memory")
    for i in range(64):
        hls.pipeline(ii=4)
        t = hls.int16(a[i] * b[i])  # a chain: the four products start in four different cycles
        t = hls.int16(t * b[i])
        t = hls.int16(t * a[i])
        y[i] = hls.int32(t * b[i])



def _four_sums(step: int):
    """d_out[i] = d_in[i] + d_in[i + step] + d_in[i + 2 step] + d_in[i + 3 step], i < 128."""
    @hls.kernel
    def four_sums(d_in: hls.int16[512], d_out: hls.int16[128]):
        hls.interface(d_in, "ap_memory")
        hls.interface(d_out, "ap_memory")
        for i in range(128):
            d_out[i] = d_in[i] + d_in[i + step] + d_in[i + 2 * step] + d_in[i + 3 * step]
    return four_sums


quarter_sums = _four_sums(128)
shifted_sums = _four_sums(1)
