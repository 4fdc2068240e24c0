"""hls.customize (issue 23): schedules applied by name, as IR changes, golden of the original vs csim of
the scheduled kernel."""

from __future__ import annotations

import numpy as np
import pytest

import hls
from hls.customize.names import ScheduleNameError
from tests.kernels import customize_kernels as ck


def agrees(original, scheduled, seeds=(0, 1)) -> None:
    """csim of `scheduled` equals the golden model of `original` (run on its own copies) on random inputs."""
    for seed in seeds:
        inputs = original.random_inputs(seed)
        golden = [np.copy(x) if isinstance(x, np.ndarray) and x.ndim else x for x in inputs]
        sim = [np.copy(x) if isinstance(x, np.ndarray) and x.ndim else x for x in inputs]
        want = original(*golden)
        got = scheduled.csim(*sim)
        for g, s in zip(golden, sim, strict=True):
            np.testing.assert_array_equal(g, s)
        assert (want is None and got is None) or np.array_equal(want, got)


@pytest.fixture(scope="module")
def matmuls():
    return ck.make_matmul(False), ck.make_matmul(True)


def matmul_schedule(plain):
    return (hls.customize(plain).pipeline("COL", ii=1).unroll("k")
            .partition("A", "complete", dim=2).partition("B", "complete", dim=1))


def test_matmul_reaches_ii_1_through_customize_alone(matmuls):
    plain, inline = matmuls
    before = plain.cpp
    scheduled = matmul_schedule(plain).build()
    assert scheduled.cpp == inline.cpp  # the same C++ as the same directives written inline
    assert plain.cpp == before and "#pragma HLS pipeline" not in plain.cpp  # the original is untouched
    loops = scheduled.report().loops
    assert [(loop.label, loop.ii) for loop in loops] == [("ROW_COL", 1)]
    assert scheduled.report().to_dict() == inline.report().to_dict()
    assert all(loop.ii != 1 for loop in plain.report().loops)
    scheduled.verify(trials=2)


def test_matmul_schedule_from_json_and_from_tcl_gives_the_same_cpp(matmuls, tmp_path):
    plain, inline = matmuls
    schedule = matmul_schedule(plain)
    again = hls.Schedule.from_json(plain, schedule.to_json())
    assert again.records == schedule.records and again.to_json() == schedule.to_json()
    assert again.build().cpp == inline.cpp
    tcl = schedule.to_tcl()
    assert 'set_directive_pipeline -II 1 "matmul/COL"' in tcl
    assert 'set_directive_array_partition -type complete -dim 2 "matmul" A' in tcl
    path = tmp_path / "directives.tcl"
    path.write_text(tcl)
    from_file = hls.customize(plain).from_tcl(str(path))
    assert from_file.build().cpp == inline.cpp
    assert from_file.to_tcl() == tcl


def test_vitis_written_directives_file():
    kernel = ck.make_matmul(False, 8)
    text = """# written by the Vitis GUI
set_directive_pipeline -II 1 "matmul/COL"
set_directive_unroll "matmul/loop_k"
set_directive_array_partition -type complete \\
    -dim 2 "matmul" A
set_directive_array_partition -dim 1 -type complete "matmul" B
"""
    cpp = hls.customize(kernel).from_tcl(text).build().cpp
    assert "COL: for" in cpp and "#pragma HLS pipeline II=1" in cpp
    assert "#pragma HLS array_partition variable=B type=complete dim=1" in cpp
    with pytest.raises(hls.HLSError, match=r"<tcl>:2:1: set_directive_array_reshape is not a directive"):
        hls.customize(kernel).from_tcl('# x\nset_directive_array_reshape -dim 1 "matmul" A\n')
    with pytest.raises(ScheduleNameError, match="no loop named 'matmul/NOPE'"):
        hls.customize(kernel).from_tcl('set_directive_pipeline "matmul/NOPE"\n')


def test_names_by_label_variable_and_path(matmuls):
    plain, _ = matmuls
    by = [hls.customize(plain).pipeline(name).build().cpp for name in ("COL", "j", "matmul/ROW/COL", "ROW/j")]
    assert all(cpp == by[0] for cpp in by) and "#pragma HLS pipeline\n" in by[0]
    with pytest.raises(ScheduleNameError, match=r"ambiguous: it matches twin_loops/loop_i \(variable i\), "
                                                r"twin_loops/loop_i_1 \(variable i\)"):
        hls.customize(ck.twin_loops).pipeline("i")
    hls.customize(ck.twin_loops).pipeline("loop_i_1")  # the label tells them apart
    with pytest.raises(ScheduleNameError, match=r"test_customize.py:\d+:\d+: no loop named 'ROWS'; the loops are "
                                                r"matmul/ROW \(variable i\)"):
        hls.customize(plain).pipeline("ROWS")
    with pytest.raises(ScheduleNameError, match="no array named 'D'; the arrays are matmul/A, matmul/B, matmul/C"):
        hls.customize(plain).partition("D")


def test_names_reach_sub_kernels_and_partitions_follow_the_array():
    schedule = hls.customize(ck.caller).partition("X", "cyclic", factor=2, dim=2).pipeline("row_sums/j")
    built = schedule.build()
    cpp = built.cpp
    # the caller's X and the callee's port M are split the same way
    assert "#pragma HLS array_partition variable=X type=cyclic factor=2 dim=2" in cpp
    assert "#pragma HLS array_partition variable=M type=cyclic factor=2 dim=2" in cpp
    callee = cpp[cpp.index("void row_sums"):cpp.index("void caller")]
    assert "variable=M type=cyclic" in callee and "#pragma HLS pipeline" in callee
    assert "variable=X" not in callee
    agrees(ck.caller, built)
    hls.customize(ck.caller).bind_storage("buf", "ram_1p", impl="lutram").build()
    assert "bind_storage variable=buf type=ram_1p impl=lutram" in \
        hls.customize(ck.caller).bind_storage("caller/buf", "ram_1p", impl="lutram").build().cpp
    with pytest.raises(ScheduleNameError, match="no array named 'row_sums/X'"):
        hls.customize(ck.caller).partition("row_sums/X")


def test_a_partition_followed_into_a_callee_is_a_report_note():
    notes = hls.customize(ck.caller).partition("X", "cyclic", factor=2, dim=2).build().report().notes
    assert "array_partition followed an array into a sub-kernel: caller/X -> row_sums/M" in notes
    assert not any("followed" in note for note in ck.caller.report().notes)


def test_a_callee_called_with_differently_partitioned_arrays_is_an_error_at_build():
    import inspect

    source, first = inspect.getsourcelines(ck.two_callers.__hls_kernel__)
    sites = [first + n for n, line in enumerate(source) if "row_sums(" in line]
    s = hls.customize(ck.two_callers)
    line = inspect.currentframe().f_lineno + 1
    s.partition("X", "cyclic", factor=2, dim=2)
    with pytest.raises(hls.HLSError) as info:
        s.build()
    message = str(info.value)
    assert info.value.loc.file == __file__ and info.value.loc.line == line  # at the partition call
    assert f"customize_kernels.py:{sites[0]}" in message and f"customize_kernels.py:{sites[1]}" in message
    assert "two_callers/X (type=cyclic factor=2 dim=2)" in message and "two_callers/Z (not partitioned)" in message
    with pytest.raises(hls.HLSError, match=r"two_callers/Z \(type=block factor=2 dim=2\)"):
        hls.customize(ck.two_callers).partition("X", "cyclic", factor=2, dim=2).partition(
            "Z", "block", factor=2, dim=2).build()
    alike = s.partition("Z", "cyclic", factor=2, dim=2).build()  # both sites alike: one partition of M
    assert alike.cpp.count("#pragma HLS array_partition variable=M type=cyclic factor=2 dim=2") == 1
    agrees(ck.two_callers, alike)
    with pytest.raises(hls.HLSError, match="Vitis partitions the argument row_sums/M once"):
        hls.Schedule.from_json(ck.two_callers, hls.customize(ck.two_callers).partition("Z").to_json()).build()


def test_every_directive_primitive_sets_its_pragma():
    s = (hls.customize(ck.small_mm).pipeline("COL", ii=2, rewind=True).unroll("k", factor=2)
         .loop_tripcount("ROW", 1, 12, avg=6).loop_flatten("ROW", off=True)
         .interface("C", "ap_memory", storage_type="ram_2p").inline("small_mm", off=True))
    cpp = s.build().cpp
    for pragma in ("#pragma HLS pipeline II=2 rewind", "#pragma HLS unroll factor=2",
                   "#pragma HLS loop_tripcount min=1 max=12 avg=6", "#pragma HLS loop_flatten off",
                   "#pragma HLS interface mode=ap_memory port=C storage_type=ram_2p", "#pragma HLS inline off"):
        assert pragma in cpp, pragma
    assert "port=C\n" not in cpp.split("{", 1)[1]  # the default interface of C gave way to the chosen one
    agrees(ck.small_mm, s.build())
    assert hls.customize(ck.small_mm).dataflow().build().cpp.count("#pragma HLS dataflow") == 1


def test_bad_directive_options_are_located_at_the_call():
    with pytest.raises(hls.HLSError, match=r"test_customize.py:\d+:\d+: pipeline ii must be a positive integer"):
        hls.customize(ck.small_mm).pipeline("COL", ii=0)
    with pytest.raises(hls.HLSError, match="array_partition type must be one of cyclic, block, complete"):
        hls.customize(ck.small_mm).partition("A", "diagonal")
    with pytest.raises(hls.HLSError, match="dim must be 0 .all. or 1..2, got 3"):
        hls.customize(ck.small_mm).partition("A", dim=3)
    with pytest.raises(hls.HLSError, match="unexpected keyword argument 'speed'"):
        hls.customize(ck.small_mm).pipeline("COL", speed=2)
    with pytest.raises(hls.HLSError, match="bind_storage applies to local arrays"):
        hls.customize(ck.small_mm).bind_storage("A", "ram_1p")
    with pytest.raises(hls.HLSError, match="interface applies to kernel arguments only"):
        hls.customize(ck.caller).interface("buf", "ap_memory")
    with pytest.raises(hls.HLSError, match="stream sets the depth of a local FIFO"):
        hls.customize(ck.small_mm).stream("A", 4)
    with pytest.raises(hls.HLSError, match="hls.customize takes an @hls.kernel"):
        hls.customize(lambda x: x)


def test_stream_depth_of_a_local_fifo(examples):
    kernel = examples["stream_pipeline"].KERNEL if hasattr(examples["stream_pipeline"], "KERNEL") \
        else examples["stream_pipeline"].stream_pipeline
    built = hls.customize(kernel).stream("s1", 16).build()
    assert "#pragma HLS stream variable=s1 depth=16" in built.cpp
    assert "#pragma HLS stream variable=s1 depth=2" in kernel.cpp
    agrees(kernel, built, seeds=(0,))
    with pytest.raises(hls.HLSError, match="stream depth must be a positive integer"):
        hls.customize(kernel).stream("s2", 0)


def test_json_round_trip_is_exact_and_bad_json_is_an_error():
    s = hls.customize(ck.small_mm).split("k", 4, tail=True).tile(["ROW", "COL"], [4, 2]).pipeline("COL_inner")
    text = s.to_json()
    again = hls.Schedule.from_json(ck.small_mm, text)
    assert again.to_json() == text and again.build().cpp == s.build().cpp
    with pytest.raises(hls.HLSError, match="schedule JSON: not JSON"):
        hls.Schedule.from_json(ck.small_mm, "{")
    with pytest.raises(hls.HLSError, match=r"record 1 \(pipeline\('NOPE'\)\): no loop named 'NOPE'"):
        hls.Schedule.from_json(ck.small_mm, '{"schedule": [{"op": "pipeline", "targets": ["NOPE"]}]}')
    with pytest.raises(hls.HLSError, match="unknown schedule primitive 'vectorize'"):
        hls.Schedule.from_json(ck.small_mm, '[{"op": "vectorize", "targets": ["k"]}]')


@pytest.mark.parametrize("name", ["stream_pipeline", "rgb565", "axis_frame_gain", "subkernel", "fir_stream"])
def test_examples_keep_working_under_a_schedule(examples, name):
    """Dataflow regions, streams, structs, AXI-stream packets and sub-kernels: a loop of every kernel in the
    design pipelined at II 2 by schedule, then golden of the example vs csim of the scheduled design."""
    from hls.customize.names import loop_refs

    kernel = examples[name].KERNEL
    schedule = hls.customize(kernel)
    paths = [ref.path for func in schedule._working().functions.values() for ref in list(loop_refs(func))[:1]]
    for path in paths:
        schedule.pipeline(path, ii=2)
    built = schedule.build()
    assert built.cpp.count("#pragma HLS pipeline II=2") >= len(paths) >= 1
    built.verify(seed=3, trials=2)


def test_every_directive_round_trips_through_tcl():
    s = (hls.customize(ck.caller).pipeline("row_sums", ii=1).unroll("caller/loop_i", factor=2, skip_exit_check=True)
         .loop_tripcount("row_sums/i", 2, 8).loop_flatten("row_sums/j", off=True)
         .partition("X", "block", factor=2, dim=1).bind_storage("buf", "ram_2p", impl="bram", latency=2)
         .interface("y", "ap_memory", storage_type="ram_1p").inline("row_sums", off=True).dataflow("caller"))
    tcl = s.to_tcl()
    for line in ('set_directive_pipeline -II 1 "row_sums"', 'set_directive_unroll -factor 2 -skip_exit_check '
                 '"caller/loop_i"', 'set_directive_loop_tripcount -min 2 -max 8 "row_sums/loop_i"',
                 'set_directive_loop_flatten -off "row_sums/loop_j"',
                 'set_directive_array_partition -type block -factor 2 -dim 1 "caller" X',
                 'set_directive_bind_storage -type ram_2p -impl bram -latency 2 "caller" buf',
                 'set_directive_interface -mode ap_memory -storage_type ram_1p "caller" y',
                 'set_directive_inline -off "row_sums"', 'set_directive_dataflow "caller"'):
        assert line in tcl, line
    again = hls.customize(ck.caller).from_tcl(tcl)
    assert again.to_tcl() == tcl
    assert again.build().cpp == s.build().cpp
    with pytest.raises(hls.HLSError, match=r"<tcl>:1:1: stream sets the depth of a local FIFO"):
        hls.customize(ck.caller).from_tcl('set_directive_stream -depth 4 "caller" buf\n')
    with pytest.raises(hls.HLSError, match="takes a location and a variable"):
        hls.customize(ck.caller).from_tcl('set_directive_array_partition -type complete "caller"\n')


def test_a_huge_unroll_from_a_schedule_is_the_same_size_warning_at_the_call():
    """The size check of the inline hls.unroll() reads the loop the directive goes on; so does the schedule's."""
    import warnings

    from tests.kernels import scoping_kernels as sk

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hls.customize(sk.big_unroll).unroll("i", factor=1 << 19)
        line = __import__("inspect").currentframe().f_lineno - 1
    found = [str(w.message) for w in caught if issubclass(w.category, hls.DirectiveWarning)
             and "524,288 copies" in str(w.message)]  # the kernel's own hls.unroll() warns first, at its line
    assert found and found[0].startswith(f"{__file__}:{line}:")
