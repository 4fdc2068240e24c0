"""Kernels that must be rejected. `# E` marks the line each error must point at."""

from __future__ import annotations

import numpy as np

import hls

ROM = np.arange(8, dtype=np.int32)


@hls.kernel
def while_loop(a: hls.int32[8]):
    i = hls.int32(0)
    while i < 8:  # E while_loop
        a[i] = 0
        i += 1


def helper(x):
    return x


@hls.kernel
def calls_python(a: hls.int32[8]):
    for i in range(8):
        a[i] = helper(a[i])  # E calls_python


@hls.kernel
def uses_print(a: hls.int32[8]):
    print(a[0])  # E uses_print


@hls.kernel
def missing_annotation(a, b: hls.int32[8]):  # E missing_annotation
    b[0] = 1


@hls.kernel
def python_int_annotation(a: int):  # E python_int_annotation
    pass


@hls.kernel
def index_out_of_bounds(a: hls.int32[8]):
    a[8] = 1  # E index_out_of_bounds


@hls.kernel
def wrong_rank(a: hls.int32[8, 8]):
    a[1] = 1  # E wrong_rank


@hls.kernel
def assigns_loop_var(a: hls.int32[8]):
    for i in range(8):
        i = i + 1  # E assigns_loop_var
        a[0] = i


@hls.kernel
def float_into_int(a: hls.int32[8], x: hls.float32):
    a[0] = x  # E float_into_int


@hls.kernel
def pipeline_ii_zero(a: hls.int32[8]):
    for i in range(8):
        hls.pipeline(ii=0)  # E pipeline_ii_zero
        a[i] = 0


@hls.kernel
def partition_factor_too_big(a: hls.int32[8]):
    buf = hls.zeros((8,), hls.int32)
    hls.array_partition(buf, "cyclic", factor=16)  # E partition_factor_too_big
    a[0] = buf[0]


@hls.kernel
def partition_non_array(a: hls.int32[8], n: hls.int32):
    hls.array_partition(n, "complete")  # E partition_non_array
    a[0] = n


@hls.kernel
def uses_lambda(a: hls.int32[8]):
    f = lambda v: v + 1  # E uses_lambda  # noqa: E731
    a[0] = f(1)


@hls.kernel
def list_comprehension(a: hls.int32[8]):
    b = [a[i] for i in range(8)]  # E list_comprehension
    a[0] = b[0]


@hls.kernel
def iterates_array(a: hls.int32[8]):
    for v in a:  # E iterates_array
        a[0] = v


@hls.kernel
def writes_rom(a: hls.int32[8]):
    ROM[0] = a[0]  # E writes_rom


@hls.kernel
def recursive(a: hls.int32[8], n: hls.int32) -> hls.int32:
    return recursive(a, n)  # E recursive


@hls.kernel
def sub_wrong_shape(a: hls.int32[4]):
    buf = hls.zeros((8,), hls.int32)
    takes_eight(a, buf)  # E sub_wrong_shape


@hls.kernel
def takes_eight(a: hls.int32[8], b: hls.int32[8]):
    a[0] = b[0]


@hls.kernel
def unknown_type(a: hls.int32[8], b: hls.float16):  # E unknown_type
    a[0] = 1


@hls.kernel
def uses_try(a: hls.int32[8]):
    try:  # E uses_try
        a[0] = 1
    except Exception:
        pass
