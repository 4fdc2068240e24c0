"""Minimized kernels from the differential fuzzer (tests/fuzz), one per bug it found.

Each kernel is the shrunk reproducer of one failure; tests/test_fuzz_regressions.py runs them on
inputs that trigger the bug. The comment above each says what went wrong and where it was fixed.
"""

import numpy as np

import hls

WIDE_CONST = np.int64(2**62)
NP_TRUE = np.bool_(True)
SAT_SYM = hls.ap_fixed[3, 3, "AP_TRN", "AP_SAT_SYM"]  # (string modes in an annotation read as names to ruff)
TINY_SAT = hls.ap_fixed[10, -2, "AP_TRN", "AP_SAT"]


# Golden model: a comparison of numpy scalars gave np.bool_, and np.True_ + np.True_ is True (an
# `or`), not 2; -np.True_ raised. Fixed in hls/frontend/golden.py (comparisons yield Python bools).
@hls.kernel
def float_compare_sum(x: hls.float32[4], y: hls.float32[4], out: hls.int32[4]):
    for i in range(4):
        out[i] = (x[i] < y[i]) + (x[i] < 2.0)


@hls.kernel
def float_compare_negate(x: hls.float64[4], out: hls.int8[4]):
    for i in range(4):
        out[i] = -(x[i] <= 0.5)


# Golden model: a captured np.int64 constant kept numpy's 64-bit scalar arithmetic (K * 4 wrapped to
# 0, K % x overflowed for wide x) while the C++ computes exactly; np.bool_ constants added like `or`.
# Fixed in hls/frontend/golden.py (captured numpy scalars become Python numbers).
@hls.kernel
def captured_numpy_scalars(a: hls.uint64[2], out: hls.int64[3]):
    out[0] = (WIDE_CONST * 4) >> 62
    out[1] = NP_TRUE + NP_TRUE
    out[2] = hls.int64((a[0] * a[1]) % WIDE_CONST)


# Random inputs: the most negative code of a signed AP_SAT_SYM type cannot be produced by any
# assignment (it saturates to -max), so csim rejected the inputs verify() drew itself. Fixed in
# hls/sim/verify.py (random_value).
@hls.kernel
def sat_sym_argument(a: SAT_SYM[8], out: hls.int8[8]):
    for i in range(8):
        out[i] = hls.int8(a[i])


# Frontend: `b ** 1` on a bool kept the bool type (Python gives the int 1), so `~(b ** 1)` was
# rejected as "~ on a bool". Fixed in hls/frontend/lower.py (power).
@hls.kernel
def bool_power(a: hls.bool_[4], out: hls.int8[4]):
    for i in range(4):
        out[i] = ~(a[i] ** 1)


# Backend: the csim boundary check (ints up to 64 bits, fixed point up to 53) ran when emitting the
# C++, so Python mode of a caller failed on a sub-kernel with wide parameters that never cross the
# boundary. Fixed in hls/backend/render.py (checked by csim and export instead).
@hls.kernel
def wide_parameters(a: hls.ap_int[100], w: hls.ap_int[100][2], f: hls.ap_fixed[80, 40], b: hls.int8[4]):
    for i in range(4):
        b[i] = hls.int8((a >> (20 * i)) + w[i % 2] + hls.int8(f))


@hls.kernel
def wide_caller(x: hls.int64, b: hls.int8[4]):
    w = hls.zeros((2,), hls.ap_int[100])
    w[1] = hls.ap_int[100](x) << 40
    wide_parameters(hls.ap_int[100](x) * x, w, hls.ap_fixed[80, 40](x), b)


# Backend: `ap_int<100> w[2] = {};` does not zero: value-initialization runs the ap types' default
# constructor, which leaves the value undefined, so csim read stack garbage where Python mode read
# hls.zeros' zeros (wide_caller above showed it). Fixed in hls/backend/emit.py (AllocOp zeroes
# ap_int/ap_fixed arrays with a loop).
@hls.kernel
def scribble(x: hls.int64[32], out: hls.int64[3]):
    hls.inline(off=True)
    junk = hls.zeros((32,), hls.int64)
    for i in range(32):
        junk[i] = x[i] * 7 + 1
    acc = hls.int64(0)
    for i in range(32):
        acc ^= junk[31 - i]
    out[0] = acc


@hls.kernel
def unwritten_ap_arrays(out: hls.int64[3]):
    hls.inline(off=True)
    a = hls.zeros((2, 3), hls.ap_int[100])
    f = hls.zeros((4,), hls.ap_fixed[16, 6])
    u = hls.zeros(5, hls.uint13)
    acc = hls.ap_int[100](0)
    for i in range(2):
        for j in range(3):
            acc |= a[i, j]
    out[0] = hls.int64(acc)
    out[1] = hls.int64(f[0] + f[1] + f[2] + f[3])
    out[2] = u[0] | u[4]


@hls.kernel
def zeros_after_scribble(x: hls.int64[32], out: hls.int64[3]):
    scribble(x, out)
    unwritten_ap_arrays(out)


# Backend: fixed -> int went through the header's to_ap_int_base(), which is wrong for I <= 0 (I < 0
# leaves the result unset: 0.0625 gave -1; I == 0 overflows its 1-bit result: -0.25 gave -1), where
# truncation toward zero always gives 0. Fixed in hls/backend/expr.py (cast_expr).
@hls.kernel
def tiny_fixed_to_int(a: TINY_SAT, b: hls.ap_fixed[10, 0][4], c: hls.ap_ufixed[8, -1][4], out: hls.uint13[9]):
    out[0] = hls.uint13(a)
    for i in range(4):
        out[1 + i] = hls.uint13(b[i])
        out[5 + i] = hls.int8(c[i])
