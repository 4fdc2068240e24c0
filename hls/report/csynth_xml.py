"""Read Vitis's own synthesis report (`<top>_csynth.xml`) into a Report.

Where the file is: `<proj>/<solution>/syn/report/` (Tcl flow) or `<component>/hls/syn/report/`
(unified flow); both match `**/syn/report/*_csynth.xml`. Schema (VITIS_FACTS.md section 3; e.g.
enzobelline/ELEN226:Assignment3/mmul/solution2/syn/report/mmul_csynth.xml): UserAssignments (Part,
TopModelName, TargetClockPeriod, ClockUncertainty), PerformanceEstimates (SummaryOfTimingAnalysis,
SummaryOfOverallLatency, SummaryOfLoopLatency with one element per loop, nested loops nested), and
AreaEstimates/Resources. Cycle fields hold a number, `undef`/`-`/`?` when unknown, or a
`<range><min/><max/></range>`. Vitis 2022+ outlines pipelined loops into `<top>_Pipeline_<label>`
modules with their own report files; their loops are placed under the loop whose InstanceList names
the module (`grp_<module>_fu_<n>`), or after the top's loops when no loop names it.

The files are parsed with xml.etree after refusing any DTD or entity declaration (defusedxml is not
available; that refusal is what keeps entity-expansion attacks out of the standard parser).
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from hls.errors import HLSError
from hls.report.report import LoopReport, Report, Resources

LOOP_FIELDS = {"TripCount", "Latency", "AbsoluteTimeLatency", "PipelineII", "PipelineDepth", "IterationLatency",
               "InstanceList", "TargetII", "Slack", "Pipelined"}
MAX_XML_BYTES = 64 * 1024 * 1024
_FORBIDDEN = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def parse_xml(path: Path) -> ET.Element:
    """Parse a report file, refusing DTDs and entity declarations outright."""
    data = path.read_bytes()
    if len(data) > MAX_XML_BYTES:
        raise HLSError(f"{path}: {len(data)} bytes is too large for a synthesis report")
    if _FORBIDDEN.search(data):
        raise HLSError(f"{path}: DOCTYPE/ENTITY declarations are not allowed in a synthesis report")
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise HLSError(f"{path}: not a well-formed csynth.xml ({exc})") from None


def _module_name(path: Path) -> str:
    return path.name[: -len("_csynth.xml")]


def find_reports(project_dir: str | os.PathLike) -> tuple[Path, list[Path]]:
    """The top module's report and the other modules' reports of the newest report directory."""
    root = Path(project_dir)
    if root.is_file():
        return root, []
    candidates = sorted({*root.glob("**/syn/report/*_csynth.xml"), *root.glob("*_csynth.xml")})
    if not candidates:
        raise HLSError(f"no <top>_csynth.xml under {root} (looked for */syn/report/ of the Tcl flow and "
                       "<component>/hls/syn/report/ of the unified flow; run csynth first)")
    directory = max({p.parent for p in candidates}, key=lambda d: (d.stat().st_mtime, str(d)))
    files = [p for p in candidates if p.parent == directory]
    names = [_module_name(p) for p in files]
    summary = directory / "csynth.xml"
    top_name = None
    if summary.is_file():
        top_name = _text(parse_xml(summary).find("UserAssignments/TopModelName"))
    if top_name not in names:
        top_name = max(names, key=lambda n: (sum(other.startswith(n + "_") for other in names), -len(n)))
    top = files[names.index(top_name)]
    return top, [p for p in files if p != top]


def _text(elem: ET.Element | None) -> str | None:
    return None if elem is None or elem.text is None else elem.text.strip()


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    match = re.match(r"^\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)", text)
    return float(match.group(1)) if match else None


def _cycles(elem: ET.Element | None) -> tuple[int | None, int | None]:
    """(min, max) of a cycle field: a number, unknown, or a range element."""
    if elem is None:
        return None, None
    span = elem.find("range")
    if span is not None:
        low, high = _number(_text(span.find("min"))), _number(_text(span.find("max")))
        return (None if low is None else int(low)), (None if high is None else int(high))
    value = _number(_text(elem))
    return (None, None) if value is None else (int(value), int(value))


class _LoopReader:
    """Loops in document order; an outlined module's loops go under the loop that instantiates it."""

    def __init__(self, modules: dict[str, ET.Element]):
        self.modules = modules
        self.placed: set[str] = set()
        self.loops: list[LoopReport] = []

    def module(self, name: str, level: int) -> None:
        self.placed.add(name)
        self.read(self.modules[name].find("PerformanceEstimates/SummaryOfLoopLatency"), level, name)

    def read(self, parent: ET.Element | None, level: int, function: str) -> None:
        if parent is None:
            return
        for elem in parent:
            if elem.tag in LOOP_FIELDS:
                continue
            self.loops.append(_loop(elem, level, function))
            self.read(elem, level + 1, function)
            for instance in elem.findall("InstanceList/Instance"):
                self._instance(_text(instance) or "", level + 1)

    def _instance(self, text: str, level: int) -> None:
        """`grp_<module>_fu_<n>` names the module; the longest module name found in it wins."""
        matches = [name for name in self.modules if name in text and name not in self.placed]
        if matches:
            self.module(max(matches, key=len), level)


def _loop(elem: ET.Element, level: int, function: str) -> LoopReport:
    loop = LoopReport(elem.tag, level=level, function=function)
    loop.trip_min, loop.trip_max = _cycles(elem.find("TripCount"))
    loop.latency_min, loop.latency_max = _cycles(elem.find("Latency"))
    loop.ii = _cycles(elem.find("PipelineII"))[1]
    loop.target_ii = _cycles(elem.find("TargetII"))[1]
    depth = _cycles(elem.find("PipelineDepth"))[1]
    loop.depth = depth if depth is not None else _cycles(elem.find("IterationLatency"))[1]
    loop.pipelined = "yes" if loop.ii is not None else "no"
    return loop


def _resources(root: ET.Element) -> Resources:
    area = root.find("AreaEstimates/Resources")
    if area is None:
        return Resources()

    def count(*tags: str) -> int:
        for tag in tags:
            value = _number(_text(area.find(tag)))
            if value is not None:
                return int(value)
        return 0

    return Resources(count("DSP", "DSP48E", "DSP58E"), count("BRAM_18K"), count("FF"), count("LUT"), count("URAM"))


def report_from_xml(root: ET.Element, others: list[ET.Element] | tuple = ()) -> Report:
    """A Report from a parsed top-module csynth.xml (and its outlined modules' reports)."""
    user = root.find("UserAssignments")
    perf = root.find("PerformanceEstimates")
    if user is None or perf is None:
        raise HLSError("not a Vitis csynth.xml: UserAssignments or PerformanceEstimates is missing")
    top = _text(user.find("TopModelName")) or "?"
    clock = _number(_text(user.find("TargetClockPeriod"))) or 0.0
    overall = perf.find("SummaryOfOverallLatency")
    best = _cycles(overall.find("Best-caseLatency") if overall is not None else None)[0]
    worst = _cycles(overall.find("Worst-caseLatency") if overall is not None else None)[1]
    interval = (_cycles(overall.find("Interval-min") if overall is not None else None)[0],
                _cycles(overall.find("Interval-max") if overall is not None else None)[1])
    reader = _LoopReader({top: root, **{_text(o.find("UserAssignments/TopModelName")) or "?": o for o in others}})
    reader.module(top, 0)
    for name in reader.modules:
        if name not in reader.placed:
            reader.module(name, 1)
    return Report(top, _text(user.find("Part")) or "?", clock, best, worst, interval[0], interval[1], reader.loops,
                  _resources(root), [], "vitis", _text(user.find("ProductFamily")),
                  _number(_text(user.find("ClockUncertainty"))),
                  _number(_text(perf.find("SummaryOfTimingAnalysis/EstimatedClockPeriod"))), [])


def load_report(project_dir: str | os.PathLike) -> Report:
    """Vitis's csynth.xml under `project_dir` (a project, solution or component directory, or the
    file itself) as a Report, to compare with `Kernel.report()`."""
    top, others = find_reports(project_dir)
    return report_from_xml(parse_xml(top), [parse_xml(p) for p in others])
