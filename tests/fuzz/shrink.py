"""Greedy test-case reduction over a Python module's AST, for fuzz failures.

A generated kernel that fails is usually 30-100 lines of noise around one wrong operator. The
shrinker applies one small edit at a time and keeps it when the failure persists (the caller's
predicate decides, e.g. "csim still disagrees with the golden model"): delete a statement, replace
an `if`/`for` by its body, make a loop run fewer times, replace an expression by one of its operands
or by 0. Edits are tried from the outside in (whole helper functions and statements first), so the
expensive predicate, one C++ compile per call, is spent on the edits that remove the most.
"""

from __future__ import annotations

import ast
import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

Path = tuple[tuple[str, int | None], ...]
Edit = tuple[str, Path, int]  # (kind, path of the node or list owner, variant)

STMT_LISTS = ("body", "orelse")
OPERAND_NODES = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call)


@dataclass
class ShrinkStats:
    checks: int = 0
    accepted: int = 0


def walk(node: ast.AST, path: Path = ()) -> Iterator[tuple[Path, ast.AST]]:
    """Every node with its path from the root, in source (pre-)order."""
    yield path, node
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from walk(item, (*path, (name, i)))
        elif isinstance(value, ast.AST):
            yield from walk(value, (*path, (name, None)))


def resolve(root: ast.AST, path: Path) -> ast.AST:
    node = root
    for name, index in path:
        value = getattr(node, name)
        node = value[index] if index is not None else value
    return node


def replace(root: ast.AST, path: Path, new: ast.AST | list[ast.stmt]) -> None:
    """Put `new` where the node at `path` is (a list of statements is spliced into a body)."""
    parent = resolve(root, path[:-1])
    name, index = path[-1]
    if index is None:
        setattr(parent, name, new)
        return
    items = getattr(parent, name)
    items[index:index + 1] = new if isinstance(new, list) else [new]


def constant_int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return -inner if inner is not None else None
    return None


def range_args(node: ast.For) -> list[int] | None:
    call = node.iter
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range"):
        return None
    values = [constant_int(a) for a in call.args]
    if not values or any(v is None for v in values) or call.keywords:
        return None
    args = [v for v in values if v is not None]
    if len(args) == 1:
        args = [0, args[0], 1]
    elif len(args) == 2:
        args.append(1)
    return args if args[2] != 0 else None


def candidate_edits(tree: ast.AST) -> dict[str, list[Edit]]:
    """Every applicable edit of the tree, grouped by kind, outermost first."""
    edits: dict[str, list[Edit]] = {"delete": [], "hoist": [], "narrow": [], "operand": [], "zero": []}
    for path, node in walk(tree):
        for name in STMT_LISTS:
            items = getattr(node, name, None)
            if isinstance(items, list) and items and isinstance(items[0], ast.stmt):
                for i in range(len(items)):
                    edits["delete"].append(("delete", (*path, (name, i)), 0))
        if isinstance(node, ast.If):
            edits["hoist"] += [("hoist", path, 0), ("hoist", path, 1)]
        if isinstance(node, ast.For):
            edits["hoist"].append(("hoist", path, 0))
            args = range_args(node)
            if args is not None and len(range(*args)) > 1:
                edits["narrow"] += [("narrow", path, 1), ("narrow", path, 2)]
        if isinstance(node, OPERAND_NODES) and isinstance(node, ast.expr):
            for variant in range(len(operands(node))):
                edits["operand"].append(("operand", path, variant))
        if isinstance(node, (ast.Name, ast.Subscript)) and isinstance(getattr(node, "ctx", None), ast.Load) \
                and path and path[-1][0] not in ("func", "value", "annotation", "returns"):
            edits["zero"].append(("zero", path, 0))
    return edits


def operands(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse, node.test]
    if isinstance(node, ast.Call):
        return [a for a in node.args if not isinstance(a, ast.Starred)]
    return []


def apply_edit(tree: ast.Module, edit: Edit) -> str | None:
    """The source text after `edit` on a copy of `tree`, or None when the edit does not apply."""
    kind, path, variant = edit
    new_tree = copy.deepcopy(tree)
    try:
        node = resolve(new_tree, path)
    except (AttributeError, IndexError):
        return None
    if kind == "delete":
        parent = resolve(new_tree, path[:-1])
        name, index = path[-1]
        items = getattr(parent, name)
        del items[index]
        if not items and not isinstance(parent, ast.Module) and name == "body":
            items.append(ast.Pass())
    elif kind == "hoist":
        if isinstance(node, ast.If):
            body = node.body if variant == 0 else node.orelse
        else:
            body = node.body
        if not body:
            return None
        replace(new_tree, path, list(body))
    elif kind == "narrow":
        args = range_args(node)  # type: ignore[arg-type]
        if args is None:
            return None
        start, stop, step = args
        count = 1 if variant == 1 else max(1, len(range(start, stop, step)) // 2)
        new_args = [start, start + count * step] + ([step] if step != 1 else [])
        node.iter.args = [ast.Constant(value=a) if a >= 0 else  # type: ignore[attr-defined]
                          ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-a)) for a in new_args]
    elif kind == "operand":
        options = operands(node)  # type: ignore[arg-type]
        if variant >= len(options):
            return None
        replace(new_tree, path, copy.deepcopy(options[variant]))
    elif kind == "zero":
        if isinstance(node, ast.Constant):
            return None
        replace(new_tree, path, ast.Constant(value=0))
    ast.fix_missing_locations(new_tree)
    try:
        return ast.unparse(new_tree) + "\n"
    except Exception:  # noqa: BLE001 - an edit that cannot be printed is simply not applicable
        return None


def shrink(source: str, still_fails: Callable[[str], bool], max_checks: int = 150,
           time_limit: float | None = None, stats: ShrinkStats | None = None) -> str:
    """The smallest variant of `source` found for which `still_fails` holds (greedy, first-improvement).

    `source` itself is assumed to fail. The predicate is called at most `max_checks` times (and not
    after `time_limit` seconds); every accepted edit restarts the current kind of edit at the same
    position, so a run over a list of statements deletes every deletable statement in one sweep.
    """
    stats = stats if stats is not None else ShrinkStats()
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    current = source
    seen = {ast.unparse(ast.parse(source))}
    progress = True
    while progress:
        progress = False
        for kind in ("delete", "hoist", "narrow", "operand", "zero"):
            position = 0
            while True:
                tree = ast.parse(current)
                edits = candidate_edits(tree)[kind]
                if position >= len(edits):
                    break
                if stats.checks >= max_checks or (deadline is not None and time.monotonic() > deadline):
                    return current
                candidate = apply_edit(tree, edits[position])
                if candidate is None or candidate.strip() in seen:
                    position += 1
                    continue
                seen.add(candidate.strip())
                stats.checks += 1
                if still_fails(candidate):
                    stats.accepted += 1
                    current = candidate
                    progress = True
                else:
                    position += 1
    return current
