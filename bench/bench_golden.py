"""The golden model (Python mode) on the project's reference workload: a batch-norm on 1x3x224x224
int9 activations with int8 scale and bias (a benchmark, not a test).

Rows, each against a baseline measured in the same run on the same inputs:
  golden_numpy_vs_python   the numpy golden model against today's element-by-element model (HLS_GOLDEN=python)
  golden_numpy_vs_numpy_ref  the numpy golden model against a hand-written numpy batch-norm
  golden_gemm64_numpy_vs_python  the same comparison on examples/gemm.py (a reduction inside parallel loops)
  verify_golden_share      in a verify() with a cold csim build, the golden model's share of the wall time
  golden compiled vs csim / first call / vs python   loop-carried kernels (golden_loops.py): the compiled
                           golden model (numba) against csim's run time, its first call, and Python mode

    .venv/bin/python bench/bench_golden.py [--quick]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any

import numpy as np

import hls

SHAPE = (1, 3, 224, 224)


@hls.kernel
def batchnorm224(x: hls.int9[1, 3, 224, 224], scale: hls.int8[3], bias: hls.int8[3], y: hls.int9[1, 3, 224, 224]):
    for c in range(3):
        for h in range(224):
            for w in range(224):
                hls.pipeline(ii=1)
                t = hls.int8(x[0, c, h, w])
                m = hls.int8(t * scale[c])
                s = hls.int8(m + bias[c])
                y[0, c, h, w] = s


def wrap8(v: np.ndarray) -> np.ndarray:
    return (v + 128) % 256 - 128


def numpy_reference(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, y: np.ndarray) -> None:
    """The same batch-norm written by hand in numpy (int16 holds every intermediate)."""
    t = wrap8(x.astype(np.int16))
    m = wrap8(t * scale.astype(np.int16)[None, :, None, None])
    y[...] = wrap8(m + bias.astype(np.int16)[None, :, None, None])


def best_of(repeat: int, func: Any, *args: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def with_mode(mode: str, func: Any) -> Any:
    def run(*args: Any) -> Any:
        saved = os.environ.get("HLS_GOLDEN")
        os.environ["HLS_GOLDEN"] = mode
        try:
            return func(*args)
        finally:
            if saved is None:
                del os.environ["HLS_GOLDEN"]
            else:
                os.environ["HLS_GOLDEN"] = saved
    return run


def row(name: str, value: float, baseline: float, unit: str, target: str | None, note: str) -> dict[str, Any]:
    return {"name": name, "value": value, "baseline": baseline, "ratio": baseline / value if value else 0.0,
            "unit": unit, "target": target, "note": note}


def golden_rows(quick: bool) -> list[dict[str, Any]]:
    x, scale, bias, y = batchnorm224.random_inputs(0)
    batchnorm224(x, scale, bias, y.copy())  # compile and plan once, outside the timings
    assert batchnorm224.golden_model == "numpy", batchnorm224.vector_plan.reason
    fast_out, slow_out, ref_out = y.copy(), y.copy(), y.copy()
    fast = best_of(3 if quick else 10, with_mode("auto", batchnorm224), x, scale, bias, fast_out)
    slow = best_of(1, with_mode("python", batchnorm224), x, scale, bias, slow_out)
    ref = best_of(3 if quick else 10, numpy_reference, x, scale, bias, ref_out)
    if not (np.array_equal(fast_out, slow_out) and np.array_equal(fast_out, ref_out)):
        raise AssertionError("the models disagree")
    return [
        row("golden_numpy_vs_python", fast, slow, "s", ">= 20x",
            "batch-norm 1x3x224x224 int9: numpy golden model vs element-by-element (HLS_GOLDEN=python); "
            "ratio = speed-up"),
        row("golden_numpy_vs_numpy_ref", fast, ref, "s", None,
            "same batch-norm: numpy golden model vs a hand-written numpy reference; ratio < 1 means slower "
            "than the hand-written code"),
    ]


def verify_row() -> dict[str, Any]:
    """verify() with a cold csim build: how much of it is the golden model."""
    with tempfile.TemporaryDirectory() as cache:
        saved = os.environ.get("HLS_CACHE_DIR")
        os.environ["HLS_CACHE_DIR"] = cache
        try:
            kernel = hls.kernel(batchnorm224.__hls_kernel__)  # a fresh object: nothing compiled yet
            inputs = kernel.random_inputs(1)
            start = time.perf_counter()
            kernel.verify(*inputs)
            total = time.perf_counter() - start
            golden = best_of(3, kernel, *[a.copy() for a in inputs])
        finally:
            if saved is None:
                del os.environ["HLS_CACHE_DIR"]
            else:
                os.environ["HLS_CACHE_DIR"] = saved
    return row("verify_golden_share", golden, total, "s", None,
               "batch-norm 224: golden model time vs the whole verify() with a cold csim build (frontend, "
               "golden, g++, csim, compare); ratio = verify / golden")


def gemm_row() -> dict[str, Any]:
    """examples/gemm.py (64x64x64 float32): the k loop carries the sum, i and j run as whole arrays."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
    from gemm import KERNEL as gemm

    inputs = gemm.random_inputs(0)
    fast_out = [a.copy() for a in inputs]
    slow_out = [a.copy() for a in inputs]
    gemm(*[a.copy() for a in inputs])
    fast = best_of(3, with_mode("auto", gemm), *fast_out)
    slow = best_of(1, with_mode("python", gemm), *slow_out)
    if not all(a.tobytes() == b.tobytes() for a, b in zip(fast_out, slow_out, strict=True)):
        raise AssertionError("the models disagree on gemm")
    return row("golden_gemm64_numpy_vs_python", fast, slow, "s", None,
               "examples/gemm.py 64x64x64 float32: numpy golden model (i, j as arrays, k in order) vs "
               "element-by-element; ratio = speed-up")


def run(quick: bool = False) -> list[dict[str, Any]]:
    from golden_loops import loop_rows

    rows = golden_rows(quick)
    if not quick:
        rows += [gemm_row(), verify_row()]
    return rows + loop_rows(quick)


def main(argv: list[str]) -> int:
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:28s} {r['value']:.4g} {r['unit']} vs {r['baseline']:.4g} {r['unit']}  "
              f"ratio {r['ratio']:.1f}x  target {r['target'] or '-'}  ({r['note']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
