"""The schedule report: what `k.report()` returns and `hls.load_report()` reads from Vitis.

`Report` is the data of hls/report/data.py (fields, `to_dict()`, the csynth-like `str()`,
`compare()`) plus its HTML views: `to_html()` and `_repr_html_` render the report page of
hls/report/html.py. The row classes are re-exported here for the modules that build reports.
"""

from __future__ import annotations

import os

from hls.report.data import (
    BreakdownRow,
    GraphEdge,
    GraphNode,
    LoopReport,
    ReportData,
    Resources,
    ScheduledOp,
    table,
    write_text,
)
from hls.report.html import report_fragment, report_page

__all__ = ["BreakdownRow", "GraphEdge", "GraphNode", "LoopReport", "Report", "Resources", "ScheduledOp", "table",
           "write_text"]


class Report(ReportData):
    """A schedule estimate or a Vitis report, with its HTML page."""

    def to_html(self, path: str | os.PathLike[str] | None = None) -> str:
        """The report page: one self-contained HTML file (summary, loops with their limiters linked to
        the source, schedule chart, call graph, resources); written to `path` when one is given."""
        text = report_page(self)
        if path is not None:
            write_text(path, text)
        return text

    def _repr_html_(self) -> str:
        return report_fragment(self)
