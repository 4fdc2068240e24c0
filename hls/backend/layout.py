"""Line layout of the generated C++: no line longer than MAX_LINE characters (issue 21).

A longer line is broken after a comma that sits inside parentheses (an argument list, a concatenation),
the continuation indented one level deeper than the line it continues. Only whitespace changes, so the
C++ means the same; lines holding a string literal, a comment or a preprocessor directive are kept.
"""

from __future__ import annotations

MAX_LINE = 120
CONTINUATION = 8  # extra columns of a continuation line


def break_points(text: str) -> list[int]:
    """Indices just after each `, ` at parenthesis depth >= 1 (outside brackets of a template)."""
    points, depth = [], 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth >= 1 and text[i + 1:i + 2] == " ":
            points.append(i + 1)
    return points


def wrap(line: str, limit: int = MAX_LINE) -> list[str]:
    """`line` as one or more lines of at most `limit` characters where a break point allows."""
    if len(line) <= limit or '"' in line or "//" in line or line.lstrip().startswith("#"):
        return [line]
    indent = len(line) - len(line.lstrip())
    out, rest, first = [], line, True
    while len(rest) > limit:
        cuts = [p for p in break_points(rest) if p <= limit and rest[:p].strip()]
        if not cuts:
            break
        cut = cuts[-1]
        out.append(rest[:cut].rstrip())
        rest = " " * (indent + CONTINUATION) + rest[cut:].lstrip()
        first = False
    out.append(rest)
    return out if not first else [line]


def wrap_all(lines: list[str], limit: int = MAX_LINE) -> list[str]:
    return [part for line in lines for part in wrap(line, limit)]
