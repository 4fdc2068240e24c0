"""The casts C++ needs (hls/backend/cpp/casts.py): an accumulation and a counter are written as the
Python says (`acc += a[i] * b[i]`, `local[b] += 1`) and stay bit-exact where they wrap."""

from __future__ import annotations

import warnings

import numpy as np

import hls


@hls.kernel
def dot_wraps(a: hls.int16[8], b: hls.int16[8]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(8):
        acc += a[i] * b[i]
    acc -= a[0] * 3
    return acc


@hls.kernel
def counts(x: hls.uint8[32], start: hls.uint32, out: hls.uint32[4]):
    local = hls.zeros((4,), hls.uint32)
    for j in range(4):
        local[j] = start
    for i in range(32):
        bin = x[i] & 3
        local[bin] += 1
    for j in range(4):
        out[j] = local[j]


def test_accumulator_is_an_ap_int_local_without_casts_and_wraps_as_python():
    body = dot_wraps.cpp.split("dot_wraps(", 1)[1]
    assert "ap_int<32> acc = 0;" in body
    assert "acc += a[i] * b[i];" in body and "acc -= a[0] * 3;" in body
    a = np.full(8, -32768, dtype=np.int16)  # 8 * 2**30 wraps int32 (to 0), then - (-32768 * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = dot_wraps(a, a)
    assert expected == dot_wraps.csim(a, a) == 98304


def test_unsigned_counter_is_a_compound_assignment_and_wraps():
    body = counts.cpp.split("counts(", 1)[1]
    assert "local[bin] += 1;" in body and "int64_t" not in body
    x = np.arange(32, dtype=np.uint8)
    out, out_csim = np.zeros(4, np.uint32), np.zeros(4, np.uint32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counts(x, 2**32 - 3, out)
    counts.csim(x, 2**32 - 3, out_csim)
    assert out.tolist() == out_csim.tolist() == [5, 5, 5, 5]


@hls.kernel
def signed_counts(x: hls.uint8[32], d: hls.int32[32], start: hls.int32, big: hls.int64, hist: hls.int32[4],
                  wide: hls.int64[4]):
    for j in range(4):
        hist[j] = start
        wide[j] = big
    for i in range(32):
        bin = x[i] & 3
        hist[bin] += 1
        hist[bin] -= d[i]
        wide[bin] += 1


def test_signed_counter_wraps_through_unsigned_arithmetic_without_casts():
    """A signed int32_t element `+= 1` would overflow (undefined); `+= 1u` wraps as Python's int32."""
    body = signed_counts.cpp.split("signed_counts(", 1)[1]
    assert "hist[bin] += 1u;" in body and "wide[bin] += 1ull;" in body
    assert "hist[bin] -= (uint32_t)d[i];" in body and "int64_t)" not in body
    x = np.arange(32, dtype=np.uint8)
    d = np.full(32, -(2**31), dtype=np.int32)
    outs = []
    for run in (signed_counts, signed_counts.csim):
        hist, wide = np.zeros(4, np.int32), np.zeros(4, np.int64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run(x, d, 2**31 - 3, 2**63 - 3, hist, wide)
        outs.append((hist.tolist(), wide.tolist()))
    assert outs[0] == outs[1]
    # eight +1 past INT32_MAX, eight - (-2**31) (an even count: back where they were); int64 past its max
    assert outs[0] == ([2**31 - 3 + 8 - 2**32] * 4, [2**63 - 3 + 8 - 2**64] * 4)


BIG = 9223372036854775813  # above int64, inside uint64


@hls.kernel
def beyond_int64(a: hls.ap_int[17][5]):
    a[1] = a[0] >= BIG
    a[2] = a[0] < 18446744073709551615
    a[3] = a[0] > -9223372036854775809
    a[4] = a[0] != BIG


def test_a_signed_literal_above_int64_keeps_its_sign_in_cpp():
    """A literal typed int65 was spelled `...ULL`, and ap_int<17> >= an unsigned long long compares as
    unsigned (fuzz seed 2316000082: -65536 >= 2**63 + 5 was true in csim); golden == csim == Python."""
    for first in (-65536, -1, 0, 65535):
        golden, native = np.array([first, 0, 0, 0, 0], np.int32), np.array([first, 0, 0, 0, 0], np.int32)
        beyond_int64(golden)
        beyond_int64.csim(native)
        assert golden.tolist() == native.tolist() == [first, first >= BIG, first < 2**64 - 1, first > -2**63 - 1,
                                                      first != BIG]
    assert "ULL" not in beyond_int64.cpp
