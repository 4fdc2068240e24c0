"""One kernel per directive, for the pragma tests."""

import hls


@hls.kernel
def pipe(a: hls.int32[64], n: hls.int32):
    for i in range(n):
        hls.pipeline(ii=2)
        hls.loop_tripcount(min=1, max=64)
        a[i] = i


@hls.kernel
def pipe_off(a: hls.int32[256]):
    for i in range(256):
        hls.pipeline(off=True)
        a[i] = i


@hls.kernel
def unroll_var(a: hls.int32[64], n: hls.int32):
    for i in range(n):
        hls.unroll(factor=4)
        a[i] = 1


@hls.kernel
def unroll_full_var(a: hls.int32[64], n: hls.uint6):
    for i in range(n):
        hls.unroll()
        a[i] = 2


@hls.kernel
def partition(a: hls.int32[16, 16]):
    buf = hls.zeros((16, 16), hls.int32)
    hls.array_partition(buf, "cyclic", factor=4, dim=2)
    hls.bind_storage(buf, "ram_2p", impl="bram")
    blk = hls.zeros((16,), hls.int32)
    hls.array_partition(blk, "block", factor=2)
    reg = hls.zeros((4,), hls.int32)
    hls.array_partition(reg, "complete")
    for i in range(16):
        for j in range(16):
            buf[i, j] = a[i, j]
    for i in range(16):
        blk[i] = buf[i, 0] + reg[i % 4]
        a[i, 0] = blk[i]


@hls.kernel
def custom_interface(a: hls.int32[16], b: hls.int32[16], n: hls.int32):
    hls.interface(a, "m_axi", bundle="gmem_in", depth=16, latency=32)
    hls.interface(b, "ap_memory")
    hls.array_partition(b, "cyclic", factor=2)
    for i in range(16):
        b[i] = a[i] + n


@hls.kernel
def stage(a: hls.int32[8], b: hls.int32[8]):
    hls.inline(off=True)
    for i in range(8):
        b[i] = a[i] * 2


@hls.kernel
def flow(a: hls.int32[8], c: hls.int32[8]):
    hls.dataflow()
    tmp = hls.zeros((8,), hls.int32)
    stage(a, tmp)
    stage(tmp, c)


@hls.kernel
def func_pipeline(a: hls.int32, b: hls.int32) -> hls.int32:
    hls.pipeline(ii=1)
    return a * b + 1
