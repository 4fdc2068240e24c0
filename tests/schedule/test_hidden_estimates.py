"""The estimate on kernels written as the hidden reports' projects write them (issue 24): each property follows
from a documented Vitis rule (UG1399, VITIS_FACTS.md, docs/oplib.md), cited at each test, never from the
model's own figures."""

import importlib.util
import math
import re

import numpy as np
import pytest

import hls
from tests.golden_diff import golden_mode
from tests.kernels import hidden_estimate_kernels as ek
from tests.schedule.test_hidden_shapes import _memory_kind, report


def test_a_shift_register_moved_by_an_inner_loop_is_registers_in_the_pipelined_parent():
    """L1 (UG1399 Automatic Loop Pipelining): the two 4- and 5-trip inner loops unroll into their parent, which is
    pipelined; every access of the window is then at a constant index, and throughput-driven partitioning
    (config_array_partition, UG1399) makes it registers, so one read of x and one write of y per iteration
    give II 1. The same holds under an explicit pipeline directive and in a while loop read until TLAST."""
    for kernel, window in ((ek.fir_shift_loop, "w"), (ek.moving_sum_pipelined, "win"), (ek.axis_fir, "w")):
        r = report(kernel)
        (loop,) = r.loops
        assert loop.pipelined in ("auto", "yes") and loop.ii == 1, kernel.__name__
        assert _memory_kind(r, window) == "regs", kernel.__name__
    (frame,) = report(ek.axis_fir).loops
    assert (frame.trip_min, frame.trip_max) == (16, 1024)


def test_without_automatic_pipelining_the_shift_register_stays_a_memory():
    """-pipeline_loops 0 turns automatic pipelining off (UG1399 config_compile): no pipelined region, so no
    throughput-driven partitioning of `w` (5 elements, above -complete_threshold 4)."""
    r = report(ek.fir_shift_loop, pipeline_loops=0)
    assert _memory_kind(r, "w") != "regs"
    assert all(loop.pipelined == "no" for loop in r.loops)


def test_fixed_point_shifts_are_accepted_and_agree_in_every_model():
    """ap_fixed `x >> n` and `x << n` (a CORDIC's `y >> k`) shift the raw bits in the same type
    (ap_fixed_base.h operator>>/<<; Vitis accepts them): Python mode, the compiled model and csim agree, right
    shifts floor the raw bits (-1 lsb >> 3 is -1 lsb), left shifts wrap, and the CORDIC converges to cos/sin."""
    lsb = 2.0 ** -(ek.Fx.width - ek.Fx.int_bits)
    a = np.array([float(ek.Fx(v)) for v in (0.5, -0.75, 1.125, -3.5, 3.99, 0.0078125, -lsb, 2.5)])
    outputs = []
    for mode in ("python", "compiled"):
        with golden_mode(mode):
            out = np.zeros(24)
            ek.fixed_shifts(a, 2, out)
            outputs.append(out)
    native = np.zeros(24)
    ek.fixed_shifts.csim(a, 2, native)
    assert outputs[0].tolist() == outputs[1].tolist() == native.tolist()
    assert native[0] == a[0] / 4 and native[16] == a[0] / 8 and native[16 + 6] == -lsb
    assert native[8 + 4] == float(ek.Fx(a[4] * 4 - 16))  # 15.96 wraps into [-4, 4)
    cs = np.zeros(2)
    ek.cordic_rotate.csim(0.5, cs)
    golden = np.zeros(2)
    ek.cordic_rotate(0.5, golden)
    assert cs.tolist() == golden.tolist() and abs(cs[0] - math.cos(0.5)) < 1e-3 and abs(cs[1] - math.sin(0.5)) < 1e-3


def test_a_fixed_point_cordic_is_estimated_on_every_family():
    """The shifts are wiring plus the integer shifter (no DSP: a CORDIC multiplies nothing); the 14-trip loop is
    innermost, so automatic pipelining pipelines it (L1) on Kria, Versal and UltraScale+ parts alike."""
    for part in ("xck26-sfvc784-2LV-c", "xcvc1902-vsva2197-2MP-e-S", "xczu9eg-ffvb1156-2-e", "xcu250-figd2104-2L-e"):
        r = report(ek.cordic_rotate, part=part)
        (loop,) = r.loops
        assert loop.pipelined == "auto" and loop.trip_max == 14 and loop.latency_max >= 14, part
        assert r.resources.dsp == 0, part


def test_a_shift_of_a_fixed_point_value_by_a_fixed_point_count_is_refused_at_its_line(tmp_path):
    """The count of an ap_fixed shift is an integer (ap_fixed_base.h takes int or ap_int): a fixed count is a
    type error at the shift's line and column."""
    path = tmp_path / "hls_fixed_shift_bad.py"
    path.write_text("import hls\n\nQ = hls.ap_fixed[16, 4]\n\n\n@hls.kernel\ndef bad(a: Q, b: Q) -> Q:\n"
                    "    return a >> b\n")
    spec = importlib.util.spec_from_file_location("hls_fixed_shift_bad", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(hls.HLSError) as info:
        module.bad.report()
    assert "hls_fixed_shift_bad.py:8:12" in str(info.value) and "integers" in str(info.value)


def test_a_sub_kernel_with_a_loop_inlined_into_a_pipeline_is_flagged_as_approximate():
    """UG1399 "inline": Vitis inlines small functions on its own and keeps the others as instances, by a size it
    does not document; the estimate inlines the call of the pipelined row loop, so the loop's report says so
    and names the function. A sub-kernel without a loop (always inlined) gets no such note."""
    (loop,) = report(ek.row_norms).loops
    assert any("approximate" in note and "`squared_norm`" in note for note in loop.notes)
    (plain,) = report(ek.fir_shift_loop).loops
    assert not any("approximate" in note for note in plain.notes)


def test_the_limiter_of_a_recurrence_adds_up_to_the_ii_it_sets():
    """A sum over an unrolled inner loop (`s += a[i, j]`, j unrolled into the pipelined i loop by L1) chains
    eight fadds through the carried `s`; the II is what the cycle takes, so the limiter's cycles, registers
    between operators included, add up to it."""
    (loop,) = report(ek.struct_grid_sum).loops
    assert "`s`" in loop.limiter and loop.limiter.count("fadd") == 8
    cycles = [int(n) for n in re.findall(r"= (\d+) cycles(?: \+ (\d+) registers?)?", loop.limiter)[0] if n]
    assert sum(cycles) == loop.ii
