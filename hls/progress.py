"""Progress on the terminal for work that can take seconds (csim builds, verify, export, exploration, fuzzing).

Drawn with `rich` on stderr, and only where someone is watching: stderr must be a terminal and
`HLS_QUIET` unset (or 0). A display appears only once its task has lasted `DELAY` seconds, so quick
calls print nothing; it is transient (cleared when the task ends). A task with a known `total` shows
a bar with counts; without one, a spinner and the elapsed time. One display per process at a time:
work nested inside a task (a csim build inside `verify`, points inside an exploration) stays silent.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

DELAY = 2.0  # seconds a task must last before anything is drawn

_LOCK = threading.Lock()
_BUSY = [0]  # tasks (shown or not) open in this process: one display at a time
_THREAD = threading.local()  # .silenced: silenced() regions open in this thread


def enabled() -> bool:
    """True when progress may be drawn: stderr is a terminal and HLS_QUIET is not set."""
    if os.environ.get("HLS_QUIET", "").strip() not in ("", "0"):
        return False
    try:  # the stream's own answer: a notebook's stderr is no terminal even where its fd 2 is one
        return bool(sys.stderr.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _ignore(count: int = 1) -> None:
    """The `advance` of a silent task."""


@contextlib.contextmanager
def task(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """Show `description` (with a bar when `total` is known) while the block runs; yields `advance(n=1)`."""
    with _LOCK:
        show = _BUSY[0] == 0 and not getattr(_THREAD, "silenced", 0) and enabled()
        _BUSY[0] += 1
    try:
        if not show:
            yield _ignore
        else:
            display = _Display(description, total)
            try:
                yield display.advance
            finally:
                display.close()
    finally:
        with _LOCK:
            _BUSY[0] -= 1


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """No progress from this thread while the block runs (exploration workers: the caller shows the bar)."""
    _THREAD.silenced = getattr(_THREAD, "silenced", 0) + 1
    try:
        yield
    finally:
        _THREAD.silenced -= 1


class _Display:
    """A rich Progress with one task, started by a timer after DELAY seconds unless closed first."""

    def __init__(self, description: str, total: int | None):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
        if total is not None:
            columns += [BarColumn(), MofNCompleteColumn()]
        columns.append(TimeElapsedColumn())
        self.progress = Progress(*columns, console=Console(file=sys.stderr), transient=True)
        self.task_id = self.progress.add_task(description, total=total)
        self.lock = threading.Lock()
        self.state = "waiting"  # -> "shown" -> "closed", or "waiting" -> "closed"
        self.timer = threading.Timer(DELAY, self._show)
        self.timer.daemon = True
        self.timer.start()

    def _show(self) -> None:
        with self.lock:
            if self.state == "waiting":
                self.progress.start()
                self.state = "shown"

    def advance(self, count: int = 1) -> None:
        self.progress.advance(self.task_id, count)

    def close(self) -> None:
        self.timer.cancel()
        with self.lock:
            if self.state == "shown":
                self.progress.stop()
            self.state = "closed"
