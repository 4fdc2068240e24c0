"""Loop flattening as Vitis does it by default (UG1399 "pragma HLS loop_flatten", "Working with Nested Loops").

A perfect nest (only the innermost loop has a body; between the loop statements nothing but index
arithmetic and the hand-over of carried values) or a semi-perfect one (the same, the outermost bound
variable) whose innermost loop is pipelined becomes one pipelined loop of trip = the product of the
trips, reported under the labels joined by "_" (`row_col_prod`, `LOOP_I_LOOP_J`, as in the ELEN226
reports of the calibration set). `hls.loop_flatten(off=True)` in any loop of the nest prevents it.
"""

from __future__ import annotations

from hls.ir import LOOPS, CallOp, ForOp, IfOp, LoadOp, StoreOp, YieldOp, has_exit

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


def flattenable_nest(loop: ForOp) -> list[ForOp] | None:
    """The loops of a nest Vitis would flatten, outermost first, or None. The innermost loop must be
    pipelined by the caller's decision; here: the nest is perfect or semi-perfect, no loop in it is
    pipelined or unrolled by a directive except the innermost, inner bounds are constants."""
    nest = [loop]
    while True:
        inner = _only_inner_loop(nest[-1])
        if inner is None:
            break
        nest.append(inner)
    if len(nest) < 2 or any(_flatten_off(lp) or has_exit(lp) for lp in nest):
        return None  # a loop that may exit early has no fixed trip count to flatten with
    if any(lp.attrs.get("pipeline") is not None or lp.attrs.get("unroll") for lp in nest[:-1]):
        return None
    if any(lp.trip_count() is None for lp in nest[1:]):
        return None
    if any(isinstance(op, LOOPS) for op in nest[-1].body.ops for op in op.walk()):
        return None  # the innermost loop still holds loops: it is not the pipelined one
    return nest


def joined_label(nest: list[ForOp]) -> str:
    return "_".join(str(lp.attrs.get("label") or "loop") for lp in nest)
