"""A schedule's primitives as plain data: one `Record` per call, so JSON and TCL round-trip exactly.

`PRIMITIVES` holds each primitive's option signature (the directive statements' own signatures, from
hls/lang/directives.py, for the directives; the loop transformations' here). A record names its targets
as strings (hls/customize/names.py) and keeps its options as given, after binding them to the
signature, so two records of the same call compare equal.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field
from typing import Any

from hls.errors import HLSError, Loc
from hls.lang.directives import DIRECTIVES


class ScheduleError(HLSError):
    """A schedule primitive that cannot apply: bad options, an illegal transformation, a bad file."""


def split(loop: str, factor: int, tail: bool = False) -> None:
    """Split `loop` into `<label>_outer` x `<label>_inner` (factor iterations); `tail` adds a
    `<label>_tail` loop for the remainder, otherwise a factor that does not divide is an error."""


def tile(loops: list[str], factors: list[int]) -> None:
    """Split each loop of a perfect nest by its factor and move the inner loops innermost."""


def reorder(*loops: str) -> None:
    """Permute the loops of a perfect nest into the order given, outermost first."""


def fuse(first: str, second: str) -> None:
    """Merge two adjacent loops with the same bounds into one."""


def stream(fifo: str, depth: int) -> None:
    """Set the depth of a local FIFO (hls.stream)."""


TRANSFORMS = {f.__name__: f for f in (split, tile, reorder, fuse)}
TARGETED = ("array_partition", "bind_storage", "interface", "stream")  # the first argument names storage
FUNCTION_DIRECTIVES = ("dataflow", "inline")  # the target names a function (None: the top)


def signature_of(op: str) -> inspect.Signature:
    """The options a primitive takes, its target(s) first."""
    if op in TRANSFORMS:
        return inspect.signature(TRANSFORMS[op])
    if op == "stream":
        return inspect.signature(stream)
    if op not in DIRECTIVES or op in ("label", "aggregate", "disaggregate"):
        raise ScheduleError(f"unknown schedule primitive {op!r}; the primitives are " + ", ".join(PRIMITIVE_NAMES))
    params = list(inspect.signature(DIRECTIVES[op]).parameters.values())
    if op in TARGETED:
        params = params[1:]  # `var`: the record's target
    target = inspect.Parameter("array" if op in TARGETED else "function" if op in FUNCTION_DIRECTIVES else "loop",
                               inspect.Parameter.POSITIONAL_OR_KEYWORD,
                               default=None if op in (*FUNCTION_DIRECTIVES, "pipeline") else inspect.Parameter.empty)
    return inspect.Signature([target, *params])


PRIMITIVE_NAMES = ("pipeline", "unroll", "loop_tripcount", "loop_flatten", "array_partition", "bind_storage",
                   "interface", "dataflow", "inline", "stream", "split", "tile", "reorder", "fuse")


@dataclass(frozen=True)
class Record:
    """One primitive call: its name, the names it targets, and its options (bound, defaults dropped)."""

    op: str
    targets: tuple[Any, ...]
    options: tuple[tuple[str, Any], ...] = ()
    loc: Loc | None = field(default=None, compare=False)

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "targets": [list(t) if isinstance(t, tuple) else t for t in self.targets],
                "options": self.opts}

    def __str__(self) -> str:
        args = [repr(list(t) if isinstance(t, tuple) else t) for t in self.targets]
        args += [f"{k}={v!r}" for k, v in self.options]
        return f"{self.op}({', '.join(args)})"


def make_record(op: str, args: tuple[Any, ...], kwargs: dict[str, Any], loc: Loc | None) -> Record:
    """Bind a primitive call to its signature: the targets, then the options that differ from defaults."""
    sig = signature_of(op)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as exc:
        raise ScheduleError(f"{op}(): {exc}", loc) from None
    targets: list[Any] = []
    options: list[tuple[str, Any]] = []
    for name, param in sig.parameters.items():
        value = bound.arguments.get(name, param.default)
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            targets.extend(value)
        elif name in ("loop", "array", "function", "fifo", "first", "second"):
            targets.append(value)
        elif name == "loops":
            targets.append(tuple(value) if isinstance(value, (list, tuple)) else value)
        elif name in bound.arguments and value != param.default or param.default is inspect.Parameter.empty:
            options.append((name, tuple(value) if isinstance(value, list) else value))
    return Record(op, tuple(targets), tuple(options), loc)


def record_from_dict(data: Any, where: str) -> Record:
    """A record read back from JSON (its list options become tuples again, as make_record made them)."""
    if not isinstance(data, dict) or not isinstance(data.get("op"), str) or not isinstance(data.get("targets"), list):
        raise ScheduleError(f"{where}: a schedule record is {{'op': ..., 'targets': [...], 'options': {{...}}}}, "
                            f"got {json.dumps(data)[:80]}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ScheduleError(f"{where}: 'options' must be an object")
    targets = [tuple(t) if isinstance(t, list) else t for t in data["targets"]]
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
    try:
        sig = signature_of(data["op"])
        if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values()):
            return make_record(data["op"], tuple(targets), kwargs, None)
        names = [n for n in sig.parameters if n in ("loop", "array", "function", "fifo", "first", "second", "loops")]
        return make_record(data["op"], (), {**dict(zip(names, targets, strict=False)), **kwargs}, None)
    except ScheduleError as exc:  # a record missing an argument, or with one it does not take
        raise ScheduleError(f"{where}: {exc.message}") from None
