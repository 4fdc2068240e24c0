"""AXI-stream packets (`hls.axis`): the type and its field widths, Python-mode packets and streams,
the C++ spelling, golden == csim, and bad input at the user's line."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import hls
from hls.lang.axis import AxisType
from tests.error_marks import assert_error_at_marker
from tests.kernels import axis_kernels as ak
from tests.kernels import bad_axis_kernels as bad


def fields(cls) -> dict[str, str]:
    return {name: str(t) for name, t in cls.__hls_struct__.fields}


def test_fields_and_widths_follow_the_template_parameters():
    assert fields(hls.axis[hls.int32]) == {"data": "int32", "keep": "uint4", "strb": "uint4", "last": "uint1"}
    assert fields(hls.axis[hls.uint64, 2, 5, 6]) == {"data": "uint64", "keep": "uint8", "strb": "uint8",
                                                     "user": "uint2", "last": "uint1", "id": "uint5", "dest": "uint6"}
    assert fields(hls.axis[hls.ap_fixed[12, 4]])["keep"] == "uint2"  # 12 bits: 2 bytes
    assert fields(hls.axis[hls.float64])["strb"] == "uint8"
    assert fields(hls.axis[hls.uint1, 0, 3, 0]) == {"data": "uint1", "keep": "uint1", "strb": "uint1", "last": "uint1",
                                                    "id": "uint3"}
    t = hls.axis[hls.int16, 2, 0, 3].__hls_struct__
    assert isinstance(t, AxisType) and (t.user, t.id, t.dest) == (2, 0, 3) and str(t) == "axis[int16, 2, 0, 3]"
    assert hls.axis[hls.int32] is hls.axis[hls.int32, 0, 0, 0]
    assert hls.stream[hls.axis[hls.int32]].elem == hls.axis[hls.int32].__hls_struct__


@pytest.mark.parametrize("params,fragment", [
    ((hls.int32[4],), "must be an hls integer, fixed-point or float type"),
    ((hls.bool_,), "must be an hls integer, fixed-point or float type"),
    ((int,), "must be an hls integer, fixed-point or float type"),
    ((hls.int32, 1), "one type or a type and three widths"),
    ((hls.int32, -1, 0, 0), "user width"),
    ((hls.int32, 0, 2.5, 0), "id width"),
])
def test_bad_type_parameters(params, fragment):
    with pytest.raises(TypeError, match=re.escape(fragment)):
        hls.axis[params]


def test_python_mode_packets_convert_like_the_cpp_members():
    p = hls.axis[hls.uint64, 2, 5, 6](data=-1, user=7, id=33, last=3)
    assert (p.data, p.keep, p.strb, p.user, p.last, p.id, p.dest) == (2**64 - 1, 255, 255, 3, 1, 1, 0)
    assert hls.axis[hls.ap_fixed[12, 4]](data=0.3).data == Fraction(19, 64)
    with pytest.raises(AttributeError):
        hls.axis[hls.int32]().user = 1


def test_stream_packets_and_reading_fields_back():
    s = hls.Stream.packets(ak.Tagged, [5, -6, 7], user=[1, 2, 3], dest=4)
    records = np.asarray(s)
    assert records["data"].tolist() == [5, -6, 7] and records["last"].tolist() == [0, 0, 1]
    assert records["user"].tolist() == [1, 2, 3] and records["dest"].tolist() == [4, 4, 4]
    assert records["keep"].tolist() == [3, 3, 3]  # every byte of the data is valid unless told otherwise
    with pytest.raises(TypeError, match="has no field 'id'.*width 0"):
        hls.Stream.packets(ak.Tagged, [1], id=1)
    with pytest.raises(TypeError, match="one value or 2 values"):
        hls.Stream.packets(ak.Tagged, [1, 2], user=[1, 2, 3])


def test_cpp_spells_hls_axis_and_includes_our_header():
    assert "hls::stream<hls::axis<int16_t, 2, 0, 3> > &inp" in ak.retag.cpp
    assert '#include "ap_axi_sdata.h"' in ak.retag.header and "struct " not in ak.retag.header
    assert ".dest = " in ak.retag.cpp and ".id = " not in ak.retag.cpp  # absent side channels never appear
    assert "hls::axis<ap_fixed<12, 4>, 0, 0, 0>" in ak.halve.cpp


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")  # random frames and tags wrap on purpose
def test_sum_until_last_golden_equals_csim():
    frame = [3, -9, 40000, 7]
    assert ak.sum_until_last(hls.Stream.packets(ak.Word, frame)) == sum(frame)
    rest = hls.Stream.packets(ak.Word, [1, 2, 3, 4, 5], last=[0, 1, 0, 0, 1])
    assert ak.sum_until_last.csim(rest) == 3 and np.asarray(rest)["data"].tolist() == [3, 4, 5]
    assert ak.sum_until_last.verify(seed=2)["compared"] == ["inp", "return"]  # a random frame with TLAST


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
def test_retag_and_fixed_packets_golden_equals_csim():
    result = ak.retag.verify(hls.Stream.packets(ak.Tagged, [5, -6, 7, 30000], user=[1, 2, 3, 0], dest=5),
                             hls.Stream(ak.Tagged))
    out = np.asarray(result["outputs"][1])
    assert out["data"].tolist() == [15, 0, -18, 1, 21, 2, 30000 * 3 - 65536, 3]
    assert out["user"].tolist() == [2, 1, 3, 2, 0, 3, 1, 0] and out["dest"].tolist() == [5, 2] * 4
    assert out["last"].tolist() == [0, 0, 0, 0, 0, 0, 1, 1]
    halved = ak.halve.verify(seed=4)["outputs"][1]
    assert np.asarray(halved)["last"].tolist() == [0, 0, 1]



BAD = [
    ("absent_user", hls.HLSTypeError, "axis[int32] has no field 'user'; its fields are data, keep, strb, last "
                                      "(user has width 0 in this packet type, so it is absent"),
    ("absent_dest_write", hls.HLSTypeError, "has no field 'dest'"),
    ("absent_id_built", hls.HLSTypeError, "axis[int32] has no field 'id'"),
    ("packet_argument", hls.UnsupportedError, "an AXI-stream packet (axis[int32]) is one beat of a stream"),
    ("packet_result", hls.UnsupportedError, "return type: an AXI-stream packet"),
    ("packet_array", hls.UnsupportedError, "arrays of AXI-stream packets (axis[int32]) are not supported"),
    ("wrong_packet_write", hls.HLSTypeError, "is a axis[int32] struct; got a axis[int16]"),
    ("array_data", hls.HLSTypeError, "the data of an AXI-stream packet must be an hls integer, fixed-point or float"),
]


@pytest.mark.parametrize("name,exc,fragment", BAD, ids=[c[0] for c in BAD])
def test_bad_packet_kernels_point_at_the_line(name, exc, fragment):
    assert_error_at_marker(bad, name, exc, fragment)


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
def test_packets_through_a_local_fifo_of_a_dataflow_region():
    frame = hls.Stream.packets(ak.Routed, [1, 2, 3, 4], dest=[0, 1, 2, 3])
    result = ak.route_twice.verify(frame, hls.Stream(ak.Routed))
    out = np.asarray(result["outputs"][1])
    assert out["dest"].tolist() == [2, 3, 0, 1] and out["last"].tolist() == [0, 0, 0, 1]
    assert "hls::stream<hls::axis<uint8_t, 0, 0, 2> > mid" in ak.route_twice.cpp


TLASTLESS = """
import numpy as np, hls
from examples.axis_frame_gain import KERNEL, Sample
frame = hls.Stream.packets(Sample, np.arange(1, 6, dtype=np.int16), user=3, last=0)
try:
    KERNEL.csim(frame, hls.Stream(hls.axis[hls.int32, 8, 0, 0]), 2)
except hls.SimulationError as err:
    print("RAISED", err)
"""


def test_a_frame_without_tlast_ends_the_csim_call_with_an_error():
    """Reading a top-level stream until TLAST must not loop for ever when no packet has `last` set: the read
    of the empty stream ends the call (run in a subprocess, so a regression fails on the timeout)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", TLASTLESS], cwd=root, capture_output=True, text=True, timeout=120)
    assert "RAISED axis_frame_gain (csim): read from the empty stream 'inp' outside a dataflow region" in done.stdout, (
        done.stdout + done.stderr)
    from examples.axis_frame_gain import KERNEL, Sample
    frame = hls.Stream.packets(Sample, [4, -2, 9], user=[1, 2, 3])
    result = KERNEL.verify(frame, hls.Stream(hls.axis[hls.int32, 8, 0, 0]), 3)
    assert result["compared"] == ["inp", "out", "return"]
    assert np.asarray(result["outputs"][1])["data"].tolist() == [12, -6, 27]


def test_fuzz_packet_branch_covers_widths_side_channels_and_both_loop_forms():
    from tests.fuzz.campaign import generate_any
    from tests.fuzz.generator import generate
    from tests.fuzz.packets import packet_unit, uses_packets
    from tests.fuzz.structs import uses_structs

    seeds = [s for s in range(2000) if uses_packets(s) and s % 10 != 9][:60]
    text = "\n".join(generate_any(s).source for s in seeds)
    for needle in ("while not last:", "for i in range(", "last = p.last == 1", "p.user", "p.id", "p.dest",
                   "hls.ap_uint[", "hls.int"):
        assert needle in text, needle
    params = [tuple(map(int, m)) for m in re.findall(r"hls\.axis\[hls\.(?:ap_)?u?int\[?(\d+)\]?, (\d), (\d), (\d)\]",
                                                     text)]
    assert min(p[0] for p in params) <= 4 and max(p[0] for p in params) >= 60
    assert {p[k] for p in params for k in (1, 2, 3)} == {0, 1, 3, 5, 8}
    assert packet_unit(seeds[0]).source == packet_unit(seeds[0]).source
    assert not any(uses_packets(s) and uses_structs(s) for s in range(2000))
    others = [s for s in range(200) if not uses_packets(s) and s % 10 != 9]
    assert all(generate_any(s).source == generate(s).source for s in others)  # the other kernels as before


@pytest.mark.filterwarnings("ignore::hls.OverflowWarning")
def test_bounded_packet_fuzz_campaign_is_clean(tmp_path):
    from tests.fuzz.campaign import run_campaign
    from tests.fuzz.packets import uses_packets

    result = run_campaign(6, 20261201, out=tmp_path, batch=8, jobs=1, shrink_checks=0,
                          pick=lambda s: uses_packets(s) and s % 10 != 9)
    details = "\n".join(f"seed {f.seed}: {f.status} ({f.kind}): {f.message[:500]}" for f in result.failures)
    assert result.ok and result.passed == 6 and result.rejected == 0, result.summary() + "\n" + details
