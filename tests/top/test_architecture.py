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
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hls

ROOT = Path(hls.__file__).resolve().parent.parent  # the folder holding the hls package

MAX_FUNCTION_LINES = 60
MAX_KERNEL_LINES = 200  # Kernel is the facade of the journey (compile -> golden -> schedule -> csim -> export)

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
    ("top", ("hls", "hls.__main__", "hls.kernel", "hls.compilation", "hls.golden_runs", "hls.verification",
             "hls.system", "hls.cli", "hls.explore", "hls.customize")),
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


# ---- op dispatch: every walker covers every op (issue 20, item 5) ----------------------------------

# the modules whose walkers declare their rules through hls.ir.visit; a walker in any other module of hls/
# that is imported by these is checked too
WALKER_MODULES = ("hls.backend.cpp.emit", "hls.backend.cpp.op_expr", "hls.backend.mlir.emit", "hls.backend.mlir.scalar",
                  "hls.golden.vexec", "hls.schedule.graph", "hls.schedule.opcost", "hls.passes.evaluate")
EXPECTED_WALKERS = {"hls.backend.cpp.emit.FunctionEmitter", "hls.backend.cpp.op_expr.PureExpr",
                    "hls.backend.mlir.emit.MlirFunctionEmitter", "hls.backend.mlir.scalar.ScalarLowering",
                    "hls.golden.vexec.Runner", "hls.golden.vplan.Admit", "hls.golden.vplan.AdmitSequential",
                    "hls.schedule.graph.GraphBuilder", "hls.schedule.opcost.OpCoster", "hls.ir.printer.Printer",
                    "hls.passes.evaluate.Evaluator"}


def hls_walkers() -> list[type]:
    """Every Walker subclass defined in hls/ (after importing the walker modules)."""
    import importlib

    from hls.ir.visit import Walker

    for name in WALKER_MODULES:
        importlib.import_module(name)
    found, work = [], list(Walker.__subclasses__())
    while work:
        cls = work.pop()
        work.extend(cls.__subclasses__())
        if cls.__module__.startswith("hls.") and cls not in found:
            found.append(cls)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def test_every_walker_has_a_rule_for_every_op_or_declares_it_not_applicable():
    from hls.ir.visit import both_ways, concrete_ops, uncovered

    ops = concrete_ops()
    assert len(ops) >= 30, [c.__name__ for c in ops]  # every op module of hls/ir was imported
    walkers = hls_walkers()
    assert EXPECTED_WALKERS <= {f"{w.__module__}.{w.__qualname__}" for w in walkers}
    gaps = {f"{w.__module__}.{w.__qualname__}": [c.__name__ for c in uncovered(w, ops)] for w in walkers}
    gaps = {w: missing for w, missing in gaps.items() if missing}
    assert not gaps, "ops without a rule (add a @rule, or name them in not_applicable):\n" + \
        "\n".join(f"  {w}: {', '.join(missing)}" for w, missing in gaps.items())
    contradictions = {w.__qualname__: [c.__name__ for c in both_ways(w, ops)] for w in walkers}
    assert not any(contradictions.values()), contradictions


def test_walker_coverage_checker_on_toy_ops():
    from hls.ir.core import Op
    from hls.ir.visit import NoRule, Walker, both_ways, concrete_ops, rule, uncovered

    class Toy(Op):  # abstract: names no op
        pass

    class Add(Toy):
        name = "toy.add"

    class Sub(Add):
        name = "toy.sub"

    class Jump(Toy):
        name = "toy.jump"

    class Halt(Toy):
        name = "toy.halt"

    class Eval(Walker):
        not_applicable = (Halt,)

        @rule(Add)
        def arith(self, op: Op, env: dict) -> str:
            return f"arith {op.name} {env['x']}"

    class Strict(Eval):
        @rule(Sub)
        def sub(self, op: Op, env: dict) -> str:
            return "sub"

    toys = concrete_ops(Toy, package=__name__)
    assert toys == sorted([Add, Sub, Jump, Halt], key=lambda c: c.__name__)
    assert uncovered(Eval, toys) == [Jump]  # Sub is served by the rule for its base class, Halt declared
    assert Eval().dispatch(Sub(), {"x": 1}) == "arith toy.sub 1"
    assert Strict().dispatch(Sub(), {"x": 1}) == "sub" and Strict().dispatch(Add(), {"x": 2}) == "arith toy.add 2"
    with pytest.raises(NoRule, match="Eval has no rule for Jump"):
        Eval().dispatch(Jump(), {})
    with pytest.raises(NoRule, match="Eval: Halt .* not applicable"):
        Eval().dispatch(Halt(), {})

    class Confused(Eval):  # switches off its base's rule for Add and its subclasses, then gives Sub one
        not_applicable = (Add, Halt)

        @rule(Sub)
        def sub(self, op: Op, env: dict) -> str:
            return "sub"

    assert both_ways(Confused, toys) == [Sub] and uncovered(Confused, toys) == [Jump]

    class Jumps(Walker):
        @rule(Jump)
        def jump(self, op: Op, env: dict) -> str:
            return "jump"

    class Both(Strict, Jumps):  # rules of every base walker, as the MRO orders them
        pass

    assert uncovered(Both, toys) == [] and Both().dispatch(Jump(), {}) == "jump" and Both().dispatch(Sub(), {}) == "sub"
    with pytest.raises(TypeError, match="both rules for Add"):
        class Twice(Walker):
            @rule(Add)
            def one(self, op: Op) -> None: ...

            @rule(Add)
            def two(self, op: Op) -> None: ...

# ---- the frontend's construct families (issue 20, item 3) -----------------------------------------------
# Each family of hls/frontend is a class deriving from `Family` (hls/frontend/base.py), given at construction
# the shared BuildContext and the earlier families it calls (hls/frontend/builder.py builds them in this
# order). Lowest first; docs/architecture.md ("The frontend") has the same list and why each sits where it
# does. A family calls its own methods, the context (`self.ctx`), and the collaborators and callbacks its
# constructor takes; a rule it needs from a later family comes as a callback (`Callable`), never a class.
FAMILIES: tuple[str, ...] = ("Helpers", "Captures", "Pragmas", "Names", "Expressions", "Arrays", "Streams",
                             "KernelCalls", "Structs", "Bits", "Calls", "Results", "Branches", "Control", "Loops",
                             "Iterables", "Dataflows", "Elements", "ArrayStatements", "Statements")


def package_classes(root: Path, package: str) -> dict[str, tuple[str, ast.ClassDef]]:
    """Class name -> (module, class node), for every top-level class of the package."""
    found = {}
    for module, path in module_files(root, package).items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = (module, node)
    return found


def own_names(cls: ast.ClassDef) -> set[str]:
    """The methods of a class and the attributes its methods assign on `self`."""
    names = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
                and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


def collaborators(cls: ast.ClassDef) -> dict[str, str]:
    """Constructor parameter -> its annotation (`exprs: Expressions`)."""
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    if init is None:
        return {}
    return {a.arg: ast.unparse(a.annotation) for a in init.args.args[1:] if a.annotation is not None}


def self_reaches(name: str, cls: ast.ClassDef, context: set[str]) -> list[str]:
    """`self.x` the family does not define, and `self.ctx.x` the context does not define (a family parked
    on the context would be a way around the order)."""
    own, bad = own_names(cls) | {"ctx"}, []
    for node in ast.walk(cls):
        if not isinstance(node, ast.Attribute):
            continue
        if isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr not in own:
            bad.append(f"{name} (line {node.lineno}) reaches self.{node.attr}, which it does not define")
        elif isinstance(node.value, ast.Attribute) and ast.unparse(node.value) == "self.ctx" and context \
                and node.attr not in context:
            bad.append(f"{name} (line {node.lineno}) reaches self.ctx.{node.attr}, which the context does not define")
    return bad


def family_reaches(root: Path, package: str, order: tuple[str, ...],
                   context: tuple[str, ...] = ("BuildContext", "BuildState")) -> list[str]:
    """Every place a family reaches a later one: a constructor parameter or an import of a later family (or
    of a class that is neither a family nor the `context`, such as the composer), a call through `self`
    of what the family does not define (the mixin way), or through `self.ctx` of what the context classes
    do not define. Empty when the families respect `order`."""
    classes = package_classes(root, package)
    families = {n: v for n, v in classes.items()
                if any(isinstance(b, ast.Name) and b.id == "Family" for b in v[1].bases)}
    context_names = set().union(*(own_names(classes[c][1]) for c in context if c in classes))
    rank = {name: i for i, name in enumerate(order)}
    bad = [f"{name} ({module}) is a Family but not in the order" for name, (module, _) in families.items()
           if name not in rank]
    bad += [f"{name} is in the order but no Family class" for name in order if name not in families]

    def reaches(other: str, name: str) -> str | None:
        if other in families:
            later = other != name and other in rank and name in rank and rank[other] >= rank[name]
            return "a later family" if later else None
        return "neither the context nor a family" if other in classes and other not in context else None

    for name, (module, cls) in families.items():
        for param, annotation in collaborators(cls).items():
            if reaches(annotation, name):
                bad.append(f"{name} takes {annotation} ({reaches(annotation, name)}) at construction as {param!r}")
        bad += self_reaches(name, cls, context_names)
        for node in ast.walk(ast.parse(module_files(root, package)[module].read_text(encoding="utf-8"))):
            for alias in node.names if isinstance(node, ast.ImportFrom) else ():
                if reaches(alias.name, name) == "a later family":
                    bad.append(f"{module} (line {node.lineno}) imports {alias.name}, a later family than {name}")
    return sorted(set(bad))


def test_no_frontend_family_reaches_a_later_one():
    bad = family_reaches(ROOT, "hls/frontend", FAMILIES)
    assert not bad, "construct families reaching later ones (see docs/architecture.md, The frontend):\n" + \
        "\n".join(f"  {b}" for b in bad)


def test_family_checker_sees_constructor_import_and_self_reaches(tmp_path):
    """The checker itself: a later family (or the composer) taken at construction, a later family imported,
    and a method reached through `self` or `self.ctx` that neither defines are each found; a callback
    parameter and the context's own names are not reaches."""
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "base.py").write_text("class Ctx:\n    def __init__(self):\n        self.env = {}\n\n"
                                 "class Family:\n    def __init__(self, ctx: Ctx):\n        self.ctx = ctx\n")
    (pkg / "builder.py").write_text("class Builder:\n    pass\n")
    (pkg / "low.py").write_text(
        "from toy.base import Ctx, Family\nfrom toy.high import High\n\n"
        "class Low(Family):\n"
        "    def __init__(self, ctx: Ctx, high: High, later: Callable[[], int]) -> None:\n"
        "        super().__init__(ctx)\n        self.high = high\n        self.later = later\n"
        "    def rule(self):\n        return self.ctx.env, self.high.x(), self.later(), self.helper()\n")
    (pkg / "high.py").write_text(
        "from toy.base import Family\nfrom toy.low import Low\n\n"
        "class High(Family):\n"
        "    def __init__(self, ctx, low: Low, builder: Builder) -> None:\n        super().__init__(ctx)\n"
        "        self.low = low\n"
        "    def x(self):\n        return self.low.rule(), self.y(), self.ctx.high\n"
        "    def y(self):\n        return 0\n")
    assert family_reaches(tmp_path, "toy", ("Low", "High"), context=("Ctx",)) == [
        "High (line 9) reaches self.ctx.high, which the context does not define",
        "High takes Builder (neither the context nor a family) at construction as 'builder'",
        "Low (line 10) reaches self.helper, which it does not define",
        "Low takes High (a later family) at construction as 'high'",
        "toy.low (line 2) imports High, a later family than Low",
    ]
    assert family_reaches(tmp_path, "toy", ("High", "Low"), context=("Ctx",)) == [
        "High (line 9) reaches self.ctx.high, which the context does not define",
        "High takes Builder (neither the context nor a family) at construction as 'builder'",
        "High takes Low (a later family) at construction as 'low'",
        "Low (line 10) reaches self.helper, which it does not define",
        "toy.high (line 2) imports Low, a later family than High",
    ]
    low, high = (pkg / "low.py").read_text(), (pkg / "high.py").read_text()
    (pkg / "low.py").write_text(low.replace(", self.helper()", "").replace("from toy.high import High\n", "")
                                .replace("high: High", "high: object"))
    (pkg / "high.py").write_text(high.replace(", builder: Builder", "").replace(", self.ctx.high", ""))
    assert family_reaches(tmp_path, "toy", ("Low", "High"), context=("Ctx",)) == []
    assert family_reaches(tmp_path, "toy", ("Low",), context=("Ctx",)) == \
        ["High (toy.high) is a Family but not in the order"]


def test_family_order_is_the_documented_one():
    """docs/architecture.md's table of the families lists them in FAMILIES' order (and builder.py builds them
    so: a constructor can only be given what is already built)."""
    docs = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| \d+ \| `(\w+)` \(`\w+\.py`\) \|", docs, re.MULTILINE)
    assert tuple(documented) == FAMILIES
# ---- type families and kind vocabularies (issue 20, item 4) ------------------------------------------

MAX_KIND_STRING_COMPARISONS = 10


def _names_a_kind(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id.endswith("kind") or \
        isinstance(node, ast.Attribute) and node.attr.endswith("kind")


def _string_literals(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)


def kind_string_comparisons(root: Path = ROOT, package: str = "hls") -> list[str]:
    """`path:line: source` of every comparison of a name or attribute ending in `kind` (`op.kind`,
    `dtype.kind`, `kind`) with a string literal or a tuple, list or set of them, either side: a kind
    vocabulary spelled in strings, where an enum (TypeFamily, StorageKind, ...) or np.issubdtype belongs."""
    found = []
    for path in module_files(root, package).values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            operands = [node.left, *node.comparators]
            if any(_names_a_kind(a) and _string_literals(b) or _names_a_kind(b) and _string_literals(a)
                   for a, b in itertools.pairwise(operands)):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


def test_at_most_10_kind_string_comparisons():
    found = kind_string_comparisons()
    assert len(found) <= MAX_KIND_STRING_COMPARISONS, (
        f"{len(found)} comparisons of a kind with a string literal in hls/ (at most {MAX_KIND_STRING_COMPARISONS}; "
        "compare enum members, e.g. hls.types.TypeFamily):\n" + "\n".join(f"  {f}" for f in found))


def test_kind_comparison_counter(tmp_path):
    """The counter itself: string kinds on either side, in tuples and sets, and in chains count once per
    comparison; enum members, other names and strings not compared with a kind do not."""
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "m.py").write_text(
        "def f(op, kind, dtype, name, K):\n"
        "    a = op.kind == 'add'\n"  # 1
        "    b = 'fixed' != kind\n"  # 2
        "    c = dtype.kind in 'biu'\n"  # 3
        "    d = op.ctype.kind not in ('native', 'bool')\n"  # 4
        "    e = kind in {'x', 'y'}\n"  # 5
        "    g = 0 < op.kind == 'z'\n"  # 6
        "    h = op.kind is K.ADD or kind == K.SUB or name == 'kind'\n"
        "    i = op.kinds == ('a',) or op.kind in (K.A, 'b') or kind == 3\n"
        "    return a, b, c, d, e, g, h, i\n")
    found = kind_string_comparisons(tmp_path, "toy")
    assert [f.split(":")[1] for f in found] == ["2", "3", "4", "5", "6", "7"], found


def test_every_type_family_has_one_codec_class_and_one_c_spelling():
    from hls.backend.codec import codec_for
    from hls.backend.codec.base import CODECS
    from hls.backend.ctype import C_SPELLINGS, ctype_of
    from hls.types import TypeFamily, family_of

    assert set(CODECS) == set(C_SPELLINGS) == set(TypeFamily)
    for t in (hls.int16, hls.uint9, hls.bool_, hls.float32, hls.ap_fixed[16, 4]):
        assert family_of(codec_for(t).elem) is family_of(t) is codec_for(t).family is ctype_of(t).family
    with pytest.raises(TypeError, match="no type family"):
        family_of(hls.int8[4])


def test_an_incomplete_codec_or_c_spelling_class_fails_when_defined():
    from dataclasses import dataclass

    from hls.backend.codec.base import CODECS, Codec
    from hls.backend.ctype import C_SPELLINGS, CType
    from hls.types import TypeFamily

    before = dict(CODECS), dict(C_SPELLINGS)
    with pytest.raises(TypeError, match="Codec class Half leaves of, dat_in, .*draw undefined"):
        @dataclass(frozen=True)
        class Half(Codec, family=TypeFamily.INT):
            def cpp_out(self, expr: str) -> str:
                return expr
    with pytest.raises(TypeError, match="CType class Unspelled leaves of undefined"):
        class Unspelled(CType, family=TypeFamily.INT):
            @property
            def spelling(self) -> str:
                return "int"
    assert (dict(CODECS), dict(C_SPELLINGS)) == before
def class_lines(path: Path, name: str) -> int:
    """Lines of the class `name` in the module at `path`, from its `class` line to its last line."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node.end_lineno - node.lineno + 1
    raise AssertionError(f"no class {name} in {path}")


def test_kernel_is_a_facade_under_200_lines():
    """Kernel only sequences the stages; their work lives in them (hls/compilation.py, hls/golden_runs.py,
    hls/schedule, hls/sim, hls/project, hls/verification.py). A Kernel that grows past the limit is
    doing a stage's work: move it to that stage."""
    lines = class_lines(module_files()["hls.kernel"], "Kernel")
    assert lines < MAX_KERNEL_LINES, f"hls/kernel.py: Kernel has {lines} lines (limit {MAX_KERNEL_LINES})"


@pytest.mark.parametrize("body, over", [(MAX_KERNEL_LINES - 2, False), (MAX_KERNEL_LINES - 1, True)])
def test_class_line_counter(tmp_path, body, over):
    path = tmp_path / "m.py"
    path.write_text("class Kernel:\n" + "".join(f"    x{i} = {i}\n" for i in range(body)))
    assert (class_lines(path, "Kernel") >= MAX_KERNEL_LINES) is over
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
