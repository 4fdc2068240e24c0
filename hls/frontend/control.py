"""`while`, `break`, `continue` and `return` anywhere, lowered to structured IR with flags.

A `break` or `continue` sets a per-iteration flag, a `return` sets a function-wide flag and the
result; every statement after one that may have set a flag runs under `if not flag` (an hls.if, so
folding, CSE and DCE keep their meaning). A loop whose body may break or return yields one more
value, the exit flag, and ends after the iteration that sets it (`exit` attribute on hls.for and
hls.while): the C++ gets `if (flag) break;` at the end of the body. The flags are ordinary
variables under reserved names, so the existing loop and branch lowering carries them.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from typing import TYPE_CHECKING

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.scan import assigned_names
from hls.frontend.source import call_target
from hls.ir import ConstantOp, Value, WhileOp, YieldOp
from hls.ir.core import Op
from hls.types import BoolType, FixedType, FloatType, ScalarType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

# not Python identifiers, so never a user's variable; the C++ names become break_flag, return_value, ...
BREAK, CONTINUE = "break.flag", "continue.flag"  # per iteration of the innermost loop
RETURNED, RESULT = "return.flag", "return.value"  # per call of the kernel
FLAGS = (BREAK, CONTINUE, RETURNED)
LOOP_NODES = (ast.For, ast.While)


def control_assigned(stmts: list[ast.stmt]) -> set[str]:
    """The control variables `stmts` may set: a break/continue of the enclosing loop (not of a loop
    nested in `stmts`), a return anywhere."""
    found: set[str] = set()
    work: list[ast.AST] = list(stmts)
    while work:
        node = work.pop()
        if isinstance(node, ast.Return):
            found |= {RETURNED, RESULT}
        elif isinstance(node, ast.Break):
            found.add(BREAK)
        elif isinstance(node, ast.Continue):
            found.add(CONTINUE)
        elif isinstance(node, LOOP_NODES):
            found |= {RETURNED, RESULT} if any(isinstance(n, ast.Return) for n in ast.walk(node)) else set()
            continue
        if isinstance(node, ast.stmt):
            work.extend(ast.iter_child_nodes(node))
    return found


def carried_names(b: FunctionBuilder, stmts: list[ast.stmt]) -> list[str]:
    """Scalars a loop body assigns that exist before it (the return flag and result included)."""
    assigned = assigned_names(stmts, bit_stores=True) | (control_assigned(stmts) & {RETURNED, RESULT})
    return sorted(n for n in assigned if n in b.env and not b.env[n].is_array)


def has_early_return(body: list[ast.stmt]) -> bool:
    """A `return` other than the last top-level statement: the kernel needs the return flag."""
    last = body[-1] if body and isinstance(body[-1], ast.Return) else None
    return any(isinstance(n, ast.Return) and n is not last for stmt in body for n in ast.walk(stmt))


def always_returns(stmts: list[ast.stmt]) -> bool:
    """Every path through `stmts` ends in a `return` (as far as the statements' shape shows)."""
    for stmt in stmts:
        if isinstance(stmt, ast.Return):
            return True
        if isinstance(stmt, ast.If) and always_returns(stmt.body) and always_returns(stmt.orelse):
            return True
    return False


def zero_of(t: ScalarType) -> int | float | bool | Fraction:
    if isinstance(t, BoolType):
        return False
    if isinstance(t, FloatType):
        return 0.0
    return Fraction(0) if isinstance(t, FixedType) else 0


def set_flag(b: FunctionBuilder, name: str, value: bool) -> None:
    from hls.frontend.builder import Var

    flag = b.lower.constant(value, b.loc)
    flag.name = name
    b.env[name] = Var(flag, BoolType())


def start_function(b: FunctionBuilder) -> None:
    """Early-return kernels: the flag and the result exist from the first statement on."""
    from hls.frontend.builder import Var

    b.early_return = True
    set_flag(b, RETURNED, False)
    ret = b.func.return_type
    if ret is not None:  # read only where the flag says a return happened
        b.env[RESULT] = Var(b.emit(ConstantOp(zero_of(ret), ret, b.loc)), ret)
        b.env[RESULT].value.name = RESULT


def lower_body(b: FunctionBuilder, stmts: list[ast.stmt]) -> None:
    """Statements in order; after one that may break, continue or return, the rest runs guarded."""
    from hls.frontend.branches import build_if

    for index, stmt in enumerate(stmts):
        b.visit(stmt)
        if isinstance(stmt, (ast.Break, ast.Continue, ast.Return)):
            return  # what follows is unreachable, as in Python
        rest = stmts[index + 1:]
        flags = [b.env[n].value for n in FLAGS if n in control_assigned([stmt]) and n in b.env]
        if rest and flags:
            stop = flags[0]
            for flag in flags[1:]:
                stop = b.lower.logic("lor", stop, flag, b.loc)
            build_if(b, b.lower.unary("not", stop, b.loc), rest, [], guard=True)
            return


def lower_break(b: FunctionBuilder, node: ast.stmt, name: str) -> None:
    if not b.loops:
        word = "break" if name == BREAK else "continue"
        raise b.error(f"`{word}` outside a loop", node, UnsupportedError)
    set_flag(b, name, True)


def lower_return(b: FunctionBuilder, value: Value | None) -> None:
    from hls.frontend.builder import Var

    if value is not None:
        b.env[RESULT] = Var(value, b.func.return_type)
    set_flag(b, RETURNED, True)


def start_iteration(b: FunctionBuilder, body: list[ast.stmt]) -> None:
    """A loop's own break/continue flags start false in every iteration, as does the return flag."""
    own = control_assigned(body)
    for name in (BREAK, CONTINUE):
        if name in own:
            set_flag(b, name, False)
        else:
            b.env.pop(name, None)  # an enclosing loop's flag: not this loop's to read
    if RETURNED in own:
        set_flag(b, RETURNED, False)  # an iteration that starts has seen no return (it would have exited)


def end_iteration(b: FunctionBuilder, loop: Op, carried: list[str], body: list[ast.stmt]) -> None:
    """Yield the carried values and, when the body may break or return, the exit flag."""
    values = [b.lower.assign(b.env[n].value, b.env[n].type, b.loc, "loop-carried value") for n in carried]
    own = control_assigned(body)
    flags = [b.env[n].value for n in (BREAK, RETURNED) if n in own and n in b.env]
    if flags:
        stop = flags[0]
        for flag in flags[1:]:
            stop = b.lower.logic("lor", stop, flag, b.loc)
        values.append(stop)
        loop.attrs["exit"] = True
    options = loop.unroll
    if isinstance(loop, WhileOp) and options and not options.off:
        raise unroll_error(b, body, "hls.unroll() needs a `for` loop over range(...); a `while` loop has no trip "
                                    "count to unroll")
    if flags and options and not options.off and not options.factor:
        raise unroll_error(b, body, "hls.unroll() cannot fully unroll a loop with `break` or `return` inside: "
                                    "its trip count depends on the data (use hls.unroll(factor=N), or remove the "
                                    "early exit)")
    b.emit(YieldOp(values, b.loc))


def unroll_error(b: FunctionBuilder, body: list[ast.stmt], message: str) -> HLSTypeError:
    """The error at the hls.unroll() line of `body`."""
    from hls.directives import unroll

    node = next((s for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                 and call_target(s.value.func, b.src) is unroll), None)
    return b.error(message, node, HLSTypeError)


def lower_while(b: FunctionBuilder, node: ast.While) -> None:
    from hls.frontend.builder import Var

    if node.orelse:
        raise b.error("`while ... else` is not supported", node, UnsupportedError)
    carried = carried_names(b, node.body)
    loop = WhileOp([b.env[n].value for n in carried], carried, b.loc)
    loop.attrs["label"] = b.unique_label("while")
    b.block.append(loop)
    saved_block, saved_env = b.block, b.env
    b.block, b.env = loop.cond, dict(saved_env)
    for name, arg in zip(carried, loop.cond.args, strict=True):
        b.env[name] = Var(arg, arg.type)
    cond = b.condition(node.test)
    b.emit(YieldOp([cond], b.loc))
    if getattr(getattr(cond, "op", None), "value", None) is True and not control_assigned(node.body) & {
            BREAK, RETURNED}:
        raise b.error("this `while` loop never exits: its condition is always true and its body has no "
                      "`break` or `return`", node, UnsupportedError)
    b.block, b.env = loop.body, dict(saved_env)
    for name, arg in zip(carried, loop.body.args, strict=True):
        b.env[name] = Var(arg, arg.type)
    start_iteration(b, node.body)
    b.loops.append(loop)
    b.visit_body(node.body)
    b.loops.pop()
    end_iteration(b, loop, carried, node.body)
    b.block, b.env = saved_block, saved_env
    for name, result in zip(carried, loop.results, strict=True):
        b.env[name] = Var(result, result.type)
    b.loop_locals |= {n for n in assigned_names(node.body) if n not in b.env}



def refuse_exits(b: FunctionBuilder, node: ast.For) -> None:
    """A loop the frontend unrolls itself (over a tuple of compile-time values) has no hardware loop
    for a `break` or `continue` to leave, nor a place to stop the copies after a `return`."""
    for stmt in node.body:
        for inner in ast.walk(stmt):
            if isinstance(inner, (ast.Break, ast.Continue, ast.Return)) and control_assigned([inner]) and \
                    _directly_in(node, inner):
                word = type(inner).__name__.lower()
                raise b.error(f"`{word}` inside a loop over a tuple of compile-time values is not supported: "
                              "that loop is unrolled by the compiler; loop over range(len(...)) instead",
                              inner, UnsupportedError)


def _directly_in(loop: ast.For, target: ast.AST) -> bool:
    """`target` is not inside a loop nested in `loop` (a `return` counts anywhere)."""
    if isinstance(target, ast.Return):
        return True
    work: list[ast.AST] = list(loop.body)
    while work:
        node = work.pop()
        if node is target:
            return True
        if not isinstance(node, LOOP_NODES):
            work.extend(ast.iter_child_nodes(node))
    return False
