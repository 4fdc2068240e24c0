"""Constant folding, so unrolled and specialised code shrinks: ops on constants become constants
(computed by hls.passes.evaluate, the golden model's semantics); a constant condition picks the branch
of a select or an `if`; an `if` result yielding one value, or true and false, becomes that value or the
condition; a loop exit flag that is always false goes; `not` of a comparison is the inverse comparison;
integer x+0, x*1 become x (widened by a cast if narrower than the exact result type) and x*0, x&0
become 0; casts to a value's own type or of a merely widened integer collapse.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, IfOp, Module, SelectOp, UnaryOp, Value, has_exit
from hls.ir.core import Block, Op
from hls.ir.kinds import BINARY, COMPARE, OpKind, kinds
from hls.passes.clone import set_ops
from hls.passes.evaluate import FOLDABLE, NotFoldable, fold, operand_value
from hls.types import BoolType, FloatType, IntType

Rewrite = tuple[list[Op], list[Value]]  # ops to insert before the old op, values replacing its results
IDENTITY_RHS = {k: k.identity_rhs for k in kinds(BINARY) if k.identity_rhs is not None}
IDENTITY_LHS = {k: k.identity_lhs for k in kinds(BINARY) if k.identity_lhs is not None}
ABSORBING = {k: k.absorbing for k in kinds(BINARY) if k.absorbing is not None}


def const_op(value: Value) -> ConstantOp | None:
    op = getattr(value, "op", None)
    return op if isinstance(op, ConstantOp) else None


def _fold(op: Op) -> Rewrite | None:
    """Ops on constants become constants; a float32 constant holding 0.1 gets the float32 value."""
    if isinstance(op, ConstantOp):
        if not isinstance(op.result.type, FloatType):
            return None  # only a float constant can hold more precision than its type
        value = operand_value(op)
        if value == op.value and type(value) is type(op.value):
            return None
    else:
        consts = [const_op(v) for v in op.operands]
        if not isinstance(op, FOLDABLE) or None in consts:
            return None
        try:
            value = fold(op, [operand_value(c) for c in consts])
        except NotFoldable:
            return None
    new = ConstantOp(value, op.result.type, op.loc)
    new.result.name = op.result.name
    return [new], [new.result]


def _select(op: SelectOp) -> Rewrite | None:
    cond, if_true, if_false = op.operands
    if if_true is if_false:
        return [], [if_true]
    test = const_op(cond)
    return ([], [if_true if test.value else if_false]) if test is not None else None


def _identity(op: BinaryOp) -> Rewrite | None:
    """x+0 -> x, x*1 -> x, x*0 -> 0 for integers; x keeps its value, so only a widening cast is needed."""
    t = op.result.type
    if not isinstance(t, IntType):
        return None
    lhs, rhs = const_op(op.lhs), const_op(op.rhs)
    for const, other, table in ((rhs, op.lhs, IDENTITY_RHS), (lhs, op.rhs, IDENTITY_LHS)):
        if const is None or not isinstance(other.type, IntType):
            continue
        if ABSORBING.get(op.kind) == const.value:
            new: Op = ConstantOp(0, t, op.loc)
        elif table.get(op.kind) == const.value and t.contains(other.type):
            if other.type == t:
                return [], [other]
            new = CastOp(other, t, op.loc)
        else:
            continue
        new.result.name = op.result.name
        return [new], [new.result]
    return None


def _widens(op: Op | None) -> bool:
    """An integer cast into a type holding every source value leaves the value unchanged."""
    if not isinstance(op, CastOp):
        return False
    src, dst = op.operands[0].type, op.result.type
    return isinstance(src, IntType) and isinstance(dst, IntType) and dst.contains(src)


def _cast(op: CastOp) -> Rewrite | None:
    """cast(x, type of x) -> x; cast(cast(x, wider int), T) -> cast(x, T)."""
    source, t = op.operands[0], op.result.type
    inner = getattr(source, "op", None)
    if _widens(inner):
        source = inner.operands[0]
    if source.type == t:
        return [], [source]
    if source is op.operands[0]:
        return None
    new = CastOp(source, t, op.loc, explicit=op.explicit)
    new.result.name = op.result.name
    return [new], [new.result]


INVERSE = {k: k.inverse for k in kinds(COMPARE)}


def _not(op: UnaryOp) -> Rewrite | None:
    """not (a < b) -> a >= b (only == and != for floats, where NaN breaks the others); not not x -> x."""
    inner = getattr(op.operands[0], "op", None)
    if op.kind is not OpKind.NOT:
        return None
    if isinstance(inner, UnaryOp) and inner.kind is OpKind.NOT:
        return [], [inner.operands[0]]
    if not isinstance(inner, CompareOp):
        return None
    if inner.kind not in (OpKind.EQ, OpKind.NE) and any(isinstance(v.type, FloatType) for v in inner.operands):
        return None
    new = CompareOp(INVERSE[inner.kind], *inner.operands, op.loc)
    new.result.name = op.result.name
    return [new], [new.result]


SIMPLIFY = {CastOp: _cast, SelectOp: _select, BinaryOp: _identity, UnaryOp: _not}


def _rewrite(op: Op) -> Rewrite | None:
    simplify = SIMPLIFY.get(type(op))
    return _fold(op) or (simplify(op) if simplify is not None else None)


def _if_results(op: IfOp, kept: list[Op]) -> bool:
    """A result both branches yield alike is that value; a bool result yielding true and false (a flag
    set in one branch) is the condition or its negation."""
    changed = False
    cond = op.operands[0]
    for result, a, b in zip(op.results, op.then_block.terminator.operands, op.else_block.terminator.operands,
                            strict=True):
        if not result.uses:
            continue
        ta, tb = const_op(a), const_op(b)
        flag = isinstance(result.type, BoolType) and ta is not None and tb is not None
        if a is b:  # visible in both branches, so defined before the `if`
            result.replace_all_uses_with(a)
        elif flag and ta.value is True and tb.value is False:
            cond.name = cond.name or result.name  # `bool break_flag = a[i] == key;`
            result.replace_all_uses_with(cond)
        elif flag and ta.value is False and tb.value is True:
            negated = UnaryOp(OpKind.NOT, cond, BoolType(), op.loc)
            negated.result.name = result.name
            kept.append(negated)
            result.replace_all_uses_with(negated.result)
        else:
            continue
        changed = True
    return changed


def _never_exits(op: Op) -> bool:
    """A loop whose exit flag folded to false loses it (no `if (false) break;` in the C++)."""
    if not has_exit(op):
        return False
    flag = const_op(op.regions[-1].block.terminator.operands[-1])
    if flag is None or flag.value:
        return False
    op.regions[-1].block.terminator.erase_operand(len(op.results))
    op.attrs["exit"] = None
    return True


def _inline_branch(op: IfOp, pending: deque[Op]) -> None:
    """Queue the taken branch's ops where the `if` was; its yielded values stand for the results."""
    test = const_op(op.operands[0])
    taken = op.then_block if test.value else op.else_block
    moved, taken.ops = taken.ops[:-1], taken.ops[-1:]
    for result, value in zip(op.results, taken.terminator.operands, strict=True):
        result.replace_all_uses_with(value)
    op.drop_operands()
    pending.extendleft(reversed(moved))


def _fold_block(block: Block) -> bool:
    """One in-order pass; the block's op list is rebuilt once (unrolled blocks hold thousands of ops)."""
    changed = False
    pending, kept = deque(block.ops), []
    while pending:
        op = pending.popleft()
        if isinstance(op, IfOp) and const_op(op.operands[0]) is not None:
            _inline_branch(op, pending)
            changed = True
            continue
        for region in op.regions:
            changed |= _fold_block(region.block)
        if isinstance(op, IfOp):
            changed |= _if_results(op, kept)
        changed |= _never_exits(op)
        rewrite = _rewrite(op)
        if rewrite is None:
            kept.append(op)
            continue
        new_ops, values = rewrite
        kept.extend(new_ops)
        for result, value in zip(op.results, values, strict=True):
            result.replace_all_uses_with(value)
        op.drop_operands()
        changed = True
    set_ops(block, kept)
    return changed


@dataclass(frozen=True)
class FoldConstantsPass:
    name: str = "fold-constants"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            while _fold_block(func.body.block):
                pass
