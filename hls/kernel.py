"""`@hls.kernel`: the facade of a kernel's journey, compile -> golden -> schedule -> csim -> export.

Each step is a function of the one before's values (hls/compilation.py, hls/golden_runs.py,
hls/schedule, hls/sim, hls/project; verify() in hls/verification.py); `Kernel` only sequences them
and keeps what outlives a call: the compiled value per flow, the golden state, the csim libraries.
"""

from __future__ import annotations

import functools
import html
import inspect
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from hls import progress, verification
from hls.backend.mlir.emit import emit_mlir
from hls.compilation import Compiled, compile_kernel, for_flow
from hls.defaults import DEFAULT_ATOL, DEFAULT_CLOCK_NS, DEFAULT_PART, DEFAULT_RTOL, PIPELINE_LOOPS
from hls.errors import HLSError
from hls.frontend.build import names_used, spell_value
from hls.frontend.source import enclosing_names
from hls.golden import runtime
from hls.golden.jitrun import CompiledGolden
from hls.golden.vplan import Plan
from hls.golden_runs import GoldenRuns, choose_model, golden_vectors, random_inputs, run_recording_overflows
from hls.interfaces import check_flow
from hls.project.export import ExportSettings, check_target, export_project
from hls.project.movers import Mover, mover_plan
from hls.report.html import kernel_fragment
from hls.schedule import Report, schedule_module
from hls.schedule.dataflow import RawRegion, sized_depths
from hls.sim.csim import CompiledKernel
from hls.system import mover_depths
from hls.verification import DEFAULT_TRIALS, VerifyResult
from hls.verification import strict_overflow as strict_overflow  # hls.strict_overflow


class Kernel:
    """A typed Python function that is also a hardware kernel."""

    directives_tcl: str | None = None  # a directives.tcl the export carries (a schedule's, hls/customize)

    def __init__(self, func: Any, flow: str = "vitis", is_task: bool = False):
        if not inspect.isfunction(func):
            what = "task" if is_task else "kernel"
            raise HLSError(f"@hls.{what} decorates plain functions, got {type(func).__name__}")
        self.flow = check_flow(flow)  # the interfaces of the C++, the estimate and the export (hls/interfaces.py)
        self.is_task = is_task  # @hls.task: its body runs forever on streams (hls::task, docs/dataflow.md)
        functools.update_wrapper(self, func)
        self.__hls_kernel__ = func
        self.__hls_enclosing__ = enclosing_names(func)  # read as they are when the decorator runs
        self.__hls_params__: dict[str, Any] = {}  # compile-time parameters set by specialize()
        self._compiled: dict[str, Compiled] = {}  # per flow: the same IR, the flow's interface pragmas
        self._golden = GoldenRuns()  # hls.static values in Python mode, the last dataflow trace
        self._csim: dict[tuple[str, ...], CompiledKernel] = {}

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
        copy = Kernel(func, self.flow, self.is_task)
        copy.__hls_enclosing__ = {**self.__hls_enclosing__, **params}
        copy.__hls_params__ = {**self.__hls_params__, **params}
        suffix = "_".join(part for part in (spell_value(v) for v in params.values()) if part)
        copy.__name__ = f"{self.__name__}_{suffix}" if suffix else self.__name__
        return copy

    @property
    def free_running(self) -> bool:
        """A task as a top kernel: `ap_ctrl_none`, no start/done handshake, it runs while data comes."""
        return self.is_task

    def compile(self, flow: str | None = None) -> Compiled:
        """The IR, the C++ for `flow` (default: the kernel's) and the golden model, built once."""
        flow = self.flow if flow is None else check_flow(flow)
        if flow not in self._compiled:
            other = next(iter(self._compiled.values()), None)  # another flow's: its IR, with this flow's C++
            made = compile_kernel(self, flow, self._golden.state) if other is None else for_flow(other, flow)
            self._compiled[flow] = made
        return self._compiled[flow]

    @property
    def ir(self) -> str:
        return self.compile().ir_text

    @property
    def cpp(self) -> str:
        return self.compile().design.kernel_cpp

    @property
    def header(self) -> str:
        return self.compile().design.header

    @property
    def mlir(self) -> str:
        """The kernel and its sub-kernels in upstream MLIR dialects (docs/mlir.md)."""
        return emit_mlir(self.compile().module)

    @property
    def vector_plan(self) -> Plan:
        """Which loops the numpy golden model runs as whole arrays, and why it cannot when it cannot."""
        return self.compile().plan

    @property
    def compiled_golden(self) -> CompiledGolden:
        """The kernel's IR compiled by numba (hls/sim/jit.py); `.program.reason` says why it cannot be."""
        return self.compile().program

    @property
    def golden_model(self) -> str:
        """The model `k(...)` runs: "numpy", "compiled" or "python" (hls.golden_runs.choose_model, HLS_GOLDEN)."""
        return choose_model(self.compile())

    run_recording_overflows = staticmethod(run_recording_overflows)

    def __call__(self, *args: Any) -> Any:
        # a call from a kernel's golden model is a sub-kernel call: its arguments convert (and wrap) as
        # the C++ call does; a call from user code crosses the boundary, which refuses what csim refuses
        boundary = sys._getframe(1).f_code not in runtime.GOLDEN_CODES
        return self.run_golden(args, self.golden_model, boundary)

    def run_golden(self, args: tuple[Any, ...], model: str, boundary: bool = True) -> Any:
        """One golden run with `model` ("numpy", "compiled" or "python"); only the statement-by-statement
        model records a dataflow trace (the report times the region from it)."""
        return self._golden.run(self.__name__, self.compile(), args, model, boundary)

    def random_inputs(self, seed: int | list[int] = 0) -> list[Any]:
        return random_inputs(self.compile(), seed)

    def csim(self, *args: Any, extra_flags: tuple[str, ...] = ()) -> Any:
        return self._library(tuple(extra_flags)).run(args)

    def _library(self, extra_flags: tuple[str, ...]) -> CompiledKernel:
        if extra_flags not in self._csim:
            self._csim[extra_flags] = CompiledKernel(self.compile().design, extra_flags)
        return self._csim[extra_flags]

    def reset(self) -> None:
        """Restore every `hls.static` local (this kernel's and its sub-kernels') to its initial value,
        in Python mode and in every csim library loaded for this kernel."""
        self._golden.state.clear()
        callees = next(iter(self._compiled.values())).callees if self._compiled else []  # the same for every flow
        for callee in callees:
            callee.reset()
        for library in self._csim.values():
            library.reset()

    def report(self, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART, flow: str | None = None,
               pipeline_loops: int = PIPELINE_LOOPS) -> Report:
        """The schedule estimate (latency, II per loop with its limiter, resources) of the design `flow`
        (default: the kernel's) compiles to; its C++ is checked first, so both describe one design. A
        dataflow region is timed from a Python-mode trace on random inputs."""
        flow = self.flow if flow is None else flow
        compiled = self.compile(flow)
        trace = self._golden.region_or_why(self.__name__, self.compile()) if compiled.processes else None
        return schedule_module(compiled.module, clock_ns=clock_ns, part=part, flow=flow,
                               pipeline_loops=pipeline_loops, dataflow=trace)

    def size_fifos(self, *args: Any, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART) -> dict[str, int]:
        """{FIFO name: depth}: per local FIFO of the dataflow region, the smallest depth that does not
        deadlock and keeps the best latency and interval (hls.schedule.fifo_timing.size_fifos). The
        trace comes from one Python-mode run (on `args`, else the last one recorded, else random
        inputs) and is reused for every depth tried."""
        if not self.compile().processes:
            raise HLSError(f"{self.__name__} has no dataflow region (hls.dataflow()): there are no FIFOs to size")
        report = schedule_module(self.compile().module, clock_ns=clock_ns, part=part)
        return sized_depths(self.dataflow_trace(*args), report)

    def dataflow_trace(self, *args: Any) -> RawRegion:
        """The region's trace (hls.schedule.dataflow.RawRegion): recorded once, on `args` or random inputs,
        with unbounded local FIFOs, so that a design that deadlocks at its declared depths still yields it."""
        return self._golden.dataflow_trace(self.__name__, self.compile(), args)

    def _repr_html_(self) -> str:
        """Jupyter: the C++ (highlighted) and the report page inline; an HLSError shows as its message."""
        try:
            return kernel_fragment(self.report(), self.cpp)
        except HLSError as exc:
            return f"<pre>{html.escape(str(exc))}</pre>"

    def export(self, path: Any, part: str = DEFAULT_PART, clock_ns: float = DEFAULT_CLOCK_NS, inputs: Any = None,
               flow: str | None = None, seed: int = 0, overwrite: bool = False, rtol: float = DEFAULT_RTOL,
               atol: float = DEFAULT_ATOL) -> Path:
        """Write a Vitis HLS project (sources, testbench with golden data, TCL, cfg, Makefile) and return
        its directory. `inputs` (a sequence in argument order or a mapping by name) default to random
        values from `seed`, as verify() draws them. The golden run and the estimate happen here; the
        project stage (hls/project/export.py) gets their results as data. The testbench calls the kernel
        once from its initial state, so hls.static state is reset before the golden run."""
        settings = ExportSettings(part, clock_ns, self.flow if flow is None else flow, seed, rtol, atol, overwrite)
        compiled = self.compile(settings.flow)
        check_target(compiled, settings, path)  # fail before the golden run: a port csim cannot carry, a full folder
        with progress.task(f"exporting {compiled.design.top} (golden run, estimate)"):
            self.reset()
            vectors = golden_vectors(self, compiled, inputs, seed)
            try:
                report: Report | str = self.report(clock_ns=settings.clock_ns, part=settings.part, flow=settings.flow)
            except HLSError as exc:
                report = str(exc).splitlines()[0]
            movers = stream_movers(self, vectors, settings.flow) if settings.flow == "vitis" else []
            return export_project(compiled, vectors, report, settings, path, self.directives_tcl, movers)

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
        if trials < 1:
            raise HLSError(f"verify(trials={trials}): at least one input set is needed")
        with progress.task(f"verifying {self.__name__} (golden model and csim)"):
            return verification.verify_kernel(self, args, golden, rtol, atol, seed, strict_overflow, trials)


def stream_movers(kernel: Kernel, vectors: Any, flow: str = "vitis") -> list[tuple[Mover, Any]]:
    """The data movers a Vitis export adds for the stream arguments (hls/project/movers.py), each with its
    compiled design; their element counts from `vectors`, the export's golden run (golden_vectors), their
    stream_connect depths sized as a System's (hls.system.mover_depths)."""
    movers = [(m, Kernel(m.func, flow)) for m in mover_plan(kernel.compile(flow).design, vectors)]
    depths = mover_depths(kernel, movers, vectors) if movers else []
    return [(replace(m, depth=d), k.compile().design) for (m, k), d in zip(movers, depths, strict=True)]


def kernel(func: Any = None, *, flow: str = "vitis") -> Any:
    """Decorator: make a typed Python function an HLS kernel; `@hls.kernel(flow="vivado")` selects the
    Vivado IP flow's default interfaces (hls/interfaces.py) for its C++, estimate and export."""
    if func is None:
        check_flow(flow)
        return lambda f: Kernel(f, flow)
    return Kernel(func, flow)


def task(func: Any = None, *, flow: str = "vitis") -> Any:
    """Decorator: a kernel whose body is one iteration of a process that runs forever on its streams.
    Called in a dataflow region it is an `hls_thread_local hls::task`; as a top kernel it is free
    running (`ap_ctrl_none`). Python mode and csim end it when it waits on an empty input."""
    if func is None:
        check_flow(flow)
        return lambda f: Kernel(f, flow, is_task=True)
    return Kernel(func, flow, is_task=True)
