"""What a pure op computes on constant operands, exactly as the golden model computes it.

Shared by constant folding and by unrolling (which needs loop bounds computed from constants).
Integer results are exact and must fit their type (anything else is an IR bug and fails loudly);
floats are computed in their own precision with numpy scalars; only correctly rounded math
functions evaluate. Whatever would raise in Python mode, divides by zero or gives a value the C++
cannot spell as a literal raises NotFoldable, and the op stays.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from hls.golden import bits
from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, LogicOp, MathOp, UnaryOp, Value
from hls.ir.bitops import BIT_OPS, BitcastOp, BitGetOp, BitSetOp, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.core import Op
from hls.ir.kinds import BINARY, MATH, OpKind
from hls.ir.kinds import COMPARE as COMPARE_GROUP
from hls.ir.kinds import UNARY as UNARY_GROUP
from hls.types import BoolType, FixedType, FloatType, IntType, ScalarType


class NotFoldable(Exception):
    """The op must stay an op: its result is not a constant the C++ and Python agree on."""


def _exact(*groups: str) -> dict[OpKind, Any]:
    return {k: k.fold for k in OpKind if k.fold is not None and not k.typed and k.groups & set(groups)}


ARITH = {k: f for k, f in _exact(BINARY).items() if k.exact_on}
# the same operations on numpy arrays (the numpy golden model, hls/golden/vexec.py): only min and max
# need a form of their own, with the same operand order and NaN behaviour as the scalar ones
VECTOR_ARITH = {**ARITH, OpKind.MIN: lambda a, b: np.where(b < a, b, a),
                OpKind.MAX: lambda a, b: np.where(a < b, b, a)}
COMPARE = _exact(COMPARE_GROUP)
UNARY = {k: f for k, f in _exact(UNARY_GROUP).items() if k is not OpKind.NOT}
EXACT_MATH = _exact(MATH)  # only the correctly rounded functions have a fold
FOLDABLE = (BinaryOp, CompareOp, LogicOp, UnaryOp, CastOp, MathOp, *BIT_OPS)
KINDS = {t: {k for k in ARITH if family in k.exact_on}
         for t, family in ((BoolType, "bool"), (FloatType, "float"), (FixedType, "fixed"), (IntType, "int"))}
MAX_SHIFT = 4096


def _binary(op: BinaryOp, a: Any, b: Any) -> Any:
    t, kind = op.result.type, op.kind
    if kind.typed and isinstance(t, IntType):
        try:
            return kind.fold(a, b, t)
        except ValueError:
            raise NotFoldable from None  # Python mode raises here (a rotate count out of range)
    if kind not in KINDS.get(type(t), ()) or kind.zero_divisor_raises and b == 0:
        raise NotFoldable
    if isinstance(t, BoolType):
        return ARITH[kind](bool(a), bool(b))
    if isinstance(t, FloatType):
        if not op.lhs.type == op.rhs.type == t:
            raise NotFoldable
        scalar = t.storage_dtype.type
        return ARITH[kind](scalar(a), scalar(b))
    if isinstance(t, FixedType):
        return ARITH[kind](Fraction(a), Fraction(b))
    a, b = int(a), int(b)
    if kind in (OpKind.SHL, OpKind.SHR):
        if not 0 <= b <= MAX_SHIFT:
            raise NotFoldable  # Python raises on negative counts
        return t.convert(a << b) if kind is OpKind.SHL else a >> b  # a variable-count shl wraps
    return ARITH[kind](a, b)


BIT_UNARY = {"reverse": bits.reverse, "popcount": bits.bit_count, "clz": bits.leading_zeros}


def _bit_op(op: Op, args: list[Any]) -> Any:
    """Bit-level ops, computed by the same functions the golden model calls (hls.golden.bits)."""
    types = [v.type for v in op.operands]
    if isinstance(op, BitGetOp):
        return bits.get_bit(args[0], int(args[1]), types[0])
    if isinstance(op, BitSetOp):
        return bits.set_bit(args[0], int(args[1]), args[2], types[0])
    if isinstance(op, SliceOp):
        return bits.get_slice(args[0], op.lo, op.hi, types[0])
    if isinstance(op, SliceSetOp):
        return bits.set_slice(args[0], op.attrs["lo"], op.attrs["hi"], args[1], types[0])
    if isinstance(op, ConcatOp):
        return bits.concat_values(tuple(types), *args)
    if isinstance(op, BitUnaryOp):
        return BIT_UNARY[op.kind](args[0], types[0])
    if isinstance(op, BitcastOp):
        return bits.bitcast_value(args[0], types[0], op.result.type)
    raise NotFoldable


def evaluate(op: Op, args: list[Any]) -> Any:
    """The result of `op` on constant operand values, with the golden model's semantics."""
    t = op.results[0].type
    if isinstance(op, BIT_OPS):
        return _bit_op(op, args)
    if isinstance(op, CastOp):
        return t.convert(args[0])
    if isinstance(op, BinaryOp):
        return _binary(op, *args)
    if isinstance(op, CompareOp):
        return COMPARE[op.kind](*args)
    if isinstance(op, LogicOp):
        return op.kind.fold(*args)
    if isinstance(op, UnaryOp):
        if op.kind is OpKind.NOT:
            return not args[0]
        value = int(args[0]) if isinstance(t, IntType) else Fraction(args[0]) if isinstance(t, FixedType) \
            else args[0]
        return UNARY[op.kind](value)
    if isinstance(op, MathOp) and op.func in EXACT_MATH and len(args) == 1 and op.operands[0].type == t:
        if op.func is OpKind.SQRT and args[0] < 0:
            raise NotFoldable
        return EXACT_MATH[op.func](t.storage_dtype.type(args[0]))
    raise NotFoldable


def constant_value(value: Any, t: ScalarType, op: Op) -> Any:
    """`value` as a ConstantOp of type `t` holds it; NotFoldable if the C++ could not spell it."""
    if isinstance(t, BoolType):
        return bool(value)
    if isinstance(t, IntType):
        if not t.min <= int(value) <= t.max:
            raise op.fail(f"folds to {value}, which does not fit {t}: the IR is not exact here")
        return int(value)
    if isinstance(t, FloatType):
        value = float(value)
        if not math.isfinite(value) or math.copysign(1.0, value) < 0 and value == 0:
            raise NotFoldable  # no literal for inf/nan, and -0.0f would print as a decrement
        return value
    if isinstance(t, FixedType):
        value = Fraction(value)
        if t.convert(value) != value:
            raise op.fail(f"folds to {value}, which does not fit {t}: the IR is not exact here")
        if Fraction(float(value)) != value:
            raise NotFoldable  # fixed literals are emitted through a double
        return value
    raise NotFoldable


def operand_value(const: ConstantOp) -> Any:
    """A constant's value as Python mode sees it (a float32 constant holding 0.1 means float32(0.1))."""
    t = const.result.type
    return float(t.convert(const.value)) if isinstance(t, FloatType) else const.value


def fold(op: Op, args: list[Any]) -> Any:
    """The ConstantOp value replacing `op`; NotFoldable when the op must stay."""
    try:
        with np.errstate(all="ignore"):  # overflow to inf is reported as NotFoldable below, not warned
            return constant_value(evaluate(op, args), op.results[0].type, op)
    except (ArithmeticError, ValueError, TypeError, IndexError) as exc:
        raise NotFoldable from exc


def static_value(value: Value, depth: int = 0) -> Any | None:
    """The constant `value` always holds when foldable ops compute it from constants, else None."""
    op = getattr(value, "op", None)
    if isinstance(op, ConstantOp):
        return operand_value(op)
    if not isinstance(op, FOLDABLE) or depth > 64:
        return None
    args = [static_value(v, depth + 1) for v in op.operands]
    if any(a is None for a in args):
        return None
    try:
        return fold(op, args)
    except NotFoldable:
        return None
