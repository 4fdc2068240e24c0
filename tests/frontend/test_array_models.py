"""Whole-array kernels of the shapes public projects write (tests/kernels/array_model_kernels.py):
golden == csim == a numpy reference written here (exact object ints; float32 in the kernel's operation
order, sums and contractions accumulated in index order from 0 as the generated loop does), and the
statement-by-statement golden model (HLS_GOLDEN=python) bit-identical to the default and to the numpy
one. exp and tanh come from the C library in both models; numpy's own kernels may differ in the last
bits, so the reference is compared within 1e-5 there and exactly everywhere else."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.array_reference import exact, seq_matmul, seq_sum, wrap
from tests.kernels import array_model_kernels as K

F32 = np.float32
RNG = np.random.default_rng(2212)


def floats(*shape: int, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return RNG.uniform(lo, hi, shape).astype(F32)


def ints(*shape: int, lo: int = -128, hi: int = 128, dtype: Any = np.int8) -> np.ndarray:
    return RNG.integers(lo, hi, shape).astype(dtype)


def ref_layernorm(x, gamma, beta):
    mean = seq_sum(x, 1, True) / F32(16)
    d = x - mean
    var = seq_sum(d * d, 1, True) / F32(16)
    return d / np.sqrt(var + F32(1e-5)) * gamma[None, :] + beta


def ref_attention(Q, K_, V):
    s = seq_matmul(Q, K_.T) * F32(0.25)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return seq_matmul(e / seq_sum(e, 1, True), V)


def ref_conv1x1(x, w, b):
    y = exact(w) @ exact(x).reshape(3, 16)
    return y.reshape(1, 8, 4, 4) + exact(b)[None, :, None, None]


def ref_gelu(x):
    c, k = F32(0.7978845608), F32(0.044715)
    return F32(0.5) * x * (F32(1) + np.tanh(c * (x + k * x * x * x)))


def ref_dense(X, W, b):
    h = exact(X) @ exact(W).T + exact(b)[None, :]
    return np.maximum(h, 0) + exact(X)


def ref_mlp2(x, W1, b1, W2, b2):
    h = np.maximum(wrap((exact(W1) @ exact(x) + exact(b1)) >> 7, 8), 0)
    return exact(W2) @ exact(h) + exact(b2)


def ref_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / seq_sum(e, 1, True)


def ref_variance(x):
    xi = exact(x)
    s, ss = xi.sum(axis=1), (xi * xi).sum(axis=1)
    return (32 * ss - s * s) // 1024


CASES = [  # (kernel, inputs, reference, exact: bitwise or within 1e-5 (a libm function inside))
    ("layernorm", lambda: (floats(4, 16, lo=-3, hi=5), floats(16), floats(16)), ref_layernorm, True),
    ("layernorm_mean", lambda: (floats(4, 16, lo=-3, hi=5), floats(16), floats(16)), ref_layernorm, True),
    ("attention", lambda: (floats(8, 16), floats(8, 16), floats(8, 16)), ref_attention, False),
    ("conv1x1", lambda: (ints(1, 3, 4, 4), ints(8, 3), ints(8, lo=-3000, hi=3000, dtype=np.int16)), ref_conv1x1,
     True),
    ("gelu", lambda: (floats(2, 32, lo=-4, hi=4),), ref_gelu, False),
    ("dense_relu_residual", lambda: (ints(4, 16), ints(16, 16), ints(16, lo=-3000, hi=3000, dtype=np.int16)),
     ref_dense, True),
    ("mlp2", lambda: (ints(16), ints(8, 16), ints(8, lo=-3000, hi=3000, dtype=np.int16), ints(4, 8),
                      ints(4, lo=-3000, hi=3000, dtype=np.int16)), ref_mlp2, True),
    ("row_softmax", lambda: (floats(4, 10, lo=-6, hi=6),), ref_softmax, False),
    ("int_variance", lambda: (ints(8, 32, lo=-2**15, hi=2**15, dtype=np.int16),), ref_variance, True),
]


def bits(x: Any) -> np.ndarray:
    """The array's bits (float32 compared bit for bit, -0.0 and NaN included)."""
    x = np.asarray(x)
    return x.view(np.uint32) if x.dtype == np.float32 else x


@pytest.mark.parametrize(("name", "make", "ref", "is_exact"), CASES, ids=[c[0] for c in CASES])
def test_model_kernel_matches_numpy_and_both_golden_models(name, make, ref, is_exact, monkeypatch):
    kernel = getattr(K, name)
    args = make()
    golden = np.asarray(kernel(*args))
    np.testing.assert_array_equal(bits(golden), bits(kernel.csim(*args)))
    expect = ref(*args)
    if is_exact:
        np.testing.assert_array_equal(golden, np.asarray(expect).astype(golden.dtype))
    else:
        np.testing.assert_allclose(golden, expect, rtol=1e-5, atol=1e-6)
    for mode in ("python", "numpy"):
        monkeypatch.setenv("HLS_GOLDEN", mode)
        np.testing.assert_array_equal(bits(kernel(*args)), bits(golden), err_msg=f"HLS_GOLDEN={mode}")
    monkeypatch.delenv("HLS_GOLDEN")


def test_model_kernels_name_their_loops_after_the_locals():
    cpp = K.attention.cpp
    for label in ("s_i: for", "s_k: for", "e_i: for", "p_j: for", "result_k: for"):
        assert label in cpp, label
    assert [loop.label for loop in K.int_variance.report(pipeline_loops=0).loops][:2] == ["s_i", "s_j"]
