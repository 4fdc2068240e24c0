"""A kernel's journey as values (issue 20, item 2): the frontend runs once for every step, a FIFO's
depth is decided once (by the IR), and the schedule stage returns the finished Report of a dataflow
top from the trace it is given."""

from __future__ import annotations

import numpy as np

import hls
from hls import compilation
from hls.ir.stream_ops import StreamOp
from hls.kernel import Kernel
from hls.schedule import schedule_module
from hls.schedule.dataflow import Untimed
from tests.kernels import stream_kernels as sk
from tests.kernels.stream_kernels import consume, produce

DEPTHS = [3]  # read through an expression: the frontend evaluates it once, at compile time


def scale(a: hls.int16[16], b: hls.int32[16]):
    for i in range(16):
        b[i] = a[i] * 3


def fifo_depth_kernel(a: hls.int32[8], b: hls.int32[8]):
    hls.dataflow()
    s = hls.stream(hls.int32, depth=DEPTHS[0] * 2)
    produce(a, s)
    consume(s, b)


def test_every_step_reads_the_one_build(monkeypatch):
    """The C++ of two flows, the IR, the MLIR, the estimate and every golden model's plan come from a
    single run of the frontend."""
    builds = []
    real = compilation.build_module
    monkeypatch.setattr(compilation, "build_module", lambda k: builds.append(k.__name__) or real(k))
    k = Kernel(scale)
    a = np.arange(16, dtype=np.int16)
    b = np.zeros(16, dtype=np.int32)
    _ = k.cpp, k.ir, k.mlir, k.vector_plan, k.golden_model, k.compile("vivado").design, k.report()
    k(a, b)
    assert builds == ["scale"] and list(b) == [3 * v for v in range(16)]
    assert k.vector_plan is k.compile().plan  # kept with the compiled value, not planned again


def test_python_mode_fifo_has_the_depth_the_ir_has():
    """`hls.stream(T, depth=...)` in Python mode is the IR's FIFO: a value its depth expression read
    that changes after compiling does not give Python mode another depth than the C++ has."""
    DEPTHS[0] = 3
    k = Kernel(fifo_depth_kernel)
    (stream,) = [op for op in k.compile().module.top_function.walk() if isinstance(op, StreamOp)]
    assert stream.result.type.depth == 6 and "#pragma HLS stream variable=s depth=6" in k.cpp
    DEPTHS[0] = 50
    try:
        (fifo,) = k.dataflow_trace(np.arange(8, dtype=np.int32), np.zeros(8, dtype=np.int32)).fifos
    finally:
        DEPTHS[0] = 3
    assert (fifo.name, fifo.depth) == ("s", 6)


def test_schedule_module_times_the_region_it_is_given():
    """The sequential estimate and the one timed from the trace are two values; the second is what
    k.report() returns, its latency the timed region's (also the top's box in the call graph)."""
    module = sk.chain.compile().module
    trace = sk.chain.dataflow_trace()
    sequential = schedule_module(module)
    timed = schedule_module(module, dataflow=trace)
    assert sequential.dataflow is None and any(n.startswith("dataflow is not modelled") for n in sequential.notes)
    region = timed.dataflow
    assert region.latency is not None and region.latency != sequential.latency_max
    assert (timed.latency_min, timed.latency_max) == (region.latency, region.latency)
    assert (timed.interval_min, timed.interval_max) == (region.interval, region.interval)
    assert [n.latency_max for n in timed.nodes if n.name == timed.top] == [region.latency]
    assert not any(n.startswith("dataflow is not modelled") for n in timed.notes)
    assert f"would take {sequential.latency_max} cycles" in timed.notes[-1]
    assert schedule_module(module).to_dict() == sequential.to_dict()  # the sequential value was not changed
    assert sk.chain.report().to_dict() == timed.to_dict()


def test_an_untimed_region_says_why():
    module = sk.chain.compile().module
    sequential = schedule_module(module)
    untimed = schedule_module(module, dataflow=Untimed("no inputs"))
    assert untimed.dataflow is None and untimed.latency_max == sequential.latency_max
    assert untimed.notes == [*sequential.notes,
                             "dataflow region not timed: Python mode on random inputs failed (no inputs)"]
