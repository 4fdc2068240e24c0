"""The timed dataflow region in k.report(), k.size_fifos() and `hls report --size-fifos`."""

import subprocess
import sys
import time

import numpy as np
import pytest

import hls
from hls.kernel import Kernel
from hls.report.report import LoopReport, ScheduledOp
from hls.schedule.dataflow import nominal_cycles
from tests.conftest import ROOT, load_example
from tests.kernels import stream_kernels as sk

FORK_JOIN = ROOT / "examples" / "fork_join.py"


@pytest.fixture(scope="module")
def fork_join():
    return load_example(FORK_JOIN)


def test_pipelined_access_issues_at_iteration_start_plus_op_start():
    loop = LoopReport("loop_i", "f.py", 3, ii=2, depth=5, ops=[ScheduledOp("fifo_write", 3, 1, line=4)])
    events = [("L", ("f.py", 3))]
    for _ in range(3):
        events += [("I", ("f.py", 3)), ("A", "s", True, 4)]
    events.append(("X", ("f.py", 3)))
    accesses, end = nominal_cycles(events, {("f.py", 3): loop})
    assert [a[2] for a in accesses] == [3, 5, 7]  # i*II + 3
    assert end == (3 - 1) * 2 + 5 + 1


def test_sequential_loop_iterations_follow_the_iteration_latency():
    loop = LoopReport("loop_j", "f.py", 9, ii=None, depth=4)
    events = [("L", ("f.py", 9))] + [e for _ in range(3) for e in (("I", ("f.py", 9)), ("A", "s", False, 10))]
    accesses, _ = nominal_cycles(events + [("X", ("f.py", 9))], {("f.py", 9): loop})
    assert [a[2] for a in accesses] == [0, 4, 8]


def test_report_times_the_region_with_overlapping_processes():
    example = load_example(ROOT / "examples" / "stream_pipeline.py")
    report = example.KERNEL.report()
    sequential = sum(n.latency_max for n in report.nodes if n.name in ("load", "scale", "store"))
    assert report.dataflow is not None and report.dataflow.deadlock is None
    assert report.latency_max == report.dataflow.latency < sequential / 2  # the three stages overlap
    names = [p.name for p in report.dataflow.processes]
    assert names == ["load", "scale", "store"]
    assert all(loops == [("loop_i", 1)] for loops in (p.loops for p in report.dataflow.processes))
    fifo = {f.name: f for f in report.dataflow.fifos}
    assert set(fifo) == {"s1", "s2"} and fifo["s1"].depth == 2 and fifo["s1"].width == 16
    assert fifo["s1"].impl == "SRL" and fifo["s1"].resources.lut > 0
    data = report.to_dict()["dataflow"]
    assert data["fifos"][1]["name"] == "s2" and data["processes"][0]["loops"] == [{"label": "loop_i", "ii": 1}]
    assert "+ Dataflow" in str(report)


def test_report_shows_the_deadlock_at_declared_depths(fork_join):
    report = fork_join.fork_join.report()
    assert report.dataflow.latency is None
    assert "fork waits on bypass (full)" in report.dataflow.deadlock


def test_size_fifos_gives_the_bypass_every_sample_without_rerunning_python(fork_join, monkeypatch):
    k = fork_join.fork_join
    k.dataflow_trace()  # recorded once
    calls = []
    monkeypatch.setattr(type(k), "__call__", lambda self, *a: calls.append(a))
    start = time.perf_counter()
    depths = k.size_fifos()
    assert time.perf_counter() - start < 1.0 and not calls
    assert depths["bypass"] == fork_join.N
    assert depths["a"] <= 2 and depths["t"] <= 2
    monkeypatch.undo()
    # with the sized depths the region runs in Python mode and csim
    x = np.arange(fork_join.N, dtype=np.int16)
    y = np.zeros(fork_join.N, dtype=np.int32)
    fork_join.centered(x, y)
    assert list(y) == [int(v) * fork_join.N - int(x.astype(np.int64).sum()) for v in x]


def test_size_fifos_needs_a_region():
    with pytest.raises(hls.HLSError, match="no dataflow region"):
        sk.passthrough.size_fifos()


def test_cli_size_fifos():
    out = subprocess.run([sys.executable, "-m", "hls.cli", "report", "--size-fifos", f"{FORK_JOIN}:fork_join"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("bypass"))
    assert row.split()[:3] == ["bypass", "2", "64"]


def test_three_streaming_stages_overlap():
    """1024 items through three II=1 stages: about 1024 cycles, not 3 x 1024."""
    report = sk.three_stages.report()
    sequential = sum(n.latency_max for n in report.nodes if n.name.startswith("stage_"))
    assert sequential > 3 * 1024
    assert 1024 <= report.dataflow.latency < 1100 and 1024 <= report.dataflow.interval < 1100
    assert report.latency_max == report.dataflow.latency


def test_a_fifo_takes_one_access_per_cycle():
    loop = sk.two_reads.report().loops[0]
    assert loop.ii == 2 and loop.limiter.startswith("2 reads per iteration of FIFO `x`, one item per cycle")


def dataflow_kernels() -> list:
    """Every dataflow region among the examples (each kernel whose body calls hls.dataflow()), and the
    test regions whose processes share only a ping-pong array."""
    from tests.conftest import EXAMPLES

    found = [pytest.param(p, name, id=f"{p.stem}.{name}") for p in EXAMPLES
             for name, k in vars(load_example(p)).items()
             if isinstance(k, Kernel) and "hls.dataflow()" in _source(k)]
    return found + [pytest.param(None, name, id=name) for name in ("pingpong", "pingpong_with_fifo", "outer_region")]


def _source(k) -> str:
    import inspect

    return inspect.getsource(k.__hls_kernel__)


@pytest.mark.parametrize("path,name", dataflow_kernels())
def test_numpy_and_python_golden_models_give_one_report(path, name, monkeypatch):
    """report() times the region from the statement-by-statement run whatever model k(...) uses (the
    numpy one records no trace: a ping-pong-only region raised AttributeError under it)."""
    reports = {}
    for model in ("numpy", "python"):
        monkeypatch.setenv("HLS_GOLDEN", model)
        module = load_example(path) if path is not None else sk
        k = getattr(module, name).specialize()  # a fresh kernel: nothing cached from the other model
        reports[model] = k.report().to_dict()
        assert reports[model]["dataflow"] is not None, reports[model]["notes"]
    assert reports["numpy"] == reports["python"]


def test_a_ping_pong_region_runs_under_the_numpy_model_and_still_reports(monkeypatch):
    monkeypatch.setenv("HLS_GOLDEN", "numpy")
    k = sk.pingpong.specialize()
    assert k.golden_model == "numpy"
    report = k.report()
    assert [p.name for p in report.dataflow.processes] == ["loop_i", "loop_j"]


def test_a_load_balance_region_says_its_timing_is_one_interleavings():
    """Where an item goes follows its arrival in RTL; the trace holds one Python-mode run's routing."""
    from tests.kernels import channel_kernels as ck

    notes = [n for n in ck.balanced.report().notes if "by arrival" in n]
    assert len(notes) == 1
    assert "split_s" in notes[0] and "merge_out" in notes[0] and "deadlocks" in notes[0]
    assert not [n for n in ck.farm.report().notes if "by arrival" in n]  # round robin routes by count
