"""Passes over the IR module. Each is a frozen dataclass with a `name` and `apply(module)`."""

from __future__ import annotations

from hls.ir import Module, verify_module


def default_pipeline() -> list:
    """The passes every kernel goes through, in order."""
    return []


def run_passes(module: Module, passes: list | None = None, verify_each: bool = False) -> Module:
    for p in default_pipeline() if passes is None else passes:
        p.apply(module)
        if verify_each:
            verify_module(module)
    return module
