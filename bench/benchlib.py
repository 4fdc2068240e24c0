"""Helpers shared by the bench_*.py modules: timing, row construction, a private csim cache.

Rows are what `bench/run.py` collects: value and baseline are measured in the same run, ratio =
value / baseline. On a shared machine wall time drifts with other load, so compiler benches time
the CPU seconds of the compiler processes (and say so in the unit).
"""

from __future__ import annotations

import contextlib
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def row(name: str, value: float, baseline: float, unit: str, note: str, target: str | None = None) -> dict:
    return {"name": name, "value": float(value), "baseline": float(baseline), "ratio": float(value / baseline),
            "unit": unit, "target": target, "note": note}


def child_cpu() -> float:
    """User+system CPU seconds of the finished child processes (the compiler runs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_of(reps: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(reps))


def cpu_and_wall(action: Callable[[], Any]) -> tuple[float, float]:
    """(CPU seconds the children of `action` used, wall seconds of `action`)."""
    cpu, wall = child_cpu(), time.perf_counter()
    action()
    return child_cpu() - cpu, time.perf_counter() - wall


def medians(reps: int, measure: Callable[[], tuple[float, ...]]) -> tuple[float, ...]:
    """Element-wise medians of `reps` measurements."""
    samples = [measure() for _ in range(reps)]
    return tuple(statistics.median(column) for column in zip(*samples, strict=True))


def thread_cpu_of(action: Callable[[], Any]) -> float:
    """CPU seconds of this thread during `action` (in-process native calls)."""
    start = time.thread_time()
    action()
    return time.thread_time() - start


def wall_of(action: Callable[[], Any]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


@contextlib.contextmanager
def private_cache() -> Iterator[Path]:
    """A fresh HLS_CACHE_DIR for the duration (cold builds must not hit the user's cache)."""
    old = os.environ.get("HLS_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="hls-bench-") as tmp:
        os.environ["HLS_CACHE_DIR"] = tmp
        try:
            yield Path(tmp)
        finally:
            if old is None:
                os.environ.pop("HLS_CACHE_DIR", None)
            else:
                os.environ["HLS_CACHE_DIR"] = old


def example_module(name: str) -> Any:
    """The module examples/<name>.py."""
    from tests.conftest import load_example

    return load_example(ROOT / "examples" / f"{name}.py")


def example(name: str) -> Any:
    """The KERNEL of examples/<name>.py."""
    return example_module(name).KERNEL
