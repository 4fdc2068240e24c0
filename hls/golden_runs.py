"""The golden step of a kernel's journey: running the golden model on a `Compiled` kernel.

Three models compute the same answer: the user's statements with the declared types' semantics
(Python mode, `Compiled.golden`), the unoptimised IR on whole numpy arrays (`Compiled.plan`) and the
same IR compiled by numba (`Compiled.program`). `GoldenRuns` keeps what outlives one run: the
hls.static values and the last dataflow trace. The inputs a run is given (random draws, an export's
vectors) are made here too, so csim, verify and export all start from the same golden data.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from hls.backend.codec import codec_for
from hls.compilation import Compiled
from hls.errors import HLSError, SimulationError
from hls.golden import jitrun, runtime
from hls.golden.streams import TRACES, UNBOUNDED, Stream, run_task
from hls.golden.vexec import run as run_numpy
from hls.ir.usage import usage
from hls.lang.axis import AxisType
from hls.project.export import GoldenVectors
from hls.schedule.dataflow import RawRegion, Untimed, raw_region
from hls.types import ArrayType, HLSType, StreamType
from hls.wording import type_expr

GOLDEN_MODES = ("auto", "numpy", "compiled", "python")
RANDOM_FRAME = 16  # packets in a random input frame when the kernel reads until TLAST


class GoldenRuns:
    """One kernel's golden side: its hls.static values in Python mode and the dataflow trace."""

    def __init__(self) -> None:
        self.state = runtime.State()
        self.trace: Any = None  # the last Python-mode run's dataflow scheduler (hls.golden.streams.Scheduler)
        self.region: RawRegion | None = None  # the trace kept for timing

    def run(self, name: str, compiled: Compiled, args: tuple[Any, ...], model: str, boundary: bool = True) -> Any:
        """One golden run with `model`; only the statement-by-statement model records a dataflow trace."""
        if len(args) != len(compiled.arg_types):
            raise SimulationError(f"{name} takes {len(compiled.arg_types)} arguments, got {len(args)}")
        views = [golden_arg(n, t, a, boundary)
                 for n, t, a in zip(compiled.arg_names, compiled.arg_types, args, strict=True)]
        TRACES.clear()
        # recording a dataflow trace needs the processes' events: Python mode, never the numpy model
        if model == "numpy" and not aliased(views) and not UNBOUNDED[0]:
            done, result = run_numpy(compiled.plan, views)
            if done:
                return result
        elif model == "compiled" and not UNBOUNDED[0]:
            done, result = compiled.program.run(views, compiled.return_type)
            if done:
                return result
        try:
            if compiled.task and boundary:  # free running: the body again while its inputs hold data
                return run_task(name, lambda: compiled.golden(*views))
            return compiled.golden(*views)
        except (ZeroDivisionError, IndexError, ValueError, OverflowError) as exc:
            raise SimulationError(f"in Python mode: {exc}", runtime.kernel_location(exc.__traceback__)) from None
        finally:
            if TRACES:
                self.trace = TRACES[-1]
                TRACES.clear()

    def dataflow_trace(self, name: str, compiled: Compiled, args: tuple[Any, ...]) -> RawRegion:
        """The region's trace from one Python-mode run on `args` (else the one kept, else random inputs)
        with unbounded local FIFOs, so that a design that deadlocks at its declared depths still yields
        its whole trace."""
        if args or self.region is None:
            inputs = list(args) if args else random_inputs(compiled, 0)
            UNBOUNDED[0] = True
            try:
                self.run(name, compiled, tuple(copied(a) for a in inputs), "python")
            finally:
                UNBOUNDED[0] = False
            self.region = raw_region(self.trace)
        return self.region

    def region_or_why(self, name: str, compiled: Compiled) -> RawRegion | Untimed:
        """What the schedule stage times a dataflow top from: the trace, or why it could not be recorded."""
        try:
            return self.dataflow_trace(name, compiled, ())
        except HLSError as exc:
            return Untimed(exc.message)


def region_process(name: str, kernel: Any, args: list[Any], results: dict[str, Any]) -> tuple:
    """A kernel as one process of a region run from Python (a System's): a free-running one is a task,
    its body once per iteration of the region's task loop past the boundary its caller crossed (as
    `GoldenRuns.run` does for a call from user code, with `run_task`); any other runs its whole call
    once, its return kept in `results`."""
    if kernel.free_running:
        return (name, lambda: kernel.run_golden(tuple(args), kernel.golden_model, boundary=False), (), name)
    return (name, lambda: results.__setitem__(name, kernel(*args)), ())


def choose_model(compiled: Compiled) -> str:
    """The golden model `k(...)` runs, "numpy", "compiled" or "python": HLS_GOLDEN forces one wherever
    it can run the kernel; by default the numpy model where it is worth it, else numba for long loops."""
    mode = os.environ.get("HLS_GOLDEN", "auto").lower()
    if mode not in GOLDEN_MODES:
        raise HLSError(f"HLS_GOLDEN must be one of {', '.join(GOLDEN_MODES)}, got {mode!r}")
    if mode == "python":
        return "python"
    if mode != "compiled":
        plan = compiled.plan
        if plan.supported and (mode == "numpy" or plan.fast):
            return "numpy"
        if mode == "numpy":
            return "python"
    if mode == "auto" and not compiled.worth_compiling:
        return "python"  # (numba is not even imported for it)
    if not jitrun.available():  # (looked up here: tests replace it)
        if mode == "compiled":
            raise HLSError("HLS_GOLDEN=compiled needs numba (pip install numba, or the hls[dev] extra)")
        return "python"
    return "compiled" if compiled.program.program.supported else "python"


def golden_arg(name: str, t: HLSType, value: Any, boundary: bool = True) -> Any:
    """A golden-model argument: checked by the codec at the boundary (a user's call), converted as an
    assignment converts for a sub-kernel call from golden code."""
    if isinstance(t, StreamType):
        if not isinstance(value, Stream) or value.elem != t.elem:
            raise SimulationError(f"argument {name!r} is a stream of {t.elem}: pass "
                                  f"hls.Stream({type_expr(t.elem)}, values) (input) or "
                                  f"hls.Stream({type_expr(t.elem)}) (output), "
                                  f"got {type(value).__name__}")
        if value.name == "stream":  # a top-level stream takes its parameter's name (in messages)
            value.name = name
        if boundary:
            codec_for(t).check_stream(name, value)
        return value
    if isinstance(t, ArrayType):
        if isinstance(value, runtime.ArrayView):
            if value.elem != t.elem or value.shape != t.shape:
                raise SimulationError(f"argument {name!r} must be {t}, got {value.elem}{list(value.shape)}")
            return runtime.ArrayView(value.data, t.elem, value.readonly, name)
        return runtime.ArrayView(codec_for(t).check(name, value), t.elem, name=name)
    if boundary:
        return codec_for(t).value(name, value)  # the csim boundary's own check: one rule for both
    if isinstance(value, (np.ndarray, runtime.ArrayView)):
        raise SimulationError(f"argument {name!r} is a scalar {t}, got an array")
    return t.convert(value)


def aliased(views: list[Any]) -> bool:
    """Two array arguments share memory: the numpy model's independence proofs assume they do not."""
    arrays = [v.data for v in views if isinstance(v, runtime.ArrayView)]
    return any(np.shares_memory(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1:])


def copied(value: Any) -> Any:
    return value.copy() if isinstance(value, (np.ndarray, Stream)) else value


def run_recording_overflows(golden: Any, args: list[Any]) -> tuple[Any, dict[str, Any]]:
    """`golden(*args)` and the wraps of declared values it made, by source line."""
    log = runtime.OVERFLOWS
    saved_events, saved_enabled = log.events, log.enabled
    log.events, log.enabled = {}, True
    try:
        return golden(*args), log.events
    finally:
        log.events, log.enabled = saved_events, saved_enabled


# ---- inputs ----------------------------------------------------------------------------------------


TASK_ITERATIONS = 16  # iterations of a task's body that random input streams feed (verify, export)


def random_inputs(compiled: Compiled, seed: int | list[int] = 0) -> list[Any]:
    """One random value per argument, from the codecs (verify's and export's first input set)."""
    rng = np.random.default_rng(seed)
    return [random_stream(compiled, t, index, rng) if isinstance(t, StreamType) else codec_for(t).random(rng)
            for index, t in enumerate(compiled.arg_types)]


def random_stream(compiled: Compiled, t: StreamType, index: int, rng: np.random.Generator) -> Stream:
    """An input stream with as many random items as the kernel reads (a constant count), an output
    stream empty."""
    func = compiled.module.top_function
    arg = func.args[index]
    used = usage(func.body.block.ops, compiled.module)
    if arg not in used.reads:
        return Stream(t.elem, name=arg.name)
    count = used.reads[arg]
    if count is not None and (compiled.task or any(op.attrs.get("task") and arg in op.operands
                                                   for op in func.body.block.ops)):
        count *= TASK_ITERATIONS  # a task reads that many per iteration: feed it several iterations
    if isinstance(t.elem, AxisType):  # a frame of packets, TLAST on its final one only (a kernel may read to it)
        frame = codec_for(ArrayType(t.elem, (count or RANDOM_FRAME,))).random(rng)
        frame["last"] = np.arange(len(frame)) == len(frame) - 1
        return Stream(t.elem, frame, name=arg.name)
    if count is None:
        raise SimulationError(f"argument {arg.name!r}: the number of items the kernel reads is not a constant; "
                              "pass the input streams, e.g. hls.Stream(hls.int32, values)")
    return Stream(t.elem, codec_for(ArrayType(t.elem, (count,))).random(rng), name=arg.name)


def golden_vectors(kernel: Any, compiled: Compiled, inputs: Any, seed: int) -> GoldenVectors:
    """The export's golden run as data: the inputs as written to tb/data, the arguments after the run
    and the return value. `inputs` (a sequence in argument order or a mapping by name) default to
    `kernel.random_inputs(seed)`; the kernel runs as a user's call runs it."""
    given = kernel.random_inputs(seed) if inputs is None else inputs
    args, before = golden_inputs(list(compiled.arg_names), list(compiled.arg_types), given)
    ret = kernel(*args)
    after = [np.asarray(a) if isinstance(a, Stream) else a for a in args]  # a stream: what is left in it
    return GoldenVectors(before, after, ret, inputs is not None)


def golden_inputs(names: list[str], types: list[Any], inputs: Any) -> tuple[list[Any], list[Any]]:
    """The arguments of the golden run (copies, in argument order) and the inputs as written to
    tb/data. `inputs` is a sequence in argument order or a mapping by name."""
    values = _ordered_inputs(names, inputs)
    args = [np.array(v, copy=True) if isinstance(v, np.ndarray) else v.copy() if isinstance(v, Stream) else v
            for v in values]
    before = []
    for name, t, value in zip(names, types, args, strict=True):
        if isinstance(t, StreamType):
            if isinstance(value, Stream):
                codec_for(t).check_stream(name, value)  # as the golden run and csim check them
            before.append(np.asarray(value))  # the items fed to the kernel
            continue
        if isinstance(t, ArrayType):
            before.append(value.copy() if isinstance(value, np.ndarray) else value)
            continue
        before.append(codec_for(t).value(name, value))  # as the golden run and csim check it
    return args, before


def _ordered_inputs(names: list[str], inputs: Any) -> list[Any]:
    if isinstance(inputs, Mapping):
        missing = [n for n in names if n not in inputs]
        extra = [n for n in inputs if n not in names]
        if missing or extra:
            raise HLSError(f"inputs: missing {missing}, unknown {extra}; the kernel takes {names}")
        return [inputs[n] for n in names]
    if isinstance(inputs, (str, bytes)) or not isinstance(inputs, Sequence):
        raise HLSError("inputs must be a sequence of argument values or a mapping by argument name")
    if len(inputs) != len(names):
        raise HLSError(f"inputs: the kernel takes {len(names)} arguments ({', '.join(names)}), got {len(inputs)}")
    return list(inputs)
