"""Timed FIFO simulation and FIFO sizing speed (hls/schedule/fifo_timing.py), against a baseline run
in the same process: the cycle-by-cycle reference simulation of tests/fifo_reference.py.

The design: 10 processes in a chain with bypass FIFOs, 10 FIFOs of depth 2, each process with its
own II, lead-in and bursts (tests/fifo_reference.random_design, seed 1); 5000 items per FIFO, so
10^5 FIFO events (10^4 with quick=True). `ratio` is how many times better than the baseline (faster
or more events per second).

    .venv/bin/python bench/bench_fifo.py [--quick]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hls.schedule import fifo_engine  # noqa: E402
from hls.schedule.fifo_timing import FifoRegion, size_fifos  # noqa: E402
from tests.fifo_reference import random_design, reference  # noqa: E402


def _best_of(repeats: int, action) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def run(quick: bool = False) -> list[dict]:
    items = 500 if quick else 5000
    processes, fifos = random_design(1, processes=10, fifos=10, items=items)
    events = sum(len(p.fifo) for p in processes)
    region = FifoRegion(processes, fifos)
    depth = region.depth_vector(None)
    first = _best_of(1, lambda: region.timing(depth, python=False))  # loads numba's compiled loop if installed
    compiled = fifo_engine._kernel()[1]
    engine = _best_of(3, lambda: region.timing(depth, python=False))
    plain = _best_of(1, lambda: region.timing(depth, python=True))
    ref = _best_of(1, lambda: reference(processes, fifos))
    sizing = _best_of(1, lambda: size_fifos(processes, fifos))
    loop = "numba-compiled" if compiled else "plain Python (numba not installed)"
    base_rate = events / ref
    return [
        {"name": "fifo re-timing, 10 processes 10 FIFOs", "value": events / engine, "baseline": base_rate,
         "ratio": ref / engine, "unit": "events/s", "target": ">= 1e6 events/s",
         "note": f"{events} events, {loop} loop, best of 3; first call {first:.2f} s (loads numba); "
                 "baseline: cycle-by-cycle reference simulation"},
        {"name": "fifo re-timing, plain Python loop", "value": events / plain, "baseline": base_rate,
         "ratio": ref / plain, "unit": "events/s", "target": None,
         "note": "the same worklist uncompiled: what runs without the fast extra"},
        {"name": "fifo sizing search, 10 FIFOs", "value": sizing, "baseline": ref, "ratio": ref / sizing,
         "unit": "s", "target": "< 1 s",
         "note": f"size_fifos over {events} events (unbounded run, binary searches, greedy pass); "
                 "baseline: ONE cycle-by-cycle reference simulation of the same design"},
    ]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        target = f" (target {row['target']})" if row["target"] else ""
        print(f"{row['name']}: {row['value']:.4g} {row['unit']} vs baseline {row['baseline']:.4g} "
              f"-> x{row['ratio']:.1f}{target}; {row['note']}")
