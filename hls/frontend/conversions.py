"""What Python mode must do differently from plain Python at a node: typed `Conversion` records.

The lowering decides once how a construct behaves in C++; where Python would compute something
else (an int true division, a wrapping shift, a float literal of another precision, an assignment
to a narrower type, a bit slice, ...) it records one of these records at the AST node, in one
`Conversions` map per kernel. The golden rewriter (hls.golden.rewrite) applies them without
knowing which construct made them:

- `Call`: the expression becomes a call of a runtime helper (`rt.` hls.golden.runtime, `bits.` hls.golden.bits,
  `st.` hls.golden.streams); `Part`s name pieces of the converted node, other arguments are constants.
  At a statement (`return`, assignment) the pieces are those of the statement and `Part("")` is
  its value; at an augmented assignment, those of the `target op value` it stands for.
- `Convert`: an int meeting a float, converted as the C++ converts it (kept apart from `Call`, so a
  node may carry both its own call and the conversion its use adds).
- `Literal`: a float literal with the precision the C++ gives it.
- `Cast`, `CastEach`: the value of an assignment, argument or return converted to the declared
  type(s) (`site` reported on overflow).
- `BitStore`: `x[lo:hi] = v` becomes `x = helper(...)`; `read` is how `x[lo:hi]` is read, for `op=`.
- `Expand`: the statement is replaced by statements the frontend wrote (an array statement's loops).
- `Static`, `ProcessRecord`, `ProcessLoop`, `RegionRecord`: state kept between calls, and dataflow processes
  (a loop of processes unrolled when the design is built is one `ProcessLoop`).

A node carries at most one record of each kind; building a node again (a body unrolled once per
value of a tuple) replaces it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hls.types import ArrayType, HLSType, ScalarType


@dataclass(frozen=True)
class Part:
    """A piece of the converted node: "" (the node itself), "left", "args.0", "args.*", "func.value"."""

    path: str


@dataclass(frozen=True)
class Call:
    helper: str  # "module.function", module one of rt, bits, st
    args: tuple[Any, ...]  # Part(...) or a compile-time constant


@dataclass(frozen=True)
class Convert:
    type: ScalarType


@dataclass(frozen=True)
class Literal:
    type: ScalarType
    value: Any  # the literal as written (after a folded minus sign)


@dataclass(frozen=True)
class Cast:
    type: ScalarType


@dataclass(frozen=True)
class CastEach:
    types: tuple[ScalarType, ...]


@dataclass(frozen=True)
class BitStore:
    call: Call  # the new value of the variable or element whose bits are assigned
    read: Call  # how the assigned bits read (for `x[lo:hi] op= v`)


@dataclass(frozen=True)
class Expand:
    """The statement runs as these statements (a whole-array statement's loop nest, hls.frontend.arraystmts)."""

    body: tuple[ast.stmt, ...]


@dataclass(frozen=True)
class Static:
    name: str


@dataclass(frozen=True)
class ProcessRecord:
    name: str
    after: tuple[str, ...]  # processes whose arrays this one reads (it starts when they are done)
    task: str = ""  # a task's callee: the process runs it forever (hls::task)


@dataclass(frozen=True)
class ProcessLoop:
    """A loop of processes unrolled when the design is built: per process (value of `var`, index of the
    call in the loop body, name, after), in program order."""

    var: str
    entries: tuple[tuple[Any, int, str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class RegionRecord:
    streams: tuple[str, ...]  # the region's local FIFOs


Conversion = (Call | Convert | Literal | Cast | CastEach | BitStore | Expand | Static | ProcessRecord | ProcessLoop
              | RegionRecord)
C = TypeVar("C")


class Conversions:
    """The one map from AST nodes (by identity) to their records, in the order they were made."""

    def __init__(self) -> None:
        self._map: dict[ast.AST, dict[type, Conversion]] = {}

    def add(self, node: ast.AST, record: Conversion) -> None:
        self._map.setdefault(node, {})[type(record)] = record

    def get(self, node: ast.AST, kind: type[C]) -> C | None:
        return self._map.get(node, {}).get(kind)

    def pop(self, node: ast.AST, kind: type[C]) -> C | None:
        return self._map.get(node, {}).pop(kind, None)

    def at(self, node: ast.AST) -> tuple[Conversion, ...]:
        return tuple(self._map.get(node, {}).values())

    def of_kind(self, kind: type[C]) -> list[tuple[ast.AST, C]]:
        return [(node, records[kind]) for node, records in self._map.items() if kind in records]

    def copy(self) -> Conversions:
        other = Conversions()
        other._map = {node: dict(records) for node, records in self._map.items()}
        return other


@dataclass
class KernelFacts:
    """The frontend's product besides the IR: the signature Python mode checks, and the conversions."""

    arg_types: list[HLSType] = field(default_factory=list)
    arg_names: list[str] = field(default_factory=list)
    return_type: HLSType | None = None
    callees: list[Any] = field(default_factory=list)  # kernels called (their state resets with ours)
    captured_arrays: dict[str, ArrayType] = field(default_factory=dict)
    traced: bool = False  # the kernel touches streams: its loops mark iterations in the dataflow trace
    conversions: Conversions = field(default_factory=Conversions)

    @property
    def processes(self) -> bool:
        """The kernel is a dataflow region."""
        return bool(self.conversions.of_kind(RegionRecord))
