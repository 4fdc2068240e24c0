"""`for i in range(...)` -> hls.for with the values the body carries across iterations."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

from hls.errors import UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.branches import Branches
from hls.frontend.control import Control
from hls.frontend.lower import iv_type
from hls.frontend.scan import assigned_names, find_assignment
from hls.frontend.source import call_target, try_static
from hls.frontend.state import Var
from hls.ir import ConstantOp, Value
from hls.lang.directives import DIRECTIVES
from hls.types import BoolType, IntType


class Loops(Family):
    """`for ... in range(...)` loops and their carried values."""

    def __init__(self, ctx: BuildContext, branches: Branches, control: Control) -> None:
        super().__init__(ctx)
        self.branches = branches
        self.control = control

    def lower_for(self, node: ast.For, prologue: Callable[[Value], None] | None = None) -> None:
        """`prologue(iv)`, when given, binds names at the top of the body (the element of `for v in a`)."""
        if node.orelse:
            raise self.ctx.error("`for ... else` is not supported", node, UnsupportedError)
        if not isinstance(node.target, ast.Name):
            raise self.ctx.error("the loop variable must be a single name", node.target, UnsupportedError)
        lb, ub, step = self.range_bounds(node.iter)
        iv_name = node.target.id
        assigned = assigned_names(node.body, bit_stores=True)
        if iv_name in assigned:
            raise self.ctx.error(f"assignment to the loop variable {iv_name!r} inside the loop; use another variable",
                                 find_assignment(node.body, iv_name) or node, UnsupportedError)
        if iv_name in self.ctx.env:
            self.lower_for(self.assigning_loop(node), prologue)
            return
        carried = self.control.carried_names(node.body)
        inits = self.control.carried_inits(carried)
        loop = self.ctx.new_loop(lb, ub, step, inits, carried, iv_name, iv_type(lb, ub, step))
        self.ctx.carries[id(loop)] = set(carried)
        self.ctx.block.append(loop)
        with self.ctx.region(loop.body), self.ctx.scope():
            self.ctx.env[iv_name] = Var(loop.iv, loop.iv.type, is_iv=True)
            for name, arg in zip(carried, loop.carried, strict=True):
                self.ctx.env[name] = Var(arg, arg.type)
            self.control.start_iteration(node.body)
            with self.ctx.in_loop(loop):
                if prologue is not None:
                    prologue(loop.iv)
                self.ctx.label_slot = node.body[0] if node.body else None
                self.branches.visit_body(node.body)
            self.control.end_iteration(loop, carried, node.body)
        for name, result in zip(carried, loop.results, strict=True):
            self.ctx.env[name] = Var(result, result.type)
        self.ctx.loop_locals |= {n for n in assigned | {iv_name} if n not in self.ctx.env}

    def assigning_loop(self, node: ast.For) -> ast.For:
        """`prev = 0; for prev in range(1, N)`: in Python the loop variable is the variable `prev`, holding its
        last value after the loop (its old value when the loop runs no iteration). Lowered as a loop over a
        fresh counter whose body starts with `prev = counter`, so `prev` is an ordinary carried local."""
        name = node.target.id
        var = self.ctx.env[name]
        if var.is_iv or var.is_array or var.cell or var.prefix or not isinstance(var.type, (IntType, BoolType)):
            what = "an enclosing loop's variable" if var.is_iv else "a variable that is not an integer scalar"
            raise self.ctx.error(f"loop variable {name!r} reuses the name of {what}: rename one", node.target,
                                 UnsupportedError)
        counter, count = f"{name}_i", 1
        while counter in self.ctx.kernel_names or counter in self.ctx.env:
            counter, count = f"{name}_i{count}", count + 1
        self.ctx.kernel_names.add(counter)
        head = 0
        while head < len(node.body) and isinstance(node.body[head], ast.Expr) \
                and isinstance(node.body[head].value, ast.Call) \
                and call_target(node.body[head].value.func, self.ctx.src) in DIRECTIVES.values():
            head += 1  # hls.label / hls.pipeline stay first
        assign = ast.copy_location(ast.Assign(targets=[ast.copy_location(ast.Name(name, ast.Store()), node.target)],
                                              value=ast.copy_location(ast.Name(counter, ast.Load()), node.target)),
                                   node.target)
        body = [*node.body[:head], assign, *node.body[head:]]
        target = ast.copy_location(ast.Name(counter, ast.Store()), node.target)
        return ast.copy_location(ast.For(target=target, iter=node.iter, body=body, orelse=[], type_comment=None),
                                 node)

    def range_bounds(self, node: ast.AST):
        if not (isinstance(node, ast.Call) and try_static(node.func, self.ctx.src) is builtins.range):
            raise self.ctx.error("loops must iterate over range(...); iterating over arrays or other objects is not "
                                 "supported", node, UnsupportedError)
        if node.keywords or not 1 <= len(node.args) <= 3:
            raise self.ctx.error("range takes 1 to 3 positional arguments", node, UnsupportedError)
        values = [self.ctx.expr(a) for a in node.args]
        for arg, value in zip(node.args, values, strict=True):
            if not isinstance(value.type, (IntType, BoolType)):
                raise self.ctx.error(f"range bounds must be integers, got {value.type}", arg)
        values = [self.ctx.lower.as_int(v, self.ctx.loc) for v in values]
        if len(values) == 1:
            values = [self.ctx.lower.constant(0, self.ctx.loc), values[0]]
        if len(values) == 2:
            values.append(self.ctx.lower.constant(1, self.ctx.loc))
        step_op = getattr(values[2], "op", None)
        if isinstance(step_op, ConstantOp) and step_op.value == 0:
            raise self.ctx.error("range() step is zero: Python raises ValueError here; give a non-zero step",
                                 node.args[2])
        return values
