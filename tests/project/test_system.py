"""hls.System (issue 26): the linter's rules with the line of the System call, Python mode on the dataflow
scheduler (bounded FIFOs, deadlock reported), the export (link.cfg, one host program) run to PASS on the
mock XRT, FAIL with a corrupted golden vector."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import hls
from hls.project.system_lint import SystemError_
from tests.conftest import ROOT
from tests.project.test_host import parse_link_cfg

N = 16


@hls.kernel
def src_k(a: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def mid_k(inp: hls.stream[hls.int16], out: hls.stream[hls.int16]):
    for _ in range(N):
        out.write(inp.read() + 1)


@hls.kernel
def sink_k(inp: hls.stream[hls.int16], b: hls.int16[N]):
    for i in range(N):
        b[i] = inp.read()


@hls.kernel
def wide_sink(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = inp.read()


@hls.kernel
def greedy_sink(inp: hls.stream[hls.int16], b: hls.int16[N]):
    for i in range(N):
        b[i] = inp.read() + inp.read()  # reads twice what src_k writes


GOOD = [("src_k.out", "mid_k.inp"), ("mid_k.out", "sink_k.inp")]


def make_system(**kw):
    return hls.System(kw.pop("kernels", [src_k, mid_k, sink_k]), connect=kw.pop("connect", GOOD), **kw)


@pytest.mark.parametrize("kw,message", [
    ({"connect": [("src_k.nope", "mid_k.inp"), ("mid_k.out", "sink_k.inp")]}, "has no port 'nope'"),
    ({"connect": [("mid_k.inp", "src_k.out"), ("mid_k.out", "sink_k.inp")]}, "(direction)"),
    ({"kernels": [src_k, wide_sink], "connect": [("src_k.out", "wide_sink.inp")]}, "(width)"),
    ({"connect": GOOD + [("src_k.out", "sink_k.inp")]}, "connected twice"),
    ({"kernels": [mid_k], "connect": [("mid_k.out", "mid_k.inp")]}, "connected to itself"),
    ({"memory": {"src_k.a": "HBM[0]"}}, "has no such bank"),
    ({"memory": {"src_k.a": "DDR[7]"}}, "has no such bank"),
    ({"memory": {"src_k.out": "DDR[0]"}}, "is not a memory"),
    ({"connect": GOOD[:1]}, "is not connected"),
    ({"compute_units": {"mid_k": 2}}, "one compute unit"),
])
def test_linter_refuses_with_the_line_of_the_call(kw, message):
    with pytest.raises(SystemError_) as info:
        make_system(**kw)
    assert message in str(info.value)
    assert info.value.loc.file == __file__  # the System(...) call: make_system's line in this file


@hls.task
def src_task(a: hls.int16[N], out: hls.stream[hls.int16]):
    out.write(a[0])


def test_a_free_running_kernel_with_a_memory_port_is_refused():
    """@hls.task sets Kernel.free_running; a free-running kernel has no start, so no memory port (UG1393).
    The task's own rule refuses it first, at the argument, when the System compiles its kernels."""
    assert src_task.free_running and not src_k.free_running
    with pytest.raises(hls.HLSError, match="argument 'a' is int16\\[16\\]; a task's arguments are streams") as info:
        hls.System([src_task, mid_k, sink_k], connect=[("src_task.out", "mid_k.inp"), ("mid_k.out", "sink_k.inp")])
    assert info.value.loc.file == __file__


def test_hbm_banks_on_an_hbm_platform():
    system = make_system(memory={"src_k.a": "HBM[3]", "sink_k.b": "HBM[0:1]"}, platform="u280")
    assert system.memory == {"src_k.a": "HBM[3]", "sink_k.b": "HBM[0:1]"}


def test_python_mode_runs_the_system():
    a = np.arange(N, dtype=np.int16) * 5
    out = make_system().run(inputs={"src_k": [a, hls.Stream(hls.int16, [])], "mid_k": None,
                                    "sink_k": [hls.Stream(hls.int16, []), np.zeros(N, np.int16)]})
    assert np.array_equal(out["sink_k"][0][1], a + 1)


def test_python_mode_runs_the_example_system_with_its_task():
    spec = importlib.util.spec_from_file_location("system_pipeline_py", ROOT / "examples" / "system_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    src = (np.arange(module.N, dtype=np.int16) * 7 - 100).astype(np.int16)
    out = module.SYSTEM.run(inputs={"load": [src, hls.Stream(hls.int16, [])], "scale": None,
                                    "store": [hls.Stream(hls.int32, []), np.zeros(module.N, np.int32)]})
    assert np.array_equal(out["store"][0][1], src.astype(np.int64) * 3 + 1)  # the task ran once per item


def test_python_mode_reports_a_deadlock_naming_the_processes():
    system = hls.System([src_k, greedy_sink], connect=[("src_k.out", "greedy_sink.inp")])
    with pytest.raises(hls.DeadlockError, match="greedy_sink"):
        system.run()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("system_pipeline", ROOT / "examples" / "system_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SYSTEM.export(tmp_path_factory.mktemp("system") / "pipeline", seed=3)


def run_host_sim(project):
    env = {k: v for k, v in os.environ.items() if k not in ("XILINX_HLS", "MAKEFLAGS")}
    return subprocess.run(["make", "-C", str(project), "host-sim", f"PYTHON={sys.executable}"], capture_output=True,
                          text=True, env=env, timeout=900)


def run_host_py(project):
    env = {k: v for k, v in os.environ.items() if k not in ("XILINX_HLS", "MAKEFLAGS")}
    return subprocess.run([sys.executable, str(project / "host" / "host.py"), "--sim"], capture_output=True,
                          text=True, env={**env, "PYTHON": sys.executable}, timeout=900)


def test_host_py_runs_the_system_on_the_mock_pyxrt(exported):
    """host/host.py: the same steps as host.cpp with pyxrt (xrt.run, set_arg, start, wait), on the mock pyxrt
    that runs the kernels in stream order, the free-running one as items reach it."""
    run = run_host_py(exported)
    assert run.returncode == 0 and "PASS: pipeline" in run.stdout, run.stdout + run.stderr
    host = (exported / "host" / "host.py").read_text()
    assert "'top': 'scale'" in host and "'free': True" in host  # listed, never started


def test_the_three_kernel_system_passes_on_the_mock_xrt(exported):
    run = run_host_sim(exported)
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    keys = parse_link_cfg((exported / "link.cfg").read_text())
    assert keys["nk"] == ["load:1:load_1", "scale:1:scale_1", "store:1:store_1"]
    assert keys["sp"] == ["load_1.src:DDR[0]", "store_1.dst:DDR[1]"]
    # no depths given: the sized ones (three II=1 loops at one item a cycle: a FIFO of one keeps the latency)
    assert keys["stream_connect"] == ["load_1.out:scale_1.inp:1", "scale_1.out:store_1.inp:1"]
    assert "free scale" in (exported / "build" / "host_sim" / "mock.xclbin").read_text()
    host = (exported / "host" / "host.cpp").read_text()
    assert "kernel_scale" not in host  # the free-running kernel is never opened by the host


def test_a_corrupted_golden_vector_fails(exported, tmp_path):
    import shutil

    project = tmp_path / "p"
    shutil.copytree(exported, project)
    golden = project / "tb" / "data" / "store" / "dst.golden.dat"
    lines = golden.read_text().splitlines()
    lines[5] = str(int(lines[5]) + 1)
    golden.write_text("\n".join(lines) + "\n")
    run = run_host_sim(project)
    assert run.returncode != 0 and "MISMATCH store.dst[5]" in run.stdout, run.stdout + run.stderr
    run = run_host_py(project)
    assert run.returncode == 1 and "MISMATCH store.dst[5]" in run.stdout and "FAIL:" in run.stdout, run.stdout


def test_link_cfg_compute_units_and_slr_for_old_vitis(tmp_path):
    @hls.kernel
    def vscale(a: hls.int32[8], b: hls.int32[8]):
        for i in range(8):
            b[i] = a[i] * 2
    system = hls.System([vscale], compute_units={"vscale": 2}, memory={"vscale.a": "DDR[1]"}, slr={"vscale": "SLR0"})
    project = system.export(tmp_path / "p", vitis_version="2021.2")
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert keys["nk"] == ["vscale:2:vscale_1.vscale_2"]  # '.' before Vitis 2022.2
    assert keys["sp"] == ["vscale_1.a:DDR[1]", "vscale_2.a:DDR[1]"]
    assert keys["slr"] == ["vscale_1:SLR0", "vscale_2:SLR0"]


# ---- FIFO depths of stream_connect: sized by this project's FIFO sizing unless given --------------------


@hls.kernel
def split_k(a: hls.int16[N], x: hls.stream[hls.int16], y: hls.stream[hls.int16]):
    for i in range(N):
        x.write(a[i])
        y.write(a[i] + 1)


@hls.kernel
def join_k(x: hls.stream[hls.int16], y: hls.stream[hls.int16], b: hls.int16[2 * N]):
    for i in range(N):  # all of x first, then all of y: y must hold what split_k writes meanwhile
        b[i] = x.read()
    for i in range(N):
        b[N + i] = y.read()


RECONVERGE = [("split_k.x", "join_k.x"), ("split_k.y", "join_k.y")]


def reconverge_inputs():
    a = (np.arange(N, dtype=np.int16) * 3 - 7).astype(np.int16)
    return {"split_k": [a, hls.Stream(hls.int16, []), hls.Stream(hls.int16, [])],
            "join_k": [hls.Stream(hls.int16, []), hls.Stream(hls.int16, []), np.zeros(2 * N, np.int16)]}


def test_sized_depths_are_the_smallest_that_run_and_reach_link_cfg(tmp_path):
    system = hls.System([split_k, join_k], connect=RECONVERGE)
    depth_x, depth_y = system.fifo_depths()
    # Python mode is the independent check: the sized depths run; y needs N - 1 places (split_k's last write
    # to y may wait until join_k turns to y, but its N - 1 writes before that cannot), so N - 2 deadlocks;
    # the sizing keeps the latency of unbounded FIFOs, so y may take one more (never more than the N it carries)
    out = system.run(inputs=reconverge_inputs())
    a = reconverge_inputs()["split_k"][0].astype(np.int64)
    assert np.array_equal(out["join_k"][0][2], np.concatenate([a, a + 1]))
    assert N - 1 <= depth_y <= N and depth_x <= 2
    system.run(inputs=reconverge_inputs(), depths=[depth_x, N - 1])
    with pytest.raises(hls.DeadlockError):
        system.run(inputs=reconverge_inputs(), depths=[depth_x, N - 2])
    project = system.export(tmp_path / "p")
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert keys["stream_connect"] == [f"split_k_1.x:join_k_1.x:{depth_x}", f"split_k_1.y:join_k_1.y:{depth_y}"]


def test_given_depths_win(tmp_path):
    system = hls.System([split_k, join_k], connect=RECONVERGE, depths=[4, 32])
    assert system.fifo_depths() == [4, 32]
    keys = parse_link_cfg((system.export(tmp_path / "p").joinpath("link.cfg")).read_text())
    assert keys["stream_connect"] == ["split_k_1.x:join_k_1.x:4", "split_k_1.y:join_k_1.y:32"]
    with pytest.raises(hls.DeadlockError):  # too shallow for y: the given depth is used, not the sized one
        hls.System([split_k, join_k], connect=RECONVERGE, depths=[4, 2]).run(inputs=reconverge_inputs())


# ---- a stream of AXI4-Stream packets between two kernels: the mock carries the bridge's storage structs ----

Beat = hls.axis[hls.int16, 4, 0, 0]


@hls.kernel
def beats_src(a: hls.int16[N], out: hls.stream[Beat]):
    for i in range(N):
        out.write(Beat(data=a[i], user=hls.uint4(i), last=hls.uint1(i == N - 1)))


@hls.kernel
def beats_sink(inp: hls.stream[Beat], b: hls.int16[N], u: hls.uint4[N]):
    for i in range(N):
        p = inp.read()
        b[i] = p.data
        u[i] = p.user


def test_a_stream_of_packets_between_kernels_passes(tmp_path):
    project = hls.System([beats_src, beats_sink], connect=[("beats_src.out", "beats_sink.inp")]).export(tmp_path / "p")
    run = run_host_sim(project)
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    run = run_host_py(project)
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    golden = project / "tb" / "data" / "beats_sink" / "u.golden.dat"
    assert golden.read_text().split() == [str(i) for i in range(N)]  # TUSER crossed the link
