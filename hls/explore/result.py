"""The result of an exploration (hls/explore/run.py runs it): one `Row` per point, the objective, the Pareto
front, the table (`str`), JSON data (`to_dict`) and the HTML page (a scatter of latency against cost with
the front, and the table).

The scatter is hand-written SVG: a few hundred circles, two axes and a polyline are a few dozen lines,
smaller and easier to keep self-contained (no script, no network, no plotting dependency) than a
plotting library's output.
"""

from __future__ import annotations

import html
import itertools
import math
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hls.errors import HLSError
from hls.report.html import fragment, page
from hls.report.report import table

RESOURCES = ("dsp", "bram18k", "ff", "lut", "uram")


@dataclass
class Row:
    """One point of the space: its parameters and the estimate, or the error it raised."""

    index: int  # position in the full Cartesian product, in the space's key order
    params: dict[str, Any]
    latency_min: int | None = None
    latency_max: int | None = None
    interval_min: int | None = None
    interval_max: int | None = None
    dsp: int | None = None
    bram18k: int | None = None
    ff: int | None = None
    lut: int | None = None
    uram: int | None = None
    error: str | None = None
    design: str | None = None  # SHA-256 prefix of the generated C++: equal designs, equal hashes
    verified: bool | None = None  # None: not checked
    verify_error: str | None = None
    vitis: dict[str, Any] | None = None  # Vitis's report (Report.to_dict()) of this point
    vitis_error: str | None = None
    project: str | None = None  # the exported project synthesised for this point

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def message(self) -> str:
        """What went wrong with this point, if anything: the estimate's error, else csim's, else Vitis's."""
        return self.error or self.verify_error or self.vitis_error or ""

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "params": {k: plain(v) for k, v in self.params.items()},
                "latency": {"min": self.latency_min, "max": self.latency_max},
                "interval": {"min": self.interval_min, "max": self.interval_max},
                "resources": {name: getattr(self, name) for name in RESOURCES}, "error": self.error,
                "design": self.design, "verified": self.verified, "verify_error": self.verify_error,
                "vitis": self.vitis, "vitis_error": self.vitis_error, "project": self.project}


def plain(value: Any) -> Any:
    """A parameter value as JSON data (numbers, strings, lists); anything else by its repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    item = getattr(value, "item", None)  # numpy scalars
    return plain(item()) if callable(item) and not isinstance(value, type) else repr(value)


@dataclass
class Objective:
    """The resource cost the front is taken against: `name` for tables, `cost(row)` for numbers."""

    name: str
    measure: Callable[[Row], Any]

    def cost(self, row: Row) -> float | None:
        """The row's cost; None for a row without an estimate."""
        if not row.ok or row.lut is None:
            return None
        try:
            value = self.measure(row)
        except Exception as exc:
            raise HLSError(f"objective {self.name!r} raised on row #{row.index}: {type(exc).__name__}: {exc}") \
                from None
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise HLSError(f"objective {self.name!r} gave {value!r} for row #{row.index}; it must return a "
                           "finite number")
        return value


def make_objective(objective: Any) -> Objective:
    if isinstance(objective, str):
        key = "bram18k" if objective.lower() == "bram" else objective.lower()
        if key not in RESOURCES:
            raise HLSError(f"objective {objective!r}: use one of {', '.join(RESOURCES)}, 'bram', a mapping of "
                           "resource names to weights, or a callable taking a Row")
        return Objective(key, lambda row: getattr(row, key))
    if isinstance(objective, Mapping):
        weights = {("bram18k" if str(k).lower() == "bram" else str(k).lower()): w for k, w in objective.items()}
        bad = [k for k in weights if k not in RESOURCES]
        if not weights or bad or not all(isinstance(w, (int, float)) and math.isfinite(w) for w in weights.values()):
            raise HLSError(f"objective weights {dict(objective)!r}: keys must be among {', '.join(RESOURCES)} "
                           "and weights finite numbers")
        name = " + ".join(f"{w:g}*{k}" for k, w in weights.items())
        return Objective(name, lambda row: sum(w * getattr(row, k) for k, w in weights.items()))
    if callable(objective):
        name = getattr(objective, "__name__", "cost")
        return Objective("cost" if name == "<lambda>" else name, objective)
    raise HLSError(f"objective {objective!r} must be a resource name, a mapping of weights or a callable")


def pareto_front(rows: Sequence[Row], cost: Callable[[Row], float | None]) -> list[Row]:
    """Rows no other row dominates in (latency_max, cost), both minimised; ties are all kept."""
    scored = [(row.latency_max, cost(row), row) for row in rows if row.ok and row.latency_max is not None]
    scored = [s for s in scored if s[1] is not None]
    front: list[Row] = []
    best = math.inf  # lowest cost at any strictly smaller latency
    for _latency, group in itertools.groupby(sorted(scored, key=lambda s: (s[0], s[1], s[2].index)),
                                            key=lambda s: s[0]):
        members = list(group)
        lowest = members[0][1]
        if lowest < best:
            front += [row for _, c, row in members if c == lowest]
            best = lowest
    return sorted(front, key=lambda row: row.index)


class Exploration:
    """The rows of an exploration, its Pareto front, a table (`str`), JSON data and an HTML page."""

    def __init__(self, name: str, space: dict[str, list[Any]], rows: list[Row], objective: Objective,
                 total: int):
        self.name = name
        self.space = space
        self.rows = rows
        self.objective = objective
        self.total = total

    def cost(self, row: Row) -> float | None:
        return self.objective.cost(row)

    @property
    def pareto(self) -> list[Row]:
        return pareto_front(self.rows, self.objective.cost)

    def to_dict(self) -> dict[str, Any]:
        front = {row.index for row in self.pareto}
        return {"factory": self.name, "space": {k: [plain(v) for v in vs] for k, vs in self.space.items()},
                "points": self.total, "evaluated": len(self.rows), "objective": self.objective.name,
                "rows": [{**row.to_dict(), "cost": self.cost(row), "pareto": row.index in front}
                         for row in self.rows],
                "pareto": sorted(front)}

    def table_rows(self) -> tuple[list[str], list[list[Any]]]:
        """Headers and cells of the table (shared by the text and the HTML forms)."""
        front = {row.index for row in self.pareto}
        checked = any(row.verified is not None for row in self.rows)
        synthesised = any(row.vitis is not None or row.vitis_error for row in self.rows)
        own_column = self.objective.name not in RESOURCES  # a plain resource already has its column
        headers = ["#", *self.space, "latency min", "latency max", "interval max", "DSP", "BRAM", "FF", "LUT",
                   *[self.objective.name] * own_column, "front"]
        headers += ["csim"] * checked + ["vitis latency", "vitis LUT"] * synthesised + ["error"]
        cells = []
        for row in self.rows:
            cost = self.cost(row)
            line = [row.index, *(plain(row.params[k]) for k in self.space), row.latency_min, row.latency_max,
                    row.interval_max, row.dsp, row.bram18k, row.ff, row.lut,
                    *["" if cost is None else f"{cost:g}"] * own_column, "*" if row.index in front else ""]
            if checked:
                line.append({None: "", True: "pass", False: "FAIL"}[row.verified])
            if synthesised:
                line += _vitis_cells(row)
            line.append(first_line(row.message))
            cells.append(line)
        return headers, cells

    def __str__(self) -> str:
        headers, cells = self.table_rows()
        sampled = f" (sampled from {self.total})" if len(self.rows) < self.total else ""
        lines = [f"exploration of {self.name}: {len(self.rows)} points{sampled}; front (*) of latency max "
                 f"against {self.objective.name}", *table(headers, cells, indent="")]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Exploration of {self.name}: {len(self.rows)} points, {len(self.pareto)} on the front>"

    def to_html(self, path: str | os.PathLike[str] | None = None) -> str:
        """A self-contained page (scatter of latency against cost, front highlighted, and the table)."""
        text = page(title(self), sections(self))
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def _repr_html_(self) -> str:
        return fragment(title(self), sections(self), "explore-")


def _vitis_cells(row: Row) -> list[Any]:
    if row.vitis is None:
        return ["", ""]
    return [row.vitis["latency"]["max"], row.vitis["resources"]["lut"]]


def first_line(text: str, width: int = 70) -> str:
    """The first line of a message for a table cell, a leading source path cut to the file name."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = re.sub(r"^/[^:]*/([^/:]+:\d+)", r"\1", line)
    return line if len(line) <= width else line[:width - 3] + "..."


# ---- the exploration ---------------------------------------------------------------------------


# ---- the page --------------------------------------------------------------------------------------

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 80, 20, 20, 50


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About `count` round tick values (1, 2 or 5 times a power of ten) covering [lo, hi]."""
    span = hi - lo
    raw = span / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(lo / step) * step
    return [start + i * step for i in range(int(math.ceil((hi - start) / step)) + 1)]


def _bounds(values: list[float]) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    return lo, hi


def _label(row: Row) -> str:
    params = ", ".join(f"{k}={v}" for k, v in row.params.items())
    return f"#{row.index} {params}"


def scatter(result: Exploration) -> str:
    """SVG: every estimated point (x = cost, y = worst-case latency), the front in colour and joined."""
    points = [(result.cost(row), row.latency_max, row) for row in result.rows
              if row.ok and row.latency_max is not None and result.cost(row) is not None]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="pareto" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="latency against {html.escape(result.objective.name)}">')
    if not points:
        return head + f'<text x="{LEFT}" y="{HEIGHT // 2}">no point has an estimate</text></svg>'
    xt = nice_ticks(*_bounds([p[0] for p in points]))
    yt = nice_ticks(*_bounds([p[1] for p in points]))

    def sx(x: float) -> float:
        return LEFT + (x - xt[0]) / (xt[-1] - xt[0]) * (WIDTH - LEFT - RIGHT)

    def sy(y: float) -> float:
        return HEIGHT - BOTTOM - (y - yt[0]) / (yt[-1] - yt[0]) * (HEIGHT - TOP - BOTTOM)

    base = HEIGHT - BOTTOM
    parts = [head, f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>',
             f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>']
    parts += [f'<text x="{sx(x):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{x:g}</text>' for x in xt]
    parts += [f'<text x="{LEFT - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:g}</text>' for y in yt]
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle">'
                 f'{html.escape(result.objective.name)}</text>')
    parts.append(f'<text transform="translate(16 {(TOP + HEIGHT - BOTTOM) / 2:.0f}) rotate(-90)" '
                 'text-anchor="middle">latency max (cycles)</text>')
    front = {row.index for row in result.pareto}
    line = sorted((x, y) for x, y, row in points if row.index in front)
    parts.append('<polyline class="front-line" points="' +
                 " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in line) + '"/>')
    for x, y, row in sorted(points, key=lambda p: p[2].index in front):  # front drawn last, on top
        cls = "point front" if row.index in front else "point"
        parts.append(f'<circle class="{cls}" data-index="{row.index}" cx="{sx(x):.1f}" cy="{sy(y):.1f}" '
                     f'r="{6 if row.index in front else 4}"><title>{html.escape(_label(row))}: latency {y}, '
                     f'{html.escape(result.objective.name)} {x:g}</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)


def html_table(result: Exploration) -> str:
    headers, cells = result.table_rows()
    front = {row.index for row in result.pareto}
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = []
    for row, line in zip(result.rows, cells, strict=True):
        cls = ' class="front"' if row.index in front else ""
        cells = "".join(f"<td>{html.escape('' if c is None else str(c))}</td>" for c in line[:-1])
        cells += f'<td class="msg" title="{html.escape(row.message)}">{html.escape(str(line[-1]))}</td>'
        body.append(f"<tr{cls}>{cells}</tr>")
    return f'<table class="exploration"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def sections(result: Exploration) -> list[tuple[str, str]]:
    """The page's sections, laid out by the report page's own shell (hls.report.html)."""
    sampled = f" (sampled from {result.total})" if len(result.rows) < result.total else ""
    summary = (f"<p>{len(result.rows)} points{sampled}, {len(result.pareto)} on the Pareto front of worst-case "
               "latency against the objective (highlighted, joined by the dashed line).</p>")
    return [("Pareto front", summary + scatter(result)), ("Points", html_table(result))]


def title(result: Exploration) -> str:
    return f"hls exploration of {result.name}"

