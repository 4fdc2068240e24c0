"""Expressions: names, constants, operators, comparisons, conditions, the ternary and the arithmetic of
augmented assignments.

Records the conversions Python mode needs where the C++ converts implicitly: float literals take
the precision the lowering gave them, ints meeting a float are converted, integer true division,
fixed-point division and variable left shifts call their runtime helpers.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.captures import Captures
from hls.frontend.conversions import Call, Convert, Literal, Part
from hls.frontend.names import Names
from hls.frontend.source import MISSING
from hls.frontend.tables import BINOPS, BOOLOPS, CMPOPS, UNOPS
from hls.ir import ConstantOp, LoadOp, RomOp, Value
from hls.ir.kinds import OpKind
from hls.types import BoolType, FixedType, FloatType, IntType, float64


class Expressions(Family):
    """Names, constants, operators, comparisons and conditions."""

    def __init__(self, ctx: BuildContext, captures: Captures, names: Names) -> None:
        super().__init__(ctx)
        self.captures = captures
        self.names = names

    def static_number(self, node: ast.AST) -> Value:
        value = self.ctx.static(node, "expression")
        if isinstance(value, (bool, int, float, np.number, np.bool_)):
            return self.captures.constant_value(value, node)
        raise self.ctx.error(f"{ast.unparse(node)!r} is a {type(value).__name__}, not a number a kernel can use", node,
                             UnsupportedError)

    def visit_Name(self, node: ast.Name) -> Value:
        if self.ctx.is_struct_local(node.id):
            raise self.ctx.struct_not_a_value(self.ctx.struct_locals[node.id], node)
        if node.id in self.ctx.env and self.ctx.env[node.id].prefix:
            raise self.ctx.error(f"{node.id!r} is a row of an array; index it (`{node.id}[j]`) or pass the whole "
                                 "array", node, UnsupportedError)
        if node.id in self.ctx.env or node.id in self.ctx.loop_locals:
            return self.names.read_name(node)
        return self.captures.captured(node)

    def visit_Constant(self, node: ast.Constant) -> Value:
        if isinstance(node.value, (str, bytes)) or node.value is None or node.value is Ellipsis:
            raise self.ctx.error(f"{type(node.value).__name__} values are not supported in kernels", node,
                                 UnsupportedError)
        if isinstance(node.value, complex):
            raise self.ctx.error("complex numbers are not supported", node, UnsupportedError)
        return self.captures.constant_value(node.value, node)

    def visit_BinOp(self, node: ast.BinOp) -> Value:
        kind = BINOPS.get(type(node.op))
        if kind is None:
            raise self.ctx.error(f"operator {type(node.op).__name__} is not supported", node, UnsupportedError)
        lhs, rhs = self.ctx.expr(node.left), self.ctx.expr(node.right)
        self.check_divisor(kind, lhs, node.right)
        folded = self.python_float(node, kind, lhs, rhs)
        if folded is not None:
            return folded
        lhs, rhs = self.fixed_constant(node.left, lhs, rhs), self.fixed_constant(node.right, rhs, lhs)
        result = self.ctx.lower.binary(kind, lhs, rhs, self.ctx.loc)
        self.note_literals(node, (node.left, lhs), (node.right, rhs), result)
        if kind in (OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.DIV):
            self.note_int_to_float(result.type, (node.left, lhs), (node.right, rhs))
        integers = isinstance(lhs.type, (IntType, BoolType)) and isinstance(rhs.type, (IntType, BoolType))
        if kind == OpKind.DIV and integers:
            self.ctx.conversions.add(node, Call("rt.truediv", (Part("left"), Part("right"))))
        if kind == OpKind.DIV and isinstance(result.type, FixedType):
            self.ctx.conversions.add(node, Call("rt.fixed_div", (Part("left"), Part("right"), result.type)))
        if kind in (OpKind.SHL, OpKind.SHR) and isinstance(lhs.type, FixedType):
            self.ctx.conversions.add(node, Call("bits.fixed_shift", (Part("left"), Part("right"), lhs.type,
                                                                     kind == OpKind.SHL)))
        elif kind == OpKind.SHL and not isinstance(getattr(rhs, "op", None), ConstantOp):
            self.ctx.conversions.add(node, Call("rt.shl_reported", (Part("left"), Part("right"), result.type)))
        return result

    def python_float(self, node: ast.BinOp, kind: OpKind, lhs: Value, rhs: Value) -> Value | None:
        """`1.25 + 1.0`, `2 * 0.5`: arithmetic of bare literals with a float among them is a Python float, as
        weak as a bare literal (next to float32 it is float32, numpy's NEP 50), so it is folded here into
        one (fuzz seed 2315000144: typed float64, the C++ added in double where the golden model did not)."""
        ops = [getattr(v, "op", None) for v in (lhs, rhs)]
        if kind not in (OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.DIV) \
                or not all(self.ctx.lower.is_weak(v) and isinstance(op, ConstantOp) for v, op in zip((lhs, rhs), ops,
                                                                                                  strict=True)) \
                or not any(isinstance(op.value, float) for op in ops):
            return None
        try:
            value = float(kind.fold(*(op.value for op in ops)))
        except (ZeroDivisionError, OverflowError):
            return None
        self.ctx.conversions.add(node, Literal(float64, value))
        return self.ctx.lower.float_const(value, float64, self.ctx.loc, weak=True)

    def fixed_constant(self, node: ast.AST, value: Value, other: Value) -> Value:
        """A float constant meeting fixed point (`STEP * grad`, `sigma * PHASE[j]` with PHASE a float ROM)
        converts to the other operand's fixed type, as `data_t STEP = 0.01;` would in C++ (docs/semantics.md,
        "Fixed point next to float constants"); Python mode converts it the same way. A float that is not a
        constant still needs an explicit conversion."""
        if not (isinstance(other.type, FixedType) and isinstance(value.type, FloatType)):
            return value
        op = getattr(value, "op", None)
        rom = isinstance(op, LoadOp) and isinstance(getattr(op.memref, "op", None), RomOp)
        if not rom and not isinstance(self.ctx.compile_time(node), (float, np.floating)):
            return value
        self.ctx.conversions.add(node, Convert(other.type))
        return self.ctx.lower.cast(value, other.type, self.ctx.loc, explicit=True)

    def check_divisor(self, kind: OpKind, lhs: Value, divisor: ast.AST) -> None:
        """`a[1] // 0`: a divisor that is zero at compile time is an error here, not a fault at run time
        (integers and fixed point; a float division by zero is inf in C++)."""
        if not kind.zero_divisor_raises or isinstance(lhs.type, FloatType):
            return
        value = self.ctx.compile_time(divisor)
        if isinstance(value, (int, float, np.number)) and not isinstance(value, bool) and value == 0:
            what = "modulo" if kind == OpKind.MOD else "division"
            raise self.ctx.error(f"{what} by zero: the divisor {ast.unparse(divisor)!r} is 0 at compile time", divisor)

    def note_literals(self, node: ast.AST, *pairs: tuple[ast.AST, Value]) -> None:
        """Float literals take the precision the lowering gave them (0.5 beside float32 is 0.5f)."""
        result = pairs[-1] if isinstance(pairs[-1], Value) else None
        for item in pairs:
            if isinstance(item, Value):
                continue
            child, value = item
            literal = self.ctx.conversions.get(child, Literal)
            if literal is not None and isinstance(value.type, FloatType):
                self.ctx.conversions.add(child, Literal(self.adopted_float(value, result), literal.value))

    def adopted_float(self, literal: Value, result: Value | None) -> FloatType:
        for user in literal.uses:
            if user.results and isinstance(user.results[0].type, FloatType):
                return user.results[0].type
        if result is not None and isinstance(result.type, FloatType):
            return result.type
        return literal.type

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Value:
        if isinstance(node.op, ast.UAdd):
            return self.ctx.expr(node.operand)
        operand = node.operand
        if isinstance(node.op, ast.USub) and isinstance(operand, ast.Constant) \
                and isinstance(operand.value, (int, float)) and not isinstance(operand.value, bool):
            return self.captures.constant_value(-operand.value, node)
        value = self.ctx.expr(operand)
        result = self.ctx.lower.unary(UNOPS[type(node.op)], value, self.ctx.loc)
        if isinstance(node.op, ast.Invert) and isinstance(result.type, IntType) and not result.type.signed:
            self.ctx.conversions.add(node, Call("rt.convert", (result.type, Part(""))))  # ~ of ap_uint<W> keeps W bits
        return result

    def visit_Compare(self, node: ast.Compare) -> Value:
        left, left_node = self.ctx.expr(node.left), node.left
        result = None
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            kind = CMPOPS.get(type(op))
            if kind is None:
                raise self.ctx.error(f"comparison {type(op).__name__} is not supported in kernels", node,
                                     UnsupportedError)
            right = self.ctx.expr(right_node)
            cmp = self.ctx.lower.compare(kind, left, right, self.ctx.loc)
            if isinstance(left.type, FloatType) or isinstance(right.type, FloatType):
                target = self.ctx.lower.float_target(left, right)  # what both sides are compared in
                self.adopt_literals(target, (left_node, left), (right_node, right))
                self.note_int_to_float(target, (left_node, left), (right_node, right))
            result = cmp if result is None else self.ctx.lower.logic(OpKind.LAND, result, cmp, self.ctx.loc)
            left, left_node = right, right_node
        return result

    def visit_BoolOp(self, node: ast.BoolOp) -> Value:
        kind = BOOLOPS[type(node.op)]
        values = [self.ctx.expr(v) for v in node.values]
        for value_node, value in zip(node.values, values, strict=True):
            if not isinstance(value.type, BoolType):
                raise self.ctx.error("`and`/`or` operands must be conditions (e.g. x != 0): on numbers Python "
                                     "returns one of the operands, not a bool", value_node)
        result = values[0]
        for value in values[1:]:
            result = self.ctx.lower.logic(kind, result, value, self.ctx.loc)
        return result

    def visit_IfExp(self, node: ast.IfExp) -> Value:
        decided = self.ctx.compile_time(node.test)
        if decided is not MISSING:  # `a if MODE == 1 else b`: only the chosen side is hardware
            return self.ctx.expr(node.body if decided else node.orelse)
        cond = self.condition(node.test)
        a, b = self.ctx.expr(node.body), self.ctx.expr(node.orelse)
        result = self.ctx.lower.select(cond, a, b, self.ctx.loc)
        self.adopt_literals(result.type, (node.body, a), (node.orelse, b))
        self.note_int_to_float(result.type, (node.body, a), (node.orelse, b))
        return result

    def condition(self, node: ast.AST) -> Value:
        if isinstance(node, ast.BoolOp):
            kind = BOOLOPS[type(node.op)]
            values = [self.condition(v) for v in node.values]
            result = values[0]
            for value in values[1:]:
                result = self.ctx.lower.logic(kind, result, value, self.ctx.loc)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.ctx.lower.unary(OpKind.NOT, self.condition(node.operand), self.ctx.loc)
        return self.ctx.lower.truth(self.ctx.expr(node), self.ctx.src.loc(node))

    def adopt_literals(self, target: Any, *pairs: tuple[ast.AST, Value]) -> None:
        """Float literals among `pairs` take `target`'s precision in Python mode, as the lowering gave
        them in C++ (`x32 == 0.1` compares with 0.1f; a float64 0.1 would never equal a float32)."""
        if isinstance(target, FloatType):
            for child, value in pairs:
                literal = self.ctx.conversions.get(child, Literal)
                if literal is not None and isinstance(value.type, FloatType):
                    self.ctx.conversions.add(child, Literal(target, literal.value))

    def note_int_to_float(self, target: Any, *pairs: tuple[ast.AST, Value]) -> None:
        """Ints meeting a float are cast to it by the C++; Python mode converts them the same way
        (left to numpy, a wide Python int is rounded to float64 first, then to float32 again)."""
        if isinstance(target, FloatType):
            for child, value in pairs:
                if isinstance(value.type, (IntType, BoolType)):
                    self.ctx.conversions.add(child, Convert(target))

    def augmented(self, kind: str, current: Value, value_node: ast.AST, node: ast.AugAssign) -> Value:
        value = self.ctx.expr(value_node)
        self.check_divisor(kind, current, value_node)
        value = self.fixed_constant(value_node, value, current)
        result = self.ctx.lower.binary(kind, current, value, self.ctx.loc)
        if kind == OpKind.SHL and not isinstance(getattr(value, "op", None), ConstantOp):
            # `x <<= n` wraps in the shift, as `x = x << n`
            self.ctx.conversions.add(node, Call("rt.shl_reported", (Part("left"), Part("right"), result.type)))
        self.note_literals(value_node, (value_node, value), result)  # `x32 *= 0.1` multiplies by 0.1f
        if kind in (OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.DIV):
            self.note_int_to_float(result.type, (value_node, value))
        return result
