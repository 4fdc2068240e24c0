"""csim's fault checks (hls/backend/cpp/faults.py) against the same generated C++ with every check
compiled to its plain value, as synthesis sees it: one loop with a float-to-int conversion, two
variable shifts, a division, a variable bit index and a variable rotate per iteration, each checked.
Timed inside `k.csim` (one call runs the whole loop in C), medians of interleaved runs."""

from __future__ import annotations

import dataclasses
import re
import time

import numpy as np
from benchlib import median_of, row

import hls
from hls.sim.csim import CompiledKernel

N = 65536


@hls.kernel
def checked_ops(xs: hls.float32[N], ns: hls.int8[N], out: hls.int32[N]):
    for i in range(N):
        v = hls.int32(xs[i] * 3.0)
        n = ns[i]
        out[i] = ((v << n) ^ (v >> n)) + v // (n + 100) + hls.int32(v[n]) + hls.rotl(hls.uint32(v), n)


def unchecked(cpp: str) -> str:
    """The kernel C++ with each csim check macro defined as its value (the `__SYNTHESIS__` branch)."""
    pattern = r"#define (HLS_\w+)\((\w+)((?:, \w+)*), site\) hls_\w+\(.*\)\n"
    plain = re.sub(pattern, lambda m: f"#define {m.group(1)}({m.group(2)}{m.group(3)}, site) ({m.group(2)})\n", cpp)
    assert plain != cpp
    return plain


def run(quick: bool = False) -> list[dict]:
    design = checked_ops.compile().design
    plain = dataclasses.replace(design, kernel_cpp=unchecked(design.kernel_cpp))
    libraries = [CompiledKernel(design), CompiledKernel(plain)]
    rng = np.random.default_rng(0)
    xs = rng.uniform(-1e6, 1e6, N).astype(np.float32)
    ns = rng.integers(0, 32, N).astype(np.int8)
    outs = [np.zeros(N, np.int32) for _ in libraries]

    def once(k: int) -> float:
        start = time.perf_counter()
        libraries[k].run((xs, ns, outs[k]))
        return time.perf_counter() - start

    reps = 5 if quick else 21
    times = [0.0, 0.0]
    for _ in range(3):  # interleaved, so both see the same machine load
        for k in (0, 1):
            times[k] += median_of(reps, lambda k=k: once(k)) / 3
    assert (outs[0] == outs[1]).all()
    return [row("csim with fault checks, 6 checks per iteration", times[0] / N * 1e9, times[1] / N * 1e9,
                "ns/iteration", f"{N} iterations per call; baseline: the same C++ with the checks compiled out",
                target="ratio <= 1.1")]
