"""The report page in a real headless Chromium: Debian's `chromium` (the Makefile's `chromium` step
installs it when missing and run as root), driven by Playwright with that binary; Playwright's own
browser download is never used. One browser for every page. The pages and their screenshots are left
in tests/output/ to look at."""

import shutil

import pytest

from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OUTPUT = ROOT / "tests" / "output"
# Playwright adds --headless and a fresh temporary --user-data-dir itself
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed and could not be (`make test` installs it when run as "
                    "root: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the dev extra) is not installed")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def open_report(browser, report, name):
    """Write the page to tests/output/NAME.html and load it, recording console errors, page errors and
    any request other than the file itself."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / f"{name}.html"
    report.to_html(path)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = []
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
            if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("requestfailed", lambda req: problems.append(f"failed request: {req.url}"))
    page.on("request", lambda req: None if req.url in (path.as_uri(), "data:,") else
            problems.append(f"request: {req.url}"))
    page.goto(path.as_uri())
    return page, problems


def screenshot(page, name):
    """A full-page PNG in tests/output/, checked to be a picture and not one colour (blank page)."""
    from PIL import Image

    path = OUTPUT / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20)
        size = rgb.width * rgb.height
    assert colours is not None and len(colours) > 50, f"{path}: {len(colours or [])} colours"
    background = max(colours)[0]
    assert background < 0.97 * size, f"{path}: {background / size:.1%} of the pixels are one colour"


def in_view(page, selector):
    return page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                         " return r.top >= 0 && r.bottom <= window.innerHeight; }", selector)


BARS = ("[...document.querySelectorAll('svg.schedule rect.op')].map(r => { const b = r.getBoundingClientRect();"
        " return {start: +r.dataset.start, latency: +r.dataset.latency, x: b.x, w: b.width, right: b.right,"
        " broken: r.classList.contains('broken'),"
        " text: r.nextElementSibling && r.nextElementSibling.tagName === 'text' ? r.nextElementSibling.textContent"
        " : null, textBox: r.nextElementSibling && r.nextElementSibling.tagName === 'text' ? (() => {"
        " const t = r.nextElementSibling.getBoundingClientRect(); return [t.left, t.right]; })() : null}; })")
CUTS = ("[...document.querySelectorAll('svg.schedule g.axis-break')].map(g => ({from: +g.dataset.from,"
        " to: +g.dataset.to}))")


def test_gemm_page_in_chromium(browser, examples):
    report = examples["gemm"].KERNEL.report()
    loop = report.loops[-1]
    page, problems = open_report(browser, report, "gemm_report")
    bars = page.evaluate(BARS)
    assert len(bars) == len(loop.ops) == 4  # one bar per scheduled operator of loop_k
    assert sorted((b["start"], b["latency"]) for b in bars) == sorted((op.start, op.latency) for op in loop.ops)
    # drawn to scale where no cut is: widths proportional to latencies, left edges to start cycles
    whole = [b for b in bars if not b["broken"]]
    cycle = whole[-1]["w"] / whole[-1]["latency"]
    origin = min(b["x"] for b in bars if b["start"] == 0)
    cut = sum(b["to"] - b["from"] for b in page.evaluate(CUTS))
    for bar in whole:
        assert bar["w"] == pytest.approx(bar["latency"] * cycle, abs=0.5)
        assert bar["x"] >= origin + (bar["start"] - cut) * cycle - 0.5
    ii_x = page.evaluate("document.querySelector('svg.schedule line.ii').getBoundingClientRect().x")
    assert ii_x == pytest.approx(origin + loop.ii * cycle, abs=1.5)  # the II boundary at cycle II
    assert page.locator("svg.schedule a text").count() == 4  # every row links to its source line
    screenshot(page, "gemm_report")
    # following the limiter's link reaches its source line, highlighted, scrolled into view
    limiter = page.locator("table a.limiter")
    assert limiter.inner_text() == "gemm.py:13"
    target = "#" + limiter.get_attribute("href")[1:]
    assert not in_view(page, target)
    limiter.click()
    assert page.evaluate("location.hash") == target
    line = page.locator(":target")
    assert "hit" in line.get_attribute("class")
    assert line.inner_text().split(None, 1) == ["13", "acc += A[i, k] * B[k, j]"]
    assert in_view(page, target)
    assert problems == []
    page.close()


def test_subkernel_page_in_chromium(browser, examples):
    report = examples["subkernel"].KERNEL.report(pipeline_loops=0)  # nothing pipelined: no schedule chart
    page, problems = open_report(browser, report, "subkernel_report")
    names = page.evaluate("[...document.querySelectorAll('svg.graph g.node')].map(g => g.dataset.name)")
    assert sorted(names) == ["dense_relu", "mac", "relu"]  # one box per function
    edges = page.evaluate("[...document.querySelectorAll('svg.graph g.edge')].map(g => {"
                          " const l = g.querySelector('line').getBoundingClientRect();"
                          " const box = n => document.querySelector(`g.node[data-name=${n}] rect`)"
                          ".getBoundingClientRect();"
                          " return [g.dataset.src, g.dataset.dst, l.top >= box(g.dataset.src).bottom - 1,"
                          " l.bottom <= box(g.dataset.dst).top + 1]; })")
    assert sorted(edges) == [["dense_relu", "mac", True, True], ["dense_relu", "relu", True, True]]
    assert page.locator("svg.schedule").count() == 0  # no pipelined loop here
    screenshot(page, "subkernel_report")
    page.click("g.node[data-name=relu] a")
    assert "def relu(" in page.locator(":target").inner_text()
    assert problems == []
    page.close()


def test_exploration_page_in_chromium(browser):
    """The Pareto front of a 16-point matrix-multiply exploration is drawn in the same page shell."""
    import concurrent.futures

    import hls
    from tests.kernels.explore_kernels import matmul

    space = {"ii": [1, 2], "unroll": [1, 2, 4, 8], "partition": [1, 4]}
    result = hls.explore(matmul, space, executor=concurrent.futures.ThreadPoolExecutor(2))
    page, problems = open_report(browser, result, "explore_matmul")
    points = page.evaluate("[...document.querySelectorAll('svg circle.point')].map(c => {"
                           " const b = c.getBoundingClientRect();"
                           " return {front: c.classList.contains('front'), w: b.width}; })")
    errors = [(row.index, row.error) for row in result.rows if not row.ok or row.lut is None]
    assert len(points) == 16 and all(p["w"] > 0 for p in points), errors  # every point is drawn, visibly
    assert sum(p["front"] for p in points) == len(result.pareto) >= 1
    assert page.evaluate("document.querySelectorAll('tr.front').length") == len(result.pareto)
    screenshot(page, "explore_matmul")
    page.close()
    assert not problems, problems


def test_dataflow_page_in_chromium(browser, examples):
    """A dataflow example's page: its processes as boxes joined by their FIFOs, and the FIFO table."""
    kernel = examples["stream_pipeline"].KERNEL
    report = kernel.report()
    flow = report.dataflow
    assert flow is not None and flow.links
    page, problems = open_report(browser, report, "stream_pipeline_report")
    boxes = page.evaluate("[...document.querySelectorAll('#dataflow svg g.node-process')].map(g => g.dataset.name)")
    assert sorted(boxes) == sorted(p.name for p in flow.processes)
    arrows = page.evaluate("document.querySelectorAll('#dataflow svg g.edge-fifo').length")
    assert arrows == len(flow.links) == len(flow.fifos)
    rows = page.evaluate("[...document.querySelectorAll('#dataflow table')].map(t => t.rows.length - 1)")
    assert rows == [len(flow.processes), len(flow.fifos)]
    screenshot(page, "stream_pipeline_report")
    page.close()
    assert not problems, problems


def test_a_long_operator_keeps_the_chart_readable_in_chromium(browser, examples):
    """conv2d's loop: 27 operators next to one 64-cycle m_axi read. The idle stretch is cut, so a
    one-cycle operator is at least 12 px wide, and the long bar says how long it is, inside itself."""
    report = examples["conv2d"].KERNEL.report()
    page, problems = open_report(browser, report, "conv2d_report")
    bars = page.evaluate(BARS)
    loop = next(loop for loop in report.loops if loop.ops)
    assert len(bars) == len(loop.ops)
    broken = [b for b in bars if b["broken"]]
    assert broken and all(b["text"] == f"{b['latency']} cycles" for b in broken)
    for bar in broken:  # the length is written on the bar itself
        assert bar["x"] <= bar["textBox"][0] and bar["textBox"][1] <= bar["right"] + 0.5
    short = [b["w"] for b in bars if b["latency"] == 1]
    assert short and min(short) >= 12
    chart = page.evaluate("document.querySelector('svg.schedule').getBoundingClientRect().width")
    assert chart <= 1280  # fits the window without scrolling sideways
    assert page.evaluate(CUTS)
    screenshot(page, "conv2d_report")
    page.close()
    assert not problems, problems


def test_dataflow_latencies_agree_in_chromium(browser, examples):
    """Each process shows one latency: its box in the call graph, its box and its row in the dataflow
    section; the top's box shows the region's latency, as the summary does."""
    report = examples["fork_join"].centered.report()
    page, problems = open_report(browser, report, "fork_join_report")
    boxes = page.evaluate("[...document.querySelectorAll('svg.graph g.node')].map(g => [g.closest('section')"
                          " ? g.closest('section').id : '', g.dataset.name, g.querySelector('text.detail')"
                          ".textContent])")
    shown: dict[str, set[str]] = {}
    for _, name, detail in boxes:
        shown.setdefault(name, set()).add(detail)
    assert shown[report.top] == {f"{report.latency_max:,} cycles"}
    for process in report.dataflow.processes:
        assert shown[process.name] == {f"{process.latency:,} cycles"}, (process.name, shown[process.name])
    rows = page.evaluate("[...document.querySelectorAll('#dataflow table')][0].rows.length - 1")
    assert rows == len(report.dataflow.processes)
    screenshot(page, "fork_join_report")
    page.close()
    assert not problems, problems
