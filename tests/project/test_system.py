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


def test_the_three_kernel_system_passes_on_the_mock_xrt(exported):
    run = run_host_sim(exported)
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    keys = parse_link_cfg((exported / "link.cfg").read_text())
    assert keys["nk"] == ["load:1:load_1", "scale:1:scale_1", "store:1:store_1"]
    assert keys["sp"] == ["load_1.src:DDR[0]", "store_1.dst:DDR[1]"]
    assert keys["stream_connect"] == ["load_1.out:scale_1.inp:2", "scale_1.out:store_1.inp:2"]
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
