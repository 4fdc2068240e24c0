"""Readability of the generated C++ for every example (issue 21, item 1): per kernel the Python
statements next to the C++ statements, casts per statement, the longest line and the Python locals the
C++ renamed (bench/readability.py says what is counted). Goals: at most 1.5 C++ statements per Python
statement, no renamed local, no line over 120 characters.

    .venv/bin/python bench/bench_readability.py      # prints the table
"""

from __future__ import annotations

import importlib.util
import warnings
from typing import Any

from benchlib import ROOT, row
from readability import HEADERS, Readability, measure

EXAMPLES = ROOT / "examples"


def example_kernels() -> list[tuple[str, Any]]:
    """(example name, its KERNEL) of every examples/*.py that defines one."""
    out = []
    for path in sorted(EXAMPLES.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"hls_readability_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spec.loader.exec_module(module)
        if getattr(module, "KERNEL", None) is not None:
            out.append((path.stem, module.KERNEL))
    return out


def measurements() -> list[Readability]:
    return [measure(kernel, name) for name, kernel in example_kernels()]


def text_table(results: list[Readability]) -> str:
    cells = [HEADERS] + [[str(c) for c in r.row()] for r in results]
    widths = [max(len(row_[i]) for row_ in cells) for i in range(len(HEADERS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row_, widths, strict=True)) for row_ in cells)


def run(quick: bool = False) -> list[dict]:
    results = measurements()
    print(text_table(results))
    py = sum(r.py_statements for r in results)
    cpp = sum(r.cpp_statements for r in results)
    worst = max(results, key=lambda r: r.statements_ratio)
    longest = max(results, key=lambda r: r.longest_line)
    renamed = sum(len(r.renamed) for r in results)
    casts = sum(r.casts for r in results)
    return [
        row("readability_cpp_per_python_statement", cpp, py, "stmts", f"worst {worst.kernel} "
            f"{worst.statements_ratio:.2f}; every example's C++ statements against its Python statements",
            "<= 1.5 per example"),
        row("readability_casts_per_cpp_statement", casts, cpp, "casts", "explicit conversions in the C++ "
            "statements of every example", None),
        row("readability_longest_line", longest.longest_line, 120, "chars", f"{longest.kernel}", "<= 120"),
        row("readability_renamed_locals", renamed, max(1, sum(len(r.renamed) + 1 for r in results)), "names",
            "; ".join(f"{r.kernel}: {', '.join(r.renamed)}" for r in results if r.renamed) or "none", "0"),
    ]


if __name__ == "__main__":
    for r in run():
        print(r)
