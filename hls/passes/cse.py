"""Common-subexpression elimination: one pure computation per distinct expression, so the C++ and the
scheduler see each index expression, cast and product once instead of once per source occurrence.

Constants are merged function-wide and hoisted to the entry block (they are free literals in the
C++). Other pure ops merge with an equal op that dominates them: earlier in the same block or in an
enclosing one. Loads are not pure (a store may change what they read) and are never merged.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from hls.ir import BinaryOp, CompareOp, ConstantOp, Function, LogicOp, Module
from hls.ir.core import Block, Op
from hls.ir.kinds import OpKind
from hls.passes.clone import set_ops
from hls.passes.evaluate import operand_value
from hls.types import FloatType

COMMUTATIVE = frozenset(k for k in OpKind if k.commutative)


def _hashable(value: Any) -> Hashable:
    """A key equal only for interchangeable attribute values (0.0 and -0.0 differ)."""
    if isinstance(value, float):
        return (value, math.copysign(1.0, value))
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    hash(value)  # numpy arrays and other unhashable attrs raise TypeError: such ops are not merged
    return (type(value).__name__, value)


def _commutes(op: Op) -> bool:
    if not isinstance(op, (BinaryOp, CompareOp, LogicOp)) or op.kind not in COMMUTATIVE:
        return False
    # min/max pick the first of two equal floats (0.0 vs -0.0), so only exact types commute
    return op.kind not in (OpKind.MIN, OpKind.MAX) or not isinstance(op.results[0].type, FloatType)


def expression_key(op: Op) -> Hashable | None:
    """Ops with equal keys compute the same values; None for ops that must not be merged."""
    if not op.pure or op.regions:
        return None
    if isinstance(op, ConstantOp):
        return ConstantOp, _hashable(operand_value(op)), op.result.type
    operands = sorted(op.operands, key=id) if _commutes(op) else op.operands
    try:
        attrs = tuple(sorted((k, _hashable(v)) for k, v in op.attrs.items() if k != "explicit"))
    except TypeError:
        return None
    return type(op), attrs, tuple(operands), tuple(r.type for r in op.results)


def _blocks(block: Block) -> Iterator[Block]:
    yield block
    for op in block.ops:
        for region in op.regions:
            yield from _blocks(region.block)


def _hoist_constants(func: Function) -> None:
    """Every distinct constant once, at the top of the entry block, in order of first appearance."""
    entry = func.body.block
    first: dict[Hashable, ConstantOp] = {}
    for block in list(_blocks(entry)):
        rest = []
        for op in block.ops:
            if not isinstance(op, ConstantOp):
                rest.append(op)
                continue
            kept = first.setdefault(expression_key(op), op)
            if kept is not op:
                op.result.replace_all_uses_with(kept.result)
        set_ops(block, rest)
    set_ops(entry, [*first.values(), *entry.ops])


def _merge_block(block: Block, available: dict[Hashable, Op]) -> None:
    """`available` holds the ops dominating this block; entries added here are dropped on exit."""
    added, kept = [], []
    for op in block.ops:
        for region in op.regions:
            _merge_block(region.block, available)
        key = expression_key(op)
        existing = available.get(key) if key is not None else None
        if existing is None:
            kept.append(op)
            if key is not None:
                available[key] = op
                added.append(key)
            continue
        for old, new in zip(op.results, existing.results, strict=True):
            old.replace_all_uses_with(new)
        op.drop_operands()
    set_ops(block, kept)
    for key in added:
        del available[key]


@dataclass(frozen=True)
class EliminateCommonSubexpressionsPass:
    name: str = "cse"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            _hoist_constants(func)
            _merge_block(func.body.block, {})
