"""The estimate on the shapes the reports of other projects exercise (issue 24), on kernels of our own.

Every property asserted follows from a documented Vitis rule (UG1399 and VITIS_FACTS.md, cited at each test)
or from the source itself (trip counts, access counts), never from the model's own figures: the estimate is
accepted, finite where the trip counts are known, and its II and limiter notes follow the rule.
"""

import math

from tests.kernels import hidden_shape_kernels as hk

RAM_PORTS = 2  # a dual-port RAM (ap_memory, RAM_AUTO BRAM): VITIS_FACTS.md section 4


def report(kernel, **options):
    return kernel.report(flow="vivado", **options)


def _memory_kind(r, name: str) -> str:
    (row,) = [row.op for row in r.breakdown if row.op.startswith(f"memory {name} (")]
    return row.split("(")[1].split(",")[0]


def test_a_loop_without_directives_is_pipelined_at_ii_1():
    """UG1399 "Automatic Loop Pipelining": an innermost loop is pipelined without a directive; one read of x and
    one write of y per iteration fit their ports, so II 1 and the loop's latency is (trip - 1) * II plus the
    iteration latency (depth - 1 here, as in test_loop_rules)."""
    r = report(hk.plain_vector_scale)
    (loop,) = r.loops
    assert (loop.pipelined, loop.ii, loop.trip_max) == ("auto", 1, 256)
    assert loop.latency_max == 255 + loop.depth - 1
    assert 256 <= r.latency_max < 2 * 256
    (off,) = report(hk.plain_vector_scale, pipeline_loops=0).loops
    assert off.pipelined == "no" and off.latency_max >= 2 * 256 > r.latency_max


def test_a_nest_without_directives_pipelines_above_its_short_inner_loop():
    """UG1399 2023.2+ (the nested walk): the 16-trip k loop is unrolled into its parent, which is pipelined, and
    the perfect i/j nest above it flattens (pragma loop_flatten); the 16 reads of b per iteration on a 2-port
    RAM set II = ceil(16 / 2) (VITIS_FACTS.md section 4) and the limiter names b."""
    r = report(hk.plain_matmul)
    (loop,) = r.loops
    assert loop.label == "loop_i_loop_j" and loop.pipelined == "auto" and loop.trip_max == hk.N * hk.N
    assert loop.ii == math.ceil(hk.N / RAM_PORTS)
    assert "`b`" in loop.limiter or "`a`" in loop.limiter
    assert r.latency_max >= hk.N * hk.N * loop.ii


def test_a_triangular_nest_keeps_both_loops_and_bounds_its_inner_trip():
    """`for j in range(i)` with i < 16: 0 to 15 trips, known from the bounds without a tripcount; the inner bound
    depends on the outer counter, so the nest is not flattened (UG1399 loop_flatten: perfect or semi-perfect
    nests only), the outer loop stays sequential and the inner one is pipelined; its `s -= ...` recurrence
    through a floating-point subtract gives II > 1 (VITIS_FACTS.md section 4)."""
    r = report(hk.lower_triangle_solve)
    outer, inner = r.loops
    assert [outer.label, inner.label] == ["loop_i", "loop_j"]
    assert outer.pipelined == "no" and inner.pipelined == "auto"
    assert (inner.trip_min, inner.trip_max) == (0, hk.N - 1)
    assert inner.ii > 1 and "`s`" in inner.limiter
    assert 0 < r.latency_min < r.latency_max


def test_a_data_dependent_bound_takes_its_tripcount_and_without_one_has_no_latency():
    """A bound read from memory: the trip range is the loop_tripcount's, the latency spans 16 x 1 to 16 x 64
    iterations; without a tripcount Vitis reports the latency as `?` (VITIS_FACTS.md section 6) and the
    estimate says which directive would give one."""
    r = report(hk.row_sums_counted)
    outer, inner = r.loops
    assert (inner.trip_min, inner.trip_max) == (1, 64) and inner.ii == 1
    assert r.latency_min >= hk.N and r.latency_max >= hk.N * 64
    u = report(hk.prefix_uncounted)
    assert u.latency_max is None and u.loops[0].ii == 1
    assert any("loop_tripcount" in note for note in u.notes)


def test_a_double_precision_stencil_is_bound_by_the_ports_of_its_input():
    """UG1399's own example (VITIS_FACTS.md section 4): three reads of one array per iteration on a 2-port RAM
    give II 2; a cyclic partition by 3 puts a[i - 1], a[i], a[i + 1] in three banks and II is 1."""
    (loop,) = report(hk.stencil3_f64).loops
    assert loop.ii == math.ceil(3 / RAM_PORTS) and "`a`" in loop.limiter
    (banked,) = report(hk.stencil3_f64_banked).loops
    assert banked.ii == 1 and banked.trip_max == 254


def test_a_double_accumulation_is_bound_by_its_adder():
    """`s += a[i]` in double precision: II = the latency of the carried add (VITIS_FACTS.md section 4, float
    accumulation), so more than 1, and the limiter names the recurrence."""
    (loop,) = report(hk.sum_f64).loops
    assert loop.ii > 1 and "`s`" in loop.limiter and "dadd" in loop.limiter


def test_indirect_loads_pipeline_and_an_indirect_update_carries_a_dependence():
    """`a[idx[i]]`: one read of a and one of idx per iteration, II 1 whatever the address; `h[idx[i]] += 1` reads
    and writes an address known only at run time, so Vitis keeps the read after the previous write (UG1399
    "Managing Pipeline Dependencies"): II > 1, limited by h."""
    (g,) = report(hk.gather).loops
    assert g.ii == 1 and g.trip_max == 256
    (h,) = report(hk.histogram).loops
    assert h.ii >= 2 and "`h`" in h.limiter


def test_a_pipelined_fixed_point_function_unrolls_its_loop_and_partitions_its_taps():
    """pragma pipeline on a function unrolls every loop inside (UG1399); the static 8-tap shift register is then
    read and written only at constant indices, which throughput-driven partitioning turns into registers
    (UG1399 config_array_partition), so the II 1 asked for is met. The sub-kernel is inlined."""
    r = report(hk.fx_fir8)
    assert r.loops == [] and r.interval_max == 1
    assert _memory_kind(r, "taps") == "regs"
    assert not any("not met" in note for note in r.notes)


def test_arrays_of_fewer_than_four_elements_are_registers():
    """config_array_partition -complete_threshold 4 (UG1399): a local array of 3 elements is completely
    partitioned even outside any pipeline; one of 4 is not (and is a LUTRAM); once its loop is pipelined,
    every access at a constant index makes it registers too (throughput-driven partitioning), and II is 1."""
    assert _memory_kind(report(hk.window3, pipeline_loops=0), "w") == "regs"
    assert _memory_kind(report(hk.window4, pipeline_loops=0), "w") != "regs"
    for kernel in (hk.window3, hk.window4):
        r = report(kernel)
        assert _memory_kind(r, "w") == "regs" and r.loops[0].ii == 1


def test_a_dataflow_region_over_streams_of_structs_overlaps_its_processes():
    """UG1399 "dataflow": the three processes over FIFOs of Pixel structs run concurrently, so the region's
    interval is shorter than the three 64-trip loops one after the other."""
    r = report(hk.gray_dataflow)
    assert [lp.trip_max for lp in r.loops] == [64, 64, 64]
    assert all(lp.ii == 1 for lp in r.loops)
    assert 64 <= r.interval_max < 3 * 64 and r.latency_max < 3 * 64


def test_axi4_stream_tops_pipeline_their_beat_loops():
    """A frame read until TLAST (a while loop with a tripcount) and a fixed-length stream loop: one read and one
    write per iteration on FIFOs of one port each, II 1; the frame's latency spans its tripcount."""
    r = report(hk.axis_gain_frame)
    (loop,) = r.loops
    assert (loop.trip_min, loop.trip_max) == (1, 256) and loop.ii == 1
    assert r.latency_min >= 1 and r.latency_max >= 256
    s = report(hk.stream_add_one)
    assert s.loops[0].ii == 1 and s.latency_max >= 128


def test_a_kept_sub_kernel_in_a_pipeline_is_flagged_as_approximate():
    """UG1399 pragma inline off: Vitis keeps the function an instance; the estimate inlines every call of a
    pipelined region, so the loop's report says so and names the function (the issue's honest note)."""
    (loop,) = report(hk.dot_with_kept_mac).loops
    assert any("approximate" in note and "`mac_kept`" in note for note in loop.notes)
    (plain,) = report(hk.plain_vector_scale).loops
    assert not any("approximate" in note for note in plain.notes)
