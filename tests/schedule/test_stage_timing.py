"""Issue 25: the timed simulation and size_fifos() take each FIFO access at the pipeline stage the
schedule gives it. `split` writes s1 and s2 in one stage; its reader takes every item of s1 before any
of s2. In Python statement order s2 needs N - 1 slots (s1's last item goes out before the write to a full
s2 blocks); in hardware the stage stalls as a whole, so s2 needs N."""

from dataclasses import replace

import numpy as np

from hls.schedule.dataflow import traces
from hls.schedule.fifo_timing import FifoSpec, ProcessTrace, simulate, size_fifos
from tests.kernels import stage_kernels as sk


def _traces():
    k = sk.same_stage
    return traces(k.dataflow_trace(), k.report()), k.dataflow_trace().fifos


def test_the_two_writes_are_one_stage_of_the_schedule():
    loop = next(lp for lp in sk.same_stage.report().loops if any(op.name == "fifo_write" for op in lp.ops))
    starts = {op.line: op.start for op in loop.ops if op.name == "fifo_write"}
    assert len(starts) == 2 and len(set(starts.values())) == 1


def test_statement_order_depth_deadlocks_in_stage_timing():
    region, fifos = _traces()
    staged = simulate(region, fifos)
    assert staged.deadlock is not None
    blocked = {(p, f, why) for p, f, why, _, _ in staged.deadlock}
    assert blocked == {("split", "s2", "full"), ("firsts_then_seconds", "s1", "empty")}
    in_order = simulate([replace(p, stages=None) for p in region], fifos)
    assert in_order.deadlock is None  # what statement order (Python mode's) would have said
    report = sk.same_stage.report()
    assert report.dataflow.deadlock is not None
    a = np.arange(sk.N, dtype=np.int32)
    out = np.zeros(sk.N, np.int32)
    sk.same_stage(a, a * 2, out)  # Python mode runs in statement order: no deadlock at depth N - 1
    assert list(out) == list(a * 3)


def test_size_fifos_sizes_for_the_stage():
    assert sk.same_stage.size_fifos()["s2"] == sk.N
    region, fifos = _traces()
    assert size_fifos([replace(p, stages=None) for p in region], fifos)["s2"] == sk.N - 1
    assert simulate(region, fifos, {"s2": sk.N}).deadlock is None


def test_a_stage_issues_at_the_latest_constraint_of_its_accesses():
    """Hand-made: the writer's stage holds a write to f0 (free) and one to f1 (its slot freed late by a slow
    reader); both issue when f1 has room, so f0's reader sees the item late too. In statement order the
    answer depends on which write comes first; in stage timing it does not."""
    writer = ProcessTrace("w", np.array([0, 1, 0, 1], np.int32), np.ones(4, bool), np.array([0, 0, 1, 1]), 3,
                          stages=np.array([1, 1, 2, 2]))
    r0 = ProcessTrace("r0", np.zeros(2, np.int32), np.zeros(2, bool), np.array([0, 1]), 3)
    r1 = ProcessTrace("r1", np.ones(2, np.int32), np.zeros(2, bool), np.array([10, 11]), 12)
    fifos = [FifoSpec("f0", 8, 2), FifoSpec("f1", 8, 1)]
    staged = simulate([writer, r0, r1], fifos)
    assert list(staged.issue["w"]) == [0, 0, 11, 11]  # write 2 of f1 waits for read 1 at cycle 10
    assert list(staged.issue["r0"]) == [1, 12]
    plain = simulate([replace(writer, stages=None), r0, r1], fifos)  # statement order: f0's item goes out first
    assert list(plain.issue["w"]) == [0, 0, 1, 11] and list(plain.issue["r0"]) == [1, 2]
    split = ProcessTrace("w", np.array([1, 0, 1, 0], np.int32), np.ones(4, bool), np.array([0, 0, 1, 1]), 3,
                         stages=np.array([1, 1, 2, 2]))
    assert list(simulate([split, r0, r1], fifos).issue["w"]) == [0, 0, 11, 11]
    assert list(simulate([replace(split, stages=None), r0, r1], fifos).issue["w"]) == [0, 0, 11, 11]


def test_two_accesses_of_one_fifo_are_never_one_stage():
    """A FIFO has one write port: two writes of it at one scheduled cycle issue one after the other, so a
    depth-1 FIFO drained by its reader does not deadlock."""
    writer = ProcessTrace("w", np.zeros(4, np.int32), np.ones(4, bool), np.array([0, 0, 1, 1]), 3,
                          stages=np.array([1, 1, 2, 2]))
    reader = ProcessTrace("r", np.zeros(4, np.int32), np.zeros(4, bool), np.arange(4), 5)
    timed = simulate([writer, reader], [FifoSpec("f", 8, 1)])
    assert timed.deadlock is None
    assert list(timed.issue["w"]) == list(simulate([replace(writer, stages=None), reader],
                                                   [FifoSpec("f", 8, 1)]).issue["w"])
