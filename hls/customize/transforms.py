"""The loop-transformation records of a schedule: names resolved, then hls/passes/loopnest.py's IR change."""

from __future__ import annotations

from typing import Any

from hls.customize.names import resolve_loop
from hls.customize.records import ScheduleError
from hls.errors import Loc
from hls.ir import ForOp, Module
from hls.passes.loopnest import TransformError, depth_of, fuse_loops, reorder_nest, split_loop


def _factor_list(value: Any, n: int, loc: Loc | None) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ScheduleError(f"tile: give one factor per loop ({n}), got {value!r}", loc)
    return list(value)


def apply_transform(module: Module, op: str, targets: tuple[Any, ...], options: dict[str, Any],
                    loc: Loc | None) -> None:
    """Apply split, tile, reorder or fuse to the loops `targets` name."""
    if op == "split":
        ref = resolve_loop(module, targets[0], loc)
        split_loop(ref.func, ref.op, options.get("factor"), bool(options.get("tail", False)), loc)
    elif op == "reorder":
        if len(targets) < 2:
            raise ScheduleError("reorder needs at least two loops", loc)
        refs = [resolve_loop(module, name, loc) for name in targets]
        reorder_nest(with_loops_between([ref.op for ref in refs]), loc)
    elif op == "fuse":
        first, second = (resolve_loop(module, name, loc) for name in targets)
        if first.func is not second.func:
            raise TransformError(f"fuse: {first.path} and {second.path} are in different functions", loc)
        fuse_loops(first.func, first.op, second.op, loc)
    elif op == "tile":
        tile(module, targets[0], options.get("factors"), loc)


def with_loops_between(loops: list[Any]) -> list[Any]:
    """The whole order of the nest from the outermost named loop to the innermost one: the named loops take
    each other's places in the order given, a loop between them that is not named keeps its own
    (`reorder("K", "I")` of I, J, K is K, J, I). Loops that do not form such a chain are returned as given,
    for the reorder's own refusal."""
    if len({id(loop) for loop in loops}) != len(loops):
        return loops  # a loop named twice: the reorder's refusal
    by_depth = sorted(loops, key=depth_of)
    chain, current = [by_depth[0]], by_depth[0]
    while current is not by_depth[-1]:
        inner = [op for op in current.body.ops if op.is_loop] if isinstance(current, ForOp) else []
        if len(inner) != 1:
            return loops
        current = inner[0]
        chain.append(current)
    ids = {id(loop) for loop in loops}
    if len(chain) == len(loops) or len(ids & {id(loop) for loop in chain}) != len(ids):
        return loops
    named = iter(loops)
    return [next(named) if id(loop) in ids else loop for loop in chain]


def tile(module: Module, names: Any, factors: Any, loc: Loc | None) -> None:
    """Split each loop by its factor, then order the nest: every outer loop, then every inner loop."""
    if not isinstance(names, (list, tuple)) or len(names) < 1:
        raise ScheduleError(f"tile: give a list of loops, got {names!r}", loc)
    factors = _factor_list(factors, len(names), loc)
    refs = [resolve_loop(module, name, loc) for name in names]
    if any(b.op not in a.op.walk() or b.op is a.op for a, b in zip(refs, refs[1:], strict=False)):
        raise TransformError("tile: name the loops of one nest, outermost first", loc)
    carrying = [ref for ref in refs if len(refs) > 1 and isinstance(ref.op, ForOp) and ref.op.inits]
    if carrying:  # refused before any split, and said as tile's refusal, not the reorder's it would run into
        loop = carrying[0].op
        raise TransformError(f"tile: loop {loop.label} carries a value from one iteration to the next "
                             f"({', '.join(a.name or '?' for a in loop.carried)}), and tiling reorders its "
                             "iterations among the other loops'; split it instead, or tile the loops around it", loc)
    for ref, factor in zip(refs, factors, strict=True):
        trip = ref.op.trip_count() if isinstance(ref.op, ForOp) else None
        if trip and isinstance(factor, int) and not isinstance(factor, bool) and 0 < factor <= trip \
                and trip % factor:  # split's own message would suggest tail=True, which tile does not take
            raise TransformError(f"tile: factor {factor} does not divide the trip count {trip} of {ref.op.label}; "
                                 "tile needs factors that divide (split(loop, factor, tail=True) makes a tail loop)",
                                 loc)
    outers, inners = [], []
    labels = [f"{ref.func.name}/{ref.op.label}" for ref in refs]  # a path through a split loop goes stale
    for name, factor in zip(labels, factors, strict=True):
        ref = resolve_loop(module, name, loc)  # again: splitting an outer loop copied the inner ones
        outer, inner = split_loop(ref.func, ref.op, factor, False, loc)
        outers.append(outer)
        inners.append(inner)
    if len(refs) > 1:
        reorder_nest([*outers, *inners], loc)
