"""Two golden models on copies of the same inputs, compared bit for bit (shared by the differential
tests and the fuzz worker): outputs, the return value, overflow events (site, value before and after,
the value's type) and, when both raise, the error's type and message (the message holds the line)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from hls.kernel import Kernel


def same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, np.floating):
        return type(a) is type(b) and a.tobytes() == b.tobytes()
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@contextlib.contextmanager
def golden_mode(mode: str) -> Iterator[None]:
    saved = os.environ.get("HLS_GOLDEN")
    os.environ["HLS_GOLDEN"] = mode
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("HLS_GOLDEN", None)
        else:
            os.environ["HLS_GOLDEN"] = saved


def run_in_mode(kernel: Kernel, inputs: list[Any], mode: str) -> tuple[Any, list[Any] | None, dict | None]:
    """(return value, the arguments after the call, overflow events); (error text, None, None) on an error."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
    with golden_mode(mode):
        try:
            ret, events = Kernel.run_recording_overflows(kernel, args)
        except Exception as exc:  # noqa: BLE001 - both models must fail alike
            return f"{type(exc).__name__}: {exc}", None, None
    return ret, args, events


def disagreement(kernel: Kernel, inputs: list[Any], mode: str) -> str | None:
    """Where HLS_GOLDEN=`mode` and HLS_GOLDEN=python differ on `inputs`; None when they agree."""
    fast, slow = run_in_mode(kernel, inputs, mode), run_in_mode(kernel, inputs, "python")
    if not same(fast[0], slow[0]):
        return f"{mode} gives {fast[0]!r}, python {slow[0]!r}"
    if slow[1] is None:
        return None
    for k, (a, b) in enumerate(zip(fast[1], slow[1], strict=True)):
        if not same(a, b):
            return f"argument {k} differs: {mode} {a!r}, python {b!r}"
    if fast[2].keys() != slow[2].keys():
        return f"overflow sites differ: {mode} {sorted(fast[2])}, python {sorted(slow[2])}"
    for site, event in slow[2].items():
        if fast[2][site] != event or type(fast[2][site][1]) is not type(event[1]):
            return f"overflow at {site}: {mode} {fast[2][site]!r}, python {event!r}"
    return None
