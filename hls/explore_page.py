"""The HTML view of an exploration: a scatter of latency against cost with the Pareto front, and the table.

Hand-written SVG: a scatter of a few hundred circles, two axes and a polyline is a few dozen lines,
smaller and easier to keep self-contained (no script, no network, no plotting dependency) than a
plotting library's output.
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hls.explore import Exploration, Row

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
    """The page's sections, laid out by the report page's own shell (hls.schedule.html)."""
    sampled = f" (sampled from {result.total})" if len(result.rows) < result.total else ""
    summary = (f"<p>{len(result.rows)} points{sampled}, {len(result.pareto)} on the Pareto front of worst-case "
               "latency against the objective (highlighted, joined by the dashed line).</p>")
    return [("Pareto front", summary + scatter(result)), ("Points", html_table(result))]


def title(result: Exploration) -> str:
    return f"hls exploration of {result.name}"

