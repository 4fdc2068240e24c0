"""Python meaning == C++ meaning, on inputs chosen to hit the traps in PITFALLS.md."""

import numpy as np
import pytest

import hls
from tests.kernels import semantics_kernels as sk

RNG = np.random.default_rng(7)


def ints(dtype, low=None, high=None, n=64):
    info = np.iinfo(dtype)
    return RNG.integers(info.min if low is None else low, (info.max if high is None else high), size=n,
                        endpoint=True).astype(dtype)


def test_type_calls_wrap():
    assert hls.int8(300) == 44
    assert hls.int9(300) == -212  # 9-bit two's complement (DESIGN.md's "== 44" is the int8 value)
    assert hls.uint8(-1) == 255
    assert hls.int8(-2.75) == -2  # truncation toward zero, as C++
    assert hls.int8(np.array([127, 128, 300])).tolist() == [127, -128, 44]


def test_floor_division_and_modulo_with_negative_divisors():
    a = ints(np.int16)
    b = ints(np.int8)
    b[b == 0] = -3
    a[:4] = [-7, 7, -7, -32768]
    b[:4] = [2, -2, -2, -1]
    q = np.zeros(64, dtype=np.int32)
    r = np.zeros(64, dtype=np.int32)
    sk.floor_ops.verify(a, b, q, r)
    sk.floor_ops(a, b, q, r)
    assert q[:4].tolist() == [-4, -4, 3, 32768] and r[:3].tolist() == [1, -1, -1]


def test_mixed_signedness_compares_values():
    a = np.array([-1] * 32 + list(ints(np.int32, n=32)), dtype=np.int32)
    b = np.array([1] * 32 + list(ints(np.uint32, n=32)), dtype=np.uint32)
    lt = np.zeros(64, dtype=np.bool_)
    sk.mixed_compare.verify(a, b, lt)
    sk.mixed_compare(a, b, lt)
    assert lt[0]  # -1 < 1, where C++ would compare as unsigned


def test_uint64_plus_int64_stays_integer():
    a = ints(np.int64)
    b = RNG.integers(0, 2**63, size=64, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
    sk.wide_arith.verify(a, b, np.zeros(64, np.int64), np.zeros(64, np.uint32))


def test_shifts():
    a = ints(np.int16)
    n = RNG.integers(0, 15, size=64, endpoint=True).astype(np.uint8)
    sk.shifts.verify(a, n, np.zeros(64, np.int32), np.zeros(64, np.int16))


def test_negate_abs_invert_extremes():
    a = ints(np.int8)
    a[0] = -128
    u = ints(np.uint8)
    x, y, z = (np.zeros(64, np.int16) for _ in range(3))
    sk.neg_abs_invert.verify(a, u, x, y, z)
    sk.neg_abs_invert(a, u, x, y, z)
    assert x[0] == 128 and y[0] == 128 and z[0] == 255 - int(u[0])  # ~ of a uint8 keeps 8 bits (ap_uint's ~)


def test_integer_true_division_is_float64():
    sk.true_div.verify(ints(np.int32), ints(np.int32), np.zeros(64, np.float64), rtol=0, atol=0)


def test_float32_literals_stay_float32_bit_exact():
    x = RNG.uniform(-10, 10, 64).astype(np.float32)
    sk.float32_literals.verify(x, np.zeros(64, np.float32), rtol=0, atol=0)
    assert "0.1f" in sk.float32_literals.cpp.replace("1.0e-1f", "0.1f")


def test_float_to_int_truncates_then_wraps():
    x = RNG.uniform(-1, 1, 64).astype(np.float32)
    sk.float_to_int.verify(x, np.zeros(64, np.int8))


def test_declared_local_wraps_on_update():
    a = np.array([100] * 64, dtype=np.int8)
    out = np.zeros(64, np.int8)
    sk.declared_local_wraps.verify(a, out)
    sk.declared_local_wraps(a, out)
    assert out[0] == -56


def test_overflow_reported_once_per_line_and_strict_mode():
    import re
    import warnings
    from pathlib import Path

    a = np.full(8, 100, dtype=np.int16)
    out = np.zeros(8, np.int8)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sk.overflowing.verify(a, out)
    lines = Path(sk.__file__).read_text().splitlines()
    store_line = next(i for i, t in enumerate(lines, 1) if "out[i] = a[i] * 2" in t)
    acc_line = next(i for i, t in enumerate(lines, 1) if "total += a[i]" in t)
    sites = sorted(int(re.search(r":(\d+)$", s).group(1)) for s in result["overflows"])
    assert sites == [store_line, acc_line]  # the explicit hls.uint8(...) wrap is not reported
    assert len([w for w in caught if issubclass(w.category, hls.OverflowWarning)]) == 2
    assert "does not fit int8" in str(caught[0].message)
    with pytest.raises(hls.OverflowReport):
        sk.overflowing.verify(a, out, strict_overflow=True)
    small = np.ones(8, dtype=np.int16)
    assert sk.overflowing.verify(small, out, strict_overflow=True)["overflows"] == {}
