"""HTML pages: one self-contained document (no network, no scripts, no external fonts or CSS).

`page(title, sections)` makes a document from titled HTML fragments with the shared CSS; any page of
this project (the report, an exploration's Pareto front) is built with it. `report_page(report)` is
`Report.to_html()`: the summary, the loops with each II limiter linked to its Python line (shown
inline with a few lines of context), the schedule chart of every pipelined loop and the design graph
(SVG, hls/report/svg.py), and the resources. `report_fragment` is the same inside a <div> for
Jupyter. Syntax highlighting uses pygments when installed (the `notebook` extra), else plain text.
"""

from __future__ import annotations

import html
import itertools
import linecache
import os
import re
from typing import Any

from hls.report.data import GraphEdge, GraphNode, LoopReport, NodeKind, ReportData, Resources
from hls.report.svg import design_graph, schedule_chart

CONTEXT = 3  # source lines shown above and below each line the report names
_FRAGMENTS = itertools.count()

CSS = """
.hls-page { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328;
  max-width: 1200px; margin: 0 auto; padding: 8px 20px 40px; background: #fff; }
.hls-page h1 { font-size: 22px; margin: 12px 0 4px; }
.hls-page h2 { font-size: 17px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
.hls-page h3 { font-size: 14px; margin: 18px 0 6px; }
.hls-page nav a { margin-right: 14px; }
.hls-page a { color: #0969da; text-decoration: none; }
.hls-page a:hover { text-decoration: underline; }
.hls-page table { border-collapse: collapse; margin: 4px 0 8px; }
.hls-page th, .hls-page td { border: 1px solid #d0d7de; padding: 3px 9px; text-align: left; vertical-align: top; }
.hls-page th { background: #f6f8fa; font-weight: 600; }
.hls-page td.num { text-align: right; font-variant-numeric: tabular-nums; }
.hls-page tr.total td { font-weight: 600; background: #f6f8fa; }
.hls-page .bad { color: #cf222e; font-weight: 600; }
.hls-page .muted { color: #656d76; }
.hls-page code, .hls-page pre { font: 12.5px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
.hls-page pre.code { background: #f6f8fa; border: 1px solid #d0d7de; padding: 8px 12px; overflow-x: auto; }
.hls-page .source { border: 1px solid #d0d7de; background: #f6f8fa; margin-bottom: 12px; overflow-x: auto; }
.hls-page .source .file { padding: 4px 10px; font-weight: 600; border-bottom: 1px solid #d0d7de; }
.hls-page .ln { white-space: pre; font: 12.5px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; padding: 0 10px; }
.hls-page .ln .lineno { display: inline-block; width: 3.5em; color: #8c959f; user-select: none; }
.hls-page .ln.named { background: #ddf4ff; }
.hls-page .ln.hit { background: #fff1c2; box-shadow: inset 3px 0 #d4a72c; }
.hls-page .ln:target { background: #ffd8b5; box-shadow: inset 3px 0 #fb8500; }
.hls-page .gap { color: #8c959f; padding: 0 10px; }
.hls-page .chart { overflow-x: auto; margin-bottom: 10px; }
.hls-page svg text { font: 11.5px ui-monospace, "DejaVu Sans Mono", monospace; fill: #1f2328; }
.hls-page svg .grid { stroke: #eaeef2; }
.hls-page svg .axis { fill: #656d76; font-size: 10px; }
.hls-page svg .ii-band { fill: #fff4d6; }
.hls-page svg .ii { stroke: #cf222e; stroke-width: 1.5; stroke-dasharray: 5 3; }
.hls-page svg .ii-label { fill: #cf222e; font-weight: 600; }
.hls-page svg rect.op.mem { fill: #4e79a7; }
.hls-page svg rect.op.arith { fill: #f28e2b; }
.hls-page svg rect.op.logic { fill: #59a14f; }
.hls-page svg rect.op.broken { stroke: #1f2328; stroke-width: 1; stroke-dasharray: 4 2; }
.hls-page svg .bar-length { fill: #ffffff; font-size: 10px; font-weight: 600; }
.hls-page svg .break-band { fill: #f6f8fa; stroke: #8c959f; stroke-dasharray: 2 2; }
.hls-page svg a text { fill: #0969da; }
.hls-page svg .node rect { fill: #ddf4ff; stroke: #0969da; stroke-width: 1.2; }
.hls-page svg .node-process rect { fill: #dafbe1; stroke: #1a7f37; }
.hls-page svg .node text { text-anchor: middle; }
.hls-page svg .node text.name { font-weight: 600; fill: #1f2328; }
.hls-page svg .node text.detail { fill: #656d76; font-size: 10.5px; }
.hls-page svg .edge line { stroke: #57606a; stroke-width: 1.3; }
.hls-page svg .edge-fifo line { stroke-dasharray: 6 3; }
.hls-page svg marker path { fill: #57606a; }
.hls-page table.exploration td { text-align: right; font-variant-numeric: tabular-nums; }
.hls-page table.exploration td.msg { text-align: left; }
.hls-page tr.front td { background: #fff2cc; }
.hls-page svg .point { fill: #8aa4c8; stroke: #34527a; }
.hls-page svg .point.front { fill: #e4572e; stroke: #7a1f0a; }
.hls-page svg .front-line { fill: none; stroke: #e4572e; stroke-width: 1.5; stroke-dasharray: 4 3; }
.hls-page .legend span { display: inline-block; margin-right: 14px; }
.hls-page .legend i { display: inline-block; width: 12px; height: 10px; margin-right: 4px; border-radius: 2px; }
"""


def _esc(value: Any) -> str:
    return html.escape("?" if value is None else str(value), quote=True)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-").lower() or "section"


def highlight(code: str, language: str) -> str:
    """`code` as escaped HTML with pygments' token classes (styled by `style_css()`), newlines kept;
    plain escaped text when pygments is not installed."""
    try:
        from pygments import highlight as pyg_highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import get_lexer_by_name
    except ImportError:
        return html.escape(code)
    text = pyg_highlight(code, get_lexer_by_name(language), HtmlFormatter(nowrap=True))
    return text[:-1] if text.endswith("\n") and not code.endswith("\n") else text


def style_css() -> str:
    """The shared CSS, with pygments' token colours (scoped to the page) when pygments is there."""
    try:
        from pygments.formatters import HtmlFormatter
    except ImportError:
        return CSS
    return CSS + "\n".join(HtmlFormatter(style="default").get_token_style_defs(".hls-page .hl"))


def _body(sections: list[tuple[str, str]], prefix: str) -> str:
    nav = " ".join(f'<a href="#{prefix}{slug(name)}">{html.escape(name)}</a>' for name, _ in sections)
    body = "".join(f'<section id="{prefix}{slug(name)}"><h2>{html.escape(name)}</h2>{fragment}</section>'
                   for name, fragment in sections)
    return f"<nav>{nav}</nav>{body}"


def page(title: str, sections: list[tuple[str, str]]) -> str:
    """A self-contained HTML document: `title`, a table of contents, and each (heading, HTML fragment)."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<link rel=\"icon\" href=\"data:,\"><title>{html.escape(title)}</title><style>{style_css()}</style>"
            f"</head><body><div class=\"hls-page\"><h1>{html.escape(title)}</h1>{_body(sections, '')}</div>"
            "</body></html>\n")


def fragment(title: str, sections: list[tuple[str, str]], prefix: str) -> str:
    """The same as `page` inside one <div> (for a notebook output); `prefix` keeps ids unique there."""
    return (f"<div class=\"hls-page\"><style>{style_css()}</style><h1>{html.escape(title)}</h1>"
            f"{_body(sections, prefix)}</div>")


# ---- the source listing -------------------------------------------------------------------------------


class SourceListing:
    """Lines of the kernel's files that the report names, with context; `link` gives their anchors.

    Files are read through linecache, so kernels defined in a notebook cell are listed too. A line
    is linked only when its file can be read: every link on the page lands on a listed line."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.files: dict[str, dict[int, str]] = {}  # file -> line -> role ("hit" or "named")

    def add(self, file: str | None, line: int | None, role: str = "named") -> None:
        if not file or not line or not linecache.getlines(file):
            return
        roles = self.files.setdefault(file, {})
        if roles.get(line) != "hit":
            roles[line] = role

    def anchor(self, file: str | None, line: int | None) -> str | None:
        if file in self.files and line in self.files[file]:
            return f"{self.prefix}src-{list(self.files).index(file)}-{line}"
        return None

    def render(self) -> str:
        out = []
        for file, roles in self.files.items():
            lines = linecache.getlines(file)
            marked = highlight("".join(lines), "python").split("\n")
            shown = sorted({n for line in roles for n in range(line - CONTEXT, line + CONTEXT + 1)
                            if 1 <= n <= len(lines)})
            rows, last = [], None
            for number in shown:
                if last is not None and number != last + 1:
                    rows.append('<div class="gap">\u22ee</div>')
                role = roles.get(number)
                ident = f' id="{self.anchor(file, number)}"' if role else ""
                code = marked[number - 1] if number - 1 < len(marked) else ""
                rows.append(f'<div class="ln{" " + role if role else ""}"{ident}><span class="lineno">{number}</span>'
                            f'<span class="hl">{code}</span></div>')
                last = number
            out.append(f'<div class="source"><div class="file">{html.escape(file)}</div>{"".join(rows)}</div>')
        return "".join(out) or '<p class="muted">No source lines to show.</p>'


# ---- the report ---------------------------------------------------------------------------------------


def _table(headers: list[str], rows: list[str]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _cells(values: list[Any], numeric_from: int = 1) -> str:
    return "".join(f'<td{" class=num" if i >= numeric_from else ""}>{_esc(v)}</td>' for i, v in enumerate(values))


def _cycles(cycles: int | None, clock_ns: float) -> str:
    return "?" if cycles is None else f"{cycles:,} cycles ({cycles * clock_ns:,.2f} ns)"


def summary_section(report: ReportData) -> str:
    kind = "Vitis HLS report" if report.source == "vitis" else "schedule estimate (not a Vitis run)"
    rows = [("Top function", report.top), ("Source", kind),
            ("Part", report.part + (f" ({report.family})" if report.family else "")),
            ("Clock target", f"{report.clock_ns:.2f} ns"),
            ("Clock uncertainty", "?" if report.uncertainty_ns is None else f"{report.uncertainty_ns:.2f} ns"),
            ("Latency min", _cycles(report.latency_min, report.clock_ns)),
            ("Latency max", _cycles(report.latency_max, report.clock_ns)),
            ("Interval min / max", f"{_esc(report.interval_min)} / {_esc(report.interval_max)} cycles")]
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    notes = report.all_notes()
    listed = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    return f"<table class=\"summary\"><tbody>{body}</tbody></table>" + (f"<ul>{listed}</ul>" if notes else "")


def _limiter_cell(loop: LoopReport, source: SourceListing) -> str:
    if not loop.limiter:
        return "<td></td>"
    text = html.escape(loop.limiter)
    href = source.anchor(loop.limiter_file, loop.limiter_line)
    if href is None:
        return f"<td>{text}</td>"
    where = f"{os.path.basename(loop.limiter_file or '')}:{loop.limiter_line}"
    link = f'<a class="limiter" href="#{href}">{html.escape(where)}</a>'
    suffix = f" at {html.escape(where)}"
    return f"<td>{text[:-len(suffix)] + ' at ' + link if text.endswith(suffix) else text + ' (' + link + ')'}</td>"


def loops_section(report: ReportData, source: SourceListing) -> str:
    if not report.loops:
        return '<p class="muted">No loops.</p>'
    rows = []
    for loop in report.loops:
        href = source.anchor(loop.file, loop.line)
        where = f'<a href="#{href}">{html.escape(loop.where)}</a>' if href else html.escape(loop.where)
        name = f'<span style="padding-left: {1.2 * loop.level}em">{html.escape(report.loop_name(loop))}</span>'
        trip = _esc(loop.trip_min) if loop.trip_min == loop.trip_max else f"{_esc(loop.trip_min)}~{_esc(loop.trip_max)}"
        latency = _esc(loop.latency_min) if loop.latency_min == loop.latency_max else \
            f"{_esc(loop.latency_min)}~{_esc(loop.latency_max)}"
        ii = "-" if loop.ii is None else str(loop.ii)
        ii_cell = f'<td class="num{" bad" if loop.ii_met is False else ""}">{ii}</td>'
        rows.append(f"<tr><td>{name}</td><td>{where}</td><td class=num>{trip}</td><td>{html.escape(loop.pipelined)}"
                    f"</td><td class=num>{'-' if loop.target_ii is None else loop.target_ii}</td>{ii_cell}"
                    f"<td class=num>{_esc(loop.depth)}</td><td class=num>{latency}</td>"
                    f"{_limiter_cell(loop, source)}</tr>")
    return _table(["Loop", "Line", "Trip count", "Pipelined", "II target", "II", "Iteration latency", "Latency",
                   "What limits the II"], rows)


def schedule_section(report: ReportData, source: SourceListing) -> str:
    usable = report.clock_ns - (report.uncertainty_ns or 0.0)
    charts = []
    for loop in report.loops:
        if not loop.ops:
            continue
        title = f"{report.loop_name(loop)} ({loop.where}): II {loop.ii}, iteration latency {loop.depth} cycles"
        if loop.ops_total > len(loop.ops):
            title += f" (the first {len(loop.ops)} of {loop.ops_total} operators)"
        charts.append(f'<h3>{html.escape(title)}</h3><div class="chart" data-loop="{_esc(report.loop_name(loop))}">'
                      f"{schedule_chart(loop, usable, source.anchor)}</div>")
    if not charts:
        if any(loop.ii is not None for loop in report.loops):
            return '<p class="muted">This report has no per-operator schedule (csynth.xml carries none).</p>'
        return '<p class="muted">No pipelined loop was scheduled.</p>'
    legend = ('<p class="legend"><span><i style="background:#4e79a7"></i>memory access</span>'
              '<span><i style="background:#f28e2b"></i>pipelined operator</span>'
              '<span><i style="background:#59a14f"></i>chained logic (no register)</span>'
              '<span><i style="background:#fff4d6;border:1px solid #cf222e"></i>first II cycles: the next '
              'iteration starts at the dashed line</span></p>')
    return legend + "".join(charts)


def graph_section(report: ReportData, source: SourceListing, prefix: str) -> str:
    if not report.nodes:
        return '<p class="muted">No call graph in this report.</p>'
    note = ('<p class="muted">Functions and the sub-kernel calls between them (a number on an arrow counts its '
            "call sites); a sub-kernel without loops is scheduled inside its caller.</p>")
    svg = design_graph(report.nodes, report.edges, source.anchor, prefix + "arrow")
    return f'{note}<div class="chart">{svg}</div>'


def dataflow_section(report: ReportData, prefix: str) -> str:
    """The timed region: its processes as boxes joined by their FIFOs (depth, peak occupancy), and the
    per-process and per-FIFO tables of the report."""
    flow = report.dataflow
    if flow.deadlock:
        head = f'<p class="bad">Deadlock at the declared FIFO depths: {html.escape(flow.deadlock)}</p>'
    else:
        head = (f"<p>Region latency {flow.latency} cycles, interval {flow.interval} cycles, from the timed "
                "simulation of the Python-mode trace with FIFO back-pressure (docs/dataflow.md).</p>")
    depth = {f.name: f for f in flow.fifos}
    nodes = [GraphNode(p.name, NodeKind.PROCESS, latency_min=p.latency, latency_max=p.latency) for p in flow.processes]
    edges = [GraphEdge(src, dst, "fifo", label=f"{name} [{depth[name].depth}]" if name in depth else name)
             for src, dst, name in flow.links]
    svg = design_graph(nodes, edges, lambda file, line: None, prefix + "fifo-arrow") if nodes else ""
    processes = [f"<tr><td>{html.escape(p.name)}</td>{_cells([p.latency, p.nominal, p.span()], 0)}<td>"
                 + html.escape(", ".join(f"{label} II={ii if ii is not None else '-'}" for label, ii in p.loops)
                               or "-") + "</td></tr>" for p in flow.processes]
    fifos = [f"<tr><td>{html.escape(f.name)}</td>{_cells([f.width, f.depth, f.peak], 0)}<td>{html.escape(f.impl)}"
             f"</td>{_cells([f.resources.bram18k, f.resources.ff, f.resources.lut], 0)}</tr>" for f in flow.fifos]
    return (head + f'<div class="chart">{svg}</div>'
            + _table(["Process", "Latency", "Interval", "Runs in the region (FIFO stalls included)", "Loops"],
                     processes)
            + _table(["FIFO", "Width", "Depth", "Peak", "Implementation", "BRAM_18K", "FF", "LUT"], fifos))


def resources_section(report: ReportData) -> str:
    def amounts(res: Resources) -> list[int]:
        return [res.bram18k, res.dsp, res.ff, res.lut]

    rows = [f"<tr>{_cells([r.module, r.op, r.type, '-' if r.count is None else r.count, *amounts(r.resources)], 3)}"
            "</tr>" for r in report.breakdown if r.resources != Resources()]
    rows.append(f'<tr class="total">{_cells(["Total", "", "", "", *amounts(report.resources)], 3)}</tr>')
    return _table(["Module", "Operator", "Type", "Count", "BRAM_18K", "DSP", "FF", "LUT"], rows)


def report_sections(report: ReportData, prefix: str) -> list[tuple[str, str]]:
    source = SourceListing(prefix)
    for loop in report.loops:
        source.add(loop.file, loop.line)
        for op in loop.ops:
            source.add(op.file, op.line)
    for node in report.nodes:
        source.add(node.file, node.line)
    for loop in report.loops:  # after the others: a limiter's line is highlighted whatever else names it
        source.add(loop.limiter_file, loop.limiter_line, "hit")
    return [("Summary", summary_section(report)), ("Loops", loops_section(report, source)),
            ("Schedule", schedule_section(report, source)), ("Call graph", graph_section(report, source, prefix)),
            *([("Dataflow", dataflow_section(report, prefix))] if report.dataflow is not None else []),
            ("Resources", resources_section(report)), ("Source", source.render())]


def _title(report: ReportData) -> str:
    return f"{report.top}: {'Vitis HLS report' if report.source == 'vitis' else 'hls schedule estimate'}"


def report_page(report: ReportData) -> str:
    return page(_title(report), report_sections(report, ""))


def report_fragment(report: ReportData, extra: list[tuple[str, str]] | None = None) -> str:
    prefix = f"hls{next(_FRAGMENTS)}-"
    return fragment(_title(report), (extra or []) + report_sections(report, prefix), prefix)


def kernel_fragment(report: ReportData, cpp: str) -> str:
    """A kernel in a notebook: its C++ (highlighted) above its report."""
    return report_fragment(report, [("C++", f'<pre class="code hl">{highlight(cpp, "cpp")}</pre>')])
