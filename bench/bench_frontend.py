"""Frontend + codegen of a kernel (Python source -> typed IR -> passes -> C++ text and golden model)
against numba's eager compile (`njit` with a signature) of the same function written as plain Python.

Both are timed warm (each tool has compiled something once in this process) on a fresh function
object per repetition, so neither reuses a cached result; thread CPU time, as both run in-process.
numba comes from the `bench` extra.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from benchlib import example, example_module, row

from hls.kernel import Kernel

TAPS = example_module("fir").TAPS


def gemm(A, B, C):
    for i in range(64):
        for j in range(64):
            acc = np.float32(0)
            for k in range(64):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


def dot(a, b):
    acc = np.int32(0)
    for i in range(128):
        acc += a[i] * b[i]
    return acc


def conv2d(img, w, out):
    for r in range(16):
        for c in range(16):
            acc = np.int32(0)
            for i in range(3):
                for j in range(3):
                    acc += img[r + i, c + j] * w[i, j]
            out[r, c] = acc


def fir(x, y):
    shift = np.zeros(16, dtype=np.float32)
    for n in range(256):
        for k in range(15, 0, -1):
            shift[k] = shift[k - 1]
        shift[0] = x[n]
        acc = np.float32(0)
        for t in range(16):
            acc += shift[t] * TAPS[t]
        y[n] = acc


# (example name, plain-Python twin, numba signature)
CASES = [
    ("gemm", gemm, "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"),
    ("dot", dot, "int64(int16[::1], int16[::1])"),
    ("conv2d", conv2d, "void(int8[:, ::1], int8[:, ::1], int32[:, ::1])"),
    ("fir", fir, "void(float32[::1], float32[::1])"),
]


def hls_seconds(kernel) -> float:
    fresh = Kernel(kernel.__hls_kernel__)  # a new Kernel has no compiled state
    start = time.thread_time()
    fresh.compile()
    return time.thread_time() - start


def numba_seconds(func, signature: str) -> float:
    import numba

    start = time.thread_time()
    numba.njit(signature)(func)  # eager: compiles now, for a new dispatcher each time
    return time.thread_time() - start


def run(quick: bool = False) -> list[dict]:
    reps = 3 if quick else 5
    hls_seconds(example("vadd"))  # warm both tools (imports, first-use set-up)
    numba_seconds(dot, CASES[1][2])
    rows = []
    for name, twin, signature in CASES:
        kernel = example(name)
        ours = statistics.median(hls_seconds(kernel) for _ in range(reps))
        theirs = statistics.median(numba_seconds(twin, signature) for _ in range(reps))
        rows.append(row(f"frontend+codegen {name}", ours * 1e3, theirs * 1e3, "ms",
                        f"hls Kernel.compile() (IR, passes, C++, golden model) vs numba.njit eager compile of "
                        f"the same loops in plain Python; thread CPU, warm, median of {reps}", target="<= 0.05"))
    return rows
