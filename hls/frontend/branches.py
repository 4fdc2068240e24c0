"""`if`/`elif`/`else` -> hls.if, whose results are the variables either branch assigns; statement lists.

A statement list (`visit_body`) runs in order; after a statement that may break, continue or return
(hls.frontend.control sets the flags), the rest runs under an hls.if on the flags. The two recurse into
each other (a body holds ifs, an if holds bodies), so they live in this one family.
"""

from __future__ import annotations

import ast

from hls.frontend.base import BuildContext, Family
from hls.frontend.expressions import Expressions
from hls.frontend.scan import FLAGS, assigned_names, control_assigned, with_fields, zero_of
from hls.frontend.source import MISSING
from hls.frontend.state import Var
from hls.ir import Block, ConstantOp, IfOp, Value, YieldOp
from hls.ir.kinds import OpKind
from hls.types import HLSType


def is_array_name(name: str, env: dict[str, Var]) -> bool:
    return name in env and env[name].is_array


class Branches(Family):
    """`if` statements, the hls.if they become, and statement lists guarded after an exit."""

    def __init__(self, ctx: BuildContext, exprs: Expressions) -> None:
        super().__init__(ctx)
        self.exprs = exprs

    def visit_If(self, node: ast.If) -> None:
        decided = self.ctx.compile_time(node.test)
        if decided is not MISSING:  # `if MODE == 1:` on a compile-time constant: only the taken branch is hardware
            self.visit_body(node.body if decided else node.orelse)
            return
        self.build_if(self.exprs.condition(node.test), node.body, node.orelse)

    def build_if(self, cond: Value, body: list[ast.stmt], orelse: list[ast.stmt],
                 guard: bool = False) -> None:
        """An hls.if on `cond`. A `guard` runs the rest of a body after a possible break/continue/return:
        what it defines first is defined on the exit path too (as a zero nothing reads), so that a name
        Python sees as bound on every path that reaches it stays bound after the join."""
        assigned = assigned_names(body, bit_stores=True) | assigned_names(orelse, bit_stores=True) \
            | control_assigned(body + orelse)
        before = dict(self.ctx.env)
        then_block, then_env = self.branch(body, before)
        else_block, else_env = self.branch(orelse, before)
        assigned = with_fields(assigned, {**then_env, **else_env})
        if guard:
            for n in sorted(assigned - set(before)):  # sorted: the printed IR does not depend on hashing
                var = then_env.get(n)
                if var is not None and not var.is_array:
                    zero = else_block.append(ConstantOp(zero_of(var.type), var.type, self.ctx.loc)).result
                    else_env[n] = Var(zero, var.type)
        names = sorted(n for n in assigned if not is_array_name(n, before) and (
            n in before or (n in then_env and n in else_env)))
        types = []
        for n in names:
            var = before.get(n) or then_env[n]
            types.append(var.type if var.cell else self.ctx.merge_type(n, var.type))
        self.yield_into(then_block, [then_env.get(n, before.get(n)) for n in names], types)
        self.yield_into(else_block, [else_env.get(n, before.get(n)) for n in names], types)
        op = IfOp(cond, types, list(names), self.ctx.loc)
        for region, block in zip(op.regions, (then_block, else_block), strict=True):
            region.block = block
            block.parent = region
        self.ctx.block.append(op)
        self.ctx.env = before
        for n, result, t in zip(names, op.results, types, strict=True):
            self.ctx.env[n] = Var(result, t)
        self.ctx.loop_locals |= {n for n in assigned if n not in self.ctx.env}

    def branch(self, stmts: list[ast.stmt], env: dict[str, Var]) -> tuple[Block, dict[str, Var]]:
        block = Block()
        with self.ctx.region(block), self.ctx.scope(env) as inner:
            self.visit_body(stmts)
        return block, inner.env

    def yield_into(self, block: Block, variables: list[Var | None], types: list[HLSType]) -> None:
        with self.ctx.region(block):
            values = [self.ctx.lower.assign(var.value, t, self.ctx.loc, "branch result")
                      for var, t in zip(variables, types, strict=True)]
            self.ctx.emit(YieldOp(values, self.ctx.loc))

    def visit_body(self, stmts: list[ast.stmt]) -> None:
        """Statements in order; after one that may break, continue or return, the rest runs guarded."""
        for index, stmt in enumerate(stmts):
            self.ctx.visit(stmt)
            if isinstance(stmt, (ast.Break, ast.Continue, ast.Return)):
                return  # what follows is unreachable, as in Python
            rest = stmts[index + 1:]
            flags = [self.ctx.env[n].value for n in FLAGS if n in control_assigned([stmt]) and n in self.ctx.env]
            if rest and flags:
                stop = flags[0]
                for flag in flags[1:]:
                    stop = self.ctx.lower.logic(OpKind.LOR, stop, flag, self.ctx.loc)
                self.build_if(self.ctx.lower.unary(OpKind.NOT, stop, self.ctx.loc), rest, [], guard=True)
                return
