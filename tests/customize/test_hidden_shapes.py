"""Schedules a Vitis or Allo user writes for kernels of the shapes issue 23's hidden checks name: stencils,
a conv, elementwise pairs, whole-array statements, callee loops, a load/compute/store with FIFOs;
directives files as Vitis writes them. Each transformation is verified golden(original) == csim(scheduled)."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import hls
from hls.customize.records import ScheduleError
from hls.frontend.pragmas import DirectiveWarning
from hls.passes.dependence import DependenceError
from tests.customize.test_customize import agrees
from tests.kernels import customize_kernels as ck
from tests.kernels import hidden_schedule_kernels as hk
from tests.project.test_export import make

C = hls.customize


# ---- transformations on nests inside an enclosing loop -----------------------------------------------


def test_reorder_inner_loops_of_a_nest_reads_the_enclosing_counter():
    """mm's J, K under I: the indices read i, which the dependence check enumerates (it used to refuse:
    'an array index depends on %i')."""
    built = C(hk.mm_ijk).reorder("K", "J").pipeline("J").partition("B", "complete", dim=2).build()
    cpp = built.cpp
    assert cpp.index("K: for") < cpp.index("J: for") and "I: for" in cpp
    agrees(hk.mm_ijk, built, seeds=(0,))


def test_tiling_twice_reorders_under_the_first_tile():
    built = C(hk.jacobi).tile(["I", "J"], [4, 5]).tile(["I_inner", "J_inner"], [2, 5]).build()
    labels = [line.split(":")[0].strip() for line in built.cpp.splitlines() if ": for (" in line]
    assert labels == ["I_outer", "J_outer", "I_inner_outer", "J_inner_outer", "I_inner_inner", "J_inner_inner"]
    agrees(hk.jacobi, built, seeds=(0,))


def test_fusing_two_column_loops_of_a_row():
    """FIRST and SECOND index by the row counter i: the fusion used to be refused ('depends on %i')."""
    built = C(hk.row_pair).fuse("FIRST", "SECOND").pipeline("FIRST_SECOND", ii=1).build()
    assert "FIRST_SECOND: for" in built.cpp
    agrees(hk.row_pair, built, seeds=(0,))
    with pytest.raises(DependenceError, match=r"fuse\(FIRST, SECOND\) would change the result"):
        C(hk.row_pair_mirrored).fuse("FIRST", "SECOND")


def test_reorder_of_loops_with_one_between_swaps_their_places():
    """reorder("K", "I") of I, J, K is K, J, I (J keeps its place), as in Halide and TVM; it used to be
    'K is not directly inside I'."""
    built = C(hk.mm_ijk).reorder("K", "I").build()
    assert [line.split(":")[0].strip() for line in built.cpp.splitlines() if ": for (" in line] == ["K", "J", "I"]
    agrees(hk.mm_ijk, built, seeds=(0,))
    with pytest.raises(DependenceError, match=r"reorder\(C, R, T\) would change the result"):
        C(hk.stacked_wavefront).reorder("C", "T")
    with pytest.raises(hls.HLSError, match="reorder: a loop is named twice"):
        C(hk.mm_ijk).reorder("I", "I")


def test_illegal_inner_reorder_under_an_enclosing_loop_is_still_refused():
    with pytest.raises(DependenceError, match=r"test_hidden_shapes.py:\d+:\d+: reorder\(C, R\) would change the "
                                              "result"):
        C(hk.stacked_wavefront).reorder("C", "R")
    with pytest.raises(DependenceError, match=r"reorder\(Q, P\) would change the result"):
        C(hk.plane_shift).reorder("Q", "P")
    C(hk.stacked_wavefront).reorder("R", "T")  # the planes are independent: T may go inside


def test_a_mirrored_index_is_enumerated():
    """`A[i - 1, 7 - j if j >= 4 else j]`: a select of comparisons, which the check used to refuse as not
    computed from loop counters; it reads only columns already written in either order."""
    built = C(hk.mirror_rows).reorder("C", "R").build()
    agrees(hk.mirror_rows, built, seeds=(0, 1))
    with pytest.raises(DependenceError, match=r"reorder\(C, R\) would change the result"):
        C(hk.mirror_rows_always).reorder("C", "R")


def test_an_uncheckable_index_names_no_none_location():
    with pytest.raises(DependenceError, match=r"test_hidden_shapes.py:\d+:\d+: reorder\(C, R\): an array index "
                                              "depends on %off, which is not computed from loop counters") as info:
        C(hk.offset_rows).reorder("C", "R")
    assert "(at None)" not in str(info.value)


# ---- transformations on typical kernels -----------------------------------------------------------------


def test_stencil_split_with_a_tail_tile_and_pipeline():
    schedule = (C(hk.blur).split("COLS", 5, tail=True).pipeline("COLS_inner", ii=1).unroll("KX").unroll("KY")
                .partition("img", "cyclic", factor=3, dim=2))
    built = schedule.build()
    assert "COLS_tail: for" in built.cpp and "KX_tail: for" in built.cpp
    agrees(hk.blur, built, seeds=(0,))
    agrees(hk.blur, C(hk.blur).tile(["ROWS", "COLS"], [5, 4]).build(), seeds=(0,))


def test_matmul_reorder_ikj_and_conv_tile():
    agrees(hk.mm_ijk, C(hk.mm_ijk).reorder("I", "K", "J").build(), seeds=(0,))
    assert C(hk.mm_ijk).reorder(["I", "K", "J"]).records == C(hk.mm_ijk).reorder("I", "K", "J").records
    with pytest.raises(hls.HLSError, match=r"tile: factor 3 does not divide the trip count 7 of OY; tile needs "
                                           r"factors that divide \(split\(loop, factor, tail=True\) makes a tail"):
        C(hk.conv2d).tile(["OY", "OX"], [3, 3])  # split's message would suggest tail=True, which tile lacks
    conv = C(hk.conv2d).split("OX", 3, tail=True).pipeline("OX_inner").unroll("OX_inner/kx").build()
    assert "OX_tail: for" in conv.cpp
    agrees(hk.conv2d, conv, seeds=(0,))
    with pytest.raises(hls.HLSError, match=r"loop name 'kx' is ambiguous: it matches conv2d/OY/OX_outer/OX_inner/"
                                           r"loop_ky/loop_kx \(variable kx\), conv2d/OY/OX_tail/loop_ky_tail/"
                                           r"loop_kx_tail"):
        C(hk.conv2d).split("OX", 3, tail=True).unroll("kx")


def test_tiling_a_reduction_nest_is_tiles_refusal():
    """blur's KY x KX accumulate into `s`: the refusal used to be the reorder's ('reorder: loop KY_outer
    carries'), after tile had split both loops."""
    with pytest.raises(hls.HLSError, match=r"test_hidden_shapes.py:\d+:\d+: tile: loop KY carries a value from one "
                                           r"iteration to the next \(s\)"):
        C(hk.blur).tile(["KY", "KX"], [3, 1])
    agrees(hk.blur, C(hk.blur).split("KX", 2, tail=True).split("ROWS", 2).reorder("COLS", "ROWS_inner").build(),
           seeds=(0,))


def test_fuse_elementwise_pair_and_refused_fusion():
    built = C(hk.scale_bias).fuse("SCALE", "BIAS").split("SCALE_BIAS", 8).pipeline("SCALE_BIAS_inner").build()
    assert "SCALE_BIAS_outer: for" in built.cpp
    agrees(hk.scale_bias, built, seeds=(0,))
    with pytest.raises(DependenceError, match=r"fuse\(SCALE, BIAS\) would change the result"):
        C(hk.shift_then_read).fuse("SCALE", "BIAS")
    with pytest.raises(DependenceError, match=r"reorder\(C, R\) would change the result"):
        C(hk.prefix_rows).reorder("C", "R")


def test_whole_array_statement_loops_by_name():
    schedule = (C(hk.dense_tensor).pipeline("C_j").unroll("C_k").partition("A", "complete", dim=2)
                .partition("B", "complete", dim=1).split("y_j", 4).fuse("C_i", "y_i"))
    built = schedule.build()
    assert "C_i_y_i: for" in built.cpp
    agrees(hk.dense_tensor, built, seeds=(0,))
    with pytest.raises(hls.HLSError, match=r"no loop named 'nope'; the loops are dense_tensor/C_i \(variable C_i\)"):
        C(hk.dense_tensor).pipeline("nope")
    # `T = A @ B` into a local and a returned `np.maximum(T + bias, 0)`: loops T_i.. and result_i..
    layer = (C(hk.mlp_layer).fuse("T_i", "result_i").pipeline("T_j", ii=1).partition("B", "complete", dim=1)
             .partition("A", "complete", dim=2).partition("T", "complete", dim=2).split("result_j", 4))
    assert "T_i_result_i: for" in layer.build().cpp
    agrees(hk.mlp_layer, layer.build(), seeds=(0,))
    with pytest.raises(hls.HLSError, match=r"the arrays are mlp_layer/A, mlp_layer/B, mlp_layer/bias, "
                                           r"mlp_layer/result, mlp_layer/T"):
        C(hk.mlp_layer).partition("U")


# ---- directives files as Vitis and its users write them ---------------------------------------------------

# a block of '#' comment lines, the shape of the header a tool writes atop a directives file (our own words)
VITIS_HEADER = """############################################################
## directives of the matmul solution, exported by the tool
## comments above and between the set_directive lines
############################################################
"""


def round_trips(kernel, schedule) -> str:
    """to_tcl -> from_tcl gives the same C++ and the same file again; to_json -> from_json the same records."""
    tcl = schedule.to_tcl()
    again = C(kernel).from_tcl(tcl)
    assert again.to_tcl() == tcl
    cpp = schedule.build().cpp
    assert again.build().cpp == cpp
    replay = hls.Schedule.from_json(kernel, schedule.to_json())
    assert replay.records == schedule.records and replay.build().cpp == cpp
    return tcl


def test_vitis_written_file_of_a_matmul():
    text = VITIS_HEADER + """set_directive_array_partition -type cyclic -factor 2 -dim 1 "mm_ijk" B
set_directive_array_partition -dim 2 -type complete "mm_ijk" A
set_directive_pipeline -II 2 "mm_ijk/J"
set_directive_unroll -factor 3 "mm_ijk/K"
set_directive_loop_flatten -off mm_ijk/I
"""
    schedule = C(hk.mm_ijk).from_tcl(text)
    cpp = schedule.build().cpp
    for pragma in ("array_partition variable=B type=cyclic factor=2 dim=1", "pipeline II=2", "unroll factor=3",
                   "array_partition variable=A type=complete dim=2", "loop_flatten off"):
        assert f"#pragma HLS {pragma}" in cpp
    tcl = round_trips(hk.mm_ijk, schedule)
    assert 'set_directive_unroll -factor 3 "mm_ijk/K"' in tcl
    assert C(hk.mm_ijk).pipeline("J", 2).records == C(hk.mm_ijk).pipeline("J", ii=2).records  # ii by position
    agrees(hk.mm_ijk, schedule.build(), seeds=(0,))


def test_tcl_syntax_a_user_writes():
    """Semicolons, trailing `;#` comments, braces, continuations and CRLF are Tcl; they used to be errors
    (shlex read `;` and `{` as part of the location)."""
    plain = 'set_directive_pipeline -II 1 "mm_ijk/J"\nset_directive_unroll "mm_ijk/K"\n'
    want = C(hk.mm_ijk).from_tcl(plain).records
    spellings = [
        'set_directive_pipeline -II 1 "mm_ijk/J"; set_directive_unroll "mm_ijk/K"',
        'set_directive_pipeline -II 1 {mm_ijk/J} ;# the inner loop\n  # a comment\nset_directive_unroll mm_ijk/K',
        'set_directive_pipeline \\\n    -II 1 \\\n    "mm_ijk/J"\r\nset_directive_unroll "mm_ijk/K"\r\n',
    ]
    for text in spellings:
        assert C(hk.mm_ijk).from_tcl(text).records == want, text
    with pytest.raises(ScheduleError, match=r"<tcl>:2:1: cannot read this Tcl \(Tcl substitution"):
        C(hk.mm_ijk).from_tcl('# factor\nset_directive_unroll -factor $F "mm_ijk/K"\n')
    with pytest.raises(ScheduleError, match=r"<tcl>:2:1: cannot read this Tcl \(missing close-quote\)"):
        C(hk.mm_ijk).from_tcl('\nset_directive_unroll -factor 2 "mm_ijk/K\n\n')
    with pytest.raises(ScheduleError, match=r"<tcl>:1:1: a directives file holds set_directive_\* lines, not 'set'"):
        C(hk.mm_ijk).from_tcl('set F 4\n')
    assert C(hk.mm_ijk).from_tcl("\ufeff" + plain).records == want  # a byte-order mark (a Windows editor's)


def test_options_vitis_has_that_the_schedule_does_not_read_are_errors():
    """They used to swallow the location as their value ('takes a location, got none') or, for a FIFO's
    -type, vanish."""
    cases = {
        'set_directive_pipeline -enable_flush "mm_ijk/J"':
            r"set_directive_pipeline: option -enable_flush is not one hls.customize reads; the options are -II, "
            "-off, -rewind, -style",
        'set_directive_unroll -region "mm_ijk/K"': "option -region is not one",
        'set_directive_dataflow -disable_start_propagation "mm_ijk"': "option -disable_start_propagation is not one "
                                                                      "hls.customize reads; it takes none",
    }
    for text, message in cases.items():
        with pytest.raises(ScheduleError, match=r"<tcl>:1:1: set_directive_\w+: " + message.split(": ")[-1]):
            C(hk.mm_ijk).from_tcl(text)
    lcs = hk.load_compute_store
    assert C(lcs).from_tcl('set_directive_stream -type fifo -depth 32 "load_compute_store" t').records == \
        C(lcs).stream("load_compute_store/t", 32).records
    with pytest.raises(ScheduleError, match="a ping-pong or shared channel is not one"):
        C(lcs).from_tcl('set_directive_stream -type pipo -depth 2 "load_compute_store" t')
    with pytest.raises(ScheduleError, match="set_directive_stream: give the FIFO's -depth"):
        C(lcs).from_tcl('set_directive_stream "load_compute_store" t')


def test_interfaces_of_a_vitis_vadd():
    text = """set_directive_interface -mode m_axi -bundle gmem -offset slave "vadd_axi" a
set_directive_interface -mode m_axi -bundle gmem1 -offset slave -depth 64 "vadd_axi" b
set_directive_interface -mode m_axi -bundle gmem -offset slave "vadd_axi" c
set_directive_loop_tripcount -min 1 -max 64 -avg 32 "vadd_axi/VADD"
set_directive_pipeline -II 1 "vadd_axi/VADD"
"""
    schedule = C(hk.vadd_axi).from_tcl(text)
    cpp = schedule.build().cpp
    assert "#pragma HLS interface mode=m_axi port=b bundle=gmem1 offset=slave depth=64" in cpp
    assert "#pragma HLS loop_tripcount min=1 max=64 avg=32" in cpp
    round_trips(hk.vadd_axi, schedule)
    for port, what in (("n", "scalar argument 'n'"), ("return", "the return port")):
        with pytest.raises(ScheduleError, match=f"<tcl>:1:1: interface: {what} of 'vadd_axi' keeps the protocol"):
            C(hk.vadd_axi).from_tcl(f'set_directive_interface -mode s_axilite "vadd_axi" {port}')


def test_callee_locations_storage_and_inline():
    text = """set_directive_bind_storage -type ram_2p -impl bram "saxpy_sub" buf
set_directive_array_partition -type cyclic -factor 4 -dim 1 "saxpy_sub" buf
set_directive_unroll -factor 4 "saxpy_sub/LOOP"
set_directive_pipeline "top_calls_sub/LOOP"
set_directive_inline -off "saxpy_sub"
"""
    schedule = C(hk.top_calls_sub).from_tcl(text)
    built = schedule.build()
    callee = built.cpp[built.cpp.index("void saxpy_sub"):built.cpp.index("void top_calls_sub")]
    assert "bind_storage variable=buf type=ram_2p impl=bram" in callee and "unroll factor=4" in callee
    assert "#pragma HLS inline off" in callee
    round_trips(hk.top_calls_sub, schedule)
    agrees(hk.top_calls_sub, built, seeds=(0,))


def test_a_clamped_partition_factor_replayed_from_json_warns():
    """Records from JSON have no source line: the clamp warning used to crash (loc None) instead."""
    schedule = C(hk.mm_ijk)
    with pytest.warns(DirectiveWarning, match="factor 7 exceeds the dimension size 6"):
        schedule.partition("B", "cyclic", factor=7, dim=1)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        replay = hls.Schedule.from_json(hk.mm_ijk, schedule.to_json())
    assert replay.records == schedule.records
    assert any("factor 7 exceeds" in str(w.message) for w in seen)


def test_dataflow_and_fifo_depth_from_a_schedule():
    """load/compute/store without hls.dataflow(): as written it fills FIFO `s` with no reader; the schedule's
    region runs (Python mode and csim agree)."""
    text = """set_directive_dataflow "load_compute_store"
set_directive_stream -depth 4 "load_compute_store" t
set_directive_pipeline -II 1 "square/SQ"
"""
    schedule = C(hk.load_compute_store).from_tcl(text)
    built = schedule.build()
    assert "#pragma HLS dataflow" in built.cpp and "#pragma HLS stream variable=t depth=4" in built.cpp
    built.verify(trials=1)
    round_trips(hk.load_compute_store, schedule)


# ---- the exported project's directives.tcl, and the CLI ---------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
STANDINS = ROOT / "tests" / "fixtures" / "vitis_standins.tcl"
KERNELS = ROOT / "tests" / "kernels" / "hidden_schedule_kernels.py"


def standin_calls(project: Path, log: Path) -> list[list[str]]:
    """The Tcl commands run_hls.tcl runs, each checked against its documented options by the stand-ins."""
    run = subprocess.run(["tclsh", str(STANDINS), str(log), str(project / "run_hls.tcl"), "csim"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return [line.split("\x1f") for line in log.read_text().splitlines()]


def cpp_labels(cpp: str) -> set[str]:
    return {line.split(":")[0].strip() for line in cpp.splitlines() if ": for (" in line or ": while (" in line}


def test_exported_directives_name_the_loops_the_cpp_has(tmp_path):
    """A directive given before a fusion or a split: directives.tcl used to locate it at the loop it was
    given on (`scale_bias/SCALE`), which the exported C++ no longer has, so Vitis would not apply it."""
    schedule = (C(hk.scale_bias).pipeline("SCALE", ii=1).unroll("BIAS", factor=2).fuse("SCALE", "BIAS")
                .split("SCALE_BIAS", 5, tail=True).partition("x", "cyclic", factor=2))
    project = schedule.build().export(tmp_path / "prj", directives="tcl")
    cpp = (project / "src" / "scale_bias.cpp").read_text()
    assert not any(f"#pragma HLS {d}" in cpp for d in ("pipeline", "unroll", "array_partition"))
    calls = [c for c in standin_calls(project, tmp_path / "log") if c[0].startswith("set_directive_")]
    located = {(c[0], c[-1]) for c in calls if c[0] != "set_directive_array_partition"}
    assert located == {(f"set_directive_{d}", f"scale_bias/{loop}") for d in ("pipeline", "unroll")
                       for loop in ("SCALE_BIAS_inner", "SCALE_BIAS_tail")}
    assert {c[-1].split("/")[1] for c in calls if "/" in c[-1]} <= cpp_labels(cpp)
    assert ["set_directive_array_partition", "-type", "cyclic", "-factor", "2", "-dim", "1", "scale_bias", "x"] \
        in calls
    made = make(project, "csim")
    assert made.returncode == 0 and "PASS:" in made.stdout, made.stdout + made.stderr
    # the estimate is the whole schedule's, as with the pragmas inline
    assert schedule.build(directives_tcl=True).report().to_dict() == schedule.build().report().to_dict()


def test_a_scheduled_directive_replaces_the_kernels_pragma_in_the_exported_cpp():
    """The kernel says pipeline II=1 on COL, the schedule II=2: the C++ beside directives.tcl must not keep
    the kernel's II=1 (a pragma and a Tcl directive on one loop conflict in Vitis)."""
    inline = ck.make_matmul(True, 8)
    built = C(inline).pipeline("COL", ii=2).build(directives_tcl=True)
    assert "#pragma HLS pipeline" not in built.cpp
    assert "#pragma HLS unroll" in built.cpp  # the kernel's own directives the schedule left alone stay
    assert 'set_directive_pipeline -II 2 "matmul/COL"' in built.directives_tcl


def test_export_keeps_a_region_fifo_depths_and_port_protocols_in_the_cpp(tmp_path):
    """dataflow and FIFO depths change what Python mode and C simulation run (the export's golden vectors
    used to deadlock: 'write to the full stream'); an interface replaces the flow's default port pragma,
    which would otherwise conflict with the Tcl line."""
    schedule = C(hk.load_compute_store).dataflow().stream("t", 4).pipeline("square/SQ", ii=1)
    project = schedule.build().export(tmp_path / "lcs", directives="tcl")
    cpp = (project / "src" / "load_compute_store.cpp").read_text()
    assert "#pragma HLS dataflow" in cpp and "#pragma HLS stream variable=t depth=4" in cpp
    directives = (project / "directives.tcl").read_text()
    assert "# In the C++ as pragmas (a region, FIFO depths and port protocols): dataflow(None); stream('t', " \
           "depth=4)" in directives
    assert 'set_directive_pipeline -II 1 "square/SQ"' in directives and "set_directive_dataflow" not in directives
    made = make(project, "csim")
    assert made.returncode == 0 and "PASS:" in made.stdout, made.stdout + made.stderr
    vadd = C(hk.vadd_axi).interface("a", "m_axi", bundle="gmem", offset="slave").build(directives_tcl=True)
    assert "#pragma HLS interface mode=m_axi port=a bundle=gmem offset=slave" in vadd.cpp
    assert "port=a\n" not in vadd.cpp and "set_directive_interface" not in vadd.directives_tcl


def test_python_m_hls_with_a_vitis_directives_file(tmp_path):
    """`python -m hls` (there was no hls/__main__.py) on emit, csim, report and export with --schedule FILE.tcl."""
    tcl = tmp_path / "conv.tcl"
    tcl.write_text('# conv\nset_directive_pipeline -II 1 "conv2d/OX"\n'
                   'set_directive_array_partition -type complete -dim 0 "conv2d" w\n'
                   'set_directive_array_partition -type cyclic -factor 3 -dim 2 "conv2d" img\n')
    target = f"{KERNELS}:conv2d"

    def hls_cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "hls", *args], capture_output=True, text=True, timeout=300,
                              cwd=ROOT)

    emit = hls_cli("emit", target, "--schedule", str(tcl))
    assert emit.returncode == 0, emit.stderr
    assert "#pragma HLS array_partition variable=w type=complete dim=0" in emit.stdout
    csim = hls_cli("csim", target, "--schedule", str(tcl))
    assert csim.returncode == 0 and "csim matches the golden model" in csim.stdout, csim.stderr
    report = hls_cli("report", target, "--schedule", str(tcl), "--json")
    assert report.returncode == 0 and '"target_ii": 1' in report.stdout, report.stderr
    out = tmp_path / "prj"
    export = hls_cli("export", target, "--schedule", str(tcl), "--directives", "tcl", "-o", str(out))
    assert export.returncode == 0, export.stderr
    assert 'set_directive_pipeline -II 1 "conv2d/OX"' in (out / "directives.tcl").read_text()
    bad = tmp_path / "bad.tcl"
    bad.write_text('set_directive_pipeline -enable_flush "conv2d/OX"\n')
    refused = hls_cli("emit", target, "--schedule", str(bad))
    assert refused.returncode == 2 and "option -enable_flush is not one hls.customize reads" in refused.stderr


def test_a_json_schedule_of_another_kernel_is_refused():
    """jacobi and mm_ijk both have loops I and J: the schedule would have applied silently."""
    text = C(hk.jacobi).pipeline("J").to_json()
    with pytest.raises(ScheduleError, match="schedule JSON: the schedule was written for kernel 'jacobi', not "
                                            "'mm_ijk'"):
        hls.Schedule.from_json(hk.mm_ijk, text)


def test_every_directive_kind_gives_the_inline_cpp_in_the_vitis_flow():
    """interface then partition of an argument, a partition and a bind_storage of locals (one declared in a
    loop), unroll, tripcount of a run-time bound, pipeline and loop_flatten: the inline spelling's C++ byte
    for byte, and again from to_tcl() and to_json()."""
    inline, plain = hk.make_window(True), hk.make_window(False)
    schedule = (C(plain).interface("x", "ap_memory").interface("y", "ap_memory").partition("x", "cyclic", factor=4)
                .partition("taps", "complete").unroll("INIT").loop_tripcount("MAIN", 0, 31, avg=16)
                .pipeline("MAIN", ii=1).bind_storage("tmp", "ram_1p", impl="lutram").pipeline("BACK", ii=2)
                .loop_flatten("BACK", off=True))
    built = schedule.build()
    assert built.cpp == inline.cpp
    assert built.report().to_dict() == inline.report().to_dict()
    assert round_trips(plain, schedule).count("set_directive_") == 10
    assert C(plain).from_tcl(schedule.to_tcl()).build().cpp == inline.cpp
    agrees(plain, built, seeds=(0,))


def test_every_directive_kind_passes_the_vitis_standins(tmp_path):
    """The export's directives.tcl with every kind and flag (-off, -rewind, -style, -skip_exit_check) is
    accepted by the stand-ins, which check each set_directive_* against its documented options."""
    schedule = (C(hk.make_window(False)).interface("x", "ap_memory").interface("y", "ap_memory")
                .partition("x", "cyclic", factor=4).partition("taps", "complete").unroll("INIT")
                .loop_tripcount("MAIN", 0, 31, avg=16).pipeline("MAIN", ii=1)
                .bind_storage("tmp", "ram_1p", impl="lutram").pipeline("BACK", ii=2).loop_flatten("BACK", off=True)
                .inline(off=True).split("FILL", 3, tail=True).pipeline("FILL_inner", rewind=True, style="flp")
                .unroll("TAP", factor=2, skip_exit_check=True))
    project = schedule.build().export(tmp_path / "w", directives="tcl")
    calls = [c for c in standin_calls(project, tmp_path / "log") if c[0].startswith("set_directive_")]
    assert len(calls) == 11
    assert ["set_directive_pipeline", "-rewind", "-style", "flp", "window/FILL_inner"] in calls
    assert ["set_directive_inline", "-off", "window"] in calls
    cpp = (project / "src" / "window.cpp").read_text()
    assert {c[-1].split("/")[1] for c in calls if "/" in c[-1]} <= cpp_labels(cpp)


def test_a_to_tcl_file_written_after_transformations_says_to_make_them_first():
    schedule = C(hk.jacobi).tile(["I", "J"], [4, 5]).pipeline("J_inner")
    text = schedule.to_tcl()
    with pytest.raises(hls.HLSError, match=r"(?s)no loop named 'jacobi/J_inner'.*note: the file was written after "
                                           r"the loop transformations tile\(\['I', 'J'\], factors=\(4, 5\)\)"):
        C(hk.jacobi).from_tcl(text)
    again = C(hk.jacobi).tile(["I", "J"], [4, 5]).from_tcl(text)
    assert again.build().cpp == schedule.build().cpp


def conv_space(split: int, unroll: int, banks: int) -> hls.Schedule:
    """A space over a split factor, an unroll factor and a partition, with no edit of conv2d."""
    schedule = C(hk.conv2d).split("OX", split, tail=True).pipeline("OX_inner", ii=1)
    if unroll > 1:
        schedule.unroll("OX_inner/kx", factor=unroll)
    return schedule.partition("img", "cyclic", factor=banks, dim=2) if banks > 1 else schedule


def test_explore_a_schedule_space_and_explain_a_step():
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        result = hls.explore(conv_space, {"split": [7, 9], "unroll": [1, 3], "banks": [1, 3]}, executor=pool)
    rows = {tuple(row.params.values()): row for row in result.rows}
    assert all(rows[(7, u, b)].error is None for u in (1, 3) for b in (1, 3))
    assert all("the factor must be an integer from 1 to the trip count 7" in str(rows[(9, u, b)].error)
               for u in (1, 3) for b in (1, 3))  # a point the schedule refuses is a row's error, not a crash
    assert rows[(7, 3, 3)].latency_max < rows[(7, 1, 1)].latency_max
    text = conv_space(7, 3, 3).explain()
    lines = text.splitlines()
    assert lines[0] == "hls.customize(conv2d): the estimate after each primitive"
    steps = [line.split("|")[2].strip() for line in lines if line.strip().startswith("| ") and "after" not in line]
    assert steps == ["(as written)", "split('OX', factor=7, tail=True)", "pipeline('OX_inner', ii=1)",
                     "unroll('OX_inner/kx', factor=3)", "array_partition('img', type='cyclic', factor=3, dim=2)"]
    assert "conv2d/OY gone" in text or "conv2d/OX gone" in text  # the split loop is reported gone


def test_names_shared_by_two_callees_list_the_candidates():
    with pytest.raises(hls.HLSError, match=r"loop name 'LOOP' is ambiguous: it matches saxpy_sub/LOOP \(variable i\), "
                                           r"negate_sub/LOOP \(variable i\); use a path or a label"):
        C(hk.two_subs).pipeline("LOOP")
    with pytest.raises(hls.HLSError, match="array name 'buf' is ambiguous: it is an array of saxpy_sub, negate_sub; "
                                           "name it as 'function/array'"):
        C(hk.two_subs).partition("buf")
    schedule = (C(hk.two_subs).pipeline("negate_sub/LOOP").partition("saxpy_sub/buf", "cyclic", factor=2)
                .fuse("saxpy_sub/LOOP", "saxpy_sub/ADD").pipeline("OUT"))
    tcl = schedule.to_tcl()
    assert 'set_directive_pipeline "negate_sub/OUT"' in tcl and '"saxpy_sub" buf' in tcl
    agrees(hk.two_subs, schedule.build(), seeds=(0,))


@pytest.mark.parametrize(("shape", "types"), [((16, 32, 8), (hls.int32, hls.int32)),
                                              ((8, 12, 10), (hls.float32, hls.float32))])
def test_rectangular_matmuls_reach_ii_1_through_customize_alone(shape, types):
    plain, inline = ck.make_matmul(False, shape=shape, types=types), ck.make_matmul(True, shape=shape, types=types)
    schedule = (C(plain).pipeline("COL", ii=1).unroll("k").partition("A", "complete", dim=2)
                .partition("B", "complete", dim=1))
    built = schedule.build()
    assert built.cpp == inline.cpp
    assert [(loop.label, loop.ii) for loop in built.report().loops] == [("ROW_COL", 1)]
    assert C(plain).from_tcl(schedule.to_tcl()).build().cpp == inline.cpp
    assert hls.Schedule.from_json(plain, schedule.to_json()).build().cpp == inline.cpp
    agrees(plain, built, seeds=(0,))


def test_a_mistyped_schedule_path_is_no_such_file(tmp_path):
    """It used to be read as text ('holds set_directive_* lines, not ...', 'not JSON') or a FileNotFoundError."""
    missing = tmp_path / "nope"
    for call in (lambda: C(hk.mm_ijk).from_tcl(str(missing / "directives.tcl")),
                 lambda: C(hk.mm_ijk).from_tcl(missing / "directives.tcl")):
        with pytest.raises(ScheduleError, match=r"cannot read the directives file '.*directives.tcl': No such file"):
            call()
    for call in (lambda: hls.Schedule.from_json(hk.mm_ijk, str(missing / "s.json")),
                 lambda: hls.Schedule.from_json(hk.mm_ijk, missing / "s.json")):
        with pytest.raises(ScheduleError, match=r"cannot read the schedule file '.*s.json': No such file"):
            call()


def test_a_rom_of_a_module_level_array_is_named_as_in_python():
    """The inline hls.array_partition(COEFFS, ...) partitions the ROM a module-level numpy array becomes;
    the schedule used to say 'no array named COEFFS'."""
    plain = hk.make_fir_rom(False)
    schedule = C(plain).partition("COEFFS", "complete").partition("window", "complete")
    built = schedule.build()
    cpp = built.cpp
    rom = cpp.index("static const int16_t COEFFS[8]")
    assert rom < cpp.index("#pragma HLS array_partition variable=COEFFS type=complete dim=1")  # after its declaration
    assert "#pragma HLS array_partition variable=window type=complete dim=1" in cpp
    assert 'set_directive_array_partition -type complete -dim 1 "fir_rom" COEFFS' in round_trips(plain, schedule)
    assert "#pragma HLS array_partition" not in schedule.build(directives_tcl=True).cpp
    agrees(plain, built, seeds=(0,))
    assert "bind_storage variable=COEFFS type=rom_1p impl=lutram" in \
        C(plain).bind_storage("COEFFS", "rom_1p", impl="lutram").build().cpp
