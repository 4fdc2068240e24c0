"""The boundary codec (hls/backend/codec/__init__.py): .dat text and storage round trips per type, random
inputs inside each type's range, the comparison rule, and every type through the C++ bridge and back."""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest

import hls
from hls.backend.codec import codec_for

TYPES = [hls.int8, hls.uint8, hls.int16, hls.uint16, hls.int32, hls.uint32, hls.int64, hls.uint64,
         hls.ap_int[1], hls.ap_uint[1], hls.int9, hls.uint12, hls.ap_int[63], hls.ap_uint[63],
         hls.ap_fixed[16, 8], hls.ap_ufixed[12, 4], hls.ap_fixed[8, 10], hls.ap_fixed[6, -2],
         hls.ap_fixed[53, 20], hls.ap_fixed[3, 3, "AP_TRN", "AP_SAT_SYM"], hls.float32, hls.float64, hls.bool_]


def bits(values: np.ndarray) -> list[int]:
    """Bit patterns, so that a float round trip is checked exactly (and -0.0 differs from 0.0)."""
    return values.view(f"u{values.dtype.itemsize}").tolist() if values.dtype.kind == "f" else values.tolist()


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_dat_text_round_trips_random_values(t):
    codec = codec_for(t[257])
    values = codec.random(np.random.default_rng(1))
    assert values.shape == (257,) and values.dtype == t.storage_dtype
    text = codec.format_dat(values)
    assert text.count("\n") == 257
    back = codec.parse_dat(text)
    assert back.dtype == values.dtype and bits(back) == bits(values)


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_random_values_are_values_of_the_type(t):
    values = codec_for(t[20000]).random(np.random.default_rng(7))
    if isinstance(t, hls.types.IntType):
        low, high = -(2 ** (t.width - 1)) if t.signed else 0, 2 ** (t.width - (1 if t.signed else 0)) - 1
        ints = [int(v) for v in values]
        assert low <= min(ints) and max(ints) <= high
        if t.width <= 9:  # 20000 draws reach both ends of a small range
            assert min(ints) == low and max(ints) == high
    elif isinstance(t, hls.types.FixedType):
        step = Fraction(2) ** (t.int_bits - t.width)  # one lsb
        exact = [Fraction(float(v)) for v in values[:500]]
        assert all((v / step).denominator == 1 and t.convert(v) == v for v in exact)
    elif isinstance(t, hls.types.FloatType):
        assert np.all(values >= -1) and np.all(values < 1)
    else:
        assert set(values.tolist()) == {False, True}


def test_dat_text_of_known_values():
    assert codec_for(hls.int9[2]).format_dat(np.array([-256, 255], dtype=np.int16)) == "-256\n255\n"
    assert codec_for(hls.uint64).format_dat(2**64 - 1) == "18446744073709551615\n"
    assert codec_for(hls.float32).format_dat(np.float32(0.1)) == "0.100000001\n"  # float32(0.1) to 9 digits
    assert codec_for(hls.float64).format_dat(0.1) == "0.10000000000000001\n"  # 0.1 to 17 digits
    assert codec_for(hls.ap_fixed[8, 4]).format_dat(Fraction(-3, 2)) == "-1.5\n"
    assert codec_for(hls.bool_[3]).format_dat(np.array([True, False, True])) == "1\n0\n1\n"
    assert codec_for(hls.uint64).parse_dat("18446744073709551615\n\n").tolist() == [2**64 - 1]
    assert codec_for(hls.bool_).parse_dat("0\n7\n").tolist() == [False, True]


def test_scalar_storage_round_trip():
    int9, fixed, f32 = codec_for(hls.int9), codec_for(hls.ap_fixed[8, 4]), codec_for(hls.float32)
    assert int9.to_storage("x", -212) == -212 and type(int9.from_storage(44)) is int
    assert int9.to_storage("x", 3.0) == 3 and fixed.to_storage("x", 1.25) == 1.25  # values of the type
    assert fixed.from_storage(1.25) == Fraction(5, 4)
    raw = struct.unpack("<f", struct.pack("<f", 0.1))[0]  # what cffi hands back for a C float 0.1f
    assert f32.from_storage(raw) == np.float32(0.1) and type(f32.from_storage(raw)) is np.float32
    assert codec_for(hls.bool_).to_storage("x", 1) is True and codec_for(hls.bool_).to_storage("x", False) is False
    with pytest.raises(hls.SimulationError, match="scalar int9, got an array"):
        int9.to_storage("x", np.zeros(2))


def test_array_checks_name_the_argument():
    codec = codec_for(hls.int9[4])
    with pytest.raises(hls.SimulationError, match="'a' has dtype int32; int9 arrays travel as int16"):
        codec.check("a", np.zeros(4, dtype=np.int32))
    with pytest.raises(hls.SimulationError, match="values -1..300 do not fit int9"):
        codec.check("a", np.array([0, 300, -1, 2], dtype=np.int16))
    with pytest.raises(hls.SimulationError, match="not exactly representable"):
        codec_for(hls.ap_fixed[8, 4][2]).check("f", np.array([0.5, 0.01]))
    good = np.array([1, 2, 3, 4], dtype=np.int16)
    assert codec.check("a", good) is good


def test_comparison_rule():
    codec_for(hls.float32[2]).compare("y", np.float32([1.0, 2.0]), np.float32([1.0000001, 2.0]), 1e-5, 1e-6)
    with pytest.raises(hls.VerificationError, match=r"x\[1\]: golden 2 but csim 3 \(1 of 3 elements differ"):
        codec_for(hls.int8[3]).compare("x", np.int8([1, 2, 3]), np.int8([1, 3, 3]), 1.0, 1.0)  # exact anyway


def test_c_spelling_and_conversions():
    int9, u64, fixed = codec_for(hls.int9), codec_for(hls.uint64), codec_for(hls.ap_fixed[8, 4])
    assert (int9.storage, int9.c_type, int9.zero_copy) == ("int16_t", "ap_int<9>", False)
    assert (u64.storage, u64.c_type, u64.zero_copy, u64.dat_type) == ("uint64_t", "uint64_t", True, "uint64_t")
    assert int9.cpp_out("v") == "(int16_t)v.to_int64()" and fixed.cpp_out("v") == "v.to_double()"
    assert codec_for(hls.uint12).dat_out("v") == "v.to_uint64()"
    assert codec_for(hls.bool_).dat_in("x") == "x != 0"


def test_too_wide_types_cannot_cross():
    assert "64 bits" in codec_for(hls.ap_int[65]).unsupported
    assert "53 bits" in codec_for(hls.ap_fixed[54, 4]).unsupported
    assert codec_for(hls.ap_int[64]).unsupported is None


@hls.kernel
def wide_return(a: hls.int32) -> hls.ap_int[100]:
    x = hls.ap_int[100](a)
    return x * x * x * x


def test_a_wide_return_is_refused_not_truncated():
    wrapped = (2**31 - 1) ** 4 % 2**100  # Python mode wraps at 100 bits (two's complement)
    assert wide_return(2**31 - 1) == (wrapped - 2**100 if wrapped >= 2**99 else wrapped)
    with pytest.raises(hls.HLSTypeError, match="return value: int100 is wider than 64 bits"):
        wide_return.csim(5)


def identity(T):
    @hls.kernel
    def copy(a: T[5], b: T[5], s: T) -> T:
        for i in range(5):
            b[i] = a[i]
        return s

    return copy


@pytest.mark.parametrize("t", [hls.int9, hls.uint64, hls.ap_fixed[16, 8], hls.float32, hls.bool_], ids=str)
def test_every_kind_through_the_bridge_and_back(t):
    """cpp_in then cpp_out is the identity on the type's values (arrays, a scalar and the return)."""
    kernel = identity(t)
    rng = np.random.default_rng(3)
    a = codec_for(t[5]).random(rng)
    s = codec_for(t).random(rng)
    b = np.zeros(5, dtype=t.storage_dtype)
    assert kernel.csim(a, b, s) == s
    assert bits(b) == bits(a)
