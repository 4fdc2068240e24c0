"""`scf.for` headers for the IR's `range` loops: index bounds, and a counted form for negative steps.

scf.for needs a positive step, so `range(hi, lo, -s)` runs a counter k over its trip count
(max(0, ceil((hi - lo) / s))) and computes the induction variable hi - k * s inside the body.
"""

from __future__ import annotations

from collections.abc import Callable

from hls.backend.mlir.builder import Emitter, unsupported
from hls.ir import ConstantOp, ForOp, LoadOp, StoreOp, Value, WhileOp
from hls.ir.ranges import value_range


def loop_attrs(op: ForOp | WhileOp) -> dict[str, object]:
    """`hls.label` and `hls.<directive>` of a loop, from its typed fields (label first, then LOOP_FIELDS order)."""
    fields = {"label": op.label, **op.directive_fields()}
    return {f"hls.{k}": v for k, v in fields.items() if v is not None}


def loop_header(e: Emitter, op: ForOp) -> tuple[str, Callable[[], None]]:
    """The `scf.for ...` text up to its iter_args, and the body's first ops (the induction variable)."""
    start, stop, step, bind = loop_range(e, op)
    counter = e.b.fresh(op.iv.name if bind.direct else f"{op.iv.name}_n")
    return f"scf.for {counter} = {start} to {stop} step {step}", lambda: bind(counter)


class _Bind:
    """Binds the IR's induction variable from the counter of a loop (directly, or counted down)."""

    def __init__(self, fn: Callable[[str], None], direct: bool):
        self.fn, self.direct = fn, direct

    def __call__(self, counter: str) -> None:
        self.fn(counter)


def loop_range(e: Emitter, op: ForOp) -> tuple[str, str, str, _Bind]:
    """(start, stop, positive step) of an index counter for `op`, and how the body gets the IR's
    induction variable from it."""
    b = e.b
    step_op = getattr(op.step, "op", None)
    if not isinstance(step_op, ConstantOp):
        known = value_range(op.step)
        if known is None or known[0] <= 0:  # scf.for counts up by a positive step
            raise unsupported(op, "a loop step that is a variable not known to be positive")
        return e.index(op.lb), e.index(op.ub), e.index(op.step), _Bind(lambda counter: bind_iv(e, op.iv, counter),
                                                                       True)
    step = int(step_op.value)
    lb, ub = e.index(op.lb), e.index(op.ub)
    if step > 0:
        return lb, ub, b.index_const(step), _Bind(lambda counter: bind_iv(e, op.iv, counter), True)
    bounds = op.const_bounds()
    if bounds is not None:
        trips = b.index_const(len(range(*bounds)))
    else:
        span = b.op("arith.subi", f"{lb}, {ub}", "index", "span")
        trips = b.op("arith.ceildivsi", f"{span}, {b.index_const(-step)}", "index", "trips")
        trips = b.op("arith.maxsi", f"{trips}, {b.index_const(0)}", "index", "trips")

    def counted_down(counter: str) -> None:
        offset = b.op("arith.muli", f"{counter}, {b.index_const(-step)}", "index", "offset") if step != -1 \
            else counter
        bind_iv(e, op.iv, b.op("arith.subi", f"{lb}, {offset}", "index", op.iv.name))

    return b.index_const(0), trips, b.index_const(1), _Bind(counted_down, False)


def bind_iv(e: Emitter, iv: Value, index: str) -> None:
    """The induction variable is an `index`; an `arith.index_cast` gives its integer value where used as one."""
    e.ivs[id(iv)] = index
    if any(not index_only(user, iv) for user in iv.uses):
        e.values[id(iv)] = e.b.cast("arith.index_cast", index, "index", f"i{iv.type.width}",
                                    f"{iv.name}_i{iv.type.width}")


def index_only(user, v: Value) -> bool:
    """Whether `user` reads `v` only as a subscript or a loop bound (where the index form serves)."""
    if isinstance(user, LoadOp):
        return user.memref is not v
    if isinstance(user, StoreOp):
        return user.value is not v and user.memref is not v
    if isinstance(user, ForOp):
        return v not in user.inits
    return False
