"""A schedule outside Python: the exported project's directives.tcl, the CLI's --schedule, hls.explore."""

from __future__ import annotations

import concurrent.futures
import shlex
import subprocess
from pathlib import Path

import hls
from hls.cli.main import main
from tests.kernels import customize_kernels as ck
from tests.project.test_export import make

ROOT = Path(__file__).resolve().parents[2]
STANDINS = ROOT / "tests" / "fixtures" / "vitis_standins.tcl"
KERNELS = ROOT / "tests" / "kernels" / "customize_kernels.py"


def schedule():
    return hls.customize(ck.small_mm).split("k", 5).pipeline("COL", ii=1).partition("B", "cyclic", factor=2, dim=1)


def test_export_carries_the_directives_as_directives_tcl(tmp_path):
    built = schedule().build()
    inline = built.export(tmp_path / "inline")
    assert not (inline / "directives.tcl").exists()
    assert "#pragma HLS pipeline II=1" in (inline / "src" / "small_mm.cpp").read_text()
    tcl = built.export(tmp_path / "tcl", directives="tcl")
    cpp = (tcl / "src" / "small_mm.cpp").read_text()
    assert "#pragma HLS pipeline" not in cpp and "array_partition" not in cpp
    assert "loop_k_outer:" in cpp  # the transformation stays in the C++
    directives = (tcl / "directives.tcl").read_text()
    assert 'set_directive_pipeline -II 1 "small_mm/COL"' in directives
    assert 'set_directive_array_partition -type cyclic -factor 2 -dim 1 "small_mm" B' in directives
    assert "source directives.tcl" in (tcl / "run_hls.tcl").read_text()
    assert "source directives.tcl" not in (inline / "run_hls.tcl").read_text()
    log = tmp_path / "log"
    run = subprocess.run(["tclsh", str(STANDINS), str(log), str(tcl / "run_hls.tcl"), "csim"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    calls = [line.split("\x1f") for line in log.read_text().splitlines()]
    names = [c[0] for c in calls]
    assert names.index("set_directive_pipeline") > names.index("create_clock")
    assert ["set_directive_array_partition", "-type", "cyclic", "-factor", "2", "-dim", "1", "small_mm", "B"] in calls
    made = make(tcl, "csim")  # the testbench passes on the C++ without the directives
    assert made.returncode == 0 and "PASS:" in made.stdout, made.stdout + made.stderr


def test_cli_schedule_option(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(schedule().to_json())
    assert main(["emit", f"{KERNELS}:small_mm", "--schedule", str(path)]) == 0
    assert "#pragma HLS pipeline II=1" in capsys.readouterr().out
    tcl = tmp_path / "s.tcl"
    tcl.write_text('set_directive_pipeline -II 2 "small_mm/COL"\n')
    assert main(["report", f"{KERNELS}:small_mm", "--schedule", str(tcl), "--json"]) == 0
    assert '"target_ii": 2' in capsys.readouterr().out
    assert main(["csim", f"{KERNELS}:small_mm", "--schedule", str(path)]) == 0
    assert "csim matches the golden model" in capsys.readouterr().out
    out = tmp_path / "prj"
    assert main(["export", f"{KERNELS}:small_mm", "--schedule", str(path), "-o", str(out), "--directives", "tcl"]) == 0
    assert (out / "directives.tcl").is_file()
    assert main(["emit", f"{KERNELS}:small_mm", "--schedule", str(tmp_path / "none.json")]) == 2
    assert "no such schedule file" in capsys.readouterr().err
    bad = tmp_path / "bad.tcl"
    bad.write_text('set_directive_pipeline "small_mm/NOPE"\n')
    assert main(["emit", f"{KERNELS}:small_mm", "--schedule", str(bad)]) == 2
    assert "no loop named 'small_mm/NOPE'" in capsys.readouterr().err


def small_mm_space(factor: int, ii: int) -> hls.Schedule:
    return hls.customize(ck.small_mm).split("k", factor).pipeline("loop_k_inner", ii=ii)


def test_explore_accepts_a_factory_returning_a_schedule():
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        result = hls.explore(small_mm_space, {"factor": [2, 5], "ii": [1, 2]}, executor=pool)
    assert len(result.rows) == 4 and all(row.error is None for row in result.rows)
    latencies = {tuple(row.params.values()): row.latency_max for row in result.rows}
    assert len(set(latencies.values())) > 1  # the points differ: the schedule reached the estimate


def _cfg_as_tcl(line: str) -> list[str]:
    """A `syn.directive.<name>=[key=value | flag]... <location> [variable]` config line as the words of the
    `set_directive_<name>` command it stands for (UG1399's syn.directive.* pages)."""
    key, _, rest = line.partition("=")
    words, options, where = rest.split(), [], []
    for word in words:
        if word == "off=true":
            options.append("-off")
        elif "=" in word:
            name, _, value = word.partition("=")
            options += [f"-{name}", value]
        elif word in ("rewind", "skip_exit_check", "recursive"):
            options.append(f"-{word}")
        else:
            where.append(word)
    return ["set_directive_" + key.removeprefix("syn.directive."), *options, *where]


def test_unified_config_carries_the_directives(tmp_path):
    s = (hls.customize(ck.small_mm).split("k", 5).pipeline("COL", ii=1).unroll("k_inner", factor=2,
                                                                               skip_exit_check=True)
         .loop_tripcount("ROW", 12, 12).loop_flatten("ROW", off=True)
         .partition("B", "cyclic", factor=2, dim=1).partition("A", "complete", dim=2))
    project = s.build().export(tmp_path / "tcl", directives="tcl")
    tcl = [shlex.split(line) for line in (project / "directives.tcl").read_text().splitlines()
           if line.startswith("set_directive_")]
    cfg = (project / "hls_config.cfg").read_text().splitlines()
    lines = [line for line in cfg if line.startswith("syn.directive.")]
    assert "syn.directive.pipeline=II=1 small_mm/COL" in lines
    assert "syn.directive.unroll=factor=2 skip_exit_check small_mm/loop_k_inner" in lines
    assert "syn.directive.loop_flatten=off=true small_mm/ROW" in lines
    assert "syn.directive.array_partition=type=cyclic factor=2 dim=1 small_mm B" in lines
    assert [_cfg_as_tcl(line) for line in lines] == tcl and len(tcl) == 6
    assert cfg.index(lines[0]) > cfg.index("[hls]")  # under the [hls] header, as the options must be
    inline = s.build().export(tmp_path / "inline")
    assert "syn.directive" not in (inline / "hls_config.cfg").read_text()
