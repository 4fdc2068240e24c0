"""`@hls.struct`: Python-mode values, the C++ struct and field accesses, golden == csim."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import hls
from hls.types import TypeFamily
from tests.error_marks import assert_error_at_marker
from tests.kernels import bad_struct_kernels as bad
from tests.kernels import struct_kernels as sk

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
    assert PIXEL.storage_dtype.names == ("r", "g", "b") and sk.Pixel.dtype == PIXEL.storage_dtype
    assert hls.stream[sk.Pixel].elem == PIXEL


def test_header_declares_the_struct_in_field_order():
    header = sk.unpack565.header
    assert "struct Pixel {\n    ap_uint<5> r;\n    ap_uint<6> g;\n    ap_uint<5> b;\n};" in header
    assert "void unpack565(uint16_t packed[8], Pixel out[8]);" in header
    cpp = sk.unpack565.cpp
    assert "out[i].r = " in cpp and "out[i].b = " in cpp


def test_python_mode_reads_and_writes_fields_in_place():
    packed = np.array([0xFFFF, 0x0000, 0xF800, 0x07E0, 0x001F, 0x1234, 0x8001, 0x4210], dtype=np.uint16)
    out = np.zeros(8, sk.Pixel.dtype)
    sk.unpack565(packed, out)
    assert out[0].tolist() == (31, 63, 31)
    assert out[2].tolist() == (31, 0, 0) and out[3].tolist() == (0, 63, 0) and out[4].tolist() == (0, 0, 31)


def test_struct_result_and_copy():
    px = np.zeros(8, sk.Pixel.dtype)
    px["g"] = [3, 9, 2, 9, 1, 0, 0, 0]
    px["r"] = np.arange(8)
    best = sk.brightest(px)
    assert best == sk.Pixel(1, 9, 0)
    assert "Pixel brightest(Pixel px[8])" in sk.brightest.cpp



BAD = [
    ("unknown_field_read", hls.HLSTypeError, "Pixel has no field 'alpha'; its fields are r, g, b"),
    ("unknown_field_write", hls.HLSTypeError, "Pixel has no field 'alpha'"),
    ("unknown_constructor_field", hls.HLSTypeError, "Pixel has no field 'alpha'"),
    ("wrong_struct_store", hls.HLSTypeError, "is a Pixel struct; got a Gray"),
    ("wrong_struct_rebind", hls.HLSTypeError, "'p' is a Pixel struct; got a Gray"),
    ("scalar_into_struct", hls.HLSTypeError, "must be a Pixel struct, got not a struct"),
    ("struct_arithmetic", hls.HLSTypeError, "'p' is a Pixel struct, which has no arithmetic"),
    ("struct_element_arithmetic", hls.HLSTypeError, "'px[0]' is a Pixel struct, which has no arithmetic"),
    ("struct_compare", hls.HLSTypeError, "which has no arithmetic or comparison"),
    ("wrong_struct_return", hls.HLSTypeError, "the return value is a Pixel struct; got a Gray"),
    ("aggregate_scalar", hls.HLSTypeError, "hls.aggregate needs a struct argument or an array of structs"),
]


@pytest.mark.parametrize("name,exc,fragment", BAD, ids=[c[0] for c in BAD])
def test_bad_struct_kernels_point_at_the_line(name, exc, fragment):
    assert_error_at_marker(bad, name, exc, fragment)


def test_a_field_without_an_hls_type_is_an_error_at_its_line():
    with pytest.raises(hls.HLSTypeError) as info:
        @hls.struct
        class Bad:
            r: hls.uint8
            g: int  # the line the error points at
    err = info.value
    assert "field 'g' of struct Bad is annotated int, not an hls type" in err.message
    assert err.loc.file == __file__ and "the line the error points at" in err.loc.source_line()


def test_a_field_named_dtype_is_refused():
    with pytest.raises(hls.HLSTypeError, match="cannot have a field named 'dtype'"):
        @hls.struct
        class Bad:
            dtype: hls.uint8


def test_a_plain_dataclass_argument_says_to_use_hls_struct():
    from tests.kernels import bad_kernels

    with pytest.raises(hls.HLSTypeError, match="decorate it with @hls.struct"):
        bad_kernels.dataclass_array.compile()


CSIM = [sk.unpack565, sk.brightest, sk.swap_channels, sk.luma, sk.frames, sk.pixel_pipeline]


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
@pytest.mark.parametrize("kernel", CSIM, ids=[k.__name__ for k in CSIM])
def test_golden_equals_csim(kernel):
    for seed in range(3):
        result = kernel.verify(seed=seed, strict_overflow=False)
        assert result["compared"]


def test_csim_returns_the_dataclass_and_writes_structured_arrays_in_place():
    px = np.zeros(8, sk.Pixel.dtype)
    px["g"], px["b"] = [5, 1, 60, 2, 60, 3, 0, 0], 7
    best = sk.brightest.csim(px)
    assert isinstance(best, sk.Pixel) and best == sk.Pixel(0, 60, 7)
    golden, native = px.copy(), px.copy()
    sk.swap_channels(golden)
    sk.swap_channels.csim(native)
    assert golden.tolist() == native.tolist() and golden[0].tolist() == (7, 63, 0)  # r, b swapped; g + 63 wraps
    assert sk.luma.csim(sk.Pixel(3, 4, 5)) == sk.luma(sk.Pixel(3, 4, 5)) == 20


def test_struct_streams_in_python_mode():
    px = np.zeros(3, sk.Pixel.dtype)
    px["g"] = [1, 50, 63]
    out = hls.Stream(sk.Pixel)
    sk.brighten(hls.Stream(sk.Pixel, px), out, 3)
    assert [p.g for p in out.items] == [9, 58, 63]
    assert np.asarray(out)["g"].tolist() == [9, 58, 63]
    assert "hls::stream<Pixel> &inp" in sk.brighten.cpp


def test_wide_field_wraps_and_a_wrap_is_reported_at_the_user_line():
    w = sk.Wide(big=1 << 100, small=64)
    assert (w.big, w.small) == (0, -64)
    lines = Path(sk.__file__).read_text().splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if "w.small += xs[i].taps[1, 0]" in text)
    with pytest.warns(hls.OverflowWarning, match=rf"struct_kernels.py:{line}: .* does not fit int7"):
        sk.frames.verify(seed=0)


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
def test_export_writes_struct_data_field_by_field_and_the_testbench_checks_it(tmp_path):
    from tests.project.test_export import make

    project = sk.frames.export(tmp_path / "frames")
    data = project / "tb" / "data"
    assert {"xs.taps.dat", "xs.taps.golden.dat", "f.gain.dat", "return.level.golden.dat"} <= {
        p.name for p in data.iterdir()}
    assert len((data / "xs.taps.dat").read_text().split()) == 4 * 4  # 4 structs, 2x2 taps each
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS" in run.stdout, run.stdout + run.stderr
    golden = (data / "xs.taps.golden.dat").read_text().split()
    golden[5] = str(int(golden[5]) ^ 1)
    (data / "xs.taps.golden.dat").write_text("\n".join(golden) + "\n")
    run = make(project, "csim")
    assert run.returncode != 0 and "MISMATCH xs.taps[5]" in run.stdout, run.stdout


def test_fuzz_struct_branch_covers_fields_copies_arrays_and_arguments():
    from tests.fuzz.generator import generate
    from tests.fuzz.structs import uses_structs

    seeds = [s for s in range(400) if uses_structs(s)][:40]
    text = "\n".join(generate(s).source for s in seeds)
    for needle in ("@hls.struct", "sv0 = S_", "sv1 = sv0", "= hls.zeros((", ": S_", "].f0", "hls.bool_\n",
                   "hls.ap_fixed["):
        assert needle in text, needle
    widths = {int(w) for w in re.findall(r"    f\d+: hls\.u?int(\d+)", text)}
    assert max(widths) > 64 and min(widths) <= 8
    assert not any("@hls.struct" in generate(s).source for s in range(60) if not uses_structs(s))


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
def test_bounded_struct_fuzz_campaign_is_clean(tmp_path):
    from tests.fuzz.campaign import run_campaign
    from tests.fuzz.structs import uses_structs

    result = run_campaign(4, 20261130, out=tmp_path, batch=8, jobs=1, shrink_checks=0,
                          pick=lambda s: uses_structs(s) and s % 10 != 9)
    details = "\n".join(f"seed {f.seed}: {f.status} ({f.kind}): {f.message[:500]}" for f in result.failures)
    assert result.ok and result.passed == 4, result.summary() + "\n" + details


def test_struct_codec_is_the_composite_of_its_field_codecs():
    from hls.backend.codec import codec_for, declarations

    frame = codec_for(sk.Frame.__hls_struct__)
    assert frame.family is TypeFamily.STRUCT and [n for n, _ in frame.fields] == ["tag", "gain", "taps", "ok", "level"]
    assert frame.dtype == sk.Frame.__hls_struct__.storage_dtype and frame.dtype.isalignedstruct
    assert dict(frame.fields)["taps"] == codec_for(hls.int16[2, 2]) and not frame.exact  # a float32 field
    storage, functions = declarations([frame, codec_for(sk.Frame[4])])
    assert storage == ["typedef struct hls_storage_Frame { int8_t tag; double gain; int16_t taps[2][2]; bool ok; "
                       "float level; } hls_storage_Frame;"]
    assert "    v.tag = ap_int<3>(s.tag);" in functions and "    s.gain = v.gain.to_double();" in functions
    records = codec_for(sk.Frame[3]).random(np.random.default_rng(0))
    assert records.dtype == frame.dtype and records.shape == (3,)
    changed = records.copy()
    changed["taps"][1, 0, 1] += 1
    with pytest.raises(hls.VerificationError, match=r"xs.taps\[1, 0, 1\]"):
        codec_for(sk.Frame[3]).compare("xs", records, changed, 1e-5, 1e-6)
    assert codec_for(sk.Wide.__hls_struct__).unsupported == "has a field 'big' that is wider than 64 bits; csim " \
                                                              "and testbench ports support up to 64-bit integers"


def test_csim_refuses_a_struct_field_wider_than_the_boundary():
    with pytest.raises(hls.HLSTypeError, match="argument 's': Sample has a field 'wide' that is wider than 64"):
        sk.mix.csim(sk.Sample(), np.zeros(4, sk.Sample.dtype))


def test_top_level_struct_streams_in_csim():
    px = np.zeros(5, sk.Pixel.dtype)
    px["g"] = [1, 50, 63, 7, 9]
    results = []
    for run in (sk.brighten, sk.brighten.csim):
        inp, out = hls.Stream(sk.Pixel, px), hls.Stream(sk.Pixel)
        run(inp, out, 3)
        results.append(([p.g for p in out.items], [p.g for p in inp.items]))
    assert results[0] == results[1] == ([9, 58, 63], [7, 9])
    assert sk.to_stream.verify()["compared"] == ["px", "out"]


def test_export_of_a_stream_of_structs(tmp_path):
    from tests.project.test_export import make

    project = sk.to_stream.export(tmp_path / "to_stream")
    data = project / "tb" / "data"
    assert len((data / "out.g.golden.dat").read_text().split()) == 8 and (data / "px.b.dat").exists()
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS" in run.stdout, run.stdout + run.stderr
    golden = (data / "out.g.golden.dat").read_text().split()
    golden[2] = str((int(golden[2]) + 1) % 64)
    (data / "out.g.golden.dat").write_text("\n".join(golden) + "\n")
    run = make(project, "csim")
    assert run.returncode != 0 and "MISMATCH out.g[2]" in run.stdout, run.stdout


def test_estimate_reads_and_writes_a_whole_struct_as_one_word():
    """rgb565's loops store and load whole Pixels on one m_axi bundle at II 1: one aggregated access
    per element, not one per field (the estimate's model of a struct port, docs/semantics.md)."""
    from tests.conftest import ROOT, load_example

    report = load_example(ROOT / "examples" / "rgb565.py").KERNEL.report().to_dict()
    assert [loop["ii"] for loop in report["loops"]] == [1, 1]
    per_field = sk.unpack565.report().to_dict()  # three separate field stores per element: three writes
    assert [loop["ii"] for loop in per_field["loops"]] == [3] and "3 writes" in per_field["loops"][0]["limiter"]
    sequential = sk.unpack565.report(pipeline_loops=0).to_dict()  # each m_axi write then waits its latency
    assert sequential["latency"]["min"] > 3 * 8 * 64
    for kernel in (sk.frames, sk.pixel_pipeline, sk.brighten, sk.luma):
        assert kernel.report().to_dict()["resources"]["lut"] > 0


def test_aggregate_and_disaggregate_pragmas():
    cpp = sk.packed_ports.cpp
    assert "#pragma HLS aggregate variable=px compact=bit" in cpp
    assert "#pragma HLS disaggregate variable=p" in cpp
    assert sk.packed_ports.verify()["compared"] == ["px", "return"]


def test_cpp_keyword_fields_are_renamed_in_cpp_and_everything_follows(tmp_path):
    from tests.project.test_export import make

    k = sk.keyword_fields
    header = k.header
    for member in ("int16_t new_v;", "uint8_t delete_v;", "int8_t class_;", "int16_t int_v[2];"):
        assert member in header, header
    assert not re.search(r"\.(new|delete|int)\b", k.cpp)
    result = k.verify(seed=2)
    assert result["compared"] == ["p", "out", "return"]
    assert sk.Keywords.dtype.names == ("new", "delete", "class_", "int")  # numpy keeps the Python names
    project = k.export(tmp_path / "kw")
    assert (project / "tb/data/p.new.dat").is_file()
    run = make(project, "csim")
    assert run.returncode == 0, run.stdout + run.stderr
