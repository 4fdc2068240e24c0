"""Value ranges of integer IR values: one analysis for the backend (proving array indices in bounds)
and the scheduler (trip counts of loops whose bounds depend on enclosing loops)."""

from __future__ import annotations

from hls.ir.core import BlockArg, Value
from hls.ir.kinds import OpKind
from hls.ir.ops import BinaryOp, CastOp, ConstantOp, ForOp, SelectOp, UnaryOp
from hls.types import BoolType, IntType

Range = tuple[int, int]
MAX_DEPTH = 32


def type_range(value: Value) -> Range | None:
    t = value.type
    if isinstance(t, BoolType):
        return (0, 1)
    if isinstance(t, IntType):
        return (t.min, t.max)
    return None


def value_range(value: Value, known: dict[Value, Range] | None = None, use_types: bool = True,
                depth: int = 0) -> Range | None:
    """A sound inclusive [lo, hi] for an integer value, or None when nothing is known.

    `known` gives ranges the caller already has (e.g. loop counters with a tripcount); with
    `use_types` a value about which nothing else is known falls back to the range of its type.
    """
    if known and value in known:
        return known[value]
    fallback = type_range(value) if use_types else None
    if depth > MAX_DEPTH:
        return fallback
    op = getattr(value, "op", None)
    if isinstance(value, BlockArg):
        loop = value.block.parent.parent if value.block.parent is not None else None
        if isinstance(loop, ForOp) and value is loop.iv:
            return iv_range(loop, depth) or fallback
        return fallback
    if isinstance(op, ConstantOp) and isinstance(op.value, int):
        return (int(op.value), int(op.value))
    if isinstance(op, BinaryOp):
        return binary_range(op, known, use_types, depth) or fallback
    if isinstance(op, CastOp):
        inner = value_range(op.operands[0], known, use_types, depth + 1)
        target = type_range(value)
        if inner is not None and (target is None or target[0] <= inner[0] and inner[1] <= target[1]):
            return inner
        return target if inner is not None else fallback
    if isinstance(op, SelectOp):
        a, b = (value_range(v, known, use_types, depth + 1) for v in op.operands[1:])
        return (min(a[0], b[0]), max(a[1], b[1])) if a and b else fallback
    if isinstance(op, UnaryOp) and op.kind == OpKind.NEG:
        inner = value_range(op.operands[0], known, use_types, depth + 1)
        return (-inner[1], -inner[0]) if inner else fallback
    return fallback


def iv_range(loop: ForOp, depth: int = 0) -> Range | None:
    bounds = loop.const_bounds()
    if bounds is None:
        return variable_step_range(loop, depth)
    values = range(*bounds)
    if len(values) == 0:
        return None
    return (min(values[0], values[-1]), max(values[0], values[-1]))


def binary_range(op: BinaryOp, known: dict[Value, Range] | None, use_types: bool, depth: int) -> Range | None:
    a = value_range(op.lhs, known, use_types, depth + 1)
    b = value_range(op.rhs, known, use_types, depth + 1)
    if a is None or b is None:
        return None
    if op.kind == OpKind.ADD:
        return (a[0] + b[0], a[1] + b[1])
    if op.kind == OpKind.SUB:
        return (a[0] - b[1], a[1] - b[0])
    if op.kind == OpKind.MUL:
        products = [x * y for x in a for y in b]
        return (min(products), max(products))
    if op.kind in (OpKind.MIN, OpKind.MAX):
        pick = min if op.kind == OpKind.MIN else max
        return (pick(a[0], b[0]), pick(a[1], b[1]))
    if op.kind == OpKind.SHR and b[0] >= 0:
        low = a[0] >> b[1] if a[0] >= 0 else a[0] >> b[0]  # shifting more shrinks toward 0 or -1
        high = a[1] >> b[0] if a[1] >= 0 else a[1] >> b[1]
        return (low, high)
    if op.kind == OpKind.SHL and a[0] >= 0 and 0 <= b[0] and b[1] <= 64:  # 1 << s: a power of two per s
        shifted, held = (a[0] << b[0], a[1] << b[1]), type_range(op.result)
        return shifted if held is not None and held[0] <= shifted[0] and shifted[1] <= held[1] else None
    if op.kind == OpKind.AND and (a[0] >= 0 or b[0] >= 0):
        return (0, min(x[1] for x in (a, b) if x[0] >= 0))
    if op.kind == OpKind.MOD and b[0] > 0:
        return (0, b[1] - 1)
    return None


def in_bounds(index: Value, size: int) -> bool:
    found = value_range(index)
    return found is not None and 0 <= found[0] and found[1] < size


def variable_step_range(loop: ForOp, depth: int) -> Range | None:
    """The counter of range(lb, ub, step) whose step is a variable of one sign: between lb and ub."""
    if isinstance(getattr(loop.step, "op", None), ConstantOp):
        return None
    lb, ub, step = (value_range(v, depth=depth + 1) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step[0] <= 0 <= step[1]:
        return None
    return (lb[0], ub[1] - 1) if step[0] > 0 else (ub[0] + 1, lb[1])
