"""What a schedule's names mean in one IR module: loops, arrays, FIFOs and functions.

A loop is named by its label (`"COL"`), by its loop variable where that is unique (`"j"`), or by a
path: the function, then enclosing loops, outermost first (`"mm/ROW/COL"`, `"sub/i"`); the loops of
a path need not be directly nested. An array or FIFO is named by its Python name (`"A"`), or with its
function (`"sub/buf"`). A bare name is looked up in the top function first, then in the sub-kernels;
a name that matches nothing, or more than one thing, is an HLSError listing the candidates.
Resolution reads the IR labels, so a loop that a transformation or a whole-array statement made
(`ROW_outer`, `C_i`) is named the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hls.errors import HLSError, Loc
from hls.ir import AllocOp, Function, Module, Op, RomOp, StreamOp, Value
from hls.ir.ops import ForOp
from hls.types import ArrayType, StreamType


class ScheduleNameError(HLSError):
    """A schedule names a loop, array or function the kernel does not have, or names more than one."""


@dataclass(frozen=True)
class LoopRef:
    """One loop of the design and where it sits."""

    func: Function
    op: Op
    ancestors: tuple[Op, ...]  # enclosing loops, outermost first

    @property
    def path(self) -> str:
        return "/".join([self.func.name, *(loop.label or "?" for loop in (*self.ancestors, self.op))])

    @property
    def iv_name(self) -> str | None:
        return self.op.iv.name if isinstance(self.op, ForOp) else None


def loop_refs(func: Function) -> Iterator[LoopRef]:
    """Every loop of `func` in program order, with its enclosing loops."""
    def walk(ops: list[Op], ancestors: tuple[Op, ...]) -> Iterator[LoopRef]:
        for op in ops:
            inner = ancestors
            if op.is_loop:
                yield LoopRef(func, op, ancestors)
                inner = (*ancestors, op)
            for region in op.regions:
                yield from walk(region.block.ops, inner)
    yield from walk(func.body.block.ops, ())


def _named(op: Op, part: str) -> bool:
    return op.attrs.get("label") == part or (isinstance(op, ForOp) and op.iv.name == part)


def _scopes(module: Module, name: str) -> tuple[list[list[Function]], list[str]]:
    """The functions to search, in order of precedence, and the name's parts within them."""
    parts = name.split("/")
    if len(parts) > 1 and parts[0] in module.functions:
        return [[module.functions[parts[0]]]], parts[1:]
    top = module.top_function
    return [[top], [f for f in module.functions.values() if f is not top]], parts


def _check_name(name: object, what: str, loc: Loc | None) -> str:
    if not isinstance(name, str) or not name or any(not p for p in name.split("/")):
        raise ScheduleNameError(f"a {what} is named by a string such as 'COL' or 'mm/ROW/COL', got {name!r}", loc)
    return name


def resolve_loop(module: Module, name: str, loc: Loc | None = None) -> LoopRef:
    """The one loop `name` designates."""
    _check_name(name, "loop", loc)
    scopes, parts = _scopes(module, name)
    for funcs in scopes:
        found = [ref for func in funcs for ref in loop_refs(func) if _path_matches(ref, parts)]
        if len(found) == 1:
            return found[0]
        if found:
            raise ScheduleNameError(f"loop name {name!r} is ambiguous: it matches "
                                    + ", ".join(_describe(ref) for ref in found) + "; use a path or a label", loc)
    every = [_describe(ref) for func in module.functions.values() for ref in loop_refs(func)]
    raise ScheduleNameError(f"no loop named {name!r}; the loops are " + (", ".join(every) or "none"), loc)


def _path_matches(ref: LoopRef, parts: list[str]) -> bool:
    if not _named(ref.op, parts[-1]):
        return False
    rest = list(parts[:-1])
    for loop in ref.ancestors:  # the earlier parts name enclosing loops, in order
        if rest and _named(loop, rest[0]):
            rest.pop(0)
    return not rest


def _describe(ref: LoopRef) -> str:
    return ref.path + (f" (variable {ref.iv_name})" if ref.iv_name else "")


def storage_values(func: Function) -> Iterator[tuple[str, Value]]:
    """The arrays and FIFOs of a function a schedule can name: array and stream arguments, local arrays,
    local FIFOs, and the ROMs of module-level numpy arrays it reads (named as in Python, as the inline
    `hls.array_partition(COEFFS, ...)` names them)."""
    for arg in func.args:
        if isinstance(arg.type, (ArrayType, StreamType)) and arg.name:
            yield arg.name, arg
    for op in func.walk():
        if isinstance(op, (AllocOp, StreamOp, RomOp)) and op.result.name \
                and not (isinstance(op, AllocOp) and op.cell):
            yield op.result.name, op.result


def resolve_storage(module: Module, name: str, loc: Loc | None = None) -> tuple[Function, Value]:
    """The function and the IR value of the array or FIFO `name` designates."""
    _check_name(name, "array", loc)
    scopes, parts = _scopes(module, name)
    if len(parts) == 1:
        for funcs in scopes:
            found = [(f, v) for f in funcs for n, v in storage_values(f) if n == parts[0]]
            if len(found) == 1:
                return found[0]
            if found:
                raise ScheduleNameError(f"array name {name!r} is ambiguous: it is an array of "
                                        + ", ".join(f.name for f, _ in found) + "; name it as 'function/array'", loc)
    every = [f"{f.name}/{n}" for f in module.functions.values() for n, _ in storage_values(f)]
    raise ScheduleNameError(f"no array named {name!r}; the arrays are " + (", ".join(every) or "none"), loc)


def resolve_function(module: Module, name: str | None, loc: Loc | None = None) -> Function:
    """The function `name` designates (None: the top)."""
    if name is None:
        return module.top_function
    if name not in module.functions:
        raise ScheduleNameError(f"no function named {name!r}; the functions are " + ", ".join(module.functions), loc)
    return module.functions[name]
