"""Regression tests for the bugs the differential fuzzer found (kernels in tests/fuzz_regressions.py).

Each test pins inputs that trigger the original failure, so it does not depend on the generator or
on the random input stream staying the same.
"""

import numpy as np
import pytest

import hls
from hls.sim.verify import random_value
from tests import fuzz_regressions as fr


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
    values = random_value(t[4096], np.random.default_rng(0))
    assert values.min() == -3 and values.max() == 3
    for seed in range(4):
        fr.sat_sym_argument.verify(seed=seed)


def test_random_64_bit_inputs_cover_odd_values():
    for t in (hls.int64, hls.uint64):
        values = random_value(t[256], np.random.default_rng(0))
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
    assert "ap_int<100> a[2][3];" in cpp and "= 0;" in cpp
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
