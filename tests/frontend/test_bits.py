"""Bit access (x[i], x[lo:hi], their assignment, concat, counts, reverse, bitcast): Python mode ==
csim, on fixed examples and on hypothesis-drawn inputs; the C++ spells them as Vitis code does."""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hls
from hls.golden import bits
from hls.types import FixedType, IntType
from tests.kernels import bits_kernels as bk


def run_both(kernel, *args):
    """The kernel in Python mode and in csim on copies of the same arrays: (result, arrays) each."""
    copies = [tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args) for _ in range(2)]
    golden = kernel(*copies[0])
    sim = kernel.csim(*copies[1])
    return (golden, [a for a in copies[0] if isinstance(a, np.ndarray)]), \
        (sim, [a for a in copies[1] if isinstance(a, np.ndarray)])


def assert_same(kernel, *args):
    (g, garrs), (s, sarrs) = run_both(kernel, *args)
    assert g == s
    for x, y in zip(garrs, sarrs, strict=True):
        np.testing.assert_array_equal(x, y)
    return g, garrs


def rev(v: int, width: int) -> int:
    return int(f"{v:0{width}b}"[::-1], 2)


def test_int_bits_known_values():
    a = [0xDEADBEEF, 0x12345, 3, 0xFFFFFFFF]
    result, (_, out) = assert_same(bk.int_bits, np.array(a, np.uint32), -100, np.zeros(4, np.uint8))
    assert out.tolist() == [v & 0xFC | v >> 30 for v in a]  # low byte, then the top two bits into bits 0..1
    x = sum((v >> i & 1) << i for i, v in enumerate(a)) | (a[3] >> 4 & 0xFF) << 8
    s = -100 & 0xFF  # 0b10011100
    y = s & 0x78 | s >> 5  # bit 7 cleared, bits 5..7 into bits 0..2 (a positive int8)
    expected = ((x & 15) << 4 | 3) + 24 + (32 - 17) + rev(3, 8) + y + bin(s).count("1") + 0 + rev(s, 8) \
        + (s & 15) + (s >> 4)
    assert result == expected


def test_mixed_bits_known_values():
    a = np.array([1.5, -2.25, 3e-39, 1e30], np.float32)
    out = np.zeros(8, np.uint32)
    result, (_, out) = assert_same(bk.mixed_bits, a, 3.25, -100, 2, out)
    exponents = [struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 23 & 0xFF for v in a]
    assert out[:4].tolist() == exponents
    assert out[4] == 3.25 * 2**10 and out[7] == 1
    raw = 0x0D00  # 3.25 in ap_fixed<16, 6>
    assert result == Fraction(raw | 15 | 4, 1024) + Fraction(raw, 1024)


def test_variable_bit_index_out_of_range_is_flagged():
    with pytest.raises(hls.SimulationError, match="bit index 16 is out of range") as python:
        bk.mixed_bits(np.zeros(4, np.float32), 0.0, 0, 16, np.zeros(8, np.uint32))
    with pytest.raises(hls.SimulationError, match="bit index out of range for a 16-bit value") as csim:
        bk.mixed_bits.csim(np.zeros(4, np.float32), 0.0, 0, 16, np.zeros(8, np.uint32))
    assert (csim.value.loc.file, csim.value.loc.line) == (python.value.loc.file, python.value.loc.line)


def test_cpp_spells_bits_as_vitis_does():
    cpp = bk.mixed_bits.cpp + bk.int_bits.cpp
    assert ".range(30, 23)" in cpp and ".countLeadingZeros()" in cpp and "x.reverse();" in cpp
    assert "(ap_uint<1>(bool(w[99])), ap_uint<8>(s), ap_uint<3>(w.range(2, 0)))" in cpp
    assert "HLS_BIT_INDEX(n, 16, " in cpp  # variable positions are checked in csim only
    assert "__builtin" not in cpp  # synthesizable: popcount is an unrolled loop


def test_bit_ops_fold_and_schedule():
    @hls.kernel
    def folded() -> hls.uint32:
        x: hls.uint16 = 0xABCD
        return hls.concat(x[12:16], x[0:4]) + x.bit_count() + hls.leading_zeros(x[0:8]) + x[0:8].reverse()

    assert folded() == folded.csim() == 0xAD + 10 + 0 + int(f"{0xCD:08b}"[::-1], 2)
    assert "range" not in folded.cpp  # every bit op folded to a constant
    report = bk.int_bits.report()
    assert "popcount" in str(report)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 2**16 - 1), min_size=8, max_size=8),
       st.lists(st.integers(-2**63, 2**63 - 1), min_size=8, max_size=8), st.integers(-40, 40))
def test_variable_bits_property(a, b, n):
    assert_same(bk.variable_bits, np.array(a, np.uint16), np.array(b, np.int64), n)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=4, max_size=4), st.integers(-128, 127))
def test_int_bits_property(a, s):
    assert_same(bk.int_bits, np.array(a, np.uint32), s, np.zeros(4, np.uint8))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(width=32, allow_nan=False), min_size=4, max_size=4),
       st.integers(-2**15, 2**15 - 1), st.integers(-128, 127), st.integers(0, 15))
def test_mixed_bits_property(a, raw, s, n):
    assert_same(bk.mixed_bits, np.array(a, np.float32), raw / 1024, s, n, np.zeros(8, np.uint32))


def test_python_functions_agree_with_definitions():
    t = FixedType(8, 3, True)
    assert bits.raw_bits(Fraction(-1, 32), t) == 0xFF
    assert bits.from_bits(0x80, t) == -4
    assert bits.set_slice(-1, 0, 4, 0, IntType(8, True)) == -16
    assert bits.concat_values((IntType(3, False), IntType(5, True)), 5, -1) == 0b10111111
    assert bits.bitcast_value(np.float32(-0.0), hls.float32, hls.uint32) == 1 << 31
    with pytest.raises(hls.UnsupportedError, match="inside an @hls.kernel"):
        hls.concat(1, 2)


@pytest.mark.parametrize("name", ["int_bits", "mixed_bits", "variable_bits"])
@pytest.mark.parametrize("seed", [0, 1])
def test_mlir_export_computes_what_the_golden_model_computes(name, seed):
    from tests.backend.test_mlir import assert_interpreter_matches_golden

    kernel = getattr(bk, name)
    if name == "mixed_bits":  # the bit position argument must be in range (Python mode raises otherwise)
        inputs = kernel.random_inputs(seed)
        inputs[3] = seed + 3
        kernel = _with_inputs(kernel, inputs)
    assert_interpreter_matches_golden(kernel, seed)


def _with_inputs(kernel, inputs):
    """The kernel, drawing `inputs` as its random inputs."""
    class Fixed:
        def __getattr__(self, attr):
            return getattr(kernel, attr)

        def __call__(self, *args):
            return kernel(*args)

        def random_inputs(self, seed):
            return [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]

    return Fixed()


def test_augmented_bit_assignment():
    a = np.array([1, 200, 77, 255], np.uint8)
    result, (out,) = assert_same(bk.augmented_bits, a, 5)
    assert out.tolist() == [0x31, 0xF8, 0x7D, 0x2F]  # the high nibble + 3, wrapped to 4 bits
    assert result == -5237
