"""`s.dataflow(f)`, `s.inline(f)` and `s.stream(fifo, depth)` build what the inline `hls.dataflow()`,
`hls.inline()` and `hls.stream(T, depth=N)` build: the same C++, estimate and report, the same
Python-mode run (processes run concurrently, FIFOs bounded by the scheduled depth) and the same legality
errors, on a top region and on a sub-kernel region. The twins (tests/kernels/schedule_spelling_kernels.py) differ
in name and line only, so texts compare with names unified and lines counted from their def."""

from __future__ import annotations

import ast
import bisect
import re

import numpy as np
import pytest

import hls
from tests.customize.test_customize import agrees
from tests.kernels import schedule_spelling_kernels as sk

_DEFS = sorted(node.lineno for node in ast.walk(ast.parse(open(sk.__file__).read()))  # noqa: SIM115
               if isinstance(node, ast.FunctionDef))


def same_text(text: str) -> str:
    """`text` with `_inline` / `_plain` names unified and each kernel-file line counted from its def."""
    def relative(match: re.Match) -> str:
        line = int(match.group(2))
        return f"{match.group(1)}+{line - _DEFS[bisect.bisect_right(_DEFS, line) - 1]}"
    text = re.sub(r"(spelling_kernels\.py:|'line': )(\d+)", relative, text)
    return re.sub(r"(?<=\w)_(inline|plain)(?![a-z])", "_X", text, flags=re.IGNORECASE)


def assert_same_kernel(inline, scheduled) -> None:
    assert same_text(scheduled.cpp) == same_text(inline.cpp)
    assert same_text(scheduled.header) == same_text(inline.header)
    assert scheduled.compile().processes == inline.compile().processes
    assert same_text(repr(scheduled.report().to_dict())) == same_text(repr(inline.report().to_dict()))
    agrees(inline, scheduled)
    for seed in (0, 1):  # Python mode of the scheduled kernel: the inline one's run
        a, b = (inline.random_inputs(seed), inline.random_inputs(seed))
        assert np.array_equal(np.asarray(inline(*a) is None), np.asarray(scheduled(*b) is None))
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_top_region_and_fifo_depth():
    scheduled = hls.customize(sk.chain_plain).dataflow().stream("s", 3).build()
    assert_same_kernel(sk.chain_inline, scheduled)
    assert "#pragma HLS dataflow" in scheduled.cpp and "#pragma HLS dataflow" not in sk.chain_plain.cpp
    assert scheduled.report().dataflow is not None and sk.chain_plain.report().dataflow is None
    assert scheduled.size_fifos() == sk.chain_inline.size_fifos()


def test_loops_as_processes():
    scheduled = hls.customize(sk.region_plain).dataflow("region_plain").build()
    assert_same_kernel(sk.region_inline, scheduled)
    text = [re.sub(r"[ =+-]+", " ", same_text(str(k.report()))) for k in (scheduled, sk.region_inline)]
    assert text[0] == text[1]  # the printed report, but for column widths (the names differ in length)


def test_sub_kernel_region():
    scheduled = hls.customize(sk.top_of_region_plain).dataflow("region_plain").build()
    assert_same_kernel(sk.top_of_region_inline, scheduled)
    assert sk.region_plain.compile().processes is False  # the callee itself is untouched
    by_json = hls.Schedule.from_json(sk.top_of_region_plain,
                                     hls.customize(sk.top_of_region_plain).dataflow("region_plain").to_json())
    assert by_json.build().cpp == scheduled.cpp


def test_inline_of_a_callee():
    scheduled = hls.customize(sk.uses_helper_plain).inline("helper_plain").build()
    assert_same_kernel(sk.uses_helper_inline, scheduled)


def test_scheduled_depth_bounds_the_python_mode_run():
    """A diamond that deadlocks at depth 1 (the consumer alternates, the producer writes one FIFO first):
    Python mode runs the processes concurrently at the scheduled depth, as at the inline one."""
    args = sk.diamond_plain.random_inputs(0)
    sk.diamond_plain(*[np.copy(a) for a in args])  # depth N: no deadlock
    scheduled = hls.customize(sk.diamond_plain).dataflow().stream("s", 1).build()
    errors = []
    for kernel in (sk.diamond_inline, scheduled):
        with pytest.raises(hls.HLSError) as info:
            kernel(*[np.copy(a) for a in args])
        errors.append((type(info.value), same_text(info.value.message)))
    assert errors[0] == errors[1] and "deadlock" in errors[0][1]
    assert same_text(scheduled.cpp) == same_text(sk.diamond_inline.cpp)


def test_legality_errors_are_the_inline_ones():
    with pytest.raises(hls.HLSError) as inline:
        sk.two_writers_inline.compile()
    with pytest.raises(hls.HLSError) as scheduled:
        hls.customize(sk.two_writers_plain).dataflow()
    assert type(scheduled.value) is type(inline.value)
    assert same_text(scheduled.value.message) == same_text(inline.value.message)
    assert same_text(str(scheduled.value.loc)) == same_text(str(inline.value.loc))  # at the second writer
    assert "applied by the schedule's dataflow(None) at " + __file__ in scheduled.value.notes[-1]


def test_bad_source_directives_are_errors_at_the_call():
    with pytest.raises(hls.HLSError, match=r"test_schedule_spellings.py:\d+:\d+: stream sets the depth of a local "
                                           "FIFO"):
        hls.customize(sk.chain_plain).stream("a", 2)
    with pytest.raises(hls.HLSError, match=r"test_schedule_spellings.py:\d+:\d+: stream depth must be a positive"):
        hls.customize(sk.chain_plain).stream("s", 0)
    with pytest.raises(hls.HLSError, match=r"test_schedule_spellings.py:\d+:\d+: no function named 'nope'"):
        hls.customize(sk.chain_plain).dataflow("nope")


def test_a_kernel_that_has_the_statement_keeps_one():
    again = hls.customize(sk.chain_inline).dataflow().build()
    assert again.cpp == sk.chain_inline.cpp  # the region stays as written
    agrees(sk.chain_inline, again)
    off = hls.customize(sk.uses_helper_inline).inline("helper_inline", off=True).build()
    callee = off.cpp[off.cpp.index("helper_inline("):]
    assert "#pragma HLS inline off" in callee and callee.count("#pragma HLS inline") == 1  # the schedule's wins
    agrees(sk.uses_helper_inline, off)


def test_a_callee_the_rewrite_cannot_reach_is_an_error():
    with pytest.raises(hls.HLSError, match=r"test_schedule_spellings.py:\d+:\d+: dataflow\('region_plain'\): "
                                           "sub-kernel 'region_plain' is not called by that name") as info:
        hls.customize(sk.top_by_attribute).dataflow("region_plain")
    assert not info.value.notes
