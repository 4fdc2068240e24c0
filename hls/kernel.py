"""`@hls.kernel`: one object ties the stages together (frontend -> passes -> backend -> sim)."""

from __future__ import annotations

import contextlib
import functools
import html
import inspect
import os
import pathlib
import sys
import time
import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from hls import verification
from hls.backend.codec import codec_for
from hls.backend.render import CppDesign, emit_module
from hls.defaults import DEFAULT_ATOL, DEFAULT_CLOCK_NS, DEFAULT_PART, DEFAULT_RTOL, PIPELINE_LOOPS
from hls.errors import HLSError, OverflowReport, OverflowWarning, SimulationError, VerificationError
from hls.frontend.build import build_module, names_used, spell_value
from hls.frontend.source import enclosing_names
from hls.golden import runtime
from hls.golden.rewrite import make_golden
from hls.golden.streams import TRACES, UNBOUNDED, Stream
from hls.interfaces import check_flow
from hls.ir import Module, print_module, verify_module
from hls.lang.axis import AxisType
from hls.passes import UnrollLoopsPass, default_pipeline, run_passes
from hls.passes.clone import clone_module
from hls.types import ArrayType, HLSType, ScalarType, StreamType, TupleType
from hls.verification import DEFAULT_TRIALS, VerifyResult
from hls.wording import decimal, type_expr


@dataclass
class Compiled:
    module: Module
    design: CppDesign
    golden: Any
    arg_types: list[HLSType]
    arg_names: list[str]
    return_type: ScalarType | TupleType | ArrayType | None
    ir_text: str
    callees: list[Any]
    origin: str = ""
    processes: bool = False  # the top is a dataflow region
    cpp_module: Module | None = None  # what the C++ is written from, when it differs from `module`


class Kernel:
    """A typed Python function that is also a hardware kernel."""

    def __init__(self, func: Any, flow: str = "vitis"):
        if not inspect.isfunction(func):
            raise HLSError(f"@hls.kernel decorates plain functions, got {type(func).__name__}")
        self.flow = check_flow(flow)  # the interfaces of the C++, the estimate and the export (hls/interfaces.py)
        functools.update_wrapper(self, func)
        self.__hls_kernel__ = func
        self.__hls_enclosing__ = enclosing_names(func)  # read as they are when the decorator runs
        self.__hls_params__: dict[str, Any] = {}  # compile-time parameters set by specialize()
        self._compiled: dict[str, Compiled] = {}  # per flow: the same IR, the flow's interface pragmas
        self._state = runtime.State()  # hls.static locals in Python mode
        self._plan: Any = None
        self._unoptimized: Module | None = None  # the IR of the numpy and compiled golden models
        self._jit: Any = None  # hls.golden.jitrun.CompiledGolden
        self._worth: bool | None = None  # enough work for the compiled golden model by default
        self._csim: dict[tuple[str, ...], Any] = {}
        self._trace: Any = None  # the last Python-mode run's dataflow trace (hls.golden.streams.Scheduler)
        self._region: Any = None  # the trace kept for timing (hls.schedule.dataflow.RawRegion)

    def specialize(self, **params: Any) -> Kernel:
        """A copy of this kernel with compile-time names rebound: `total.specialize(N=16, T=hls.int8)`.

        The names may be module globals or enclosing-function names the kernel uses (in annotations,
        shapes, bounds, directive options or as constants); the copy gets its own C++ name
        (`total_16_int8`) unless `__name__` is set on it.
        """
        func = self.__hls_kernel__
        unknown = sorted(set(params) - names_used(func))
        if unknown:
            raise HLSError(f"specialize(): {func.__name__} does not use {', '.join(map(repr, unknown))}")
        copy = Kernel(func, self.flow)
        copy.__hls_enclosing__ = {**self.__hls_enclosing__, **params}
        copy.__hls_params__ = {**self.__hls_params__, **params}
        suffix = "_".join(part for part in (spell_value(v) for v in params.values()) if part)
        copy.__name__ = f"{self.__name__}_{suffix}" if suffix else self.__name__
        return copy

    # ---- compilation ---------------------------------------------------------------------------

    def compile(self, flow: str | None = None) -> Compiled:
        """The IR, the C++ for `flow` (default: the kernel's) and the golden model, built once."""
        flow = self.flow if flow is None else check_flow(flow)
        if flow not in self._compiled:
            if self._compiled:
                other = next(iter(self._compiled.values()))
                source = other.cpp_module or other.module
                self._compiled[flow] = replace(other, design=emit_module(source, other.origin, flow))
                return self._compiled[flow]
            module, info, src = build_module(self)
            verify_module(module)
            self._unoptimized = clone_module(module)
            cpp_module = loops_kept(module)
            run_passes(module)
            verify_module(module)
            ir_text = print_module(module)
            origin = f"{os.path.basename(src.file)}:{src.tree.lineno}"
            design = emit_module(cpp_module or module, origin, flow)
            golden = make_golden(src, info, self._state)
            self._compiled[flow] = Compiled(module, design, golden, info.arg_types, info.arg_names,
                                            info.return_type, ir_text, info.callees, origin, bool(info.processes),
                                            cpp_module)
        return self._compiled[flow]

    @property
    def ir(self) -> str:
        return self.compile().ir_text

    @property
    def cpp(self) -> str:
        return self.compile().design.kernel_cpp

    @property
    def mlir(self) -> str:
        """The kernel and its sub-kernels in upstream MLIR dialects (docs/mlir.md)."""
        from hls.backend.mlir import emit_mlir

        return emit_mlir(self.compile().module)

    @property
    def header(self) -> str:
        return self.compile().design.header

    # ---- Python mode ---------------------------------------------------------------------------

    def __call__(self, *args: Any) -> Any:
        # a call from a kernel's golden model is a sub-kernel call: its arguments convert (and wrap) as
        # the C++ call does; a call from user code crosses the boundary, which refuses what csim refuses
        boundary = sys._getframe(1).f_code not in runtime.GOLDEN_CODES
        return self.run_golden(args, self.golden_model, boundary)

    def run_golden(self, args: tuple[Any, ...], model: str, boundary: bool = True) -> Any:
        """One golden run with `model` ("numpy" or "python"); only the statement-by-statement model
        records a dataflow trace (the report times the region from it)."""
        compiled = self.compile()
        if len(args) != len(compiled.arg_types):
            raise SimulationError(f"{self.__name__} takes {len(compiled.arg_types)} arguments, got {len(args)}")
        views = [golden_arg(n, t, a, boundary)
                 for n, t, a in zip(compiled.arg_names, compiled.arg_types, args, strict=True)]
        TRACES.clear()
        # recording a dataflow trace needs the processes' events: Python mode, never the numpy model
        if model == "numpy" and not aliased(views) and not UNBOUNDED[0]:
            from hls.golden.vexec import run

            done, result = run(self.vector_plan, views)
            if done:
                return result
        elif model == "compiled" and not UNBOUNDED[0]:
            done, result = self.compiled_golden.run(views, compiled.return_type)
            if done:
                return result
        try:
            return compiled.golden(*views)
        except (ZeroDivisionError, IndexError, ValueError, OverflowError) as exc:
            raise SimulationError(f"in Python mode: {exc}", runtime.kernel_location(exc.__traceback__)) from None
        finally:
            if TRACES:
                self._trace = TRACES[-1]
                TRACES.clear()

    @property
    def vector_plan(self) -> Any:
        """Which loops the numpy golden model runs as whole arrays, and why it cannot when it cannot."""
        if self._plan is None:
            from hls.golden.vplan import plan_kernel

            self._plan = plan_kernel(self._golden_ir())
        return self._plan

    def _golden_ir(self) -> Module:
        """The IR the numpy and compiled golden models run: unoptimized, so dead code still converts,
        wraps and raises."""
        self.compile()  # the frontend's build, copied before passes
        return self._unoptimized

    @property
    def compiled_golden(self) -> Any:
        """The kernel's IR compiled by numba (hls/golden/jit.py); `.program.reason` says why it cannot be."""
        if self._jit is None:
            from hls.golden.jit import compile_module
            from hls.golden.jitrun import CompiledGolden

            self._jit = CompiledGolden(compile_module(self._golden_ir()))
        return self._jit

    @property
    def golden_model(self) -> str:
        """"numpy" when `k(...)` runs the kernel's IR on whole arrays, "compiled" when it runs the IR
        compiled by numba element by element, "python" when it runs the user's statements. HLS_GOLDEN=
        python|numpy|compiled forces one wherever it can run the kernel at all; by default the numpy
        model where it is worth it, else the compiled one for long loops (when numba is installed)."""
        mode = os.environ.get("HLS_GOLDEN", "auto").lower()
        if mode not in GOLDEN_MODES:
            raise HLSError(f"HLS_GOLDEN must be one of {', '.join(GOLDEN_MODES)}, got {mode!r}")
        if mode == "python":
            return "python"
        if mode != "compiled":
            plan = self.vector_plan
            if plan.supported and (mode == "numpy" or plan.fast):
                return "numpy"
            if mode == "numpy":
                return "python"
        from hls.golden.jit import worth_compiling
        from hls.golden.jitrun import available

        if mode == "auto":
            if self._worth is None:
                self._worth = worth_compiling(self._golden_ir())
            if not self._worth:
                return "python"  # (numba is not even imported for it)
        if not available():
            if mode == "compiled":
                raise HLSError("HLS_GOLDEN=compiled needs numba (pip install numba, or the hls[dev] extra)")
            return "python"
        return "compiled" if self.compiled_golden.program.supported else "python"

    # ---- C simulation --------------------------------------------------------------------------

    def csim(self, *args: Any, extra_flags: tuple[str, ...] = ()) -> Any:
        return self._library(tuple(extra_flags)).run(args)

    def _library(self, extra_flags: tuple[str, ...]) -> Any:
        from hls.sim.csim import CompiledKernel

        if extra_flags not in self._csim:
            self._csim[extra_flags] = CompiledKernel(self.compile().design, extra_flags)
        return self._csim[extra_flags]

    def reset(self) -> None:
        """Restore every `hls.static` local (this kernel's and its sub-kernels') to its initial value,
        in Python mode and in every csim library loaded for this kernel."""
        self._state.clear()
        callees = next(iter(self._compiled.values())).callees if self._compiled else []  # the same for every flow
        for callee in callees:
            callee.reset()
        for library in self._csim.values():
            library.reset()

    def report(self, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART, flow: str | None = None,
               pipeline_loops: int = PIPELINE_LOOPS) -> Any:
        """The schedule estimate (latency, II per loop with its limiter, resources) of the design `flow`
        (default: the kernel's) compiles to; its C++ is checked first, so both describe one design."""
        from hls.schedule import schedule_module

        flow = self.flow if flow is None else flow
        compiled = self.compile(flow)
        report = schedule_module(compiled.module, clock_ns=clock_ns, part=part, flow=flow,
                                 pipeline_loops=pipeline_loops)
        if compiled.processes:
            add_dataflow(self, report)
        return report

    def size_fifos(self, *args: Any, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART) -> dict[str, int]:
        """{FIFO name: depth}: per local FIFO of the dataflow region, the smallest depth that does not
        deadlock and keeps the best latency and interval (hls.schedule.fifo_timing.size_fifos). The
        trace comes from one Python-mode run (on `args`, else the last one recorded, else random
        inputs) and is reused for every depth tried."""
        from hls.schedule import schedule_module
        from hls.schedule.dataflow import sized_depths

        if not self.compile().processes:
            raise HLSError(f"{self.__name__} has no dataflow region (hls.dataflow()): there are no FIFOs to size")
        report = schedule_module(self.compile().module, clock_ns=clock_ns, part=part)
        return sized_depths(self.dataflow_trace(*args), report)

    def dataflow_trace(self, *args: Any) -> Any:
        """The region's trace (hls.schedule.dataflow.RawRegion), recorded once with unbounded local
        FIFOs, so that a design that deadlocks at its declared depths still yields its whole trace."""
        if args or self._region is None:
            inputs = list(args) if args else self.random_inputs(0)
            UNBOUNDED[0] = True
            try:
                self.run_golden(tuple(a.copy() if isinstance(a, (np.ndarray, Stream)) else a for a in inputs), "python")
            finally:
                UNBOUNDED[0] = False
            self._region = raw_region(self._trace)
        return self._region

    def _repr_html_(self) -> str:
        """Jupyter: the C++ (highlighted) and the report page inline; an HLSError shows as its message."""
        from hls.report.html import kernel_fragment

        try:
            return kernel_fragment(self.report(), self.cpp)
        except HLSError as exc:
            return f"<pre>{html.escape(str(exc))}</pre>"

    def export(self, path: Any, part: str = DEFAULT_PART, clock_ns: float = DEFAULT_CLOCK_NS, inputs: Any = None,
               flow: str | None = None, seed: int = 0, overwrite: bool = False, rtol: float = DEFAULT_RTOL,
               atol: float = DEFAULT_ATOL) -> Any:
        """Write a Vitis HLS project (sources, testbench with golden data, TCL, cfg, Makefile) and return
        its directory. `inputs` (a sequence in argument order or a mapping by name) default to random
        values from `seed`, as verify() draws them. The golden run and the estimate happen here; the
        project stage (hls/project/export.py) gets their results as data. The testbench calls the kernel
        once from its initial state, so hls.static state is reset before the golden run."""
        from hls import progress
        from hls.project import export as project

        settings = project.check_settings(part, clock_ns, self.flow if flow is None else flow, seed, rtol, atol)
        compiled = self.compile(settings.flow)
        project.check_design(compiled.design)  # fail before the golden run: a port csim cannot carry,
        project.prepare_root(pathlib.Path(path), overwrite)  # a non-empty target
        with progress.task(f"exporting {compiled.design.top} (golden run, estimate)"):
            self.reset()
            given = self.random_inputs(seed) if inputs is None else inputs
            args, before = project.golden_inputs(list(compiled.arg_names), list(compiled.arg_types), given)
            ret = self(*args)
            after = [np.asarray(a) if isinstance(a, Stream) else a for a in args]  # a stream: what is left in it
            try:
                estimate, error = self.report(clock_ns=settings.clock_ns, part=settings.part, flow=settings.flow), None
            except HLSError as exc:
                estimate, error = None, str(exc).splitlines()[0]
            vectors = project.GoldenVectors(before, after, ret, inputs is not None)
            return project.export_project(compiled.design, vectors, path, settings, estimate=estimate,
                                          estimate_error=error, overwrite=overwrite)

    def random_inputs(self, seed: int | list[int] = 0) -> list[Any]:
        compiled = self.compile()
        rng = np.random.default_rng(seed)
        return [random_stream(self, t, index, rng) if isinstance(t, StreamType) else codec_for(t).random(rng)
                for index, t in enumerate(compiled.arg_types)]

    def verify(self, *args: Any, golden: Any = None, rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
               seed: int = 0, strict_overflow: bool | None = None, trials: int = DEFAULT_TRIALS) -> VerifyResult:
        """Golden model and csim on copies of the same inputs; every output compared.

        Given `args`, on those. Otherwise on `trials` input sets (hls/verification.py): the first is
        `random_inputs(seed)`, then edge values (every value of an argument at its type's max, min, 0,
        -1) and more random draws, so both sides of a data-dependent branch run. A random draw whose
        golden run wraps a declared value is drawn again with fewer magnitude bits; only a wrap that
        remains at 1 bit, or one on given inputs, is reported, once per source line, as an
        `hls.OverflowWarning` (an `hls.OverflowReport` error when strict). Wraps on edge values are
        not reported (result["edge_overflows"]). The result holds the first set's "inputs", "outputs"
        and "return", each set's label ("trials") and the branch coverage the golden model reached
        ("coverage", also `result.coverage`; its str is a one-line summary).
        """
        from hls import progress

        if trials < 1:
            raise HLSError(f"verify(trials={trials}): at least one input set is needed")
        with progress.task(f"verifying {self.__name__} (golden model and csim)"):
            return self._verify(args, golden, rtol, atol, seed, strict_overflow, trials)

    def _verify(self, args: tuple[Any, ...], golden: Any, rtol: float, atol: float, seed: int,
                strict_overflow: bool | None, trials: int) -> VerifyResult:
        compiled = self.compile()
        tracer = verification.tracer_for(self.__hls_kernel__, compiled.golden)
        traced_call = golden is None and self.golden_model == "python"  # else a Python-mode run of its own
        result = VerifyResult(tracer.coverage)
        reported: dict[str, Any] = {}
        level = 0
        for index, kind in enumerate(["given"] if args else verification.trial_kinds(trials)):
            base = list(args) if args else self.random_inputs(seed if index == 0 else [seed, index])
            if kind.startswith("edge"):
                base = [verification.edge_value(t, v, kind[5:]) for t, v in zip(compiled.arg_types, base, strict=True)]
            started = time.monotonic()
            try:
                if kind == "random":
                    run, level = self._fitting_run(base, level, golden, tracer, traced_call)
                else:
                    run = self._golden_run(base, golden, tracer, traced_call)
            except (SimulationError, verification.TooSlow) as exc:
                if index == 0:
                    raise
                tracer.discard()
                result["skipped"].append(f"{kind}: {getattr(exc, 'message', exc)}")
                continue
            finally:
                tracer.deadline = None
            if index == 0:
                budget = max(verification.MIN_BUDGET, verification.SLOW * (time.monotonic() - started))
            label = verification.level_label(level) if kind == "random" else kind
            self._csim_compare(run, rtol, atol, result, f"{label} inputs" if index else "")
            tracer.commit()
            (result["edge_overflows"] if kind.startswith("edge") else reported).update(run.overflows)
            result["trials"].append(label)
            tracer.budget = budget
        report_overflows(reported, STRICT_OVERFLOW[0] if strict_overflow is None else strict_overflow)
        result["overflows"] = reported
        return result

    def _fitting_run(self, base: list[Any], level: int, golden: Any, tracer: Any, traced_call: bool) -> Any:
        """A random draw's golden run at the first magnitude level from `level` on where no declared
        value wraps, or at the last level (then the wrap is real); returns (run, level)."""
        types = self.compile().arg_types
        while True:
            inputs = [verification.scaled(t, v, level) for t, v in zip(types, base, strict=True)]
            run = self._golden_run(inputs, golden, tracer, traced_call)
            if not run.overflows or level == verification.LEVELS - 1:
                return run, level
            tracer.discard()
            level += 1

    def _golden_run(self, inputs: list[Any], golden: Any, tracer: Any, traced_call: bool) -> Any:
        """The golden model on copies of `inputs`, from the initial state (hls.static), traced for coverage."""
        self.reset()  # golden and csim both start from the initial state
        golden_args = [copied(a) for a in inputs]
        tracer.deadline = None if tracer.budget is None else time.monotonic() + tracer.budget
        with tracer.active() if traced_call and (tracer.wanted() or tracer.budget) else contextlib.nullcontext():
            expected, overflows = self.run_recording_overflows(golden or self, golden_args)
        if not traced_call and tracer.wanted():  # the numpy model or the user's function ran: the statements too
            compiled = self.compile()
            views = [golden_arg(n, t, copied(a)) for n, t, a in zip(compiled.arg_names, compiled.arg_types, inputs,
                                                                     strict=True)]
            with tracer.active(), contextlib.suppress(Exception):  # coverage only: the checked run is above
                compiled.golden(*views)
        return verification.GoldenRun(inputs, golden_args, expected, overflows)

    def _csim_compare(self, run: Any, rtol: float, atol: float, result: VerifyResult, context: str) -> None:
        """csim on copies of the run's inputs, every output compared; the first set fills the result."""
        compiled = self.compile()
        csim_args = [copied(a) for a in run.inputs]
        actual = self.csim(*csim_args)
        compared = []
        try:
            for name, t, g, c in zip(compiled.arg_names, compiled.arg_types, run.golden_args, csim_args, strict=True):
                if isinstance(t, (ArrayType, StreamType)):  # a stream: what it holds after the call
                    codec_for(t.elem).compare(name, g, c, rtol, atol)
                    compared.append(name)
            compared += compare_results(compiled.return_type, run.expected, actual, rtol, atol)
        except VerificationError as exc:
            if not context:
                raise
            raise VerificationError(f"{exc.message} (on the {context})", exc.loc) from None
        if "compared" not in result:
            result.update({"compared": compared, "inputs": run.inputs, "outputs": run.golden_args,
                           "return": run.expected})

    @staticmethod
    def run_recording_overflows(golden: Any, args: list[Any]) -> tuple[Any, dict[str, Any]]:
        log = runtime.OVERFLOWS
        saved_events, saved_enabled = log.events, log.enabled
        log.events, log.enabled = {}, True
        try:
            return golden(*args), log.events
        finally:
            log.events, log.enabled = saved_events, saved_enabled


def copied(value: Any) -> Any:
    return value.copy() if isinstance(value, (np.ndarray, Stream)) else value


def compare_results(t: Any, expected: Any, actual: Any, rtol: float, atol: float) -> list[str]:
    """The returned value(s): one scalar, each element of a tuple, or a returned array."""
    if t is None:
        return []
    if isinstance(t, TupleType):
        for i, elem in enumerate(t.elems):
            codec_for(elem).compare(f"return value {i}", expected[i], actual[i], rtol, atol)
        return [f"return[{i}]" for i in range(len(t.elems))]
    codec_for(t.elem if isinstance(t, ArrayType) else t).compare("return value", expected, actual, rtol, atol)
    return ["return"]


def loops_kept(module: Module) -> Module | None:
    """The module the C++ is written from when a loop carries `hls.unroll()`: built again and optimised
    without the unroll pass, so the loop stays a loop with `#pragma HLS unroll` as the user wrote it.
    The estimate, the MLIR and the golden model keep the unrolled module (`Compiled.module`), so the
    estimate never reads the C++. None when no loop asks for an unroll (one module serves both)."""
    if not any(getattr(op, "unroll", None) is not None and not op.unroll.off
               for func in module.functions.values() for op in func.walk()):
        return None
    kept = clone_module(module)
    run_passes(kept, [p for p in default_pipeline() if not isinstance(p, UnrollLoopsPass)])
    verify_module(kept)
    return kept


STRICT_OVERFLOW = [False]
GOLDEN_MODES = ("auto", "numpy", "compiled", "python")


def aliased(views: list[Any]) -> bool:
    """Two array arguments share memory: the numpy model's independence proofs assume they do not."""
    arrays = [v.data for v in views if isinstance(v, runtime.ArrayView)]
    return any(np.shares_memory(a, b) for i, a in enumerate(arrays) for b in arrays[i + 1:])


def strict_overflow(enabled: bool = True) -> None:
    """Make every wrap or saturation of a declared value in `verify()` an error (not a warning)."""
    STRICT_OVERFLOW[0] = enabled


def report_overflows(events: dict[str, Any], strict: bool) -> None:
    """Warn (or raise) once per overflowing source line; the warning points at the caller of verify()."""
    for site, (t, before, after) in events.items():
        message = f"{site}: {decimal(before)} does not fit {t} and became {decimal(after)}; write an explicit " \
                  f"conversion ({type_expr(t)}(...)) if the wrap is intended"
        if strict:
            raise OverflowReport(message)
        warnings.warn(message, OverflowWarning, stacklevel=4)


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


def raw_region(scheduler: Any) -> Any:
    """Plain data for the schedule stage: each process's events with region FIFOs named, top-level
    streams left out (the testbench or the AXI-stream partner feeds them, not a FIFO of the region)."""
    from hls.schedule.dataflow import RawProcess, RawRegion
    from hls.schedule.fifo_timing import FifoSpec
    from hls.schedule.memory import bit_width

    fifos: dict[str, FifoSpec] = {}
    processes = []
    for process in scheduler.processes:
        events = []
        for event in process.events:
            if event[0] != "A":
                events.append(event)
            elif event[1].depth is not None:
                stream = event[1]
                fifos.setdefault(stream.name, FifoSpec(stream.name, bit_width(stream.elem), stream.depth))
                events.append(("A", stream.name, event[2], event[3]))
        processes.append(RawProcess(process.name, events, list(process.after)))
    return RawRegion(processes, list(fifos.values()))


def add_dataflow(k: Kernel, report: Any) -> None:
    """The timed region in the report: its latency and interval replace the sequential estimate."""
    from hls.schedule.dataflow import time_region

    try:
        region = k.dataflow_trace()
    except HLSError as exc:
        report.notes.append(f"dataflow region not timed: Python mode on random inputs failed ({exc.message})")
        return
    timed = time_region(region, report)
    report.dataflow = timed
    report.notes = [n for n in report.notes if not n.startswith("dataflow is not modelled")]
    if timed.latency is not None:
        report.notes.append(f"dataflow: latency and interval from the timed simulation of the region (the processes "
                            f"one after the other would take {report.latency_max} cycles)")
        report.latency_min = report.latency_max = timed.latency
        report.interval_min = report.interval_max = timed.interval
        for node in report.nodes:  # the top's box in the call graph: the region's latency, not the sum
            if node.name == report.top:
                node.latency_min = node.latency_max = timed.latency


RANDOM_FRAME = 16  # packets in a random input frame when the kernel reads until TLAST


def random_stream(k: Kernel, t: StreamType, index: int, rng: np.random.Generator) -> Stream:
    """An input stream with as many random items as the kernel reads (a constant count), an output
    stream empty."""
    from hls.ir.usage import usage

    func = k.compile().module.top_function
    arg = func.args[index]
    used = usage(func.body.block.ops, k.compile().module)
    if arg not in used.reads:
        return Stream(t.elem, name=arg.name)
    count = used.reads[arg]
    if isinstance(t.elem, AxisType):  # a frame of packets, TLAST on its final one only (a kernel may read to it)
        frame = codec_for(ArrayType(t.elem, (count or RANDOM_FRAME,))).random(rng)
        frame["last"] = np.arange(len(frame)) == len(frame) - 1
        return Stream(t.elem, frame, name=arg.name)
    if count is None:
        raise SimulationError(f"argument {arg.name!r}: the number of items the kernel reads is not a constant; "
                              "pass the input streams, e.g. hls.Stream(hls.int32, values)")
    return Stream(t.elem, codec_for(ArrayType(t.elem, (count,))).random(rng), name=arg.name)


def kernel(func: Any = None, *, flow: str = "vitis") -> Any:
    """Decorator: make a typed Python function an HLS kernel; `@hls.kernel(flow="vivado")` selects the
    Vivado IP flow's default interfaces (hls/interfaces.py) for its C++, estimate and export."""
    if func is None:
        check_flow(flow)
        return lambda f: Kernel(f, flow)
    return Kernel(func, flow)
