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
from hls.ir import (
    AllocOp,
    BinaryOp,
    CallOp,
    CastOp,
    CompareOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    IfOp,
    LoadOp,
    LogicOp,
    MathOp,
    PrintOp,
    ReturnOp,
    RomOp,
    RowOp,
    SelectOp,
    StoreOp,
    UnaryOp,
    Value,
    WhileOp,
    YieldOp,
)
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryKind, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.core import Op
from hls.ir.kinds import BINARY, MATH, OpKind
from hls.ir.kinds import COMPARE as COMPARE_GROUP
from hls.ir.kinds import UNARY as UNARY_GROUP
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
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


BIT_UNARY = {BitUnaryKind.REVERSE: bits.reverse, BitUnaryKind.POPCOUNT: bits.bit_count,
             BitUnaryKind.CLZ: bits.leading_zeros}


class Evaluator(Walker):
    """One rule per op class that computes on constants; every other op is not foldable. The bit-level
    rules call the same functions the golden model calls (hls.golden.bits)."""

    not_applicable = (ConstantOp, SelectOp, AllocOp, RomOp, RowOp, LoadOp, StoreOp, YieldOp, ForOp, WhileOp, IfOp,
                      CallOp, ReturnOp, DirectiveOp, PrintOp, StreamOp, FifoOp, StructPackOp, StructGetOp)

    def inapplicable(self, op: Op, args: list[Any]) -> Any:
        raise NotFoldable

    @rule(BitGetOp)
    def bit_get(self, op: BitGetOp, args: list[Any]) -> Any:
        return bits.get_bit(args[0], int(args[1]), op.operands[0].type)

    @rule(BitSetOp)
    def bit_set(self, op: BitSetOp, args: list[Any]) -> Any:
        return bits.set_bit(args[0], int(args[1]), args[2], op.operands[0].type)

    @rule(SliceOp)
    def slice(self, op: SliceOp, args: list[Any]) -> Any:
        return bits.get_slice(args[0], op.lo, op.hi, op.operands[0].type)

    @rule(SliceSetOp)
    def slice_set(self, op: SliceSetOp, args: list[Any]) -> Any:
        return bits.set_slice(args[0], op.lo, op.hi, args[1], op.operands[0].type)

    @rule(ConcatOp)
    def concat(self, op: ConcatOp, args: list[Any]) -> Any:
        return bits.concat_values(tuple(v.type for v in op.operands), *args)

    @rule(BitUnaryOp)
    def bit_unary(self, op: BitUnaryOp, args: list[Any]) -> Any:
        return BIT_UNARY[op.kind](args[0], op.operands[0].type)

    @rule(BitcastOp)
    def bitcast(self, op: BitcastOp, args: list[Any]) -> Any:
        return bits.bitcast_value(args[0], op.operands[0].type, op.result.type)

    @rule(CastOp)
    def cast(self, op: CastOp, args: list[Any]) -> Any:
        return op.result.type.convert(args[0])

    @rule(BinaryOp)
    def binary(self, op: BinaryOp, args: list[Any]) -> Any:
        return _binary(op, *args)

    @rule(CompareOp)
    def compare(self, op: CompareOp, args: list[Any]) -> Any:
        return COMPARE[op.kind](*args)

    @rule(LogicOp)
    def logic(self, op: LogicOp, args: list[Any]) -> Any:
        return op.kind.fold(*args)

    @rule(UnaryOp)
    def unary(self, op: UnaryOp, args: list[Any]) -> Any:
        t = op.result.type
        if op.kind is OpKind.NOT:
            return not args[0]
        value = int(args[0]) if isinstance(t, IntType) else Fraction(args[0]) if isinstance(t, FixedType) \
            else args[0]
        return UNARY[op.kind](value)

    @rule(MathOp)
    def math(self, op: MathOp, args: list[Any]) -> Any:
        t = op.result.type
        if op.func not in EXACT_MATH or len(args) != 1 or op.operands[0].type != t:
            raise NotFoldable
        if op.func is OpKind.SQRT and args[0] < 0:
            raise NotFoldable
        return EXACT_MATH[op.func](t.storage_dtype.type(args[0]))


EVALUATOR = Evaluator()
FOLDABLE = tuple(Evaluator.rules)  # the op classes with a rule: computed on constants


def evaluate(op: Op, args: list[Any]) -> Any:
    """The result of `op` on constant operand values, with the golden model's semantics."""
    return EVALUATOR.dispatch(op, args)


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
