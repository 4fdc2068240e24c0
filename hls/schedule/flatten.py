"""Loop flattening as Vitis does it by default (UG1399 "pragma HLS loop_flatten", "Working with Nested Loops").

A perfect nest (only the innermost loop has a body; between the loop statements nothing but index
arithmetic and the hand-over of carried values) or a semi-perfect one (the same, the outermost bound
variable) whose innermost loop is pipelined becomes one pipelined loop of trip = the product of the
trips, reported under the labels joined by "_" (`row_col_prod`, `LOOP_I_LOOP_J`, as in the ELEN226
reports of the calibration set). `hls.loop_flatten(off=True)` in any loop of the nest prevents it.
"""

from __future__ import annotations

from collections.abc import Callable

from hls.ir import LOOPS, CallOp, ForOp, IfOp, LoadOp, StoreOp, YieldOp, has_exit
from hls.ir.core import BlockArg

BARRIERS = (LoadOp, StoreOp, IfOp, CallOp)  # logic between the loop statements: an imperfect nest


def _only_inner_loop(loop: ForOp) -> ForOp | None:
    """The single loop in `loop`'s body when nothing else there does work; None otherwise."""
    inner = [op for op in loop.body.ops if isinstance(op, ForOp)]
    if len(inner) != 1:
        return None
    for op in loop.body.ops:
        if op is inner[0] or isinstance(op, YieldOp):
            continue
        if any(isinstance(o, (*BARRIERS, *LOOPS)) for o in op.walk()):
            return None
    if list(loop.body.terminator.operands) != list(inner[0].results):
        return None  # the outer loop changes a carried value after the inner loop: imperfect
    return inner[0]


def _flatten_off(loop: ForOp) -> bool:
    return loop.loop_flatten is not None and loop.loop_flatten.off


def flattenable_nest(loop: ForOp, pipelined: Callable[[ForOp], bool]) -> list[ForOp] | None:
    """The loops of a nest Vitis would flatten, outermost first, or None.

    The nest ends at the loop Vitis pipelines (`pipelined`: a directive, or automatic pipelining,
    which first unrolls small inner loops into their parent), so the walk is innermost-first: a
    pipelined loop whose inner loops were unrolled flattens with the loops above it. The nest is
    perfect or semi-perfect, no loop above the pipelined one carries a pipeline or unroll directive,
    and the inner bounds are constants or do not depend on an outer loop's counter (Vitis computes
    the flattened trip count before the nest; rhsuanwang lreorder1_lreorder2, both bounds `size`)."""
    nest = [loop]
    while not pipelined(nest[-1]):
        inner = _only_inner_loop(nest[-1])
        if inner is None:
            return None
        nest.append(inner)
    if len(nest) < 2 or any(_flatten_off(lp) or has_exit(lp) for lp in nest):
        return None  # a loop that may exit early has no fixed trip count to flatten with
    if any(lp.pipeline is not None or lp.unroll for lp in nest[:-1]):
        return None
    bodies = {id(lp.body) for lp in nest}
    if any(lp.trip_count() is None and _depends_on(lp, bodies) for lp in nest[1:]):
        return None
    return nest


def _depends_on(loop: ForOp, bodies: set[int]) -> bool:
    """Whether a bound of `loop` is computed from a counter or carried value of the nest (the blocks
    `bodies`, by id): a triangular or data-dependent nest, whose trip count is not known before it."""
    seen, work = set(), [loop.lb, loop.ub, loop.step]
    while work:
        value = work.pop()
        if isinstance(value, BlockArg) and id(value.block) in bodies:
            return True
        if id(value) in seen:
            continue
        seen.add(id(value))
        op = getattr(value, "op", None)
        if op is not None:
            work.extend(op.operands)
    return False


def joined_label(nest: list[ForOp]) -> str:
    return "_".join(str(lp.label or "loop") for lp in nest)
