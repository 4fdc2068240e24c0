"""Regression tests for the bugs the differential fuzzer found (kernels in tests/kernels/fuzz_regressions.py).

Each test pins inputs that trigger the original failure, so it does not depend on the generator or
on the random input stream staying the same.
"""

from pathlib import Path

import numpy as np
import pytest

import hls
from hls.backend.codec import codec_for
from tests.kernels import fuzz_regressions as fr


def test_float_comparisons_add_as_ints():
    x = np.array([0.5, 3.0, -1.0, 2.5], dtype=np.float32)
    y = np.array([1.0, 1.0, 0.0, 2.0], dtype=np.float32)
    out = np.zeros(4, dtype=np.int32)
    fr.float_compare_sum(x, y, out)
    assert out.tolist() == [2, 0, 2, 0]
    fr.float_compare_sum.verify(x, y, np.zeros(4, dtype=np.int32), rtol=0, atol=0)
    fr.float_compare_sum.verify(seed=1, rtol=0, atol=0)


def test_float_comparison_negates_as_int():
    x = np.array([0.25, 0.75, 0.5, -3.0])
    out = np.zeros(4, dtype=np.int8)
    fr.float_compare_negate(x, out)
    assert out.tolist() == [-1, 0, -1, -1]
    fr.float_compare_negate.verify(x, np.zeros(4, dtype=np.int8), rtol=0, atol=0)


def test_captured_numpy_scalars_are_exact():
    out = np.zeros(3, dtype=np.int64)
    a = np.array([2**64 - 1, 2**63 + 5], dtype=np.uint64)
    fr.captured_numpy_scalars(a, out)
    assert out.tolist() == [4, 2, (2**64 - 1) * (2**63 + 5) % 2**62]
    fr.captured_numpy_scalars.verify(a, np.zeros(3, dtype=np.int64), rtol=0, atol=0)
    fr.captured_numpy_scalars.verify(seed=2, rtol=0, atol=0)


def test_sat_sym_random_inputs_are_representable():
    t = hls.ap_fixed[3, 3, "AP_TRN", "AP_SAT_SYM"]
    values = codec_for(t[4096]).random(np.random.default_rng(0))
    assert values.min() == -3 and values.max() == 3
    for seed in range(4):
        fr.sat_sym_argument.verify(seed=seed)


def test_random_64_bit_inputs_cover_odd_values():
    for t in (hls.int64, hls.uint64):
        values = codec_for(t[256]).random(np.random.default_rng(0))
        assert np.any(values % 2 == 1)


def test_bool_power_is_an_int():
    a = np.array([True, False, True, False])
    out = np.zeros(4, dtype=np.int8)
    fr.bool_power(a, out)
    assert out.tolist() == [-2, -1, -2, -1]
    fr.bool_power.verify(a, np.zeros(4, dtype=np.int8))


def test_sub_kernel_with_wide_parameters():
    for x in (3, -(2**62), 2**63 - 1):
        fr.wide_caller.verify(x, np.zeros(4, dtype=np.int8))
    assert "ap_int<100> a" in fr.wide_parameters.cpp  # the C++ itself is fine
    with pytest.raises(hls.HLSTypeError, match="wider than 64 bits"):
        fr.wide_parameters.csim(1, np.zeros(2, dtype=object), 0.0, np.zeros(4, dtype=np.int8))


def test_local_ap_arrays_start_at_zero():
    cpp = fr.unwritten_ap_arrays.cpp
    assert "= {};" not in cpp  # value-initialization leaves ap_int/ap_fixed undefined
    # every element zeroed explicitly: a list for a short array (readable C++, issue 21), else a loop
    assert "ap_int<100> a[2][3] = {0, 0, 0, 0, 0, 0};" in cpp and "ap_fixed<16, 6> f[4] = {0, 0, 0, 0};" in cpp
    assert "int64_t junk[32] = {};" in fr.scribble.cpp  # native types still use the aggregate zeroing
    x = np.arange(-16, 16, dtype=np.int64) * 0x0123456789AB
    fr.zeros_after_scribble.verify(x, np.zeros(3, dtype=np.int64))
    out = np.full(3, 99, dtype=np.int64)
    fr.zeros_after_scribble.csim(x, out)
    assert out.tolist() == [0, 0, 0]


def test_fixed_with_no_integer_bits_truncates_to_zero():
    b = np.array([-0.25, -0.5, 0.25, -0.0009765625])
    c = np.array([0.25, 0.0, 0.4375, 0.0078125])
    for a in (-0.0625, 0.0625, -0.125):
        out = np.full(9, 7, dtype=np.uint16)
        fr.tiny_fixed_to_int.csim(a, b, c, out)
        assert out.tolist() == [0] * 9
        fr.tiny_fixed_to_int.verify(a, b, c, np.zeros(9, dtype=np.uint16))


def test_double_negation_is_not_a_decrement():
    a = np.array([5, -7, 2**31 - 1, -(2**31)], dtype=np.int32)
    f = np.array([0.5, -1.5, 0.0, 3.25], dtype=np.float32)
    out, g = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.float32)
    assert fr.double_negation(a, f, out, g) == 0
    assert out.tolist() == [12, -7, 2**31 + 4294967294, -(2**31) + 7]
    fr.double_negation.verify(a, f, np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.float32), rtol=0, atol=0)


def test_select_between_wide_products_compiles():
    for seed in range(3):
        fr.select_of_wide_product.verify(seed=seed)


def test_conversions_below_half_an_lsb_do_not_abort(tmp_path):
    """Run in a worker process: before the fix the ap_private assertion aborted the interpreter."""
    from tests.fuzz.campaign import Runner

    text = Path(fr.__file__).read_text()
    outcome = Runner(tmp_path, timeout=300).run(
        {"text": text, "kernel": "below_half_lsb", "seed": 3, "rtol": 0.0, "atol": 0.0}, "half_lsb")
    assert "error" not in outcome, outcome
    assert outcome["members"]["3"]["status"] == "pass", outcome["members"]["3"]
    flags = np.array([True, True, False, True])
    small = np.array([-8, 7, 1, -1], dtype=np.int8)
    tiny = np.array([-0.00390625, 0.0, 0.0029296875, -0.0009765625])
    outs = [np.zeros(4) for _ in range(3)]
    assert fr.below_half_lsb(flags, small, tiny, *outs) == 0
    assert outs[0].tolist() == [0.0] * 4 and outs[2].tolist() == [0.0] * 4
    outcome = Runner(tmp_path, timeout=300).run(
        {"text": text + "\n\nbelow_half_lsb.verify(np.array([True, True, False, True]), np.array([-8, 7, 1, -1], "
                 "dtype=np.int8), np.array([-0.00390625, 0.0, 0.0029296875, -0.0009765625]), np.zeros(4), "
                 "np.zeros(4), np.zeros(4))\n", "kernel": "below_half_lsb", "seed": 4, "rtol": 0.0, "atol": 0.0},
        "half_lsb_given")
    assert outcome["members"]["4"]["status"] == "pass", outcome


def test_wide_integers_round_to_float32_once():
    tie = 2**60 + 2**36  # a float32 midpoint; one more unit must round up
    assert float(hls.float32(tie + 1)) == 2**60 + 2**37 and float(hls.float32(tie)) == 2**60
    assert float(hls.float32(-(tie + 1))) == -(2**60 + 2**37)
    assert float(hls.float32(np.array([tie + 1], dtype=object))[0]) == 2**60 + 2**37
    a = np.array([tie + 1, -(tie + 1)], dtype=np.int64)
    x = np.array([0.0, float(2**60)], dtype=np.float32)
    out, flags = np.zeros(8, dtype=np.float32), np.zeros(2, dtype=bool)
    fr.int_to_float32_once(a, x, out, flags)
    assert out[0] == 2**60 + 2**37 and out[2] == 2**60 + 2**37 and out[4] == 2**62 + 2**39
    fr.int_to_float32_once.verify(a, x, np.zeros(8, dtype=np.float32), np.zeros(2, dtype=bool), rtol=0, atol=0)
    fr.int_to_float32_once.verify(seed=5, rtol=0, atol=0)


def test_fixed_division_reaching_min():
    a, d = np.array([-0.125, -0.125]), np.array([-1, 1], dtype=np.int8)
    x, y = np.array([-32.0, -32.0]), np.array([-0.0009765625, 0.0009765625])
    q, r = np.zeros(2), np.zeros(2)
    fr.fixed_div_min(a, d, x, y, q, r)
    assert q.tolist() == [0.125, -0.125] and r.tolist() == [32768.0, -32768.0]
    fr.fixed_div_min.verify(a, d, x, y, np.zeros(2), np.zeros(2))


def test_float32_augmented_assignment_with_literal():
    a = np.array([0.000618054, 1.0, -3.7, 1e-3], dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    fr.float32_augmented_literal(a.copy(), out)
    acc = np.float32(1)
    for i in range(4):
        acc = np.float32(np.float32(acc * np.float32(1.1)) - np.float32(0.7))
        assert out[i] == acc
    fr.float32_augmented_literal.verify(a, np.zeros(4, dtype=np.float32), rtol=0, atol=0)
    for seed in range(3):
        fr.float32_augmented_literal.verify(seed=seed, rtol=0, atol=0)


def test_float32_compares_with_its_literal_rounded():
    for values, expected in (([0.1, 0.1], [True, False, True, True]), ([0.1, -1.0], [True, True, True, False])):
        x = np.array(values, dtype=np.float32)
        out = np.zeros(4, dtype=bool)
        fr.float32_literal_compare(x, out)
        assert out.tolist() == expected
        fr.float32_literal_compare.verify(x, np.zeros(4, dtype=bool))


def test_fixed_compares_with_unsigned_by_value():
    f, g = np.array([-0.75, 3.5]), np.array([-0.75, 5.0])
    u32, u64 = np.array([5, 3], dtype=np.uint32), np.array([1841703110588163464, 5], dtype=np.uint64)
    w, uf = np.array([2**39, 4], dtype=np.uint64), np.array([0.5, 3.0])
    out = np.zeros(12, dtype=bool)
    fr.fixed_vs_unsigned(f, g, u32, u64, w, uf, out)
    assert out.tolist() == [False, False, True, True, False, False, True, True, True, False, False, True]
    fr.fixed_vs_unsigned.verify(f, g, u32, u64, w, uf, np.zeros(12, dtype=bool))
    for seed in range(3):
        fr.fixed_vs_unsigned.verify(seed=seed)


def test_loop_bound_is_read_once():
    for first in (1, 3, 7, 8):
        a = np.array([first, 0], dtype=np.int32)
        b = np.array([5, 2, 0, 0, 0, 0, 0, 0], dtype=np.int32)
        fr.bound_read_once.verify(a, b)
        fr.bound_read_once(a, b)
        assert a[0] == (first if first & 7 == 0 else 6 + (first & 7) - 1)
    for seed in range(4):
        fr.bound_read_once.verify(seed=seed)


def test_carried_local_does_not_clobber_the_loop_variable():
    a2, out = np.zeros((4, 4)), np.zeros(8, dtype=np.int32)
    fr.carried_from_loop_variable(a2, 7, out)
    assert a2[1, 0] == 1.0 and out.tolist() == [8 * i + 4 for i in range(7)] + [0]
    fr.carried_from_loop_variable.verify(np.zeros((4, 4)), 7, np.zeros(8, dtype=np.int32))
    for seed in range(3):
        fr.carried_from_loop_variable.verify(seed=seed)


def test_unrolled_copies_of_a_while_loop_get_their_own_labels():
    a, out = np.array([0, 2, 9, -1], dtype=np.int16), np.zeros(4, dtype=np.int32)
    fr.unrolled_while.verify(a, out)
    fr.unrolled_while(a, out)
    assert out.tolist() == [0, 2, 5, 0]
    module = fr.unrolled_while.compile().module  # the unrolled IR the estimate reads (the C++ keeps the loop)
    labels = [op.attrs.get("label") for f in module.functions.values() for op in f.walk()
              if type(op).__name__ == "WhileOp"]
    assert len(labels) == 4 and len(set(labels)) == 4
    cpp = fr.unrolled_while.cpp
    assert sum(": while (" in line for line in cpp.splitlines()) == 1 and "#pragma HLS unroll" in cpp


def test_one_element_tuple_result_of_a_sub_kernel():
    a = np.array([100, -100], dtype=np.int8)
    out = np.zeros(2, dtype=np.int8)
    fr.unpacks_one_tuple(a, out)
    assert out.tolist() == [3, -3]  # AP_SAT_SYM clips to +-3 in ap_fixed<3, 3>
    assert fr.one_tuple(5) == (3,) == fr.one_tuple.csim(5)
    fr.unpacks_one_tuple.verify(a, np.zeros(2, dtype=np.int8), rtol=0, atol=0)
    assert "one_tuple(a[0], r);" in fr.unpacks_one_tuple.cpp


def test_variable_shift_of_a_wide_sum_wraps_at_its_ir_width():
    """Fuzz seed 4242000016: (uint64 + uint64) << n gave -1.28e19 in csim; Python mode wraps to uint65."""
    a = np.array([2**64 - 1, 2**63 + 12345], dtype=np.uint64)
    for n in range(4):
        expected = float((int(a[0]) + int(a[1])) << n & (2**65 - 1))
        got = fr.wide_sum_variable_shift.csim(a.copy(), n)
        assert got == fr.wide_sum_variable_shift(a.copy(), n)
        assert got == min(expected, 10000.0) + hls.uint8(((int(a[0]) + int(a[1])) << n) & (2**65 - 1))
    assert "ap_uint<65>(ap_uint<65>(a[0]) + ap_uint<65>(a[1])) <<" in fr.wide_sum_variable_shift.cpp


def test_loop_bound_from_a_local_the_body_reassigns():
    for first in (1, 7, 200, -1):
        a0 = np.full((2, 3), first, dtype=np.int16)
        fr.bound_from_local.verify(np.zeros((2, 3)), a0)
    assert "acc0 = hls_floordiv" not in fr.bound_from_local.cpp  # the header's variable is not overwritten
    for seed in range(3):
        fr.bound_from_local.verify(seed=seed)
