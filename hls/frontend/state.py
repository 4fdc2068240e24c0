"""What the builder knows while it walks one kernel: variables, the block being filled, the loops around.

Nested constructs change this state only through two context managers, so nothing saves and
restores it by hand: `region(block)` makes ops go into `block` (a loop body, a branch, a condition)
and `scope(env)` gives the statements inside their own copy of the variables, whose final bindings
the caller reads from the yielded `VarScope` after the block (`scope.env`). This module imports nothing
else of the frontend.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hls.ir import Block, ForOp, Value
from hls.types import HLSType, ScalarType


@dataclass(frozen=True)
class ArrayShape:
    """What a compile-time expression sees of a kernel array: `a.shape`, `a.ndim`, `len(a)`."""

    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __len__(self) -> int:
        return self.shape[0]


def local_name(name: str, field: str) -> str:
    """The variable holding one field of a struct local (`p.r`: never a Python identifier)."""
    return f"{name}.{field}"


@dataclass
class Var:
    value: Value
    type: HLSType
    is_array: bool = False
    is_iv: bool = False
    cell: bool = False  # a scalar static: `value` is its one-element memory
    prefix: tuple[Value, ...] = ()  # a row of a parent array (`for row in a`): the indices already taken


@dataclass
class VarScope:
    """The variables a nested body left bound (filled in when its `scope()` ends)."""

    env: dict[str, Var] = field(default_factory=dict)


class BuildState:
    """The mutable part of building one function; the construct families read and extend it (`BuildContext`)."""

    def __init__(self, kernel_names: set[str]) -> None:
        self.block: Block | None = None
        self.env: dict[str, Var] = {}
        self.loops: list[ForOp] = []
        self.labels: set[str] = set()
        self.user_labels: set[str] = set()
        self.label_slot: Any = None  # the statement where hls.label may name the innermost loop
        self.loop_locals: set[str] = set()
        self.roms: dict[str, Value] = {}
        # every name the kernel binds (Python makes them local throughout the function) ...
        self.kernel_names = kernel_names
        self.consts: dict[str, Any] = {}  # ... except these, bound to compile-time values (tuple loops)
        self.struct_locals: dict[str, Any] = {}  # struct locals: name -> StructType (fields are `p.r` in env)
        # the types of locals without a declaration (hls.frontend.joins): pinned from the previous build,
        # and what this build saw: each assignment, the types used, the names each loop carries
        self.pinned: dict[str, ScalarType] = {}
        self.declared: dict[str, ScalarType] = {}  # annotated, typed by a type call, or an argument
        self.entries: dict[str, list[Any]] = {}  # hls.frontend.joins.Entry records
        self.used: dict[str, set[ScalarType]] = {}
        self.carries: dict[int, set[str]] = {}  # id(loop) -> carried names

    def merge_type(self, name: str, fallback: ScalarType) -> ScalarType:
        """The type of `name` where control flow joins (after an `if`, around a loop) and where a bare
        literal is assigned to it: the join of every value it holds, once a build has found it."""
        t = self.pinned.get(name, fallback)
        if name in self.entries or name in self.pinned:
            self.used.setdefault(name, set()).add(t)
        return t

    @contextmanager
    def region(self, block: Block) -> Iterator[Block]:
        """Ops emitted inside go into `block`; the previous block is current again afterwards."""
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    @contextmanager
    def scope(self, env: dict[str, Var] | None = None) -> Iterator[VarScope]:
        """The body sees a copy of `env` (default: the current variables); its bindings stay inside."""
        saved = self.env
        self.env = dict(saved if env is None else env)
        inner = VarScope()
        try:
            yield inner
        finally:
            inner.env = self.env
            self.env = saved

    @contextmanager
    def in_loop(self, loop: Any) -> Iterator[None]:
        """`break`, `continue` and loop directives inside refer to `loop`."""
        self.loops.append(loop)
        try:
            yield
        finally:
            self.loops.pop()
