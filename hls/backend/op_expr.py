"""The C++ expression of any pure IR op: one dispatch over the arithmetic rules (expr.py) and the
bit-level rules (expr_bits.py, built on the arithmetic ones), so neither of those imports the other back."""

from __future__ import annotations

from hls.backend.expr import (
    Expr,
    binary_expr,
    cast_expr,
    compare_expr,
    constant_expr,
    logic_expr,
    math_expr,
    select_expr,
    unary_expr,
)
from hls.backend.expr_bits import bit_expr
from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, LogicOp, MathOp, SelectOp, UnaryOp
from hls.ir.core import Op


def pure_expr(op: Op, args: list[Expr]) -> Expr:
    """The expression of a pure op from its operands' expressions (one table for every kind)."""
    if isinstance(op, ConstantOp):
        return constant_expr(op)
    if isinstance(op, BinaryOp):
        return binary_expr(op, *args)
    if isinstance(op, CompareOp):
        return compare_expr(op, *args)
    if isinstance(op, LogicOp):
        return logic_expr(op, *args)
    if isinstance(op, UnaryOp):
        return unary_expr(op, *args)
    if isinstance(op, CastOp):
        return cast_expr(op, *args)
    if isinstance(op, SelectOp):
        return select_expr(op, *args)
    if isinstance(op, MathOp):
        return math_expr(op, args)
    return bit_expr(op, args)
