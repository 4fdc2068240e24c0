"""examples/walkthrough.ipynb runs top to bottom in a real Jupyter kernel (nbclient + ipykernel), and its
rich outputs are the kernel's and the report's HTML."""

import re

import pytest

from tests.conftest import ROOT

NOTEBOOK = ROOT / "examples" / "walkthrough.ipynb"


def html_outputs(cell) -> list[str]:
    return [out["data"]["text/html"] for out in cell.get("outputs", []) if "text/html" in out.get("data", {})]


def test_walkthrough_notebook_runs(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat (the dev extra) is not installed")
    nbclient = pytest.importorskip("nbclient", reason="nbclient (the dev extra) is not installed")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "stored with outputs"
    # a failing cell raises CellExecutionError naming it; the working folder is tmp_path
    nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = {cell.source.strip(): html_outputs(cell) for cell in code}
    kernel_html = shown["dot"]
    assert len(kernel_html) == 1
    assert '<span class="cp">#pragma HLS pipeline II=1</span>' in kernel_html[0]  # highlighted C++
    assert 'class="schedule"' in kernel_html[0] and '<a class="limiter"' in kernel_html[0]
    report_html = next(html for source, html in shown.items() if source.startswith("report = dot.report()"))
    assert len(report_html) == 1 and report_html[0].startswith('<div class="hls-page">')
    texts = "".join(out.get("text", "") for cell in code for out in cell.outputs)
    assert re.search(r"^True$", texts, re.M)  # csim == golden model
    assert "loop-carried dependence on `acc` through fadd" in texts
    page = (tmp_path / "dot_report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'class="schedule"' in page

