"""Loop transformations a schedule asks for (hls/customize): split, reorder, fuse, done in the IR so the
C++, the estimate and csim all see them. Each keeps the kernel's result: a split runs the same
iterations in the same order; a reorder or a fusion is refused (hls/passes/dependence.py) when a
conflicting pair of accesses to one array element would run in another order.

Names are stable: a split of loop L makes `L_outer` and `L_inner` (and `L_tail` for a remainder),
their variables `i_outer`, `i_inner`; a fusion of A and B makes `A_B`; a reorder keeps every label.
A loop's directive fields go with it (a split's go to the inner loop and the tail).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hls.errors import HLSError, Loc
from hls.ir import BinaryOp, Block, CastOp, ConstantOp, ForOp, Function, Op, Value, YieldOp, has_exit
from hls.ir.kinds import OpKind
from hls.ir.labels import fresh_label
from hls.lang.directives import LOOP_FIELDS
from hls.passes.clone import ValueMap, clone_attrs, clone_block_into, clone_ops, insert_ops
from hls.passes.dependence import (
    DependenceError,
    Instances,
    accesses,
    add_access,
    check_order,
    check_size,
    enclosing_loops,
    grid,
    ranks,
    written_arrays,
)
from hls.passes.unroll import bind_bounds
from hls.types import IntType, int_binop_type, int_union, literal_int_type


class TransformError(HLSError):
    """A loop transformation that does not apply to the loops it names."""


def labels_of(func: Function) -> set[str]:
    return {op.label for op in func.walk() if op.is_loop and op.label}


def _const(value: int, t: IntType | None, before: Op, loc: Loc | None) -> Value:
    op = ConstantOp(value, t or literal_int_type(value), loc)
    before.parent.insert_before(before, op)
    return op.result


def _counter_type(n: int) -> IntType:
    """A counter over range(n) with step 1: it holds 0, n and the step 1 (n is 0 for a zero-trip loop)."""
    return int_union(literal_int_type(0), literal_int_type(max(n, 1)))


def _arith(kind: OpKind, a: Value, b: Value, dest: Block, loc: Loc | None) -> Value:
    return dest.append(BinaryOp(kind, a, b, int_binop_type(kind.value, a.type, b.type), loc)).result


def _const_in(value: int, dest: Block, loc: Loc | None) -> Value:
    return dest.append(ConstantOp(value, literal_int_type(value), loc)).result


def _new_loop(lb: Value, ub: Value, step: Value, inits: list[Value], iv_type: IntType, iv_name: str,
              carried: list[str | None], loc: Loc | None) -> ForOp:
    return ForOp(lb, ub, step, inits, iv_type, iv_name, list(carried), loc)


def _constant_loop(loop: ForOp, what: str, loc: Loc | None) -> tuple[int, int, int]:
    """The loop's constant (start, stop, step); a loop that has none is an error at the schedule's call."""
    if not isinstance(loop, ForOp):
        raise TransformError(f"{what}: {loop.label} is a while loop; only for loops over a range can be transformed",
                             loc)
    if loop.parent is not None:
        bind_bounds(loop)  # bounds computed from constants (`range(N * 2)`) become constants first
    bounds = loop.const_bounds()
    if bounds is None:
        raise TransformError(f"{what}: loop {loop.label} has bounds that are not constant", loc)
    if has_exit(loop):
        raise TransformError(f"{what}: loop {loop.label} has an early exit (break or return)", loc)
    return bounds


def split_loop(func: Function, loop: ForOp, factor: int, tail: bool, loc: Loc | None) -> tuple[ForOp, ForOp]:
    """`loop` -> outer x inner (`factor` iterations each), plus a tail loop for a remainder; returns (outer, inner)."""
    lb, _, step = _constant_loop(loop, "split", loc)
    trip = loop.trip_count()
    if not isinstance(factor, int) or isinstance(factor, bool) or not 1 <= factor <= max(trip, 1):
        raise TransformError(f"split: the factor must be an integer from 1 to the trip count {trip} of "
                             f"{loop.label}, got {factor!r}", loc)
    main, rest = divmod(trip, factor)
    if rest and not tail:
        raise TransformError(f"split: factor {factor} does not divide the trip count {trip} of {loop.label}; "
                             f"pass tail=True for a tail loop over the last {rest} iterations", loc)
    if rest and loop.attrs.get("process"):  # the region's processes and channels are fixed where the frontend read them
        raise TransformError(f"split: {loop.label} is a process of a dataflow region ({loop.attrs['process']}); a "
                             f"tail loop would be a second process writing its arrays (factor {factor} leaves "
                             f"{rest} of {trip} iterations): pick a factor that divides {trip}, or split an inner "
                             "loop", loc)
    labels, name = labels_of(func), loop.iv.name or "i"
    zero, one = _const(0, _counter_type(main), loop, loc), _const(1, _counter_type(main), loop, loc)
    outer = _new_loop(zero, _const(main, _counter_type(main), loop, loc), one, list(loop.inits),
                      _counter_type(main), f"{name}_outer", [a.name for a in loop.carried], loop.loc)
    fzero, fone = _const(0, _counter_type(factor), loop, loc), _const(1, _counter_type(factor), loop, loc)
    inner = _new_loop(fzero, _const(factor, _counter_type(factor), loop, loc), fone, list(outer.carried),
                      _counter_type(factor), f"{name}_inner", [a.name for a in loop.carried], loop.loc)
    fields = {key: loop.attrs.get(key) for key in LOOP_FIELDS.values()}
    outer.attrs.update({k: v for k, v in clone_attrs(loop.attrs).items() if k not in fields})
    outer.attrs["label"] = fresh_label(labels, f"{loop.label}_outer")
    inner.attrs.update(fields, label=fresh_label(labels, f"{loop.label}_inner"))
    body = inner.body
    index = _arith(OpKind.ADD, _arith(OpKind.MUL, outer.iv, _const_in(factor, body, loc), body, loc), inner.iv,
                   body, loc) if factor > 1 else outer.iv
    if step != 1:
        index = _arith(OpKind.MUL, index, _const_in(step, body, loc), body, loc)
    if lb != 0:
        index = _arith(OpKind.ADD, index, _const_in(lb, body, loc), body, loc)
    iv = body.append(CastOp(index, loop.iv.type, loc)).result
    iv.name = loop.iv.name
    body.append(YieldOp(_copy_body(loop, iv, list(inner.carried), body), loop.loc))
    outer.body.append(inner)
    outer.body.append(YieldOp(list(inner.results), loop.loc))
    loop.parent.insert_before(loop, outer)
    results = list(outer.results)
    if rest:
        tail_loop = _new_loop(_const(lb + main * factor * step, loop.iv.type, loop, loc), loop.ub, loop.step,
                              results, loop.iv.type, name, [a.name for a in loop.carried], loop.loc)
        tail_loop.attrs.update(clone_attrs(fields), label=fresh_label(labels, f"{loop.label}_tail"))
        tail_loop.body.append(YieldOp(_copy_body(loop, tail_loop.iv, list(tail_loop.carried), tail_loop.body),
                                      loop.loc))
        for nested in [op for op in tail_loop.walk() if op.is_loop and op is not tail_loop and op.label]:
            nested.attrs["label"] = fresh_label(labels, f"{nested.label}_tail")  # the second copy of the body
        loop.parent.insert_before(loop, tail_loop)
        results = list(tail_loop.results)
    _replace(loop, results)
    return outer, inner


def _copy_body(loop: ForOp, iv: Value, carried: list[Value], dest: Block) -> list[Value]:
    mapping: ValueMap = {loop.iv: iv, **dict(zip(loop.carried, carried, strict=True))}
    return clone_block_into(loop.body, dest, mapping)


def _replace(loop: ForOp, results: list[Value]) -> None:
    for old, new in zip(loop.results, results, strict=True):
        old.replace_all_uses_with(new)
    loop.parent.remove(loop)


def _chain(loops: list[ForOp], loc: Loc | None) -> list[ForOp]:
    """The loops in nest order, outermost first, checked to be a perfect nest of consecutive loops
    without carried values (between two of them only pure ops)."""
    for loop in loops:
        _constant_loop(loop, "reorder", loc)
    if len(set(map(id, loops))) != len(loops):
        raise TransformError("reorder: a loop is named twice", loc)
    by_depth = sorted(loops, key=depth_of)
    for outer, inner in zip(by_depth, by_depth[1:], strict=False):
        if inner.parent is not outer.body:
            raise TransformError(f"reorder: {inner.label} is not directly inside {outer.label}; reorder permutes "
                                 "consecutive loops of one nest", loc)
        others = [op for op in outer.body.ops if op is not inner and not isinstance(op, YieldOp)]
        impure = [op for op in others if not op.pure]
        if impure or any(op.is_loop for op in others):
            raise TransformError(f"reorder: the nest is not perfect: the body of {outer.label} does more than run "
                                 f"{inner.label} ({(impure or others)[0].name} at {(impure or others)[0].loc})", loc)
    for loop in by_depth:
        if loop.inits:
            raise TransformError(f"reorder: loop {loop.label} carries a value from one iteration to the next "
                                 f"({', '.join(a.name or '?' for a in loop.carried)})", loc)
    return by_depth


def depth_of(op: Op) -> int:
    """How many ops enclose `op` (0 for one in a function's body)."""
    depth = 0
    while op.parent_op() is not None:
        op, depth = op.parent_op(), depth + 1
    return depth


def _uses_any(op: Op, values: set[Value]) -> bool:
    return any(v in values for inner in op.walk() for v in inner.operands)


def reorder_nest(loops: list[ForOp], loc: Loc | None) -> ForOp:
    """Permute a perfect nest into the order of `loops` (outermost first); returns the new outermost."""
    nest = _chain(loops, loc)
    ivs: set[Value] = {loop.iv for loop in nest}
    sunk: list[Op] = []
    for loop in nest[:-1]:
        for op in [op for op in loop.body.ops if op.pure]:
            if _uses_any(op, ivs):
                sunk.append(op)
                ivs.update(op.results)  # what depends on a sunk value sinks too
            else:
                loop.body.ops.remove(op)
                nest[0].parent.insert_before(nest[0], op)
    for loop in nest[1:]:
        if any(v in ivs for v in (loop.lb, loop.ub, loop.step)):
            raise TransformError(f"reorder: the bounds of {loop.label} depend on an outer loop (not a rectangular "
                                 "nest)", loc)
    why = "reorder(" + ", ".join(loop.label or "?" for loop in loops) + ")"
    _check_permutation(nest, loops, why, loc)
    return _rebuild(nest, loops, sunk)


def _at_call(check: Any) -> Any:
    """A dependence check whose refusal is located at the schedule's call (`loc`), naming the kernel line
    that made the nest uncheckable."""
    def run(*args: Any) -> None:
        loc = args[-1]
        try:
            check(*args)
        except DependenceError as exc:
            if exc.loc == loc or loc is None:
                raise
            where = f" (at {exc.loc})" if exc.loc is not None else ""
            raise DependenceError(exc.message + where, loc) from None
    return run


@_at_call
def _check_permutation(nest: list[ForOp], order: list[ForOp], why: str, loc: Loc | None) -> None:
    found = accesses(nest[-1].body.ops, why)
    arrays = written_arrays(found)
    around = enclosing_loops(nest[0], found, why)
    env, shape = grid([*around, *nest], why)
    inner = shape[len(around):]
    axes = [nest.index(loop) for loop in order]
    old = np.arange(int(np.prod(inner)), dtype=np.int64).reshape(inner)
    new = np.arange(old.size, dtype=np.int64).reshape([inner[a] for a in axes]).transpose(np.argsort(axes))
    old, new = ranks(shape[:len(around)], max(old.size, 1), old, new)
    out, slot = Instances([], [], [], []), 0
    for access in found:
        if access.op.memref in arrays:
            slot += add_access(out, access, env, shape, (old, new), arrays, slot, why)
    check_size(sum(len(k) for k in out.key), why, loc)
    check_order(out, why, loc)


def _rebuild(nest: list[ForOp], order: list[ForOp], sunk: list[Op]) -> ForOp:
    mapping: ValueMap = {}
    made: list[ForOp] = []
    for loop in order:
        new = _new_loop(loop.lb, loop.ub, loop.step, [], loop.iv.type, loop.iv.name, [], loop.loc)
        new.attrs = clone_attrs(loop.attrs)
        mapping[loop.iv] = new.iv
        made.append(new)
    inner = made[-1].body
    insert_ops(inner, 0, clone_ops(sunk, mapping))
    inner.append(YieldOp(clone_block_into(nest[-1].body, inner, mapping), nest[-1].loc))
    for outer, below in zip(made, made[1:], strict=False):
        outer.body.append(below)
        outer.body.append(YieldOp([], outer.loc))
    nest[0].parent.insert_before(nest[0], made[0])
    _replace(nest[0], [])
    return made[0]


def fuse_loops(func: Function, first: ForOp, second: ForOp, loc: Loc | None) -> ForOp:
    """One loop running `first`'s body then `second`'s in each iteration."""
    if first is second:
        raise TransformError(f"fuse: a loop cannot be fused with itself ({first.label} is named twice)", loc)
    processes = [loop.attrs["process"] for loop in (first, second) if loop.attrs.get("process")]  # while loops too
    if processes:  # the region's processes and channels are fixed where the frontend read them
        what = "are processes" if len(processes) > 1 else "is a process"
        raise TransformError(f"fuse: {' and '.join(processes)} {what} of a dataflow region; fusing would merge "
                             "processes and the channel between them (write the fused loop in the kernel instead)",
                             loc)
    a, b = _constant_loop(first, "fuse", loc), _constant_loop(second, "fuse", loc)
    if a != b:
        raise TransformError(f"fuse: {first.label} runs range{a} and {second.label} range{b}; fused loops need the "
                             "same bounds", loc)
    block = first.parent
    if second.parent is not block or block.ops.index(second) < block.ops.index(first):
        raise TransformError(f"fuse: {second.label} must follow {first.label} in the same block", loc)
    between = block.ops[block.ops.index(first) + 1:block.ops.index(second)]
    produced = set(first.results)
    for op in between:
        if not op.pure or _uses_any(op, produced):
            raise TransformError(f"fuse: {op.name} at {op.loc} stands between {first.label} and {second.label}", loc)
    if _uses_any(second, produced):
        raise TransformError(f"fuse: {second.label} reads the values {first.label} computes "
                             f"({', '.join(r.name or '?' for r in first.results)}) after it ends", loc)
    why = f"fuse({first.label}, {second.label})"
    _check_fusion(first, second, why, loc)
    for op in between:
        block.ops.remove(op)
        block.insert_before(first, op)
    return _fused(func, first, second)


@_at_call
def _check_fusion(first: ForOp, second: ForOp, why: str, loc: Loc | None) -> None:
    found = {id(loop): accesses(loop.body.ops, why) for loop in (first, second)}
    arrays = written_arrays(found[id(first)] + found[id(second)])
    around = enclosing_loops(first, found[id(first)] + found[id(second)], why)
    trip = first.trip_count()
    out, slot = Instances([], [], [], []), 0
    for part, loop in enumerate((first, second)):
        env, shape = grid([*around, loop], why)
        iters = np.arange(trip, dtype=np.int64)
        times = ranks(shape[:-1], max(2 * trip, 1), iters + part * trip, 2 * iters + part)
        for access in found[id(loop)]:
            if access.op.memref in arrays:
                slot += add_access(out, access, env, shape, times, arrays, slot, why)
    check_size(sum(len(k) for k in out.key), why, loc)
    check_order(out, why, loc)


def _fused(func: Function, first: ForOp, second: ForOp) -> ForOp:
    fused = _new_loop(first.lb, first.ub, first.step, [*first.inits, *second.inits], first.iv.type, first.iv.name,
                      [a.name for a in (*first.carried, *second.carried)], first.loc)
    attrs = clone_attrs(second.attrs)
    attrs.update({k: v for k, v in clone_attrs(first.attrs).items() if v is not None})
    fused.attrs = attrs
    fused.attrs["label"] = fresh_label(labels_of(func), f"{first.label}_{second.label}")
    n = len(first.inits)
    values = _copy_body(first, fused.iv, list(fused.carried[:n]), fused.body)
    values += _copy_body(second, fused.iv, list(fused.carried[n:]), fused.body)
    fused.body.append(YieldOp(values, first.loc))
    first.parent.insert_before(first, fused)
    _replace(first, list(fused.results[:n]))
    _replace(second, list(fused.results[n:]))
    return fused
