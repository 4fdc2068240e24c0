"""The loop-carried kernels of bench_golden.py: golden model compiled (numba) vs csim vs Python mode.

Each kernel runs 1,048,576 iterations whose values depend on the previous ones, so the numpy model
cannot take them; rows are measured side by side in one run on the same inputs, with a private
cache so the compiled golden model's first call really compiles (reported in rows of its own).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from benchlib import private_cache, row

import hls
from hls.sim.pch import wait_for_background

N = 1 << 20
H, W = 1024, 1024


@hls.kernel
def sum_squares(x: hls.int32[N]) -> hls.int64:
    s: hls.int64 = 0
    for i in range(N):
        s += x[i] * x[i] + 3
    return s


@hls.kernel
def iir(x: hls.float32[N], y: hls.float32[N]):
    p: hls.float32 = 0.0
    for i in range(N):
        p = 0.9 * p + x[i]  # 0.9 meets a float32: the C++'s 0.9f, in float32
        y[i] = p


@hls.kernel
def box3x3(img: hls.uint8[H, W], out: hls.uint16[H, W]):
    """A 3x3 box sum: two line buffers carry the rows above, a window the two pixels to the left."""
    above = hls.zeros((W,), hls.uint8)
    above2 = hls.zeros((W,), hls.uint8)
    for r in range(H):
        left: hls.uint16 = 0
        left2: hls.uint16 = 0
        for c in range(W):
            p = img[r, c]
            column: hls.uint16 = above2[c] + above[c] + p
            above2[c] = above[c]
            above[c] = p
            out[r, c] = left2 + left + column
            left2 = left
            left = column


def best_of(repeat: int, action: Any) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def in_mode(mode: str, kernel: Any, args: list[Any]) -> Any:
    import os

    saved = os.environ.get("HLS_GOLDEN")
    os.environ["HLS_GOLDEN"] = mode
    try:
        return kernel(*args)
    finally:
        if saved is None:
            os.environ.pop("HLS_GOLDEN", None)
        else:
            os.environ["HLS_GOLDEN"] = saved


def same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return type(a) is type(b) and a == b


def kernel_rows(label: str, kernel: Any, reps: int, python_model: bool) -> list[dict]:
    inputs = kernel.random_inputs(0)
    copies = lambda: [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]  # noqa: E731
    fast_args = copies()
    first = best_of(1, lambda: in_mode("compiled", kernel, fast_args))
    assert kernel.golden_model == "compiled" or in_mode("compiled", lambda: kernel.golden_model, []) == "compiled"
    fast_args = copies()
    fast_ret = in_mode("compiled", kernel, fast_args)
    # the same arrays on every call (each kernel writes all of its outputs), so no copy is timed
    compiled = best_of(reps, lambda: in_mode("compiled", kernel, fast_args))
    csim_args = copies()
    kernel.csim(*csim_args)  # build the library outside the timing
    csim = best_of(reps, lambda: kernel.csim(*csim_args))
    rows = [row(f"golden compiled vs csim: {label}", compiled, csim, "s",
                "k(...) with HLS_GOLDEN=compiled (numba, warm) vs k.csim(...) (library built), best of "
                f"{reps}; ratio = compiled / csim", target="<= 3"),
            row(f"golden compiled first call: {label}", first, compiled, "s",
                "the first k(...) in a fresh cache: numba compiles the kernel (then cached on disk next to the "
                "csim libraries) vs a warm call; ratio = first / warm")]
    if python_model:
        slow_args = copies()
        slow = best_of(1, lambda: (slow_ret.append(in_mode("python", kernel, slow_args))))
        assert same(fast_ret, slow_ret[0]) and all(same(a, b) for a, b in zip(fast_args, slow_args, strict=True))
        rows.append(row(f"golden compiled vs python: {label}", compiled, slow, "s",
                        "compiled vs the statement-by-statement Python model (HLS_GOLDEN=python), bit "
                        "for bit equal; ratio = compiled / python"))
    return rows


slow_ret: list[Any] = []


def loop_rows(quick: bool) -> list[dict]:
    reps = 3 if quick else 5
    rows: list[dict] = []
    with private_cache():
        for label, kernel in (("s += x[i]*x[i] + 3 into int64, 2^20 iterations", sum_squares),
                              ("float32 IIR p = 0.9*p + x[i], 2^20 iterations", iir),
                              ("3x3 box sum with line buffers, 1024x1024 uint8", box3x3)):
            slow_ret.clear()
            rows += kernel_rows(label, kernel, reps, python_model=not quick)
        wait_for_background()
    return rows
