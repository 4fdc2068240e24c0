"""Exact lanes for the numpy golden model: object arrays holding Python mode's own values.

Integers wider than int64, fixed-point values wider than float64 holds exactly, fixed-point
division, and fixed point mixed with wide integers run here: each lane holds what Python mode holds
(a Python int, a Fraction, a bool, an np.float32) and every operation is Python mode's own scalar
operation (operators, hls.types convert, hls.golden.runtime helpers) applied per lane. Still one pass over
the loop nest rather than one interpreted statement per element, and exact by construction.
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any

import numpy as np

from hls.golden import runtime
from hls.golden.vplan import native_ok
from hls.ir import BinaryOp, CompareOp, UnaryOp
from hls.ir.kinds import OpKind
from hls.passes.evaluate import COMPARE, UNARY, VECTOR_ARITH
from hls.types import BoolType, FixedType, FloatType, IntType, ScalarType

_FRACTION = np.frompyfunc(Fraction, 1, 1)


def objects(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=object)


def py(values: Any, t: ScalarType) -> np.ndarray:
    """Lanes in any form as an object array of Python-mode values of type `t`."""
    arr = np.asarray(values)
    if arr.dtype == object:
        return arr
    if isinstance(t, FixedType):
        return objects(_FRACTION(arr.astype(np.float64)))
    if isinstance(t, FloatType):
        return objects(np.frompyfunc(t.storage_dtype.type, 1, 1)(arr))
    if isinstance(t, BoolType):
        return arr.astype(np.bool_).astype(object)
    return arr.astype(np.int64).astype(object) if arr.dtype == np.bool_ else arr.astype(object)


def native(values: np.ndarray, t: ScalarType) -> Any:
    """Object lanes back in the numpy form of `t` when that form is exact (else they stay objects)."""
    if not native_ok(t):
        return values
    if isinstance(t, IntType):
        return values.astype(np.int64)
    if isinstance(t, FixedType):
        return values.astype(np.float64)  # float(Fraction) is exact for these widths
    if isinstance(t, FloatType):
        return values.astype(t.storage_dtype)
    return values.astype(np.bool_)


def per_lane(func: Any, *args: Any) -> np.ndarray:
    return objects(np.frompyfunc(func, len(args), 1)(*args))


def bools(values: Any) -> np.ndarray:
    return np.asarray(values).astype(np.bool_)


def binary(op: BinaryOp, a: Any, b: Any, check: Any) -> Any:
    """`check(bad, error)` raises `error` when a lane that executes is bad; returns safe operands."""
    t, kind = op.result.type, op.kind
    a, b = py(a, op.lhs.type), py(b, op.rhs.type)
    if kind in (OpKind.FLOORDIV, OpKind.MOD, OpKind.DIV):
        b = check(bools(b == 0), ZeroDivisionError("division by zero"), b, 1)
    elif kind in (OpKind.SHL, OpKind.SHR):
        b = check(bools(b < 0), ValueError("negative shift count"), b, 0)
    elif kind.typed:  # a rotate: its count must lie in 0..width-1 (hls.golden.bits.rotate raises otherwise)
        b = check(bools((b < 0) | (b >= t.width)), ValueError(f"{kind} count outside 0..{t.width - 1}"), b, 0)
    if kind.typed:
        result = per_lane(lambda x, y: kind.fold(x, y, t), a, b)
    elif kind == OpKind.DIV:
        result = per_lane(lambda x, y: runtime.fixed_div(x, y, t), a, b)
    elif kind == OpKind.SHL:
        result = per_lane(lambda x, y: runtime.shl(x, y, t), a, b)
    elif kind == OpKind.SHR:
        result = objects(a >> b)
    else:
        result = objects(VECTOR_ARITH[kind](a, b))
    return native(result, t)


def compare(op: CompareOp, a: Any, b: Any) -> Any:
    return bools(COMPARE[op.kind](py(a, op.operands[0].type), py(b, op.operands[1].type)))


def unary(op: UnaryOp, a: Any) -> Any:
    a = py(a, op.operands[0].type)
    if op.kind == OpKind.NOT:
        return bools(per_lane(operator.not_, a))
    return native(per_lane(UNARY[op.kind], a),
                  op.result.type)


def convert(t: ScalarType, src: ScalarType, values: Any, record: bool) -> tuple[Any, Any, Any]:
    """(result in t's form, the lanes that wrapped or saturated, the Python-mode values before)."""
    before = py(values, src)
    after = per_lane(t.convert, before)
    wrapped = bools(per_lane(lambda x, y: runtime.overflowed(t, x, y), before, after)) if record else None
    return native(after, t), wrapped, before
