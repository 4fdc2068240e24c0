"""Bad kernels: each raises the right HLSError subclass, says what to do, and points at file:line:col."""

import re
from pathlib import Path

import pytest

import hls
from tests.kernels import bad_kernels

SOURCE = Path(bad_kernels.__file__).read_text().splitlines()


def marked_line(name: str) -> int:
    for number, text in enumerate(SOURCE, start=1):
        if re.search(rf"# E {name}\b", text):
            return number
    raise AssertionError(name)


def col_of(name: str, token: str) -> int:
    return SOURCE[marked_line(name) - 1].index(token) + 1


CASES = [
    # name, exception, message fragment, token the caret must start at
    ("while_never_exits", hls.UnsupportedError, "this `while` loop never exits", "while"),
    ("unroll_with_break", hls.HLSTypeError, "cannot fully unroll a loop with `break`", "hls.unroll"),
    ("unroll_while", hls.HLSTypeError, "a `while` loop has no trip count to unroll", "hls.unroll"),
    ("while_else", hls.UnsupportedError, "`while ... else` is not supported", "while"),
    ("calls_python", hls.UnsupportedError, "call to 'helper' is not supported", "helper"),
    ("uses_print", hls.UnsupportedError, "print() is a statement", "print"),
    ("prints_array", hls.UnsupportedError, "print() prints scalars and strings", "a)"),
    ("zip_strict_lengths", hls.HLSTypeError, "strict=True) of arrays of different lengths [6, 8]", "zip"),
    ("missing_annotation", hls.HLSTypeError, "argument 'a' needs a type annotation", "a, b"),
    ("python_int_annotation", hls.HLSTypeError, "Python `int` has no fixed width", "int)"),
    ("index_out_of_bounds", hls.HLSTypeError, "index 8 is out of bounds for dimension 0 of size 8", "8]"),
    ("wrong_rank", hls.HLSTypeError, "indexed with 1 indices; index every dimension", "a[1]"),
    ("assigns_loop_var", hls.UnsupportedError, "assignment to the loop variable 'i'", "i ="),
    ("float_into_int", hls.HLSTypeError, "convert explicitly, e.g. hls.int32(x)", "a[0] = x"),
    ("pipeline_ii_zero", hls.HLSTypeError, "ii must be a positive integer, got 0", "hls.pipeline"),
    ("partition_non_array", hls.HLSTypeError, "needs an array variable", "n,"),
    ("uses_lambda", hls.UnsupportedError, "lambdas are not supported", "lambda"),
    ("list_comprehension", hls.UnsupportedError, "list comprehensions are not supported", "[a[i]"),
    ("iterates_array", hls.UnsupportedError, "loops iterate over range(...), an array", "n:"),
    ("writes_rom", hls.HLSTypeError, "read-only", "ROM[0] ="),
    ("recursive", hls.UnsupportedError, "hardware has no call stack", "recursive(a"),
    ("sub_wrong_shape", hls.HLSTypeError, "argument 'a' of 'takes_eight' must be int32[8]", "a, buf"),
    ("unknown_type", hls.HLSTypeError, "'hls.float16' does not exist", "hls.float16"),
    ("uses_try", hls.UnsupportedError, "`try` has no hardware meaning", "try"),
    # issue 19: an undeclared local whose values no width holds asks for a declaration
    ("while_accumulation", hls.HLSTypeError, "trip count is not known at compile time, so no width holds every "
                                             "sum; declare it: s = hls.int64(0)", "s +="),
    ("accumulates_too_wide", hls.HLSTypeError, "'s' accumulates to 68 bits (more than 64); declare the type it "
                                               "should wrap in: s = hls.uint64(0)", "s +="),
    ("literal_shift_too_wide", hls.HLSTypeError, "give the shifted value a type, e.g. hls.uint32(1) << n", "1 << n"),
    ("fixed_meets_float", hls.HLSTypeError, "fixed point and floats do not mix implicitly; convert one, e.g. "
                                            "v = hls.float32(...)", "v = f"),
    ("grows_every_iteration", hls.HLSTypeError, "the type of 'acc' grows with every assignment", "acc = acc"),
    # a while counter the condition does not bound: reassigned, stepped in an inner loop, a float bound, the
    # step away from the bound, a loop target rebinding it
    *[(name, hls.HLSTypeError, "'i' accumulates in a loop whose trip count is not known at compile time",
       "i ") for name in ("while_counter_reassigned", "while_counter_in_inner_for", "while_counter_float_bound",
                          "while_counter_wrong_direction", "while_counter_rebound_by_loop")],
    # a binary search's bounds are not counters (no interval reasoning yet): they ask for a declaration
    ("binary_search_undeclared", hls.HLSTypeError, "the type of 'lo' grows with every assignment", "lo = mid"),
]


@pytest.mark.parametrize("name,exc,fragment,token", CASES, ids=[c[0] for c in CASES])
def test_bad_kernel(name, exc, fragment, token):
    kernel = getattr(bad_kernels, name)
    with pytest.raises(exc) as info:
        kernel.compile()
    err = info.value
    assert fragment in err.message
    assert err.loc is not None
    assert err.loc.file == bad_kernels.__file__
    assert (err.loc.line, err.loc.col + 1) == (marked_line(name), col_of(name, token))
    text = str(err)
    assert text.startswith(f"{bad_kernels.__file__}:{marked_line(name)}:{col_of(name, token)}: ")
    assert SOURCE[marked_line(name) - 1].strip() in text  # the source line is shown
    assert "^" in text
    assert "hls/frontend" not in text and "Traceback" not in text


def test_calling_a_bad_kernel_raises_the_same_error():
    with pytest.raises(hls.UnsupportedError):
        bad_kernels.while_never_exits(__import__("numpy").zeros(8, dtype="int32"))


MORE_CASES = [
    ("while_true", hls.UnsupportedError, "never exits: its condition is always true"),
    ("slice_out_of_range", hls.HLSTypeError, "bit slice [4:9] is out of range for a 8-bit value (bits 0..7)"),
    ("slice_empty", hls.HLSTypeError, "bit slice [4:4] is empty"),
    ("bit_out_of_range", hls.HLSTypeError, "bit index 16 is out of range for a 16-bit value"),
    ("bitcast_width", hls.HLSTypeError, "bitcast keeps the width: uint16 has 16 bits, float32 has 32"),
    ("bits_of_float", hls.HLSTypeError, "reinterpret it first with x.bitcast()"),
    ("variable_slice", hls.UnsupportedError, "bit slice bounds must be compile-time integers"),
    ("dataclass_array", hls.HLSTypeError, "argument 'arr': Pixel is a dataclass, not an hls type"),
    ("dataclass_scalar", hls.HLSTypeError, "argument 'p': Pixel is a dataclass, not an hls type"),
    ("uses_with", hls.UnsupportedError, "`with` blocks are not supported"),
    ("dict_value", hls.UnsupportedError, "dict values are not supported"),
    ("list_value", hls.UnsupportedError, "list values are not supported"),
    ("str_value", hls.UnsupportedError, "str values are not supported"),
    ("generator", hls.UnsupportedError, "generators (`yield`) are not supported"),
    ("coroutine", hls.UnsupportedError, "plain `def` function"),
    ("global_write", hls.UnsupportedError, "`global` is not supported"),
    ("nonlocal_write", hls.UnsupportedError, "`nonlocal` is not supported"),
    ("star_args", hls.UnsupportedError, "`*args`/`**kwargs` are not supported"),
    ("star_kwargs", hls.UnsupportedError, "`*args`/`**kwargs` are not supported"),
    ("numpy_random", hls.UnsupportedError, "random numbers are not supported"),
    ("opens_file", hls.UnsupportedError, "open() is not supported"),
    ("variable_shape", hls.HLSTypeError, "array shape must be compile-time constants; 'n' is a kernel variable"),
    ("rank_mismatch", hls.HLSTypeError, "indexed with 2 indices"),
    ("sub_float_for_int", hls.HLSTypeError, "argument 'n' of 'takes_scalar'"),
    ("sub_wrong_count", hls.HLSTypeError, "takes 2 arguments, got 1"),
    ("unknown_option", hls.HLSTypeError, "unexpected keyword argument 'iii'"),
    ("bad_partition_type", hls.HLSTypeError, "type must be one of cyclic, block, complete"),
    ("negative_unroll", hls.HLSTypeError, "factor must be a positive integer, got -2"),
    ("tripcount_inverted", hls.HLSTypeError, "min exceeds max"),
    ("storage_on_argument", hls.HLSTypeError, "for kernel arguments use hls.interface"),
    ("bad_interface_mode", hls.HLSTypeError, "mode must be one of"),
    ("return_not_on_every_path", hls.HLSTypeError, "does not end with `return`"),
    ("break_in_tuple_loop", hls.UnsupportedError, "inside a loop over a tuple of compile-time values"),
    ("python_float_annotation", hls.HLSTypeError, "Python `float` has no fixed width"),
    ("tuple_unpack", hls.HLSTypeError, "cannot unpack 3 values into 2 names"),
    ("rebinds_array", hls.UnsupportedError, "is an array; assign its elements"),
    ("negative_index", hls.HLSTypeError, "index -1 is out of bounds"),
    ("float_index", hls.HLSTypeError, "array index must be an integer"),
    ("and_of_numbers", hls.HLSTypeError, "`and`/`or` operands must be conditions"),
    ("bool_invert", hls.HLSTypeError, "use `not`"),
    ("tuple_return_too_long", hls.HLSTypeError, "the return of tuple[int8, int8] needs 2 values, got 3"),
    ("scalar_return_of_tuple", hls.HLSTypeError, "returns 2 values but its return annotation is int8"),
    ("static_untyped", hls.HLSTypeError, "hls.static needs a typed initial value"),
    ("result_shape_differs", hls.HLSTypeError, "'y' is returned as int8[8] but is int8[4] here"),
    ("result_type_differs", hls.HLSTypeError, "'y' is returned as int8[8] but is int16[8] here"),
    ("returns_argument_array", hls.UnsupportedError, "returning the argument array 'a'"),
    ("tuple_call_not_unpacked", hls.UnsupportedError, "returns 2 values: unpack them"),
    ("unpack_wrong_count", hls.HLSTypeError, "tuple unpacking needs 3 values, got 2"),
    ("early_tuple_return", hls.UnsupportedError, "a `return` before the end of a kernel returning a tuple"),
]


@pytest.mark.parametrize("name,exc,fragment", MORE_CASES, ids=[c[0] for c in MORE_CASES])
def test_more_bad_kernels(name, exc, fragment):
    kernel = getattr(bad_kernels, name)
    with pytest.raises(exc) as info:
        kernel.compile()
    err = info.value
    assert fragment in err.message, err.message
    assert err.loc is not None and err.loc.file == bad_kernels.__file__
    assert err.loc.line == marked_line(name), str(err)
    assert str(err).startswith(f"{bad_kernels.__file__}:{marked_line(name)}:{err.loc.col + 1}: ")
    assert "Traceback" not in str(err)


def test_corpus_size_and_only_hls_errors():
    import inspect

    kernels = [obj for _, obj in inspect.getmembers(bad_kernels) if isinstance(obj, hls.Kernel)]
    bad = [k for k in kernels if k.__name__ not in ("takes_eight", "takes_scalar", "pair")]
    assert len(bad) >= 40
    for kernel in bad:
        with pytest.raises(hls.HLSError):
            kernel.compile()
