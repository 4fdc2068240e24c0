"""Error types. Every user-facing failure is an HLSError; frontend errors carry a source location."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """A place in the user's Python source (1-based line, 0-based column as in `ast`)."""

    file: str
    line: int
    col: int = 0
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}"

    def source_line(self) -> str | None:
        import linecache

        text = linecache.getline(self.file, self.line)
        return text.rstrip("\n") if text else None


class HLSError(Exception):
    """Base of every error the tool raises on purpose."""

    def __init__(self, message: str, loc: Loc | None = None, notes: tuple[str, ...] = ()):
        self.message = message
        self.loc = loc
        self.notes = tuple(notes)
        super().__init__(self._render())

    def _render(self) -> str:
        if self.loc is None:
            head = self.message
        else:
            head = f"{self.loc}: {self.message}"
            text = self.loc.source_line()
            if text is not None:
                stripped = text.lstrip()
                indent = len(text) - len(stripped)
                width = 1
                if self.loc.end_col is not None and self.loc.end_col > self.loc.col:
                    width = self.loc.end_col - self.loc.col
                caret = " " * (self.loc.col - indent) + "^" * max(1, min(width, len(text) - self.loc.col))
                head += f"\n    {stripped}\n    {caret}"
        for note in self.notes:
            head += f"\n  note: {note}"
        return head


class UnsupportedError(HLSError):
    """A Python construct the tool cannot turn into hardware."""


class HLSTypeError(HLSError):
    """A typing problem: missing or unknown annotation, mismatched shapes, lossy implicit conversion."""


class TypeBuildError(HLSTypeError, TypeError):
    """A type built with bad parameters where Python evaluates it (`hls.int32[n]` with n = 0 in a
    factory's annotation): located at the user's line. Also a TypeError, which code catching Python's
    own errors from a type expression expects."""


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_loc() -> Loc | None:
    """The innermost frame outside this package (and outside generated code like a dataclass
    `__init__`): the user's line that called into hls, with the column of the call when known."""
    frame = sys._getframe(1)
    while frame is not None:
        file = frame.f_code.co_filename
        if not file.startswith("<") and not os.path.abspath(file).startswith(_PACKAGE):
            positions = list(frame.f_code.co_positions())
            index = frame.f_lasti // 2
            line, _, col, end = positions[index] if 0 <= index < len(positions) else (None,) * 4
            same_line = line == frame.f_lineno and col is not None
            return Loc(file, frame.f_lineno, col if same_line else 0, end if same_line else None)
        frame = frame.f_back
    return None


class CompileError(HLSError):
    """The C++ compiler rejected generated code; carries the compiler output and the file path."""

    def __init__(self, message: str, output: str = "", path: str | None = None):
        self.output = output
        self.path = path
        text = message
        if path:
            text += f"\n  generated file: {path}"
        if output:
            text += "\n" + output.rstrip()
        super().__init__(text)


class VerificationError(HLSError):
    """csim disagrees with the golden model."""


class SimulationError(HLSError):
    """Bad arguments to csim/verify, caught before any native code runs."""


class OverflowReport(HLSError):
    """Python mode wrapped or saturated a declared value while strict overflow checking was on."""


class OverflowWarning(UserWarning):
    """Python mode wrapped or saturated a declared value (usually a bug; explicit casts are silent)."""


class DirectiveWarning(UserWarning):
    """A directive Vitis accepts but adjusts (a partition factor larger than the dimension is clamped)."""


class DeadlockError(SimulationError):
    """A dataflow region where no process can move: every blocked process, its FIFO and line."""
