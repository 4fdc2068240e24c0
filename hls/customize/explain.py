"""What each primitive of a schedule bought: the estimate after every prefix of the records."""

from __future__ import annotations

from typing import Any

from hls.customize.kernel import ScheduledKernel
from hls.errors import HLSError
from hls.report.data import table


def _loops(report: Any) -> dict[str, tuple[Any, Any, str]]:
    return {f"{loop.function or report.top}/{loop.label}": (loop.ii, loop.limiter or "", loop.pipelined)
            for loop in report.loops}


def _changes(before: dict[str, tuple[Any, Any, str]], after: dict[str, tuple[Any, Any, str]]) -> str:
    """The loops whose II, limiter or pipelining changed, appeared or went (unrolled, fused, split)."""
    notes = []
    for name, (ii, limiter, pipelined) in after.items():
        if name not in before:
            notes.append(f"{name} new (II {ii if ii is not None else '-'})")
        elif before[name] != (ii, limiter, pipelined):
            old_ii, old_limiter, old_pipelined = before[name]
            parts = [f"II {old_ii if old_ii is not None else '-'} -> {ii if ii is not None else '-'}"] \
                if old_ii != ii else []
            if old_pipelined != pipelined:
                parts.append(f"pipelined {old_pipelined} -> {pipelined}")
            if old_limiter != limiter:
                parts.append(f"limiter {old_limiter or 'none'} -> {limiter or 'none'}")
            notes.append(f"{name} " + ", ".join(parts))
    notes += [f"{name} gone" for name in before if name not in after]
    return "; ".join(notes)


def explain_rows(schedule: Any, **report_options: Any) -> list[list[Any]]:
    """One row per step: the primitive, latency, interval, DSP, BRAM, FF, LUT and the loops that changed."""
    rows, before = [], None
    for n in range(len(schedule.records) + 1):
        step = "(as written)" if n == 0 else str(schedule.records[n - 1])
        try:
            report = ScheduledKernel(schedule.kernel, tuple(schedule.records[:n])).report(**report_options)
        except HLSError as exc:
            rows.append([n, step, "-", "-", "-", "-", "-", "-", f"no estimate: {str(exc).splitlines()[0]}"])
            continue
        loops = _loops(report)
        res = report.resources
        latency = report.latency_max if report.latency_min == report.latency_max else \
            f"{report.latency_min}..{report.latency_max}"
        rows.append([n, step, latency, report.interval_max, res.dsp, res.bram18k, res.ff, res.lut,
                     _changes(before, loops) if before is not None else ""])
        before = loops
    return rows


def explain(schedule: Any, **report_options: Any) -> str:
    """The estimate after each primitive, as a table."""
    headers = ["#", "after", "latency", "interval", "DSP", "BRAM", "FF", "LUT", "loops changed"]
    title = f"hls.customize({schedule.kernel.__name__}): the estimate after each primitive"
    return "\n".join([title, *table(headers, explain_rows(schedule, **report_options))])
