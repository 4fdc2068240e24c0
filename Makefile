# Two set-up commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint fuzz bench clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/hls demo examples

# The wall time of each run goes to build/test_time.json for `make bench` (never re-run there).
# Tests run on every core (pytest-xdist): most of the time is g++ building csim libraries.
test: $(STAMP) chromium
	@mkdir -p build
	@start=$$(date +%s); $(PY) -m pytest -q -x -n auto tests; rc=$$?; \
	printf '{"seconds": %s, "exit": %s, "cores": %s, "date": "%s"}\n' "$$(( $$(date +%s) - start ))" "$$rc" \
	  "$$(nproc)" "$$(date -u +%Y-%m-%dT%H:%M:%SZ)" > build/test_time.json; exit $$rc

# tests/report/test_report_browser.py drives Debian's chromium: installed here when missing and run as root;
# otherwise (or if apt fails) those tests skip and say why.
chromium:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -q && \
		apt-get install -y -q --no-install-recommends chromium; } || \
		echo "chromium is missing and could not be installed (apt-get needs root): the browser tests will skip"

lint: $(STAMP)
	$(VENV)/bin/ruff check hls tests examples bench

N ?= 200
SEED ?= 1
MODE ?= both
BRANCHES ?= join,literal,accumulate,unsigned,mixed,boundary
# MODE=oracle (or both): no-overflow kernels checked against plain CPython too (tests/fuzz/oracle.py)
fuzz: $(STAMP)
	$(PY) -m tests.fuzz.campaign --count $(N) --seed $(SEED) --mode $(MODE) --branches $(BRANCHES)

# Every bench/bench_*.py; the table is printed and bench/results.json rewritten. QUICK=1 for a fast pass.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) bench/run.py $(if $(QUICK),--quick)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
