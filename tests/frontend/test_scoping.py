"""Issue 25: Python scoping (a helper kernel defined after its caller, nested plain helpers inlined, a
compile-time recursion, a loop variable that is an existing variable), hls.loop_merge, and the misuse
Vitis refuses or warns about, each at its line."""

import warnings

import numpy as np
import pytest

import hls
from tests.error_marks import assert_error_at_marker, marked_line
from tests.kernels import bad_scoping_kernels as bad
from tests.kernels import scoping_kernels as sk


def _both(kernel, *args):
    """Python mode and csim on copies of the same arguments: (golden result, args), (csim result, args)."""
    golden = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    native = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return (kernel(*golden), golden), (kernel.csim(*native), native)


def _agree(kernel, *args):
    (g, gargs), (c, cargs) = _both(kernel, *args)
    assert g == c
    for x, y in zip(gargs, cargs, strict=True):
        if isinstance(x, np.ndarray):
            assert list(x) == list(y)
    return g, gargs


def _plain(kernel):
    """The undecorated Python function (CPython semantics, where no declared type wraps)."""
    return kernel.__hls_kernel__


@pytest.mark.parametrize("rounds", [0, 0x5A])
def test_helper_kernel_defined_after_its_caller(rounds):
    mix = sk.make_mix(rounds)
    a = np.array([0, 1, 0x80, 0x81, 0x7F, 0xFF, 0x40, 0x1B], np.uint8)
    b = _agree(mix, a, np.zeros(sk.N, np.uint8))[1][1]
    want = [(((x << 1) ^ (0x1B if x & 0x80 else 0)) & 0xFF) ^ rounds for x in a.tolist()]
    assert list(b) == want
    assert "double_gf(" in mix.cpp


@pytest.mark.parametrize("k", [0, 7, -300])
def test_nested_helpers_are_inlined_and_agree_with_cpython(k):
    a = np.arange(sk.N, dtype=np.int32) * 37 - 100
    b = _agree(sk.nested_helpers, a, np.zeros(sk.N, np.int32), k)[1][1]
    plain_b = [0] * sk.N
    _plain(sk.nested_helpers)(a.tolist(), plain_b, k)
    assert list(b) == plain_b
    cpp = sk.nested_helpers.cpp
    assert "square" not in cpp and "bump" not in cpp  # inlined: no C++ function of their own


@pytest.mark.parametrize("x", [0, 1, 2, -5, 1000])
def test_compile_time_recursion_unfolds(x):
    g, _ = _agree(sk.fibonacci, x)
    assert g == _plain(sk.fibonacci)(x)
    assert "fibon" not in sk.fibonacci.cpp.split("int32_t fibonacci(")[1]
    wrapped = (_plain(sk.power_unrolled)(x) + 2**31) % 2**32 - 2**31  # the int32 result wraps
    assert _agree(sk.power_unrolled, x)[0] == wrapped


@pytest.mark.parametrize("n", [8, 0, 1, 2, 5, -3])
def test_loop_variable_is_the_variable(n):
    a = np.arange(sk.N, dtype=np.int32) * 3 + 1
    g, (ga, _) = _agree(sk.last_index, a, n)
    plain_a = a.tolist()
    assert g == _plain(sk.last_index)(plain_a, n)
    assert list(ga) == plain_a


@pytest.mark.parametrize("key", [3, -1, 99])
def test_loop_variable_after_a_pipelined_loop(key):
    a = np.array([3, 1, 3, 4, -1, 3, 0, 2], np.int16)
    g, _ = _agree(sk.search_count, a, key)
    assert g == _plain(sk.search_count)(a.tolist(), key)
    assert "#pragma HLS pipeline" in sk.search_count.cpp


def test_loop_merge_pragmas_and_results():
    a = np.arange(sk.N, dtype=np.int32) - 2
    _, b, c = _agree(sk.merged, a, np.zeros(sk.N, np.int32), np.zeros(sk.N, np.int32))[1]
    assert list(b) == list(a + 1 + 1) and list(c) == list(a * 2 - 1)
    cpp = sk.merged.cpp
    assert cpp.count("#pragma HLS loop_merge\n") == 1 and cpp.count("#pragma HLS loop_merge force") == 1


def test_a_huge_unroll_is_a_size_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sk.big_unroll.compile()
    found = [w for w in caught if issubclass(w.category, hls.DirectiveWarning)]
    assert found and "1,048,576 copies" in str(found[0].message)
    assert str(found[0].message).startswith(f"{sk.__file__}:{_line_of(sk, 'hls.unroll()', 'big_unroll')}:")


def _line_of(module, text, after):
    lines = open(module.__file__).read().splitlines()
    start = next(i for i, t in enumerate(lines) if f"def {after}(" in t)
    return next(i for i, t in enumerate(lines[start:], start=start) if text in t) + 1


def test_feedback_fifo_kept_by_the_ug1399_rules_compiles():
    cpp = sk.feedback_kept.cpp
    assert "forward_stage(a, fb, s)" in cpp and "backward_stage(s, fb, b)" in cpp


@pytest.mark.parametrize("name, exc, fragment", [
    ("floor_by_zero", hls.HLSTypeError, "division by zero: the divisor '0' is 0 at compile time"),
    ("mod_by_named_zero", hls.HLSTypeError, "modulo by zero: the divisor 'ZERO' is 0"),
    ("augmented_by_zero", hls.HLSTypeError, "division by zero: the divisor 'N - 8' is 0"),
    ("fixed_by_zero", hls.HLSTypeError, "division by zero"),
    ("two_writers", hls.HLSTypeError, "array 'b' is written by two processes of the dataflow region, 'write_a' "
                                      "and 'write_b': UG1399's single-producer-consumer rule"),
    ("two_writers_of_output", hls.HLSTypeError, "array 'c' is written by two processes"),
    ("pipo_feedback", hls.HLSTypeError, "process 'add_arrays' reads array 'u' before process 'add_arrays_1' writes "
                                        "it: a ping-pong buffer flows only forward in call order (UG1399 \"Modeling "
                                        "Feedback in Dataflow Regions\")"),
    ("unordered_in_place", hls.HLSTypeError, "process 'loop_i' reads argument 'a' and the later process 'loop_i_1' "
                                             "writes it, with no FIFO from one to the other"),
    ("process_writes_region_scalar", hls.UnsupportedError, "a process assigns 'acc', a scalar of the dataflow "
                                                           "region"),
    ("blocking_feedback", hls.HLSTypeError, "FIFO 'fb' goes back from process 'backward_stage' to the earlier process "
                                            "'consume_back', which reads it with read()"),
    ("shallow_feedback", hls.HLSTypeError, "with depth 2, but 'backward_stage' writes 8 items in one run"),
    ("endless_recursion", hls.UnsupportedError, "a recursion must end at compile time"),
    ("helper_early_return", hls.UnsupportedError, "it returns once, as its last statement"),
    ("decorated_helper", hls.UnsupportedError, "a function nested in a kernel is inlined and takes no decorator"),
    ("nested_loop_reuse", hls.UnsupportedError, "assignment to the loop variable 'i' inside the loop"),
])
def test_misuse_is_an_error_at_its_line(name, exc, fragment):
    assert_error_at_marker(bad, name, exc, fragment)
    assert marked_line(bad, name) > 0
