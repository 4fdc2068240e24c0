"""`while`, `break`, `continue` and `return` anywhere, lowered to structured IR with flags.

A `break` or `continue` sets a per-iteration flag, a `return` sets a function-wide flag and the
result; every statement after one that may have set a flag runs under `if not flag` (an hls.if, so
folding, CSE and DCE keep their meaning; hls.frontend.branches, `visit_body`). A loop whose body may
break or return yields one more value, the exit flag, and ends after the iteration that sets it (`exit`
attribute on hls.for and hls.while): the C++ gets `if (flag) break;` at the end of the body. The flags
are ordinary variables under reserved names, so the existing loop and branch lowering carries them.
"""

from __future__ import annotations

import ast

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.branches import Branches
from hls.frontend.expressions import Expressions
from hls.frontend.joins import counter_bound
from hls.frontend.scan import (
    BREAK,
    CONTINUE,
    RESULT,
    RETURNED,
    assigned_by_statements,
    assigned_names,
    control_assigned,
    directly_in,
    with_fields,
    zero_of,
)
from hls.frontend.source import call_target
from hls.frontend.state import Var
from hls.ir import ConstantOp, Value, WhileOp, YieldOp
from hls.ir.core import Op
from hls.ir.kinds import OpKind
from hls.lang.directives import unroll
from hls.types import BoolType, ScalarType


class Control(Family):
    """`while`, `break`, `continue` and early `return`, through flag variables."""

    def __init__(self, ctx: BuildContext, exprs: Expressions, branches: Branches) -> None:
        super().__init__(ctx)
        self.exprs = exprs
        self.branches = branches

    def carried_names(self, stmts: list[ast.stmt]) -> list[str]:
        """Scalars a loop body assigns that exist before it (the return flag and result included)."""
        assigned = assigned_names(stmts, bit_stores=True) | (control_assigned(stmts) & {RETURNED, RESULT})
        assigned = with_fields(assigned, self.ctx.env)
        return sorted(n for n in assigned if n in self.ctx.env and not self.ctx.env[n].is_array)

    def carried_inits(self, carried: list[str]) -> list[Value]:
        """The values a loop starts with, each in the type it has around the loop (merge_type)."""
        inits = []
        for n in carried:
            var = self.ctx.env[n]
            t = var.type if var.cell or not isinstance(var.type, ScalarType) else self.ctx.merge_type(n, var.type)
            inits.append(self.ctx.lower.assign(var.value, t, self.ctx.loc, "loop-carried value"))
        return inits

    def set_flag(self, name: str, value: bool) -> None:
        flag = self.ctx.lower.constant(value, self.ctx.loc)
        flag.name = name
        self.ctx.env[name] = Var(flag, BoolType())

    def start_function(self) -> None:
        """Early-return kernels: the flag and the result exist from the first statement on."""
        self.ctx.early_return = True
        self.set_flag(RETURNED, False)
        ret = self.ctx.func.return_type
        if ret is not None:  # read only where the flag says a return happened
            self.ctx.env[RESULT] = Var(self.ctx.emit(ConstantOp(zero_of(ret), ret, self.ctx.loc)), ret)
            self.ctx.env[RESULT].value.name = RESULT

    def visit_Break(self, node: ast.Break) -> None:
        self.lower_break(node, BREAK)

    def visit_Continue(self, node: ast.Continue) -> None:
        self.lower_break(node, CONTINUE)

    def lower_break(self, node: ast.stmt, name: str) -> None:
        if not self.ctx.loops:
            word = "break" if name == BREAK else "continue"
            raise self.ctx.error(f"`{word}` outside a loop", node, UnsupportedError)
        self.set_flag(name, True)

    def flag_return(self, value: Value | None) -> None:
        if value is not None:
            self.ctx.env[RESULT] = Var(value, self.ctx.func.return_type)
        self.set_flag(RETURNED, True)

    def start_iteration(self, body: list[ast.stmt]) -> None:
        """A loop's own break/continue flags start false in every iteration, as does the return flag."""
        own = control_assigned(body)
        for name in (BREAK, CONTINUE):
            if name in own:
                self.set_flag(name, False)
            else:
                self.ctx.env.pop(name, None)  # an enclosing loop's flag: not this loop's to read
        if RETURNED in own:
            self.set_flag(RETURNED, False)  # an iteration that starts has seen no return (it would have exited)

    def end_iteration(self, loop: Op, carried: list[str], body: list[ast.stmt]) -> None:
        """Yield the carried values and, when the body may break or return, the exit flag."""
        values = [self.ctx.lower.assign(self.ctx.env[n].value, result.type, self.ctx.loc, "loop-carried value")
                  for n, result in zip(carried, loop.results, strict=False)]
        own = control_assigned(body)
        flags = [self.ctx.env[n].value for n in (BREAK, RETURNED) if n in own and n in self.ctx.env]
        if flags:
            stop = flags[0]
            for flag in flags[1:]:
                stop = self.ctx.lower.logic(OpKind.LOR, stop, flag, self.ctx.loc)
            values.append(stop)
            loop.attrs["exit"] = True
        options = loop.unroll
        if isinstance(loop, WhileOp) and options and not options.off:
            raise self.unroll_error(body, "hls.unroll() needs a `for` loop over range(...); a `while` loop has no trip "
                                          "count to unroll")
        if flags and options and not options.off and not options.factor:
            raise self.unroll_error(body, "hls.unroll() cannot fully unroll a loop with `break` or `return` inside: "
                                          "its trip count depends on the data (use hls.unroll(factor=N), or remove the "
                                          "early exit)")
        self.ctx.emit(YieldOp(values, self.ctx.loc))

    def unroll_error(self, body: list[ast.stmt], message: str) -> HLSTypeError:
        """The error at the hls.unroll() line of `body`."""
        node = next((s for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                     and call_target(s.value.func, self.ctx.src) is unroll), None)
        return self.ctx.error(message, node, HLSTypeError)

    def visit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise self.ctx.error("`while ... else` is not supported", node, UnsupportedError)
        carried = self.carried_names(node.body)
        loop = WhileOp(self.carried_inits(carried), carried, self.ctx.loc)
        self.ctx.carries[id(loop)] = set(carried)
        loop.attrs["label"] = self.ctx.unique_label("while")
        self.ctx.block.append(loop)
        marks = {n: len(self.ctx.entries.get(n, ())) for n in carried}
        with self.ctx.region(loop.cond), self.ctx.scope():
            for name, arg in zip(carried, loop.cond.args, strict=True):
                self.ctx.env[name] = Var(arg, arg.type)
            cond = self.exprs.condition(node.test)
            self.ctx.emit(YieldOp([cond], self.ctx.loc))
        if getattr(getattr(cond, "op", None), "value", None) is True and not control_assigned(node.body) & {
                BREAK, RETURNED}:
            raise self.ctx.error("this `while` loop never exits: its condition is always true and its body has no "
                                 "`break` or `return`", node, UnsupportedError)
        with self.ctx.region(loop.body), self.ctx.scope():
            for name, arg in zip(carried, loop.body.args, strict=True):
                self.ctx.env[name] = Var(arg, arg.type)
            self.start_iteration(node.body)
            with self.ctx.in_loop(loop):
                self.branches.visit_body(node.body)
            self.end_iteration(loop, carried, node.body)
        self.bound_counters(loop, cond, node.body, marks)
        for name, result in zip(carried, loop.results, strict=True):
            self.ctx.env[name] = Var(result, result.type)
        self.ctx.loop_locals |= {n for n in assigned_names(node.body) if n not in self.ctx.env}

    def bound_counters(self, loop: WhileOp, cond: Value, body: list[ast.stmt], marks: dict[str, int]) -> None:
        """The updates of a counter its `while` condition bounds (`while i < n: ... i += 1`) reach no further
        than the bound (hls.frontend.joins.counter_bound); every other accumulation in a while loop stays
        unbounded. `marks` says, for each carried name in order, where its entries of this loop (condition and
        body) start; a name `body` also binds otherwise (a loop target, a bit store) is never bounded."""
        for name, arg in zip(marks, loop.cond.args, strict=True):
            updates = self.ctx.entries.get(name, [])[marks[name]:]
            if not assigned_by_statements(body, name):
                continue
            bound = counter_bound(cond, arg, updates, id(loop))
            for entry in updates if bound is not None else ():
                entry.bound = bound

    def refuse_exits(self, node: ast.For) -> None:
        """A loop the frontend unrolls itself (over a tuple of compile-time values) has no hardware loop
        for a `break` or `continue` to leave, nor a place to stop the copies after a `return`."""
        for stmt in node.body:
            for inner in ast.walk(stmt):
                if isinstance(inner, (ast.Break, ast.Continue, ast.Return)) and control_assigned([inner]) and \
                        directly_in(node, inner):
                    word = type(inner).__name__.lower()
                    raise self.ctx.error(f"`{word}` inside a loop over a tuple of compile-time values is not "
                                         "supported: that loop is unrolled by the compiler; loop over range(len(...)) "
                                         "instead", inner, UnsupportedError)
