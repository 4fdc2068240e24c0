"""The report page's two pictures as inline SVG: a schedule chart and the design graph.

Hand-written SVG, not matplotlib or graphviz, on purpose: the schedule chart is a Gantt chart (one
rectangle per operator on a cycle grid) and the graph a handful of boxes in layers, each about sixty
lines here. A plotting library would add a dependency (graphviz also its `dot` binary from the
system), a second of import time and generated element ids, while this output is small,
deterministic, addressable by our own classes (the tests count `rect.op` and `g.node`), styled by
the page's CSS and linked into the page's source listing. Every text is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from hls.report.data import GraphEdge, GraphNode, LoopReport, NodeKind, ScheduledOp

Link = Callable[[str | None, int | None], str | None]  # (file, line) -> in-page anchor or None

LABEL_W = 300
ROW_H = 20
AXIS_H = 30
CHART_W = 720
MAX_LABEL = 34


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _linked(content: str, href: str | None) -> str:
    return f'<a href="#{_esc(href)}">{content}</a>' if href else content


def _kind(op: ScheduledOp) -> str:
    """Bar colour class: memory access, chained logic (no register), or a pipelined operator."""
    if op.array is not None:
        return "mem"
    return "logic" if op.latency == 0 else "arith"


def op_label(op: ScheduledOp) -> str:
    what = f"{op.name} {op.array}" if op.array else op.name
    return f"{what}: {op.text}" if op.text else what


BREAK_MIN = 8  # cycles: a stretch this long in which no operator starts or ends is drawn as a break
BREAK_CELLS = 2  # the width of a break, in cycles of the scale


class CycleAxis:
    """Cycle -> x of a schedule chart. Stretches of at least BREAK_MIN cycles in which no operator starts
    or ends (one long operator, a 64-cycle m_axi access, alone in flight) are cut to BREAK_CELLS cells, so
    forty one-cycle operators next to one long bar keep a readable scale; the bars crossing a cut carry
    their length written on them."""

    def __init__(self, ops: list[ScheduledOp], span: int, ii: int | None):
        points = sorted({0, span, *([ii] if ii is not None and ii <= span else []),
                         *(op.start for op in ops), *(min(span, op.start + max(op.latency, 1)) for op in ops)})
        self.breaks = [(a, b) for a, b in zip(points, points[1:], strict=False) if b - a >= BREAK_MIN]
        self.span = span
        shown = span - sum(b - a - BREAK_CELLS for a, b in self.breaks)
        self.cw = max(4.0, min(48.0, CHART_W / max(shown, 1)))
        self.width = shown * self.cw

    def x(self, cycle: float) -> float:
        """Offset of `cycle` from the chart's left edge."""
        cells = cycle
        for a, b in self.breaks:
            if cycle >= b:
                cells -= b - a - BREAK_CELLS
            elif cycle > a:
                cells -= (cycle - a) * (1 - BREAK_CELLS / (b - a))
        return cells * self.cw

    def broken(self, start: int, end: int) -> bool:
        return any(start <= a and b <= end for a, b in self.breaks)

    def visible(self, cycle: int) -> bool:
        return not any(a < cycle < b for a, b in self.breaks)


def schedule_chart(loop: LoopReport, usable_ns: float, link: Link) -> str:
    """One row per operator of the iteration, a bar from its start cycle over its latency; the II
    boundary (where the next iteration starts) as a dashed line over a shaded band; long idle stretches
    cut (CycleAxis)."""
    ops = sorted(loop.ops, key=lambda op: (op.start, op.offset_ns))
    span = max([loop.depth or 1, *(op.start + max(op.latency, 1) for op in ops)])
    axis = CycleAxis(ops, span, loop.ii)
    width = LABEL_W + axis.width + 20
    height = AXIS_H + len(ops) * ROW_H + 10
    x0 = LABEL_W
    parts = [f'<svg class="schedule" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
             f'viewBox="0 0 {width:.0f} {height}" role="img" aria-label="schedule of {_esc(loop.label)}">']
    ii = loop.ii or span
    parts.append(f'<rect class="ii-band" x="{x0}" y="{AXIS_H}" width="{axis.x(min(ii, span)):.1f}" '
                 f'height="{len(ops) * ROW_H}"/>')
    parts += _axis(axis, x0, height)
    if loop.ii is not None and loop.ii <= span:
        x = x0 + axis.x(loop.ii)
        parts.append(f'<line class="ii" x1="{x:.1f}" y1="4" x2="{x:.1f}" y2="{height - 10}"/>'
                     f'<text class="ii-label" x="{x + 4:.1f}" y="12">II = {loop.ii}</text>')
    for row, op in enumerate(ops):
        parts.append(_bar(op, row, x0, axis, usable_ns, link))
    parts.append("</svg>")
    return "".join(parts)


def _axis(axis: CycleAxis, x0: float, height: int) -> list[str]:
    """Grid lines and cycle numbers (at least 30 px apart), and a marker naming each cut's length."""
    parts = []
    step = max(1, -(-30 // int(axis.cw)))
    last = -1e9
    for cycle in range(axis.span + 1):
        if not axis.visible(cycle):
            continue
        x = x0 + axis.x(cycle)
        parts.append(f'<line class="grid" x1="{x:.1f}" y1="{AXIS_H - 4}" x2="{x:.1f}" y2="{height - 10}"/>')
        edge = any(cycle == b for _, b in axis.breaks)
        if (cycle % step == 0 or edge) and cycle < axis.span and x - last >= 24:
            parts.append(f'<text class="axis" x="{x + 2:.1f}" y="{AXIS_H - 8}">{cycle}</text>')
            last = x
    for a, b in axis.breaks:
        xa, xb = x0 + axis.x(a), x0 + axis.x(b)
        parts.append(f'<g class="axis-break" data-from="{a}" data-to="{b}"><rect class="break-band" x="{xa:.1f}" '
                     f'y="{AXIS_H - 4}" width="{xb - xa:.1f}" height="{height - AXIS_H - 6}"/>'
                     f'<text class="axis" x="{(xa + xb) / 2:.1f}" y="{AXIS_H - 8}" text-anchor="middle">'
                     f"\u2248{b - a}</text><title>{b - a} cycles cut from the chart: no operator starts or ends "
                     "in them</title></g>")
    return parts


def _bar(op: ScheduledOp, row: int, x0: float, axis: CycleAxis, usable_ns: float, link: Link) -> str:
    y = AXIS_H + row * ROW_H
    broken = op.latency > 0 and axis.broken(op.start, op.start + op.latency)
    if op.latency > 0:
        x, w = x0 + axis.x(op.start), axis.x(op.start + op.latency) - axis.x(op.start)
    else:  # chained: the part of its cycle its delay takes
        x = x0 + axis.x(op.start + op.offset_ns / usable_ns)
        w = max(3.0, op.delay_ns / usable_ns * axis.cw)
    where = f" at line {op.line}" if op.line else ""
    tip = f"{op_label(op)}: cycle {op.start}, latency {op.latency}{where}"
    label = _linked(f'<text class="op-label" x="6" y="{y + 14}">{_esc(_short(op_label(op)))}</text>',
                    link(op.file, op.line))
    length = f'<text class="bar-length" x="{x + 4:.1f}" y="{y + 14}">{op.latency} cycles</text>' if broken else ""
    return (f'<g class="row">{label}<rect class="op {_kind(op)}{" broken" if broken else ""}" x="{x:.1f}" '
            f'y="{y + 3}" width="{w:.1f}" height="{ROW_H - 6}" rx="2" data-start="{op.start}" '
            f'data-latency="{op.latency}"><title>{_esc(tip)}</title></rect>{length}</g>')


# ---- the design graph ---------------------------------------------------------------------------------

BOX_H = 46
LAYER_GAP = 74
BOX_GAP = 28


def _levels(nodes: list[GraphNode], edges: list[GraphEdge]) -> dict[str, int]:
    """Layer of each node: its longest distance from the first node (the top) along the edges."""
    level = {node.name: 0 for node in nodes}
    for _ in range(len(nodes)):  # Bellman-Ford style relaxation; a cycle stops after len(nodes) rounds
        changed = False
        for edge in edges:
            if edge.src in level and edge.dst in level and level[edge.dst] < level[edge.src] + 1:
                level[edge.dst] = level[edge.src] + 1
                changed = True
        if not changed:
            break
    return level


def _node_text(node: GraphNode) -> str:
    if node.latency_max is None:
        return "scheduled in its caller" if node.kind == NodeKind.FUNCTION else ""
    if node.latency_min == node.latency_max:
        return f"{node.latency_max:,} cycles"
    return f"{node.latency_min if node.latency_min is not None else '?'}~{node.latency_max:,} cycles"


def design_graph(nodes: list[GraphNode], edges: list[GraphEdge], link: Link, marker_id: str) -> str:
    """Boxes in layers (callers above callees), arrows from caller to callee labelled with the number of
    call sites. Node and edge kinds become CSS classes, so dataflow processes and FIFOs only need rules."""
    level = _levels(nodes, edges)
    layers: dict[int, list[GraphNode]] = {}
    for node in nodes:
        layers.setdefault(level[node.name], []).append(node)
    widths = {n.name: max(150, 8 * max(len(n.name), len(_node_text(n))) + 24) for n in nodes}
    row_w = {lv: sum(widths[n.name] for n in row) + BOX_GAP * (len(row) - 1) for lv, row in layers.items()}
    total_w = max(row_w.values(), default=200) + 40
    pos: dict[str, tuple[float, float]] = {}
    for lv, row in layers.items():
        x = (total_w - row_w[lv]) / 2
        for node in row:
            pos[node.name] = (x, 16 + lv * (BOX_H + LAYER_GAP))
            x += widths[node.name] + BOX_GAP
    height = 16 + (max(layers, default=0) + 1) * (BOX_H + LAYER_GAP) - LAYER_GAP + 16
    parts = [f'<svg class="graph" xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{height}" '
             f'viewBox="0 0 {total_w:.0f} {height}" role="img" aria-label="call graph">',
             f'<defs><marker id="{_esc(marker_id)}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
             f'markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>']
    for edge in edges:
        if edge.src in pos and edge.dst in pos:
            parts.append(_edge(edge, pos, widths, marker_id))
    for node in nodes:
        x, y = pos[node.name]
        w = widths[node.name]
        box = (f'<rect x="{x:.1f}" y="{y}" width="{w}" height="{BOX_H}" rx="6"/>'
               f'<text class="name" x="{x + w / 2:.1f}" y="{y + 19}">{_esc(node.name)}</text>'
               f'<text class="detail" x="{x + w / 2:.1f}" y="{y + 36}">{_esc(_node_text(node))}</text>')
        parts.append(f'<g class="node node-{_esc(node.kind)}" data-name="{_esc(node.name)}">'
                     f'{_linked(box, link(node.file, node.line))}</g>')
    parts.append("</svg>")
    return "".join(parts)


def _edge(edge: GraphEdge, pos: dict[str, tuple[float, float]], widths: dict[str, int], marker_id: str) -> str:
    (sx, sy), (dx, dy) = pos[edge.src], pos[edge.dst]
    x1, y1 = sx + widths[edge.src] / 2, sy + BOX_H
    x2, y2 = dx + widths[edge.dst] / 2, dy
    label = edge.label or (f"\u00d7{edge.count}" if edge.count > 1 else "")
    text = (f'<text class="edge-label" x="{(x1 + x2) / 2 + 6:.1f}" y="{(y1 + y2) / 2:.1f}">{_esc(label)}</text>'
            if label else "")
    return (f'<g class="edge edge-{_esc(edge.kind)}" data-src="{_esc(edge.src)}" data-dst="{_esc(edge.dst)}">'
            f'<line x1="{x1:.1f}" y1="{y1}" x2="{x2:.1f}" y2="{y2 - 2}" marker-end="url(#{_esc(marker_id)})"/>'
            f'{text}</g>')
