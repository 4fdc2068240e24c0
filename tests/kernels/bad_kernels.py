"""Kernels that must be rejected. `# E` marks the line each error must point at."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import hls

ROM = np.arange(8, dtype=np.int32)


@hls.kernel
def while_never_exits(a: hls.int32[8]):
    i = hls.int32(0)
    while True:  # E while_never_exits
        a[i & 7] = 0
        i += 1


def helper(x):
    return x


@hls.kernel
def calls_python(a: hls.int32[8]):
    for i in range(8):
        a[i] = helper(a[i])  # E calls_python


@hls.kernel
def uses_print(a: hls.int32[8]):
    a[1] = print(a[0])  # E uses_print


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
def iterates_array(a: hls.int32[8], n: hls.int32):
    for v in n:  # E iterates_array
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


@hls.kernel
def while_true(a: hls.int32[8]):
    while True:  # E while_true
        a[0] = 1


@hls.kernel
def uses_with(a: hls.int32[8]):
    with open("x") as f:  # E uses_with
        a[0] = len(f)


@hls.kernel
def dict_value(a: hls.int32[8]):
    d = {1: 2}  # E dict_value
    a[0] = d[1]


@hls.kernel
def list_value(a: hls.int32[8]):
    b = [1, 2, 3]  # E list_value
    a[0] = b[0]


@hls.kernel
def str_value(a: hls.int32[8]):
    s = "text"  # E str_value
    a[0] = s


@hls.kernel
def generator(a: hls.int32[8]):
    for i in range(8):
        yield a[i]  # E generator


@hls.kernel
async def coroutine(a: hls.int32[8]):  # E coroutine
    a[0] = 1


COUNTER = 0


@hls.kernel
def global_write(a: hls.int32[8]):
    global COUNTER  # E global_write
    COUNTER = a[0]


def make_nonlocal():
    total = 0

    @hls.kernel
    def nonlocal_write(a: hls.int32[8]):
        nonlocal total  # E nonlocal_write
        total = a[0]

    return nonlocal_write


nonlocal_write = make_nonlocal()


@hls.kernel
def star_args(a: hls.int32[8], *rest):  # E star_args
    a[0] = 1


@hls.kernel
def star_kwargs(a: hls.int32[8], **options):  # E star_kwargs
    a[0] = 1


@hls.kernel
def numpy_random(a: hls.float64[8]):
    a[0] = np.random.rand()  # E numpy_random


@hls.kernel
def opens_file(a: hls.int32[8]):
    open("data.bin")  # E opens_file


@hls.kernel
def variable_shape(a: hls.int32[8], n: hls.int32):
    buf = hls.zeros((n,), hls.int32)  # E variable_shape
    a[0] = buf[0]


@hls.kernel
def rank_mismatch(a: hls.int32[8]):
    a[1, 2] = 0  # E rank_mismatch


@hls.kernel
def sub_float_for_int(a: hls.int32[8], x: hls.float32):
    takes_scalar(a, x)  # E sub_float_for_int


@hls.kernel
def takes_scalar(a: hls.int32[8], n: hls.int32):
    a[0] = n


@hls.kernel
def sub_wrong_count(a: hls.int32[8]):
    takes_scalar(a)  # E sub_wrong_count


@hls.kernel
def unknown_option(a: hls.int32[8]):
    for i in range(8):
        hls.pipeline(iii=1)  # E unknown_option
        a[i] = 0


@hls.kernel
def bad_partition_type(a: hls.int32[8]):
    buf = hls.zeros((8,), hls.int32)
    hls.array_partition(buf, "diagonal", factor=2)  # E bad_partition_type
    a[0] = buf[0]


@hls.kernel
def negative_unroll(a: hls.int32[8]):
    for i in range(8):
        hls.unroll(factor=-2)  # E negative_unroll
        a[i] = 0


@hls.kernel
def tripcount_inverted(a: hls.int32[8], n: hls.int32):
    for i in range(n):
        hls.loop_tripcount(min=8, max=2)  # E tripcount_inverted
        a[0] = i


@hls.kernel
def storage_on_argument(a: hls.int32[8]):
    hls.bind_storage(a, "ram_2p")  # E storage_on_argument
    a[0] = 1


@hls.kernel
def bad_interface_mode(a: hls.int32[8]):
    hls.interface(a, "pcie")  # E bad_interface_mode
    a[0] = 1


@hls.kernel
def unroll_with_break(a: hls.int32[8]):
    for i in range(8):
        hls.unroll()  # E unroll_with_break
        if a[i] == 0:
            break
        a[i] = 1


@hls.kernel
def unroll_while(a: hls.int32[8]):
    i = hls.int32(0)
    while i < 8:
        hls.unroll()  # E unroll_while
        a[i] = 1
        i += 1


@hls.kernel
def while_else(a: hls.int32[8]):
    i = hls.int32(0)
    while i < 8:  # E while_else
        i += 1
    else:
        a[0] = i


@hls.kernel
def return_not_on_every_path(a: hls.int32[8]) -> hls.int32:  # E return_not_on_every_path
    for i in range(8):
        if a[i] == 0:
            return i


@hls.kernel
def python_float_annotation(a: hls.float32[8], x: float):  # E python_float_annotation
    a[0] = x


@hls.kernel
def tuple_unpack(a: hls.int32[8]):
    x, y = a[0], a[1], a[3]  # E tuple_unpack
    a[2] = x + y


@hls.kernel
def rebinds_array(a: hls.int32[8], b: hls.int32[8]):
    a = b  # E rebinds_array  # noqa: F841


@hls.kernel
def negative_index(a: hls.int32[8]):
    a[-1] = 0  # E negative_index


@hls.kernel
def float_index(a: hls.int32[8], x: hls.float32):
    a[x] = 0  # E float_index


@hls.kernel
def and_of_numbers(a: hls.int32[8]):
    a[0] = a[1] and a[2]  # E and_of_numbers


@hls.kernel
def bool_invert(a: hls.bool_[8]):
    a[0] = ~a[1]  # E bool_invert


@hls.kernel
def prints_array(a: hls.int32[8]):
    print("a =", a)  # E prints_array


@hls.kernel
def zip_strict_lengths(a: hls.int32[8], b: hls.int32[6]):
    for x, y in zip(a, b, strict=True):  # E zip_strict_lengths
        a[0] = x + y


@hls.kernel
def break_in_tuple_loop(a: hls.int32[8]):
    for w in (1, 2, 4):
        if a[w] == 0:
            break  # E break_in_tuple_loop
        a[w] = 1


@hls.kernel
def tuple_return_too_long(a: hls.int8) -> tuple[hls.int8, hls.int8]:
    return a, a, a  # E tuple_return_too_long


@hls.kernel
def scalar_return_of_tuple(a: hls.int8) -> hls.int8:
    return a, a  # E scalar_return_of_tuple


@hls.kernel
def static_untyped(a: hls.int8) -> hls.int8:
    n = hls.static(0)  # E static_untyped
    return n + a


@hls.kernel
def result_shape_differs(a: hls.int8[8]) -> hls.int8[8]:
    y = hls.zeros((4,), hls.int8)  # E result_shape_differs
    return y


@hls.kernel
def result_type_differs(a: hls.int8[8]) -> hls.int8[8]:
    y = hls.zeros((8,), hls.int16)  # E result_type_differs
    return y


@hls.kernel
def returns_argument_array(a: hls.int8[8]) -> hls.int8[8]:
    return a  # E returns_argument_array


@hls.kernel
def pair(a: hls.int8) -> tuple[hls.int8, hls.int8]:
    return a, a


@hls.kernel
def tuple_call_not_unpacked(a: hls.int8) -> hls.int8:
    p = pair(a)  # E tuple_call_not_unpacked
    return p


@hls.kernel
def unpack_wrong_count(a: hls.int8) -> hls.int8:
    x, y, z = pair(a)  # E unpack_wrong_count
    return x


@hls.kernel
def early_tuple_return(a: hls.int8) -> tuple[hls.int8, hls.int8]:
    if a < 0:
        return a, a  # E early_tuple_return
    return a, -a


@hls.kernel
def slice_out_of_range(a: hls.uint8[8]):
    a[0] = a[1][4:9]  # E slice_out_of_range


@hls.kernel
def slice_empty(a: hls.uint8[8]):
    a[0] = a[1][4:4]  # E slice_empty


@hls.kernel
def bit_out_of_range(x: hls.int16) -> hls.bool_:
    return x[16]  # E bit_out_of_range


@hls.kernel
def bitcast_width(x: hls.uint16) -> hls.float32:
    return hls.bitcast(x, hls.float32)  # E bitcast_width


@hls.kernel
def bits_of_float(x: hls.float32) -> hls.bool_:
    return x[3]  # E bits_of_float


@hls.kernel
def variable_slice(x: hls.uint32, n: hls.int32) -> hls.uint32:
    return x[0:n]  # E variable_slice


@dataclass
class Pixel:
    r: hls.uint8
    g: int


@hls.kernel
def dataclass_array(arr: Pixel[4]):  # E dataclass_array
    pass


@hls.kernel
def dataclass_scalar(p: Pixel) -> hls.uint8:  # E dataclass_scalar
    return p.r


@hls.kernel
def while_accumulation(a: hls.int32[8], n: hls.int32) -> hls.int64:
    s = 0
    i = hls.int32(0)
    while i < n:
        s += a[i & 7]  # E while_accumulation
        i += 1
    return s


@hls.kernel
def accumulates_too_wide(xs: hls.uint64[16]) -> hls.uint64:
    s = 0
    for v in xs:
        s += v  # E accumulates_too_wide
    return s


@hls.kernel
def literal_shift_too_wide(x: hls.uint32, n: hls.int32) -> hls.uint32:
    return x & ((1 << n) - 1)  # E literal_shift_too_wide


@hls.kernel
def fixed_meets_float(x: hls.ap_fixed[16, 6], f: hls.float32, c: hls.bool_) -> hls.float32:
    v = x
    if c:
        v = f  # E fixed_meets_float
    return hls.float32(v)


@hls.kernel
def grows_every_iteration(x: hls.int8) -> hls.int64:
    acc = x
    for _i in range(40):
        acc = acc * 3  # E grows_every_iteration
    return acc


# a while counter whose condition does not bound it stays refused (hls.frontend.joins.counter_bound)
@hls.kernel
def while_counter_reassigned(a: hls.int32[8]) -> hls.int32:
    i = 0
    while i < 8:
        i += 1  # E while_counter_reassigned
        if a[i & 7] < 0:
            i = a[i & 7]
    return i


@hls.kernel
def while_counter_in_inner_for(a: hls.int32[8]) -> hls.int32:
    i = 0
    while i < 8:
        for _j in range(2):
            i += 1  # E while_counter_in_inner_for
    return i


@hls.kernel
def while_counter_float_bound(x: hls.float32) -> hls.int32:
    i = 0
    while i < x:
        i += 1  # E while_counter_float_bound
    return i


@hls.kernel
def while_counter_wrong_direction(n: hls.int8) -> hls.int32:
    i = 0
    while i < n:
        i -= 1  # E while_counter_wrong_direction
    return i


@hls.kernel
def while_counter_rebound_by_loop(start: hls.uint4) -> hls.int32:
    i = start
    while i < 16:
        for i in (100,):  # noqa: B007 (the point: the loop target rebinds the counter)
            pass
        i += 1  # E while_counter_rebound_by_loop
    return i


@hls.kernel
def binary_search_undeclared(a: hls.int32[16], x: hls.int32) -> hls.int32:
    lo = 0
    hi = 16
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1  # E binary_search_undeclared
        else:
            hi = mid
    return lo
