"""The host side of a Vitis-flow export (issue 26): host/host.cpp and host/host.py built and run on this
project's mock XRT against the csim build of each example (make host-sim, host.py --sim), PASS with the
golden vectors and FAIL with a corrupted one; the s_axilite register layout; the v++/emconfigutil steps
run with recording stand-ins; link.cfg parsed."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import hls
from hls.golden_runs import golden_vectors
from hls.kernel import stream_movers
from hls.project.host import host_unsupported, nk_separator, register_map, struct_layout
from hls.sim.build import build_shared_library
from tests.conftest import EXAMPLES, ROOT

STEMS = [p.stem for p in EXAMPLES]
# examples without a host program (host_unsupported): none now; a struct field of no known m_axi layout and a
# stream read short of its items are the cases below
NO_HOST: dict[str, str] = {}
# examples with AXI4-Stream ports: the export adds a data mover per stream argument (hls/project/movers.py)
STREAM_TOPS = {"fir_stream": ["fir_stream_mm2s_x", "fir_stream", "fir_stream_s2mm_y"],
               "axis_frame_gain": ["axis_frame_gain_mm2s_inp", "axis_frame_gain", "axis_frame_gain_s2mm_out"],
               "system_pipeline": ["scale_mm2s_inp", "scale", "scale_s2mm_out"]}


def make_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XILINX_HLS", "XILINX_XRT", "AP_INCLUDE", "MAKEFLAGS")}
    env["LC_ALL"] = "C"
    return env


def make(project: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-C", str(project), *args, f"PYTHON={sys.executable}"], capture_output=True,
                          text=True, env=env or make_env(), timeout=600)


def sim_lib(kernel) -> str:
    """The csim build the tests' csim runs already made (hls/sim/build.py's cache): reused, not rebuilt."""
    return str(build_shared_library(kernel.compile().design.sources, tag="csim"))


def sim_libs(kernel) -> dict[str, str]:
    """SIM_LIB_<kernel>=<library> for the kernel and the data movers of its stream arguments (the export's
    own: the same golden run, so the same sources and the same cached build)."""
    compiled = kernel.compile()
    libs = {compiled.design.top: sim_lib(kernel)}
    for _, design in stream_movers(kernel, golden_vectors(kernel, compiled, None, 0)):
        libs[design.top] = str(build_shared_library(design.sources, tag="csim"))
    return {f"SIM_LIB_{name}": lib for name, lib in libs.items()}


@pytest.fixture(scope="module")
def hosted(examples, tmp_path_factory):
    """Every example with a host program exported, its host-sim run on the cached csim build."""
    base = tmp_path_factory.mktemp("hosted")
    projects, runs = {}, {}
    for stem in STEMS:
        k = examples[stem].KERNEL
        if stem in NO_HOST or k.flow != "vitis":  # the Vivado IP flow has no XRT host (no xclbin)
            continue
        projects[stem] = (k.export(base / stem), k.compile().design.top, sim_libs(k))

    def run(item):
        project, _, libs = item
        return make(project, "host-sim", *(f"{n}={lib}" for n, lib in libs.items()))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = dict(zip(projects, pool.map(run, projects.values()), strict=True))
    return {"projects": projects, "runs": runs}


@pytest.mark.parametrize("stem", [s for s in STEMS if s not in NO_HOST])
def test_host_sim_passes(hosted, stem):
    if stem not in hosted["runs"]:
        pytest.skip("a Vivado IP flow example: no XRT host program")
    run = hosted["runs"][stem]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS:" in run.stdout
    project = hosted["projects"][stem][0]
    for name in ("host/host.cpp", "host/host.py", "link.cfg", "host/sim/xrt/xrt_kernel.h"):
        assert (project / name).is_file()


@pytest.mark.parametrize("stem", [s for s in STEMS if s not in NO_HOST])
def test_host_py_sim_passes(hosted, stem):
    if stem not in hosted["projects"]:
        pytest.skip("a Vivado IP flow example: no XRT host program")
    project, _, libs = hosted["projects"][stem]
    run = subprocess.run([sys.executable, str(project / "host" / "host.py"), "--sim"], capture_output=True, text=True,
                         env={**make_env(), **libs}, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS:" in run.stdout


def corrupt(path: Path) -> None:
    lines = path.read_text().splitlines()
    lines[0] = str(int(float(lines[0])) + 3)
    path.write_text("\n".join(lines) + "\n")


# an array output (float), a fixed-point array, a scalar return, the second value of a tuple return; a stream
# output through its s2mm mover, an AXI4-Stream side channel (TUSER) and the return of a stream top
@pytest.mark.parametrize("stem,golden", [("vadd", "c.golden.dat"), ("matvec_fixed", "y.golden.dat"),
                                         ("dot", "return.golden.dat"), ("divmod_k", "return1.golden.dat"),
                                         ("fir_stream", "y.golden.dat"), ("axis_frame_gain", "out.user.golden.dat"),
                                         ("axis_frame_gain", "return.golden.dat"),
                                         ("system_pipeline", "out.golden.dat"), ("rgb565", "pixels.g.golden.dat")])
def test_corrupted_golden_fails(hosted, stem, golden, tmp_path):
    project = tmp_path / stem
    shutil.copytree(hosted["projects"][stem][0], project, ignore=shutil.ignore_patterns("build"))
    corrupt(project / "tb" / "data" / golden)
    libs = hosted["projects"][stem][2]
    run = make(project, "host-sim", *(f"{n}={lib}" for n, lib in libs.items()))
    stem_of = golden.split(".golden")[0]
    name = {"return": "return value", "return1": "return value 1"}.get(stem_of, stem_of)
    assert run.returncode != 0 and "FAIL:" in run.stdout and f"MISMATCH {name}" in run.stdout, run.stdout + run.stderr
    py = subprocess.run([sys.executable, str(project / "host" / "host.py"), "--sim"], capture_output=True, text=True,
                        env={**make_env(), **libs}, timeout=300)
    assert py.returncode == 1 and "FAIL:" in py.stdout and f"MISMATCH {name}" in py.stdout, py.stdout + py.stderr


def test_host_sim_builds_the_kernel_from_the_project(hosted, tmp_path):
    """Without SIM_LIB the project compiles its own csim library (src/ + host/sim/<top>_bridge.cpp)."""
    project = tmp_path / "dot"
    shutil.copytree(hosted["projects"]["dot"][0], project, ignore=shutil.ignore_patterns("build"))
    run = make(project, "host-sim")
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    assert (project / "build" / "host_sim" / "libdot_csim.so").is_file()


def test_a_missing_data_file_exits_2(hosted, tmp_path):
    project = tmp_path / "vadd"
    shutil.copytree(hosted["projects"]["vadd"][0], project)
    (project / "tb" / "data" / "a.dat").unlink()
    run = subprocess.run([str(project / "build" / "host_sim" / "host"), "build/host_sim/mock.xclbin", "tb/data"],
                         cwd=project, capture_output=True, text=True)
    assert run.returncode == 2 and "a.dat: cannot open" in run.stderr


@hls.struct
class Odd:
    a: hls.uint12
    b: hls.int8


@hls.kernel
def odd_fields(x: Odd[4], y: hls.int32[4]):
    for i in range(4):
        y[i] = x[i].a + x[i].b


def test_no_host_program_says_why(tmp_path):
    """A struct field whose place in Vitis's aggregate is not in the facts (an ap_uint<12>): no host program,
    and the Makefile's host targets say why."""
    why = host_unsupported(odd_fields.compile().design)
    assert "field 'a' is uint12" in why and "native C types only" in why
    project = odd_fields.export(tmp_path / "p")
    assert not (project / "host").exists()
    run = make(project, "host-sim")
    assert run.returncode != 0 and "no host program" in run.stdout and "native C types only" in run.stdout


def test_an_explicit_aggregate_has_no_host_layout():
    """hls.aggregate(px, compact="bit") changes where the fields land: the host knows Vitis's default only."""
    from tests.kernels.struct_kernels import packed_ports

    why = host_unsupported(packed_ports.compile().design)
    assert "argument 'px'" in why and "aggregates or disaggregates it" in why


@hls.struct
class CharShort:
    foo: hls.int8
    bar: hls.int16


@hls.struct
class WordByte:
    w: hls.int32
    c: hls.uint8


@hls.kernel
def struct_arrays(a: CharShort[10], b: WordByte[4], c: hls.int32[1]):
    c[0] = a[0].foo + a[0].bar + b[0].w + b[0].c


def test_struct_layout_in_m_axi():
    """UG1399 2023.1 "Examples of Aggregation": struct A {char foo; short bar;} is a 32-bit m_axi word
    (compact=none: the C layout, bar at byte 2); an {int, uint8} struct is 5 bytes of data in an 8-byte
    C struct, so an 8-byte word; rgb565's Pixel of three bytes a 4-byte word."""
    ports = struct_arrays.compile().design.ports
    word, fields = struct_layout(ports[0].codec)
    assert word == 4 and [(n, off) for n, off, _ in fields] == [("foo", 0), ("bar", 2)]
    word, fields = struct_layout(ports[1].codec)
    assert word == 8 and [(n, off) for n, off, _ in fields] == [("w", 0), ("c", 4)]


def test_rgb565_host_buffer_is_the_aggregated_layout(hosted):
    """The host writes Pixel[64] as 64 words of 4 bytes, r, g, b at bytes 0, 1, 2 (host.py's own data)."""
    text = (hosted["projects"]["rgb565"][0] / "host" / "host.py").read_text()
    kernels = ast.literal_eval(next(line for line in text.splitlines() if line.startswith("KERNELS = "))[10:])
    pixels = [p for p in kernels[0]["host_ports"] if p["name"] == "pixels"][0]
    assert pixels["word_bytes"] == 4 and pixels["count"] == 64
    assert [(f["member"], f["offset"], f["file"]) for f in pixels["fields"]] == [
        ("r", 0, "pixels.r.dat"), ("g", 1, "pixels.g.dat"), ("b", 2, "pixels.b.dat")]


# ---- the s_axilite register map, against the layouts Vitis HLS printed in its x<top>_hw.h headers ----------


@hls.kernel
def three_pointers_and_size(a: hls.int32[16], b: hls.int32[16], c: hls.int32[16], n: hls.int32):
    for i in range(16):
        c[i] = a[i] + b[i] + n


@hls.kernel
def returns_and_scalar(args: hls.int32) -> hls.int32:
    return args + 1


def test_register_map_matches_vitis_layout():
    # UCLA-VAST/TAPA-CS apps/vadd xvecadd_1_hw.h (2022.1): a 0x10, b 0x1c, c 0x28, then the scalar at 0x34
    args, rets = register_map(three_pointers_and_size.compile().design)
    assert args == {"a": 0x10, "b": 0x1c, "c": 0x28, "n": 0x34} and rets == []
    # SpringbokBE/zypy xufunc_reduce_all_i4_hw.h (2020.2): ap_return 0x10, the first argument at 0x18
    args, rets = register_map(returns_and_scalar.compile().design)
    assert rets == [0x10] and args == {"args": 0x18}


def test_nk_separator_per_vitis_version():
    assert nk_separator("2021.2") == "." and nk_separator("2022.1") == "."
    assert nk_separator("2022.2") == "," and nk_separator("2024.2") == ","
    with pytest.raises(hls.HLSError):
        nk_separator("latest")


# ---- the v++ / emconfigutil / XRT steps with recording stand-ins -------------------------------------------

PLATFORM = "xilinx_u250_gen3x16_xdma_4_1_202210_1"


@pytest.fixture(scope="module")
def vadd_project(examples, tmp_path_factory):
    k = examples["vadd"].KERNEL
    return k.export(tmp_path_factory.mktemp("flow") / "vadd"), "vadd", sim_lib(k)


def test_make_run_issues_the_documented_steps_in_order(vadd_project, tmp_path):
    from tests.fixtures.vitis_flow_standins import install

    project, top, lib = vadd_project
    bin_dir, xrt = install(tmp_path / "standins", sys.executable, project / "host" / "sim" / "xrt")
    log = tmp_path / "log"
    env = {**make_env(), "PATH": f"{bin_dir}:{os.environ['PATH']}", "STANDIN_LOG": str(log), "STANDIN_SIM_LIB": lib,
           "LD_LIBRARY_PATH": str(xrt / "lib")}
    for target in ("sw_emu", "hw_emu"):
        log.unlink(missing_ok=True)
        run = make(project, "run", f"TARGET={target}", f"PLATFORM={PLATFORM}", f"XILINX_XRT={xrt}",
                   "HOST_SOURCES=host/host.cpp host/sim/vadd_entry.cpp", "HOST_LDFLAGS=-Wl,--no-as-needed", env=env)
        assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
        steps = log.read_text().splitlines()
        out = f"build/{target}"
        assert steps == [
            f"v++ -c -t {target} --platform {PLATFORM} -k vadd -I src -o {out}/vadd.xo src/vadd.cpp",
            f"v++ -l -t {target} --platform {PLATFORM} --config link.cfg -o {out}/vadd.xclbin {out}/vadd.xo",
            f"emconfigutil --platform {PLATFORM} --od {out}",
            f"libxrt_coreutil XCL_EMULATION_MODE={target}",
        ]
        assert (project / "build" / "emconfig.json").is_file()  # next to the host executable, where XRT looks
    log.unlink()
    run = make(project, "run", "TARGET=hw", f"PLATFORM={PLATFORM}", f"XILINX_XRT={xrt}",
               "HOST_SOURCES=host/host.cpp host/sim/vadd_entry.cpp", "HOST_LDFLAGS=-Wl,--no-as-needed", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [s.split()[0] for s in log.read_text().splitlines()] == ["v++", "v++", "libxrt_coreutil"]
    assert "XCL_EMULATION_MODE=(unset)" in log.read_text()  # hw: no emconfigutil, no emulation mode


@pytest.mark.parametrize("target,args,message", [
    ("xo", ["PLATFORM=p"], "needs v++"), ("xclbin", ["PLATFORM=p"], "needs v++"), ("host", [], "needs XRT"),
    ("emconfig", ["PLATFORM=p"], "needs emconfigutil"), ("run", ["TARGET=fpga", "PLATFORM=p"], "TARGET must be"),
    ("run", [], "PLATFORM="),
])
def test_missing_tools_are_named(vadd_project, target, args, message):
    env = {**make_env(), "PATH": "/usr/bin:/bin"}
    run = make(vadd_project[0], target, *args, env=env)
    assert run.returncode != 0 and message in run.stdout, run.stdout + run.stderr


def parse_link_cfg(text: str) -> dict[str, list[str]]:
    """The link config as v++ reads it: [section] heads and key=value lines (keys repeat), # comments."""
    section, keys = None, {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        assert sep and section == "connectivity", line
        assert key in ("nk", "sp", "slr", "stream_connect"), f"undocumented [connectivity] key {key!r}"
        keys.setdefault(key, []).append(value)
    return keys


def test_link_cfg_of_one_kernel(vadd_project):
    keys = parse_link_cfg((vadd_project[0] / "link.cfg").read_text())
    assert keys == {"nk": ["vadd:1:vadd_1"]}


def examples_system_depths() -> list[int]:
    spec = importlib.util.spec_from_file_location("system_pipeline_depths", ROOT / "examples" / "system_pipeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SYSTEM.fifo_depths()


@pytest.mark.parametrize("stem", sorted(STREAM_TOPS))
def test_link_cfg_joins_the_movers_by_stream_connect(hosted, stem):
    """One compute unit per kernel; each mover's `strm` joined to the kernel's stream argument, inputs first."""
    project = hosted["projects"][stem][0]
    names = STREAM_TOPS[stem]
    mm2s, top, s2mm = names
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert keys["nk"] == [f"{n}:1:{n}_1" for n in names]
    inp, out = mm2s.rsplit("_mm2s_", 1)[1], s2mm.rsplit("_s2mm_", 1)[1]
    links = [link.rsplit(":", 1) for link in keys["stream_connect"]]
    assert [a for a, _ in links] == [f"{mm2s}_1.strm:{top}_1.{inp}", f"{top}_1.{out}:{s2mm}_1.strm"]
    depths = [int(d) for _, d in links]
    assert all(1 <= d <= 128 for d in depths)  # sized: at least one place, never more than the items carried
    if stem == "system_pipeline":  # the movers size as the example's hand-written load and store do
        assert depths == examples_system_depths()
    assert "sp" not in keys  # every buffer on the platform's default bank
    for name in (mm2s, s2mm):
        assert (project / "src" / f"{name}.cpp").is_file()
        assert (project / "host" / "sim" / f"{name}_entry.cpp").is_file()
    xclbin = (project / "build" / "host_sim" / "mock.xclbin").read_text()
    assert (f"free {top}" in xclbin) == (stem == "system_pipeline")  # the task is free running, never started
    assert (f"kernel_{top}(" in (project / "host" / "host.cpp").read_text()) == (stem != "system_pipeline")


@pytest.mark.parametrize("stem", ["fir_stream", "axis_frame_gain"])
def test_movers_golden_equals_csim(examples, stem):
    """A data mover is a kernel like any other: its golden model and its csim agree (scalar items, packets with
    their side channels one buffer per field)."""
    k = examples[stem].KERNEL
    compiled = k.compile()
    movers = stream_movers(k, golden_vectors(k, compiled, None, 0))
    assert [m.direction for m, _ in movers] == ["in", "out"]
    for mover, _ in movers:
        result = hls.kernel(mover.func).verify(trials=2)
        assert result["compared"], result.summary()


Packet = hls.axis[hls.ap_fixed[16, 6], 4, 2, 3]


@hls.struct
class Mixed:
    a: hls.ap_fixed[12, 4]
    b: hls.bool_
    c: hls.int12


@hls.kernel
def mixed_items(x: hls.stream[Packet], f: hls.stream[hls.float32], y: hls.stream[Mixed], b: hls.stream[hls.bool_],
                n: hls.int64[4]):
    for _ in range(8):
        p = x.read()
        v = f.read()
        y.write(Mixed(a=p.data, b=p.last == 1, c=hls.int12(p.dest)))
        b.write(v > 0)
    for i in range(4):
        n[i] = i


def test_movers_of_every_item_kind_pass(tmp_path):
    """Packets with fixed-point data and id/dest, float and bool items, a struct of fixed, bool and ap_int
    fields, next to a memory argument: every mover's buffer matches the golden run (C++ and Python hosts)."""
    project = mixed_items.export(tmp_path / "p")
    libs = sim_libs(mixed_items)
    assert sorted(libs) == sorted(f"SIM_LIB_mixed_items{s}" for s in ("", "_mm2s_x", "_mm2s_f", "_s2mm_y", "_s2mm_b"))
    run = make(project, "host-sim", *(f"{n}={lib}" for n, lib in libs.items()))
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
    py = subprocess.run([sys.executable, str(project / "host" / "host.py"), "--sim"], capture_output=True, text=True,
                        env={**make_env(), **libs}, timeout=300)
    assert py.returncode == 0 and "PASS:" in py.stdout, py.stdout + py.stderr
    corrupt(project / "tb" / "data" / "y.c.golden.dat")
    run = make(project, "host-sim", *(f"{n}={lib}" for n, lib in libs.items()))
    assert run.returncode != 0 and "MISMATCH y.c[0]" in run.stdout, run.stdout + run.stderr


@hls.kernel
def running_sum(x: hls.stream[hls.int16], y: hls.stream[hls.int32]):
    total = hls.static(hls.zeros((1,), hls.int32))  # state: not a System kernel, so the movers' depth is the default
    for _ in range(8):
        total[0] += x.read()
        y.write(total[0])


def test_a_stateful_stream_kernel_gets_the_default_depth(tmp_path):
    project = running_sum.export(tmp_path / "p")
    keys = parse_link_cfg((project / "link.cfg").read_text())
    assert [link.rsplit(":", 1)[1] for link in keys["stream_connect"]] == ["2", "2"]  # hls::stream's default


@hls.kernel
def reads_half(x: hls.stream[hls.int16], y: hls.stream[hls.int16]):
    for _ in range(4):
        y.write(x.read())


def test_a_stream_read_short_of_its_items_has_no_movers(tmp_path):
    """An mm2s that writes more than its consumer reads never finishes: no host program, and make says why."""
    project = reads_half.export(tmp_path / "p", inputs=[hls.Stream(hls.int16, list(range(8))),
                                                        hls.Stream(hls.int16, [])])
    assert not (project / "host").exists() and not (project / "link.cfg").exists()
    run = make(project, "host-sim")
    assert run.returncode != 0 and "reads 4 of the 8 items its testbench feeds" in run.stdout, run.stdout


def test_a_vivado_flow_export_has_no_host_program(examples, tmp_path):
    """The Vivado IP flow ends at an IP for a block design: no xclbin, so no XRT host program or link.cfg."""
    k = examples["matmul_schedule"].KERNEL
    assert k.flow == "vivado"
    project = k.export(tmp_path / "p")
    assert not (project / "host").exists() and not (project / "link.cfg").exists()


@pytest.mark.parametrize("versal", [False, True])
def test_make_package_issues_v_plus_plus_p(vadd_project, tmp_path, versal):
    """Embedded/Versal platforms: link (to an .xsa on Versal), then v++ -p with the platform's Linux image
    (UG1393 "Packaging the System", "--package Options")."""
    from tests.fixtures.vitis_flow_standins import install

    project = vadd_project[0]
    bin_dir, _ = install(tmp_path / "standins", sys.executable, project / "host" / "sim" / "xrt")
    log = tmp_path / "log"
    env = {**make_env(), "PATH": f"{bin_dir}:{os.environ['PATH']}", "STANDIN_LOG": str(log), "STANDIN_SIM_LIB": "x"}
    platform = "xilinx_vck190_base_202220_1" if versal else "xilinx_zcu102_base_202220_1"
    extra = ["VERSAL=1"] if versal else []
    run = make(project, "package", "TARGET=hw_emu", f"PLATFORM={platform}", "ROOTFS=img/rootfs.ext4",
               "KERNEL_IMAGE=img/Image", "PACKAGE_FILES=xrt.ini build/host", *extra, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    out = "build/hw_emu"
    linked = f"{out}/vadd.xsa" if versal else f"{out}/vadd.xclbin"
    assert log.read_text().splitlines() == [
        f"v++ -c -t hw_emu --platform {platform} -k vadd -I src -o {out}/vadd.xo src/vadd.cpp",
        f"v++ -l -t hw_emu --platform {platform} --config link.cfg -o {linked} {out}/vadd.xo",
        f"v++ -p -t hw_emu --platform {platform} --package.out_dir {out}/package --package.boot_mode sd "
        f"--package.rootfs img/rootfs.ext4 --package.kernel_image img/Image --package.sd_file xrt.ini "
        f"--package.sd_file build/host -o {out}/package/vadd.xclbin {linked}",
    ]
    assert (project / out / "package" / "vadd.xclbin").is_file()


@pytest.mark.parametrize("args,message", [(["PLATFORM=p"], "needs v++"), (["PLATFORM=p", "ROOTFS=r"], "needs v++")])
def test_make_package_without_vitis_says_so(vadd_project, args, message):
    run = make(vadd_project[0], "package", *args, env={**make_env(), "PATH": "/usr/bin:/bin"})
    assert run.returncode != 0 and message in run.stdout, run.stdout + run.stderr


def test_make_package_without_the_linux_image_says_so(vadd_project, tmp_path):
    from tests.fixtures.vitis_flow_standins import install

    bin_dir, _ = install(tmp_path / "standins", sys.executable, vadd_project[0] / "host" / "sim" / "xrt")
    env = {**make_env(), "PATH": f"{bin_dir}:{os.environ['PATH']}", "STANDIN_LOG": str(tmp_path / "log")}
    run = make(vadd_project[0], "package", "PLATFORM=p", "TARGET=hw", env=env)
    assert run.returncode != 0 and "ROOTFS=<rootfs.ext4> KERNEL_IMAGE=<Image>" in run.stdout
