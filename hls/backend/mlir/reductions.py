"""Reductions and contractions (`x.sum(axis=1)`, `A @ B`) as `linalg.generic` with "reduction" iterators.

The frontend lowers such a statement into a nest of parallel loops (one per output element) whose
innermost body computes an initial value, runs a nest of loops carrying one accumulator, and stores
what follows from the accumulator. The rule is read from that IR shape, whatever the statement was:
where the parallel loops are `range(n)`, the carried loops `range(n)` threading one value, and every
read is at affine indices of the loop variables, the nest is

1. an init generic over the parallel dimensions writing the initial value (a constant or loads) into
   the accumulator buffer,
2. the reduction generic over all dimensions (reduction iterators for the carried loops), whose body is
   the loop's own arith ops with their casts and reads the accumulator as its output block argument,
3. where the stored value is not the accumulator itself (a conversion, a second operand) or the output
   is not one element per parallel point, a final parallel generic from a `memref.alloca` accumulator
   into the target; otherwise the target (C of a matmul) is the accumulator.

Two accumulators per element, views whose ranges no operand states and indices that are not affine
(`//`, `%` of a reshape) keep the named scf loops.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.backend.mlir.builder import Emitter, attr_text, elem_attrs, mlir_type
from hls.backend.mlir.linalg import Generic, add_input, checked, emit_generic, gather, nest_attrs, stored
from hls.ir import ConstantOp, ForOp, StoreOp, Value, YieldOp
from hls.ir.affine import Affine
from hls.types import ArrayType


@dataclass
class Reduction:
    """The generics of one reduction nest; `buffer` is the alloca'd accumulator (None: the target). A
    reduction to a scalar has no element loops: its initial value (computed before the nest) is stored
    into a one-element buffer, and `result` (the nest's value) is loaded from it afterwards."""

    init: Generic | Value
    update: Generic
    final: Generic | None
    buffer: Value | None
    result: Value | None = None


def counted(loop: ForOp, carried: int) -> bool:
    """A `range(n)` loop carrying `carried` values and without an early exit."""
    bounds = loop.const_bounds()
    return bounds is not None and bounds[0] == 0 and bounds[2] == 1 and len(loop.carried) == carried \
        and not loop.exit


def loops_of(block_ops: list) -> list[ForOp]:
    return [o for o in block_ops if isinstance(o, ForOp)]


def others(loop: ForOp, inner: ForOp) -> list:
    """What `loop`'s body does besides running `inner` (its constants and yield aside)."""
    return [o for o in loop.body.ops if o is not inner and not isinstance(o, (ConstantOp, YieldOp))]


def reduction_chain(first: ForOp) -> tuple[list[ForOp], Value] | None:
    """The carried loops (outermost first) threading one accumulator, and the value the innermost yields."""
    chain = [first]
    while True:
        loop = chain[-1]
        if not counted(loop, 1):
            return None
        inner = loops_of(loop.body.ops)
        yields = [o for o in loop.body.ops if isinstance(o, YieldOp)]
        if len(yields) != 1 or len(yields[0].operands) != 1:
            return None
        if not inner:
            return chain, yields[0].operands[0]
        nested = inner[0]
        if len(inner) != 1 or nested.inits[0] is not loop.carried[0] or yields[0].operands[0] is not nested.results[0] \
                or others(loop, nested) or len(loop.carried[0].uses) != 1:
            return None
        chain.append(nested)


def reduction_of(op: ForOp) -> Reduction | None:
    """The generics of an array statement's reduction nest, or None where the scf form must stay."""
    if counted(op, 1):
        return scalar_reduction(op)
    parallel = [op]
    while True:
        if not counted(parallel[-1], 0):
            return None
        inner = loops_of(parallel[-1].body.ops)
        if len(inner) == 1 and not inner[0].carried and not others(parallel[-1], inner[0]):
            parallel.append(inner[0])
            continue
        break
    # parallel[-1] holds the pre ops, the first carried loop, the post ops and the store
    last = parallel[-1]
    carried = [o for o in loops_of(last.body.ops) if o.carried]
    if len(loops_of(last.body.ops)) != 1 or len(carried) != 1:
        return None
    first = carried[0]
    chain = reduction_chain(first)
    if chain is None:
        return None
    reduce_loops, new_acc = chain
    ops = last.body.ops
    at = ops.index(first)
    p_dims = {id(loop.iv): k for k, loop in enumerate(parallel)}
    all_dims = {id(loop.iv): k for k, loop in enumerate([*parallel, *reduce_loops])}

    post = Generic(parallel)
    rest = gather(post, ops[at + 1:], p_dims)
    if rest is None or len(rest) != 1 or not isinstance(rest[0], StoreOp) or not stored(post, rest[0], p_dims):
        return None
    target, target_map = post.out, post.out_map
    direct = post.value is first.results[0] and not post.body and one_per_point(target_map, len(parallel))
    if direct:
        buffer, acc_map = None, target_map
    else:
        acc_type = ArrayType(first.results[0].type, tuple(loop.const_bounds()[1] for loop in parallel))
        buffer = Value(acc_type, first.results[0].name or "acc")
        acc_map = tuple(Affine.symbol(k) for k in range(len(parallel)))
        post.loads[id(first.results[0])] = add_input(post, buffer, acc_map)
    names = f"{{hls.loops = {attr_text([loop.label for loop in parallel])}}}"
    post.attrs = names

    init = Generic(parallel, out=buffer or target, out_map=acc_map, value=first.inits[0], attrs=names)
    if gather(init, ops[:at], p_dims) != []:
        return None
    update = Generic([*parallel, *reduce_loops], out=buffer or target, out_map=acc_map, value=new_acc,
                     iterators=["parallel"] * len(parallel) + ["reduction"] * len(reduce_loops),
                     attrs=nest_attrs([*parallel, *reduce_loops]))
    if gather(update, reduce_loops[-1].body.ops, all_dims) != []:
        return None
    update.loads[id(reduce_loops[-1].carried[0])] = -1
    if any(memref is target for memref, _ in update.inputs):
        return None  # the statement reads its target while it accumulates: keep the loops' order
    parts = [checked(init, own_reads=True), checked(update, own_reads=False),
             checked(post, own_reads=True) if not direct else update]
    if None in parts:
        return None
    return Reduction(init, update, None if direct else post, buffer)


def scalar_reduction(op: ForOp) -> Reduction | None:
    """`x.sum()`, `v @ v`: the carried nest as one generic of reduction iterators into a 1-element buffer."""
    chain = reduction_chain(op)
    if chain is None:
        return None
    loops, new_acc = chain
    result = op.results[0]
    buffer = Value(ArrayType(result.type, (1,)), result.name or "acc")
    update = Generic(loops, out=buffer, out_map=(Affine({}, 0),), value=new_acc, iterators=["reduction"] * len(loops),
                     attrs=nest_attrs(loops))
    if gather(update, loops[-1].body.ops, {id(loop.iv): k for k, loop in enumerate(loops)}) != []:
        return None
    update.loads[id(loops[-1].carried[0])] = -1
    if checked(update, own_reads=False) is None:
        return None
    return Reduction(op.inits[0], update, None, buffer, result)


def one_per_point(maps: tuple[Affine, ...], rank: int) -> bool:
    """The output map gives each parallel point its own element (each dimension once, the rest constant)."""
    seen = [next(iter(m.terms)) for m in maps if m.terms]
    return all(len(m.terms) <= 1 and (not m.terms or (m.coeff(next(iter(m.terms))) == 1 and m.const == 0))
               for m in maps) and sorted(seen) == list(range(rank))


def emit_reduction(e: Emitter, r: Reduction) -> None:
    """The accumulator (an alloca where it is not the target), then the init, update and final generics."""
    b = e.b
    if r.buffer is not None:
        t = r.buffer.type
        e.values[id(r.buffer)] = b.op("memref.alloca()", "", mlir_type(t), r.buffer.name, elem_attrs(t))
    if isinstance(r.init, Generic):
        emit_generic(e, r.init)
    else:
        b.line(f"memref.store {e.operand(r.init)}, {e.operand(r.buffer)}[{b.index_const(0)}]",
               f" : {mlir_type(r.buffer.type)}")
    for g in (r.update, r.final):
        if g is not None:
            emit_generic(e, g)
    if r.result is not None:
        e.values[id(r.result)] = b.op("memref.load", f"{e.operand(r.buffer)}[{b.index_const(0)}]",
                                      mlir_type(r.buffer.type), r.result.name, elem_attrs(r.result.type))
