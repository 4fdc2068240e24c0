"""Exported Vitis HLS projects (issue 5): make csim against golden vectors, run_hls.tcl under tclsh
stand-ins, hls_config.cfg keys and files, relocatability, overwrite protection and the CLI."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import hls
from hls.errors import HLSError
from hls.project.export import MANIFEST, ExportSettings, GoldenVectors, export_project, read_manifest
from hls.sim.toolchain import CSIM_CXXFLAGS, ap_include_dir
from tests.conftest import EXAMPLES, ROOT

STANDINS = ROOT / "tests" / "fixtures" / "vitis_standins.tcl"
STEMS = [p.stem for p in EXAMPLES]
TCL_SETUP = ["open_project", "set_top", "add_files", "add_files", "add_files", "open_solution", "set_part",
             "create_clock"]


def make_env() -> dict[str, str]:
    """No Vitis and no AP_INCLUDE: make csim must find the headers through the hls4ml package."""
    env = {k: v for k, v in os.environ.items() if k not in ("XILINX_HLS", "AP_INCLUDE", "MAKEFLAGS")}
    env["LC_ALL"] = "C"
    return env


def make(project: Path, *targets: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-C", str(project), *targets, f"PYTHON={sys.executable}"],
                          capture_output=True, text=True, env=make_env(), timeout=600)


@pytest.fixture(scope="module")
def exported(examples, tmp_path_factory):
    """Every example exported once and `make csim` run in each, in parallel."""
    base = tmp_path_factory.mktemp("exported")
    projects = {stem: examples[stem].KERNEL.export(base / stem) for stem in STEMS}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = dict(zip(projects, pool.map(lambda p: make(p, "csim"), projects.values()), strict=True))
    return {"base": base, "projects": projects, "runs": runs}


# ---- make csim -----------------------------------------------------------------------------------


@pytest.mark.parametrize("stem", STEMS)
def test_make_csim_passes(exported, stem):
    run = exported["runs"][stem]
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS:" in run.stdout


def _corruption(project: Path) -> tuple[str, Path, int, str]:
    """The golden value to corrupt: the return value if any, else the last array argument's middle element."""
    manifest = read_manifest(project)
    ret = manifest["return"]
    if ret is not None:
        return ret["name"], project / "tb/data" / ret["golden"], 0, f"MISMATCH {ret['name']}:"
    port = [p for p in manifest["ports"] if p["golden"]][-1]
    path = project / "tb/data" / port["golden"]
    count = len(path.read_text().split())
    if port["type"].startswith("stream["):  # a stream's golden file: the items left in it, one dimension
        shape = [count]
    else:
        shape = [int(d) for d in port["type"].split("[", 1)[1].rstrip("]").split(",")]
    index = count // 2
    where = ", ".join(str(int(i)) for i in np.unravel_index(index, shape))
    return port["name"], path, index, f"MISMATCH {port['name']}[{where}]:"


@pytest.mark.parametrize("stem", STEMS)
def test_corrupted_golden_fails_naming_output_and_index(exported, stem, tmp_path):
    # a copy elsewhere: the project is relocatable, and the built testbench is reused (mtimes kept)
    project = Path(shutil.copytree(exported["projects"][stem], tmp_path / "moved"))
    name, path, index, expected = _corruption(project)
    lines = path.read_text().splitlines()
    value = lines[index]
    lines[index] = str(int(value) + 1) if value.lstrip("-").isdigit() else repr(float(value) * 2 + 1)
    path.write_text("\n".join(lines) + "\n")
    run = make(project, "csim")
    assert run.returncode != 0
    assert expected in run.stdout, run.stdout
    assert "FAIL:" in run.stdout and "g++" not in run.stdout  # not rebuilt: only the data changed


def test_testbench_finds_data_from_vitis_folders(exported, tmp_path):
    project = Path(shutil.copytree(exported["projects"]["dot"], tmp_path / "p"))
    binary = project / "build" / "dot_csim"
    for cwd in ("hls_prj/solution1/csim/build", "hls_prj/solution1/sim/wrapc", "hls_component/hls/csim/build"):
        (project / cwd).mkdir(parents=True)
        run = subprocess.run([str(binary)], cwd=project / cwd, capture_output=True, text=True)
        assert run.returncode == 0 and "data from ../../../../tb/data" in run.stdout, run.stdout + run.stderr
    copied = tmp_path / "copied"
    shutil.copytree(project / "tb/data", copied / "data")
    run = subprocess.run([str(binary)], cwd=copied, capture_output=True, text=True)
    assert run.returncode == 0 and "data from data" in run.stdout
    run = subprocess.run([str(binary), str(copied / "data")], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0
    run = subprocess.run([str(binary)], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 2 and "cannot find a.dat" in run.stderr


def test_bad_data_exits_2(exported, tmp_path):
    project = Path(shutil.copytree(exported["projects"]["vadd"], tmp_path / "p"))
    data = project / "tb/data/a.dat"
    data.write_text("\n".join(data.read_text().splitlines()[:-1]) + "\n")
    run = subprocess.run([str(project / "build/vadd_csim")], cwd=project, capture_output=True, text=True)
    assert run.returncode == 2 and "expected 256 values, found 255" in run.stderr
    data.write_text("1.0\n" * 255 + "x1\n")
    run = subprocess.run([str(project / "build/vadd_csim")], cwd=project, capture_output=True, text=True)
    assert run.returncode == 2 and "a.dat:256: not a valid value" in run.stderr


def test_sanitizers_clean(examples, tmp_path):
    """The testbench has no UB or memory errors (fixed point, ap_int, 4-D arrays).

    shift-base is off: the ap_types headers sign-extend with left shifts of negative values
    (ap_private.h clearUnusedBits, reached from ap_int<16>(long) alone), which is theirs, not ours.
    """
    flags = "EXTRA_CXXFLAGS=-O1 -fsanitize=address,undefined -fno-sanitize=shift-base -fno-sanitize-recover=all"
    for stem in sorted(examples):  # every example, each with its own random inputs and golden data
        project = examples[stem].KERNEL.export(tmp_path / stem)
        run = make(project, "csim", flags)
        assert run.returncode == 0, run.stdout + run.stderr


UFIX = hls.ap_ufixed[10, 4]
ACC = hls.ap_fixed[20, 8]


# Every element kind the examples lack: bool, uint64, int64, float64, ap_uint, ap_ufixed, fixed scalars.
@hls.kernel
def mixed(flags: hls.bool_[6], big: hls.uint64[4], wide: hls.int64[4], d: hls.float64[5], q: hls.uint12[2, 3],
          uf: UFIX[3], s: hls.ap_fixed[12, 4], n: hls.uint8, out: hls.float64[5]) -> ACC:
    for i in range(6):
        flags[i] = not flags[i]
    for i in range(4):
        big[i] = big[i] + hls.uint64(1)
        wide[i] = wide[i] - 1
    for i in range(5):
        out[i] = d[i] * 2.0 + n
    for i in range(2):
        for j in range(3):
            q[i, j] = q[i, j] + 1
    acc = ACC(0)
    for i in range(3):
        acc += uf[i] * s
    return acc


def test_every_element_kind(tmp_path):
    project = mixed.export(tmp_path / "p")
    run = make(project, "csim")
    assert run.returncode == 0, run.stdout + run.stderr
    header = project / "src/mixed.h"
    compile_tb = subprocess.run(["g++", *CSIM_CXXFLAGS, "-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Werror",
                                 "-isystem", str(ap_include_dir()), "-fsyntax-only", "tb/mixed_tb.cpp"],
                                cwd=project, capture_output=True, text=True)
    assert header.exists() and compile_tb.returncode == 0, compile_tb.stderr
    for name, index, value, expected in (("flags", 2, "7", "MISMATCH flags[2]: golden 7 but csim"),
                                         ("big", 3, "1", "MISMATCH big[3]: golden 1 but csim"),
                                         ("q", 4, "0", "MISMATCH q[1, 1]: golden 0 but csim"),
                                         ("out", 0, "1e300", "MISMATCH out[0]: golden 1.0000000000000001e+300")):
        path = project / f"tb/data/{name}.golden.dat"
        original = path.read_text()
        lines = original.splitlines()
        lines[index] = value
        path.write_text("\n".join(lines) + "\n")
        run = make(project, "csim")
        path.write_text(original)
        assert run.returncode != 0 and expected in run.stdout, run.stdout


def test_data_files_are_exact(examples, tmp_path):
    k = examples["vadd"].KERNEL
    project = k.export(tmp_path / "p", seed=7)
    a, b, _ = k.random_inputs(7)
    read = np.array([np.float32(line) for line in (project / "tb/data/a.dat").read_text().split()])
    assert np.array_equal(read, a)
    golden = np.array([np.float32(line) for line in (project / "tb/data/c.golden.dat").read_text().split()])
    assert np.array_equal(golden, a + b)


def test_explicit_inputs(examples, tmp_path):
    k = examples["dot"].KERNEL
    a = np.arange(128, dtype=np.int16)
    b = np.full(128, -3, dtype=np.int16)
    project = k.export(tmp_path / "seq", inputs=[a, b])
    assert (project / "tb/data/a.dat").read_text().split() == [str(v) for v in range(128)]
    assert (project / "tb/data/return.golden.dat").read_text() == f"{-3 * sum(range(128))}\n"
    assert np.array_equal(a, np.arange(128))  # the caller's arrays are not touched
    assert read_manifest(project)["inputs"] == "given" and "given to the export" in (project / "README.md").read_text()
    project = k.export(tmp_path / "map", inputs={"b": b, "a": a})
    assert (project / "tb/data/b.dat").read_text().split() == ["-3"] * 128
    with pytest.raises(HLSError, match="takes 2 arguments"):
        k.export(tmp_path / "bad", inputs=[a])
    with pytest.raises(HLSError, match="unknown"):
        k.export(tmp_path / "bad", inputs={"a": a, "b": b, "c": a})
    with pytest.raises(HLSError):
        k.export(tmp_path / "bad", inputs=[a.astype(np.int32), b])
    assert not (tmp_path / "bad").exists()  # nothing is written when the golden run fails


# ---- run_hls.tcl under tclsh stand-ins -------------------------------------------------------------


def run_tcl(project: Path, log: Path, steps: str | None, args: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HLS_STEPS"}
    if steps is not None:
        env["HLS_STEPS"] = steps
    return subprocess.run(["tclsh", str(STANDINS), str(log), str(project / "run_hls.tcl"), *args],
                          capture_output=True, text=True, env=env, cwd=log.parent, timeout=60)


def recorded(log: Path) -> list[list[str]]:
    return [line.split("\x1f") for line in log.read_text().splitlines()]


SELECTIONS = {
    "csim": ("csim", (), ["csim_design"]),
    "csynth": ("csynth", (), ["csynth_design"]),
    "all": (None, (), ["csim_design", "csynth_design", "cosim_design", "export_design"]),
    "cosim-implies-csynth": ("cosim", (), ["csynth_design", "cosim_design"]),
    "tclargs": (None, ("export", "csim"), ["csim_design", "csynth_design", "export_design"]),
}


@pytest.mark.parametrize("selection", sorted(SELECTIONS))
@pytest.mark.parametrize("stem", STEMS)
def test_run_hls_tcl_sequence(exported, stem, selection, tmp_path):
    project = exported["projects"][stem]
    manifest = read_manifest(project)
    steps, args, expected_steps = SELECTIONS[selection]
    log = tmp_path / "calls.log"
    run = run_tcl(project, log, steps, args)
    assert run.returncode == 0, run.stdout + run.stderr
    calls = recorded(log)
    assert [c[0] for c in calls] == TCL_SETUP + expected_steps + ["exit"]
    top = manifest["top"]
    assert calls[0] == ["open_project", "-reset", "hls_prj"]
    assert calls[1] == ["set_top", top]
    assert calls[2][-1] == f"src/{top}.cpp" and calls[3][-1] == f"tb/{top}_tb.cpp"
    assert calls[4] == ["add_files", "-tb", "tb/data"]
    assert calls[5] == ["open_solution", "-reset", "-flow_target", manifest["flow"], "solution1"]  # the example's
    assert calls[6] == ["set_part", "xcu250-figd2104-2L-e"]
    assert calls[7] == ["create_clock", "-period", "3.33"]
    kernel_flags = dict(zip(calls[2][1:-1:2], calls[2][2:-1:2], strict=True))
    tb_flags = dict(zip(calls[3][2:-1:2], calls[3][3:-1:2], strict=True))
    streams = (project / "csim_include").is_dir()  # dataflow csim includes the project's hls_csim.h
    include = f"-I{(project / 'csim_include').resolve()}"
    kernel_words = " ".join(kernel_flags.values()).split()
    tb_words = tb_flags["-cflags"].split()
    assert (include in kernel_words and include in tb_words) == streams
    assert sorted(w for w in kernel_words if w != include) == sorted(CSIM_CXXFLAGS)
    assert [w for w in tb_words if w != include] == list(CSIM_CXXFLAGS)
    assert all((project / c[-1]).exists() for c in calls[2:5])
    if "export_design" in expected_steps:
        assert calls[-2] == ["export_design", "-format", manifest["export_format"]]


def test_run_hls_tcl_vivado_flow_and_unknown_step(examples, tmp_path):
    project = examples["fir"].KERNEL.export(tmp_path / "p", flow="vivado", part="xcvu9p-flga2104-2-i",
                             clock_ns=4)
    log = tmp_path / "calls.log"
    assert run_tcl(project, log, "export").returncode == 0
    calls = recorded(log)
    assert ["open_solution", "-reset", "-flow_target", "vivado", "solution1"] in calls
    assert ["set_part", "xcvu9p-flga2104-2-i"] in calls and ["create_clock", "-period", "4"] in calls
    assert calls[-2] == ["export_design", "-format", "ip_catalog"]
    log.unlink()
    run = run_tcl(project, log, "csim synth")
    assert run.returncode == 2 and "unknown step 'synth'" in run.stderr
    assert recorded(log) == [["exit", "2"]]  # nothing ran


@pytest.mark.parametrize("call", ["csynth_design -bogus", "export_design -format zip", "open_solution -flow_target",
                                  "set_top", "create_clock 5", "add_files -cflags"])
def test_standins_reject_undocumented_usage(call, tmp_path):
    script = tmp_path / "bad.tcl"
    script.write_text(f"{call}\n")
    run = subprocess.run(["tclsh", str(STANDINS), str(tmp_path / "log"), str(script)], capture_output=True, text=True)
    assert run.returncode != 0


# ---- hls_config.cfg -----------------------------------------------------------------------------

# Keys of the v++ --mode hls config file, with where AMD documents them.
DOCUMENTED_KEYS = {
    # top-level (no section): https://docs.amd.com/r/en-US/ug1399-vitis-hls/HLS-Config-File-Commands
    ("", "part"), ("", "platform"),
    # [hls] general options: https://docs.amd.com/r/en-US/ug1399-vitis-hls/HLS-Config-File-Commands
    ("hls", "flow_target"), ("hls", "clock"), ("hls", "clock_uncertainty"),
    # C synthesis sources: https://docs.amd.com/r/en-US/ug1399-vitis-hls/C-Synthesis-Sources and
    # https://docs.amd.com/r/en-US/ug1399-vitis-hls/Tcl-to-Config-File-Command-Map (add_files -csimflags)
    ("hls", "syn.file"), ("hls", "syn.top"), ("hls", "syn.cflags"), ("hls", "syn.csimflags"),
    # test bench sources: https://docs.amd.com/r/en-US/ug1399-vitis-hls/Test-Bench-Sources
    ("hls", "tb.file"), ("hls", "tb.cflags"),
    # packaging: https://docs.amd.com/r/en-US/ug1399-vitis-hls/Package-Options
    ("hls", "package.output.format"), ("hls", "package.output.file"),
}
FILE_KEYS = {"syn.file", "tb.file"}


def parse_cfg(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) in file order: keys before the first [section] are top-level (section '')."""
    entries, section = [], ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        key, sep, value = line.partition("=")
        assert sep, f"line {number} is neither a section, a comment nor key=value: {raw!r}"
        entries.append((section, key.strip(), value.strip()))
    return entries


@pytest.mark.parametrize("stem", STEMS)
def test_hls_config_cfg(exported, stem):
    project = exported["projects"][stem]
    manifest = read_manifest(project)
    top = manifest["top"]
    entries = parse_cfg((project / "hls_config.cfg").read_text())
    for section, key, _ in entries:
        assert (section, key) in DOCUMENTED_KEYS, f"undocumented key [{section}] {key}"
    values: dict[str, list[str]] = {}
    for _, key, value in entries:
        values.setdefault(key, []).append(value)
    assert values["part"] == ["xcu250-figd2104-2L-e"] and values["clock"] == ["3.33ns"]
    assert values["flow_target"] == [manifest["flow"]]  # examples/matmul_schedule.py is a Vivado-flow kernel
    assert values["package.output.format"] == [manifest["export_format"]]
    assert values["syn.top"] == [top] and values["syn.file"] == [f"src/{top}.cpp"]
    for key in FILE_KEYS:
        for name in values[key]:
            assert (project / name).is_file(), name
    data = {f"tb/data/{p.name}" for p in (project / "tb/data").iterdir()}
    assert set(values["tb.file"]) == {f"tb/{top}_tb.cpp"} | data
    assert sorted((values["syn.cflags"][0] + " " + values["syn.csimflags"][0]).split()) == sorted(CSIM_CXXFLAGS)
    assert values["tb.cflags"] == [" ".join(CSIM_CXXFLAGS)]
    assert all(len(v) == 1 for k, v in values.items() if k != "tb.file")


# ---- relocatable, Makefile --------------------------------------------------------------------------


def test_no_absolute_paths_of_this_machine(exported):
    needles = {str(exported["base"]), str(ROOT), str(ap_include_dir()), sys.prefix, str(Path.home())}
    needles = {n for n in needles if len(n) > 1}
    for project in exported["projects"].values():
        for path in project.rglob("*"):
            if path.is_file() and "build" not in path.relative_to(project).parts:
                text = path.read_text()
                for needle in needles:
                    assert needle not in text, f"{path} contains {needle}"


def test_makefile_without_vitis(exported, tmp_path):
    project = exported["projects"]["vadd"]
    env = make_env()
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if not any((Path(p) / t).exists() for t in ("vitis_hls", "v++", "vitis-run")))
    for target in ("csynth", "cosim", "export", "report", "vitis-csim"):
        run = subprocess.run(["make", "-s", "-C", str(project), target], capture_output=True, text=True, env=env)
        assert run.returncode != 0
        assert f"make {target}: needs AMD Vitis HLS" in run.stdout + run.stderr
    run = subprocess.run(["make", "-s", "-C", str(project)], capture_output=True, text=True, env=env)
    assert run.returncode == 0 and "make csim" in run.stdout
    moved = Path(shutil.copytree(project, tmp_path / "p"))
    assert make(moved, "clean").returncode == 0
    assert not (moved / "build").exists() and (moved / "tb/data/a.dat").exists()
    run = subprocess.run(["make", "-s", "-C", str(moved), "csim", "PYTHON=false"], capture_output=True, text=True,
                         env=env)
    assert run.returncode != 0 and "ap_int.h not found" in run.stdout + run.stderr
    env["AP_INCLUDE"] = str(ap_include_dir())
    run = subprocess.run(["make", "-s", "-C", str(moved), "csim", "PYTHON=false"], capture_output=True, text=True,
                         env=env)
    assert run.returncode == 0, run.stdout + run.stderr


def test_readme_and_manifest(exported):
    project = exported["projects"]["subkernel"]
    readme = (project / "README.md").read_text()
    assert "# dense_relu" in readme and "`W`" in readme and "make csim" in readme
    manifest = read_manifest(project)
    assert manifest["top"] == "dense_relu" and manifest["clock_ns"] == 3.33
    assert set(manifest["files"]) == {str(p.relative_to(project)) for p in project.rglob("*")
                                      if p.is_file() and "build" not in p.parts}
    assert "static" in (project / "src/dense_relu.cpp").read_text()  # sub-kernels come along


# ---- overwrite protection and validation ------------------------------------------------------------


def test_refuses_non_empty_dir_and_keeps_user_files(examples, tmp_path):
    k = examples["vadd"].KERNEL
    target = tmp_path / "p"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    with pytest.raises(HLSError, match="not empty"):
        k.export(target)
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    k.export(target, overwrite=True)
    assert (target / "notes.txt").read_text() == "mine"
    k.export(target)  # the folder now holds our manifest: updated in place without overwrite=
    assert (target / "notes.txt").read_text() == "mine"
    (target / "Makefile").write_text("edited")
    (target / "tb/data/mine.dat").write_text("1\n")
    (target / "tb/data/stale.dat").write_text("1\n")  # listed as ours in the manifest below
    manifest = json.loads((target / MANIFEST).read_text())
    manifest["files"] += ["tb/data/stale.dat", "../outside.txt", "/etc/hostname"]
    (target / MANIFEST).write_text(json.dumps(manifest))
    (tmp_path / "outside.txt").write_text("keep")
    k.export(target)
    assert (target / "Makefile").read_text() != "edited"
    assert (target / "tb/data/mine.dat").exists() and not (target / "tb/data/stale.dat").exists()
    assert (tmp_path / "outside.txt").read_text() == "keep" and (target / "notes.txt").exists()


def test_a_folder_without_our_manifest_is_refused(examples, tmp_path):
    k = examples["vadd"].KERNEL
    target = tmp_path / "p"
    target.mkdir()
    (target / MANIFEST).write_text(json.dumps({"format": "someone-else/1", "files": ["Makefile"]}))
    (target / "Makefile").write_text("theirs")
    with pytest.raises(HLSError, match="holds no hls export"):
        k.export(target)
    assert (target / "Makefile").read_text() == "theirs"


def test_a_non_empty_target_fails_before_the_golden_run(examples, tmp_path, monkeypatch):
    k = examples["vadd"].KERNEL
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "notes.txt").write_text("mine")
    monkeypatch.setattr(k, "random_inputs", lambda seed: pytest.fail("the golden run started"))
    with pytest.raises(HLSError, match="not empty"):
        k.export(tmp_path / "p")


def test_never_writes_outside_the_target(examples, tmp_path):
    k = examples["vadd"].KERNEL
    outside = tmp_path / "outside"
    outside.mkdir()
    target = tmp_path / "p"
    target.mkdir()
    (target / "src").symlink_to(outside, target_is_directory=True)
    with pytest.raises(HLSError, match="symbolic link"):
        k.export(target, overwrite=True)
    assert list(outside.iterdir()) == [] and [p.name for p in target.iterdir()] == ["src"]
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(HLSError, match="not a directory"):
        k.export(afile, overwrite=True)


@pytest.mark.parametrize("kwargs", [
    {"part": "xcu250; exec rm -rf ~"}, {"part": "[exec touch pwned]"}, {"part": "$env(HOME)"}, {"part": ""},
    {"part": "xc\nset_top x"}, {"clock_ns": 0}, {"clock_ns": -3}, {"clock_ns": math.nan}, {"clock_ns": "3.33"},
    {"clock_ns": True}, {"flow": "quartus"}, {"seed": -1}, {"seed": 1.5}, {"rtol": -1.0},
])
def test_rejects_unsafe_or_bad_settings(examples, tmp_path, kwargs):
    with pytest.raises(HLSError):
        examples["vadd"].KERNEL.export(tmp_path / "p", **kwargs)
    assert not (tmp_path / "p").exists()


def test_read_manifest_rejects_other_dirs(tmp_path):
    with pytest.raises(HLSError, match="not a project exported by hls"):
        read_manifest(tmp_path)
    (tmp_path / MANIFEST).write_text("{}")
    with pytest.raises(HLSError, match="not an hls export manifest"):
        read_manifest(tmp_path)


def test_estimate_stored_without_machine_paths(examples, tmp_path):
    """Kernel.export runs the estimate at the export's clock, part and flow and stores it with loop
    source paths reduced to file names."""
    manifest = read_manifest(examples["vadd"].KERNEL.export(tmp_path / "ok", clock_ns=4, part="xcvu9p-flga2104-2-i"))
    estimate = manifest["estimate"]
    assert (estimate["clock_ns"], estimate["part"]) == (4.0, "xcvu9p-flga2104-2-i")
    assert manifest["estimate_error"] is None
    assert estimate["loops"] and all(loop["file"] == "vadd.py" for loop in estimate["loops"])


def test_failed_estimate_is_recorded(examples, tmp_path, monkeypatch):
    k = examples["vadd"].KERNEL

    def failing_report(**kwargs):
        raise HLSError("no timing model for this part\nsecond line")

    monkeypatch.setattr(k, "report", failing_report)
    manifest = read_manifest(k.export(tmp_path / "failed"))
    assert manifest["estimate"] is None and manifest["estimate_error"] == "no timing model for this part"
    assert (tmp_path / "failed/tb/data/a.dat").is_file()  # the project itself is complete


def test_the_project_stage_takes_plain_data(examples, tmp_path):
    """export_project writes from the compiled design, the golden vectors and a Report-like object alone."""
    compiled = examples["dot"].KERNEL.compile()
    a, b = np.arange(128, dtype=np.int16), np.full(128, 2, dtype=np.int16)
    vectors = GoldenVectors([a, b], [a, b], 2 * sum(range(128)), given=True)

    class Estimate:
        def to_dict(self):
            return {"top": "dot", "loops": [{"file": "/somewhere/on/this/machine/dot.py"}]}

    settings = ExportSettings("xcvu9p-flga2104-2-i", 5, "vivado", 0, 1e-5, 1e-6)
    project = export_project(compiled, vectors, Estimate(), settings, tmp_path / "p")
    manifest = read_manifest(project)
    assert manifest["estimate"]["loops"] == [{"file": "dot.py"}] and manifest["inputs"] == "given"
    assert (project / "tb/data/return.golden.dat").read_text() == "16256\n"  # 2 * (0 + 1 + ... + 127)
    assert "xcvu9p-flga2104-2-i" in (project / "run_hls.tcl").read_text()
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr


def test_templates_ship_with_the_package():
    for pkg, name in (("templates", "run_hls.tcl.j2"), ("templates", "hls_config.cfg.j2"),
                      ("templates", "project.mk.j2"), ("templates", "project_README.md.j2"),
                      ("testbenches", "tb.cpp.j2")):
        assert (resources.files("hls.backend.cpp") / pkg / name).is_file()


# ---- CLI ------------------------------------------------------------------------------------------

# Runs hls.cli.main; adds the export/report parsers when hls/cli/main.py does not wire them in (yet).
DRIVER = """
import argparse, sys
import hls.cli.export, hls.cli.main
base = hls.cli.main.parser
def parser():
    p = base()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    if "export" not in sub.choices:
        hls.cli.export.add_export_parser(sub)
    if "report" not in sub.choices:
        hls.cli.export.add_report_parser(sub)
    return p
hls.cli.main.parser = parser
sys.exit(hls.cli.main.main(sys.argv[1:]))
"""


def hls_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", DRIVER, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


@pytest.mark.parametrize("command", ["emit", "csim", "report", "export", "demo"])
def test_cli_help(command):
    run = hls_cli(command, "--help")
    assert run.returncode == 0 and "usage: hls " + command in run.stdout


def test_cli_export(tmp_path):
    out = tmp_path / "dot_prj"
    run = hls_cli("export", str(ROOT / "examples/dot.py:dot"), "-o", str(out), "--clock", "5", "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert f"make -C {out} csim" in run.stdout and f"make -C {out} csynth" in run.stdout and run.stderr == ""
    manifest = read_manifest(out)
    assert manifest["clock_ns"] == 5.0 and manifest["seed"] == 3
    again = hls_cli("export", str(ROOT / "examples/dot.py:dot"), "-o", str(out))
    assert again.returncode == 0, again.stderr  # a previous export is updated in place
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    refused = hls_cli("export", str(ROOT / "examples/dot.py:dot"), "-o", str(other))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--force" in refused.stderr
    assert hls_cli("export", str(ROOT / "examples/dot.py:dot"), "-o", str(other), "--force").returncode == 0


@pytest.mark.parametrize("args, message", [
    (("export", "missing.py:k", "-o", "{out}"), "hls: no such file: missing.py"),
    (("export", "examples/dot.py:not_a_kernel", "-o", "{out}"), "no @hls.kernel named 'not_a_kernel'"),
    (("export", "examples/dot.py:dot", "-o", "{out}", "--part", "[exec id]"), "part '[exec id]'"),
    (("report", "missing.py:k"), "hls: no such file: missing.py"),
    (("report", "examples/dot.py:not_a_kernel"), "no @hls.kernel named 'not_a_kernel'"),
    (("report", "{tmp}"), "not a project written by `hls export`"),
    (("report", "nonsense"), "expected FILE.py:kernel or an exported project directory"),
])
def test_cli_bad_targets(tmp_path, args, message):
    run = hls_cli(*(a.format(out=tmp_path / "out", tmp=tmp_path) for a in args))
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr, run.stderr
    assert not (tmp_path / "out").exists()


def test_cli_report_project(exported):
    run = hls_cli("report", str(exported["projects"]["dot"]))
    assert run.returncode == 0, run.stderr
    assert "estimate for 'dot'" in run.stdout and "loop_i" in run.stdout
    assert "no csynth.xml in this project yet" in run.stdout


def test_cli_report_project_side_by_side_with_vitis(examples, tmp_path):
    """Once Vitis has written csynth.xml into the project, estimate and Vitis print side by side.
    (The csynth.xml is a hand-written fixture following the documented schema, not a Vitis run.)"""
    import shutil

    project = examples["gemm"].KERNEL.export(tmp_path / "gemm")
    shutil.copytree(ROOT / "tests/fixtures/csynth/gemm_tcl/solution1", project / "proj/solution1")
    run = hls_cli("report", str(project))
    assert run.returncode == 0, run.stderr
    assert "vitis" in run.stdout.lower() and "estimate" in run.stdout.lower()
    assert "loop_k" in run.stdout
