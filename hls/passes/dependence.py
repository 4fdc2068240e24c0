"""Whether running a loop nest's iterations in another order changes a result: checked exactly.

A reorder or a fusion is legal when every pair of accesses to one array element that conflict (at
least one a write) happen in the same order before and after. The check enumerates the iterations
(constant trip counts, at most `MAX_INSTANCES` accesses), evaluates every index of every load and
store of a written array from the induction variables (arithmetic, comparisons and selects of them:
a clamp or a mirror), and compares the two orders per element: the reads between two writes may
permute among themselves, nothing may cross a write. An index that depends on data, a FIFO access
or a call inside the nest cannot be checked, and is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hls.errors import HLSError
from hls.ir import BinaryOp, CallOp, CastOp, CompareOp, ConstantOp, ForOp, LoadOp, LogicOp, Op, SelectOp, StoreOp, Value
from hls.ir.kinds import OpKind
from hls.types import IntType, wrap_array

MAX_INSTANCES = 4_000_000

_NUMPY = {OpKind.ADD: np.add, OpKind.SUB: np.subtract, OpKind.MUL: np.multiply, OpKind.FLOORDIV: np.floor_divide,
          OpKind.MOD: np.mod, OpKind.SHL: np.left_shift, OpKind.SHR: np.right_shift, OpKind.AND: np.bitwise_and,
          OpKind.MIN: np.minimum, OpKind.MAX: np.maximum}

_PREDICATES = {OpKind.LT: np.less, OpKind.LE: np.less_equal, OpKind.GT: np.greater, OpKind.GE: np.greater_equal,
               OpKind.EQ: np.equal, OpKind.NE: np.not_equal, OpKind.LAND: np.logical_and,
               OpKind.LOR: np.logical_or}


class DependenceError(HLSError):
    """A transformation that would change a result, or whose effect on the result cannot be checked."""


@dataclass
class NestAccess:
    """One load or store and the loops between it and the region being moved (outermost first)."""

    op: Op
    inner: tuple[ForOp, ...]


def accesses(ops: list[Op], why: str, inner: tuple[ForOp, ...] = ()) -> list[NestAccess]:
    """The loads and stores of `ops` (nested ones too); a call or a FIFO access is refused."""
    found: list[NestAccess] = []
    for op in ops:
        if isinstance(op, CallOp) or op.is_fifo_access:
            raise DependenceError(f"{why}: the nest contains {'a call' if isinstance(op, CallOp) else 'a FIFO access'}"
                                  ", whose order cannot be checked", op.loc)
        if isinstance(op, (LoadOp, StoreOp)):
            found.append(NestAccess(op, inner))
        for region in op.regions:
            deeper = (*inner, op) if isinstance(op, ForOp) else inner
            found += accesses(region.block.ops, why, deeper)
    return found


def _values(value: Value, env: dict[Value, np.ndarray], why: str) -> np.ndarray:
    """The value on every point of the grid (numpy broadcasting), from constants and induction variables."""
    if value in env:
        return env[value]
    op = getattr(value, "op", None)
    if isinstance(op, ConstantOp) and isinstance(op.value, int):
        return np.int64(op.value)
    if isinstance(op, CastOp) and isinstance(op.result.type, IntType):
        inner = _values(op.operands[0], env, why)
        return wrap_array(np.asarray(inner, dtype=np.int64), op.result.type)
    if isinstance(op, BinaryOp) and op.kind in _NUMPY and isinstance(op.result.type, IntType):
        return _NUMPY[op.kind](_values(op.lhs, env, why), _values(op.rhs, env, why))
    if isinstance(op, (CompareOp, LogicOp)) and op.kind in _PREDICATES:  # a clamp or mirror: `j if j < 4 else ...`
        return _PREDICATES[op.kind](_values(op.operands[0], env, why), _values(op.operands[1], env, why))
    if isinstance(op, SelectOp) and isinstance(op.result.type, IntType):
        cond, if_true, if_false = (_values(v, env, why) for v in op.operands)
        return np.where(cond, if_true, if_false)
    what = f"%{value.name}" if value.name else "a value"
    raise DependenceError(f"{why}: an array index depends on {what}, which is not computed from loop counters "
                          "and constants, so the dependences cannot be checked", getattr(op, "loc", None))


def _bounds(loop: ForOp, why: str) -> range:
    bounds = loop.const_bounds()
    if bounds is None:
        raise DependenceError(f"{why}: loop {loop.label} has bounds that are not constant", loop.loc)
    return range(*bounds)


@dataclass
class Instances:
    """Every access instance: the element (array, flat index), when it runs before and after, whether it writes."""

    key: list[np.ndarray]
    old: list[np.ndarray]
    new: list[np.ndarray]
    write: list[np.ndarray]


def add_access(out: Instances, access: NestAccess, outer: dict[Value, np.ndarray], outer_shape: tuple[int, ...],
               times: tuple[np.ndarray, np.ndarray], arrays: dict[Value, int], slot: int, why: str) -> int:
    """Append one access's instances over the outer grid and its own inner loops; returns its count.
    `times` are the old and new rank of each outer point; `slot` orders accesses inside one point."""
    memref = access.op.memref
    ranges = [_bounds(loop, why) for loop in access.inner]
    shape = outer_shape + tuple(len(r) for r in ranges)
    count = int(np.prod(shape)) if shape else 1
    env = {v: np.reshape(a, np.shape(a) + (1,) * len(ranges)) for v, a in outer.items()}  # room for inner axes
    for axis, (loop, r) in enumerate(zip(access.inner, ranges, strict=True)):
        env[loop.iv] = np.asarray(r, dtype=np.int64).reshape([-1 if k == len(outer_shape) + axis else 1
                                                              for k in range(len(shape))])
    flat = np.zeros(shape, dtype=np.int64)
    for index, size in zip(access.op.indices, memref.type.shape, strict=False):
        flat = flat * size + np.broadcast_to(_values(index, env, why), shape)
    inner_count = count // max(1, int(np.prod(outer_shape)) if outer_shape else 1)
    seq = slot + np.arange(inner_count, dtype=np.int64)
    out.key.append((flat + arrays[memref] * (1 << 40)).ravel())
    for rank, target in zip(times, (out.old, out.new), strict=True):
        target.append((np.broadcast_to(rank, outer_shape)[..., None] * (1 << 24) + seq).ravel())
    out.write.append(np.full(count, isinstance(access.op, StoreOp)))
    return inner_count


def check_order(out: Instances, why: str, loc) -> None:
    """Raise when a conflicting pair of accesses to one element runs in another order in `new` than in `old`."""
    if not out.key:
        return
    key, old, new, write = (np.concatenate(x) for x in (out.key, out.old, out.new, out.write))
    if not key.size:  # a nest that never runs (a zero-trip loop) has no pair to reorder
        return
    by_old = np.lexsort((old, key))
    k, w = key[by_old], write[by_old].astype(np.int64)
    starts = np.r_[True, k[1:] != k[:-1]]
    group = np.cumsum(starts) - 1
    before = np.cumsum(w) - w
    first = np.flatnonzero(starts)
    writes_before = before - before[first][group]
    phase = np.empty_like(writes_before)
    phase[by_old] = 2 * writes_before + w
    by_new = np.lexsort((new, key))
    p, kn = phase[by_new], key[by_new]
    bad = np.flatnonzero((kn[1:] == kn[:-1]) & (p[1:] < p[:-1]))
    if bad.size:
        raise DependenceError(f"{why} would change the result: two accesses to one element of an array, one of "
                              "them a write, would run in the opposite order", loc)


def written_arrays(found: list[NestAccess]) -> dict[Value, int]:
    """The arrays the accesses write, numbered (only they can carry a dependence)."""
    arrays: dict[Value, int] = {}
    for access in found:
        if isinstance(access.op, StoreOp) and access.op.memref not in arrays:
            arrays[access.op.memref] = len(arrays)
    return arrays


def grid(loops: list[ForOp], why: str) -> tuple[dict[Value, np.ndarray], tuple[int, ...]]:
    """The iteration grid of perfectly nested loops: each iv broadcast along its own axis."""
    ranges = [_bounds(loop, why) for loop in loops]
    shape = tuple(len(r) for r in ranges)
    env = {loop.iv: np.asarray(r, dtype=np.int64).reshape([-1 if k == axis else 1 for k in range(len(shape))])
           for axis, (loop, r) in enumerate(zip(loops, ranges, strict=True))}
    return env, shape


def enclosing_loops(nest_top: Op, found: list[NestAccess], why: str) -> list[ForOp]:
    """The loops around the moved nest whose counters an index reads, outermost first. The transformation
    keeps their order, so each of their iterations is checked on its own grid point; one whose counter no
    index reads is left out (every iteration of it accesses the same elements)."""
    around: dict[Value, ForOp] = {}
    op = nest_top.parent_op()
    while op is not None:
        if isinstance(op, ForOp):
            around[op.iv] = op
        op = op.parent_op()
    used: set[int] = set()
    seen: set[int] = set()
    stack = [index for access in found for index in access.op.indices]
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if value in around:
            used.add(id(around[value]))
        elif getattr(value, "op", None) is not None and getattr(value.op, "parent", None) is not None \
                and not value.op.regions:
            stack.extend(value.op.operands)
    loops = [loop for loop in reversed(list(around.values())) if id(loop) in used]
    for loop in loops:
        _bounds(loop, why)
    return loops


def ranks(outer_shape: tuple[int, ...], span: int, old: np.ndarray, new: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The old and new rank of every point of (enclosing loops x moved nest): the enclosing iterations keep
    their order, `old`/`new` (each below `span`) order the points inside one of them."""
    if not outer_shape:
        return old, new
    base = np.arange(int(np.prod(outer_shape)), dtype=np.int64).reshape(outer_shape + (1,) * np.ndim(old)) * span
    return base + old, base + new


def check_size(total: int, why: str, loc) -> None:
    if total > MAX_INSTANCES:
        raise DependenceError(f"{why}: {total:,} array accesses are more than the {MAX_INSTANCES:,} the dependence "
                              "check enumerates", loc)

