"""Whole-array statements (issue 22): golden == csim == numpy with the exact semantics written out
explicitly, named loop nests in the C++ and the report, directives on the innermost generated loop,
the estimate of `A @ B` against the same loops written by hand, and errors at the line."""

import numpy as np
import pytest

import hls
from hls.errors import HLSTypeError, UnsupportedError
from tests.error_marks import assert_error_at_marker
from tests.kernels import array_kernels as K

RNG = np.random.default_rng(22)


def ints(shape, lo, hi, dtype):
    return RNG.integers(lo, hi, shape).astype(dtype)


def run_both(kernel, *args):
    """The golden model and csim on copies of `args`: (golden args, golden result), equal to csim's."""
    golden_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    csim_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = kernel(*golden_args)
    sim = kernel.csim(*csim_args)
    sim_result = sim if not isinstance(sim, tuple) else sim
    for g, c in zip(golden_args, csim_args, strict=True):
        if isinstance(g, np.ndarray):
            np.testing.assert_array_equal(g, c)
    if got is not None:
        np.testing.assert_array_equal(np.asarray(got), np.asarray(sim_result))
    return golden_args, got


def wrap(values, dtype):
    """Exact integers stored into `dtype` (two's complement wrap)."""
    return np.asarray(values, dtype=np.int64).astype(dtype)


def test_elementwise_arithmetic_with_broadcasting():
    A, B = ints((4, 8), -300, 300, np.int16), ints(8, -300, 300, np.int16)
    (_, _, _, C), _ = run_both(K.ew_arith, A, B, np.int16(7), np.zeros((4, 8), np.int32))
    a, b = A.astype(np.int64), B.astype(np.int64)
    expect = (a + b[None, :]) * 7 - a // 3 + a % 5 + (b << 2) - (a >> 1)
    np.testing.assert_array_equal(C, wrap(expect, np.int32))
    assert "C" in K.ew_arith.verify()["compared"]


def test_bit_operators_and_invert_on_unsigned():
    A, B = ints((6, 5), 0, 256, np.uint8), ints((6, 1), 0, 256, np.uint8)
    (_, _, C), _ = run_both(K.ew_bits, A, B, np.zeros((6, 5), np.uint8))
    np.testing.assert_array_equal(C, (A & B) | (A ^ 0x5A) | ~A)


def test_comparisons_and_bool_logic_and_where():
    A, B = ints(16, -128, 128, np.int8), ints(16, -128, 128, np.int8)
    A[:4] = B[:4]
    (_, _, _, C, D), _ = run_both(K.ew_logic, A, B, np.int8(-5), np.zeros(16, np.bool_), np.zeros(16, np.int8))
    np.testing.assert_array_equal(C, ((A > -5) & (B <= A)) | ~(A == B))
    a, b = A.astype(np.int64), B.astype(np.int64)
    np.testing.assert_array_equal(D, wrap(np.where(a > b, a, -b), np.int8))


def test_numpy_maximum_minimum_abs():
    A, B = ints((3, 4), -128, 128, np.int8), ints(4, -128, 128, np.int8)
    (_, _, C), _ = run_both(K.ew_funcs, A, B, np.zeros((3, 4), np.int16))
    a, b = A.astype(np.int64), B.astype(np.int64)
    np.testing.assert_array_equal(C, wrap(np.maximum(a, b) + np.minimum(a, 0) - np.abs(a), np.int16))


def test_float_math_in_float32():
    x = RNG.uniform(0.1, 3, (2, 8)).astype(np.float32)
    _, got = run_both(K.ew_float, x)
    f = np.float32
    expect = np.tanh(x) + np.sqrt(np.abs(x)) * np.exp(-x) + np.log(x * x + f(1.0))
    np.testing.assert_allclose(got, expect, rtol=1e-6)
    assert np.asarray(got).dtype == np.float32


def test_views_slices_steps_negative_bounds_and_transpose():
    A, M = ints(12, -1000, 1000, np.int16), ints((4, 6), -1000, 1000, np.int16)
    (_, _, B, T), _ = run_both(K.views, A, M, np.zeros(12, np.int16), np.zeros((3, 6), np.int16))
    expect = np.zeros(12, np.int64)
    a, m = A.astype(np.int64), M.astype(np.int64)
    expect[1:-1] = a[:-2] - a[2:]
    expect[::4] = a[::-1][::4]
    np.testing.assert_array_equal(B, wrap(expect, np.int16))
    np.testing.assert_array_equal(T, wrap(m[1:, ::-1] + m.T[::2, 0][:, None], np.int16))


def test_transpose_with_axes():
    X = ints((2, 3, 4), -128, 128, np.int8)
    (_, Y), _ = run_both(K.transposes, X, np.zeros((4, 2, 3), np.int16))
    np.testing.assert_array_equal(Y, np.transpose(X, (2, 0, 1)).astype(np.int16) * 2)


def test_whole_array_casts_and_new_locals():
    x = ints(10, -2000, 2000, np.int16)
    _, got = run_both(K.casts, x)  # golden == csim, including the fixed-point local
    y = x.astype(np.int8).astype(np.int64) ** 2  # int8 * int8 is exact in the local's int16
    low = ((x.astype(np.int64) + 8) % 16) - 8  # ap_fixed<10, 4> keeps 4 integer bits (wraps)
    z = np.trunc(low + 1.5).astype(np.int64)  # fixed point to int9 truncates toward zero, as C++ does
    expect = ((y + 256) % 512 - 256) + z  # int9(y) wraps; the sum of two int9 is an int10
    np.testing.assert_array_equal(got, ((expect + 256) % 512) - 256)  # stored into the int9 result
    assert "ap_fixed<10, 4>" in K.casts.cpp


def test_augmented_slice_assignment():
    A, B = ints(8, -1000, 1000, np.int32), ints(8, -1000, 1000, np.int16)
    (got, _), _ = run_both(K.augmented, A, B)
    expect = A.astype(np.int64) + 2 * B
    expect[2:6] -= 1
    np.testing.assert_array_equal(got, expect)


def test_reductions_axis_keepdims_and_whole():
    x = ints((4, 6), -128, 128, np.int8)
    (_, rows, cols, both), got = run_both(K.reductions, x, np.zeros(4, np.int16), np.zeros((1, 6), np.int8),
                                          np.zeros((4, 1), np.int32))
    xi = x.astype(np.int64)
    np.testing.assert_array_equal(rows, xi.sum(axis=1))
    np.testing.assert_array_equal(cols, x.max(axis=0, keepdims=True))
    np.testing.assert_array_equal(both, xi.min(axis=-1, keepdims=True) + xi.sum(axis=1, keepdims=True))
    assert got == xi.sum() + xi.min()


def test_contractions_follow_numpy_shapes():
    A, B = ints((3, 5), -128, 128, np.int8), ints((5, 4), -128, 128, np.int8)
    v, w = ints(5, -128, 128, np.int8), ints(4, -128, 128, np.int8)
    outs = (np.zeros((3, 4), np.int32), np.zeros(3, np.int32), np.zeros(5, np.int32))
    (_, _, _, _, M, Av, wB), got = run_both(K.contractions, A, B, v, w, *outs)
    a, b, vi, wi = (t.astype(np.int64) for t in (A, B, v, w))
    np.testing.assert_array_equal(M, a @ b)
    np.testing.assert_array_equal(Av, a @ vi)
    np.testing.assert_array_equal(wB, np.dot(b, wi))
    assert got == vi @ vi


def test_batched_matmul_broadcasts_leading_dimensions():
    A, B = ints((2, 3, 4), -128, 128, np.int8), ints((4, 5), -128, 128, np.int8)
    (_, _, C), _ = run_both(K.batched, A, B, np.zeros((2, 3, 5), np.int32))
    np.testing.assert_array_equal(C, A.astype(np.int64) @ B)


def test_declared_accumulator_wraps_each_partial_sum():
    A, x = ints((4, 16), -128, 128, np.int8), ints(16, -128, 128, np.int8)
    _, got = run_both(K.narrow_acc, A, x)
    expect = np.zeros(4, np.int64)
    for i in range(4):
        acc = 0
        for k in range(16):
            acc = int(wrap(acc + int(A[i, k]) * int(x[k]), np.int8))
        expect[i] = acc
    np.testing.assert_array_equal(got, expect)
    assert "ap_int<8> result_acc" in K.narrow_acc.cpp


def test_exact_sums_grow_by_the_reduction_length():
    A, B = ints((8, 8), -2**15, 2**15, np.int16), ints((8, 8), -2**15, 2**15, np.int16)
    A[:] = -2**15
    B[:] = -2**15
    (_, _, C), _ = run_both(K.matmul_array, A, B, np.zeros((8, 8), np.int64))
    assert (C == 8 * 2**30).all()  # over int32: the accumulator is wider, as the hand-written loop's


def test_loops_are_named_after_the_target_in_cpp_and_report():
    cpp = K.ew_arith.cpp
    assert "C_i: for (int32_t C_i = 0; C_i < 4; C_i++)" in cpp and "C_j: for" in cpp
    assert "C[C_i][C_j] = " in cpp
    labels = [loop.label for loop in K.matmul_array.report(pipeline_loops=0).loops]
    assert labels == ["C_i", "C_j", "C_k"]
    lines = {loop.line for loop in K.matmul_array.report(pipeline_loops=0).loops}
    assert len(lines) == 1  # every nest row points at the statement's line


def test_label_and_directives_before_the_statement_apply_to_its_innermost_loop():
    cpp = K.directed.cpp
    assert "mm_i: for" in cpp and "mm_j: for" in cpp
    inner = cpp[cpp.index("mm_k: for"):]
    assert inner.splitlines()[1].strip() == "#pragma HLS pipeline II=1"
    loops = {loop.label: loop for loop in K.directed.report(pipeline_loops=0).loops}
    assert loops["mm_k"].ii == 1
    in_loop = K.in_loop.cpp
    assert "#pragma HLS unroll factor=2" in in_loop.split("C_i: for")[1]  # before the statement: its loop


def test_whole_array_matmul_estimates_as_the_hand_written_loops():
    a, b = K.matmul_array.report(), K.matmul_loops.report()
    assert abs(a.latency_max - b.latency_max) <= 0.1 * b.latency_max
    assert [loop.trip_max for loop in a.loops] == [loop.trip_max for loop in b.loops]


def test_python_mode_runs_the_same_statements():
    x = ints((4, 6), -128, 128, np.int8)
    outs = (np.zeros(4, np.int16), np.zeros((1, 6), np.int8), np.zeros((4, 1), np.int32))
    assert K.reductions.golden_model in ("numpy", "compiled", "python")
    import os
    saved = os.environ.get("HLS_GOLDEN")
    os.environ["HLS_GOLDEN"] = "python"
    try:
        python = K.reductions(x, *[o.copy() for o in outs])
    finally:
        os.environ.pop("HLS_GOLDEN") if saved is None else os.environ.__setitem__("HLS_GOLDEN", saved)
    assert python == K.reductions(x, *[o.copy() for o in outs])


@pytest.mark.parametrize(("name", "exc", "fragment"), [
    ("bad_broadcast", HLSTypeError, "(8, 16) and (16, 8) cannot be broadcast together"),
    ("bad_matmul", HLSTypeError, "inner dimensions 16 and 8 differ"),
    ("bad_axis", HLSTypeError, "axis 2 is out of range for an array of 2 dimensions"),
    ("bad_target", HLSTypeError, "cannot assign an array of shape (7,) to a target of shape (6,)"),
    ("bad_lossy", HLSTypeError, "float32"),
    ("bad_alias", UnsupportedError, "reads 'A' at other elements"),
    ("bad_rebind", UnsupportedError, "'y' is already defined"),
    ("bad_view_name", UnsupportedError, "A[::2] is a view in numpy"),
])
def test_errors_at_the_line(name, exc, fragment):
    assert_error_at_marker(K, name, exc, fragment)


def test_hls_matmul_outside_a_kernel_raises():
    with pytest.raises(hls.HLSError):
        hls.matmul(np.ones((2, 2)), np.ones((2, 2)))


def test_reshape_is_a_row_major_view():
    x = ints((2, 6), -1000, 1000, np.int16)
    (_, y, z), _ = run_both(K.reshapes, x, np.zeros((3, 4), np.int16), np.zeros(12, np.int32))
    np.testing.assert_array_equal(y, wrap(x.astype(np.int64).reshape(3, 4) + 1, np.int16))
    np.testing.assert_array_equal(z, x.astype(np.int64).reshape(-1) * x.T.reshape((12,)))


def test_concatenate_reads_each_element_from_its_operand():
    a, b, c = ints((3, 4), -128, 128, np.int8), ints((2, 4), -2000, 2000, np.int16), ints((3, 2), -128, 128, np.int8)
    (_, _, _, C, D), _ = run_both(K.concats, a, b, c, np.zeros((5, 4), np.int32), np.zeros((3, 6), np.int32))
    ai, bi, ci = (t.astype(np.int64) for t in (a, b, c))
    np.testing.assert_array_equal(C, np.concatenate((ai, bi)) * 2 - np.concatenate([bi[::-1, :], ai], axis=0))
    np.testing.assert_array_equal(D, np.concatenate([ai, ci], axis=-1) + np.concatenate((ci, ai), 1))
    cpp = K.concats.cpp
    assert "if (C_i < 3)" in cpp and "C_i - 3" in cpp and "?" not in cpp.split("void concats")[1]
    assert K.concats.golden_model == "numpy"


def test_concatenate_inside_reductions_new_locals_and_return():
    a, b = ints((4, 3), -128, 128, np.int8), ints((2, 3), -128, 128, np.int8)
    _, got = run_both(K.concat_reduce, a, b)
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    y = np.concatenate((ai, bi)).sum(axis=0)
    np.testing.assert_array_equal(got, wrap(np.concatenate((ai.max(axis=0, keepdims=True), y[None, :])).sum(axis=0),
                                            np.int16))
    x, f = ints(4, -3000, 3000, np.int16), RNG.uniform(-5, 5, 2).astype(np.float32)
    _, got = run_both(K.concat_return, x, f)
    np.testing.assert_array_equal(got, np.concatenate((x.astype(np.float32), f, x[3:].astype(np.float32)))
                                  * np.float32(0.5))
    assert "a[HLS_INDEX(result_i - 3, 4," in K.concat_return.cpp  # a[3:] after 6 elements: one offset


def test_concatenate_python_mode_is_the_numpy_model():
    a, b, c = ints((3, 4), -128, 128, np.int8), ints((2, 4), -2000, 2000, np.int16), ints((3, 2), -128, 128, np.int8)
    outs = lambda: (np.zeros((5, 4), np.int32), np.zeros((3, 6), np.int32))  # noqa: E731
    default = outs()
    K.concats(a, b, c, *default)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HLS_GOLDEN", "python")
        python = outs()
        K.concats(a, b, c, *python)
    for d, p in zip(default, python, strict=True):
        np.testing.assert_array_equal(d, p)


def test_dot_above_two_dimensions_follows_numpy():
    A, B = ints((2, 3, 4), -128, 128, np.int8), ints((5, 4, 6), -128, 128, np.int8)
    v, W = ints(4, -128, 128, np.int8), ints((4, 3), -128, 128, np.int8)
    outs = (np.zeros((2, 3, 5, 6), np.int32), np.zeros((2, 3), np.int32), np.zeros((5, 6), np.int32),
            np.zeros((2, 3, 3), np.int32))
    (*_, C, D, E, F), _ = run_both(K.dots, A, B, v, W, np.zeros((3, 4), np.int8), *outs)
    a, b, vi, w = (t.astype(np.int64) for t in (A, B, v, W))
    np.testing.assert_array_equal(C, np.dot(a, b))
    np.testing.assert_array_equal(D, np.dot(a, vi))
    np.testing.assert_array_equal(E, np.dot(vi, b))
    np.testing.assert_array_equal(F, np.dot(a, w))
    A2 = ints((2, 4, 5), -128, 128, np.int8)
    (_, _, C2, D2), _ = run_both(K.dot_batched_matmul, A, A2, np.zeros((2, 3, 5), np.int32),
                                 np.zeros((2, 3, 2, 5), np.int32))
    a2 = A2.astype(np.int64)
    np.testing.assert_array_equal(C2, 2 * np.matmul(a, a2))  # @ / np.matmul / hls.matmul: batched
    np.testing.assert_array_equal(D2, np.dot(a, a2))  # np.dot: every pair of a's rows and b's matrices


@pytest.mark.parametrize(("name", "exc", "fragment"), [
    ("bad_concat_shapes", HLSTypeError, "(3, 4) and (3, 5) differ outside that axis"),
    ("bad_concat_rank", HLSTypeError, "(3, 4) and (4,) differ"),
    ("bad_concat_none", UnsupportedError, "reshape(-1)"),
    ("bad_concat_axis", HLSTypeError, "axis 2 is out of range for an array of 2 dimensions"),
    ("bad_concat_scalar", HLSTypeError, "s is a scalar"),
    ("bad_dot", HLSTypeError, "np.dot of (2, 3, 4) and (2, 3, 4)"),
    ("bad_stack", HLSTypeError, "np.stack of (3,) and (4,)"),
    ("bad_vstack", HLSTypeError, "np.vstack along axis 0: (1, 3) and (2, 4) differ"),
    ("bad_row_matmul", HLSTypeError, "x[0] indexes 1 of the 2 dimensions of an array of shape (4, 6), which is one "
                                     "element here; write the rest as slices for the view, x[0, :]"),
    ("bad_scalar_matmul", HLSTypeError, "np.matmul needs arrays on both sides; s is a scalar"),
])
def test_concatenate_and_dot_errors_at_the_line(name, exc, fragment):
    assert_error_at_marker(K, name, exc, fragment)


def test_mean_is_the_sum_over_the_count():
    x, y = RNG.uniform(-2, 2, (4, 6)).astype(np.float32), ints((4, 6), -3000, 3000, np.int16)
    (_, _, C, D), got = run_both(K.means, x, y, np.zeros((4, 6), np.float32), np.zeros(6))
    total = np.zeros((4, 1), np.float32)
    for k in range(6):  # the float32 sum in index order, then over the count in float32
        total = total + x[:, k:k + 1]
    np.testing.assert_array_equal(C, x - total / np.float32(6))
    yi = y.astype(np.int64)  # an int sum is exact, then divided in float64 (numpy's mean of ints)
    np.testing.assert_array_equal(D, yi.sum(axis=0) / 4)
    assert got == yi.sum() / 24 + (2 * yi).sum() / 24


def test_hstack_vstack_stack_are_concatenations():
    a, b, M = ints(3, -128, 128, np.int8), ints(3, -128, 128, np.int8), ints((2, 3), -3000, 3000, np.int16)
    outs = [np.zeros(s, np.int32) for s in ((6,), (4, 3), (3, 2), (2, 3, 2), (2, 6))]
    (_, _, _, H, V, S, T, W), _ = run_both(K.stacks, a, b, M, *outs)
    ai, bi, m = (t.astype(np.int64) for t in (a, b, M))
    np.testing.assert_array_equal(H, np.hstack((ai, bi * 2)))
    np.testing.assert_array_equal(V, np.vstack([ai, m, bi]))
    np.testing.assert_array_equal(S, np.stack((ai, bi), axis=-1))
    np.testing.assert_array_equal(T, np.stack([m, m * 3], axis=2))
    np.testing.assert_array_equal(W, np.hstack((m, m[:, ::-1])))
