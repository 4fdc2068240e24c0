"""The bit-exactness rows of PITFALLS.md not covered elsewhere, one test each (row numbers in names).

Covered in other files: rows 1-2 (tests/top/test_examples.py conv2d/batchnorm), 4-7, 9-10, 13-15
(tests/golden/test_semantics.py, tests/golden/test_properties.py), 11-12 (tests/golden/test_fixed_exhaustive.py), 16
(tests/kernels/bad_kernels.py bool_invert), 17 (test_semantics float32 literals), 19 (softmax example,
math functions in tests/frontend/test_frontend.py), 20 (tests/frontend/test_frontend.py long reduction, bit-exact).
"""

import numpy as np

from tests.kernels import semantics_kernels as sk


def test_row3_nep50_scalars_never_decide():
    a = np.array([100, 127, -128, 0], dtype=np.int8)
    out = np.zeros(4, np.int16)
    g = np.zeros(4, np.float32)
    f = np.array([0.1, 1e30, -2.5, 3.0], dtype=np.float32)
    sk.nep50.verify(a, f, out, g, rtol=0, atol=0)
    sk.nep50(a, f, out, g)
    assert out.tolist() == [300, 327, 72, 200]  # numpy would raise OverflowError on int8(100) + 200
    assert g.dtype == np.float32 and g[0] == np.float32(np.float32(0.1) + np.float32(3.0))
    assert "3.0f" in sk.nep50.cpp


def test_row8_shift_counts_up_to_and_beyond_the_width():
    rng = np.random.default_rng(5)
    a = rng.integers(-32768, 32767, 32).astype(np.int16)
    a[:2] = [-5, 1]
    n = np.arange(32, dtype=np.uint8) % 32  # counts 0..31 on 16-bit values
    r = np.zeros(32, np.int16)
    left = np.zeros(32, np.int16)
    sk.wide_shift_counts.verify(a, n, r, left)
    sk.wide_shift_counts(a, n, r, left)
    assert r[0] == -5 and left[1] == 2
    assert r[20] == (-1 if a[20] < 0 else 0) and left[20] == 0  # shifted out completely, no UB


def test_row18_no_fma_contraction():
    one = 1 + 2.0**-12
    a = np.full(4, one, np.float32)
    x = np.full(4, one, np.float32)
    y = np.full(4, -(1 + 2.0**-11), np.float32)  # a*x rounds to 1 + 2**-11; a fused multiply-add gives 2**-24
    out = np.ones(4, np.float32)
    sk.fused.verify(a, x, y, out, rtol=0, atol=0)
    sk.fused.csim(a, x, y, out)
    assert np.all(out == 0)
