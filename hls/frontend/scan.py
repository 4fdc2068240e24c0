"""Pre-passes over statements: which names a loop body or branch assigns (its carried values), and
which control-flow flags (`break`, `continue`, `return`) it may set."""

from __future__ import annotations

import ast
from fractions import Fraction

from hls.types import BoolType, FixedType, FloatType, ScalarType


def assigned_names(stmts: list[ast.stmt], bit_stores: bool = False) -> set[str]:
    """Names bound by assignment anywhere in `stmts`, nested loops and branches included; with
    `bit_stores`, also the variables whose bits are assigned (`x[3] = 1` gives x a new value)."""
    names = {node.id for stmt in stmts for node in ast.walk(stmt)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    names |= {f"{node.value.id}.{node.attr}" for stmt in stmts for node in ast.walk(stmt)  # struct fields
              if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name)}
    if bit_stores:
        names |= {node.value.id for stmt in stmts for node in ast.walk(stmt)
                  if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name)}
    return names


def assigned_by_statements(stmts: list[ast.stmt], name: str) -> bool:
    """Every binding of `name` in `stmts` is an assignment statement to it (`x = ...`, `x += ...`): no loop
    target, unpacking, bit store or other binding changes it without a recorded assignment."""
    direct = {id(s.target) for stmt in stmts for s in ast.walk(stmt) if isinstance(s, ast.AugAssign)}
    direct |= {id(s.targets[0]) for stmt in stmts for s in ast.walk(stmt)
               if isinstance(s, ast.Assign) and len(s.targets) == 1}
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) \
                    and id(node) not in direct:
                return False
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == name:
                return False
    return True


def with_fields(names: set[str], env: dict) -> set[str]:
    """`names` plus the fields (`p.r`) of the struct locals among them (hls.frontend.structs)."""
    return names | {n for n in env if "." in n and n.split(".", 1)[0] in names}


def find_assignment(stmts: list[ast.stmt], name: str) -> ast.AST | None:
    """The first statement binding `name` (to point an error at it)."""
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
                return node
    return None


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


def directly_in(loop: ast.For, target: ast.AST) -> bool:
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
