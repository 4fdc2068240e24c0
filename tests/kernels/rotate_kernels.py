"""Kernels for tests/frontend/test_rotate.py: hls.rotl / hls.rotr, the operator added through the checklist in
docs/architecture.md. Lines marked `# E name` are where the bad kernels' errors must point."""

import hls


@hls.kernel
def rotates(a: hls.uint8[8], n: hls.uint8[8], out: hls.uint8[8], wide: hls.uint64[8]):
    for i in range(8):
        out[i] = hls.rotl(a[i], n[i] % 8) ^ hls.rotr(a[i], 3)
        w: hls.ap_uint[100] = hls.ap_uint[100](a[i]) << 90 | hls.ap_uint[100](n[i])
        r = hls.rotr(w, n[i] % 100) ^ hls.rotl(w, 97)
        wide[i] = hls.uint64(r >> 36) ^ hls.uint64(r)


@hls.kernel
def rotate_by(x: hls.uint16, n: hls.int32) -> hls.uint16:
    return hls.rotl(x, n)


@hls.kernel
def rotate_constants() -> hls.uint32:
    x: hls.uint8 = 0b1000_0011
    return hls.rotl(x, 1) + hls.rotr(x, 1) * 256 + hls.rotl(x, 0) * 65536


@hls.kernel
def count_too_large(x: hls.uint8) -> hls.uint8:
    return hls.rotl(x, 8)  # E count_too_large


@hls.kernel
def signed_value(y: hls.int8) -> hls.uint8:
    return hls.rotr(y, 1)  # E signed_value


@hls.kernel
def missing_count(x: hls.uint8) -> hls.uint8:
    return hls.rotr(x)  # E missing_count


@hls.kernel
def float_count(x: hls.uint8, f: hls.float32) -> hls.uint8:
    return hls.rotl(x, f)  # E float_count
