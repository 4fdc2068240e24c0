"""@hls.task (hls::task): golden == csim, the normal end (every task idle on an empty input) against
a deadlock, the C++ Vitis reads, the timed simulation, and the refused shapes at their lines."""

import numpy as np
import pytest

import hls
from tests.both_models import assert_deadlocks_in_both, outputs_in_both
from tests.error_marks import assert_error_at_marker
from tests.kernels import task_kernels as tk


def chain_expected(a):
    """What task_chain computes, in plain Python (scale then bump)."""
    out = []
    for x in a.tolist():
        v = x * 3 - 1
        out.append(v + 100 if v > 0 else -v)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_task_chain_golden_csim_and_plain_python_agree(seed):
    a = np.random.default_rng(seed).integers(-50, 50, tk.N).astype(np.int16)
    golden, native = outputs_in_both(tk.task_chain, a, tk.N, np.int32)
    assert golden == native == chain_expected(a)


def test_purely_streaming_region_ends_when_its_input_is_empty():
    values = [3, 4, 7, -2, 9, 10, 0, 1]
    runs = []
    for run in (tk.odds_and_evens, tk.odds_and_evens.csim):
        inp, o1, o2 = hls.Stream(hls.int32, values), hls.Stream(hls.int32), hls.Stream(hls.int32)
        run(inp, o1, o2)  # no DeadlockError: the three tasks idle on empty inputs
        assert len(inp) == 0
        runs.append((np.asarray(o1).tolist(), np.asarray(o2).tolist()))
    odds = [v * 10 + 1 for v in values if v % 2 == 1]
    evens = [v * 10 for v in values if v % 2 == 0]
    assert runs[0] == runs[1] == (odds, evens)


def test_free_running_top_runs_its_body_per_input_and_keeps_state():
    assert tk.running_sum.free_running and not tk.task_chain.free_running
    assert "#pragma HLS interface mode=ap_ctrl_none port=return" in tk.running_sum.cpp
    assert "s_axilite port=return" not in tk.running_sum.cpp
    for run in (tk.running_sum, tk.running_sum.csim):
        tk.running_sum.reset()
        out = hls.Stream(hls.int32)
        run(hls.Stream(hls.int16, [1, 2, 3, -4, 100]), out)
        assert np.asarray(out).tolist() == [1, 3, 6, 2, 102]
    result = tk.running_sum.verify()  # random input streams feed several iterations
    assert len(result["outputs"][1]) > 1


def test_cpp_instantiates_thread_local_tasks_and_channels():
    cpp = tk.task_chain.cpp
    assert '#include "hls_task.h"' in cpp
    assert "hls_thread_local hls::task scale_task(scale, s, t);" in cpp
    assert "hls_thread_local hls::task bump_task(bump, t, u);" in cpp
    assert 'hls_thread_local hls::stream<int16_t> s("s");' in cpp
    assert "#pragma HLS stream variable=u depth=4" in cpp
    assert cpp.index("load(a, s);") < cpp.index("scale_task(") < cpp.index("store(u, b);")
    assert "#pragma HLS interface mode=s_axilite port=return" in cpp  # a region with tasks is still started


@pytest.mark.parametrize("kernel, blocked", [
    (tk.starved, ["process 'pairs' reads the empty FIFO 's'", "process 'store' reads the empty FIFO 't'"]),
    (tk.flooded, ["process 'twice' writes the full FIFO 't'"]),
])
def test_a_task_stuck_other_than_idle_is_a_deadlock_in_both_models(kernel, blocked):
    a = np.arange(tk.N, dtype=np.int16)
    assert_deadlocks_in_both(kernel, lambda: (a, np.zeros(tk.N, np.int32)), blocked)
    with pytest.raises(hls.DeadlockError) as info:
        kernel(a, np.zeros(tk.N, np.int32))
    assert f"{tk.__file__}:" in str(info.value)  # Python mode names the line


def test_timed_simulation_times_task_iterations():
    report = tk.task_chain.report()
    rows = {p.name: p for p in report.dataflow.processes}
    assert set(rows) == {"load", "scale", "bump", "store"}
    assert rows["scale"].loops == [("task scale", None)]
    # each of the N items takes at least one iteration of the task: it ends no earlier than N cycles
    assert rows["scale"].end >= tk.N and rows["bump"].end >= rows["scale"].start + tk.N
    assert report.latency_max == report.dataflow.latency == max(r.end for r in rows.values())
    assert tk.task_chain.size_fifos().keys() == {"s", "t", "u"}
    # a region that deadlocks even with unbounded FIFOs has no trace to time; the report says why
    assert any("not timed" in note and "deadlock" in note for note in tk.starved.report().notes)


@pytest.mark.parametrize("name, exc, fragment", [
    ("task_array_arg", hls.HLSTypeError, "a task's arguments are streams"),
    ("task_scalar_arg", hls.HLSTypeError, "argument 'gain' is int16"),
    ("task_returns", hls.HLSTypeError, "a task never returns"),
    ("task_outside_region", hls.UnsupportedError, "called outside a dataflow region"),
    ("task_in_loop", hls.UnsupportedError, "called outside a dataflow region"),
    ("task_with_region", hls.UnsupportedError, "holds a dataflow region"),
    ("nested_tasks", hls.UnsupportedError, "outermost region only"),
    ("task_two_readers", hls.HLSTypeError, "more than one consumer"),
    ("task_without_read", hls.UnsupportedError, "never blocks on a read"),
])
def test_refused_task_shapes_at_their_line(name, exc, fragment):
    assert_error_at_marker(tk, name, exc, fragment)


def test_exported_free_running_top_passes_make_csim_and_fails_on_a_corrupted_golden(tmp_path):
    from tests.project.test_export import make

    tk.running_sum.reset()
    project = tk.running_sum.export(tmp_path / "running_sum")
    tb = (project / "tb" / "running_sum_tb.cpp").read_text()
    assert "hls_free_running.spawn_task" in tb and "while (!arg_inp.empty())" in tb  # ours, and Vitis's csim
    assert (project / "csim_include" / "hls_task.h").is_file()
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    golden = project / "tb" / "data" / "out.golden.dat"
    values = golden.read_text().split()
    assert len(values) == 16  # the random input stream fed 16 iterations
    values[-1] = str(int(values[-1]) + 1)
    golden.write_text("\n".join(values) + "\n")
    run = make(project, "csim")
    assert run.returncode != 0 and "MISMATCH out[15]" in run.stdout, run.stdout


def test_purely_streaming_region_of_tasks_is_timed():
    """A region of loop-free processes: its FIFOs are copied by the scheduler's straight regions too."""
    timed = tk.odds_and_evens.report().dataflow
    assert timed.latency is not None and timed.latency >= 16  # 16 random items, one per splitter iteration
    assert [p.name for p in timed.processes] == ["splitter", "tag_odd", "tag_even"]
