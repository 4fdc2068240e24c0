"""Whole-array kernels (issue 22) in the golden model: the seed's batch-norm written as one array
statement (examples/batchnorm_array.py) and a 64x64 int16 `A @ B`, each against the same computation
written by hand in numpy, and against Python mode (HLS_GOLDEN=python) on the batch-norm.

The array statements are ordinary loop nests, so the numpy golden model (hls/golden/vplan.py) runs the
batch-norm's independent nest as whole-array operations and the matmul's i, j as arrays with k in
order; the rows check that both models agree with the hand-written numpy bit for bit.

    .venv/bin/python bench/bench_array_golden.py [--quick]
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

import hls

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "examples")]

from batchnorm_array import KERNEL as batchnorm_array  # noqa: E402
from bench_golden import best_of, numpy_reference, row, with_mode  # noqa: E402


@hls.kernel
def matmul64(A: hls.int16[64, 64], B: hls.int16[64, 64], C: hls.int64[64, 64]):
    C[:, :] = A @ B


def batchnorm_rows(quick: bool) -> list[dict[str, Any]]:
    x, scale, bias = batchnorm_array.random_inputs(0)
    first = batchnorm_array(x, scale, bias)  # compile and plan once, outside the timings
    fast = best_of(3 if quick else 10, with_mode("auto", batchnorm_array), x, scale, bias)
    ref_out = np.zeros(x.shape, np.int16)
    ref = best_of(3 if quick else 10, numpy_reference, x, scale, bias, ref_out)
    python_out = with_mode("python", batchnorm_array)(x, scale, bias)
    slow = best_of(1, with_mode("python", batchnorm_array), x, scale, bias)
    if not (np.array_equal(first, ref_out) and np.array_equal(first, python_out)):
        raise AssertionError("the models disagree on the whole-array batch-norm")
    return [
        row("array_batchnorm_vs_numpy_ref", fast, ref, "s", None,
            f"examples/batchnorm_array.py ({batchnorm_array.golden_model} golden model) vs a hand-written numpy "
            "batch-norm; ratio < 1 means slower than the hand-written code"),
        row("array_batchnorm_vs_python", fast, slow, "s", None,
            "the same: default golden model vs HLS_GOLDEN=python (bit-identical); ratio = speed-up"),
    ]


def matmul_row(quick: bool) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    A, B = (rng.integers(-2**15, 2**15, (64, 64)).astype(np.int16) for _ in range(2))
    out = np.zeros((64, 64), np.int64)
    matmul64(A, B, out)
    fast = best_of(2 if quick else 5, matmul64, A, B, out)
    ref = best_of(5, lambda a, b: a.astype(np.int64) @ b.astype(np.int64), A, B)
    if not np.array_equal(out, A.astype(np.int64) @ B.astype(np.int64)):
        raise AssertionError("the golden model disagrees with numpy on A @ B")
    return row("array_matmul64_vs_numpy_ref", fast, ref, "s", None,
               f"C[:, :] = A @ B, 64x64 int16 exact ({matmul64.golden_model} golden model) vs numpy's int64 "
               "matmul; ratio < 1 means slower")


def run(quick: bool = False) -> list[dict[str, Any]]:
    return [*batchnorm_rows(quick), matmul_row(quick)]


def main(argv: list[str]) -> int:
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:30s} {r['value']:.4g} {r['unit']} vs {r['baseline']:.4g} {r['unit']}  "
              f"ratio {r['ratio']:.3g}x  ({r['note']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
