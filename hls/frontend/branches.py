"""`if`/`elif`/`else` -> hls.if, whose results are the variables either branch assigns."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from hls.frontend.control import control_assigned, zero_of
from hls.frontend.scan import assigned_names, with_fields
from hls.frontend.source import MISSING
from hls.ir import Block, ConstantOp, IfOp, Value, YieldOp
from hls.types import HLSType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder, Var  # noqa: F401


def lower_if(b: FunctionBuilder, node: ast.If) -> None:
    decided = b.compile_time(node.test)
    if decided is not MISSING:  # `if MODE == 1:` on a compile-time constant: only the taken branch is hardware
        b.visit_body(node.body if decided else node.orelse)
        return
    build_if(b, b.condition(node.test), node.body, node.orelse)


def build_if(b: FunctionBuilder, cond: Value, body: list[ast.stmt], orelse: list[ast.stmt],
             guard: bool = False) -> None:
    """An hls.if on `cond`. A `guard` runs the rest of a body after a possible break/continue/return:
    what it defines first is defined on the exit path too (as a zero nothing reads), so that a name
    Python sees as bound on every path that reaches it stays bound after the join."""
    from hls.frontend.builder import Var

    assigned = assigned_names(body, bit_stores=True) | assigned_names(orelse, bit_stores=True) \
        | control_assigned(body + orelse)
    before = dict(b.env)
    then_block, then_env = branch(b, body, before)
    else_block, else_env = branch(b, orelse, before)
    assigned = with_fields(assigned, {**then_env, **else_env})
    if guard:
        for n in assigned - set(before):
            var = then_env.get(n)
            if var is not None and not var.is_array:
                else_env[n] = Var(else_block.append(ConstantOp(zero_of(var.type), var.type, b.loc)).result, var.type)
    names = sorted(n for n in assigned if not is_array_name(n, before) and (
        n in before or (n in then_env and n in else_env)))
    types = []
    for n in names:
        var = before.get(n) or then_env[n]
        types.append(var.type)
    yield_into(b, then_block, [then_env.get(n, before.get(n)) for n in names], types)
    yield_into(b, else_block, [else_env.get(n, before.get(n)) for n in names], types)
    op = IfOp(cond, types, list(names), b.loc)
    for region, block in zip(op.regions, (then_block, else_block), strict=True):
        region.block = block
        block.parent = region
    b.block.append(op)
    b.env = before
    for n, result, t in zip(names, op.results, types, strict=True):
        b.env[n] = Var(result, t)
    b.loop_locals |= {n for n in assigned if n not in b.env}


def is_array_name(name: str, env: dict[str, Var]) -> bool:
    return name in env and env[name].is_array


def branch(b: FunctionBuilder, stmts: list[ast.stmt], env: dict[str, Var]) -> tuple[Block, dict[str, Var]]:
    saved_block = b.block
    block = Block()
    b.block, b.env = block, dict(env)
    b.visit_body(stmts)
    result = b.env
    b.block = saved_block
    return block, result


def yield_into(b: FunctionBuilder, block: Block, variables: list[Var | None], types: list[HLSType]) -> None:
    saved, b.block = b.block, block
    values = []
    for var, t in zip(variables, types, strict=True):
        values.append(b.lower.assign(var.value, t, b.loc, "branch result"))
    b.emit(YieldOp(values, b.loc))
    b.block = saved
