"""One boundary for every value, and csim faults where Python mode raises (issue 19, items 3 and 4).

Scalar arguments, stream items, packet and struct fields are checked by the codec that checks array
elements (hls/backend/codec/__init__.py), identically in Python mode, csim and export; a fault Python mode
raises (a float-to-int conversion out of range, a negative shift count, a bit index or rotate count
out of range, a division by zero, an index out of bounds) is a csim fault at the same kernel line.
"""

from __future__ import annotations

import inspect
import math
from fractions import Fraction

import numpy as np
import pytest

import hls
from tests.kernels import boundary_kernels as bk

MODES = ("python", "csim")


def run(k, mode: str, *args):
    return k(*args) if mode == "python" else k.csim(*args)


def refused(k, mode: str, args: tuple, *fragments: str) -> str:
    with pytest.raises(hls.HLSError) as info:
        run(k, mode, *args)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# ---- item 3: scalars ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_the_issue_scalars_are_refused_naming_the_argument(mode):
    refused(bk.echo32, mode, (1 << 40,), "argument 'x'", "1099511627776 does not fit int32")
    refused(bk.echo32, mode, (2.5,), "argument 'x'", "2.5 is not an integer")
    refused(bk.echo32, mode, (math.nan,), "argument 'x'", "not a finite number")
    refused(bk.echo32, mode, ("3",), "argument 'x'", "takes a number, got str")
    refused(bk.echo32, mode, (np.zeros(2),), "argument 'x'", "got an array")


@pytest.mark.parametrize("mode", MODES)
def test_values_of_the_type_cross_in_every_spelling(mode):
    assert run(bk.echo32, mode, 2**31 - 1) == 2**32 - 2
    assert run(bk.echo32, mode, -(2**31)) == -(2**32)
    assert run(bk.echo32, mode, 3.0) == 6  # an integral float is an integer
    assert run(bk.echo32, mode, np.int64(-7)) == -14 and run(bk.echo32, mode, Fraction(8, 2)) == 8
    assert run(bk.echo32, mode, True) == 2 and run(bk.echo32, mode, np.float32(-3.0)) == -6
    assert run(bk.scalars, mode, np.uint8(1), np.int64(2), np.bool_(True), np.float32(0.5), np.float64(1)) == 5.5
    good = (255, -(2**39), 1, Fraction(-59, 8), np.float32(0.1))
    expected = 255 - 2**39 + 1 - 59 / 8 + float(np.float32(0.1))
    assert run(bk.scalars, mode, *good) == expected
    assert run(bk.scalars, mode, 0, 0, False, 1.25, 0.1) == 1.25 + float(np.float32(0.1))  # 0.1 rounds to float32
    assert run(bk.scalars, mode, 0, 0, 0, 0, 0) == 0  # 0 and 1 are bools


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("args, fragments", [
    ((256, 0, 0, 0, 0), ("argument 'a'", "256 does not fit uint8 (0..255)")),
    ((-1, 0, 0, 0, 0), ("argument 'a'", "-1 does not fit uint8")),
    ((0, 2**39, 0, 0, 0), ("argument 'b'", "does not fit int40")),
    ((0, 0, 2, 0, 0), ("argument 'c'", "2 is not a bool")),
    ((0, 0, 0.5, 0, 0), ("argument 'c'", "0.5 is not a bool")),
    ((0, 0, 0, 0.3, 0), ("argument 'f'", "not exactly representable in fixed8_4",
                         "quantize with hls.ap_fixed[8, 4](x)")),
    ((0, 0, 0, 8.0, 0), ("argument 'f'", "not exactly representable in fixed8_4")),  # beyond max 7.9375
    ((0, 0, 0, math.inf, 0), ("argument 'f'", "not a finite number")),
    ((0, 0, 0, 0, "x"), ("argument 'g'", "takes a number")),
])
def test_each_kind_of_scalar_refuses_what_its_type_does_not_hold(mode, args, fragments):
    refused(bk.scalars, mode, args, *fragments)


def test_a_float_argument_takes_any_real_number():
    assert math.isnan(bk.scalars(0, 0, 0, 0, math.nan)) and math.isnan(bk.scalars.csim(0, 0, 0, 0, math.nan))


@pytest.mark.parametrize("mode", MODES)
def test_a_sub_kernel_argument_still_converts_as_the_cpp_call_does(mode):
    assert run(bk.calls_narrow, mode, 100) == 300 - 256  # wraps inside the kernel: not a boundary
    refused(bk.narrow, mode, (300,), "argument 'x'", "300 does not fit int8")  # the same kernel called directly


# ---- item 3: streams, packets, structs ----------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_stream_items_are_refused_naming_the_argument_and_the_item(mode):
    refused(bk.total, mode, (hls.Stream(hls.int16, [70000, 5]),), "argument 'xs' item 0", "70000 does not fit int16")
    refused(bk.total, mode, (hls.Stream(hls.int16, [5, 2.5]),), "argument 'xs' item 1", "2.5 is not an integer")
    assert run(bk.total, mode, hls.Stream(hls.int16, [32767, 5.0])) == 32772


@pytest.mark.parametrize("mode", MODES)
def test_packet_fields_are_refused_naming_the_field_and_the_packet(mode):
    refused(bk.packet_sum, mode, (hls.Stream.packets(bk.Packet, [5, 70000]),),
            "argument 'inp.data' item 1", "70000 does not fit int16")
    refused(bk.packet_sum, mode, (hls.Stream.packets(bk.Packet, [5, 6], user=[1, 4]),),
            "argument 'inp.user' item 1", "4 does not fit uint2")
    refused(bk.packet_sum, mode, (hls.Stream.packets(bk.Packet, [5, 6], dest=8),),
            "argument 'inp.dest' item 0", "8 does not fit uint3")
    assert run(bk.packet_sum, mode, hls.Stream.packets(bk.Packet, [5, -6], user=[1, 3], dest=7)) == 5 - 6 + 4 + 14


def test_a_stream_keeps_its_values_as_given_until_a_kernel_checks_them():
    s = hls.Stream(hls.int16, [70000, 5])
    assert np.asarray(s).tolist() == [4464, 5]  # a Python-side view converts as the type does
    with pytest.raises(hls.HLSError, match="item 0"):
        bk.total(s.copy())
    packets = hls.Stream.packets(bk.Packet, [1, 2])
    assert np.asarray(packets)["last"].tolist() == [0, 1]


@pytest.mark.parametrize("mode", MODES)
def test_struct_fields_are_checked_by_their_field_codecs(mode):
    record = np.zeros(1, bk.Pixel.dtype)[0]
    record["r"], record["g"], record["gain"] = 31, -5, 1.5
    assert run(bk.pixel_sum, mode, record) == 31 - 5 + 1.5
    assert run(bk.pixel_sum, mode, bk.Pixel(r=3, g=4, gain=0.5)) == 7.5
    record["r"] = 40  # the uint8 storage holds it, uint5 does not
    refused(bk.pixel_sum, mode, (record,), "argument 'p.r'", "40 does not fit uint5")
    record["r"], record["gain"] = 1, 0.3
    refused(bk.pixel_sum, mode, (record,), "argument 'p.gain'", "not exactly representable in fixed8_4")
    refused(bk.pixel_sum, mode, (5,), "argument 'p' is a Pixel, got int")
    px = np.zeros(2, bk.Pixel.dtype)
    px["r"], px["g"] = [1, 33], [2, 3]
    refused(bk.pixel_stream, mode, (hls.Stream(bk.Pixel, px),), "argument 'ps.r' item 1", "33 does not fit uint5")
    px["r"][1] = 3
    assert run(bk.pixel_stream, mode, hls.Stream(bk.Pixel, px)) == 1 + 2 + 3 + 3


def test_export_refuses_the_vectors_csim_refuses(tmp_path):
    for k, inputs, fragment in [(bk.echo32, [1 << 40], "argument 'x'"),
                                (bk.echo32, {"x": 2.5}, "argument 'x'"),
                                (bk.total, [hls.Stream(hls.int16, [70000, 5])], "argument 'xs' item 0"),
                                (bk.pixel_stream, [hls.Stream.packets(bk.Packet, [1, 2])], "argument 'ps'")]:
        target = tmp_path / k.__name__
        with pytest.raises(hls.HLSError, match=fragment):
            k.export(target, inputs=inputs, overwrite=True)
        assert not (target / "tb" / "data").exists()
    project = bk.echo32.export(tmp_path / "good", inputs=[-(2**31)])
    assert (project / "tb" / "data" / "x.dat").read_text().split() == [str(-(2**31))]


# ---- item 4: faults at the kernel's line in both modes ------------------------------------------


def fault_line(k) -> int:
    lines, first = inspect.getsourcelines(k.__hls_kernel__)
    return first + next(n for n, text in enumerate(lines) if text.rstrip().endswith("# fault"))


FAULTS = [
    (bk.to_int, (math.nan,), "cannot convert nan", "cannot convert a NaN"),
    (bk.to_int, (math.inf,), "cannot convert inf", "cannot convert a NaN, an infinity"),
    (bk.to_int, (1e20,), "cannot convert 2e+20", "beyond +-2**63 to int32"),
    (bk.to_int, (-(2.0**62),), "cannot convert", "float-to-integer conversion"),  # -2**63 after the doubling
    (bk.to_int64, (np.float32(2.0**63),), "cannot convert", "to int64"),
    (bk.to_fixed, (math.nan,), "cannot convert nan", "cannot convert a NaN or an infinity to fixed16_8"),
    (bk.shift_left, (1, -1), "negative shift count", "negative shift count"),
    (bk.shift_right, (1, -3), "negative shift count", "negative shift count"),
    (bk.bit_of, (1, 16), "bit index 16 is out of range", "bit index out of range for a 16-bit value"),
    (bk.bit_of, (1, -1), "bit index -1", "bit index out of range"),
    (bk.set_bit, (1, 16), "bit index 16", "bit index out of range for a 16-bit value"),
    (bk.rotate, (1, 8), "rotate count 8", "rotate count out of range for a 8-bit value (0..7)"),
    (bk.divide, (1, 0), "by zero", "division by zero"),
    (bk.fixed_divide, (1, 0), "", "division by zero"),  # a template's commas inside the check's argument
    (bk.gather, (np.zeros(4, np.int16), 4), "index 4 out of bounds", "t: index out of bounds for dimension 0"),
]


@pytest.mark.parametrize("k, args, python_text, csim_text", FAULTS,
                         ids=[f"{f[0].__name__}-{i}" for i, f in enumerate(FAULTS)])
def test_csim_faults_where_python_mode_raises_at_the_same_line(k, args, python_text, csim_text):
    line = fault_line(k)
    errors = {}
    for mode in MODES:
        with pytest.raises(hls.SimulationError) as info:
            run(k, mode, *args)
        errors[mode] = info.value
        assert info.value.loc is not None and (info.value.loc.file, info.value.loc.line) == (bk.__file__, line), \
            f"{mode}: {info.value}"
    assert python_text in str(errors["python"]) and "in Python mode" in str(errors["python"])
    assert csim_text in str(errors["csim"]) and "in csim" in str(errors["csim"])


def test_values_in_range_give_the_same_results_and_no_fault():
    cases = [(bk.to_int, (2.0**30 - 0.5,)), (bk.to_int, (-1.75,)), (bk.to_int64, (np.float32(-2.0**62),)),
             (bk.to_fixed, (1e6,)), (bk.shift_left, (3, 31)), (bk.shift_right, (-8, 40)), (bk.bit_of, (0x8000, 15)),
             (bk.set_bit, (0, 15)),
             (bk.rotate, (0x81, 7)), (bk.divide, (-7, 2)), (bk.fixed_divide, (-5.5, 4)),
             (bk.gather, (np.arange(4, dtype=np.int16), 3))]
    for k, args in cases:
        assert k(*args) == k.csim(*args), k.__name__


@pytest.mark.parametrize("model", ["numpy", "python"])
def test_the_first_fault_of_a_call_is_the_one_reported(model, monkeypatch):
    monkeypatch.setenv("HLS_GOLDEN", model)
    k = bk.second_fault.specialize()
    assert k.golden_model == model
    xs = np.array([1.0, math.nan, 1e30, 2.0])
    with pytest.raises(hls.SimulationError, match="in csim: cannot convert") as csim:
        k.csim(xs, np.zeros(4, np.int32))
    with pytest.raises(hls.SimulationError, match="in Python mode: cannot convert nan") as python:
        k(xs, np.zeros(4, np.int32))
    assert csim.value.loc.line == python.value.loc.line == fault_line(bk.second_fault)


def test_a_check_is_emitted_only_where_a_fault_can_happen():
    assert "HLS_SHIFT_COUNT" not in bk.shift_unsigned.cpp  # an unsigned count is never negative
    assert "HLS_SHIFT_COUNT(n, " in bk.shift_left.cpp and "HLS_FLOAT_TO_INT(" in bk.to_int.cpp
    assert "#define HLS_FLOAT_TO_INT(x, site) (x)" in bk.to_int.cpp  # synthesis reads the value itself
    assert "HLS_DIVISOR(" in bk.divide.cpp and "HLS_DIVISOR(" not in bk.calls_narrow.cpp
