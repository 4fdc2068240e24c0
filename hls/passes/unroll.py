"""Loop unrolling for `hls.unroll()` loops with constant bounds, done in the IR so that folding, CSE
and the scheduler see the copies (constant indices, merged address arithmetic, parallel operators).

Full unrolling (no factor, or a factor >= the trip count) replaces the loop with one copy of the
body per iteration, the induction variable a constant, the carried values threaded from copy to
copy. Unrolling by a factor f keeps a loop stepping f times as far whose body holds f copies (copy k
reads iv + k*step), followed by one copy per leftover iteration when f does not divide the trip
count. Loops with variable bounds or an early exit keep the pragma for Vitis. Copies of nested loops get fresh labels.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import BinaryOp, CastOp, ConstantOp, ForOp, Module, Value, YieldOp, has_exit
from hls.ir.core import Block
from hls.ir.kinds import OpKind
from hls.ir.labels import fresh_label
from hls.passes.clone import ValueMap, clone_attrs, clone_block_into, insert_ops
from hls.passes.evaluate import static_value
from hls.types import int_binop_type, literal_int_type

MAX_UNROLLED_OPS = 200_000  # beyond this the pragma stays and Vitis decides


def _copy_body(loop: ForOp, iv: Value, carried: list[Value], dest: Block, labels: set[str] | None, copy: int
               ) -> list[Value]:
    """Append one copy of the body (iv and carried values given) to `dest`; the values it yields.
    Nested loops of the copy get fresh labels unless `labels` is None (copies never emitted)."""
    mapping: ValueMap = {loop.iv: iv, **dict(zip(loop.carried, carried, strict=True))}
    start = len(dest.ops)
    values = clone_block_into(loop.body, dest, mapping)
    for op in dest.ops[start:] if labels is not None else ():
        for inner in op.walk():
            if inner.is_loop and inner.label:
                inner.attrs["label"] = fresh_label(labels, f"{inner.label}_u{copy}")
    return values


def _constant(value: int, loop: ForOp, dest: Block, typed: bool = True) -> Value:
    op = dest.append(ConstantOp(value, loop.iv.type if typed else literal_int_type(value), loop.loc))
    if typed:
        op.result.name = loop.iv.name
    return op.result


def _shifted_iv(iv: Value, delta: int, loop: ForOp, dest: Block) -> Value:
    """iv + delta, computed exactly and cast back to the iv type (the value is a real iteration's)."""
    offset = _constant(delta, loop, dest, typed=False)
    add = dest.append(BinaryOp(OpKind.ADD, iv, offset, int_binop_type("add", iv.type, offset.type), loop.loc))
    cast = dest.append(CastOp(add.result, iv.type, loop.loc))
    cast.result.name = iv.name
    return cast.result


def unroll(loop: ForOp, factor: int, labels: set[str] | None) -> None:
    """Copies go to a staging block first, then replace the loop in one splice."""
    lb, _, step = loop.const_bounds()
    trip = loop.trip_count()
    main = 0 if factor >= trip else trip // factor
    staging = Block()
    values = list(loop.inits)
    if main:
        ub = _constant(lb + main * factor * step, loop, staging, typed=False)
        stride = _constant(step * factor, loop, staging, typed=False)
        new = ForOp(loop.lb, ub, stride, values, loop.iv.type, loop.iv.name, [a.name for a in loop.carried],
                    loop.loc)
        new.attrs = {**clone_attrs(loop.attrs), "unroll": None, "unrolled": factor}
        if trip > main * factor:  # Vitis checks the exit after every copy (R14b, docs/oplib.md 9)
            new.attrs["unroll_leftover"] = trip - main * factor
        carried = list(new.carried)
        for k in range(factor):
            iv = new.iv if k == 0 else _shifted_iv(new.iv, k * step, loop, new.body)
            carried = _copy_body(loop, iv, carried, new.body, labels, k)
        new.body.append(YieldOp(carried, loop.loc))
        staging.append(new)
        values = list(new.results)
    for k in range(main * factor, trip):
        values = _copy_body(loop, _constant(lb + k * step, loop, staging), values, staging, labels, k)
    block = loop.parent
    insert_ops(block, block.ops.index(loop), staging.ops)
    for result, value in zip(loop.results, values, strict=True):
        result.replace_all_uses_with(value)
    block.remove(loop)


def bind_bounds(loop: ForOp) -> None:
    """Bounds computed from constants (e.g. `range(i + 1)` once i is unrolled) become constants."""
    for bound in (loop.lb, loop.ub, loop.step):
        value = static_value(bound)
        if value is not None and not isinstance(getattr(bound, "op", None), ConstantOp):
            const = ConstantOp(value, bound.type, loop.loc)
            loop.parent.insert_before(loop, const)
            loop.replace_operand(bound, const.result)


def _factor(loop: ForOp) -> int | None:
    """How many copies to make, or None to leave the loop alone."""
    factor, _ = unroll_plan(loop)
    return factor


def unroll_plan(loop: ForOp, bind: bool = True) -> tuple[int | None, str | None]:
    """(copies to make, None) or (None, why the pragma is left to Vitis); (None, None) without a pragma.
    The reason is what the report's note says, so it must be the true one. `bind=False` (the report)
    leaves the IR untouched; the pass has already bound what it could."""
    options = loop.unroll
    if options is None or options.off:
        return None, None
    if has_exit(loop):
        return None, "the loop has an early exit"  # a partial unroll needs exit checks between copies
    if bind:
        bind_bounds(loop)
    trip = loop.trip_count()
    if trip is None:
        return None, "bounds not constant"
    factor = min(options.factor or trip, trip)
    size = sum(1 for op in loop.body.ops for _ in op.walk())
    if factor == 1 and trip > 1:
        return None, "factor 1 makes no copies"
    if factor * size > MAX_UNROLLED_OPS:
        return None, (f"{factor:,} copies of its {size} operations are more than the {MAX_UNROLLED_OPS:,} "
                      "the estimate unrolls")
    return factor, None


def _sweep(block: Block, labels: set[str]) -> bool:
    changed = False
    for op in list(block.ops):
        for region in op.regions:
            changed |= _sweep(region.block, labels)
        factor = _factor(op) if isinstance(op, ForOp) else None
        if factor is not None:
            unroll(op, factor, labels)
            changed = True
    return changed


@dataclass(frozen=True)
class UnrollLoopsPass:
    name: str = "unroll"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            labels = {op.label for op in func.walk() if op.is_loop and op.label}
            while _sweep(func.body.block, labels):
                pass
