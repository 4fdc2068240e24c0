"""The timed FIFO simulation, FIFO sizing and FIFO cost (hls/schedule/fifo_timing.py).

Expected figures are worked out by hand from the rules in docs/dataflow.md ("How time is computed");
random designs are checked against the cycle-by-cycle oracle in tests/fifo_reference.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hls.errors import HLSError
from hls.schedule import fifo_engine
from hls.schedule.fifo_timing import FifoRegion, FifoSpec, ProcessTrace, fifo_cost, simulate, size_fifos
from tests.fifo_reference import random_design, reference


def streaming(name: str, fifo: int, write: bool, items: int, ii: int = 1, after: tuple[str, ...] = (),
              line: int | None = None) -> ProcessTrace:
    """A loop at II `ii` doing one access of `fifo` per iteration; ends one cycle after its last access."""
    nominal = np.arange(items, dtype=np.int64) * ii
    return ProcessTrace(name, np.full(items, fifo, np.int32), np.full(items, write), nominal,
                        (items - 1) * ii + 1, list(after), None if line is None else [line] * items)


def loop(name: str, accesses: list[tuple[int, bool, int]], items: int, ii: int, offset: int = 0,
         lines: dict[int, int] | None = None) -> ProcessTrace:
    """`items` iterations at II `ii` starting at `offset`; each iteration does `accesses` (fifo, write,
    cycle within the iteration). `lines` maps a FIFO index to the source line of its accesses."""
    fifo, write, nominal, line = [], [], [], []
    for item in range(items):
        for f, w, at in accesses:
            fifo.append(f)
            write.append(w)
            nominal.append(offset + item * ii + at)
            line.append((lines or {}).get(f, 0))
    return ProcessTrace(name, np.array(fifo, np.int32), np.array(write, bool), np.array(nominal, np.int64),
                        nominal[-1] + 1, [], line if lines else None)


def test_producer_ii1_consumer_ii2_depth2_exact_issue_times():
    # Reads: read 0 waits for write 0 (+1) -> 1, then one every 2 cycles: 2k + 1.
    # Writes: write k >= read k-2 + 1 = 2k - 2: writes 0, 1, 2 on time, then 4, 6, 8 (slipping).
    result = simulate([streaming("p", 0, True, 6), streaming("c", 0, False, 6, ii=2)], [FifoSpec("q", 32, 2)])
    assert result.issue["p"].tolist() == [0, 1, 2, 4, 6, 8]
    assert result.issue["c"].tolist() == [1, 3, 5, 7, 9, 11]
    # p: last write at 8, nominal 5, end 6 -> 9; c: last read at 11, nominal 10, end 11 -> 12.
    assert result.process_times == {"p": (0, 9), "c": (0, 12)}
    assert result.latency == 12
    # Busy times: p 9 - 0; c 12 - (1 - 0), its wait for the first item not counted.
    assert result.interval == 11
    assert result.peak == {"q": 2}
    # c waited 1 cycle on empty (its first read); p slipped 1 cycle at each of writes 3, 4, 5 (full).
    assert result.stalls == {"q": (1, 3)}
    assert result.deadlock is None


def test_producer_ii2_consumer_ii1_waits_for_every_item():
    result = simulate([streaming("p", 0, True, 4, ii=2), streaming("c", 0, False, 4)], [FifoSpec("q", 32, 2)])
    assert result.issue["p"].tolist() == [0, 2, 4, 6]  # never full
    assert result.issue["c"].tolist() == [1, 3, 5, 7]  # read k one cycle after write k
    assert result.process_times == {"p": (0, 7), "c": (0, 8)}
    assert result.stalls == {"q": (4, 0)}  # c slipped 1 cycle at each read
    assert result.peak == {"q": 1}


def test_depth1_halves_the_rate_depth2_keeps_ii1():
    procs = [streaming("p", 0, True, 5), streaming("c", 0, False, 5)]
    # depth 1: write k >= read k-1 + 1 and read k >= write k + 1, so one item every 2 cycles.
    assert simulate(procs, [FifoSpec("q", 8, 1)]).issue["p"].tolist() == [0, 2, 4, 6, 8]
    assert simulate(procs, [FifoSpec("q", 8, 2)]).issue["p"].tolist() == [0, 1, 2, 3, 4]


def test_three_streaming_stages_overlap():
    n = 1024
    stages = [streaming("load", 0, True, n),
              loop("compute", [(0, False, 0), (1, True, 0)], n, 1),
              streaming("store", 1, False, n)]
    result = simulate(stages, [FifoSpec("s1", 32, 2), FifoSpec("s2", 32, 2)])
    # compute slips 1 cycle (first item), store 2: store ends at 1023 + 2 + 1.
    assert result.latency == n + 2
    assert result.process_times["store"] == (0, n + 2)
    # Each stage is busy 1024 cycles once its first item is in: that is the interval, not 3 * 1024.
    assert result.interval == n
    assert result.stalls == {"s1": (1, 0), "s2": (2, 0)}


N = 16
FORK_LINES = {"b": 10, "a": 11, "worker_a": 20, "worker_c": 21, "join_c": 30, "join_b": 31}


def fork_join() -> tuple[list[ProcessTrace], list[FifoSpec]]:
    """split writes each item to the bypass b then to a; worker reads all N items of a before writing
    any to c; join reads c then b per item. b must hold N items while worker drains a."""
    split = loop("split", [(1, True, 0), (0, True, 0)], N, 1, lines={1: 10, 0: 11})
    reads = loop("worker", [(0, False, 0)], N, 1, lines={0: 20})
    writes = loop("worker", [(2, True, 0)], N, 1, offset=N, lines={2: 21})
    worker = ProcessTrace("worker", np.concatenate([reads.fifo, writes.fifo]),
                          np.concatenate([reads.write, writes.write]),
                          np.concatenate([reads.nominal, writes.nominal]), 2 * N, [],
                          (reads.lines or []) + (writes.lines or []))
    join = loop("join", [(2, False, 0), (1, False, 0)], N, 1, lines={2: 30, 1: 31})
    return [split, worker, join], [FifoSpec("a", 32, 2), FifoSpec("b", 32, 2), FifoSpec("c", 32, 2)]


def test_fork_join_deadlock_names_every_blocked_process_and_line():
    procs, fifos = fork_join()
    result = simulate(procs, fifos)
    # split wrote b0 a0 b1 a1 and waits to write b2 (access 4) until join reads b0; join waits for c0,
    # which worker writes only after reading all of a, and a2 never comes.
    assert result.deadlock == [("split", "b", "full", 4, 10), ("worker", "a", "empty", 2, 20),
                               ("join", "c", "empty", 0, 30)]
    assert "split" not in result.process_times


def test_fork_join_sized_bypass_is_n_and_nothing_smaller_works():
    procs, fifos = fork_join()
    depths = size_fifos(procs, fifos)
    assert depths["b"] == N
    # a and c stream at II=1, which takes depth 2 (depth 1 halves the rate).
    assert depths["a"] == 2 and depths["c"] == 2
    unbounded = simulate(procs, fifos, {"a": N, "b": N, "c": N})
    sized = simulate(procs, fifos, depths)
    assert sized.deadlock is None
    assert (sized.latency, sized.interval) == (unbounded.latency, unbounded.interval)
    assert simulate(procs, fifos, {**depths, "b": N - 1}).deadlock is not None
    slower = simulate(procs, fifos, {**depths, "a": 1})
    assert slower.deadlock is None and slower.latency > sized.latency


def test_read_of_a_fifo_nobody_writes_is_blocked_on_empty():
    result = simulate([streaming("c", 0, False, 3, line=7)], [FifoSpec("q", 8, 2)])
    assert result.deadlock == [("c", "q", "empty", 0, 7)]
    assert result.latency == 0 and result.process_times == {}
    assert result.to_dict() == {"latency": 0, "interval": 0, "processes": {}, "peak": {"q": 0},
                                "deadlock": [{"process": "c", "fifo": "q", "waits_on": "empty", "access": 0,
                                              "line": 7}], "stalls": {"q": {"empty": 0, "full": 0}}}


def test_write_nobody_reads_is_blocked_on_full_after_depth_items():
    result = simulate([streaming("p", 0, True, 5)], [FifoSpec("q", 8, 3)])
    assert result.deadlock == [("p", "q", "full", 3, None)]
    assert result.issue["p"].tolist() == [0, 1, 2]
    assert result.peak == {"q": 3}


def test_after_starts_a_process_when_its_producers_end():
    # a fills a ping-pong buffer (no FIFO) in 100 cycles; b starts at 100 and streams 10 items to c.
    a = ProcessTrace("a", np.zeros(0, np.int32), np.zeros(0, bool), np.zeros(0, np.int64), 100)
    b = streaming("b", 0, True, 10, after=("a",))
    c = streaming("c", 0, False, 10)
    result = simulate([c, b, a], [FifoSpec("q", 32, 2)])
    assert result.process_times["a"] == (0, 100)
    assert result.process_times["b"] == (100, 110)
    assert result.issue["c"].tolist() == list(range(101, 111))  # c started at 0 and waited for b
    assert result.latency == 111
    # interval: the longest busy time; c counts from its first read (101), so 10, a counts 100.
    assert result.interval == 100
    assert result.stalls == {"q": (101, 0)}  # c waited for b's start; b started late, it did not stall


def test_after_waiting_for_a_blocked_process_is_not_reported_as_blocked():
    a = streaming("a", 0, False, 2, line=3)
    b = streaming("b", 1, True, 2, after=("a",))
    result = simulate([a, b, streaming("c", 1, False, 2)], [FifoSpec("never", 8, 2), FifoSpec("q", 8, 2)])
    assert result.deadlock == [("a", "never", "empty", 0, 3), ("c", "q", "empty", 0, None)]


def test_peak_occupancy_and_a_depth_at_the_peak_changes_nothing():
    procs = [streaming("p", 0, True, 6), streaming("c", 0, False, 6, ii=2)]
    deep = simulate(procs, [FifoSpec("q", 32, 6)])
    # Reads at 2k + 1; at write 5 (cycle 5) six items went in and reads at 1 and 3 took two out.
    assert deep.issue["c"].tolist() == [1, 3, 5, 7, 9, 11]
    assert deep.peak == {"q": 4}
    at_peak = simulate(procs, [FifoSpec("q", 32, 4)])
    assert at_peak.issue["p"].tolist() == deep.issue["p"].tolist() == [0, 1, 2, 3, 4, 5]
    below = simulate(procs, [FifoSpec("q", 32, 3)])
    # write k >= read k-3 + 1: writes 3 and 4 are still on time (reads 0, 1 at 1, 3), write 5 waits for
    # read 2 (cycle 5) and slips to 6.
    assert below.issue["p"].tolist() == [0, 1, 2, 3, 4, 6]
    assert below.peak == {"q": 3}


def test_fifo_cost_thresholds():
    # UG1399 config_storage: SRL while depth x width <= 1024 bits.
    assert fifo_cost(32, 32, "ultrascale+")[0] == "SRL"
    assert fifo_cost(32, 32, "ultrascale+")[1].bram18k == 0
    assert fifo_cost(1024, 1, "versal")[0] == "SRL"
    assert fifo_cost(32, 33, "ultrascale+")[0] == "LUTRAM"
    assert fifo_cost(32, 64, "zynq-7000")[0] == "LUTRAM"
    kind, res = fifo_cost(32, 65, "zynq-7000")
    assert kind == "BRAM" and res.bram18k == 1  # 65 x 32 bits fit one RAMB18 as 512 x 36
    assert fifo_cost(32, 1024, "ultrascale+")[1].bram18k == 2  # 1024 x 18 twice
    assert fifo_cost(32, 4096, "ultrascale+", impl="srl")[0] == "SRL"
    assert fifo_cost(32, 2, "ultrascale+", impl="bram")[0] == "BRAM"
    kind, res = fifo_cost(72, 8192, "ultrascale+", impl="uram")
    assert kind == "URAM" and res.uram == 2
    # SRL data: one LUT per bit per 32 words, so a 64-deep 8-bit SRL FIFO has 8 data LUTs more than a
    # 32-deep one, and a 7-bit instead of a 6-bit counter (one LUT more).
    assert fifo_cost(8, 64, "ultrascale+")[1].lut - fifo_cost(8, 32, "ultrascale+")[1].lut == 8 + 1


def test_fifo_cost_rejects_bad_input():
    with pytest.raises(HLSError, match="no UltraRAM"):
        fifo_cost(32, 4096, "zynq-7000", impl="uram")
    with pytest.raises(HLSError, match="unknown FPGA family"):
        fifo_cost(32, 2, "stratix")
    with pytest.raises(HLSError, match="impl"):
        fifo_cost(32, 2, "versal", impl="flipflops")
    with pytest.raises(HLSError, match="at least 1"):
        fifo_cost(0, 2, "versal")


def test_bad_regions_raise_clear_errors():
    fifos = [FifoSpec("q", 8, 2)]
    with pytest.raises(HLSError, match="written by both p and r"):
        simulate([streaming("p", 0, True, 2), streaming("r", 0, True, 2)], fifos)
    with pytest.raises(HLSError, match="no FIFO named 'x'"):
        simulate([streaming("p", 0, True, 2)], fifos, {"x": 4})
    with pytest.raises(HLSError, match="depth must be at least 1"):
        simulate([streaming("p", 0, True, 2)], fifos, {"q": 0})
    with pytest.raises(HLSError, match="form a cycle"):
        simulate([streaming("p", 0, True, 1, after=("c",)), streaming("c", 0, False, 1, after=("p",))], fifos)
    with pytest.raises(HLSError, match="not another process"):
        simulate([streaming("p", 0, True, 1, after=("ghost",))], fifos)
    bad = ProcessTrace("p", np.zeros(2, np.int32), np.ones(2, bool), np.array([3, 1]), 5)
    with pytest.raises(HLSError, match="non-decreasing"):
        simulate([bad], fifos)
    short = ProcessTrace("p", np.zeros(2, np.int32), np.ones(2, bool), np.array([1, 3]), 3)
    with pytest.raises(HLSError, match="below end"):
        simulate([short], fifos)
    with pytest.raises(HLSError, match="FIFO index 3"):
        simulate([streaming("p", 3, True, 1)], fifos)


def test_size_fifos_on_a_design_that_deadlocks_at_any_depth():
    procs = [streaming("p", 0, True, 2), streaming("c", 0, False, 3, line=9)]
    with pytest.raises(HLSError, match=r"c blocked reading q \(empty\), access 2, line 9"):
        size_fifos(procs, [FifoSpec("q", 8, 2)])


def _same(a, b) -> None:
    assert a.latency == b.latency and a.interval == b.interval and a.deadlock == b.deadlock
    assert a.process_times == b.process_times and a.peak == b.peak and a.stalls == b.stalls
    assert {k: v.tolist() for k, v in a.issue.items()} == {k: v.tolist() for k, v in b.issue.items()}


@pytest.mark.parametrize("seed", range(16))
def test_engine_matches_the_cycle_by_cycle_reference(seed):
    procs, fifos = random_design(seed, processes=int(3 + seed % 4), fifos=int(4 + seed % 4), items=12,
                                 depth=1 + seed % 3, handoff=seed >= 12, batch=seed % 2 == 1)
    if seed % 4 == 3:  # some designs where a FIFO is read more often than written: a deadlock
        last = max(i for i, p in enumerate(procs) if len(p.fifo))
        procs[last] = loop(procs[last].name, [(int(procs[last].fifo[0]), False, 0)], 13, 1)
    result = simulate(procs, fifos)
    times, issued, deadlock = reference(procs, fifos)
    assert result.deadlock == deadlock
    assert {k: v.tolist() for k, v in result.issue.items()} == {p.name: t for p, t in zip(procs, issued, strict=True)}
    if deadlock is None:
        assert result.process_times == times
    # The plain loop (small designs, or no numba) and the compiled one give the same answer.
    region = FifoRegion(procs, fifos)
    _same(region.timing(region.depth_vector(None), python=True), result)
    _same(region.timing(region.depth_vector(None), python=False), result)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), base=st.lists(st.integers(1, 4), min_size=6, max_size=6),
       extra=st.lists(st.integers(0, 3), min_size=6, max_size=6), batch=st.booleans())
def test_deeper_fifos_never_deadlock_more_nor_finish_later(seed, base, extra, batch):
    # With batch=True most small depths deadlock and some larger ones do not: both sides are exercised.
    procs, fifos = random_design(seed, processes=4, fifos=6, items=10, batch=batch)
    region = FifoRegion(procs, fifos)
    small, large = np.array(base), np.array(base) + np.array(extra)
    first, second = region.timing(small), region.timing(large)
    if first.deadlock is None:
        assert second.deadlock is None
        assert second.latency <= first.latency
        for name, (_, end) in second.process_times.items():
            assert end <= first.process_times[name][1]
            assert np.all(second.issue[name] <= first.issue[name])


@pytest.mark.parametrize(("seed", "handoff", "depth"), [(2, False, 4), (6, False, 4), (1, True, 30), (3, True, 30)])
def test_stalls_add_up_to_every_process_slip(seed, handoff, depth):
    procs, fifos = random_design(seed, processes=5, fifos=7, items=30, handoff=handoff, batch=True)
    result = simulate(procs, fifos, {f.name: depth for f in fifos})
    assert result.deadlock is None
    slip = sum(end - start - p.end for p, (start, end) in zip(procs, result.process_times.values(), strict=True))
    assert slip > 0 and sum(e + f for e, f in result.stalls.values()) == slip
    assert handoff or any(f > 0 for _, f in result.stalls.values())  # shallow FIFOs: writers stalled too


@pytest.mark.parametrize("seed", range(4))
def test_depths_at_the_peaks_of_a_run_change_nothing(seed):
    procs, fifos = random_design(seed, processes=5, fifos=7, items=30, handoff=seed % 2 == 1)
    deep = simulate(procs, fifos, {f.name: 30 for f in fifos})
    assert deep.deadlock is None
    at_peaks = simulate(procs, fifos, {name: max(peak, 1) for name, peak in deep.peak.items()})
    _same(at_peaks, deep)
    assert any(peak < 30 for peak in deep.peak.values())  # the peaks are a real reduction


@pytest.mark.parametrize("goal", ["both", "interval", "latency"])
@pytest.mark.parametrize("batch", [False, True])
def test_sizing_result_keeps_the_goal_and_each_fifo_is_minimal(batch, goal):
    procs, fifos = random_design(0, processes=6, fifos=8, items=40, batch=batch)
    depths = size_fifos(procs, fifos, goal)
    deep = simulate(procs, fifos, {f.name: 40 for f in fifos})

    def reaches(result) -> bool:
        return (not result.deadlock and (goal == "interval" or result.latency <= deep.latency)
                and (goal == "latency" or result.interval <= deep.interval))

    assert reaches(simulate(procs, fifos, depths))
    for name, depth in depths.items():
        assert depth == 1 or not reaches(simulate(procs, fifos, {**depths, name: depth - 1}))


def test_size_fifos_rejects_an_unknown_goal():
    with pytest.raises(HLSError, match="goal 'area'"):
        size_fifos([streaming("p", 0, True, 2), streaming("c", 0, False, 2)], [FifoSpec("q", 8, 2)], "area")


def test_compiled_kernel_is_used_when_numba_is_installed():
    pytest.importorskip("numba")
    assert fifo_engine._kernel()[1] is True
