"""A dataflow region timed from its Python-mode trace: the FIFO part of `k.report()` and `k.size_fifos()`.

Python mode records, per process, its accesses to the region's FIFOs in program order and the loop
iterations around them (hls.golden.streams). Here each access gets its nominal cycle (the cycle it would
issue with no stall, from the process start) from the schedule estimate of its loop:

- a pipelined loop entered at cycle t0 starts iteration i (from 0) at t0 + i*II, and an access in it
  issues at its iteration's start plus the start cycle the modulo schedule gave its operator
  (`LoopReport.ops`); the loop ends at t0 + (n-1)*II + iteration latency;
- a loop that is not pipelined starts each iteration when the previous one is done (its iteration
  latency, or later if inner loops took longer); its accesses issue at the iteration's start;
- loops the report does not list (unrolled inside a pipelined loop) take no time of their own.

This is an approximation: operators of one iteration other than FIFO accesses, loop entry and exit
overheads, and the calls between loops are not timed, and a process's end is the later of its
timed trace and its function's latency in the estimate. hls.schedule.fifo_timing then applies the
back-pressure of every FIFO at its depth (the rules are in its docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from hls.golden.streams import TraceEvent
from hls.report.report import LoopReport, Report, Resources
from hls.schedule.fifo_timing import FifoSpec, ProcessTrace, TimingResult, fifo_cost, simulate, size_fifos
from hls.schedule.memory import bit_width

UNMODELLED = "dataflow is not modelled"  # the sequential estimate's note, replaced once the region is timed


@dataclass
class RawProcess:
    """One process as Python mode saw it: events (TraceEvent.ACCESS, fifo, write, line) for an access of
    a region FIFO, (TraceEvent.LOOP_ENTER | LOOP_ITER | LOOP_EXIT, (file, line)) for a loop's entry, iteration
    and exit (hls/streams.py). The trace is data: a str enum member equals its value, so ("L", key) is read alike."""

    name: str
    events: list[tuple]
    after: list[str] = field(default_factory=list)


@dataclass
class RawRegion:
    processes: list[RawProcess]
    fifos: list[FifoSpec]
    # load-balance channels (hls.split/merge.load_balance): the trace holds the routing of the Python-mode
    # run with unbounded FIFOs, where RTL routes each item by its arrival at the declared depths
    by_arrival: list[str] = field(default_factory=list)

    def arrival_note(self) -> str | None:
        """Why this region's timing (and whether it deadlocks) is one interleaving's, or None."""
        if not self.by_arrival:
            return None
        return (f"dataflow: {', '.join(self.by_arrival)} route{'s' if len(self.by_arrival) == 1 else ''} items "
                "by arrival (load_balance); the timed simulation replays the routing of one Python-mode run "
                "with unbounded FIFOs, so in RTL the latency, and whether the region deadlocks at its "
                "declared depths, can differ")


@dataclass(frozen=True)
class Untimed:
    """No trace of the region could be recorded (its Python-mode run failed): why, for the report."""

    reason: str


def raw_region(scheduler: Any) -> RawRegion:
    """Plain data from a Python-mode run's scheduler (hls.golden.streams): each process's events with region
    FIFOs named, top-level streams left out (the testbench or the AXI-stream partner feeds them, not
    a FIFO of the region). A region FIFO's depth is its IR type's (hls.stream(T, depth=N))."""
    fifos: dict[str, FifoSpec] = {}
    processes = []
    for process in scheduler.processes:
        events = []
        for event in process.events:
            if event[0] != TraceEvent.ACCESS:
                events.append(event)
            elif event[1].depth is not None:
                stream = event[1]
                fifos.setdefault(stream.name, FifoSpec(stream.name, bit_width(stream.elem), stream.depth))
                events.append((TraceEvent.ACCESS, stream.name, event[2], event[3]))
        processes.append(RawProcess(process.name, events, list(process.after)))
    by_arrival = [p.name for p in scheduler.processes if p.by_arrival]
    return RawRegion(processes, list(fifos.values()), by_arrival)


@dataclass
class ProcessRow:
    """One process of the region. `latency` is its module's latency, the number the call graph shows
    for that function (one latency per module everywhere in the report); `start` and `end` are the
    cycles of the region at which the timed simulation runs it, stalls included."""

    name: str
    latency: int | None  # its module's latency (the call graph's), else its nominal end
    nominal: int  # its own latency with no stall (its interval between invocations)
    loops: list[tuple[str, int | None]]  # (label, II) of its loops
    start: int | None = None  # timed: cycle of the region it starts / ends at (None: deadlocked)
    end: int | None = None


    def span(self) -> str:
        """`cycles 0..129`: when the timed simulation runs it (stalls included), or `-` in a deadlock."""
        return "-" if self.start is None or self.end is None else f"cycles {self.start}..{self.end}"


@dataclass
class FifoRow:
    name: str
    width: int
    depth: int
    peak: int | None
    impl: str
    resources: Resources


@dataclass
class DataflowReport:
    processes: list[ProcessRow]
    fifos: list[FifoRow]
    latency: int | None
    interval: int | None
    deadlock: str | None = None
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (writing process, reading process, FIFO)

    def to_dict(self) -> dict[str, Any]:
        return {"latency": self.latency, "interval": self.interval, "deadlock": self.deadlock,
                "processes": [{"name": p.name, "latency": p.latency, "interval": p.nominal, "start": p.start,
                               "end": p.end, "loops": [{"label": label, "ii": ii} for label, ii in p.loops]}
                              for p in self.processes],
                "fifos": [{"name": f.name, "width": f.width, "depth": f.depth, "peak": f.peak, "impl": f.impl,
                           **f.resources.to_dict()} for f in self.fifos]}

    def lines(self) -> list[str]:
        """The text report's section: the region, then one row per process and per FIFO."""
        out = ["+ Dataflow (timed simulation of the Python-mode trace):"]
        if self.deadlock:
            out.append(f"    DEADLOCK at the declared depths: {self.deadlock}")
        else:
            out.append(f"    region latency {self.latency} cycles, interval {self.interval} cycles")
        out.append("    process              | latency | interval | runs in the region | loop II")
        for p in self.processes:
            loops = ", ".join(f"{label} II={ii if ii is not None else '-'}" for label, ii in p.loops) or "-"
            latency = "-" if p.latency is None else p.latency
            out.append(f"    {p.name:<20} | {latency!s:>7} | {p.nominal:>8} | {p.span():<18} | {loops}")
        out.append("    FIFO                 | width | depth | peak | impl   | LUT  | FF   | BRAM_18K")
        for f in self.fifos:
            peak = "-" if f.peak is None else f.peak
            out.append(f"    {f.name:<20} | {f.width:>5} | {f.depth:>5} | {peak!s:>4} | {f.impl:<6} | "
                       f"{f.resources.lut:>4} | {f.resources.ff:>4} | {f.resources.bram18k}")
        return out


def loop_table(report: Report, raw: RawRegion | None = None) -> dict[tuple[str, int], LoopReport]:
    """The report's loops by (file, line), and each task's iterations (hls.golden.streams.task_loop)."""
    loops = {(loop.file, loop.line): loop for loop in report.loops if loop.file is not None}
    own = {node.name: node.latency_max for node in report.nodes}
    for process in raw.processes if raw is not None else []:
        for event in process.events:
            if event[0] == TraceEvent.LOOP_ENTER and event[1][0] == "task":
                loops[event[1]] = task_loop(event[1][1], own.get(event[1][1]))
    return loops


def task_loop(callee: str, latency: int | None) -> LoopReport:
    """A task as a loop that is not pipelined: an iteration starts when the previous one is done, each
    one taking its function's estimated latency (a model choice: Vitis may overlap the iterations of a
    task whose body it pipelines; the estimate does not)."""
    return LoopReport(f"task {callee}", ii=None, depth=max(1, latency or 1))


def nominal_cycles(events: list[tuple], loops: dict[tuple[str, int], LoopReport]) -> tuple[list[tuple], int]:
    """(fifo, write, nominal cycle, line, stage) per access, and the cycle the process ends (module
    docstring). Consecutive accesses of a pipelined loop at one cycle share their stage id: they issue
    together (hls.schedule.fifo_timing); any other access is a stage of its own."""
    t, last, stage = 0, 0, 0
    stack: list[list[Any]] = []  # [loop report or None, entry cycle, iterations, current iteration start]
    accesses = []
    for event in events:
        kind = event[0]
        if kind == TraceEvent.LOOP_ENTER:
            stack.append([loops.get(event[1]), t, 0, t])
        elif kind == TraceEvent.LOOP_ITER:
            frame = stack[-1]
            info, frame[2] = frame[0], frame[2] + 1
            if info is not None and info.ii:
                frame[3] = frame[1] + (frame[2] - 1) * info.ii
            elif info is not None and frame[2] > 1:
                frame[3] = max(t, frame[3] + (info.depth or 1))
            t = max(t, frame[3])
        elif kind == TraceEvent.LOOP_EXIT:
            info, entry, count, start = stack.pop()
            if info is not None and count:
                t = max(t, entry + (count - 1) * info.ii + (info.depth or 1) if info.ii else start + (info.depth or 1))
        else:
            _, fifo, write, line = event
            frame = stack[-1] if stack else None
            base = frame[3] if frame is not None else t
            offset = op_offset(frame[0] if frame is not None else None, line, write)
            cycle = max(last, base + offset)
            pipelined = frame is not None and frame[0] is not None and bool(frame[0].ii)
            if not (pipelined and accesses and accesses[-1][2] == cycle and accesses[-1][5]):
                stage += 1
            last = cycle
            t = max(t, last)
            accesses.append((fifo, write, last, line, stage, pipelined))
    return accesses, max(t, last) + 1


def op_offset(loop: LoopReport | None, line: int, write: bool) -> int:
    if loop is None or not loop.ii:
        return 0
    name = "fifo_write" if write else "fifo_read"
    return next((op.start for op in loop.ops if op.name == name and op.line == line), 0)


def traces(raw: RawRegion, report: Report) -> list[ProcessTrace]:
    loops = loop_table(report, raw)
    # a loop process is named by its label; its trace has no loop events when the kernel has no stream
    latencies = {loop.label: loop.latency_max for loop in report.loops if loop.level == 0 and loop.label}
    latencies.update({node.name: node.latency_max for node in report.nodes})
    index = {f.name: k for k, f in enumerate(raw.fifos)}
    out = []
    for process in raw.processes:
        accesses, end = nominal_cycles(process.events, loops)
        end = max(end, latencies.get(process.name) or 0)
        out.append(ProcessTrace(process.name, np.array([index[a[0]] for a in accesses], np.int32),
                                np.array([a[1] for a in accesses], bool), np.array([a[2] for a in accesses], np.int64),
                                end, list(process.after), [a[3] for a in accesses],
                                np.array([a[4] for a in accesses], np.int64)))
    return out


def process_loops(raw: RawProcess, loops: dict[tuple[str, int], LoopReport]) -> list[tuple[str, int | None]]:
    seen: dict[tuple[str, int], None] = {}
    for event in raw.events:
        if event[0] == TraceEvent.LOOP_ENTER and event[1] in loops:
            seen.setdefault(event[1])
    return [(loops[key].label or "loop", loops[key].ii) for key in seen]


def time_region(raw: RawRegion, report: Report) -> DataflowReport:
    """The region at its declared depths: per process, per FIFO (with its implementation and cost)."""
    processes = traces(raw, report)
    result: TimingResult = simulate(processes, raw.fifos)
    loops = loop_table(report, raw)
    own = {node.name: node.latency_max for node in report.nodes}
    rows = []
    for trace, process in zip(processes, raw.processes, strict=True):
        times = result.process_times.get(trace.name)
        start, end = (None, None) if times is None else (int(times[0]), int(times[1]))
        latency = own.get(trace.name)
        rows.append(ProcessRow(trace.name, trace.end if latency is None else latency, trace.end,
                               process_loops(process, loops), start, end))
    family = report.family or "ultrascale+"
    fifos = []
    for spec in raw.fifos:
        impl, cost = fifo_cost(spec.width, spec.depth, family)
        fifos.append(FifoRow(spec.name, spec.width, spec.depth, result.peak.get(spec.name), impl, cost))
    deadlock = None
    if result.deadlock:
        deadlock = "; ".join(f"{p} waits on {fifo} ({state}) at line {line}" for p, fifo, state, _, line
                             in result.deadlock)
    return DataflowReport(rows, fifos, None if deadlock else result.latency, None if deadlock else result.interval,
                          deadlock, fifo_links(raw))


def fifo_links(raw: RawRegion) -> list[tuple[str, str, str]]:
    """Which process writes and which reads each FIFO of the region (for the dataflow graph)."""
    ends: dict[str, dict[bool, str]] = {}
    for process in raw.processes:
        for event in process.events:
            if event[0] == TraceEvent.ACCESS:
                ends.setdefault(event[1], {}).setdefault(bool(event[2]), process.name)
    return [(ends[f.name][True], ends[f.name][False], f.name) for f in raw.fifos
            if True in ends.get(f.name, {}) and False in ends.get(f.name, {})]


def with_region(report: Report, trace: RawRegion | Untimed) -> Report:
    """The finished report of a dataflow top from its sequential estimate: the region timed from its
    trace, whose latency and interval replace the sum of the processes (also in the call graph)."""
    if isinstance(trace, Untimed):
        return replace(report, notes=[*report.notes, "dataflow region not timed: Python mode on random inputs "
                                                     f"failed ({trace.reason})"])
    timed = time_region(trace, report)
    notes = [n for n in report.notes if not n.startswith(UNMODELLED)]
    arrival = trace.arrival_note()
    if arrival:
        notes.append(arrival)
    if timed.latency is None:
        return replace(report, dataflow=timed, notes=notes)
    notes.append(f"dataflow: latency and interval from the timed simulation of the region (the processes "
                 f"one after the other would take {report.latency_max} cycles)")
    nodes = [replace(node, latency_min=timed.latency, latency_max=timed.latency) if node.name == report.top else node
             for node in report.nodes]  # the top's box in the call graph: the region's latency, not the sum
    return replace(report, dataflow=timed, notes=notes, nodes=nodes, latency_min=timed.latency,
                   latency_max=timed.latency, interval_min=timed.interval, interval_max=timed.interval)


def sized_depths(raw: RawRegion, report: Report) -> dict[str, int]:
    return size_fifos(traces(raw, report), raw.fifos)
