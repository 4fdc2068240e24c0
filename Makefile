# Two set-up commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint fuzz bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/hls demo examples

# The wall time of each run goes to build/test_time.json for `make bench` (never re-run there).
test: $(STAMP)
	@mkdir -p build
	@start=$$(date +%s); $(PY) -m pytest -q -x tests; rc=$$?; \
	printf '{"seconds": %s, "exit": %s, "cores": %s, "date": "%s"}\n' "$$(( $$(date +%s) - start ))" "$$rc" \
	  "$$(nproc)" "$$(date -u +%Y-%m-%dT%H:%M:%SZ)" > build/test_time.json; exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check hls tests examples bench

N ?= 200
SEED ?= 1
fuzz: $(STAMP)
	$(PY) -m tests.fuzz.campaign --count $(N) --seed $(SEED)

# Every bench/bench_*.py; the table is printed and bench/results.json rewritten. QUICK=1 for a fast pass.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) bench/run.py $(if $(QUICK),--quick)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
