"""Pre-pass over statements: which names a loop body or branch assigns (its carried values)."""

from __future__ import annotations

import ast


def assigned_names(stmts: list[ast.stmt]) -> set[str]:
    """Names bound by assignment anywhere in `stmts`, nested loops and branches included."""
    names: set[str] = set()
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def find_assignment(stmts: list[ast.stmt], name: str) -> ast.AST | None:
    """The first statement binding `name` (to point an error at it)."""
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    return node
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == name:
                return node.target
    return None
