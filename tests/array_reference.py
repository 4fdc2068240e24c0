"""numpy references with the kernels' exact semantics, for the array tests: integers as object arrays
of Python ints (no numpy overflow; Python's // % >> rules), a wrap only where a declared type makes
one, float32 sums in the generated loop's order (from 0, in index order; numpy's own sum is pairwise)."""

from __future__ import annotations

from typing import Any

import numpy as np


def exact(x: Any) -> np.ndarray:
    """An int array as an object array of Python ints."""
    return np.asarray(x).astype(object)


def wrap(x: Any, bits: int, signed: bool = True) -> np.ndarray:
    """Exact integers stored into a `bits`-wide integer (two's complement when signed), as int64."""
    x = np.asarray(x, dtype=object)
    low = -(1 << (bits - 1)) if signed else 0
    return ((x - low) % (1 << bits) + low).astype(np.int64)


def seq_sum(x: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """A float sum over `axis` in index order from 0, in x's precision."""
    moved = np.moveaxis(x, axis, 0)
    total = np.zeros(moved.shape[1:], x.dtype)
    for row in moved:
        total = total + row
    return np.expand_dims(total, axis) if keepdims else total


def seq_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b of matrices in a's precision, each element accumulated over k in order from 0."""
    out = np.zeros((a.shape[0], b.shape[1]), a.dtype)
    for k in range(a.shape[1]):
        out = out + a[:, k:k + 1] * b[k:k + 1, :]
    return out
