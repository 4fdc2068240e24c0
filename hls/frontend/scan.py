"""Pre-pass over statements: which names a loop body or branch assigns (its carried values)."""

from __future__ import annotations

import ast
from typing import Any


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


def find_assignment(stmts: list[ast.stmt], name: str) -> ast.AST | None:
    """The first statement binding `name` (to point an error at it)."""
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
                return node
    return None


def with_fields(names: set[str], env: Any) -> set[str]:
    """`names` plus the fields (`p.r`) of the struct locals among them (hls.frontend.structs)."""
    return names | {n for n in env if "." in n and n.split(".", 1)[0] in names}
