"""The report page as data and text: per-op schedule, limiter location and call graph in the Report,
a self-contained page whose every in-page link lands, escaping, notebook reprs, `hls report --html`.
The same pages in a real browser: tests/report/test_report_browser.py."""

import json
import re
import sys
from html.parser import HTMLParser

import pytest

import hls
from hls.cli.main import main
from hls.report.html import page
from hls.schedule import Report
from hls.schedule.memory import MAXI_LATENCY
from tests.conftest import ROOT


@hls.kernel
def twice(x: hls.int16, y: hls.int16) -> hls.int32:
    return x * y


@hls.kernel
def caller(a: hls.int16[8], out: hls.int32[8]):
    for i in range(8):
        out[i] = twice(a[i], a[i]) + twice(a[i], 3)


class Anchors(HTMLParser):
    """Every id and every in-page href of a document, and the tags seen."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        values = dict(attrs)
        if "id" in values:
            self.ids.add(values["id"])
        if "href" in values:
            self.hrefs.append(values["href"])


def anchors(text: str) -> Anchors:
    parser = Anchors()
    parser.feed(text)
    return parser


@pytest.fixture(scope="module")
def gemm_report(examples):
    return examples["gemm"].KERNEL.report()


def test_pipelined_loop_carries_its_schedule(gemm_report):
    loop = gemm_report.loops[-1]
    assert loop.label == "loop_k" and loop.ii == 6
    by_name = {op.name: op for op in loop.ops if op.array is None}
    reads = {op.array: op for op in loop.ops if op.name == "m_axi_read"}
    assert set(reads) == {"A", "B"} and set(by_name) == {"fmul", "fadd"}
    fmul, fadd = by_name["fmul"], by_name["fadd"]
    # dependences hold in the carried start cycles: both reads -> fmul -> fadd
    assert all(fmul.start >= read.start + read.latency for read in reads.values())
    assert fadd.start >= fmul.start + fmul.latency
    assert max(op.start + op.latency for op in loop.ops) <= loop.depth
    assert fadd.text == "acc += A[i, k] * B[k, j]" and fadd.line == 13
    assert loop.limiter_file.endswith("gemm.py") and loop.limiter_line == 13


def test_report_dict_round_trips_new_data(gemm_report, examples):
    data = json.loads(json.dumps(gemm_report.to_dict()))
    assert data["loops"][-1]["ops"][0]["name"] == "m_axi_read" and data["loops"][-1]["limiter_line"] == 13
    again = Report.from_dict(data)
    assert again.loops[-1].ops == gemm_report.loops[-1].ops
    assert again.breakdown == gemm_report.breakdown
    sub = examples["subkernel"].KERNEL.report()
    assert Report.from_dict(sub.to_dict()).edges == sub.edges


def test_call_graph_of_sub_kernels(examples):
    report = examples["subkernel"].KERNEL.report()
    assert [node.name for node in report.nodes] == ["dense_relu", "mac", "relu"]
    assert {(e.src, e.dst) for e in report.edges} == {("dense_relu", "mac"), ("dense_relu", "relu")}
    latency = {node.name: node.latency_max for node in report.nodes}
    assert latency["dense_relu"] == report.latency_max and latency["mac"] is None  # mac has no loop: inlined
    # relu's loop (innermost) is pipelined automatically: the loop, its outlined instance's cycle and the
    # m_axi write burst's latency (docs/oplib.md "Loop rules"; sequential it would be the loop + 2)
    relu_loop = next(loop for loop in report.loops if loop.function == "relu")
    assert relu_loop.pipelined == "auto" and latency["relu"] == relu_loop.latency_max + 1 + MAXI_LATENCY
    calls = caller.report()
    assert [(e.src, e.dst, e.count) for e in calls.edges] == [("caller", "twice", 2)]


def test_page_is_self_contained_and_every_link_lands(gemm_report):
    text = gemm_report.to_html()
    found = anchors(text)
    assert "script" not in found.tags and "img" not in found.tags and "iframe" not in found.tags
    assert not re.search(r"(src|href)=\"(?!#|data:)", text) and "@import" not in text
    assert re.findall(r"url\((?!#)", text) == []
    assert found.hrefs and all(h == "data:," or h[1:] in found.ids for h in found.hrefs)
    limiter = re.search(r'<a class="limiter" href="#([^"]+)">gemm.py:13</a>', text)
    assert limiter and re.search(rf'<div class="ln hit" id="{limiter.group(1)}"><span class="lineno">13</span>', text)
    assert text.count('<rect class="op ') == len(gemm_report.loops[-1].ops)


def test_text_is_escaped(examples):
    text = re.sub(r"<[^>]*>", "", examples["subkernel"].KERNEL.report().to_html())  # the text, highlighted or not
    assert "out[i] = v[i] if v[i] &gt; 0 else 0" in text and "v[i] > 0" not in text
    assert "<h1>x &lt;b&gt;</h1>" in page("x <b>", [("a&b", "<p>ok</p>")])
    assert '<a href="#a-b">a&amp;b</a>' in page("x", [("a&b", "<p>ok</p>")])


def test_to_html_writes_the_file_asked_for(gemm_report, tmp_path):
    path = tmp_path / "gemm.html"
    assert gemm_report.to_html(path) == path.read_text(encoding="utf-8")
    with pytest.raises(hls.HLSError, match="directory"):
        gemm_report.to_html(tmp_path)


def test_notebook_reprs(gemm_report, examples, monkeypatch):
    first, second = gemm_report._repr_html_(), gemm_report._repr_html_()
    assert first.startswith('<div class="hls-page"><style>') and "<svg" in first and "<html" not in first
    assert anchors(first).ids.isdisjoint(anchors(second).ids)  # two outputs in one notebook
    kernel = examples["gemm"].KERNEL
    shown = kernel._repr_html_()
    assert '<span class="cp">#pragma HLS pipeline II=1</span>' in shown and 'class="schedule"' in shown
    monkeypatch.setitem(sys.modules, "pygments", None)  # without the optional highlighter: plain text
    plain = kernel._repr_html_()
    assert "#pragma HLS pipeline II=1" in plain and '<span class="cp">' not in plain


def test_cli_report_html(tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["report", "--html", str(out), str(ROOT / "examples" / "gemm.py") + ":gemm"]) == 0
    assert "report page written" in capsys.readouterr().out
    assert 'class="schedule"' in out.read_text(encoding="utf-8")
    assert main(["report", "--html", str(tmp_path), str(ROOT / "examples" / "gemm.py") + ":gemm"]) == 2
    assert "directory" in capsys.readouterr().err


@hls.kernel
def wide(a: hls.int32[8, 512], out: hls.int32[8]):
    for i in range(8):
        hls.pipeline(ii=1)
        s = hls.int32(0)
        for j in range(512):
            s += a[i, j] * 3
        out[i] = s


def test_chart_keeps_the_earliest_operators_of_a_large_body():
    loop = wide.report().loops[0]
    assert loop.ops_total >= 3 * 512 and len(loop.ops) == 200  # 512 reads, products, sums
    assert [op.start for op in loop.ops] == sorted(op.start for op in loop.ops)
    assert f"the first 200 of {loop.ops_total} operators" in wide.report().to_html()


def test_vitis_report_page():
    """A report read from Vitis's csynth.xml has no per-op schedule or call graph: the page says so."""
    from hls.schedule import load_report

    report = load_report(ROOT / "tests" / "fixtures" / "csynth" / "gemm_tcl")
    assert any(loop.ii is not None for loop in report.loops)
    text = report.to_html()
    assert "Vitis HLS report" in text and "no per-operator schedule" in text
    assert "No call graph in this report" in text and '<tr class="total">' in text


def test_kernel_repr_shows_a_compile_error():
    from tests.kernels.bad_kernels import while_never_exits as while_loop

    shown = while_loop._repr_html_()
    assert shown.startswith("<pre>") and "while" in shown and "bad_kernels.py" in shown
