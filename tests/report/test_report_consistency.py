"""The report agrees with itself (issue 21, item 2): one latency per module on the page and in the text,
loops named with their function, schedule charts readable next to a long operator, true notes."""

from __future__ import annotations

import re

import pytest

import hls


@hls.kernel
def producer(a: hls.int32[64], out: hls.stream[hls.int32]):
    for i in range(64):
        hls.pipeline(ii=1)
        out.write(a[i] * 3)


@hls.kernel
def worker(inp: hls.stream[hls.int32], b: hls.int32[64]):
    for i in range(64):
        hls.pipeline(ii=2)
        b[i] = inp.read() + 1


@hls.kernel
def region(a: hls.int32[64], b: hls.int32[64]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=2)
    producer(a, s)
    worker(s, b)


@hls.kernel
def huge_unroll(a: hls.int32[4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(1048576):
        hls.unroll()
        acc += i
    return acc


def node_latencies_on_page(text: str) -> dict[str, str]:
    """{name: the cycles written in its box} of every design-graph box of an HTML page."""
    boxes = re.findall(r'<g class="node node-(\w+)" data-name="(\w+)">.*?<text class="detail"[^>]*>([^<]*)</text>',
                       text)
    return {f"{kind}:{name}": detail for kind, name, detail in boxes}


@pytest.mark.parametrize("example", ["region", "stream_pipeline", "fork_join"])
def test_one_latency_per_module_everywhere(example, examples):
    k = region if example == "region" else examples[example].KERNEL
    report = k.report()
    flow = report.dataflow
    assert flow is not None and flow.latency is not None
    nodes = {n.name: n for n in report.nodes}
    # the top: the region's latency in the summary, the call graph and the dataflow section
    assert report.latency_max == nodes[report.top].latency_max == flow.latency
    sequential = sum(nodes[p.name].latency_max for p in flow.processes)
    assert flow.latency < sequential  # the processes overlap; the box does not show their sum
    for p in flow.processes:
        assert p.latency == nodes[p.name].latency_max  # one number per process
        assert p.start is not None and p.end is not None and p.end - p.start >= p.latency - 1
    text = str(report)
    for p in flow.processes:
        row = next(line for line in text.splitlines() if line.strip().startswith(p.name + " ") and "|" in line)
        assert row.split("|")[1].strip() == str(p.latency), row
    page = report.to_html()
    boxes = node_latencies_on_page(page)
    assert boxes[f"function:{report.top}"] == f"{flow.latency:,} cycles"
    for p in flow.processes:
        assert boxes[f"function:{p.name}"] == boxes[f"process:{p.name}"] == f"{p.latency:,} cycles"
    cycles = {int(c.replace(",", "")) for c in re.findall(r"([\d,]+) cycles", page)}
    assert sequential not in cycles or sequential in (flow.latency, *(p.latency for p in flow.processes))


def test_loops_of_processes_are_named_with_their_function(examples):
    report = examples["stream_pipeline"].KERNEL.report()
    names = [report.loop_name(loop) for loop in report.loops]
    assert names == ["load/loop_i", "scale/loop_i", "store/loop_i"]
    text = str(report)
    for name in names:
        assert f"- {name} " in text
    assert "  - load/loop_i: m_axi burst read of `a`" in text  # notes name the loop the same way
    page = report.to_html()
    for name in names:
        assert f">{name}</span>" in page
    assert report.to_dict()["loops"][0]["label"] == "loop_i"  # the data keeps Vitis's label


def test_loops_of_the_top_keep_their_bare_label(examples):
    report = examples["gemm"].KERNEL.report()
    assert [report.loop_name(loop) for loop in report.loops] == [loop.label for loop in report.loops]


def test_a_long_operator_is_drawn_as_a_cut_bar_with_its_length(examples):
    report = examples["conv2d"].KERNEL.report()
    loop = next(loop for loop in report.loops if loop.ops)
    longest = max(loop.ops, key=lambda op: op.latency)
    assert longest.latency >= 60 and len(loop.ops) > 20
    page = report.to_html()
    chart = page[page.index('<svg class="schedule"'):]
    chart = chart[:chart.index("</svg>")]
    assert 'class="axis-break"' in chart
    assert f">{longest.latency} cycles</text>" in chart  # its length written on the bar
    widths = {(int(s), int(lat)): float(w) for w, s, lat in
              re.findall(r'width="([\d.]+)" height="14" rx="2" data-start="(\d+)" data-latency="(\d+)"', chart)}
    one_cycle = [w for (_, lat), w in widths.items() if lat == 1]
    assert one_cycle and min(one_cycle) >= 12  # short operators keep a readable scale
    assert widths[(longest.start, longest.latency)] < longest.latency * min(one_cycle)


def test_a_chart_without_long_idle_stretches_is_not_cut(examples):
    report = examples["dot"].KERNEL.report()
    assert 'class="axis-break"' not in report.to_html()


def test_the_note_of_an_unroll_left_to_vitis_gives_the_true_reason():
    notes = [note for loop in huge_unroll.report().loops for note in loop.notes]
    assert any("1,048,576 copies" in note and "200,000" in note for note in notes), notes
    assert not any("bounds not constant" in note for note in notes)
