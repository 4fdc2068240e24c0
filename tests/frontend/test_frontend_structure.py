"""The frontend's shape: modules import one way (no lazy imports), Conversion records are applied
generically by the golden rewriter, and frontend-only facts stay out of the IR."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import hls
from hls.frontend.build import build_module
from hls.frontend.conversions import Call, Part
from hls.golden.rewrite import make_golden

FRONTEND = Path(hls.__file__).parent / "frontend"
LEAVES = {"source", "scan", "tables", "lower", "conversions", "joins", "state", "kernels", "packets"}
COMPOSERS = {"builder", "build"}  # builder composes the families; build is the entry point


def frontend_imports(path: Path) -> list[tuple[str, bool]]:
    """(imported hls.frontend module, imported inside a function?) for every import in `path`."""
    found = []
    tree = ast.parse(path.read_text())
    nested = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hls.frontend"):
            names = [node.module] if node.module != "hls.frontend" else [f"hls.frontend.{a.name}" for a in node.names]
            found += [(name.rsplit(".", 1)[1], id(node) in nested) for name in names]
    return found


def test_frontend_imports_flow_one_way_without_lazy_imports():
    modules = {p.stem: frontend_imports(p) for p in FRONTEND.glob("*.py") if p.stem != "__init__"}
    for name, imports in modules.items():
        assert not [m for m, lazy in imports if lazy], f"{name} imports frontend modules inside a function"
        targets = {m for m, _ in imports}
        if name in LEAVES:
            assert targets <= {"source"}, f"leaf {name} imports {targets}"
        elif name == "base":
            assert targets <= LEAVES
        elif name not in COMPOSERS:  # a family: the base, the leaves and earlier families (test_architecture)
            assert not targets & COMPOSERS, f"family {name} imports {targets & COMPOSERS}"
    assert {m for m, _ in modules["builder"]} >= {n for n in modules if n not in LEAVES | COMPOSERS | {"base"}}


@hls.kernel
def inc(x: hls.int8) -> hls.int32:
    return x + 1


def test_a_new_call_record_needs_no_change_to_the_golden_rewriter():
    _, facts, src = build_module(inc)
    assert make_golden(src, facts)(20) == 21
    add = next(n for n in ast.walk(src.tree) if isinstance(n, ast.BinOp))
    facts.conversions.add(add, Call("rt.convert", (hls.uint4, Part(""))))  # as if `x + 1` wrapped to 4 bits
    assert make_golden(src, facts)(20) == 21 % 16


@hls.kernel
def literals(a: hls.float32[4]) -> hls.float32:
    s = 0.5
    return a[0] * 0.25 + inc(hls.int8(3)) + s


def test_frontend_only_facts_stay_out_of_the_ir():
    module, facts, _ = build_module(literals)
    for func in module.functions.values():
        assert "py_func" not in func.attrs
        for op in func.walk():
            assert "weak" not in op.attrs
    assert facts.callees == [inc]
    assert literals(np.array([2, 0, 0, 0], dtype=np.float32)) == 0.5 + 4 + 0.5
