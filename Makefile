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

test: $(STAMP) chromium
	$(PY) -m pytest -q -x tests

# tests/test_report_browser.py drives Debian's chromium: installed here when missing and run as root;
# otherwise (or if apt fails) those tests skip and say why.
chromium:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -q && \
		apt-get install -y -q --no-install-recommends chromium; } || \
		echo "chromium is missing and could not be installed (apt-get needs root): the browser tests will skip"

lint: $(STAMP)
	$(VENV)/bin/ruff check hls tests examples bench

N ?= 200
SEED ?= 1
fuzz: $(STAMP)
	$(PY) -m tests.fuzz.campaign --count $(N) --seed $(SEED)

bench: $(STAMP)
	$(PY) bench/schedule_scaling.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
