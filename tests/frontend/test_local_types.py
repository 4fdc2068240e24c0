"""Issue 19, items 1 and 2: a local without a declared type holds every value assigned to it, and
literals and operators mean what a reader expects. Each kernel is run in Python mode, in csim and,
where no declared type wraps, as the undecorated function on plain Python ints (the third oracle)."""

import inspect

import numpy as np
import pytest

import hls
from hls.ir import WhileOp


def plain(kernel, *args):
    """The undecorated function on Python values (arrays hold Python ints: numpy's own would wrap)."""
    return inspect.unwrap(kernel)(*(a.astype(object) if isinstance(a, np.ndarray) else a for a in args))


def agree(kernel, *args):
    """Golden, csim and plain CPython give one value; that value is returned."""
    golden, csim, python = kernel(*args), kernel.csim(*args), plain(kernel, *args)
    assert golden == csim == python, (golden, csim, python)
    return golden


# ---- the snippets of the issue ------------------------------------------------------------------


@hls.kernel
def literal_in_one_branch(c: hls.bool_, x: hls.int64) -> hls.int64:
    if c:
        t = 0
    else:
        t = x
    return t


@hls.kernel
def negation_in_one_branch(x: hls.int8) -> hls.int16:
    if x >= 0:
        y = x
    else:
        y = -x
    return y


@hls.kernel
def variable_mask(x: hls.uint32, n: hls.uint5) -> hls.uint32:
    return x & ((1 << n) - 1)


@hls.kernel
def inverted_popcount(a: hls.uint8, b: hls.uint8) -> hls.int32:
    return (~(a ^ b)).bit_count()


@hls.kernel
def max_key(keys: hls.uint32[8]) -> hls.uint32:
    m = 0
    for v in keys:
        if v > m:
            m = v
    return m


@hls.kernel
def total(xs: hls.int32[8]) -> hls.int64:
    s = 0
    for v in xs:
        s = s + v
    return s


def test_a_literal_in_one_branch_takes_the_other_branchs_type():
    for c, x in ((False, 1 << 40), (True, 1 << 40), (False, -(1 << 62))):
        assert agree(literal_in_one_branch, c, x) == (0 if c else x)
    assert "ap_int<33>" not in literal_in_one_branch.cpp and "int64_t t" in literal_in_one_branch.cpp


def test_a_negation_in_one_branch_joins_to_int9():
    assert agree(negation_in_one_branch, -128) == 128
    assert [negation_in_one_branch.csim(x) for x in (-127, 0, 127)] == [127, 0, 127]


def test_a_variable_shift_of_a_literal_has_the_width_its_count_bounds():
    assert agree(variable_mask, 0xFFFFFFFF, 5) == 31
    assert agree(variable_mask, 0xFFFFFFFF, 31) == 2**31 - 1
    assert agree(variable_mask, 0x12345678, 0) == 0


def test_invert_of_an_unsigned_value_keeps_its_width():
    assert inverted_popcount(0, 0) == inverted_popcount.csim(0, 0) == 8
    assert inverted_popcount(0xF0, 0x0F) == inverted_popcount.csim(0xF0, 0x0F) == 0


def test_a_running_maximum_of_uint32_keys_does_not_wrap():
    keys = np.array([2**31 + 5, 1, 2**32 - 1, 0, 7, 8, 9, 10], dtype=np.uint32)
    assert agree(max_key, keys) == 2**32 - 1


def test_a_sum_of_eight_int32_takes_int35():
    for xs in (np.full(8, 2**31 - 1, np.int32), np.full(8, -(2**31), np.int32), np.arange(8, dtype=np.int32)):
        assert agree(total, xs) == int(xs.astype(np.int64).sum())
    assert "ap_int<35> s" in total.cpp


# ---- joins of my own kernels ------------------------------------------------------------------------


@hls.kernel
def elif_chain(k: hls.uint2, a: hls.int8, b: hls.uint16, c: hls.int32) -> hls.int64:
    if k == 0:
        r = a
    elif k == 1:
        r = b
    elif k == 2:
        r = c * 3
    else:
        r = -1
    return r


@hls.kernel
def mixed_signedness(a: hls.uint32, b: hls.int8, pick: hls.bool_) -> hls.int64:
    if pick:
        v = a
    else:
        v = b
    return v


@hls.kernel
def literal_meets_uint64(x: hls.uint64, big: hls.bool_) -> hls.uint64:
    m = 1
    if big:
        m = x
    return m


@hls.kernel
def literal_meets_fixed(x: hls.ap_fixed[12, 4], c: hls.bool_) -> hls.ap_fixed[16, 8]:
    y = 0.5
    if c:
        y = x
    return y


@hls.kernel
def int_meets_float(x: hls.int32, f: hls.float64, c: hls.bool_) -> hls.float64:
    v = x
    if c:
        v = f
    return v


@hls.kernel
def unpacked_swap(a: hls.int8, b: hls.uint16, n: hls.uint3) -> hls.int32:
    x, y = a, b
    for _i in range(n):
        x, y = y, x
    return x - y


@hls.kernel
def augmented_count(xs: hls.uint8[16]) -> hls.int64:
    n = 0
    s = 0
    for v in xs:
        if v > 100:
            n += 1
            s -= v
    return n * 1000 + s


@hls.kernel
def nested_sum(m: hls.int16[4, 8]) -> hls.int64:
    s = 0
    for i in range(4):
        for j in range(8):
            s += m[i, j]
    return s


@hls.kernel
def triangular_sum(m: hls.uint32[8]) -> hls.uint64:
    s = 0
    for i in range(8):
        for j in range(i):
            s = s + m[j]
    return s


@hls.kernel
def straight_line_growth(a: hls.uint16) -> hls.uint64:
    v = a
    v <<= 2
    v |= 1
    v *= 3
    return v


@hls.kernel
def doubling_three_times(x: hls.int8[4]) -> hls.int32:
    acc = x[0]
    for j in range(3):
        acc = acc * 2 + j
    return acc


def test_joins_across_elif_branches():
    assert [agree(elif_chain, k, -100, 60000, -(2**31)) for k in range(4)] == [-100, 60000, -3 * 2**31, -1]


def test_a_signed_and_an_unsigned_value_join_to_a_wider_signed_type():
    assert agree(mixed_signedness, 2**32 - 1, -5, True) == 2**32 - 1
    assert agree(mixed_signedness, 2**32 - 1, -5, False) == -5


def test_a_literal_meeting_uint64_and_fixed_adapts():
    assert agree(literal_meets_uint64, 2**64 - 1, True) == 2**64 - 1
    assert agree(literal_meets_uint64, 2**64 - 1, False) == 1
    assert literal_meets_fixed(7.9375, True) == literal_meets_fixed.csim(7.9375, True) == 7.9375
    assert literal_meets_fixed(-8.0, False) == literal_meets_fixed.csim(-8.0, False) == 0.5


def test_an_int_meeting_a_float_becomes_the_float():
    assert agree(int_meets_float, 2**31 - 1, 0.25, False) == 2**31 - 1
    assert agree(int_meets_float, 7, 0.25, True) == 0.25


def test_tuple_unpacking_across_loop_iterations():
    for n in range(5):
        assert agree(unpacked_swap, -128, 65535, n) == (-128 - 65535 if n % 2 == 0 else 65535 + 128)


def test_augmented_accumulations_count_their_executions():
    xs = np.full(16, 255, np.uint8)
    assert agree(augmented_count, xs) == 16 * 1000 - 16 * 255
    assert agree(nested_sum, np.full((4, 8), -(2**15), np.int16)) == -32 * 2**15
    assert agree(triangular_sum, np.full(8, 2**32 - 1, np.uint32)) == 28 * (2**32 - 1)


def test_straight_line_updates_are_exact():
    assert agree(straight_line_growth, 65535) == ((65535 << 2) | 1) * 3


def test_a_short_loop_that_doubles_gets_every_value_it_reaches():
    assert agree(doubling_three_times, np.array([127, 0, 0, 0], np.int8)) == 127 * 8 + 4
    assert agree(doubling_three_times, np.array([-128, 0, 0, 0], np.int8)) == -128 * 8 + 4


# ---- declared locals keep their type --------------------------------------------------------------


@hls.kernel
def declared_by_type_call(xs: hls.int32[8]) -> hls.int64:
    s = hls.int32(0)
    for v in xs:
        s += v
    return s


@hls.kernel
def declared_by_annotation(xs: hls.uint8[4]) -> hls.int32:
    m: hls.uint8 = 0
    for v in xs:
        m = m + v
    return m


def test_declared_locals_still_wrap():
    xs = np.full(8, 2**31 - 1, np.int32)
    assert declared_by_type_call(xs) == declared_by_type_call.csim(xs) == np.int32(8 * (2**31 - 1) % 2**32 - 2**32)
    ys = np.full(4, 200, np.uint8)
    assert declared_by_annotation(ys) == declared_by_annotation.csim(ys) == (800 % 256)


# ---- shifts and verify ------------------------------------------------------------------------------


@hls.kernel
def typed_shift(x: hls.int16, n: hls.uint4) -> hls.int16:
    return x << n


def test_a_typed_variable_shift_keeps_ap_ints_rule_and_reports_the_wrap():
    assert typed_shift(300, 9) == typed_shift.csim(300, 9) == (300 << 9) % 2**16  # 22528
    with pytest.warns(hls.OverflowWarning, match="153600 does not fit int16"):
        typed_shift.verify(300, 9)


def test_invert_of_unsigned_is_unsigned_in_every_model():
    @hls.kernel
    def inv(a: hls.uint8[4], out: hls.int32[4]):
        for i in range(4):
            out[i] = ~a[i] + 1

    a = np.array([0, 1, 254, 255], np.uint8)
    out = np.zeros(4, np.int32)
    inv(a, out)
    assert out.tolist() == [256, 255, 2, 1]
    inv.verify(a, np.zeros(4, np.int32))


# ---- accumulations of other kinds, and bools -------------------------------------------------------

FIX = hls.ap_fixed[8, 3]


@hls.kernel
def fixed_accumulation(w: FIX[4], x: FIX[4]) -> hls.ap_fixed[24, 12]:
    acc = 0
    for i in range(4):
        acc += w[i] * x[i]
    return acc


@hls.kernel
def float_accumulation(x: hls.float32[4]) -> hls.float32:
    s = 0
    for v in x:
        s += v
    return s


@hls.kernel
def literal_meets_bool(a: hls.int8, b: hls.int8, c: hls.bool_) -> hls.int32:
    f = 0
    if c:
        f = a > b
    return f


@hls.kernel
def bounded_count(x: hls.int8[16], n: hls.uint4) -> hls.int32:
    c = 0
    for i in range(n):
        if x[i] > 0:
            c += 1
    return c


def test_a_fixed_point_accumulation_takes_the_integer_bits_its_trip_count_needs():
    w = np.array([3.875, -4.0, 3.875, -4.0])
    x = np.array([-4.0, -4.0, -4.0, -4.0])
    expected = sum(a * b for a, b in zip(w.tolist(), x.tolist(), strict=True))
    assert fixed_accumulation(w, x) == fixed_accumulation.csim(w, x) == expected == 1.0
    w, x = np.full(4, -4.0), np.full(4, -4.0)
    assert fixed_accumulation(w, x) == fixed_accumulation.csim(w, x) == 64.0
    assert "ap_fixed<18, 8> acc" in fixed_accumulation.cpp  # 4 products in [-32, 32): [-128, 128), 10 fraction bits


def test_a_float_accumulation_from_a_literal_is_the_float():
    xs = np.array([0.1, 0.2, 0.3, 1e8], np.float32)
    assert float_accumulation(xs) == float_accumulation.csim(xs) == np.float32(1e8)
    assert "float s" in float_accumulation.cpp


def test_a_literal_meeting_a_bool_holds_zero_and_one():
    assert [literal_meets_bool(3, 2, c) for c in (True, False)] == [literal_meets_bool.csim(3, 2, c)
                                                                     for c in (True, False)] == [1, 0]


def test_a_counter_bounded_by_its_count_type_stays_int32():
    assert agree(bounded_count, np.ones(16, np.int8), 15) == 15
    assert "int32_t c = 0" in bounded_count.cpp


@hls.kernel
def fibonacci_ten() -> hls.int64:
    a, b = 0, 1
    for _i in range(10):
        a, b = b, a + b
    return a


@hls.kernel
def squares_too_often(x: hls.int8) -> hls.int64:
    y = x
    for _i in range(12):
        y = y * y
    return y


def test_an_undeclared_fibonacci_over_a_short_loop_is_exact():
    assert agree(fibonacci_ten) == 55


def test_a_join_that_would_pass_1024_bits_asks_for_a_declaration():
    with pytest.raises(hls.HLSTypeError, match="declare it: y = hls.int64"):
        squares_too_often.compile()


# ---- a while loop's counter, bounded by its condition ------------------------------------------


@hls.kernel
def count_up(a: hls.int32[16]) -> hls.int32:
    i = 0
    s = hls.int32(0)
    while i < 16:
        s += a[i]
        i += 1
    return s


@hls.kernel
def count_down(a: hls.int32[16], n: hls.uint8) -> hls.int32:
    i = n
    s = hls.int32(0)
    while i > 0:
        i -= 1
        s += a[i & 15]
    return s + i


@hls.kernel
def count_down_past_zero(a: hls.int32[16]) -> hls.int32:
    i = 15
    s = hls.int32(0)
    while i >= 0:
        s = s * 3 + a[i]
        i = i - 1
    return i * 1000 + s


@hls.kernel
def step_two_to_a_typed_bound(start: hls.uint4, n: hls.uint8) -> hls.int32:
    i = start
    while i < n:
        i += 2
    return i


@hls.kernel
def up_to_inclusive(a: hls.int32[20]) -> hls.int32:
    i = 1
    s = hls.int32(0)
    while i <= 16:
        s += a[i]
        i = i + 1
    return s * 100 + i


@hls.kernel
def bound_on_the_left_with_and(a: hls.int32[16], limit: hls.int32) -> hls.int32:
    i = 0
    s = hls.int32(0)
    while 16 > i and s < limit:
        s += a[i]
        i = 1 + i
    return i


@hls.kernel
def increments_in_both_arms_and_continue(a: hls.int32[32], n: hls.uint4) -> hls.int32:
    i = 0
    s = hls.int32(0)
    while i < n:
        if a[i] > 0:
            i += 2
            continue
        else:
            i += 1
        s += a[i]
    return s * 64 + i


@hls.kernel
def bound_read_in_the_loop(a: hls.uint8[300]) -> hls.int32:
    i = 0
    hi = a[0]
    while i < hi:
        i += 3
        hi = a[i]
    return i


def loop_local_type(kernel, name):
    """The type a kernel's local is carried in around its (first) while loop, from the IR."""
    module = kernel.compile().module
    loop = next(op for op in module.functions[module.top].walk() if isinstance(op, WhileOp))
    return str(next(r.type for r in loop.results if r.name == name))


def test_a_while_counter_bounded_by_its_condition_is_exact():
    a = np.arange(16, dtype=np.int32) - 5
    assert agree(count_up, a) == int(a.sum())
    for n in (0, 1, 16, 255):
        expected = sum(int(a[j & 15]) for j in range(n))
        assert agree(count_down, a, n) == expected
    assert agree(count_down_past_zero, a) == plain(count_down_past_zero, a)
    assert agree(up_to_inclusive, np.arange(20, dtype=np.int32)) == sum(range(1, 17)) * 100 + 17


def test_a_counter_that_starts_from_a_typed_value_gets_the_narrowest_type():
    # i starts in [0, 15], stays below n <= 255 at every test and steps by 2: at most 256, a uint9
    assert [agree(step_two_to_a_typed_bound, s, n) for s, n in ((14, 255), (15, 255), (0, 0), (3, 4))] == \
        [256, 255, 0, 5]
    assert loop_local_type(step_two_to_a_typed_bound, "i") == "uint9"
    assert loop_local_type(count_down, "i") == "uint8"


def test_a_counter_from_a_literal_is_int32_like_any_counted_literal():
    assert loop_local_type(count_up, "i") == "int32"


def test_the_counter_bound_can_sit_on_either_side_of_an_and():
    a = np.arange(16, dtype=np.int32)
    assert [agree(bound_on_the_left_with_and, a, lim) for lim in (0, 10, 1000)] == [0, 5, 16]


def test_a_counter_stepped_in_both_arms_or_before_continue_counts_both_steps():
    a = np.array([1, -1, 0, 5, -2] * 6 + [0, 0], dtype=np.int32)
    for n in (0, 1, 7, 15):
        agree(increments_in_both_arms_and_continue, a, n)


def test_a_bound_that_changes_in_the_loop_is_bounded_by_its_type():
    a = np.zeros(300, dtype=np.uint8)
    a[0], a[3], a[6] = 200, 250, 255
    a[9:] = 255
    assert agree(bound_read_in_the_loop, a) == plain(bound_read_in_the_loop, a)
    assert loop_local_type(bound_read_in_the_loop, "i") == "int32"  # 257 at most, from a literal: int32


@hls.kernel
def counter_from_below_inclusive(n: hls.int8) -> hls.int32:
    i = -200
    while i <= n:
        i += 7
    return i


@hls.kernel
def counter_stepped_by_a_ranged_value(n: hls.uint8, d: hls.uint3) -> hls.int32:
    i = 0
    while i < n:
        i += d + 1
    return i


@hls.kernel
def while_counter_inside_a_counted_loop(a: hls.int32[8]) -> hls.int32:
    i = 0
    t = hls.int32(0)
    for _j in range(4):
        while i < 8:
            t += a[i]
            i += 1
        i -= 3
    return t * 100 + i


def test_more_counter_shapes_agree_with_cpython():
    assert [agree(counter_from_below_inclusive, n) for n in (-128, -1, 127)] == \
        [plain(counter_from_below_inclusive, n) for n in (-128, -1, 127)]
    # a step whose range is known (0..7, plus 1) bounds like a constant one: below 255 + 8
    assert [agree(counter_stepped_by_a_ranged_value, n, d) for n, d in ((250, 7), (255, 7), (0, 0), (9, 3))] == \
        [256, 256, 0, 12]
    # the while bounds i by 8; the counted `i -= 3` after it moves it 4 * 3 down at most
    assert agree(while_counter_inside_a_counted_loop, np.arange(8, dtype=np.int32)) == \
        plain(while_counter_inside_a_counted_loop, np.arange(8, dtype=np.int32))


@hls.kernel
def literal_sum_meets_float32(x: hls.float32, c: hls.int8) -> hls.float64:
    return hls.float32(1) + (x if c else 1.25 + 1.0) + 0.5 * 3.0


@hls.kernel
def int_times_literal(x: hls.int8, y: hls.float32) -> hls.float64:
    return y + x * 0.5


def test_arithmetic_of_literals_stays_a_python_float_next_to_float32():
    """`1.25 + 1.0` is a Python float: next to float32 it is float32 (numpy's NEP 50), as a bare literal
    (fuzz seed 2315000144: the C++ added in double and kept the 1 that float32 rounds away)."""
    big = np.float32(2.0 ** 36)
    assert [literal_sum_meets_float32(big, c) for c in (1, 0)] == [literal_sum_meets_float32.csim(big, c)
                                                                  for c in (1, 0)] \
        == [plain(literal_sum_meets_float32, big, c) for c in (1, 0)] == [float(big), 4.75]
    assert "2.25f" in literal_sum_meets_float32.cpp and "1.5f" in literal_sum_meets_float32.cpp


def test_a_typed_value_times_a_literal_is_not_a_literal():
    """int8 * 0.5 is numpy's float64 (a typed operand makes the result typed): float32 + it stays float64."""
    y = np.float32(2.0 ** 30)
    assert int_times_literal(1, y) == int_times_literal.csim(1, y) == y + np.int8(1) * 0.5 == float(y) + 0.5
