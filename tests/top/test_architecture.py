"""The shape of the code base (issue 9, item 5): no import cycle in hls/, imports flow one way between
the stages, and no function longer than 60 lines.

Imports are read with `ast` from every module of hls/, wherever they stand: at the top, inside a
function (a lazy import that dodges a cycle is still a cycle), or under `if TYPE_CHECKING:` (a module
that needs another's types to be understood depends on it). docs/architecture.md describes the layers.
"""

from __future__ import annotations

import ast
import functools
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hls

ROOT = Path(hls.__file__).resolve().parent.parent  # the folder holding the hls package

MAX_FUNCTION_LINES = 60

# Layers, lowest first: a module may import its own layer or a lower one, never a higher one. Names match
# a module or a package and everything in it; the longest name wins, so one package may span layers
# (hls/golden: its bit semantics below the IR, its runtime library below the frontend, the rewriter and
# the numpy and compiled models above the stages they read). `lang` is the DSL the frontend recognises,
# without its Python-mode implementations (the golden runtime provides them); `ir` is the data every
# stage reads, so it sits below them. kernel.py, verification.py, cli/ and explore/ tie the stages together.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("hls.errors", "hls.types", "hls.fixed", "hls.progress", "hls.defaults", "hls.wording")),
    ("lang", ("hls.lang", "hls.interfaces")),  # directives, intrinsics, zeros/static/stream; flows
    ("semantics", ("hls.golden.bits",)),  # bit semantics: Python mode's and constant folding's (ir.kinds folds)
    ("ir", ("hls.ir",)),
    ("golden runtime", ("hls.golden.runtime", "hls.golden.streams", "hls.golden.structs")),
    ("frontend", ("hls.frontend",)),
    ("passes", ("hls.passes",)),
    ("report", ("hls.report",)),  # the Report's data and views, filled by the schedule, read by the top
    ("schedule", ("hls.schedule",)),
    ("backend", ("hls.backend",)),
    ("sim", ("hls.sim",)),
    ("golden", ("hls.golden",)),  # the rewriter, the numpy model (vplan, vexec, vobject), the compiled one (jit*)
    ("project", ("hls.project",)),  # export: writes a Vitis project from the design, golden vectors and Report
    ("top", ("hls", "hls.kernel", "hls.verification", "hls.cli", "hls.explore")),
)
# Known edges against the layers, each with the reason it stays for now.
STAGE_EXCEPTIONS: set[tuple[str, str]] = set()


# ---- the import graph -------------------------------------------------------------------------------


def module_files(root: Path = ROOT, package: str = "hls") -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package is its __init__.py)."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(module of the package, line) for every import statement of a module, wherever it stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:  # `from hls import fixed` imports the module hls.fixed
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                if target in modules and target != name:
                    yield target, node.lineno


@functools.cache
def import_graph(root: Path = ROOT, package: str = "hls") -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first such import}."""
    modules = module_files(root, package)
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line in imported(name, path, modules):
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def cycle_path(graph: dict[str, dict[str, int]], component: list[str]) -> str:
    """One closed import path through a component, with the line of each import, shortest first found."""
    members, start = set(component), component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w == start:
                    hops = paths[v] + [start]
                    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(hops)) + \
                        f" -> {start}"
                if w in members and w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # a component always has one


# ---- the tests ----------------------------------------------------------------------------------------


def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles in hls/:\n" + "\n".join(f"  {cycle_path(graph, c)}" for c in found)


def test_cycle_finder_sees_lazy_and_type_checking_imports(tmp_path):
    """The checker itself: a cycle closed by an import inside a function or under TYPE_CHECKING is found."""
    pkg = tmp_path / "toy"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from toy import b\n")
    (pkg / "b.py").write_text("def f():\n    from toy.sub.c import g\n    return g\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import x\n")
    (pkg / "d.py").write_text("import toy.a\n")  # into the cycle, not part of it
    graph = import_graph(tmp_path, "toy")
    assert cycles(graph) == [["toy.a", "toy.b", "toy.sub.c"]]
    assert cycle_path(graph, ["toy.a", "toy.b", "toy.sub.c"]) == \
        "toy.a (line 1) -> toy.b (line 2) -> toy.sub.c (line 3) -> toy.a"


def layer_of(module: str) -> int:
    best, rank = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".") and prefix != "hls") and len(prefix) > best:
                best, rank = len(prefix), i
    if rank is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/top/test_architecture.py "
                             "(and to docs/architecture.md)")
    return rank


def test_stages_import_one_way():
    graph = import_graph()
    bad = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            if layer_of(target) > layer_of(module) and (module, target) not in STAGE_EXCEPTIONS:
                bad.append(f"  {module} (line {line}) imports {target}: {LAYERS[layer_of(module)][0]} -> "
                           f"{LAYERS[layer_of(target)][0]}")
    assert not bad, "imports against the layers (see docs/architecture.md):\n" + "\n".join(bad)
    stale = [e for e in STAGE_EXCEPTIONS if e[1] not in graph.get(e[0], {})]
    assert not stale, f"exceptions no longer needed: {stale}"


def long_functions(root: Path = ROOT, package: str = "hls") -> list[tuple[str, int]]:
    """(`path:name`, lines) of every function or method over the limit, from its `def` to its last line."""
    found = []
    for path in module_files(root, package).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    found.append((f"{path.relative_to(root).as_posix()}:{node.name}", lines))
    return sorted(found)


def test_no_function_over_60_lines():
    found = long_functions()
    assert not found, f"functions over {MAX_FUNCTION_LINES} lines (split them):\n" + \
        "\n".join(f"  {where}: {lines} lines" for where, lines in found)


@pytest.mark.parametrize("lines, over", [(MAX_FUNCTION_LINES, False), (MAX_FUNCTION_LINES + 1, True)])
def test_long_function_finder(tmp_path, lines, over):
    (tmp_path / "toy").mkdir()
    body = "".join(f"        x{i} = {i}\n" for i in range(lines - 2))
    (tmp_path / "toy" / "m.py").write_text(f"class C:\n    def f(self):\n{body}        return 0\n")
    assert long_functions(tmp_path, "toy") == ([("toy/m.py:f", lines)] if over else [])


# What the frontend may reach of the golden model through the modules it imports: the bit semantics that
# the IR's constant-fold facts name (ir/kinds.py), nothing of the runtime, rewriter or fast models.
FRONTEND_MAY_REACH = {"hls.golden.bits"}


def reachable(graph: dict[str, dict[str, int]], starts: list[str]) -> dict[str, list[str]]:
    """Every module reachable from `starts`, with one import path to it."""
    paths = {s: [s] for s in starts}
    frontier = list(starts)
    while frontier:
        module = frontier.pop()
        for target in sorted(graph[module]):
            if target not in paths:
                paths[target] = paths[module] + [target]
                frontier.append(target)
    return paths


def test_frontend_imports_no_golden_module():
    """The frontend recognises the DSL's names (hls/lang) and records what Python mode must do; it never
    imports the golden model that implements them (its runtime, rewriter or numpy/compiled models), not
    directly and not through another module."""
    graph = import_graph()
    frontend = [m for m in graph if m == "hls.frontend" or m.startswith("hls.frontend.")]
    direct = [f"  {module} (line {line}) imports {target}" for module in sorted(frontend)
              for target, line in sorted(graph[module].items()) if target.startswith("hls.golden")]
    assert not direct, "the frontend imports the golden model (use the names of hls/lang):\n" + "\n".join(direct)
    through = [" -> ".join(path) for target, path in sorted(reachable(graph, frontend).items())
               if target.startswith("hls.golden") and target not in FRONTEND_MAY_REACH]
    assert not through, "the frontend reaches the golden model:\n" + "\n".join(f"  {p}" for p in through)


def test_reachable_follows_imports(tmp_path):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "a.py").write_text("from toy import b\n")
    (tmp_path / "toy" / "b.py").write_text("import toy.c\n")
    (tmp_path / "toy" / "c.py").write_text("")
    (tmp_path / "toy" / "d.py").write_text("from toy import a\n")
    found = reachable(import_graph(tmp_path, "toy"), ["toy.a"])
    assert found == {"toy.a": ["toy.a"], "toy.b": ["toy.a", "toy.b"], "toy.c": ["toy.a", "toy.b", "toy.c"]}


def class_names(root: Path = ROOT, package: str = "hls") -> dict[str, list[str]]:
    """Class name -> every `path:line` defining a class of that name, in the package."""
    found: dict[str, list[str]] = {}
    for path in module_files(root, package).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def test_no_two_classes_share_a_name():
    """A class name names one class in hls/, so a reader (and a search) never has to ask which one."""
    repeated = {name: where for name, where in class_names().items() if len(where) > 1}
    assert not repeated, "class names defined more than once in hls/ (rename all but one):\n" + \
        "\n".join(f"  {name}: {', '.join(where)}" for name, where in sorted(repeated.items()))


def test_class_name_finder(tmp_path):
    (tmp_path / "toy" / "sub").mkdir(parents=True)
    (tmp_path / "toy" / "a.py").write_text("class Region:\n    class Inner:\n        pass\n")
    (tmp_path / "toy" / "sub" / "b.py").write_text("def f():\n    class Region:\n        pass\n")
    found = class_names(tmp_path, "toy")
    assert found == {"Region": ["toy/a.py:1", "toy/sub/b.py:2"], "Inner": ["toy/a.py:2"]}
