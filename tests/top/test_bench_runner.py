"""bench/run.py: discovery, the agreed row shape, the results file; bench_test_time's reading of make test's record.

No timing is asserted here: performance claims live in bench/ as ratios, not in tests.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str):
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_under_test_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOOD = '''
def run(quick=False):
    return [{"name": "x", "value": 2.0, "baseline": 4.0, "ratio": 0.5, "unit": "s", "target": None,
             "note": "quick" if quick else "full"}]
'''


def test_rows_are_checked_for_the_agreed_shape(tmp_path: Path) -> None:
    runner = load("run")
    good = tmp_path / "bench_good.py"
    good.write_text(GOOD)
    assert runner.run_module(good, quick=True)[0]["note"] == "quick"
    bad = tmp_path / "bench_bad.py"
    bad.write_text(GOOD.replace('"unit": "s", ', ""))
    with pytest.raises(TypeError, match="unit"):
        runner.run_module(bad, quick=False)
    assert "x" in runner.table(runner.run_module(good, quick=False))


def test_runner_discovers_every_bench_module_and_writes_results(tmp_path: Path) -> None:
    runner = load("run")
    names = {p.stem for p in runner.discover([])}
    assert {"bench_csim", "bench_frontend", "bench_schedule", "bench_test_time"} <= names
    assert [p.stem for p in runner.discover(["schedule"])] == ["bench_schedule"]
    out = tmp_path / "results.json"
    assert runner.main(["--only", "test_time", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["machine"]["cores"] >= 1 and result["machine"]["python"]
    assert set(result["modules"]) == {"bench_test_time"}


def test_test_time_bench_reads_the_make_test_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load("bench_test_time")
    monkeypatch.setattr(bench, "RECORD", tmp_path / "missing.json")
    assert bench.run() == []
    record = tmp_path / "test_time.json"
    record.write_text('{"seconds": 150, "exit": 0, "cores": 2, "date": "2026-01-01T00:00:00Z"}\n')
    monkeypatch.setattr(bench, "RECORD", record)
    (only,) = bench.run()
    assert only["value"] == 150 and only["baseline"] == 300 and only["ratio"] == 0.5
    assert "passed" in only["note"]
