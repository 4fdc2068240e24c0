"""Passes over the IR module. Each is a frozen dataclass with a `name` and `apply(module)`."""

from __future__ import annotations

from hls.ir import Module, verify_module
from hls.passes.cse import EliminateCommonSubexpressionsPass
from hls.passes.dce import EliminateDeadCodePass
from hls.passes.fill import DropDeadFillPass
from hls.passes.fold import FoldConstantsPass
from hls.passes.unroll import UnrollLoopsPass

__all__ = ["DropDeadFillPass", "EliminateCommonSubexpressionsPass", "EliminateDeadCodePass", "FoldConstantsPass",
           "UnrollLoopsPass",
           "default_pipeline", "run_passes"]


def default_pipeline() -> list:
    """The passes every kernel goes through, in order.

    Folding first turns bounds such as `range(N * 2)` into constants the unroller can use; folding
    again afterwards simplifies the copies (constant induction variables, taken branches); CSE then
    merges the repeated index arithmetic, and DCE removes whatever the others left unused. A returned
    array's zero-fill goes first when a loop nest overwrites it entirely (hls.passes.fill).
    """
    return [FoldConstantsPass(), DropDeadFillPass(), UnrollLoopsPass(), FoldConstantsPass(),
            EliminateCommonSubexpressionsPass(), EliminateDeadCodePass()]


def run_passes(module: Module, passes: list | None = None, verify_each: bool = False) -> Module:
    for p in default_pipeline() if passes is None else passes:
        p.apply(module)
        if verify_each:
            verify_module(module)
    return module
