"""Shared test set-up: one csim cache for the whole run (compile once per kernel), kept between runs."""

import importlib.util
import os
from pathlib import Path

import pytest

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
