"""hls.System written as a Vitis user would (issue 26's "other real kernels of the same shapes"): a float32
and an ap_fixed/struct three-kernel system, a memory-only system with compute units and per-unit banks, a
kernel whose dataflow region holds split/merge tasks; malformed arguments each an HLSError at the System
line; deadlock and normal end in Python mode; the v++ steps of a System export with recording stand-ins."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import hls
from hls.project.system_lint import SystemError_
from hls.sim.build import build_shared_library
from tests.project.test_host import PLATFORM, make, make_env, parse_link_cfg

N = 12


def sim_libs(system) -> list[str]:
    """SIM_LIB_<kernel>=<the cached csim build> for every kernel of a System export (hls/sim/build.py's cache)."""
    return [f"SIM_LIB_{top}={build_shared_library(d.sources, tag='csim')}" for top, d in system.designs.items()]


def host_py(project, system):
    env = {**make_env(), **dict(a.split("=", 1) for a in sim_libs(system)), "PYTHON": sys.executable}
    return subprocess.run([sys.executable, str(project / "host" / "host.py"), "--sim"], capture_output=True,
                          text=True, env=env, timeout=600)


# ---- float32 load -> free-running task -> store, on HBM with SLRs ------------------------------------------


@hls.kernel
def fload(src: hls.float32[N], out: hls.stream[hls.float32]):
    for i in range(N):
        hls.pipeline(ii=1)
        out.write(src[i])


@hls.task
def faxpy(inp: hls.stream[hls.float32], out: hls.stream[hls.float32]):
    x = inp.read()
    out.write(x * 2.0 + 0.5)


@hls.kernel
def fstore(inp: hls.stream[hls.float32], dst: hls.float32[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        dst[i] = inp.read()


def float_system():
    return hls.System([fload, faxpy, fstore], connect=[("fload.out", "faxpy.inp"), ("faxpy.out", "fstore.inp")],
                      platform="u280", memory={"fload.src": "HBM[0:3]", "fstore.dst": "HBM[4]"},
                      slr={"fload": "SLR0", "fstore": "SLR2"}, name="faxpy_sys")


@pytest.fixture(scope="module")
def float_project(tmp_path_factory):
    system = float_system()
    return system, system.export(tmp_path_factory.mktemp("fsys") / "p", seed=5)


def test_float_system_python_mode_leaves_out_connected_streams():
    src = np.linspace(-2, 2, N, dtype=np.float32)
    out = float_system().run(inputs={"fload": {"src": src}, "fstore": [np.zeros(N, np.float32)]})
    assert np.array_equal(out["fstore"][0][1], src * np.float32(2.0) + np.float32(0.5))


def test_float_system_link_cfg_and_host_sim(float_project):
    system, project = float_project
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert keys["nk"] == ["fload:1:fload_1", "faxpy:1:faxpy_1", "fstore:1:fstore_1"]
    assert keys["sp"] == ["fload_1.src:HBM[0:3]", "fstore_1.dst:HBM[4]"]  # UG1393: sp=<cu>.<arg>:HBM[a:b]
    assert keys["slr"] == ["fload_1:SLR0", "fstore_1:SLR2"]
    assert [s.rsplit(":", 1)[0] for s in keys["stream_connect"]] == ["fload_1.out:faxpy_1.inp",
                                                                      "faxpy_1.out:fstore_1.inp"]
    run = make(project, "host-sim", *sim_libs(system))
    assert run.returncode == 0 and "PASS: faxpy_sys" in run.stdout, run.stdout + run.stderr


def test_float_system_corrupted_golden_fails_host_py(float_project, tmp_path):
    system, project = float_project
    copy = tmp_path / "p"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("build"))
    golden = copy / "tb" / "data" / "fstore" / "dst.golden.dat"
    lines = golden.read_text().splitlines()
    lines[3] = repr(float(lines[3]) + 1.0)
    golden.write_text("\n".join(lines) + "\n")
    run = host_py(copy, system)
    assert run.returncode == 1 and "MISMATCH fstore.dst[3]" in run.stdout, run.stdout + run.stderr


def test_v_plus_plus_steps_of_a_system(float_project, tmp_path):
    """make xclbin / emconfig with the recording stand-ins: one v++ -c per kernel, then one v++ -l of all."""
    from tests.fixtures.vitis_flow_standins import install

    _, project = float_project
    bin_dir, _ = install(tmp_path / "standins", sys.executable, project / "host" / "sim" / "xrt")
    log = tmp_path / "log"
    env = {**make_env(), "PATH": f"{bin_dir}:{os.environ['PATH']}", "STANDIN_LOG": str(log), "STANDIN_SIM_LIB": "-"}
    for target in ("xclbin", "emconfig"):
        run = make(project, target, "TARGET=hw_emu", f"PLATFORM={PLATFORM}", env=env)
        assert run.returncode == 0, run.stdout + run.stderr
    out = "build/hw_emu"
    objects = " ".join(f"{out}/{k}.xo" for k in ("fload", "faxpy", "fstore"))
    assert log.read_text().splitlines() == [
        *(f"v++ -c -t hw_emu --platform {PLATFORM} -k {k} -I src -o {out}/{k}.xo src/{k}.cpp"
          for k in ("fload", "faxpy", "fstore")),
        f"v++ -l -t hw_emu --platform {PLATFORM} --config link.cfg -o {out}/faxpy_sys.xclbin {objects}",
        f"emconfigutil --platform {PLATFORM} --od {out}",
    ]
    assert "ap_ctrl_none" in (project / "src" / "faxpy.cpp").read_text()  # the free-running kernel


# ---- a memory-only system: two kernels, compute units, per-unit banks, a C keyword argument -----------------


@hls.kernel
def vsum(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N]):
    for i in range(N):
        c[i] = a[i] + b[i]


@hls.kernel
def vneg(a: hls.int32[N], default: hls.int32[N], n: hls.int32) -> hls.int32:
    for i in range(N):
        default[i] = n - a[i]
    return n * 2


def test_memory_only_system_with_compute_units(tmp_path):
    system = hls.System([vsum, vneg], compute_units={"vsum": 2},
                        memory={"vsum.a": "DDR[0]", "vsum_2.a": "DDR[1]", "vneg.default": "DDR[2]"})
    project = system.export(tmp_path / "p")
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert keys["nk"] == ["vsum:2:vsum_1,vsum_2", "vneg:1:vneg_1"]  # ',' from Vitis 2022.2
    # the C argument of `default` (a C++ keyword) is what v++ -l sees; vsum_2's own bank wins over the kernel's
    c_arg = next(p.c_name for p in vneg.compile().design.ports if p.name == "default")
    assert c_arg != "default" and f"{c_arg}[{N}]" in (project / "src" / "vneg.cpp").read_text()
    assert keys["sp"] == ["vsum_1.a:DDR[0]", "vsum_2.a:DDR[1]", f"vneg_1.{c_arg}:DDR[2]"]
    run = make(project, "host-sim", *sim_libs(system))
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr


# ---- a system kernel whose dataflow region holds split/merge tasks ------------------------------------------


@hls.task
def plus_one(i: hls.stream[hls.int32], o: hls.stream[hls.int32]):
    o.write(i.read() + 1)


@hls.task
def times_two(i: hls.stream[hls.int32], o: hls.stream[hls.int32]):
    o.write(i.read() * 2)


@hls.kernel
def copy_n(i: hls.stream[hls.int32], o: hls.stream[hls.int32], n: hls.int32):
    for _ in range(n):
        o.write(i.read())


@hls.kernel
def farm(inp: hls.stream[hls.int32], out: hls.stream[hls.int32]):
    hls.dataflow()
    s = hls.stream(hls.int32)
    t = hls.stream(hls.int32)
    w0 = hls.stream(hls.int32)
    w1 = hls.stream(hls.int32)
    r0 = hls.stream(hls.int32)
    r1 = hls.stream(hls.int32)
    copy_n(inp, s, N)
    hls.split.round_robin(s, [w0, w1])
    plus_one(w0, r0)
    times_two(w1, r1)
    hls.merge.round_robin([r0, r1], t)
    copy_n(t, out, N)


@hls.kernel
def iload(a: hls.int32[N], out: hls.stream[hls.int32]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def istore(inp: hls.stream[hls.int32], b: hls.int32[N]):
    for i in range(N):
        b[i] = inp.read()


def test_split_merge_tasks_inside_a_system_kernel(tmp_path):
    """Its region ends when copy_n is done and the tasks idle (it deadlocked: the nested region waited for
    its tasks to finish); the export carries hls_task.h and hls_np_channel.h and runs on the mock."""
    system = hls.System([iload, farm, istore], connect=[("iload.out", "farm.inp"), ("farm.out", "istore.inp")])
    a = np.arange(N, dtype=np.int32) * 3
    out = system.run(inputs={"iload": {"a": a}, "istore": {"b": np.zeros(N, np.int32)}})
    want = np.where(np.arange(N) % 2 == 0, a + 1, a * 2)  # item i went to worker i % 2
    assert np.array_equal(out["istore"][0][1], want)
    project = system.export(tmp_path / "p")
    assert (project / "csim_include" / "hls_task.h").is_file()
    run = host_py(project, system)
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr


# ---- malformed arguments: each an hls.HLSError at the line of the System call ------------------------------


@hls.kernel
def src_k(a: hls.int16[N], out: hls.stream[hls.int16]):
    for i in range(N):
        out.write(a[i])


@hls.kernel
def sink_k(inp: hls.stream[hls.int16], b: hls.int16[N]):
    for i in range(N):
        b[i] = inp.read()


BLOCK = hls.int32[4]


@hls.kernel
def blocks_src(a: hls.int32[N], buf: hls.stream_of_blocks[BLOCK]):
    for k in range(3):
        with hls.write_lock(buf) as b:
            for i in range(4):
                b[i] = a[4 * k + i]


@hls.kernel
def blocks_dst(buf: hls.stream_of_blocks[BLOCK], o: hls.int32[N]):
    for k in range(3):
        with hls.read_lock(buf) as b:
            for i in range(4):
                o[4 * k + i] = b[i]


LINK = [("src_k.out", "sink_k.inp")]


def not_a_kernel(x):
    return x


@pytest.mark.parametrize("args,kw,message", [
    (src_k, {}, "must be a list"),
    ([src_k, not_a_kernel], {}, "takes a list of @hls.kernel"),
    ([vsum, vsum], {}, "appears twice"),
    ([src_k, sink_k], {"connect": None}, "connect (pairs"),
    ([src_k, sink_k], {"connect": "src_k.out"}, "must be a list, not str"),
    ([src_k, sink_k], {"connect": [("src_k", "sink_k.inp")]}, "must be spelled 'kernel.port'"),
    ([src_k, sink_k], {"connect": [("src_k.out", "sink_k.inp", 2)]}, "must be a pair"),
    ([src_k, sink_k], {"connect": LINK, "depths": 2}, "must be a list, not int"),
    ([src_k, sink_k], {"connect": LINK, "depths": [2, 2]}, "one FIFO depth"),
    ([src_k, sink_k], {"connect": LINK, "depths": [True]}, "one FIFO depth"),
    ([vsum], {"memory": [("vsum.a", "DDR[0]")]}, "memory must be a dict"),
    ([vsum], {"compute_units": {"vsum": 2}, "memory": {"vsum_3.a": "DDR[0]"}}, "compute units vsum_1, vsum_2"),
    ([vsum], {"slr": {"vsum": "SLR4"}}, "has SLR0, SLR1, SLR2, SLR3"),
    ([vsum], {"platform": "u50", "slr": {"vsum": "SLR2"}}, "u50 platform family has SLR0, SLR1"),
    ([vsum], {"slr": {"vsum": 0}}, "slr['vsum'] = 0"),
    ([vsum], {"name": "my system"}, "must be an identifier"),
    ([blocks_src, blocks_dst], {"connect": [("blocks_src.buf", "blocks_dst.buf")]}, "is a stream of blocks"),
])
def test_malformed_system_arguments(args, kw, message):
    with pytest.raises(SystemError_) as info:
        hls.System(args, **kw)
    assert message in str(info.value)
    assert info.value.loc.file == __file__ and "hls.System(args, **kw)" in info.value.loc.source_line()


def test_inputs_for_no_kernel_or_of_the_wrong_shape():
    system = hls.System([src_k, sink_k], connect=LINK)
    with pytest.raises(SystemError_, match="inputs name no kernel of this system: 'nope'"):
        system.run(inputs={"nope": []})
    with pytest.raises(SystemError_, match=r"inputs\['src_k'\]"):
        system.run(inputs={"src_k": [1, 2, 3, 4]})


def test_a_stream_wider_than_64_bits_is_refused_at_export(tmp_path):
    @hls.kernel
    def wide_src(a: hls.uint64[N], out: hls.stream[hls.ap_uint[72]]):
        for i in range(N):
            out.write(hls.ap_uint[72](a[i]) << 8)

    @hls.kernel
    def wide_dst(inp: hls.stream[hls.ap_uint[72]], hi: hls.uint8[N]):
        for i in range(N):
            hi[i] = hls.uint8(inp.read() >> 64)

    system = hls.System([wide_src, wide_dst], connect=[("wide_src.out", "wide_dst.inp")])
    a = np.full(N, 0xFF00000000000000, np.uint64)
    out = system.run(inputs={"wide_src": {"a": a}, "wide_dst": {"hi": np.zeros(N, np.uint8)}})
    assert list(out["wide_dst"][0][1]) == [0xFF] * N  # Python mode keeps the 72 bits
    with pytest.raises(hls.HLSError, match="wider than 64 bits"):  # the mock would truncate them: refused
        system.export(tmp_path / "p")


# ---- Python mode: deadlock (starvation) and the normal end of idle tasks -----------------------------------


@hls.task
def pass_task(i: hls.stream[hls.int16], o: hls.stream[hls.int16]):
    o.write(i.read())


@hls.kernel
def greedy(inp: hls.stream[hls.int16], b: hls.int16[N]):
    for i in range(N + 1):
        b[i % N] = inp.read()  # one more than src_k writes


def test_a_consumer_reading_more_than_produced_is_a_deadlock_at_its_line():
    system = hls.System([src_k, pass_task, greedy], connect=[("src_k.out", "pass_task.i"),
                                                             ("pass_task.o", "greedy.inp")])
    with pytest.raises(hls.DeadlockError) as info:
        system.run()
    text = str(info.value)
    assert "'pass_task' reads the empty FIFO" in text and "(a task waiting for its next item)" in text
    assert "'greedy' reads the empty FIFO 'pass_task.o -> greedy.inp'" in text
    assert "a consumer reads more items than its producers write" in text and "too shallow" not in text
    assert info.value.loc.file == __file__ and "b[i % N] = inp.read()" in info.value.loc.source_line()


def test_idle_tasks_are_a_normal_end():
    system = hls.System([src_k, pass_task, sink_k], connect=[("src_k.out", "pass_task.i"),
                                                             ("pass_task.o", "sink_k.inp")])
    a = np.arange(N, dtype=np.int16) - 4
    out = system.run(inputs={"src_k": {"a": a}, "sink_k": {"b": np.zeros(N, np.int16)}}, depths=[1, 1])
    assert np.array_equal(out["sink_k"][0][1], a)


def test_a_tuple_of_fifo_declarations_says_one_per_statement():
    @hls.kernel
    def tuple_decl(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s, t = hls.stream(hls.int32), hls.stream(hls.int32)
        iload(a, s)
        copy_n(s, t, N)
        istore(t, b)

    with pytest.raises(hls.HLSError, match="declare one FIFO or array per statement") as info:
        tuple_decl.compile()
    assert info.value.loc.file == __file__
