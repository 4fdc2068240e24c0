"""Schedules whose answer is known by hand, from the operator library's own numbers.

Every expected II and latency below is a formula over oplib/memory constants, not a copied output:
a pipelined loop takes (trip - 1) * II + depth cycles, a float accumulation's II is the fadd latency,
ports bound the II at ceil(accesses / ports), a memory recurrence at its chain latency / distance.
"""

import json
from pathlib import Path

import pytest

from hls.errors import HLSError
from hls.schedule import load_report, oplib, schedule_module
from hls.schedule.memory import BRAM_READ_LATENCY, MAXI_LATENCY
from hls.schedule.parts import detect_part
from tests.kernels import schedule_kernels as sk

FIXTURES = Path(__file__).parents[1] / "fixtures" / "csynth"
FADD = oplib.latency("fadd")
STORE = 1  # a BRAM write is readable the next cycle
REGISTERED = 1  # a floating-point core takes a loaded operand from a register, a state after it arrives


def report(kernel, **options):
    return schedule_module(kernel.compile().module, **options)


def only_loop(r):
    assert len(r.loops) == 1
    return r.loops[0]


def test_operator_library_follows_clock_and_family():
    assert FADD == 6  # xcu250-2L at 3.333 ns, bavlyshehata/ADMM_BP models file
    assert oplib.latency("fadd", clock_ns=10.0, part="xc7z020clg400-1") == 4  # observed on that part
    assert oplib.latency("fadd", clock_ns=10.0) < FADD < oplib.latency("fadd", clock_ns=2.5)
    assert oplib.latency("fadd", part="xc7k160t-fbg676-2") > FADD  # 7-series is slower than UltraScale+
    lib = oplib.OpLib(3.33)
    assert lib.adder(32).latency == 0 and lib.adder(32).delay_ns < lib.usable_ns  # chained
    assert lib.usable_ns == pytest.approx(3.33 * 0.73)


def test_part_families_by_prefix():
    assert detect_part("xc7z020clg400-1").family == "zynq-7000"
    assert detect_part("xc7k160t-fbg676-2").family == "7-series"
    assert detect_part("xczu9eg-ffvb1156-2-e").family == "zynq-ultrascale+"
    assert detect_part("xcu250-figd2104-2L-e").family == "ultrascale+"
    assert detect_part("xcvu9p-flga2104-2-e").family == "ultrascale+"
    assert detect_part("xcku040-ffva1156-2-e").family == "ultrascale"
    # every current AMD family: Kria SOMs (Zynq UltraScale+ inside), Versal, Alveo, Artix/Spartan UltraScale+
    kria = detect_part("xck26-sfvc784-2LV-c")
    assert (kria.family, kria.fabric, kria.grade) == ("zynq-ultrascale+", "usplus", "2")
    assert detect_part("xck24-ubva530-2LV-c").family == "zynq-ultrascale+"
    versal = detect_part("xcvc1902-vsva2197-2MP-e-S")
    assert (versal.family, versal.grade) == ("versal", "2")
    assert detect_part("xcve2802-vsvh1760-1LP-i-L").grade == "1"
    assert detect_part("xcu50-fsvh2104-2-e").family == "ultrascale+"
    assert detect_part("xcsu35p-sbvb625-1-e").family == "spartan-ultrascale+"
    zu9 = report(sk.vadd, part="xczu9eg-ffvb1156-2-e").latency_max
    for part in ("xck26-sfvc784-2LV-c", "xcvp1202-vsva2785-2MP-e-S"):  # grade -2, fabric as fast: same schedule
        assert report(sk.vadd, part=part).latency_max == zu9
    with pytest.raises(HLSError, match="unknown FPGA part"):
        detect_part("ep4ce22f17c6")


def test_pipelined_vector_add_latency_is_n_minus_1_plus_depth_minus_1():
    """Vitis reports (TC - 1) * II + depth - 1 for a pipelined loop (VITIS_FACTS.md section 3)."""
    r = report(sk.vadd)
    loop = only_loop(r)
    assert loop.ii == 1 and loop.target_ii == 1 and loop.ii_met
    assert loop.latency_min == loop.latency_max == sk.N - 1 + loop.depth - 1
    # burst read (1) + the loaded value's register (a core instance reads registers: timing.registered_input,
    # labB's Register table) + fadd + store (1); the m_axi latency is paid once per direction outside the loop
    assert loop.depth == 1 + REGISTERED + FADD + 1
    assert r.latency_max == loop.latency_max + 1 + 2 * MAXI_LATENCY + 1
    assert r.interval_max == r.latency_max + 1


def test_float_accumulation_ii_is_fadd_latency_and_pragma_stays():
    loop = only_loop(report(sk.facc))
    assert loop.ii == FADD and loop.target_ii == 1 and loop.ii_met is False
    assert loop.latency_max == (sk.M - 1) * FADD + loop.depth - 1
    assert "`acc`" in loop.limiter and f"fadd ({FADD} cycles)" in loop.limiter
    assert "schedule_kernels.py:23" in loop.limiter  # the line of `acc += x[i]`
    assert "#pragma HLS pipeline II=1" in sk.facc.cpp  # Vitis decides; nothing is changed


def test_integer_accumulation_has_ii_1():
    loop = only_loop(report(sk.iacc))
    assert loop.ii == 1 and loop.limiter is None


def test_memory_ports_bound_the_ii():
    assert only_loop(report(sk.two_reads)).ii == 1  # 2 reads, dual-port BRAM
    three = only_loop(report(sk.three_reads))
    assert three.ii == 2 and three.res_mii == 2  # ceil(3 / 2)
    assert three.depth == 3  # UG1399's example: "Target II 1, Final II 2, Depth 3"
    assert "3 loads per iteration on `a`, 2 ports: partition a cyclic factor 2" in three.limiter
    assert "schedule_kernels.py:" in three.limiter
    assert only_loop(report(sk.three_reads_partitioned)).ii == 1


def test_raw_dependence_limits_ii_by_the_chain_latency():
    loop = only_loop(report(sk.raw_float))
    assert loop.ii == BRAM_READ_LATENCY + REGISTERED + FADD + STORE
    assert "`a`" in loop.limiter and "schedule_kernels.py:69" in loop.limiter
    assert only_loop(report(sk.raw_int)).ii == BRAM_READ_LATENCY + 0 + STORE  # the add chains
    assert only_loop(report(sk.raw_far)).ii == 1  # distance 4: ceil(2 / 4)


def test_unroll_by_4_divides_the_trip_count():
    loop = only_loop(report(sk.unroll4, pipeline_loops=0))
    assert loop.trip_max == sk.M // 4 and "unrolled by 4" in loop.notes
    assert loop.depth == 4 // 2  # four stores on two write ports (RAM_T2P)
    assert loop.latency_max == loop.trip_max * loop.depth
    # automatic pipelining runs on the loop the partial unroll leaves (wes237c fir128 unroll 2, labB DFTpts)
    auto = only_loop(report(sk.unroll4))
    assert auto.pipelined == "auto" and auto.ii == 4 // 2  # the same four stores, two ports per cycle
    assert auto.latency_max == (auto.trip_max - 1) * auto.ii + auto.depth - 1


def test_nested_loop_latency_composes():
    outer, inner = report(sk.nest_sequential, pipeline_loops=0).loops
    assert inner.depth == BRAM_READ_LATENCY + STORE and inner.latency_max == 8 * inner.depth
    assert outer.depth == inner.latency_max + 2  # enter and leave the inner loop
    assert outer.latency_max == 8 * outer.depth
    outer, inner = report(sk.nest_pipelined).loops
    assert inner.ii == 1 and inner.latency_max == sk.M - 1 + inner.depth - 1
    assert outer.latency_max == 8 * (inner.latency_max + 1)  # the outlined pipeline costs one more


def test_variable_trip_count_gives_min_and_max():
    r = report(sk.variable_trip)
    loop = only_loop(r)
    assert (loop.trip_min, loop.trip_max) == (4, sk.M)
    assert loop.latency_min == 3 * loop.ii + loop.depth - 1
    assert loop.latency_max == (sk.M - 1) * loop.ii + loop.depth - 1
    assert r.latency_max - r.latency_min == loop.latency_max - loop.latency_min


def test_auto_pipelining_moves_up_a_small_nest():
    """pipeline_loops 64: the 8-iteration inner loop is unrolled into its parent, which is pipelined
    (UG1399 Automatic Loop Pipelining); with threshold 4 the inner loop (8 > 4) is pipelined and the
    perfect nest flattened."""
    (outer,) = report(sk.nest_sequential).loops
    assert outer.pipelined == "auto" and outer.ii is not None
    assert report(sk.nest_sequential).latency_max < report(sk.nest_sequential, pipeline_loops=0).latency_max
    flat = report(sk.nest_sequential, pipeline_loops=4).loops
    assert [(lp.label, lp.pipelined, lp.trip_max) for lp in flat] == [("loop_i_loop_j", "auto", 64)]


def test_unrolled_accumulation_is_balanced_and_banks_counted_within_the_trip():
    """Four accumulated products per iteration: the adds are rebalanced so the carried path holds one
    adder, and block banks are checked only at iterations that exist (trip 2): II 1, four multipliers."""
    r = report(sk.unrolled_mac)
    assert only_loop(r).ii == 1, only_loop(r).limiter
    assert r.resources.dsp == 4


def test_loop_invariant_work_is_hoisted():
    (loop,) = report(sk.invariant_sum).loops
    assert loop.ii == 1 and any("loop-invariant" in note for note in loop.notes)


def test_if_region_takes_the_branches_min_and_max():
    r = report(sk.branchy)
    loop = only_loop(r)
    assert r.latency_max == loop.latency_max + 1 + 1  # loop branch, plus the top's state
    assert r.latency_min == STORE + 1  # the other branch: one store


def test_sub_kernel_calls_and_their_loops():
    r = report(sk.caller, pipeline_loops=0)  # sequential loops: +2 to enter and leave each
    assert all(lp.pipelined == "auto" for lp in report(sk.caller).loops)  # innermost: pipelined by default
    assert [(loop.label, loop.function) for loop in r.loops] == [("loop_i", "fill")] * 2
    each = r.loops[0].latency_max + 2 + 1  # the loop, entering/leaving it, the call
    assert r.latency_max == 2 * each + 1


def test_loops_above_pipeline_loops_are_pipelined_automatically():
    loop = only_loop(report(sk.long_loop))
    assert loop.pipelined == "auto" and loop.ii == 1
    off = only_loop(report(sk.long_loop, pipeline_loops=0))
    assert off.pipelined == "no" and off.ii is None
    # the threshold decides only whether a small inner loop is unrolled into its parent: an innermost loop
    # is pipelined whatever its trip count (wes237c fir11: 11 trips, fir128 unroll 2: 64 trips, both II 1)
    assert only_loop(report(sk.long_loop, pipeline_loops=128)).pipelined == "auto"


def test_inner_loops_of_a_pipelined_loop_are_unrolled():
    r = report(sk.inner_unrolled)
    loop = only_loop(r)  # loop_k is gone: unrolled into loop_i's body
    assert loop.ii == 1  # four reads, four banks of the complete partition


def test_part_and_clock_change_the_ii():
    loop = only_loop(report(sk.facc, clock_ns=10.0, part="xc7z020clg400-1"))
    assert loop.ii == oplib.latency("fadd", clock_ns=10.0, part="xc7z020clg400-1") == 4


def test_gemm_example(examples):
    r = schedule_module(examples["gemm"].KERNEL.compile().module)
    labels = [loop.label for loop in r.loops]
    assert labels == ["loop_i", "loop_j", "loop_k"]
    k = r.loops[2]
    assert k.ii == FADD and "`acc`" in k.limiter and "gemm.py:13" in k.limiter
    assert r.resources.dsp == oplib.CORE_AREA["fadd"][0] + oplib.CORE_AREA["fmul"][0]


def test_report_shapes():
    r = report(sk.facc)
    data = json.loads(json.dumps(r.to_dict()))
    assert set(data) >= {"top", "part", "clock_ns", "latency", "interval", "loops", "resources"}
    assert set(data["resources"]) >= {"dsp", "bram18k", "ff", "lut"}
    loop = data["loops"][0]
    assert set(loop) >= {"label", "file", "line", "trip", "target_ii", "ii", "depth", "latency", "limiter"}
    assert loop["line"] == 21 and loop["file"].endswith("schedule_kernels.py")
    assert data["latency_ns"]["max"] == pytest.approx(r.latency_max * 3.33)
    assert any(row["op"] == "fadd" for row in data["resources_breakdown"])
    text = str(r)
    assert "loop_i" in text and "II achieved" in text and "Utilization Estimates" in text
    assert "<table>" in r._repr_html_()


def test_bad_options_are_errors():
    with pytest.raises(HLSError, match="flow"):
        report(sk.facc, flow="quartus")
    with pytest.raises(HLSError, match="clock"):
        report(sk.facc, clock_ns=0)


def test_load_report_tcl_flow_with_outlined_pipeline():
    r = load_report(FIXTURES / "gemm_tcl")
    assert (r.top, r.part, r.clock_ns, r.source) == ("gemm", "xcu250-figd2104-2L-e", 3.33, "vitis")
    assert (r.latency_min, r.latency_max, r.interval_max) == (2371585, 2371585, 2371586)
    assert [(loop.label, loop.level) for loop in r.loops] == [("loop_i", 0), ("loop_j", 1), ("loop_k", 2)]
    k = r.loops[2]
    assert (k.ii, k.depth, k.latency_max, k.trip_max, k.function) == (6, 69, 446, 64, "gemm_Pipeline_loop_k")
    assert r.loops[0].ii is None and r.loops[0].depth == 37056
    assert (r.resources.dsp, r.resources.bram18k, r.resources.ff, r.resources.lut) == (8, 6, 6012, 7481)
    assert r.estimated_clock_ns == 2.433


def test_load_report_unified_flow_with_ranges():
    r = load_report(FIXTURES / "vsum_unified")
    loop = only_loop(r)
    assert (loop.trip_min, loop.trip_max, loop.latency_min, loop.latency_max) == (4, 64, 4, 64)
    assert (r.latency_min, r.latency_max) == (6, 66) and r.interval_min is None


def test_compare_puts_estimate_and_vitis_side_by_side(examples):
    estimate = schedule_module(examples["gemm"].KERNEL.compile().module)
    text = estimate.compare(load_report(FIXTURES / "gemm_tcl"))
    assert "estimate" in text and "vitis" in text
    assert str(estimate.latency_max) in text and "2371585" in text
    row = next(line for line in text.splitlines() if "loop_k" in line)
    assert str(estimate.loops[2].depth) in row and "69" in row


def test_load_report_refuses_entities_and_missing_reports(tmp_path):
    report_dir = tmp_path / "proj" / "solution1" / "syn" / "report"
    report_dir.mkdir(parents=True)
    (report_dir / "k_csynth.xml").write_text('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><profile/>')
    with pytest.raises(HLSError, match="DOCTYPE"):
        load_report(tmp_path / "proj")
    with pytest.raises(HLSError, match="no <top>_csynth.xml"):
        load_report(tmp_path / "elsewhere")


def test_shift_register_in_branches_reaches_ii_1():
    """The FIR shift register: stores on opposite sides of `if i == 0` share a port, the load after a
    store to the same element reads the stored value, and the last-iteration store carries nothing."""
    loop = only_loop(report(sk.shift_fir))
    assert loop.ii == 1, loop.limiter


def test_a_product_kept_at_32_bits_drops_its_top_dsp_tile():
    """int32 = a * b on two 32-bit operands: the partial product shifted past bit 32 is never built, so
    3 DSP48 tiles, not the 4 of the 64-bit product (oplib.dsp_tiles)."""
    assert oplib.dsp_tiles(32, 32, 27) == 4
    assert oplib.dsp_tiles(32, 32, 27, out_width=32) == 3
    assert oplib.dsp_tiles(32, 32, 25, out_width=32) == 3  # 7-series DSP48E1
    assert oplib.dsp_tiles(32, 32, 27, out_width=64) == 4
    assert oplib.dsp_tiles(27, 18, 27, out_width=16) == 1
    assert oplib.dsp_tiles(40, 18, 27, out_width=32) == 2  # never more than the whole product's tiles
