"""hls.label("name") names a loop: the C++ label, the report row and messages use it."""

import numpy as np
import pytest

import hls


@hls.kernel
def labelled(a: hls.int32[4, 4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        hls.label("ROWS")
        for j in range(4):
            hls.label("COLS")
            hls.loop_flatten(off=True)
            acc += a[i, j]
    for k in range(4):  # unlabelled: keeps today's name
        acc += a[k, k]
    return acc


def test_label_names_the_cpp_loop_and_the_report_row():
    cpp = labelled.cpp
    assert "ROWS: for" in cpp and "COLS: for" in cpp and "loop_k: for" in cpp
    labels = [loop.label for loop in labelled.report(pipeline_loops=0).loops]
    assert labels == ["ROWS", "COLS", "loop_k"]
    assert labelled(np.ones((4, 4), dtype=np.int32)) == 20  # Python mode: hls.label does nothing


@hls.kernel
def duplicate(a: hls.int32[4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        hls.label("L")
        acc += a[i]
    for j in range(4):
        hls.label("L")
        acc += a[j]
    return acc


@hls.kernel
def late_label(a: hls.int32[4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        acc += a[i]
        hls.label("L")
    return acc


@hls.kernel
def outside_loop(a: hls.int32[4]) -> hls.int32:
    hls.label("L")
    return a[0]


@hls.kernel
def bad_name(a: hls.int32[4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        hls.label("not valid")
        acc += a[i]
    return acc


def test_duplicate_label_is_an_error_at_its_line():
    with pytest.raises(hls.HLSError, match=r"duplicate loop label 'L'") as exc:
        duplicate.compile()
    assert exc.value.loc.line == duplicate.__hls_kernel__.__code__.co_firstlineno + 7


@pytest.mark.parametrize(("kernel", "message"), [(late_label, "first statement of the loop body"),
                                                 (outside_loop, "first statement of the loop body"),
                                                 (bad_name, "C identifier")])
def test_misplaced_or_invalid_label(kernel, message):
    with pytest.raises(hls.HLSError, match=message):
        kernel.compile()


@hls.kernel
def nest(a: hls.int32[4, 8]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        hls.label("ROWS")
        for j in range(8):
            hls.label("COLS")
            hls.pipeline()
            acc += a[i, j]
    return acc


@hls.kernel
def imperfect(a: hls.int32[4, 8], out: hls.int32[4]):
    for i in range(4):
        hls.label("ROWS")
        acc = hls.int32(0)
        for j in range(8):
            hls.label("COLS")
            hls.pipeline()
            acc += a[i, j]
        out[i] = acc


def test_perfect_nest_with_pipelined_inner_loop_is_flattened():
    loops = nest.report(pipeline_loops=0).loops
    assert [(lp.label, lp.trip_max, lp.ii) for lp in loops] == [("ROWS_COLS", 32, 1)]
    # one pipeline over 32 iterations instead of 4 pipelines of 8 (each paying its fill and exit)
    kept = labelled.report(pipeline_loops=0)
    assert [lp.label for lp in kept.loops][:2] == ["ROWS", "COLS"]  # loop_flatten(off=True) keeps the nest


def test_imperfect_nest_is_not_flattened():
    assert [lp.label for lp in imperfect.report(pipeline_loops=0).loops] == ["ROWS", "COLS"]


@hls.kernel
def semi_perfect(a: hls.int32[16, 8], n: hls.int32) -> hls.int32:
    acc = hls.int32(0)
    for i in range(n):  # variable outermost bound: still flattened (UG1399 semi-perfect nest)
        hls.label("ROWS")
        hls.loop_tripcount(min=1, max=16)
        for j in range(8):
            hls.label("COLS")
            hls.pipeline()
            acc += a[i, j]
    return acc


def test_semi_perfect_nest_is_flattened_with_the_trip_range():
    (loop,) = semi_perfect.report(pipeline_loops=0).loops
    assert (loop.label, loop.trip_min, loop.trip_max, loop.ii) == ("ROWS_COLS", 8, 128, 1)
