"""Trip counts of `while` loops without hls.loop_tripcount, where the condition bounds a counter.

Recognised: the condition is `c < B`, `c <= B`, `c > B` or `c >= B` (alone, or the first operand of
a chain of `and`), where `c` is a carried value the body always replaces by `c + k` (`c - k` for
`>`/`>=`), k a positive constant, and B and the initial value of `c` have known ranges. The
counter cannot wrap: it stops at B, which its own type holds. With an `and`, a `break` or a
`return`, the loop may end sooner: the minimum is then 0. Anything else is unknown (None, None).
"""

from __future__ import annotations

from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, LogicOp, Value, WhileOp, has_exit
from hls.ir.affine import trip_range
from hls.ir.kinds import OpKind
from hls.ir.ranges import value_range

Range = tuple[int, int]


def _strip_casts(value: Value) -> Value:
    while isinstance(getattr(value, "op", None), CastOp):
        value = value.op.operands[0]
    return value


def _compare(loop: WhileOp) -> tuple[CompareOp | None, bool]:
    """The bounding comparison and whether it is the whole condition."""
    cond = loop.cond.terminator.operands[0]
    whole = True
    while isinstance(getattr(cond, "op", None), LogicOp) and cond.op.kind == OpKind.LAND:
        cond, whole = cond.op.operands[0], False
    op = getattr(cond, "op", None)
    ordered = isinstance(op, CompareOp) and op.kind in (OpKind.LT, OpKind.LE, OpKind.GT, OpKind.GE)
    return (op, whole) if ordered else (None, False)


def _step(loop: WhileOp, slot: int) -> int | None:
    """k when the body yields carried[slot] + k for slot `slot` (k may be negative)."""
    nxt = _strip_casts(loop.body.terminator.operands[slot])
    op = getattr(nxt, "op", None)
    if not isinstance(op, BinaryOp) or op.kind not in (OpKind.ADD, OpKind.SUB):
        return None
    lhs, rhs = _strip_casts(op.lhs), getattr(_strip_casts(op.rhs), "op", None)
    if lhs is not loop.body.args[slot] or not isinstance(rhs, ConstantOp) or isinstance(rhs.value, bool):
        return None
    return rhs.value if op.kind == OpKind.ADD else -rhs.value


def while_trip(loop: WhileOp, ranges: dict[Value, Range]) -> tuple[int | None, int | None]:
    cmp, whole = _compare(loop)
    if cmp is None:
        return None, None
    counter = _strip_casts(cmp.operands[0])
    if counter not in loop.cond.args:
        return None, None
    slot = loop.cond.args.index(counter)
    step = _step(loop, slot)
    start = value_range(loop.inits[slot], ranges, use_types=False)
    bound = value_range(cmp.operands[1], ranges, use_types=False)
    if step is None or step == 0 or start is None or bound is None:
        return None, None
    up = cmp.kind in (OpKind.LT, OpKind.LE)
    if up != (step > 0):
        return None, None
    inclusive = 1 if cmp.kind == OpKind.LE else -1 if cmp.kind == OpKind.GE else 0
    low, high = trip_range(start, (bound[0] + inclusive, bound[1] + inclusive), step)
    return (low if whole and not has_exit(loop) else 0), high
