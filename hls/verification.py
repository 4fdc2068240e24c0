"""What `Kernel.verify()` runs on, and what it reached: several input sets and the branch coverage.

Why several sets: one random draw takes one side of a data-dependent branch, so a mismatch that
lives only on the other side passed unseen. verify() draws `trials` sets: first random draws, then
edge values (0, -1, each type's min and max, every element of an array alike), and measures which
arms of the kernel's `if`s, `while`s and conditional expressions the golden model took on them.

Random draws are scaled so that they fit: a draw whose golden run wraps or saturates a declared
value is drawn again with fewer magnitude bits (an integer or fixed-point value is shifted right:
the full width, then 1/2, 1/4, 1/8 of it, then 1 bit), and later draws start at the level that
fitted. An overflow that remains at the smallest level does not come from large random values: it
is reported (OverflowWarning, or OverflowReport when strict). Overflows on edge values are the
point of drawing them and are not reported (they are listed in the result's "edge_overflows");
golden and csim must agree on them all the same.
"""

from __future__ import annotations

import ast
import contextlib
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from hls.errors import OverflowReport, OverflowWarning, SimulationError, VerificationError
from hls.frontend.source import parse_kernel
from hls.golden.streams import Stream
from hls.golden_runs import copied, golden_arg, run_recording_overflows
from hls.sim.compare import compare_outputs
from hls.types import ArrayType, BoolType, FixedType, FloatType, HLSType, IntType, StreamType
from hls.wording import decimal, type_expr

DEFAULT_TRIALS = 8
SLOW = 20.0  # a later set's golden run may take this many times the first set's (at least MIN_BUDGET s)
MIN_BUDGET = 1.0
EDGES = ("max", "min", "0", "-1")  # the first ones are drawn when trials are few
LEVELS = 5  # magnitude levels of a random draw: W, W/2, W/4, W/8 bits, then 1 bit


@dataclass
class GoldenRun:
    inputs: list[Any]  # the set (csim gets copies)
    golden_args: list[Any]  # the golden model's copies, after the run
    expected: Any  # its return value
    overflows: dict[str, Any]  # wraps of declared values, by source line


# ---- the input sets ------------------------------------------------------------------------------


RANDOM = "random"  # the trial kind of a random draw; an edge-value trial is "edge <which>"


def trial_kinds(trials: int) -> list[str]:
    """One random draw first, then up to half the sets on edge values, the rest random draws."""
    edges = min(len(EDGES), trials // 2)
    return [RANDOM, *(f"edge {e}" for e in EDGES[:edges]), *[RANDOM] * (trials - edges - 1)]


def edge_scalar(t: Any, which: str) -> Any:
    """An edge value of a scalar type; floats use the ends of the random range [-1, 1] (a huge float
    overflows to inf, whose NaNs prove nothing); a struct keeps its random value (None)."""
    if isinstance(t, BoolType):
        return which in ("-1", "max")
    if isinstance(t, FloatType):
        return {"0": 0.0, "-1": -1.0, "min": -1.0, "max": 1.0}[which]
    if isinstance(t, IntType):
        value = {"0": 0, "-1": -1 if t.signed else 1, "min": t.min, "max": t.max}[which]
        return value if t.width > 1 or which != "-1" else t.max
    if isinstance(t, FixedType):
        low = (t.raw_min + (1 if t.signed and t.overflow == "AP_SAT_SYM" and t.width > 1 else 0)) * t.lsb
        value = {"0": 0, "-1": max(min(-1, t.max), low), "min": low, "max": t.max}[which]
        return float(value)
    return None


def edge_value(t: HLSType, base: Any, which: str) -> Any:
    """`base` (a random draw of `t`) with every scalar replaced by the edge `which`."""
    if isinstance(t, StreamType):
        values = np.asarray(base)
        if not len(values) or values.dtype.names is not None:
            return base
        return Stream(t.elem, np.full_like(values, edge_scalar(t.elem, which)), name=base.name)
    if isinstance(t, ArrayType):
        value = edge_scalar(t.elem, which)
        return base if value is None else np.full_like(base, value)
    value = edge_scalar(t, which)
    return base if value is None else value


def shifted(t: Any, value: Any, level: int) -> Any:
    """A scalar or array of scalar type `t` with its magnitude cut to the bits `level` keeps."""
    if not isinstance(t, (IntType, FixedType)) or level == 0:
        return value
    keep = max(1, t.width >> level) if level < LEVELS - 1 else 1
    shift = t.width - keep
    if isinstance(t, IntType):
        if isinstance(value, np.ndarray) and value.dtype != object:
            return value >> value.dtype.type(shift)
        return np.vectorize(lambda v: int(v) >> shift)(value) if isinstance(value, np.ndarray) else int(value) >> shift
    lsb = float(t.lsb)
    return np.floor(np.asarray(value, dtype=np.float64) / lsb / 2.0 ** shift) * lsb if isinstance(value, np.ndarray) \
        else float(np.floor(float(value) / lsb / 2.0 ** shift) * lsb)


def scaled(t: HLSType, value: Any, level: int) -> Any:
    """A random draw of `t` at magnitude `level` (0: as drawn)."""
    if level == 0:
        return value
    if isinstance(t, StreamType):
        values = np.asarray(value)
        if not len(values) or values.dtype.names is not None:
            return value
        return Stream(t.elem, shifted(t.elem, values, level), name=value.name)
    if isinstance(t, ArrayType):
        return shifted(t.elem, value, level) if isinstance(value, np.ndarray) and value.dtype.names is None else value
    return shifted(t, value, level)


def level_label(level: int) -> str:
    return "random" if level == 0 else f"random ({'1 bit' if level >= LEVELS - 1 else f'1/{1 << level} of the bits'})"


# ---- branch coverage -----------------------------------------------------------------------------


class BranchKind(str, Enum):
    """The construct a measured branch belongs to (a str enum: it prints and sorts as its value)."""

    IF = "if"
    WHILE = "while"
    CONDITIONAL = "conditional"  # a conditional expression `a if c else b`

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass
class Branch:
    kind: BranchKind
    line: int
    test: tuple[int, int]  # first and last line of the condition
    arms: dict[str, tuple[int, int, int, int]]  # arm -> (line, col, end line, end col) of its first node


@dataclass
class Coverage:
    """Which arms of the kernel's branches the golden model took (Python mode, the top kernel's own
    statements; sub-kernels are covered by their own verify())."""

    file: str
    branches: list[Branch]
    taken: set[tuple[int, str]] = field(default_factory=set)  # (branch index, arm)
    measured: bool = True

    @property
    def total(self) -> int:
        return sum(len(b.arms) for b in self.branches)

    @property
    def reached(self) -> int:
        return len(self.taken)

    def missed(self) -> list[str]:
        name = self.file.rsplit("/", 1)[-1]
        return [f"{b.kind} at {name}:{b.line} ({arm})" for i, b in enumerate(self.branches) for arm in b.arms
                if (i, arm) not in self.taken]

    def __str__(self) -> str:
        if not self.branches:
            return "branch coverage: no data-dependent branch"
        if not self.measured:
            return f"branch coverage: not measured ({self.total} arms)"
        text = f"branch coverage: {self.reached}/{self.total} arms"
        missed = self.missed()
        return text + (f"; never taken: {', '.join(missed[:6])}{', ...' if len(missed) > 6 else ''}" if missed else "")


def span(node: ast.AST) -> tuple[int, int, int, int]:
    return (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0)


def branch_points(func: Any) -> tuple[str, list[Branch]]:
    """The kernel's branches, read from its source (the file's own lines, as the golden model has them)."""
    src = parse_kernel(func)
    branches = []
    for node in ast.walk(src.tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and isinstance(node.test, ast.Constant):
            continue  # decided when Python compiles it: one arm is not even in the code
        if isinstance(node, (ast.If, ast.While)):
            test = (node.test.lineno, node.test.end_lineno or node.test.lineno)
            arms = {"then" if isinstance(node, ast.If) else "body": span(node.body[0])}
            arms["else" if isinstance(node, ast.If) else "exit"] = span(node.orelse[0]) if node.orelse else (0, 0, 0, 0)
            kind = BranchKind.IF if isinstance(node, ast.If) else BranchKind.WHILE
            branches.append(Branch(kind, node.lineno, test, arms))
        elif isinstance(node, ast.IfExp):
            branches.append(Branch(BranchKind.CONDITIONAL, node.lineno, (node.lineno, node.end_lineno or node.lineno),
                                   {"then": span(node.body), "else": span(node.orelse)}))
    return src.file, sorted(branches, key=lambda b: (b.line, b.kind))


def inside(pos: tuple[int, int, int, int], region: tuple[int, int, int, int]) -> bool:
    return region[0] > 0 and (region[0], region[1]) <= (pos[0], pos[1]) and (pos[2], pos[3]) <= (region[2], region[3])


class Tracer:
    """sys.settrace on the golden model's own code objects: line transitions out of a condition tell
    which arm of an `if`/`while` ran; instruction positions tell which arm of a conditional expression
    did (opcode events only on lines that hold one)."""

    def __init__(self, coverage: Coverage, codes: set[Any]):
        self.coverage = coverage
        self.codes = codes
        self.tests: dict[int, list[int]] = {}  # a condition's line -> branch indices
        self.exp_lines: set[int] = set()
        for i, b in enumerate(coverage.branches):
            if b.kind is BranchKind.CONDITIONAL:
                self.exp_lines.update(range(b.test[0], b.test[1] + 1))
            else:
                for line in range(b.test[0], b.test[1] + 1):
                    self.tests.setdefault(line, []).append(i)
        self.previous: dict[int, int] = {}
        self.positions: dict[Any, list[Any]] = {}
        self.kept = set(coverage.taken)
        self.deadline: float | None = None  # a later set stops here: its inputs may loop for ever (while n > 0)
        self.budget: float | None = None  # seconds a later set's golden run may take
        self.lines = 0

    def wanted(self) -> bool:
        """Tracing still tells something: an arm not yet taken (tracing slows the golden model)."""
        return self.coverage.reached < self.coverage.total

    def commit(self) -> None:
        """The arms of the last run count: its result was compared with csim."""
        self.kept = set(self.coverage.taken)

    def discard(self) -> None:
        """Forget the arms of the runs since the last commit (a draw redrawn, or skipped)."""
        self.coverage.taken = set(self.kept)

    def arm_after(self, line: int, now: int | None) -> None:
        """Execution left the condition on `line` for line `now` (None: the function returned): the
        first arm when `now` is in its first statement, else the other one (the else, the exit)."""
        for i in self.tests.get(line, ()):
            b = self.coverage.branches[i]
            if now is not None and b.test[0] <= now <= b.test[1]:
                continue  # still inside a condition written over several lines
            (first, region), (second, _) = b.arms.items()
            self.coverage.taken.add((i, first if now is not None and region[0] <= now <= region[2] else second))

    def opcode(self, frame: Any) -> None:
        code = frame.f_code
        if code not in self.positions:
            self.positions[code] = list(code.co_positions())
        pos = self.positions[code][frame.f_lasti // 2]
        if pos[0] is None:
            return
        for i, b in enumerate(self.coverage.branches):
            if b.kind is BranchKind.CONDITIONAL and b.test[0] <= pos[0] <= b.test[1]:
                for arm, region in b.arms.items():
                    if inside((pos[0], pos[2] or 0, pos[1] or pos[0], pos[3] or 0), region):
                        self.coverage.taken.add((i, arm))

    def local(self, frame: Any, event: str, arg: Any) -> Callable[..., Any]:
        key = id(frame)
        if event == "line":
            self.lines += 1
            if self.deadline is not None and self.lines % 512 == 0 and time.monotonic() > self.deadline:
                raise TooSlow("stopped: its golden run took far longer than the first set's")
            line = frame.f_lineno
            before = self.previous.get(key)
            if before is not None and before != line:
                self.arm_after(before, line)
            self.previous[key] = line
            frame.f_trace_opcodes = line in self.exp_lines
        elif event == "opcode":
            self.opcode(frame)
        elif event == "return" and key in self.previous:
            self.arm_after(self.previous.pop(key), None)
        return self.local

    def call(self, frame: Any, event: str, arg: Any) -> Callable[..., Any] | None:
        return self.local if frame.f_code in self.codes else None

    @contextmanager
    def active(self) -> Iterator[None]:
        previous = sys.gettrace()
        sys.settrace(self.call)
        try:
            yield
        finally:
            sys.settrace(previous)
            self.previous.clear()


class TooSlow(Exception):
    """A later input set's golden run passed its time budget (SLOW times the first set's)."""


def golden_codes(golden: Any) -> set[Any]:
    """The golden function's code and its nested functions' (dataflow processes)."""
    codes, todo = set(), [golden.__code__]
    while todo:
        code = todo.pop()
        codes.add(code)
        todo += [c for c in code.co_consts if hasattr(c, "co_code")]
    return codes


def tracer_for(func: Any, golden: Any) -> Tracer:
    file, branches = branch_points(func)
    return Tracer(Coverage(file, branches), golden_codes(golden))


class VerifyResult(dict):  # type: ignore[type-arg] - keys as before: compared, inputs, outputs, return, ...
    """verify()'s result: a dict ("compared", "inputs", "outputs", "return", "overflows",
    "edge_overflows", "trials", "skipped", "coverage"), with the coverage as an attribute too."""

    def __init__(self, coverage: Coverage):
        super().__init__(trials=[], edge_overflows={}, skipped=[], coverage=coverage)
        self.coverage = coverage

    def summary(self) -> str:
        return (f"csim == golden on {', '.join(self.get('compared', [])) or 'nothing'} over {len(self['trials'])} "
                f"input set{'s' if len(self['trials']) != 1 else ''}; {self.coverage}")


# ---- the run: golden model and csim on each set -------------------------------------------------

STRICT_OVERFLOW = [False]


def strict_overflow(enabled: bool = True) -> None:
    """Make every wrap or saturation of a declared value in `verify()` an error (not a warning)."""
    STRICT_OVERFLOW[0] = enabled


def verify_kernel(k: Any, args: tuple[Any, ...], golden: Any, rtol: float, atol: float, seed: int,
                  strict: bool | None, trials: int) -> VerifyResult:
    """Kernel.verify's work on the kernel `k` (its facade: compile, reset, csim, random_inputs)."""
    compiled = k.compile()
    tracer = tracer_for(k.__hls_kernel__, compiled.golden)
    traced_call = golden is None and k.golden_model == "python"  # else a Python-mode run of its own
    result = VerifyResult(tracer.coverage)
    reported: dict[str, Any] = {}
    level = 0
    for index, kind in enumerate(["given"] if args else trial_kinds(trials)):
        base = list(args) if args else k.random_inputs(seed if index == 0 else [seed, index])
        if kind.startswith("edge"):
            base = [edge_value(t, v, kind[5:]) for t, v in zip(compiled.arg_types, base, strict=True)]
        started = time.monotonic()
        try:
            if kind == RANDOM:
                run, level = fitting_run(k, base, level, golden, tracer, traced_call)
            else:
                run = golden_run(k, base, golden, tracer, traced_call)
        except (SimulationError, TooSlow) as exc:
            if index == 0:
                raise
            tracer.discard()
            result["skipped"].append(f"{kind}: {getattr(exc, 'message', exc)}")
            continue
        finally:
            tracer.deadline = None
        if index == 0:
            budget = max(MIN_BUDGET, SLOW * (time.monotonic() - started))
        label = level_label(level) if kind == RANDOM else kind
        csim_compare(k, run, rtol, atol, result, f"{label} inputs" if index else "")
        tracer.commit()
        (result["edge_overflows"] if kind.startswith("edge") else reported).update(run.overflows)
        result["trials"].append(label)
        tracer.budget = budget
    report_overflows(reported, STRICT_OVERFLOW[0] if strict is None else strict)
    result["overflows"] = reported
    return result


def fitting_run(k: Any, base: list[Any], level: int, golden: Any, tracer: Tracer, traced_call: bool) -> Any:
    """A random draw's golden run at the first magnitude level from `level` on where no declared
    value wraps, or at the last level (then the wrap is real); returns (run, level)."""
    types = k.compile().arg_types
    while True:
        inputs = [scaled(t, v, level) for t, v in zip(types, base, strict=True)]
        run = golden_run(k, inputs, golden, tracer, traced_call)
        if not run.overflows or level == LEVELS - 1:
            return run, level
        tracer.discard()
        level += 1


def golden_run(k: Any, inputs: list[Any], golden: Any, tracer: Tracer, traced_call: bool) -> GoldenRun:
    """The golden model on copies of `inputs`, from the initial state (hls.static), traced for coverage."""
    k.reset()  # golden and csim both start from the initial state
    golden_args = [copied(a) for a in inputs]
    tracer.deadline = None if tracer.budget is None else time.monotonic() + tracer.budget
    with tracer.active() if traced_call and (tracer.wanted() or tracer.budget) else contextlib.nullcontext():
        expected, overflows = run_recording_overflows(golden or k, golden_args)
    if not traced_call and tracer.wanted():  # the numpy model or the user's function ran: the statements too
        compiled = k.compile()
        views = [golden_arg(n, t, copied(a)) for n, t, a in zip(compiled.arg_names, compiled.arg_types, inputs,
                                                                 strict=True)]
        with tracer.active(), contextlib.suppress(Exception):  # coverage only: the checked run is above
            compiled.golden(*views)
    return GoldenRun(inputs, golden_args, expected, overflows)


def csim_compare(k: Any, run: GoldenRun, rtol: float, atol: float, result: VerifyResult, context: str) -> None:
    """csim on copies of the run's inputs, every output compared; the first set fills the result."""
    compiled = k.compile()
    csim_args = [copied(a) for a in run.inputs]
    actual = k.csim(*csim_args)
    try:
        compared = compare_outputs(compiled.arg_names, compiled.arg_types, run.golden_args, csim_args,
                                   compiled.return_type, run.expected, actual, rtol, atol)
    except VerificationError as exc:
        if not context:
            raise
        raise VerificationError(f"{exc.message} (on the {context})", exc.loc) from None
    if "compared" not in result:
        result.update({"compared": compared, "inputs": run.inputs, "outputs": run.golden_args,
                       "return": run.expected})


def report_overflows(events: dict[str, Any], strict: bool) -> None:
    """Warn (or raise) once per overflowing source line; the warning points at the caller of verify()."""
    for site, (t, before, after) in events.items():
        message = f"{site}: {decimal(before)} does not fit {t} and became {decimal(after)}; write an explicit " \
                  f"conversion ({type_expr(t)}(...)) if the wrap is intended"
        if strict:
            raise OverflowReport(message)
        warnings.warn(message, OverflowWarning, stacklevel=4)
