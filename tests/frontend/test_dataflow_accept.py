"""Dataflow regions with a scalar statement and an `if` around a process (UG1399 "Dataflow Optimization
Limitations": accepted with a message): Python mode and csim agree, the estimate times the region."""

import numpy as np
import pytest

import hls
from tests.frontend.test_streams import kernel_from
from tests.kernels import dataflow_accept_kernels as dk


def _both(kernel, *args):
    golden = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    native = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    kernel(*golden)
    kernel.csim(*native)
    return golden, native


@pytest.mark.parametrize("mode, scale", [(2, 5), (-1, 5), (0, -7), (1, 0)])
def test_branch_region_python_and_csim_agree(mode, scale):
    a = np.arange(dk.N, dtype=np.int32) * 3 - 7
    golden, native = _both(dk.branch_region, a, np.zeros(dk.N, np.int32), mode, scale)
    want = (a * (2 * scale + 1) if mode > 0 else -a) + (mode - 3)
    assert list(golden[1]) == list(want)
    assert list(native[1]) == list(golden[1])


@pytest.mark.parametrize("bias", [0, 3, -5])
def test_optional_stage_python_and_csim_agree(bias):
    a = np.arange(dk.N, dtype=np.int16) - 4
    b = np.full(dk.N, 99, np.int16)
    golden, native = _both(dk.optional_stage, a, b, bias)
    want = list(b) if bias == 0 else list(a * 2 + bias)
    assert list(golden[1]) == want
    assert list(native[1]) == want


def test_region_cpp_keeps_the_if_inside_one_process():
    cpp = dk.branch_region.cpp
    body = cpp[cpp.index("void branch_region("):]
    assert body.count("HLS_PROCESS_BEGIN") == 2
    start = body.index("HLS_PROCESS_BEGIN(hls_region, scaled)")
    assert body.index("if (mode > 0)") > start and body.index("negated(a, s)") < body.index("HLS_PROCESS_END")


def test_region_is_estimated_and_timed():
    report = dk.branch_region.report()
    assert report.dataflow is not None and report.dataflow.deadlock is None
    assert [p.name for p in report.dataflow.processes] == ["scaled", "offset"]
    assert report.latency_max == report.dataflow.latency
    chained = dk.optional_stage.report()
    assert chained.latency_max is not None and chained.latency_max > 0


@pytest.mark.parametrize("body, message, line", [
    ("""
    @hls.kernel
    def twice(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        k = n + 1
        k = n + 2
        produce(a, s)
        consume(s, b)
    """, "'k' is assigned twice in the dataflow region", 9),
    ("""
    @hls.kernel
    def reads_array(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        k = a[0] + n
        produce(a, s)
        consume(s, b)
    """, "a dataflow region holds stream and array declarations, loops and sub-kernel calls only", 8),
    ("""
    @hls.kernel
    def store_in_branch(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        if n > 0:
            produce(a, s)
            b[0] = n
        consume(s, b)
    """, "a dataflow region holds stream and array declarations, loops and sub-kernel calls only", 8),
])
def test_what_the_region_still_refuses(tmp_path, body, message, line):
    name = body.split("def ")[1].split("(")[0]
    k = kernel_from(tmp_path, body, name)  # the region's tasks from tests/kernels/stream_kernels.py
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert message in info.value.message
    assert info.value.loc.line == line
