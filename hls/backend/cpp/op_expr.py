"""The C++ expression of any pure IR op: one dispatch over the arithmetic rules (expr.py) and the
bit-level rules (expr_bits.py, built on the arithmetic ones), so neither of those imports the other back."""

from __future__ import annotations

from hls.backend.cpp.expr import (
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
from hls.backend.cpp.expr_bits import bit_expr
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
    WhileOp,
    YieldOp,
)
from hls.ir.bitops import BIT_OPS
from hls.ir.core import Op
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule


class PureExpr(Walker):
    """The C++ expression of each pure op class. Loads, struct fields and ROMs are the function
    emitter's (they name arrays and variables it declares); statements have no expression."""

    not_applicable = (LoadOp, StructGetOp, StructPackOp, RomOp, RowOp, AllocOp, StoreOp, YieldOp, ForOp, WhileOp, IfOp,
                      CallOp, ReturnOp, DirectiveOp, PrintOp, StreamOp, FifoOp)

    @rule(ConstantOp)
    def constant(self, op: ConstantOp, args: list[Expr]) -> Expr:
        return constant_expr(op)

    @rule(BinaryOp)
    def binary(self, op: BinaryOp, args: list[Expr]) -> Expr:
        return binary_expr(op, *args)

    @rule(CompareOp)
    def compare(self, op: CompareOp, args: list[Expr]) -> Expr:
        return compare_expr(op, *args)

    @rule(LogicOp)
    def logic(self, op: LogicOp, args: list[Expr]) -> Expr:
        return logic_expr(op, *args)

    @rule(UnaryOp)
    def unary(self, op: UnaryOp, args: list[Expr]) -> Expr:
        return unary_expr(op, *args)

    @rule(CastOp)
    def cast(self, op: CastOp, args: list[Expr]) -> Expr:
        return cast_expr(op, *args)

    @rule(SelectOp)
    def select(self, op: SelectOp, args: list[Expr]) -> Expr:
        return select_expr(op, *args)

    @rule(MathOp)
    def math(self, op: MathOp, args: list[Expr]) -> Expr:
        return math_expr(op, args)

    @rule(*BIT_OPS)
    def bits(self, op: Op, args: list[Expr]) -> Expr:
        return bit_expr(op, args)


PURE_EXPR = PureExpr()


def pure_expr(op: Op, args: list[Expr]) -> Expr:
    """The expression of a pure op from its operands' expressions."""
    return PURE_EXPR.dispatch(op, args)
