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

test: $(STAMP)
	$(PY) -m pytest -q -x tests

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
