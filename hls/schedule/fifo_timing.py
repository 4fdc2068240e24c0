"""Timed simulation of a dataflow region: FIFO back-pressure, deadlocks, peak occupancy, FIFO sizing.

Input: per process, its FIFO reads and writes in program order with the cycle each would issue if
nothing stalled (`nominal`, from the process's schedule), as Python mode records them. Rules:

- A process starts at cycle 0, or once every process in its `after` list has ended (ping-pong hand-off).
- Its accesses issue in program order. Access i issues at max(nominal[i] + stall, constraint), where
  stall is what the process has accumulated so far (start included): a stall delays every later access
  of the process by the same amount. This is in-order issue, a simplification of a stalled pipelined
  loop (Vitis stalls the whole pipeline on a blocked FIFO, so later iterations shift together; the
  model ignores that operations already in flight before the blocked one could still complete).
- Read k of a FIFO issues at least `fifo_engine.FIFO_LATENCY` (1) cycle after write k of that FIFO (the
  item must be in the FIFO); write k issues at least 1 cycle after read k - depth (the slot it needs
  must have been freed). A read whose write never happens blocks on "empty"; a write whose freeing
  read never happens blocks on "full".
- Accesses of one pipeline stage (consecutive accesses a trace gives the same `stage` id: the same
  cycle of a pipelined loop's schedule; at most one per FIFO) issue together, at the latest of their
  constraints: a stage stalls as a whole, so one full FIFO holds back a write to another FIFO in the
  same stage. Without stage ids every access is a stage of its own (statement order).
- A process ends at its last access's issue cycle plus (end - nominal of that access); latency = the
  latest end. interval = the longest busy time of a process, end minus the cycle its first access
  issued plus that access's nominal cycle (so waiting for the first item does not count): what the
  region takes per input when successive invocations overlap, as in a Vitis dataflow region.
- Deadlock: no process can issue its next access; every process stopped at a FIFO access is listed.
- Occupancy of a FIFO at cycle t = writes issued at or before t - reads issued before t (a slot is
  busy from its write's cycle through its read's cycle). With the rule above it never exceeds the
  depth, and a depth >= the peak of a run changes nothing in that run. Stalls of a FIFO: the cycles its
  reader waited on empty and its writer on full (each access's addition to its process's slip).

Top-level stream arguments are not FIFOs of the region (the testbench or the AXI-stream partner feeds
and drains them): leave their accesses out of the traces, or a read of one blocks on "empty".

Issue times are a longest path over the accesses (LightningSim's formulation, arXiv 2304.11219),
computed by the worklist of hls/schedule/fifo_engine.py; the timing is monotone: a deeper FIFO never
makes any access later.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from hls.errors import HLSError
from hls.schedule import fifo_engine
from hls.schedule.fifo_impl import fifo_cost

__all__ = ["FifoSpec", "ProcessTrace", "FifoRegion", "TimingResult", "describe_deadlock", "fifo_cost", "simulate",
           "size_fifos"]

MIN_DEPTH = 1


@dataclass
class FifoSpec:
    """One FIFO of a dataflow region."""

    name: str
    width: int
    depth: int


@dataclass
class ProcessTrace:
    """One process of the region: its FIFO accesses in program order (see the module docstring)."""

    name: str
    fifo: np.ndarray
    write: np.ndarray
    nominal: np.ndarray
    end: int
    after: list[str] = field(default_factory=list)
    lines: list[int] | None = None
    stages: np.ndarray | None = None  # per access: consecutive equal ids are one pipeline stage


@dataclass
class TimingResult:
    """A timed run. `process_times` {name: (start, end)} and `latency`/`interval` cover the processes
    that ended; `deadlock` lists (process, FIFO, "empty" | "full", access index, line) of every process
    stopped at a FIFO access, None when all ended; `issue` holds each process's issue cycles (the
    accesses that issued); `peak` the largest occupancy of each FIFO; `stalls` per FIFO (cycles its
    reader waited on empty, cycles its writer waited on full): which FIFO holds the region back."""

    latency: int
    interval: int
    process_times: dict[str, tuple[int, int]]
    peak: dict[str, int]
    deadlock: list[tuple[str, str, str, int, int | None]] | None = None
    issue: dict[str, np.ndarray] = field(default_factory=dict)
    stalls: dict[str, tuple[int, int]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Plain JSON-able data (without the per-access issue cycles)."""
        blocked = [{"process": p, "fifo": f, "waits_on": state, "access": i, "line": line}
                   for p, f, state, i, line in self.deadlock or []]
        return {"latency": self.latency, "interval": self.interval,
                "processes": {n: {"start": s, "end": e} for n, (s, e) in self.process_times.items()},
                "peak": dict(self.peak), "deadlock": blocked or None,
                "stalls": {n: {"empty": e, "full": f} for n, (e, f) in self.stalls.items()}}


class FifoRegion:
    """A region's traces flattened once, so re-timing at new depths only re-resolves write constraints."""

    def __init__(self, processes: list[ProcessTrace], fifos: list[FifoSpec]):
        self.processes, self.fifos = processes, fifos
        self._check_names()
        self.fifo_index = {f.name: k for k, f in enumerate(fifos)}
        self.process_index = {p.name: i for i, p in enumerate(processes)}
        counts = [len(p.fifo) for p in processes]
        self.off = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.proc_of = np.repeat(np.arange(len(processes), dtype=np.int64), counts)
        self.fifo = _concat([np.asarray(p.fifo, np.int64) for p in processes])
        self.write = _concat([np.asarray(p.write, bool) for p in processes]).astype(bool)
        self.nominal = _concat([np.asarray(p.nominal, np.int64) for p in processes])
        self._check_traces()
        self.tail = np.array([p.end for p in processes], np.int64)
        self.group_end = self._stage_groups()
        self._order_accesses()
        self._link_after()
        self._partner: np.ndarray | None = None
        self._depth = np.zeros(0, np.int64)

    def _check_names(self) -> None:
        for kind, names in (("process", [p.name for p in self.processes]), ("FIFO", [f.name for f in self.fifos])):
            dup = sorted({n for n in names if names.count(n) > 1})
            if dup:
                raise HLSError(f"dataflow region: {kind} name {dup[0]!r} is used twice")
        for f in self.fifos:
            if f.width < 1 or f.depth < MIN_DEPTH:
                raise HLSError(f"FIFO {f.name!r}: width and depth must be at least 1 (got {f.width}, {f.depth})")

    def _check_traces(self) -> None:
        for p in self.processes:
            nominal = np.asarray(p.nominal)
            lines_ok = p.lines is None or len(p.lines) == len(nominal)
            if not (len(p.fifo) == len(p.write) == len(nominal)) or not lines_ok:
                raise HLSError(f"process {p.name!r}: fifo, write, nominal (and lines) must have one entry per access")
            if not _cycles_ok(nominal, p.end):
                raise HLSError(f"process {p.name!r}: nominal cycles must be non-negative, non-decreasing and "
                               f"below end ({p.end})")
        bad = self.fifo[(self.fifo < 0) | (self.fifo >= len(self.fifos))]
        if len(bad):
            raise HLSError(f"a trace names FIFO index {int(bad[0])}: the region has {len(self.fifos)} FIFOs")

    def _stage_groups(self) -> np.ndarray:
        """Per access, the end (exclusive) of its stage: the run of consecutive accesses of its process
        with its stage id and nominal cycle, each FIFO at most once (a FIFO has one port per side, so
        two accesses of it are never one stage); an access without a stage id ends its own."""
        ends = np.arange(1, len(self.nominal) + 1, dtype=np.int64)
        for p, proc in enumerate(self.processes):
            if proc.stages is None or len(proc.stages) < 2:
                continue
            base = int(self.off[p])
            stages, nominal, fifo = list(proc.stages), list(proc.nominal), list(proc.fifo)
            start, members = 0, {fifo[0]}
            for k in range(1, len(stages) + 1):
                if k < len(stages) and stages[k] == stages[start] and nominal[k] == nominal[start] \
                        and fifo[k] not in members:
                    members.add(fifo[k])
                    continue
                ends[base + start:base + k] = base + k
                if k < len(stages):
                    start, members = k, {fifo[k]}
        return ends

    def _order_accesses(self) -> None:
        """Per FIFO, the global index of its k-th write and k-th read (one writer, one reader process)."""
        self.writes, self.reads = [], []
        for k, spec in enumerate(self.fifos):
            for is_write, into in ((True, self.writes), (False, self.reads)):
                where = np.flatnonzero((self.fifo == k) & (self.write == is_write))
                owners = np.unique(self.proc_of[where])
                if len(owners) > 1:
                    names = " and ".join(self.processes[o].name for o in owners[:2])
                    raise HLSError(f"FIFO {spec.name!r} is {'written' if is_write else 'read'} by both {names}: "
                                   "a FIFO has one producer and one consumer")
                into.append(where)
        self.read_partner = np.full(len(self.fifo), fifo_engine.NO_PARTNER, np.int64)
        for k in range(len(self.fifos)):
            reads, writes = self.reads[k], self.writes[k]
            matched = min(len(reads), len(writes))
            self.read_partner[reads[:matched]] = writes[:matched]
            self.read_partner[reads[matched:]] = fifo_engine.NEVER
        self.write_at = [np.flatnonzero(self.write & (self.fifo == k)) for k in range(len(self.fifos))]

    def _link_after(self) -> None:
        index = self.process_index
        succ: list[list[int]] = [[] for _ in self.processes]
        self.pending = np.zeros(len(self.processes), np.int64)
        for r, p in enumerate(self.processes):
            for name in p.after:
                if name not in index or name == p.name:
                    raise HLSError(f"process {p.name!r} waits for {name!r}, which is not another process of the region")
                succ[index[name]].append(r)
                self.pending[r] += 1
        self.succ_off = np.concatenate([[0], np.cumsum([len(s) for s in succ])]).astype(np.int64)
        self.succ = np.array([r for s in succ for r in s], np.int64)
        if _has_cycle(succ):
            raise HLSError("dataflow region: the processes' `after` hand-offs form a cycle")

    def depth_vector(self, depths: dict[str, int] | None) -> np.ndarray:
        vector = np.array([f.depth for f in self.fifos], np.int64)
        for name, depth in (depths or {}).items():
            if name not in self.fifo_index:
                raise HLSError(f"no FIFO named {name!r} in this region (FIFOs: {', '.join(self.fifo_index)})")
            if int(depth) < MIN_DEPTH:
                raise HLSError(f"FIFO {name!r}: depth must be at least {MIN_DEPTH}, got {depth}")
            vector[self.fifo_index[name]] = int(depth)
        return vector

    def partners(self, depth: np.ndarray) -> np.ndarray:
        """Read partners are fixed; write k of FIFO f waits for read k - depth[f] of f. Only the FIFOs
        whose depth changed since the last call are re-resolved (sizing changes one at a time)."""
        if self._partner is None:
            self._partner, self._depth = self.read_partner.copy(), np.zeros(len(self.fifos), np.int64)
        for k in np.flatnonzero(depth != self._depth):
            writes, reads = self.write_at[k], self.reads[k]
            back = np.arange(len(writes)) - depth[k]
            target = np.full(len(writes), fifo_engine.NO_PARTNER, np.int64)
            has = back >= 0
            exists = has & (back < len(reads))
            target[exists] = reads[back[exists]]
            target[has & ~exists] = fifo_engine.NEVER
            self._partner[writes] = target
        self._depth = depth.copy()
        return self._partner

    def timing(self, depth: np.ndarray, python: bool | None = None, details: bool = True,
               runs: int = 1) -> TimingResult:
        """Time the region at these depths (one per FIFO); `details=False` skips peaks and stalls (sizing);
        `python` and `runs` (how many timings the caller expects) choose the loop (fifo_engine.run)."""
        partner = self.partners(depth)
        times, ptr, shift, finish = fifo_engine.run(self.off, self.nominal, partner, self.proc_of, self.tail,
                                                    self.succ_off, self.succ, self.pending, python,
                                                    runs * len(self.nominal), self.group_end)
        return self._result(times, ptr, shift, finish, details)

    def _result(self, times: np.ndarray, ptr: np.ndarray, shift: np.ndarray, finish: np.ndarray,
                details: bool) -> TimingResult:
        spans, busy = {}, 0
        for p, proc in enumerate(self.processes):
            if finish[p] == fifo_engine.NOT_FINISHED:
                continue
            start, first = self._start(p, finish), self.off[p]
            counted_from = int(times[first] - self.nominal[first]) if ptr[p] > first else start
            spans[proc.name] = (start, int(finish[p]))
            busy = max(busy, int(finish[p]) - counted_from)
        peak, stalls = self._occupancy(times, ptr, finish) if details else ({}, {})
        latency = max((end for _, end in spans.values()), default=0)
        issue = {proc.name: times[self.off[p]:ptr[p]] for p, proc in enumerate(self.processes)}
        return TimingResult(latency, busy, spans, peak, self._blocked(ptr, finish) or None, issue, stalls)

    def _occupancy(self, times: np.ndarray, ptr: np.ndarray,
                   finish: np.ndarray) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        """Per FIFO: peak occupancy, and the cycles its reader waited on empty and its writer on full
        (how much each of its accesses added to its process's stall)."""
        issued = np.zeros(len(times), bool)
        slip = times - self.nominal
        before = np.concatenate([[0], slip[:-1]])
        for p in range(len(self.processes)):
            issued[self.off[p]:ptr[p]] = True
            if ptr[p] > self.off[p]:
                before[self.off[p]] = self._start(p, finish)
        lost = slip - before
        peak, stalls = {}, {}
        for k, spec in enumerate(self.fifos):
            writes, reads = self.writes[k][issued[self.writes[k]]], self.reads[k][issued[self.reads[k]]]
            peak[spec.name] = _peak(times[writes], times[reads])
            stalls[spec.name] = (int(lost[reads].sum()), int(lost[writes].sum()))
        return peak, stalls

    def _start(self, p: int, finish: np.ndarray) -> int:
        return max((int(finish[self.process_index[name]]) for name in self.processes[p].after), default=0)

    def _blocked(self, ptr: np.ndarray, finish: np.ndarray) -> list[tuple[str, str, str, int, int | None]]:
        out = []
        for p, proc in enumerate(self.processes):
            if finish[p] != fifo_engine.NOT_FINISHED or ptr[p] >= self.off[p + 1]:
                continue
            if any(finish[self.process_index[name]] == fifo_engine.NOT_FINISHED for name in proc.after):
                continue  # not started: waiting for a blocked process, not for a FIFO
            i = self._stuck_member(int(ptr[p]), ptr)
            local = i - int(self.off[p])
            line = None if proc.lines is None else proc.lines[local]
            out.append((proc.name, self.fifos[self.fifo[i]].name, "full" if self.write[i] else "empty", local, line))
        return out


    def _stuck_member(self, i: int, ptr: np.ndarray) -> int:
        """The access of the stage starting at i that cannot go (its partner never or not yet issued)."""
        for m in range(i, int(self.group_end[i])):
            j = int(self._partner[m]) if self._partner is not None else fifo_engine.NO_PARTNER
            if j == fifo_engine.NEVER or j >= 0 and ptr[self.proc_of[j]] <= j:
                return m
        return i


def simulate(processes: list[ProcessTrace], fifos: list[FifoSpec],
             depths: dict[str, int] | None = None) -> TimingResult:
    """Time a dataflow region with its declared FIFO depths, or `depths` overriding some of them."""
    region = FifoRegion(processes, fifos)
    return region.timing(region.depth_vector(depths))


def _cycles_ok(nominal: np.ndarray, end: int) -> bool:
    if len(nominal) == 0:
        return end >= 0
    return bool(nominal[0] >= 0 and np.all(np.diff(nominal) >= 0) and end >= nominal[-1] + 1)


def _concat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _peak(writes: np.ndarray, reads: np.ndarray) -> int:
    """Max over cycles t of (writes issued at or before t) - (reads issued before t). It is reached at
    a write, and at write k (issue times sorted) at least k + 1 writes are in: max_k k + 1 - reads < W[k]."""
    if len(writes) == 0:
        return 0
    return int((np.arange(1, len(writes) + 1) - np.searchsorted(reads, writes, "left")).max())


def _has_cycle(succ: list[list[int]]) -> bool:
    indegree = [0] * len(succ)
    for targets in succ:
        for r in targets:
            indegree[r] += 1
    ready = [p for p, d in enumerate(indegree) if d == 0]
    seen = 0
    while ready:
        p = ready.pop()
        seen += 1
        for r in succ[p]:
            indegree[r] -= 1
            if indegree[r] == 0:
                ready.append(r)
    return seen < len(succ)


GOALS = ("both", "interval", "latency")


def size_fifos(processes: list[ProcessTrace], fifos: list[FifoSpec], goal: str = "both") -> dict[str, int]:
    """Per FIFO, the smallest depth at which the region does not deadlock and keeps the latency and
    interval (or only the one `goal` names) it has with every FIFO as deep as the items it carries.

    Start from each FIFO's peak occupancy in that unbounded run (a depth that changes nothing), then per
    FIFO in declaration order a binary search on its depth with the others at their current values
    (timing is monotone in depth), then one greedy pass lowering each FIFO while the goal still holds
    (the interval is not strictly monotone: it is measured from a process's first access). Every
    accepted configuration was simulated, so the result is verified, not inferred.
    """
    if goal not in GOALS:
        raise HLSError(f"size_fifos goal {goal!r}: expected one of {', '.join(GOALS)}")
    region = FifoRegion(processes, fifos)
    deep = np.array([max(len(w), MIN_DEPTH) for w in region.writes], np.int64)
    # About how many re-timings the search below takes (picks the compiled loop when it pays off).
    runs = 2 + 2 * len(fifos) + sum(int(math.log2(len(w) + 1)) for w in region.writes)
    best = region.timing(deep, runs=runs)
    if best.deadlock:
        raise HLSError("the region deadlocks even with unbounded FIFOs, no depth fixes it: "
                       + describe_deadlock(best.deadlock))
    current = np.array([max(best.peak[f.name], MIN_DEPTH) for f in fifos], np.int64)

    def good(k: int, depth: int) -> bool:
        trial = current.copy()
        trial[k] = depth
        result = region.timing(trial, details=False, runs=runs)
        return not result.deadlock and (goal == "interval" or result.latency <= best.latency) and (
            goal == "latency" or result.interval <= best.interval)

    for k in range(len(fifos)):
        low, high = MIN_DEPTH, int(current[k])
        while low < high:
            mid = (low + high) // 2
            if good(k, mid):
                high = mid
            else:
                low = mid + 1
        current[k] = high
    for k in range(len(fifos)):
        while current[k] > MIN_DEPTH and good(k, int(current[k]) - 1):
            current[k] -= 1
    return {f.name: int(current[k]) for k, f in enumerate(fifos)}


def describe_deadlock(blocked: list[tuple[str, str, str, int, int | None]]) -> str:
    """One line per blocked process: `load blocked writing s1 (full), access 64, line 12`."""
    parts = []
    for process, fifo, state, index, line in blocked:
        verb = "writing" if state == "full" else "reading"
        where = f", line {line}" if line is not None else ""
        parts.append(f"{process} blocked {verb} {fifo} ({state}), access {index}{where}")
    return "; ".join(parts)
