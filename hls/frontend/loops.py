"""`for i in range(...)` -> hls.for with the values the body carries across iterations."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING

from hls.errors import UnsupportedError
from hls.frontend.control import carried_names, end_iteration, start_iteration
from hls.frontend.scan import assigned_names, find_assignment
from hls.frontend.source import try_static
from hls.ir import ConstantOp, Value
from hls.types import BoolType, IntType, as_int, int_union, literal_int_type

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder


def lower_for(b: FunctionBuilder, node: ast.For, prologue: Callable[[Value], None] | None = None) -> None:
    """`prologue(iv)`, when given, binds names at the top of the body (the element of `for v in a`)."""
    from hls.frontend.builder import Var

    if node.orelse:
        raise b.error("`for ... else` is not supported", node, UnsupportedError)
    if not isinstance(node.target, ast.Name):
        raise b.error("the loop variable must be a single name", node.target, UnsupportedError)
    lb, ub, step = range_bounds(b, node.iter)
    iv_name = node.target.id
    assigned = assigned_names(node.body, bit_stores=True)
    if iv_name in assigned:
        raise b.error(f"assignment to the loop variable {iv_name!r} inside the loop; use another variable",
                      find_assignment(node.body, iv_name) or node, UnsupportedError)
    if iv_name in b.env:
        raise b.error(f"loop variable {iv_name!r} reuses the name of a variable defined earlier; Python would "
                      "overwrite it, hardware would not: rename one", node.target, UnsupportedError)
    carried = carried_names(b, node.body)
    inits = [b.env[n].value for n in carried]
    loop = b.new_loop(lb, ub, step, inits, carried, iv_name, iv_type(lb, ub))
    b.block.append(loop)
    saved_block, saved_env = b.block, b.env
    b.block, b.env = loop.body, dict(b.env)
    b.env[iv_name] = Var(loop.iv, loop.iv.type, is_iv=True)
    for name, arg in zip(carried, loop.carried, strict=True):
        b.env[name] = Var(arg, arg.type)
    start_iteration(b, node.body)
    b.loops.append(loop)
    if prologue is not None:
        prologue(loop.iv)
    b.label_slot = node.body[0] if node.body else None
    b.visit_body(node.body)
    b.loops.pop()
    end_iteration(b, loop, carried, node.body)
    b.block, b.env = saved_block, saved_env
    for name, result in zip(carried, loop.results, strict=True):
        b.env[name] = Var(result, result.type)
    b.loop_locals |= {n for n in assigned | {iv_name} if n not in b.env}


def range_bounds(b: FunctionBuilder, node: ast.AST):
    if not (isinstance(node, ast.Call) and try_static(node.func, b.src) is builtins.range):
        raise b.error("loops must iterate over range(...); iterating over arrays or other objects is not "
                      "supported", node, UnsupportedError)
    if node.keywords or not 1 <= len(node.args) <= 3:
        raise b.error("range takes 1 to 3 positional arguments", node, UnsupportedError)
    values = [b.expr(a) for a in node.args]
    for arg, value in zip(node.args, values, strict=True):
        if not isinstance(value.type, (IntType, BoolType)):
            raise b.error(f"range bounds must be integers, got {value.type}", arg)
    values = [b.lower.as_int(v, b.loc) for v in values]
    if len(values) == 1:
        values = [b.lower.constant(0, b.loc), values[0]]
    if len(values) == 2:
        values.append(b.lower.constant(1, b.loc))
    step_op = getattr(values[2], "op", None)
    if not isinstance(step_op, ConstantOp) or step_op.value == 0:
        raise b.error("the range step must be a non-zero constant", node.args[2] if len(node.args) == 3 else node,
                      UnsupportedError)
    return values


def iv_type(lb, ub) -> IntType:
    """Narrowest type covering both bounds: keeps index arithmetic narrow in the generated C++."""
    types = []
    for value in (lb, ub):
        op = getattr(value, "op", None)
        types.append(literal_int_type(op.value) if isinstance(op, ConstantOp) else as_int(value.type))
    return int_union(*types)
