"""Deterministic MLIR-like text for the IR: value names come from Python variables with _N suffixes."""

from __future__ import annotations

import json
from fractions import Fraction

from hls.ir.core import Block, Function, Module, Op, Value
from hls.ir.ops import ConstantOp, ForOp, IfOp, RomOp, WhileOp
from hls.ir.visit import Walker, rule
from hls.lang.directives import Directive


class Printer(Walker):
    """The text of each op: loops and ifs print their regions, every other op through the generic
    rule for `Op` (name, attributes, operands, result types)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.counts: dict[str, int] = {}
        self.lines: list[str] = []

    def name(self, value: Value) -> str:
        key = id(value)
        if key not in self.names:
            hint = value.name or "v"
            count = self.counts.get(hint, 0)
            self.counts[hint] = count + 1
            self.names[key] = f"%{hint}" if count == 0 else f"%{hint}_{count}"
        return self.names[key]

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def function(self, func: Function) -> None:
        args = ", ".join(f"{self.name(a)}: {a.type}" for a in func.args)
        ret = f" -> {func.return_type}" if func.return_type is not None else ""
        self.emit(0, f"func @{func.name}({args}){ret} {{")
        self.block(func.body.block, 1)
        self.emit(0, "}")

    def block(self, block: Block, depth: int) -> None:
        for op in block.ops:
            self.op(op, depth)

    def op(self, op: Op, depth: int) -> None:
        results = ", ".join(self.name(r) for r in op.results)
        self.dispatch(op, depth, f"{results} = " if results else "")

    @rule(Op)
    def generic(self, op: Op, depth: int, lhs: str) -> None:
        operands = ", ".join(self.name(v) for v in op.operands)
        types = f" : {_types(op)}" if op.results else ""
        self.emit(depth, f"{lhs}{op.name}{_attrs(op)} {operands}".rstrip() + types)

    @rule(IfOp)
    def if_op(self, op: IfOp, depth: int, lhs: str) -> None:
        self.emit(depth, f"{lhs}hls.if {self.name(op.operands[0])} -> ({_types(op)}) {{")
        self.block(op.then_block, depth + 1)
        self.emit(depth, "} else {")
        self.block(op.else_block, depth + 1)
        self.emit(depth, "}")

    @rule(ForOp)
    def for_op(self, op: ForOp, depth: int, lhs: str) -> None:
        bounds = ", ".join(self.name(v) for v in (op.lb, op.ub, op.step))
        self.emit(depth, f"{lhs}hls.for {self.name(op.iv)} in range({bounds}){self.iters(op, op.carried)} {{")
        self.block(op.body, depth + 1)
        self.emit(depth, "}")

    @rule(WhileOp)
    def while_op(self, op: WhileOp, depth: int, lhs: str) -> None:
        self.emit(depth, f"{lhs}hls.while{self.iters(op, op.cond.args)} {{")
        self.block(op.cond, depth + 1)
        body_args = ", ".join(self.name(a) for a in op.body.args)
        self.emit(depth, f"}} do ({body_args}) {{" if body_args else "} do {")
        self.block(op.body, depth + 1)
        self.emit(depth, "}")

    def iters(self, op: Op, args: list[Value]) -> str:
        """` iter_args(%x = %init, ...) {directives}` of a loop."""
        carried = ", ".join(f"{self.name(a)} = {self.name(i)}" for a, i in zip(args, op.inits, strict=True))
        iters = f" iter_args({carried})" if carried else ""
        directives = {k: v for k, v in op.attrs.items() if v is not None}
        return iters + (" {" + ", ".join(f"{k}={_fmt(v)}" for k, v in directives.items()) + "}" if directives else "")


def _types(op: Op) -> str:
    return ", ".join(str(r.type) for r in op.results)


def _attrs(op: Op) -> str:
    if isinstance(op, ConstantOp):
        return f" {_fmt(op.value)}"
    if isinstance(op, RomOp):
        return f" <{op.result.type}>"
    shown = {k: v for k, v in op.attrs.items() if v is not None and v is not False}
    if not shown:
        return ""
    return " {" + ", ".join(f"{k}={_fmt(v)}" for k, v in sorted(shown.items())) + "}"


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Directive):
        value = value.options()
    if isinstance(value, dict):
        shown = {k: v for k, v in value.items() if v is not None and v is not False}
        return "{" + ", ".join(f"{k}={_fmt(v)}" for k, v in sorted(shown.items())) + "}"
    if isinstance(value, str):
        return json.dumps(value)  # quotes, backslashes and newlines escaped: one op, one line
    if isinstance(value, tuple):
        return "(" + ", ".join("none" if v is None else _fmt(v) for v in value) + ")"
    return str(value)


def print_function(func: Function) -> str:
    printer = Printer()
    printer.function(func)
    return "\n".join(printer.lines) + "\n"


def print_module(module: Module) -> str:
    return "\n".join(print_function(f) for f in module.functions.values())
