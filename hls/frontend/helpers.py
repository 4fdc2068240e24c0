"""Plain `def` helpers nested in a kernel: inlined at each call, as Vitis inlines a small function.

A helper's parameters are bound to the call's arguments: an array passes the array itself, a
compile-time number stays a compile-time constant inside the body (so `if n == 0` picks a branch
while building and a recursive helper such as the Vitis `fibon<N>` template example unfolds into
straight code), any other value is its scalar. The body runs in its own scope (Python's: what it
assigns stays local) and returns once, at its end. Python mode calls the helper as Python does.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.source import MISSING
from hls.frontend.state import Var
from hls.ir import Value

MAX_DEPTH = 64  # nested inlinings before a recursion is taken not to end at compile time


class Helpers(Family):
    """Nested plain functions, recorded where defined and inlined where called."""

    def __init__(self, ctx: BuildContext) -> None:
        super().__init__(ctx)
        self.defs: dict[str, ast.FunctionDef] = {}
        self.depth = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.decorator_list:
            raise self.ctx.error("a function nested in a kernel is inlined and takes no decorator; define a "
                                 "sub-kernel at module level (or in the factory) with @hls.kernel", node,
                                 UnsupportedError)
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
            raise self.ctx.error("a nested helper takes plain positional parameters only", node, UnsupportedError)
        body = node.body[1:] if node.body and isinstance(node.body[0], ast.Expr) \
            and isinstance(node.body[0].value, ast.Constant) else node.body
        for inner in (n for stmt in body[:-1] for n in ast.walk(stmt)):
            if isinstance(inner, ast.Return):
                raise self.ctx.error("a nested helper is inlined: it returns once, as its last statement", inner,
                                     UnsupportedError)
        self.defs[node.name] = node

    def knows(self, node: ast.Call) -> bool:
        return isinstance(node.func, ast.Name) and node.func.id in self.defs and node.func.id not in self.ctx.env

    def inline(self, node: ast.Call) -> Value | None:
        """The helper's body at this call; its return value (None when it returns nothing)."""
        fdef = self.defs[node.func.id]
        params = [a.arg for a in fdef.args.args]
        if node.keywords or len(node.args) != len(params):
            raise self.ctx.error(f"helper {fdef.name!r} takes {len(params)} positional arguments, got "
                                 f"{len(node.args)}{' and keywords' if node.keywords else ''}", node)
        if self.depth >= MAX_DEPTH:
            raise self.ctx.error(f"helper {fdef.name!r} calls itself more than {MAX_DEPTH} levels deep: a recursion "
                                 "must end at compile time (its depth decided by compile-time arguments, as in a "
                                 "C++ template)", node, UnsupportedError)
        bound, consts = self.bind(params, node.args)
        saved = {n: self.ctx.consts[n] for n in consts if n in self.ctx.consts}
        body = fdef.body
        self.depth += 1
        try:
            with self.ctx.scope({**self.ctx.env, **bound}):
                self.ctx.consts.update(consts)
                for stmt in body[:-1]:
                    self.ctx.visit(stmt)
                last = body[-1]
                if isinstance(last, ast.Return):
                    return None if last.value is None else self.ctx.expr(last.value)
                self.ctx.visit(last)
                return None
        finally:
            self.depth -= 1
            for n in consts:
                self.ctx.consts.pop(n, None)
            self.ctx.consts.update(saved)

    def bind(self, params: list[str], args: list[ast.expr]) -> tuple[dict[str, Var], dict[str, Any]]:
        """Each parameter's variable, and those bound to compile-time numbers."""
        bound: dict[str, Var] = {}
        consts: dict[str, Any] = {}
        for name, arg in zip(params, args, strict=True):
            if isinstance(arg, ast.Name) and arg.id in self.ctx.env and self.ctx.env[arg.id].is_array:
                bound[name] = self.ctx.env[arg.id]
                continue
            known = self.ctx.compile_time(arg)
            if known is not MISSING and isinstance(known, (bool, int, float, np.number)):
                consts[name] = known
            value = self.ctx.expr(arg)
            bound[name] = Var(value, value.type)
        return bound, consts
