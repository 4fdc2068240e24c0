"""The schedule report's data: the fields of `Report` (hls/report/report.py) and its rows.

One shape for both sources, so estimate and tool can be put side by side. Cycles are integers; None
means unknown (a trip count nobody gave) or, for a loop's II, not pipelined. `to_dict()` is the
shape DESIGN.md fixes (extra keys allowed, none renamed); `str()` prints tables laid out like a
Vitis csynth report. The HTML views (hls/report/html.py, svg.py) read these classes, and `Report`
adds those views on top, so the data never imports its views.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hls.errors import HLSError


class NodeKind(str, Enum):
    """What a box of the design graph is (a str enum: `to_dict` and the pictures show its value)."""

    FUNCTION = "function"
    PROCESS = "process"

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass
class Resources:
    dsp: int = 0
    bram18k: int = 0
    ff: int = 0
    lut: int = 0
    uram: int = 0

    def __add__(self, other: Resources) -> Resources:
        return Resources(self.dsp + other.dsp, self.bram18k + other.bram18k, self.ff + other.ff,
                         self.lut + other.lut, self.uram + other.uram)

    def scaled(self, count: int) -> Resources:
        return Resources(self.dsp * count, self.bram18k * count, self.ff * count, self.lut * count,
                         self.uram * count)

    def to_dict(self) -> dict[str, int]:
        return {"dsp": self.dsp, "bram18k": self.bram18k, "ff": self.ff, "lut": self.lut, "uram": self.uram}


@dataclass
class BreakdownRow:
    """Resources of one kind of operator (or memory, adapter) in one module of the design."""

    module: str
    op: str
    type: str
    count: int | None  # operator units; None for registers, control and memories
    resources: Resources

    def to_dict(self) -> dict[str, Any]:
        return {"module": self.module, "op": self.op, "type": self.type, "count": self.count,
                **self.resources.to_dict()}


@dataclass
class ScheduledOp:
    """One operator of a pipelined loop's iteration where the modulo schedule put it (the chart's bars).

    `start` is the cycle within the iteration; a chained (latency 0) operator starts `offset_ns` into
    that cycle and takes `delay_ns` of it. `array` names the memory of a load or store.
    """

    name: str
    start: int
    latency: int
    text: str | None = None
    file: str | None = None
    line: int | None = None
    array: str | None = None
    offset_ns: float = 0.0
    delay_ns: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "latency": self.latency, "text": self.text,
                "file": self.file, "line": self.line, "array": self.array, "offset_ns": self.offset_ns,
                "delay_ns": self.delay_ns}


@dataclass
class GraphNode:
    """A box of the design graph: a function, or a dataflow process (`kind`)."""

    name: str
    kind: NodeKind = NodeKind.FUNCTION
    file: str | None = None
    line: int | None = None
    latency_min: int | None = None
    latency_max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "file": self.file, "line": self.line,
                "latency": {"min": self.latency_min, "max": self.latency_max}}


@dataclass
class GraphEdge:
    """An arrow of the design graph: `kind` "call" (caller -> callee, `count` call sites); a FIFO
    between processes can be added as another kind with its depth in `label`."""

    src: str
    dst: str
    kind: str = "call"
    count: int = 1
    line: int | None = None
    label: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"src": self.src, "dst": self.dst, "kind": self.kind, "count": self.count, "line": self.line,
                "label": self.label}


@dataclass
class LoopReport:
    label: str | None
    file: str | None = None
    line: int | None = None
    trip_min: int | None = None
    trip_max: int | None = None
    target_ii: int | None = None
    ii: int | None = None
    depth: int | None = None
    latency_min: int | None = None
    latency_max: int | None = None
    limiter: str | None = None
    pipelined: str = "no"  # "yes" (pragma), "auto" (pipeline_loops), "no"
    level: int = 0
    function: str | None = None
    res_mii: int | None = None
    rec_mii: int | None = None
    notes: list[str] = field(default_factory=list)
    limiter_file: str | None = None  # the source line the limiter names
    limiter_line: int | None = None
    ops: list[ScheduledOp] = field(default_factory=list)  # pipelined loops: one iteration's schedule,
    ops_total: int = 0  # the earliest operators of it only when there are more than this list holds

    @property
    def ii_met(self) -> bool | None:
        if self.ii is None or self.target_ii is None:
            return None
        return self.ii <= self.target_ii

    @property
    def where(self) -> str:
        if self.file is None:
            return "-"
        return f"{os.path.basename(self.file)}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "file": self.file, "line": self.line,
                "trip": {"min": self.trip_min, "max": self.trip_max}, "target_ii": self.target_ii,
                "ii": self.ii, "depth": self.depth,
                "latency": {"min": self.latency_min, "max": self.latency_max}, "limiter": self.limiter,
                "ii_met": self.ii_met, "pipelined": self.pipelined, "level": self.level,
                "function": self.function, "res_mii": self.res_mii, "rec_mii": self.rec_mii,
                "notes": list(self.notes), "limiter_file": self.limiter_file, "limiter_line": self.limiter_line,
                "ops": [op.to_dict() for op in self.ops], "ops_total": self.ops_total}


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write a file the user named; a folder or a missing parent folder is an HLSError, not a traceback."""
    target = os.fspath(path)
    if os.path.isdir(target):
        raise HLSError(f"{target} is a directory: give a file name for the HTML report")
    try:
        with open(target, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise HLSError(f"cannot write {target}: {exc.strerror}") from None


def _ns(cycles: int | None, clock_ns: float) -> float | None:
    return None if cycles is None else round(cycles * clock_ns, 3)


def _text(value: Any) -> str:
    return "?" if value is None else str(value)


def table(headers: list[str], rows: list[list[Any]], indent: str = "    ") -> list[str]:
    """ASCII table with +---+ rules, as csynth.rpt draws them."""
    cells = [[str(h) for h in headers]] + [[_text(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    rule = indent + "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [rule, indent + "|" + "|".join(f" {h:<{w}} " for h, w in zip(cells[0], widths, strict=True)) + "|",
             rule]
    for row in cells[1:]:
        lines.append(indent + "|" + "|".join(f" {c:<{w}} " for c, w in zip(row, widths, strict=True)) + "|")
    lines.append(rule)
    return lines


@dataclass
class ReportData:
    top: str
    part: str
    clock_ns: float
    latency_min: int | None
    latency_max: int | None
    interval_min: int | None
    interval_max: int | None
    loops: list[LoopReport] = field(default_factory=list)
    resources: Resources = field(default_factory=Resources)
    breakdown: list[BreakdownRow] = field(default_factory=list)
    source: str = "estimate"
    family: str | None = None
    uncertainty_ns: float | None = None
    estimated_clock_ns: float | None = None
    notes: list[str] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)  # the call graph (dataflow processes later)
    edges: list[GraphEdge] = field(default_factory=list)
    dataflow: Any = None  # hls.schedule.dataflow.DataflowReport: the timed region, for a dataflow top

    # ---- plain data -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "top": self.top, "part": self.part, "clock_ns": self.clock_ns,
            "latency": {"min": self.latency_min, "max": self.latency_max},
            "interval": {"min": self.interval_min, "max": self.interval_max},
            "loops": [loop.to_dict() for loop in self.loops],
            "resources": self.resources.to_dict(),
            "latency_ns": {"min": _ns(self.latency_min, self.clock_ns), "max": _ns(self.latency_max, self.clock_ns)},
            "source": self.source, "family": self.family, "clock_uncertainty_ns": self.uncertainty_ns,
            "estimated_clock_ns": self.estimated_clock_ns,
            "resources_breakdown": [row.to_dict() for row in self.breakdown],
            "notes": list(self.notes),
            "graph": {"nodes": [n.to_dict() for n in self.nodes], "edges": [e.to_dict() for e in self.edges]},
            "dataflow": self.dataflow.to_dict() if self.dataflow is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReportData:
        """The inverse of `to_dict` (used for estimates stored in an exported project)."""
        loops = [_loop_from_dict(d) for d in data.get("loops", [])]
        res = data.get("resources", {})
        graph = data.get("graph") or {}
        nodes = [GraphNode(n["name"], NodeKind(n.get("kind", "function")), n.get("file"), n.get("line"),
                           (n.get("latency") or {}).get("min"), (n.get("latency") or {}).get("max"))
                 for n in graph.get("nodes", [])]
        edges = [GraphEdge(e["src"], e["dst"], e.get("kind", "call"), e.get("count", 1), e.get("line"), e.get("label"))
                 for e in graph.get("edges", [])]
        breakdown = [BreakdownRow(r["module"], r["op"], r["type"], r.get("count"), _resources(r))
                     for r in data.get("resources_breakdown", [])]
        return cls(top=data["top"], part=data["part"], clock_ns=data["clock_ns"],
                   latency_min=data["latency"]["min"], latency_max=data["latency"]["max"],
                   interval_min=data["interval"]["min"], interval_max=data["interval"]["max"], loops=loops,
                   resources=_resources(res), breakdown=breakdown,
                   source=data.get("source", "estimate"), family=data.get("family"),
                   uncertainty_ns=data.get("clock_uncertainty_ns"), estimated_clock_ns=data.get("estimated_clock_ns"),
                   notes=list(data.get("notes", [])), nodes=nodes, edges=edges)

    # ---- text -------------------------------------------------------------------------------------

    def loop_name(self, loop: LoopReport) -> str:
        """A loop as every view names it: `producer/loop_i` for a loop of a process or sub-kernel (three
        processes each with a `loop_i` stay three names), the bare label for a loop of the top."""
        label = loop.label or "(unnamed)"
        return label if loop.function in (None, self.top) else f"{loop.function}/{label}"

    def all_notes(self) -> list[str]:
        """The report's notes, then each loop's, prefixed with the loop's name."""
        return self.notes + [f"{self.loop_name(loop)}: {note}" for loop in self.loops for note in loop.notes]

    def _latency_rows(self) -> list[list[Any]]:
        return [[self.latency_min, self.latency_max, _ns(self.latency_min, self.clock_ns),
                 _ns(self.latency_max, self.clock_ns), self.interval_min, self.interval_max]]

    def _loop_rows(self) -> list[list[Any]]:
        rows = []
        for loop in self.loops:
            name = "  " * loop.level + "- " + self.loop_name(loop)
            ii = "-" if loop.ii is None else loop.ii
            target = "-" if loop.target_ii is None else loop.target_ii
            rows.append([name, loop.where, loop.latency_min, loop.latency_max, loop.depth, ii, target,
                         _trip(loop), loop.pipelined, loop.limiter or ""])
        return rows

    def _resource_rows(self) -> list[list[Any]]:
        rows = [[f"{r.module}: {r.op}" + (f" ({r.type})" if r.type else ""), "-" if r.count is None else r.count,
                 r.resources.bram18k, r.resources.dsp, r.resources.ff, r.resources.lut]
                for r in self.breakdown if r.resources != Resources()]
        total = self.resources
        rows.append(["Total", "", total.bram18k, total.dsp, total.ff, total.lut])
        return rows

    def __str__(self) -> str:
        title = "Vitis HLS report" if self.source == "vitis" else "hls schedule estimate"
        unc = f"{self.uncertainty_ns:.2f}" if self.uncertainty_ns is not None else "?"
        lines = ["=" * 64, f"== {title} for '{self.top}'", "=" * 64,
                 f"* Target device:  {self.part}" + (f" ({self.family})" if self.family else ""),
                 "", "+ Timing:",
                 *table(["Clock", "Target", "Estimated", "Uncertainty"],
                        [["ap_clk", f"{self.clock_ns:.2f} ns", self.estimated_clock_ns or "-", f"{unc} ns"]]),
                 "", "+ Latency:",
                 *table(["min (cycles)", "max (cycles)", "min (ns)", "max (ns)", "Interval min", "Interval max"],
                        self._latency_rows())]
        if self.loops:
            lines += ["", "+ Loops:",
                      *table(["Loop", "Line", "Latency min", "Latency max", "Iteration Latency", "II achieved",
                              "II target", "Trip Count", "Pipelined", "Limiter"], self._loop_rows())]
        lines += ["", "== Utilization Estimates",
                  *table(["Name", "Count", "BRAM_18K", "DSP", "FF", "LUT"], self._resource_rows())]
        if self.dataflow is not None:
            lines += ["", *self.dataflow.lines()]
        notes = self.all_notes()
        if notes:
            lines += ["", "Notes:", *[f"  - {note}" for note in notes]]
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's plain-text view: the tables, not the dataclass fields."""
        printer.text(str(self))

    # ---- side by side -----------------------------------------------------------------------------

    def compare(self, other: ReportData) -> str:
        """This report next to another (estimate | Vitis), loops matched by label."""
        a, b = self, other
        rows = [["Latency min (cycles)", a.latency_min, b.latency_min], ["Latency max (cycles)", a.latency_max,
                b.latency_max], ["Interval min", a.interval_min, b.interval_min],
                ["Interval max", a.interval_max, b.interval_max],
                ["BRAM_18K", a.resources.bram18k, b.resources.bram18k], ["DSP", a.resources.dsp, b.resources.dsp],
                ["FF", a.resources.ff, b.resources.ff], ["LUT", a.resources.lut, b.resources.lut]]
        lines = [f"== {a.source} vs {b.source} for '{a.top}' ({a.part} at {a.clock_ns} ns | "
                 f"{b.part} at {b.clock_ns} ns)", *table(["", a.source, b.source], rows)]
        theirs = {loop.label: loop for loop in b.loops}
        ours = {loop.label for loop in a.loops}
        loop_rows = []
        for loop in a.loops + [loop for loop in b.loops if loop.label not in ours]:
            mine = loop if loop.label in ours else None
            other_loop = theirs.get(loop.label)
            loop_rows.append([loop.label, *_loop_cells(mine), *_loop_cells(other_loop)])
        if loop_rows:
            lines += ["", "+ Loops:", *table(["Loop", f"II ({a.source})", f"depth ({a.source})",
                                              f"latency ({a.source})", f"II ({b.source})", f"depth ({b.source})",
                                              f"latency ({b.source})"], loop_rows)]
        return "\n".join(lines)


def _resources(data: dict[str, Any]) -> Resources:
    return Resources(data.get("dsp", 0), data.get("bram18k", 0), data.get("ff", 0), data.get("lut", 0),
                     data.get("uram", 0))


def _loop_from_dict(d: dict[str, Any]) -> LoopReport:
    trip, latency = d.get("trip", {}), d.get("latency", {})
    return LoopReport(label=d.get("label"), file=d.get("file"), line=d.get("line"), trip_min=trip.get("min"),
                      trip_max=trip.get("max"), target_ii=d.get("target_ii"), ii=d.get("ii"), depth=d.get("depth"),
                      latency_min=latency.get("min"), latency_max=latency.get("max"), limiter=d.get("limiter"),
                      pipelined=d.get("pipelined", "no"), level=d.get("level", 0), function=d.get("function"),
                      res_mii=d.get("res_mii"), rec_mii=d.get("rec_mii"), notes=list(d.get("notes", [])),
                      limiter_file=d.get("limiter_file"), limiter_line=d.get("limiter_line"),
                      ops=[ScheduledOp(**op) for op in d.get("ops", [])], ops_total=d.get("ops_total", 0))


def _trip(loop: LoopReport) -> str:
    if loop.trip_min == loop.trip_max:
        return _text(loop.trip_min)
    return f"{_text(loop.trip_min)} ~ {_text(loop.trip_max)}"


def _loop_cells(loop: LoopReport | None) -> list[Any]:
    if loop is None:
        return ["", "", ""]
    latency = _text(loop.latency_min) if loop.latency_min == loop.latency_max else \
        f"{_text(loop.latency_min)} ~ {_text(loop.latency_max)}"
    return ["-" if loop.ii is None else loop.ii, loop.depth, latency]
