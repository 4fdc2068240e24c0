"""How readable the generated C++ is next to the Python it came from (issue 21): counts a reader would
make by eye, per kernel. Used by bench_readability.py (the `make bench` table) and by
tests/backend/test_readability.py (the goals, and the hand-written Vitis versions in tests/fixtures/).

- Python statements: the statements of the kernel's functions (and the sub-kernels its C++ holds),
  without docstrings, `pass` and directive calls (`hls.pipeline()`, ... become pragmas, not statements).
- C++ statements: the statements of the function bodies: each line ending in `;` or opening a
  `for`/`while`/`if`/`else`/`do` block, without pragmas, interface lines, labels and preprocessor lines.
  Helpers before the functions (`static inline`: the `hls_` templates and the `make_<T>` struct makers,
  hls/backend/cpp/structs.py) are not kernel statements; a call of one is.
- casts: explicit conversions a reader has to map back: C casts to a native type (`(int32_t)(...)`),
  functional casts to an ap type (`ap_int<33>(...)`, `ap_fixed<16, 2>(...)`) and `static_cast<...>`.
  A declaration (`ap_int<32> acc = ...`) is not a cast.
- renamed locals: Python locals (arguments, assigned names, loop variables) that the C++ does not
  declare under their own name, or declares also as SSA versions (`acc_1`).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from dataclasses import dataclass
from typing import Any

DIRECTIVES = {"pipeline", "unroll", "array_partition", "bind_storage", "interface", "dataflow", "inline", "label",
              "loop_flatten", "loop_tripcount", "aggregate", "disaggregate"}
CAST = re.compile(r"\((?:u?int(?:8|16|32|64)_t|float|double|bool|long long|unsigned long long)\)\s*[\w(]"
                  r"|\bap_u?(?:int|fixed)<[^<>;]*>\(|\bstatic_cast<")
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
FUNC = re.compile(r"^(?:[\w:<>, ]+?)\b(\w+)\(([^;]*)\) \{$")


@dataclass
class Readability:
    """The counts of one kernel (module docstring)."""

    kernel: str
    py_statements: int
    cpp_statements: int
    casts: int
    longest_line: int
    renamed: list[str]

    @property
    def statements_ratio(self) -> float:
        return self.cpp_statements / max(self.py_statements, 1)

    @property
    def casts_per_statement(self) -> float:
        return self.casts / max(self.cpp_statements, 1)

    def row(self) -> list[Any]:
        return [self.kernel, self.py_statements, self.cpp_statements, f"{self.statements_ratio:.2f}",
                f"{self.casts_per_statement:.2f}", self.longest_line, len(self.renamed)]


def function_bodies(cpp: str) -> dict[str, list[str]]:
    """{function name: the lines of its body} of a generated .cpp (the lines between `... name(...) {`
    at column 0 and the `}` closing it)."""
    bodies: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in joined_signatures(cpp.splitlines()):
        match = FUNC.match(line)
        if current is None and match and not line.startswith(("static inline", "template", "#")):
            current = bodies.setdefault(match.group(1), [])
        elif current is not None and line == "}":
            current = None
        elif current is not None:
            current.append(line)
    return bodies


def joined_signatures(lines: list[str]) -> list[str]:
    """Lines with a function signature broken over several lines joined back into one."""
    out: list[str] = []
    for line in lines:
        if out and out[-1][:1].isalpha() and "(" in out[-1] and not out[-1].endswith(("{", ";", ")")) \
                and line.startswith(" "):
            out[-1] = f"{out[-1]} {line.strip()}"
        else:
            out.append(line)
    return out


def cpp_statements(lines: list[str]) -> list[str]:
    """The statement lines of function bodies (module docstring)."""
    out: list[str] = []
    pending = ""
    for line in lines:
        text = (pending + " " + line.strip()).strip() if pending else line.strip()
        pending = ""
        if text and not text.startswith(("#", "//")) and text[-1] not in ";{}:" and "(" in text:
            pending = text  # a statement continued on the next line
            continue
        if not text or text.startswith(("#", "//", "}")) and not text.startswith("} else"):
            continue
        text = re.sub(r"^\w+:\s*(?=for|while|do)", "", text)  # a loop label
        if text.endswith(";") or re.match(r"(for|while|if|do)\b.*\{$", text) or text.startswith("} else"):
            out.append(text)
    return out


def python_functions(kernel: Any) -> list[ast.FunctionDef]:
    """The kernel's function and those of the sub-kernels it calls (their C++ sits in the same file)."""
    seen, out = set(), []
    work = [kernel]
    while work:
        k = work.pop()
        if id(k) in seen:
            continue
        seen.add(id(k))
        func = getattr(k, "__hls_kernel__", None) or getattr(k, "__wrapped__", None)
        if func is None:
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
        out.append(tree.body[0])
        work.extend(getattr(k.compile(), "callees", []) or [])
    return out


def _is_directive(stmt: ast.stmt) -> bool:
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in DIRECTIVES


def python_statements(func: ast.FunctionDef) -> int:
    count = 0
    for node in ast.walk(func):
        if not isinstance(node, ast.stmt) or node is func or isinstance(node, ast.Pass):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        if _is_directive(node):
            continue
        count += 1
    return count


def python_locals(func: ast.FunctionDef) -> set[str]:
    names = {a.arg for a in func.args.args}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and not node.id.startswith("_"):
            names.add(node.id)
    return names


def measure(kernel: Any, name: str | None = None) -> Readability:
    """The counts of `kernel`'s generated C++ against its Python."""
    cpp = kernel.cpp
    bodies = function_bodies(cpp)
    lines = [line for body in bodies.values() for line in body]
    statements = cpp_statements(lines)
    funcs = python_functions(kernel)
    signatures = [m for m in map(FUNC.match, joined_signatures(cpp.splitlines())) if m]
    declared = set(IDENT.findall("\n".join(lines))) | {n for m in signatures for n in IDENT.findall(m.group(2))}
    renamed = []
    for local in sorted(set().union(*(python_locals(f) for f in funcs))):
        if local not in declared or any(re.fullmatch(rf"{re.escape(local)}_\d+", d) for d in declared):
            renamed.append(local)
    longest = max((len(line) for line in cpp.splitlines()), default=0)
    return Readability(name or kernel.__name__, sum(python_statements(f) for f in funcs), len(statements),
                       sum(len(CAST.findall(s)) for s in statements), longest, renamed)


HEADERS = ["kernel", "Python stmts", "C++ stmts", "C++/Python", "casts/stmt", "longest line", "renamed locals"]
