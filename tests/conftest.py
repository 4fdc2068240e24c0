"""Shared test set-up: one csim cache for the whole run (compile once per kernel), kept between runs."""

import importlib.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from hls.sim.pch import wait_for_background

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("HLS_CACHE_DIR", str(ROOT / ".hls_cache"))
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py") if not p.name.startswith("_"))


def load_example(path: Path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def examples():
    return {p.stem: load_example(p) for p in EXAMPLES}


@pytest.fixture
def compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., int]:
    """Point HLS_CXX at a g++ wrapper that logs each invocation; returns a counter of real compiles.

    `count()` counts library builds, `count("c++-header")` precompiled-header builds.
    """
    gxx = shutil.which("g++")
    assert gxx is not None
    log = tmp_path / "cxx.log"
    wrapper = tmp_path / "cxx-wrapper.sh"
    wrapper.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{log}'\nexec '{gxx}' \"$@\"\n")
    wrapper.chmod(0o755)
    monkeypatch.setenv("HLS_CXX", str(wrapper))

    def count(what: str = "-shared") -> int:
        wait_for_background()  # the precompiled header builds beside the first library
        # --version / -dumpmachine queries for the toolchain identity are not compiles.
        lines = log.read_text().splitlines() if log.exists() else []
        return sum(f" {what} " in f" {line} " for line in lines)

    return count


@pytest.fixture(autouse=True)
def _pch_builds_end_with_the_test():
    """A precompiled header building in the background finishes inside the test that started it."""
    yield
    wait_for_background()
