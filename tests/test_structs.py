"""`@hls.struct`: Python-mode values, the C++ struct and field accesses, golden == csim."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import hls
from tests import struct_kernels as sk

PIXEL = sk.Pixel.__hls_struct__


def test_fields_convert_to_their_declared_types():
    p = sk.Pixel(r=33, g=64)
    assert (p.r, p.g, p.b) == (1, 0, 0)
    p.b = -1
    assert p.b == 31 and isinstance(p.b, int)
    s = sk.Sample(gain=0.3)
    assert s.gain == Fraction(19, 64)  # ap_fixed<12, 4> truncates to 8 fraction bits
    s.taps[0] = 40000
    assert s.taps[0] == 40000 - 65536
    assert sk.Sample().taps.data.tolist() == [0, 0, 0, 0]


def test_struct_types_and_arrays():
    assert sk.Pixel[64] == hls.types.ArrayType(PIXEL, (64,))
    assert str(sk.Pixel[64]) == "Pixel[64]"
    assert PIXEL.storage_dtype.names == ("r", "g", "b")
    assert hls.stream[sk.Pixel].elem == PIXEL


def test_header_declares_the_struct_in_field_order():
    header = sk.unpack565.header
    assert "struct Pixel {\n    ap_uint<5> r;\n    ap_uint<6> g;\n    ap_uint<5> b;\n};" in header
    assert "void unpack565(uint16_t packed[8], Pixel out[8]);" in header
    cpp = sk.unpack565.cpp
    assert "out[i].r = " in cpp and "out[i].b = " in cpp


def test_python_mode_reads_and_writes_fields_in_place():
    packed = np.array([0xFFFF, 0x0000, 0xF800, 0x07E0, 0x001F, 0x1234, 0x8001, 0x4210], dtype=np.uint16)
    out = np.zeros(8, PIXEL.storage_dtype)
    sk.unpack565(packed, out)
    assert out[0].tolist() == (31, 63, 31)
    assert out[2].tolist() == (31, 0, 0) and out[3].tolist() == (0, 63, 0) and out[4].tolist() == (0, 0, 31)


def test_struct_result_and_copy():
    px = np.zeros(8, PIXEL.storage_dtype)
    px["g"] = [3, 9, 2, 9, 1, 0, 0, 0]
    px["r"] = np.arange(8)
    best = sk.brightest(px)
    assert best == sk.Pixel(1, 9, 0)
    assert "Pixel brightest(Pixel px[8])" in sk.brightest.cpp
