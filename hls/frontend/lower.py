"""Typed construction of arithmetic: one place decides result types and inserts conversions.

The builder calls these with IR values; each returns the result value. Rules follow Python's
meaning of the operator with ap_int/ap_fixed result widths (hls.types has the width rules).
"""

from __future__ import annotations

from collections.abc import Callable

from hls.errors import HLSTypeError, Loc, UnsupportedError
from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, LogicOp, MathOp, SelectOp, UnaryOp, Value
from hls.ir.bitops import BitcastOp
from hls.ir.core import Op
from hls.ir.kinds import OpKind
from hls.ir.ranges import value_range
from hls.types import (
    MAX_INT_WIDTH,
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    TypeFamily,
    as_int,
    fixed_binop_type,
    fixed_of,
    float_join,
    int_binop_type,
    int_union,
    literal_int_type,
)
from hls.wording import type_expr

float32 = FloatType(32)
float64 = FloatType(64)
Emit = Callable[[Op], Value]

MAX_POW_EXPONENT = 16


SCALAR_FAMILIES = (TypeFamily.BOOL, TypeFamily.INT, TypeFamily.FIXED, TypeFamily.FLOAT)
INTEGRAL = (TypeFamily.INT, TypeFamily.BOOL)


def scalar_family(t: object) -> TypeFamily | None:
    """The family of a scalar type operators compute on; None for anything else (structs, arrays, streams)."""
    family = getattr(t, "family", None)
    return family if family in SCALAR_FAMILIES else None


class Lowering:
    """Builds typed ops through `emit`, which appends to the current block."""

    def __init__(self, emit: Emit):
        self.emit = emit
        self.weak: set[Value] = set()  # bare literals: their type adapts to their use (a frontend-only fact)

    def is_weak(self, value: Value) -> bool:
        """A bare literal: a float adopts the precision of the float it meets (0.5 next to float32 is 0.5f),
        and a local it initialises gets C's int32 / float64."""
        return value in self.weak

    # ---- conversions ---------------------------------------------------------------------------

    def cast(self, value: Value, target: ScalarType, loc: Loc | None, explicit: bool = False) -> Value:
        if value.type == target:
            return value
        op = getattr(value, "op", None)
        if isinstance(op, ConstantOp) and isinstance(target, FloatType) and isinstance(op.value, (int, float)):
            return self.emit(ConstantOp(float(target.convert(op.value)), target, loc))
        return self.emit(CastOp(value, target, loc, explicit=explicit))

    def assign(self, value: Value, target: ScalarType, loc: Loc | None, what: str) -> Value:
        """Implicit conversion at an assignment, store, argument or return: lossless kinds only."""
        src, dst = scalar_family(value.type), scalar_family(target)
        op = getattr(value, "op", None)
        if src is TypeFamily.FLOAT and isinstance(target, IntType) and isinstance(op, ConstantOp) \
                and float(op.value).is_integer() and target.convert(int(op.value)) == int(op.value):
            return self.emit(ConstantOp(int(op.value), target, loc))  # `C[i, j] = 0.0`: the integer it is exactly
        if src is TypeFamily.FLOAT and dst in INTEGRAL:
            raise HLSTypeError(f"{what}: implicit conversion from {value.type} to {target} would truncate; "
                               f"convert explicitly, e.g. {type_expr(target)}(x)", loc)
        if src is TypeFamily.FIXED and dst in INTEGRAL:
            raise HLSTypeError(f"{what}: implicit conversion from {value.type} to {target} drops the fraction; "
                               f"convert explicitly with {type_expr(target)}(x)", loc)
        if src in (TypeFamily.INT, TypeFamily.FIXED, TypeFamily.FLOAT) and dst is TypeFamily.BOOL:
            raise HLSTypeError(f"{what}: {value.type} is not a bool; compare explicitly, e.g. x != 0", loc)
        return self.cast(value, target, loc)

    def truth(self, value: Value, loc: Loc | None) -> Value:
        """A value in a test position (if, while, ternary, not, and/or) becomes bool as Python does."""
        if isinstance(value.type, BoolType):
            return value
        if scalar_family(value.type) is None:
            raise HLSTypeError(f"{value.type} cannot be used as a condition", loc)
        if isinstance(value.type, FloatType):
            zero = self.float_const(0.0, value.type, loc)
        else:
            zero = self.constant(0, loc)
        return self.compare(OpKind.NE, value, zero, loc)

    def constant(self, value: int | bool, loc: Loc | None) -> Value:
        if isinstance(value, bool):
            return self.emit(ConstantOp(value, BoolType(), loc))
        result = self.emit(ConstantOp(value, literal_int_type(value), loc))
        self.weak.add(result)
        return result

    def float_const(self, value: float, t: FloatType, loc: Loc | None, weak: bool = False) -> Value:
        result = self.emit(ConstantOp(float(value), t, loc))
        if weak:
            self.weak.add(result)
        return result

    # ---- arithmetic ----------------------------------------------------------------------------

    def binary(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        ka, kb = scalar_family(a.type), scalar_family(b.type)
        if None in (ka, kb):
            raise HLSTypeError(f"operator needs scalars, got {a.type} and {b.type}", loc)
        if kind in (OpKind.AND, OpKind.OR, OpKind.XOR) and ka == kb == TypeFamily.BOOL:
            return self.emit(BinaryOp(kind, a, b, BoolType(), loc))
        if kind == OpKind.POW:
            return self.power(a, b, loc)
        if kind in (OpKind.SHL, OpKind.SHR):
            return self.shift(kind, a, b, loc)
        if TypeFamily.FLOAT in (ka, kb):
            return self.float_binary(kind, a, b, loc)
        if TypeFamily.FIXED in (ka, kb):
            return self.fixed_binary(kind, a, b, loc)
        a, b = self.as_int(a, loc), self.as_int(b, loc)
        if kind == OpKind.DIV:  # Python true division of integers: float64
            return self.emit(BinaryOp(OpKind.DIV, self.cast(a, float64, loc), self.cast(b, float64, loc), float64, loc))
        return self.emit(BinaryOp(kind, a, b, int_binop_type(kind, a.type, b.type), loc))

    def as_int(self, value: Value, loc: Loc | None) -> Value:
        return self.cast(value, as_int(value.type), loc) if isinstance(value.type, BoolType) else value

    def float_binary(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        if TypeFamily.FIXED in (scalar_family(a.type), scalar_family(b.type)):
            fixed = a.type if scalar_family(a.type) is TypeFamily.FIXED else b.type
            raise HLSTypeError(f"mixing fixed point ({a.type}, {b.type}) with floats needs an explicit "
                               f"conversion: for a fixed-point design convert the float, e.g. {type_expr(fixed)}(x), "
                               f"and declare a constant table in its type, TAPS = {type_expr(fixed)}[N](values); "
                               "to compute in float, hls.float32(x)", loc)
        if kind in (OpKind.FLOORDIV, OpKind.MOD, OpKind.AND, OpKind.OR, OpKind.XOR):
            raise UnsupportedError(f"operator '{kind}' on floating-point values is not supported", loc)
        target = self.float_target(a, b)
        a, b = self.cast(a, target, loc), self.cast(b, target, loc)
        if kind in (OpKind.MIN, OpKind.MAX):
            return self.emit(BinaryOp(kind, a, b, target, loc))
        return self.emit(BinaryOp(kind, a, b, target, loc))

    def float_target(self, a: Value, b: Value) -> FloatType:
        floats = [v for v in (a, b) if isinstance(v.type, FloatType)]
        strong = [v for v in floats if not self.is_weak(v)]
        if strong:
            return float_join(*(v.type for v in strong))
        return float64

    def fixed_binary(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        if kind not in (OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.DIV, OpKind.MIN, OpKind.MAX):
            raise UnsupportedError(f"operator '{kind}' on fixed-point values is not supported yet; "
                                   "convert to a float or an integer first", loc)
        fa, fb = fixed_of(a.type), fixed_of(b.type)
        a, b = self.cast(a, fa, loc), self.cast(b, fb, loc)
        return self.emit(BinaryOp(kind, a, b, fixed_binop_type(kind, fa, fb), loc))

    def shift(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        if isinstance(a.type, FixedType) and scalar_family(b.type) in INTEGRAL:
            return self.fixed_shift(kind, a, b, loc)
        if scalar_family(a.type) not in INTEGRAL or scalar_family(b.type) not in INTEGRAL:
            raise HLSTypeError(f"shifts need integers, got {a.type} and {b.type}", loc)
        a, b = self.as_int(a, loc), self.as_int(b, loc)
        count = getattr(b, "op", None)
        if isinstance(count, ConstantOp):
            if count.value < 0:
                raise HLSTypeError("negative shift count", loc)
            if kind == OpKind.SHL:
                width = min(a.type.width + count.value, 1024)
                return self.emit(BinaryOp(OpKind.SHL, a, b, IntType(width, a.type.signed), loc))
            return self.emit(BinaryOp(OpKind.SHR, a, b, a.type, loc))
        if kind == OpKind.SHL and self.is_weak(a):
            a = self.literal_shifted(a, b, loc)
        # variable count: the result keeps the left operand's width (ap_int semantics; the golden
        # model wraps the same way); a bare literal was first given the width its count bounds
        return self.emit(BinaryOp(kind, a, b, a.type, loc))

    def fixed_shift(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        """ap_fixed `x >> n` / `x << n`: the raw bits shifted in the same type, whatever its rounding and
        overflow modes (ap_fixed_base.h operator>>/<<: `r.V = V >> sh`, modes applied only under
        __SC_COMPATIBLE__), so the shift is the integer shift of the bits: a CORDIC's `y >> i`."""
        t = a.type
        raw = IntType(t.width, t.signed)
        shifted = self.shift(kind, self.emit(BitcastOp(a, raw, loc)), b, loc)
        return self.emit(BitcastOp(self.cast(shifted, raw, loc, explicit=True), t, loc))

    def literal_shifted(self, a: Value, b: Value, loc: Loc | None) -> Value:
        """`1 << n`: the literal in the exact width n's range allows (n: uint5 gives 2 + 31 bits)."""
        found = value_range(b)
        most = max(found[1], 0) if found is not None else MAX_INT_WIDTH
        width = a.type.width + most
        if width > MAX_INT_WIDTH:
            raise HLSTypeError(f"`{a.op.value} << n` with n up to {most} needs {width} bits (more than "
                               f"{MAX_INT_WIDTH}); give the shifted value a type, e.g. hls.uint32({a.op.value}) << n",
                               loc)
        return self.emit(ConstantOp(a.op.value, IntType(width, a.type.signed), loc))

    def power(self, a: Value, b: Value, loc: Loc | None) -> Value:
        exp_op = getattr(b, "op", None)
        if isinstance(exp_op, ConstantOp) and isinstance(exp_op.value, int) and not isinstance(exp_op.value, bool):
            n = exp_op.value
            if not 0 <= n <= MAX_POW_EXPONENT:
                raise UnsupportedError(f"x ** {n}: only constant exponents 0..{MAX_POW_EXPONENT} are supported",
                                       loc)
            if n == 0:
                return self.constant(1, loc)
            result = a = self.as_int(a, loc)  # True ** 1 is the int 1 in Python
            for _ in range(n - 1):
                result = self.binary(OpKind.MUL, result, a, loc)
            return result
        if isinstance(a.type, FloatType) or isinstance(b.type, FloatType):
            return self.math("pow", [a, b], loc)
        raise UnsupportedError("integer ** needs a constant exponent", loc)

    def unary(self, kind: str, a: Value, loc: Loc | None) -> Value:
        k = scalar_family(a.type)
        if kind == OpKind.NOT:
            return self.emit(UnaryOp(OpKind.NOT, self.truth(a, loc), BoolType(), loc))
        if k is TypeFamily.BOOL:
            if kind == OpKind.INVERT:
                raise HLSTypeError("~ on a bool gives -2 or -1 in Python; use `not`", loc)
            a = self.as_int(a, loc)
            k = TypeFamily.INT
        if k is TypeFamily.FLOAT:
            return self.emit(UnaryOp(kind, a, a.type, loc))
        if k is TypeFamily.FIXED:
            if kind == OpKind.INVERT:
                raise UnsupportedError("~ on fixed point is not supported", loc)
            t = a.type
            return self.emit(UnaryOp(kind, a, FixedType(t.width + 1, t.int_bits + 1, True), loc))
        if k is not TypeFamily.INT:
            raise HLSTypeError(f"unary operator on {a.type}", loc)
        from_bool = isinstance(getattr(a, "op", None), CastOp) and isinstance(a.op.operands[0].type, BoolType)
        if kind == OpKind.INVERT and not a.type.signed and not from_bool:
            # ap_uint's ~ keeps the width: Python has no unsigned ~ (but `True ** 1` is Python's int 1)
            inverted = self.emit(UnaryOp(kind, a, IntType(min(a.type.width + 1, MAX_INT_WIDTH), True), loc))
            return self.cast(inverted, a.type, loc, explicit=True)
        width = a.type.width + (0 if kind == OpKind.INVERT and a.type.signed else 1)
        return self.emit(UnaryOp(kind, a, IntType(min(width, MAX_INT_WIDTH), True), loc))

    def compare(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        ka, kb = scalar_family(a.type), scalar_family(b.type)
        if None in (ka, kb):
            raise HLSTypeError(f"cannot compare {a.type} with {b.type}", loc)
        if TypeFamily.FLOAT in (ka, kb):
            if TypeFamily.FIXED in (ka, kb):
                raise HLSTypeError("comparing fixed point with a float needs an explicit conversion", loc)
            target = self.float_target(a, b)
            a, b = self.cast(a, target, loc), self.cast(b, target, loc)
        return self.emit(CompareOp(kind, a, b, loc))

    def logic(self, kind: str, a: Value, b: Value, loc: Loc | None) -> Value:
        return self.emit(LogicOp(kind, self.truth(a, loc), self.truth(b, loc), loc))

    def select(self, cond: Value, a: Value, b: Value, loc: Loc | None) -> Value:
        target = self.join(a, b, loc)
        a, b = self.cast(a, target, loc), self.cast(b, target, loc)
        return self.emit(SelectOp(self.truth(cond, loc), a, b, loc))

    def join(self, a: Value, b: Value, loc: Loc | None) -> ScalarType:
        """The type holding both values (branches of a ternary, min/max)."""
        ka, kb = scalar_family(a.type), scalar_family(b.type)
        if a.type == b.type:
            return a.type
        if TypeFamily.FLOAT in (ka, kb):
            if TypeFamily.FIXED in (ka, kb):
                raise HLSTypeError("mixing fixed point with floats needs an explicit conversion", loc)
            return self.float_target(a, b)
        if TypeFamily.FIXED in (ka, kb):
            return fixed_binop_type("max", fixed_of(a.type), fixed_of(b.type))
        return int_union(as_int(a.type), as_int(b.type))

    def math(self, func: str, args: list[Value], loc: Loc | None) -> Value:
        for arg in args:
            if scalar_family(arg.type) not in (*INTEGRAL, TypeFamily.FLOAT):
                raise HLSTypeError(f"math.{func} needs a number, got {arg.type}", loc)
        floats = [v.type for v in args if isinstance(v.type, FloatType) and not self.is_weak(v)]
        target = float_join(*floats) if floats else float64
        args = [self.cast(v, target, loc) for v in args]
        return self.emit(MathOp(func, args, target, loc))

    def minmax(self, kind: str, args: list[Value], loc: Loc | None) -> Value:
        result = args[0]
        for arg in args[1:]:
            target = self.join(result, arg, loc)
            result = self.emit(BinaryOp(kind, self.cast(result, target, loc), self.cast(arg, target, loc),
                                        target, loc))
        return result

    def absolute(self, a: Value, loc: Loc | None) -> Value:
        return self.unary(OpKind.ABS, a, loc)


def iv_type(lb, ub, step=None) -> IntType:
    """Narrowest type covering both bounds: keeps index arithmetic narrow in the generated C++. A step that
    is a variable also counts, and one bit more: the counter may pass the bound by up to the step."""
    values = (lb, ub) if step is None or isinstance(getattr(step, "op", None), ConstantOp) else (lb, ub, step)
    types = []
    for value in values:
        op = getattr(value, "op", None)
        types.append(literal_int_type(op.value) if isinstance(op, ConstantOp) else as_int(value.type))
    union = types[0]
    for t in types[1:]:
        union = int_union(union, t)
    return union if len(values) == 2 else IntType(union.width + 1, union.signed)
