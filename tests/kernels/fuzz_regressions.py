"""Minimized kernels from the differential fuzzer (tests/fuzz), one per bug it found.

Each kernel is the shrunk reproducer of one failure; tests/top/test_fuzz_regressions.py runs them on
inputs that trigger the bug. The comment above each says what went wrong and where it was fixed.
"""

import numpy as np

import hls

WIDE_CONST = np.int64(2**62)
NP_TRUE = np.bool_(True)
SAT_SYM = hls.ap_fixed[3, 3, "AP_TRN", "AP_SAT_SYM"]  # (string modes in an annotation read as names to ruff)
TINY_SAT = hls.ap_fixed[10, -2, "AP_TRN", "AP_SAT"]


# Golden model: a comparison of numpy scalars gave np.bool_, and np.True_ + np.True_ is True (an
# `or`), not 2; -np.True_ raised. Fixed in hls/golden/rewrite.py (comparisons yield Python bools).
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
# Fixed in hls/golden/rewrite.py (captured numpy scalars become Python numbers).
@hls.kernel
def captured_numpy_scalars(a: hls.uint64[2], out: hls.int64[3]):
    out[0] = (WIDE_CONST * 4) >> 62
    out[1] = NP_TRUE + NP_TRUE
    out[2] = hls.int64((a[0] * a[1]) % WIDE_CONST)


# Random inputs: the most negative code of a signed AP_SAT_SYM type cannot be produced by any
# assignment (it saturates to -max), so csim rejected the inputs verify() drew itself. Fixed in
# hls/backend/codec/__init__.py (Codec.random).
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
# boundary. Fixed in hls/backend/cpp/render.py (checked by csim and export instead).
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
# hls.zeros' zeros (wide_caller above showed it). Fixed in hls/backend/cpp/emit.py (AllocOp zeroes
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
# truncation toward zero always gives 0. Fixed in hls/backend/cpp/expr.py (cast_expr).
@hls.kernel
def tiny_fixed_to_int(a: TINY_SAT, b: hls.ap_fixed[10, 0][4], c: hls.ap_ufixed[8, -1][4], out: hls.uint13[9]):
    out[0] = hls.uint13(a)
    for i in range(4):
        out[1 + i] = hls.uint13(b[i])
        out[5 + i] = hls.int8(c[i])


DOUBLE_NEG_ROM = np.array([7, 0, 4294967295], dtype=np.uint32)


# Backend: -(-x) printed as `--(int64_t)x`, a C++ pre-decrement (g++: "lvalue required as decrement
# operand"); floats and negative literals the same. Fixed in hls/backend/cpp/expr.py (unary minus).
@hls.kernel
def double_negation(a: hls.int32[4], f: hls.float32[4], out: hls.int64[4], g: hls.float32[4]) -> hls.ap_fixed[12, 4]:
    for i in range(4):
        out[i] = --a[i] + -(-DOUBLE_NEG_ROM[i % 3])  # noqa: B002 - the point of the test
        g[i] = --f[i]  # noqa: B002
    return --DOUBLE_NEG_ROM[1]  # noqa: B002


# Backend: `c ? ap_int<117>(x) * ap_int<117>(y) : ap_int<117>(1)` does not compile: ap arithmetic
# widens (the product is ap_int<234>) and `?:` needs one type. Fixed in hls/backend/cpp/expr.py (select).
@hls.kernel
def select_of_wide_product(a0: hls.ap_int[53][7], a1: hls.uint64[8]):
    a0[0] //= a1[0] * a0[0] if a1[0] else 1
    a0[1] = (a1[1] * a0[1] + 3) if a1[2] > a1[3] else -a0[2]


RND_LSB4 = hls.ap_fixed[6, 8, "AP_RND_MIN_INF", "AP_WRAP_SM"]  # lsb 4: a bool is all below half an lsb
CONV_LSB256 = hls.ap_ufixed[4, 12, "AP_RND_CONV"]
RND_INT = hls.ap_fixed[8, 8, "AP_RND"]
TINY = hls.ap_fixed[4, -6]


# Backend (process abort): converting a source whose every bit lies below half an lsb of a rounding
# target (bool -> ap_fixed<6, 8, AP_RND_MIN_INF>) made ap_fixed's operator= read a bit beyond the
# source's MSB, and an ap_private assertion killed the Python process running csim. Fixed in
# hls/backend/cpp/expr.py (fixed_source widens such sources first; explicit casts and assignments).
@hls.kernel
def below_half_lsb(flags: hls.bool_[4], small: hls.int4[4], tiny: TINY[4], out: RND_LSB4[4], outc: CONV_LSB256[4],
                   outr: RND_INT[4]) -> RND_LSB4:
    for i in range(4):
        out[i] = RND_LSB4(flags[i])
        outc[i] = small[i]
        v: RND_INT = tiny[i]
        outr[i] = v + RND_INT(tiny[3 - i])
    return flags[1]


# Golden model: an exact integer (or fixed-point value) wider than 53 bits was rounded to float32
# through float64 (numpy's conversion of a Python int, np.float32(float(fraction))), twice: 2**60 +
# 2**36 + 1 gave 2**60 where C++ rounds once to 2**60 + 2**37; the C++ helper for ints wider than 64
# bits went through double too. Found by probing (random inputs hit the tie about once in 2**29).
# Fixed in hls/types.py (FloatType.convert), hls/frontend/builder.py + golden.py (ints meeting a
# float are converted by Python mode) and hls/backend/cpp/templates/kernel.cpp.j2 (hls_wide_to_float).
@hls.kernel
def int_to_float32_once(a: hls.int64[2], x: hls.float32[2], out: hls.float32[8], flags: hls.bool_[2]):
    for i in range(2):
        out[0 + i] = x[i] + a[i]
        out[2 + i] = hls.float32(a[i]) if a[i] > 0 else min(x[i], a[i])
        out[4 + i] = hls.ap_int[100](a[i]) * 4
        acc = x[i]
        acc += a[i]
        out[6 + i] = hls.float32(hls.ap_fixed[80, 70](a[i]) + hls.ap_fixed[80, 70](0.03125)) - acc
        flags[i] = x[i] < a[i] + 1


# Backend: ap_fixed's `/` overflows internally when the quotient's magnitude reaches the dividend's
# MIN (-0.125 / -1 in ap_fixed<10, -2> gave -0.125, -32 / -2**-10 gave -32768) although the result
# type holds it (hypothesis drew the first in tests/golden/test_properties.py; the fuzzer divides by guarded
# -1 too). Fixed in hls/backend/cpp/expr.py (the dividend gets one more integer bit).
@hls.kernel
def fixed_div_min(a: hls.ap_fixed[10, -2][2], d: hls.int8[2], x: hls.ap_fixed[16, 6][2], y: hls.ap_fixed[16, 6][2],
                  q: hls.ap_fixed[11, -1][2], r: hls.ap_fixed[40, 30][2]):
    for i in range(2):
        q[i] = a[i] / d[i]
        r[i] = x[i] / y[i]


# Golden model: in `x *= 0.1` on a float32 the literal stayed a float64 in Python mode (only plain
# binary operators adopted the float32 precision), so Python multiplied in double and rounded once
# more, while C++ computes x * 0.1f. Fixed in hls/frontend/builder.py (augmented assignments note
# their literals).
@hls.kernel
def float32_augmented_literal(a: hls.float32[4], out: hls.float32[4]):
    acc = hls.float32(1)
    for i in range(4):
        a[i] *= 0.3333333333333333
        a[i] += -0.1
        acc *= 1.1
        acc -= 0.7
        out[i] = acc


# Golden model: a float literal compared with (or selected against) a float32 stayed float64 in
# Python mode, so `x == 0.1` was False for x = 0.1f while C++ compares x == 0.1f (chained comparisons
# also paired the wrong operand). Found while checking the augmented-assignment fix above. Fixed in
# hls/frontend/builder.py (comparisons and conditional expressions adopt their literals).
@hls.kernel
def float32_literal_compare(x: hls.float32[2], out: hls.bool_[4]):
    out[0] = x[0] == 0.1
    out[1] = x[1] < 0.1 < x[0] + 1
    out[2] = 0.1 == x[0]
    out[3] = (x[0] if x[1] > 0 else 0.1) == x[1]


# Backend: ap_fixed's comparison aligns both raw integers and compares them with ap_int's C-like
# rules, where a signed raw meets a wider unsigned one as unsigned: ap_fixed<64, 32>(-0.75) >= a
# uint64 was true (also against uint32 and ap_uint<40>). Fixed in hls/backend/cpp/expr.py (compare_expr
# converts both sides to one fixed type that holds them).
@hls.kernel
def fixed_vs_unsigned(f: hls.ap_fixed[16, 8][2], g: hls.ap_fixed[48, 32][2], u32: hls.uint32[2], u64: hls.uint64[2],
                      w: hls.ap_uint[40][2], uf: hls.ap_ufixed[12, 4][2], out: hls.bool_[12]):
    for i in range(2):
        out[6 * i + 0] = f[i] >= u32[i]
        out[6 * i + 1] = g[i] >= u64[i]
        out[6 * i + 2] = f[i] < w[i] <= u64[i]
        out[6 * i + 3] = uf[i] > f[i]
        out[6 * i + 4] = g[i] == u32[i]
        out[6 * i + 5] = max(f[i], uf[i]) > u32[i]


# Backend: a loop bound that loads from memory was inlined into the C++ loop condition, which runs
# every iteration, so `for i in range(a[0] & 7): a[0] = 6 + i` kept going after the store (Python
# evaluates range() once). Found by `make fuzz N=1000 SEED=11` (seed 11000706). Fixed in
# hls/backend/cpp/emit.py (such a bound is read once, before the loop).
@hls.kernel
def bound_read_once(a0: hls.int17[2], b: hls.int32[8]) -> hls.int32:
    for i0 in range(a0[0] & 7):
        a0[0] = 6 + i0
    n = b[0] & 7
    total = hls.int32(0)
    for j in range(b[1] & 3, n):
        b[1] = 0
        b[0] = 7
        n = n + 1
        total += j
    return total + n


LIMITS = np.array([2.909, 2.958, 2.159], dtype=np.float64)
RND_SAT = hls.ap_ufixed[16, 6, "AP_RND", "AP_SAT"]


# Backend: a loop-carried local initialised from the enclosing loop's variable (`acc0: hls.int32 = i0`,
# a no-op cast in C++, or the variable itself) took over the C++ variable `i0`, so the inner loop's
# updates clobbered the outer loop counter. Found by a 1000-kernel campaign (seed 12000244). Fixed in
# hls/backend/cpp/emit.py (for_op takes over only a variable of the init's own).
@hls.kernel
def carried_from_loop_variable(a2: RND_SAT[4, 4], n: hls.int32, out: hls.int32[8]):
    for i0 in range(6, 4, -1):
        acc0: hls.int32 = i0
        for _i1 in range(0, 2):
            acc0 = LIMITS[2] < i0
        a2[1, 0] = acc0
    for i in range(n & 7):
        acc = i
        for j in range(3):
            acc = acc * 2 + j
        out[i] = acc


# Passes: full unrolling relabelled the copies of inner `for` loops only, so the copies of an inner
# `while` loop kept one label: "duplicate label 'loop_while'" from g++. Found by the 300-kernel
# campaign of the control-flow branch (seed 7000050). Fixed in hls/passes/unroll.py (every loop kind).
@hls.kernel
def unrolled_while(a: hls.int16[4], out: hls.int32[4]):
    for i in range(4):
        hls.unroll()
        w = hls.int32(0)
        while w < 5 and a[i] > w:
            w += 1
        out[i] = w


# C++: a sub-kernel returning a one-element tuple was called as a function returning a value
# (`ap_fixed<3, 3> r = k(...)` against a void function with a reference output), found while adding
# the fuzzer's tuple-result branch. Fixed in hls/frontend/calls.py (the call is marked as writing its
# results through references, however many) and hls/backend/cpp/emit.py.
@hls.kernel
def one_tuple(a: hls.int8) -> tuple[SAT_SYM]:
    return (SAT_SYM(a),)


@hls.kernel
def unpacks_one_tuple(a: hls.int8[2], out: hls.int8[2]):
    r, = one_tuple(a[0])
    out[0] = hls.int8(r)
    (s,) = one_tuple(a[1])
    out[1] = hls.int8(s)


@hls.kernel
def wide_sum_variable_shift(a: hls.uint64[2], n: hls.int7) -> hls.float64:
    """The sum is uint65 in the IR but ap_uint<66> in C++: the variable shift must wrap at 65 bits."""
    return min(a[0] + a[1] << (n & 3), 10000.0) + (a[0] + a[1] << (n & 3)) * 0.0 + hls.float64(
        hls.uint8(a[0] + a[1] << (n & 3)))


# Backend: a loop bound computed from a local (`range(acc0 & 7)`) is inlined into the C++ loop header,
# and the body's `acc0 //= 5` re-used the C++ variable `acc0` the header still reads, so the loop ran
# on. Found by `make fuzz N=1000 SEED=1202` (seed 1202000628). Fixed in hls/backend/cpp/locals.py
# (bound_values: what an inlined bound reads is live through the loop).
TRN_WRAP_47 = hls.ap_ufixed[48, 47, "AP_TRN", "AP_WRAP", 1]


@hls.kernel
def bound_from_local(a2: TRN_WRAP_47[2, 3], a0: hls.int9[2, 3]):
    acc0 = hls.ap_uint[24](a0[1][0])
    for _ in range(acc0 & 7):
        acc0 //= 5
    a2[0, 1] = acc0
