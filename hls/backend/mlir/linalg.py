"""Whole-array statements as `linalg.generic` on memref operands.

The frontend lowers an array statement into an ordinary loop nest and marks its outermost loop
(`ForOp.array_nest`, hls.frontend.arraystmts). Where that nest is still a perfect nest of `range(n)`
loops whose innermost body reads memrefs at affine indices of the loop variables, computes pure scalar
ops and stores one value (an element-wise statement with broadcasting, transposes and views), it is
written as one `linalg.generic`: each read is an input with its indexing map, the store the output,
all iterators `parallel`, the body the same `arith` ops the scf form has (with its exact `extsi`,
`trunci`, ...) ending in `linalg.yield`. The nest's loop names and directives are `hls.*` attributes.
Anything else (a reduction's carried accumulator, an index linalg cannot infer the range of, a value
reading a loop variable) keeps the scf form, which is the same computation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hls.backend.mlir.builder import Emitter, attr_text, mlir_type
from hls.backend.mlir.loops import loop_attrs
from hls.ir import CastOp, ConstantOp, ForOp, LoadOp, StoreOp, Value, YieldOp
from hls.ir.affine import Affine, combine
from hls.ir.core import Op
from hls.ir.ops import BinaryOp
from hls.types import IntType


@dataclass
class Generic:
    """One linalg.generic: the loops of its iteration space (outermost first), the inputs (memref, map),
    the output and the value its body yields (an element-wise nest: the one store's memref and value)."""

    loops: list[ForOp]
    inputs: list[tuple[Value, tuple[Affine, ...]]] = field(default_factory=list)
    loads: dict[int, int] = field(default_factory=dict)  # id(value) -> input position (-1: the output)
    out: Value | None = None
    out_map: tuple[Affine, ...] = ()
    value: Value | None = None
    body: list[Op] = field(default_factory=list)  # the ops computing the yielded value, in order
    iterators: list[str] = field(default_factory=list)  # default: all "parallel"
    attrs: str = ""  # default: the nest's names and directives (nest_attrs)


def perfect_nest(op: ForOp) -> list[ForOp] | None:
    """The loops of a perfect nest of `range(n)` loops without carried values, outermost first."""
    loops = [op]
    while True:
        loop = loops[-1]
        bounds = loop.const_bounds()
        if bounds is None or bounds[0] != 0 or bounds[2] != 1 or loop.carried or loop.exit:
            return None
        inner = [o for o in loop.body.ops if not isinstance(o, (ConstantOp, YieldOp))]
        if len(inner) == 1 and isinstance(inner[0], ForOp):
            loops.append(inner[0])
            continue
        return loops


def affine_of(v: Value, dims: dict[int, int]) -> Affine | None:
    """`v` as an affine function of the nest's loop variables (dims: id(iv) -> position)."""
    if id(v) in dims:
        return Affine.symbol(dims[id(v)])
    op = getattr(v, "op", None)
    if isinstance(op, ConstantOp):
        return Affine({}, int(op.value))
    if isinstance(op, BinaryOp):
        return combine(op.kind, affine_of(op.operands[0], dims), affine_of(op.operands[1], dims))
    if isinstance(op, CastOp) and isinstance(op.result.type, IntType) and isinstance(v.type, IntType):
        src = op.operands[0].type
        if isinstance(src, IntType) and op.result.type.width >= src.width + (src.signed is False):
            return affine_of(op.operands[0], dims)
    return None


def generic_of(op: ForOp) -> Generic | None:
    """The linalg.generic an array statement's nest is, or None where the scf form must stay."""
    loops = perfect_nest(op)
    if loops is None:
        return None
    dims = {id(loop.iv): k for k, loop in enumerate(loops)}
    g = Generic(loops)
    rest = gather(g, loops[-1].body.ops, dims)
    if rest is None or len(rest) != 1 or not isinstance(rest[0], StoreOp):
        return None
    if not stored(g, rest[0], dims):
        return None
    return checked(g, own_reads=True)


def gather(g: Generic, ops: list[Op], dims: dict[int, int]) -> list[Op] | None:
    """Sort a body's ops into `g` (loads at affine indices as inputs, pure ops as its body; ops that only
    compute an index vanish into the maps); the ops left (stores, loops), or None where an op has no
    linalg form."""
    rest: list[Op] = []
    for inner in ops:
        if isinstance(inner, (ConstantOp, YieldOp)):
            continue
        if isinstance(inner, LoadOp):
            maps = tuple(affine_of(i, dims) for i in inner.indices)
            if None in maps or inner.field is not None:
                return None
            g.loads[id(inner.result)] = add_input(g, inner.memref, maps)
        elif inner.pure and len(inner.results) == 1 and not isinstance(inner, ForOp):
            if affine_of(inner.result, dims) is not None and all(index_use(u, inner.result) for u in
                                                                 inner.result.uses):
                continue
            g.body.append(inner)
        else:
            rest.append(inner)
    return rest


def stored(g: Generic, store: StoreOp, dims: dict[int, int]) -> bool:
    """`g` writes what `store` writes, where it writes it."""
    g.out, g.value = store.memref, store.value
    g.out_map = tuple(affine_of(i, dims) for i in store.indices)
    return store.field is None and None not in g.out_map


def add_input(g: Generic, memref: Value, maps: tuple[Affine, ...]) -> int:
    key = (id(memref), tuple(repr(m) for m in maps))
    for k, (other, other_maps) in enumerate(g.inputs):
        if (id(other), tuple(repr(m) for m in other_maps)) == key:
            return k
    g.inputs.append((memref, maps))
    return len(g.inputs) - 1


def index_use(user: Op, v: Value) -> bool:
    """`user` reads `v` only as an index (or to compute one)."""
    if isinstance(user, (LoadOp, StoreOp)):
        return v in user.indices and v is not getattr(user, "value", None)
    return isinstance(user, (BinaryOp, CastOp)) and all(index_use(u, user.result) for u in user.result.uses)


def checked(g: Generic, own_reads: bool) -> Generic | None:
    """The nest's values come from its loads only, the output is read at its own element only (not at all
    without `own_reads`: a reduction's output is its accumulator), and every loop's range is the size of
    each operand dimension indexed by that loop alone (linalg infers the ranges from the shapes)."""
    for k, (memref, maps) in enumerate(g.inputs):
        if memref is g.out:
            if not own_reads or [repr(m) for m in maps] != [repr(m) for m in g.out_map]:
                return None
            for load, pos in g.loads.items():
                g.loads[load] = -1 if pos == k else pos
    ivs = {id(loop.iv) for loop in g.loops}
    for op in g.body:
        if any(id(v) in ivs for v in op.operands):
            return None  # the value reads a loop variable (linalg.index): keep the scf form
    if id(g.value) in ivs:
        return None
    operands = [*(m for _, m in g.inputs), g.out_map]
    shapes = [*(memref.type.shape for memref, _ in g.inputs), g.out.type.shape]
    trips = [loop.const_bounds()[1] for loop in g.loops]
    if not all(inside(m, size, trips) for maps, shape in zip(operands, shapes, strict=True)
               for m, size in zip(maps, shape, strict=True)):
        return None  # linalg reads every operand at every point: a guarded read (x if c else y) stays scf
    for k, loop in enumerate(g.loops):
        trips = loop.const_bounds()[1]
        sizes = {shape[d] for maps, shape in zip(operands, shapes, strict=True) for d, m in enumerate(maps)
                 if m.terms == {k: 1} and m.const == 0}
        if sizes != {trips}:
            return None
    return g


def inside(m: Affine, size: int, trips: list[int]) -> bool:
    """Every value of the index `m` over the iteration space is in [0, size)."""
    lo = m.const + sum(min(0, c * (trips[k] - 1)) for k, c in m.terms.items())
    hi = m.const + sum(max(0, c * (trips[k] - 1)) for k, c in m.terms.items())
    return 0 <= lo and hi < size


def affine_text(m: Affine) -> str:
    parts = [f"d{k}" if c == 1 else f"d{k} * {c}" for k, c in sorted(m.terms.items())]
    if m.const or not parts:
        parts.append(str(m.const))
    return " + ".join(parts).replace("+ -", "- ")


def map_text(rank: int, maps: tuple[Affine, ...]) -> str:
    dims = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(affine_text(m) for m in maps)})>"


def emit_generic(e: Emitter, g: Generic) -> None:
    """The linalg.generic text: ins, outs, the labels and directives of the nest, the region."""
    b, rank = e.b, len(g.loops)
    out = g.out
    used = [k for k in range(len(g.inputs)) if g.inputs[k][0] is not out]
    maps = [map_text(rank, g.inputs[k][1]) for k in used] + [map_text(rank, g.out_map)]
    iterators = ", ".join(f'"{kind}"' for kind in g.iterators or ["parallel"] * rank)
    ins = ", ".join(e.operand(g.inputs[k][0]) for k in used)
    in_types = ", ".join(mlir_type(g.inputs[k][0].type) for k in used)
    attrs = g.attrs or nest_attrs(g.loops)
    head = f"linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iterators}]}}"
    ins_text = f" ins({ins} : {in_types})" if used else ""
    b.line(f"{head}{ins_text} outs({e.operand(out)} : {mlir_type(out.type)}) attrs = {attrs} {{")
    b.depth += 1
    b.push()
    args = [b.fresh(g.inputs[k][0].name or "in") for k in used]
    out_arg = b.fresh((out.name or "out") + "_out")
    params = [f"{a}: {mlir_type(g.inputs[k][0].type.elem)}" for a, k in zip(args, used, strict=True)]
    params.append(f"{out_arg}: {mlir_type(out.type.elem)}")
    b.line(f"^bb0({', '.join(params)}):")
    position = {k: args[n] for n, k in enumerate(used)}
    for load, k in g.loads.items():  # each load's result is its operand's block argument
        e.values[load] = out_arg if k == -1 else position[k]
    for op in g.body:
        e.op(op)
    b.line(f"linalg.yield {e.operand(g.value)}", f" : {mlir_type(g.value.type)}")
    b.pop()
    b.depth -= 1
    b.line("}")


def nest_attrs(loops: list[ForOp]) -> str:
    """`hls.loops` (the nest's names, outermost first) and each loop's directives under its name."""
    fields: dict[str, Any] = {"hls.loops": [loop.label for loop in loops]}
    for loop in loops:
        for key, value in loop_attrs(loop).items():
            if key != "hls.label":
                fields[f"{key}_{loop.label}" if loop is not loops[-1] else key] = value
    return "{" + ", ".join(f"{k} = {attr_text(v)}" for k, v in fields.items()) + "}"
