"""Which -O level should csim use? Build time plus run time of every example at -O0/-O1/-O2.

A one-off study behind the choice of `-O` in hls.sim.toolchain.CSIM_CXXFLAGS (run it again when the
compiler or the generated code changes): `python bench/csim_opt_levels.py [reps]`. Each level gets
its precompiled header first (not timed), then each example is built cold (a fresh cache key; build
= compiler CPU time) and run on its random inputs (median of 20 calls). Outputs are compared between
levels: csim must give the same results whatever the level.
"""

from __future__ import annotations

import dataclasses
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ("-O0", "-O1", "-O2")


def load_examples() -> dict:
    sys.path.insert(0, str(ROOT))
    from tests.conftest import EXAMPLES, load_example

    return {p.stem: load_example(p).KERNEL for p in EXAMPLES}


def cold_build(kernel, level: str, n: int):
    """A CompiledKernel built from a never-seen source (a comment changes the key, not the PCH)."""
    from hls.sim.csim import CompiledKernel

    design = kernel.compile().design
    fresh = dataclasses.replace(design, kernel_cpp=design.kernel_cpp + f"// study {time.time_ns()} {n}\n")
    start = child_cpu()
    compiled = CompiledKernel(fresh, (level,))
    return compiled, child_cpu() - start


def child_cpu() -> float:
    """User+system CPU seconds of finished child processes (g++): steadier than wall time on a shared box."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_time(compiled, args, reps: int) -> tuple[float, list]:
    """Median seconds of one call, and the outputs of the first call."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    ret = compiled.run(copies)
    times = []
    for _ in range(reps):
        work = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        start = time.perf_counter()
        compiled.run(work)
        times.append(time.perf_counter() - start)
    return statistics.median(times), [*copies, ret]


def main(reps: int = 3) -> None:
    os.environ.setdefault("HLS_CACHE_DIR", tempfile.mkdtemp(prefix="hls-olevel-"))
    kernels = load_examples()
    outputs: dict[str, list] = {}
    print(f"{'example':<14}" + "".join(f"{lv + ' build':>11}{lv + ' run':>11}" for lv in LEVELS))
    totals = {lv: [0.0, 0.0] for lv in LEVELS}
    for lv in LEVELS:  # warm the per-level PCH and the frontend (not timed)
        cold_build(kernels["vadd"], lv, -1)
    for name, kernel in kernels.items():
        args = kernel.random_inputs(0)
        row = f"{name:<14}"
        for lv in LEVELS:
            builds = [cold_build(kernel, lv, i) for i in range(reps)]
            build = statistics.median(t for _, t in builds)
            run, out = run_time(builds[0][0], args, 20)
            outputs.setdefault(name, out)
            for a, b in zip(outputs[name], out, strict=True):
                assert np.array_equal(np.asarray(a), np.asarray(b)), f"{name}: {lv} changed the csim result"
            totals[lv][0] += build
            totals[lv][1] += run
            row += f"{build * 1e3:>9.0f}ms{run * 1e3:>9.3f}ms"
        print(row)
    print(f"{'total':<14}" + "".join(f"{b * 1e3:>9.0f}ms{r * 1e3:>9.3f}ms" for b, r in totals.values()))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
