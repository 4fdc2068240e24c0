"""Deep copies of ops and blocks with value remapping, for unrolling and any pass that duplicates code.

A `ValueMap` sends old values to their replacements. Cloning an op maps its results (and the
arguments of every block nested in it) to the copies, so the ops cloned after it read the copies;
values the map does not know are defined outside the cloned code and are used as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hls.ir.core import Block, Function, Module, Op, Region, Value

ValueMap = dict[Value, Value]


def remap(values: Iterable[Value], mapping: ValueMap) -> list[Value]:
    """The replacements of `values` (themselves when not remapped)."""
    return [mapping.get(value, value) for value in values]


def clone_attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    """A copy whose option dicts (pipeline, unroll, ...) can be edited without touching the original."""
    return {key: dict(value) if isinstance(value, dict) else value for key, value in attrs.items()}


def clone_op(op: Op, mapping: ValueMap) -> Op:
    """A copy of `op`, regions included, reading remapped operands; records its results in `mapping`.

    Every op keeps its whole state in operands, results, regions and attrs, so one generic copy
    serves every op class without calling the subclass constructors.
    """
    regions = [Region(clone_block(region.block, mapping)) for region in op.regions]
    copy = type(op).__new__(type(op))
    Op.__init__(copy, remap(op.operands, mapping), [r.type for r in op.results], regions,
                clone_attrs(op.attrs), op.loc, [r.name for r in op.results])
    mapping.update(zip(op.results, copy.results, strict=True))
    return copy


def clone_block(block: Block, mapping: ValueMap) -> Block:
    """A new block with fresh arguments of the same types and copies of every op, terminator included."""
    copy = Block([arg.type for arg in block.args], [arg.name for arg in block.args])
    mapping.update(zip(block.args, copy.args, strict=True))
    for op in block.ops:
        copy.append(clone_op(op, mapping))
    return copy


def clone_ops(ops: Iterable[Op], mapping: ValueMap) -> list[Op]:
    """Copies of a straight-line op sequence, not yet placed in any block."""
    return [clone_op(op, mapping) for op in ops]


def insert_ops(block: Block, index: int, ops: list[Op]) -> None:
    """Splice `ops` into `block` at `index` in one step (unrolling inserts thousands of ops)."""
    for op in ops:
        op.parent = block
    block.ops[index:index] = ops


def set_ops(block: Block, ops: list[Op]) -> None:
    """Give `block` a rebuilt op list: passes filter big blocks in one step instead of op by op."""
    for op in ops:
        op.parent = block
    block.ops = ops


def clone_block_into(block: Block, dest: Block, mapping: ValueMap, index: int | None = None) -> list[Value]:
    """Inline a copy of `block` minus its terminator into `dest` (at `index`, else at the end);
    returns the values the terminator yields, remapped.

    The caller maps `block`'s arguments first (e.g. a loop's induction variable to a constant).
    """
    term = block.terminator if block.terminator is not None and block.terminator.is_terminator else None
    body = block.ops[:-1] if term is not None else block.ops
    insert_ops(dest, len(dest.ops) if index is None else index, clone_ops(body, mapping))
    return remap(term.operands, mapping) if term is not None else []


def clone_module(module: Module) -> Module:
    """A deep copy of every function, for a second use of one frontend build (the numpy and compiled
    golden models read the IR before passes; the C++ of kept loops skips the unroll pass)."""
    copy = Module(module.top)
    for func in module.functions.values():
        new = Function.__new__(Function)
        new.name, new.return_type, new.loc = func.name, func.return_type, func.loc
        new.body = Region(clone_block(func.body.block, {}))
        new.attrs = clone_attrs(func.attrs)
        copy.add(new)
    return copy
