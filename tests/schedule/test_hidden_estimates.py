"""The estimate on kernels written as the hidden reports' projects write them (issue 24): each property follows
from a documented Vitis rule (UG1399, VITIS_FACTS.md, docs/oplib.md), cited at each test, never from the
model's own figures."""

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
