"""Design-space exploration (issue 15, item 5): hls.explore over a process pool, threads and Dask."""

from __future__ import annotations

import concurrent.futures
import importlib
import itertools
import json
import os
import re
import stat
import sys
from pathlib import Path

import pytest

import hls
from hls.explore.result import Row, pareto_front
from tests.kernels.explore_kernels import broken, matmul, vector

ROOT = Path(__file__).resolve().parents[2]
STANDINS = ROOT / "tests" / "fixtures" / "vitis_standins.tcl"
SPACE = {"ii": [1, 2, 3, 4], "unroll": [1, 2, 4, 8], "partition": [1, 2, 4, 8]}  # 64 points


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                       silence_logs=40)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def local_run():
    return hls.explore(matmul, SPACE)


def dominates(a: Row, b: Row, cost) -> bool:
    return (a.latency_max <= b.latency_max and cost(a) <= cost(b)
            and (a.latency_max < b.latency_max or cost(a) < cost(b)))


def test_closure_values_are_directive_options():
    """A factory's parameters reach the pragmas through the kernel's closure."""
    cpp = matmul(2, 1, 4).cpp
    assert "#pragma HLS pipeline II=2" in cpp
    assert "type=cyclic factor=4 dim=2" in cpp
    assert matmul(1, 1, 4).cpp != cpp


def test_closure_values_are_loop_bounds():
    def make(n):
        @hls.kernel
        def ramp(x: hls.int32[16]):
            for i in range(n):
                x[i] = i

        return ramp

    assert [make(n).report().loops[0].trip_max for n in (4, 12)] == [4, 12]


def test_a_factory_parameter_used_only_in_the_signature():
    """Regression: `n` in `x: hls.int32[n]` is no closure cell of the kernel (unknown name before)."""
    assert "n" not in vector(8).__hls_kernel__.__code__.co_freevars
    assert "x[8]" in vector(8).cpp and "x[16]" in vector(16).cpp
    result = hls.explore(vector, {"n": [4, 8]}, executor=concurrent.futures.ThreadPoolExecutor())
    assert all(row.ok for row in result.rows)


def test_64_points_local_pool_and_dask_give_identical_tables(local_run, dask_client):
    result = local_run
    assert len(result.rows) == 64 and [row.index for row in result.rows] == list(range(64))
    assert [row.params for row in result.rows] == [dict(zip(SPACE, p, strict=True))
                                                   for p in itertools.product(*SPACE.values())]
    assert all(row.ok and row.latency_max > 0 and row.lut > 0 for row in result.rows)
    on_dask = hls.explore(matmul, SPACE, executor=dask_client.get_executor())
    assert str(on_dask) == str(result)
    assert on_dask.to_dict() == result.to_dict()
    json.dumps(result.to_dict())  # plain data


def test_a_dask_client_or_scheduler_address_is_an_executor(local_run, dask_client):
    small = {"ii": [1, 3], "unroll": [2, 8], "partition": [1, 4]}
    expected = str(hls.explore(matmul, small, executor=concurrent.futures.ThreadPoolExecutor(2)))
    assert str(hls.explore(matmul, small, executor=dask_client)) == expected
    assert str(hls.explore(matmul, small, executor=dask_client.scheduler.address)) == expected
    assert dask_client.status == "running"  # a client given is left open


def test_a_scheduler_address_without_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(hls.HLSError, match=r"hls\[dask\]"):
        hls.explore(matmul, {"ii": [1]}, executor="tcp://127.0.0.1:8786")
    with pytest.raises(hls.HLSError, match="executor must be"):
        hls.explore(matmul, {"ii": [1]}, executor=4)


def test_pareto_front_is_the_set_of_non_dominated_rows(local_run):
    result = local_run
    front = result.pareto
    assert front
    ids = {row.index for row in front}
    for row in result.rows:
        dominated = any(dominates(other, row, result.cost) for other in result.rows)
        assert dominated == (row.index not in ids), row
    # the knobs matter: the front trades latency against area, it is not a single point (area with a DSP
    # weighed as 100 LUTs: unrolling moves the adders into DSP48 post-adders, so LUTs alone need not grow)
    area = pareto_front(result.rows, lambda row: row.lut + 100 * row.dsp)
    assert len({(row.latency_max, row.lut + 100 * row.dsp) for row in area}) > 1


def test_pareto_front_keeps_ties_and_skips_errors():
    def row(i, latency, lut, error=None):
        return Row(i, {}, latency_max=latency, lut=lut, error=error)

    rows = [row(0, 10, 5), row(1, 10, 5), row(2, 10, 6), row(3, 8, 9), row(4, 8, 9), row(5, 12, 4),
            row(6, 12, 5), row(7, 1, 1, error="boom"), row(8, 9, 9)]
    front = pareto_front(rows, lambda r: r.lut)
    assert [r.index for r in front] == [0, 1, 3, 4, 5]


def test_page_draws_the_front(local_run, tmp_path):
    result = local_run
    path = tmp_path / "explore.html"
    text = result.to_html(path)
    assert path.read_text(encoding="utf-8") == text
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text
    assert not re.search(r"<script|\bsrc=|\bhref=\"(?!#|data:)|@import", text)  # self-contained, no network
    circles = re.findall(r'<circle class="(point(?: front)?)" data-index="(\d+)"', text)
    assert len(circles) == 64
    assert {int(i) for c, i in circles if c == "point front"} == {row.index for row in result.pareto}
    assert 'class="front-line"' in text
    notebook = result._repr_html_()
    assert re.search(r"<svg.*</svg>", notebook, re.S).group(0) in text  # the same picture inline


def test_table_marks_the_front(local_run):
    lines = str(local_run).splitlines()
    assert lines[0].startswith("exploration of matmul: 64 points")
    header = [c.strip() for c in lines[2].split("|")[1:-1]]
    assert header[:4] == ["#", "ii", "unroll", "partition"]
    marked = {int(line.split("|")[1]) for line in lines[4:-1] if line.split("|")[header.index("front") + 1].strip()}
    assert marked == {row.index for row in local_run.pareto}


def test_sample_is_reproducible_by_seed():
    first = hls.explore(matmul, SPACE, sample=10, seed=3, executor=concurrent.futures.ThreadPoolExecutor(2))
    again = hls.explore(matmul, SPACE, sample=10, seed=3, executor=concurrent.futures.ThreadPoolExecutor(2))
    other = hls.explore(matmul, SPACE, sample=10, seed=4, executor=concurrent.futures.ThreadPoolExecutor(2))
    indices = [row.index for row in first.rows]
    assert len(indices) == 10 and indices == sorted(set(indices))
    assert indices == [row.index for row in again.rows] and str(first) == str(again)
    assert indices != [row.index for row in other.rows]
    points = list(itertools.product(*SPACE.values()))
    assert all(tuple(row.params.values()) == points[row.index] for row in first.rows)
    assert "(sampled from 64)" in str(first)


def test_a_failing_point_is_a_row_not_an_exception():
    result = hls.explore(broken, {"size": [0, 1, 3, -2]}, executor=concurrent.futures.ThreadPoolExecutor(2))
    errors = {row.params["size"]: row.error for row in result.rows}
    assert errors[1] is None and errors[3] is None
    for size in (0, -2):
        assert re.match(r".*explore_kernels\.py:\d+:\d+: .*unroll", errors[size]), errors[size]
    assert [row.params["size"] for row in result.pareto] and all(row.ok for row in result.pareto)
    assert "explore_kernels.py:" in str(result)


def test_factory_errors_of_any_kind_stay_in_their_row():
    def factory(kind):
        if kind == "value":
            raise ValueError("not this one")
        if kind == "none":
            return None
        return broken(2)

    result = hls.explore(factory, {"kind": ["value", "none", "ok"]}, executor=concurrent.futures.ThreadPoolExecutor())
    assert result.rows[0].error == "ValueError: not this one"
    assert "not an hls.Kernel" in result.rows[1].error
    assert result.rows[2].ok


def test_unpicklable_factory_with_the_process_pool_is_a_clear_error():
    with pytest.raises(hls.HLSError, match="ThreadPoolExecutor"):
        hls.explore(lambda size: broken(size), {"size": [1, 2]})


@pytest.mark.parametrize("bad, message", [
    ({}, "non-empty dict"), ({"ii": []}, "non-empty list"), ({"ii": "12"}, "non-empty list"),
    ({1: [1]}, "parameter name"),
])
def test_bad_space(bad, message):
    with pytest.raises(hls.HLSError, match=message):
        hls.explore(matmul, bad)


def test_objectives():
    weighted = hls.explore(matmul, {"ii": [1, 3], "unroll": [1, 8], "partition": [1, 8]}, {"dsp": 100, "lut": 1},
                           executor=concurrent.futures.ThreadPoolExecutor(2))
    assert all(weighted.cost(row) == 100 * row.dsp + row.lut for row in weighted.rows)
    assert "100*dsp + 1*lut" in str(weighted)
    by_dsp = hls.explore(matmul, {"ii": [1, 3], "unroll": [1, 8], "partition": [1, 8]}, lambda row: row.dsp,
                         executor=concurrent.futures.ThreadPoolExecutor(2))
    assert all(by_dsp.cost(row) == row.dsp for row in by_dsp.rows)
    by_dsp.objective.measure = lambda row: "many"
    with pytest.raises(hls.HLSError, match="must return a finite number"):
        assert by_dsp.pareto is None  # never reached: raises
    by_dsp.objective.measure = lambda row: 1 // 0
    with pytest.raises(hls.HLSError, match="raised on row #0: ZeroDivisionError"):
        str(by_dsp)
    for bad in ("luts", {"luts": 1}, {"lut": float("nan")}, 3):
        with pytest.raises(hls.HLSError, match="objective"):
            hls.explore(matmul, {"ii": [1]}, bad)
    with pytest.raises(hls.HLSError, match="unknown option"):
        hls.explore(matmul, {"ii": [1]}, clock=3)


def test_verify_checks_each_distinct_design_once(monkeypatch):
    explore_module = importlib.import_module("hls.explore.run")  # the module (hls.explore is the function)
    calls = []
    real = explore_module.verify_point

    def counting(factory, params, seed):
        calls.append(params)
        return real(factory, params, seed)

    monkeypatch.setattr(explore_module, "verify_point", counting)
    result = hls.explore(shifter, {"offset": [0, 1], "pipe": [2, 3]}, verify=True,
                         executor=concurrent.futures.ThreadPoolExecutor(2))
    designs = {row.design for row in result.rows}
    assert all(row.ok for row in result.rows) and None not in designs
    assert len(calls) == len(designs) < len(result.rows)  # "pipe" 2 and 3 give the same C++
    good = [row for row in result.rows if row.params["offset"] == 0]
    bad = [row for row in result.rows if row.params["offset"] == 1]
    assert all(row.verified is True and row.verify_error is None for row in good)
    assert all(row.verified is False and "out of bounds" in row.verify_error for row in bad)
    assert "FAIL" in str(result) and "pass" in str(result)


def shifter(offset: int, pipe: int) -> hls.Kernel:
    """Reads past the end of `x` when offset is 1: the estimate is fine, verify fails."""
    ii = min(pipe, 2)

    @hls.kernel
    def shift(x: hls.int32[4], y: hls.int32[4]):
        for i in range(4):
            hls.pipeline(ii=ii)
            y[i] = x[(i + offset) % 8]

    return shift


def test_vitis_without_the_tool_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(hls.HLSError, match="vitis_hls.*not on PATH"):
        hls.explore(matmul, {"ii": [1]}, vitis=True)


FAKE_VITIS = """#!/bin/sh
# STAND-IN for vitis_hls, written by tests/explore/test_explore.py: NOT AMD Vitis HLS. It runs run_hls.tcl under
# tclsh with the recording stand-ins of tests/fixtures/vitis_standins.tcl, then writes a csynth.xml whose
# numbers are the size of the kernel source (so the test can tell which point a report belongs to).
set -e
[ "$1" = "-f" ] && [ "$2" = "run_hls.tcl" ] || exit 64
tclsh "{standins}" standin.log run_hls.tcl
top=$(basename src/*.cpp .cpp)
mkdir -p hls_prj/solution1/syn/report
bytes=$(wc -c < "src/$top.cpp")
lines=$(wc -l < "src/$top.cpp")
cat > "hls_prj/solution1/syn/report/${{top}}_csynth.xml" <<EOF
<profile>
<!-- STAND-IN written by the fake vitis_hls of tests/explore/test_explore.py; not a Vitis result -->
<UserAssignments><ProductFamily>stand-in</ProductFamily><Part>stand-in</Part>
<TopModelName>$top</TopModelName><TargetClockPeriod>3.33</TargetClockPeriod></UserAssignments>
<PerformanceEstimates><SummaryOfOverallLatency><Best-caseLatency>$lines</Best-caseLatency>
<Worst-caseLatency>$lines</Worst-caseLatency><Interval-min>1</Interval-min><Interval-max>1</Interval-max>
</SummaryOfOverallLatency></PerformanceEstimates>
<AreaEstimates><Resources><BRAM_18K>0</BRAM_18K><DSP>0</DSP><FF>0</FF><LUT>$bytes</LUT><URAM>0</URAM>
</Resources></AreaEstimates>
</profile>
EOF
"""


def test_vitis_synthesis_plumbing_with_a_stand_in(monkeypatch, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "vitis_hls"
    fake.write_text(FAKE_VITIS.format(standins=STANDINS))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    space = {"ii": [1, 2], "unroll": [1, 8], "partition": [1, 8]}
    # area with a DSP weighed as 100 LUTs, so the front of the 8 points has at least 3 (see the front test)
    result = hls.explore(matmul, space, vitis=True, top_k=3, vitis_dir=tmp_path / "runs",
                         executor=concurrent.futures.ThreadPoolExecutor(2), objective={"dsp": 100, "lut": 1})
    synthesised = [row for row in result.rows if row.vitis is not None]
    assert len(synthesised) == 3 and all(row.vitis_error is None for row in result.rows)
    fastest_front = sorted(result.pareto, key=lambda row: (row.latency_max, result.cost(row), row.index))[:3]
    assert len(result.pareto) >= 3 and synthesised == sorted(fastest_front, key=lambda row: row.index)
    for row in synthesised:
        cpp = matmul(**row.params).cpp.encode()
        assert row.vitis["source"] == "vitis" and row.vitis["part"] == "stand-in"
        assert row.vitis["resources"]["lut"] == len(cpp)
        assert row.vitis["latency"]["max"] == cpp.count(b"\n")
        assert Path(row.project) == tmp_path / "runs" / f"point_{row.index}"
        log = (Path(row.project) / "standin.log").read_text()
        assert "csynth_design" in log and "csim_design" not in log  # HLS_STEPS=csynth
    assert "vitis LUT" in str(result)


def test_an_estimate_in_another_thread_does_not_clear_this_threads_demanded_widths():
    """hls.explore runs estimates side by side in a thread pool: each schedule_module starts its own
    demanded-bits table, and must not empty the one an estimate in another thread is still reading."""
    import threading

    from hls.schedule import opcost

    opcost.forget_demanded_widths()
    module = matmul(ii=1, unroll=1, partition=1).compile().module
    values = [result for function in module.functions.values() for op in function.walk() for result in op.results]
    for v in values:
        opcost.demanded_width(v)
    mine = len(opcost._demanded_table())
    other = threading.Thread(target=opcost.forget_demanded_widths)
    other.start()
    other.join()
    assert mine > 0 and len(opcost._demanded_table()) == mine
