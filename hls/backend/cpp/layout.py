"""Line layout of the generated C++: no line longer than MAX_LINE characters (issue 21).

A longer line is broken after a comma inside parentheses (an argument list, a concatenation) or after a
binary operator, at the outermost such place that keeps the line short, the continuation indented
one level deeper than the line it continues. Only whitespace changes, so the
C++ means the same; lines holding a string literal, a comment or a preprocessor directive are kept.
"""

from __future__ import annotations

MAX_LINE = 120
CONTINUATION = 8  # extra columns of a continuation line


def break_points(text: str) -> list[tuple[int, int]]:
    """(depth, index just after) of each place a line may break: after `, ` inside parentheses and after
    a spaced binary operator (` + `, ` - `, ` * `, ` && `, ` || `); depth counts the open brackets."""
    points, depth = [], 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth >= 1 and text[i + 1:i + 2] == " ":
            points.append((depth, i + 1))
        elif text[i - 1:i] == " " and text[i + 1:i + 2] == " " and char in "+-*" or text[i:i + 4] in (" && ", " || "):
            points.append((depth, i + 1 if char in "+-*" else i + 3))
    return points


def wrap(line: str, limit: int = MAX_LINE) -> list[str]:
    """`line` as one or more lines of at most `limit` characters where a break point allows."""
    if len(line) <= limit or '"' in line or "//" in line or line.lstrip().startswith("#"):
        return [line]
    indent = len(line) - len(line.lstrip())
    out, rest, first = [], line, True
    while len(rest) > limit:
        cuts = [(d, p) for d, p in break_points(rest) if p <= limit and rest[:p].strip() and p > indent + 20]
        if not cuts:
            break
        shallow = min(d for d, _ in cuts)  # break the outermost list or sum first
        cut = max(p for d, p in cuts if d == shallow)
        out.append(rest[:cut].rstrip())
        rest = " " * (indent + CONTINUATION) + rest[cut:].lstrip()
        first = False
    out.append(rest)
    return out if not first else [line]


def wrap_all(lines: list[str], limit: int = MAX_LINE) -> list[str]:
    return [part for line in lines for part in wrap(line, limit)]
