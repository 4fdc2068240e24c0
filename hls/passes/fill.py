"""Drop the zero-fill of a returned array when a later loop nest overwrites every element first.

`y = hls.zeros(shape, T)` on the array a kernel returns stores zeros into the output port (a loop
nest the frontend marks `fill`). When nothing reads `y` (no load, no call taking it) and a loop nest
at the kernel's top level stores `y[i0, i1, ...]` unconditionally for every index (constant bounds
0..shape[d] step 1, each iv used as its own dimension's index, nothing but pure ops, loads, stores
and directives on the way; no early exit anywhere), no zero is ever observable, so the fill is dead
work (on m_axi it would cost a full extra pass over the port).
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import (
    SCALAR_OPS,
    AllocOp,
    CallOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    IfOp,
    LoadOp,
    Module,
    ReturnOp,
    RomOp,
    StoreOp,
    Value,
    YieldOp,
)
from hls.ir.core import Block, Function, Op


@dataclass(frozen=True)
class DropDeadFillPass:
    name: str = "drop-dead-fill"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            if func.result_array is None:
                continue
            block = func.body.block
            for op in list(block.ops):
                if isinstance(op, ForOp) and op.fill and dead_fill(func, op):
                    block.remove(op)


def dead_fill(func: Function, fill: ForOp) -> bool:
    memref = func.args[-1]  # the returned array (hls.frontend.results)
    if any(isinstance(op, (LoadOp, CallOp)) and memref in op.operands for op in func.walk()):
        return False
    last = func.body.block.ops[-1]
    if not all(isinstance(op, KNOWN) and (not isinstance(op, ReturnOp) or op is last) for op in func.walk()):
        return False  # an early exit (or a construct this pass does not know) could expose the zeros
    ops = func.body.block.ops
    later = ops[ops.index(fill) + 1:]
    return any(isinstance(op, ForOp) and covers(op, memref, []) for op in later)


KNOWN = (AllocOp, CallOp, DirectiveOp, ForOp, IfOp, LoadOp, ReturnOp, RomOp, StoreOp, YieldOp, *SCALAR_OPS)


def covers(loop: ForOp, memref: Value, ivs: list[Value | None]) -> bool:
    """Does this nest store memref[iv0, iv1, ...] for every index of memref's shape? (A dimension of
    size 1 may be indexed by the constant 0 instead of a loop; it is None in `ivs`.)"""
    shape = memref.type.shape
    ivs = _unit_dims(shape, ivs)
    dim = len(ivs)
    if dim >= len(shape) or loop.const_bounds() != (0, shape[dim], 1):
        return False
    ivs = _unit_dims(shape, [*ivs, loop.iv])
    body: Block = loop.body
    if not all(_straight(op) or isinstance(op, ForOp) for op in body.ops):
        return False
    if len(ivs) == len(shape):
        return any(isinstance(op, StoreOp) and op.memref is memref and _same(op.indices, ivs) for op in body.ops)
    return any(isinstance(op, ForOp) and covers(op, memref, ivs) for op in body.ops)


def _unit_dims(shape: tuple[int, ...], ivs: list[Value | None]) -> list[Value | None]:
    ivs = list(ivs)
    while len(ivs) < len(shape) and shape[len(ivs)] == 1:
        ivs.append(None)
    return ivs


def _same(indices: list[Value], ivs: list[Value | None]) -> bool:
    for index, iv in zip(indices, ivs, strict=True):
        if iv is None:
            op = getattr(index, "op", None)
            if not (isinstance(op, ConstantOp) and op.value == 0):
                return False
        elif index is not iv:
            return False
    return True


def _straight(op: Op) -> bool:
    """Ops that neither skip nor repeat what follows them in a loop body."""
    return (op.pure and not op.regions) or isinstance(op, (LoadOp, StoreOp, DirectiveOp, YieldOp))
