"""Inlining of sub-kernel calls: a copy of the callee's body, its arguments replaced by the call's
operands, stands where the call was, and the values it returns replace the call's results.

The scheduler runs it on its copies of straight-line regions: Vitis inlines every call inside a
pipelined region, and schedules a sub-kernel without loops as part of its caller. Directives a callee puts on one of its
arguments are left out of the copy: the caller's array keeps the storage the caller gave it. A copy
of a static array is marked with its `origin`: however often it is inlined, it is one array.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import AllocOp, CallOp, DirectiveOp, Function, LoadOp, Module, ReturnOp, RowOp, StoreOp, row_base
from hls.ir.core import Block, Op
from hls.passes.clone import ValueMap, clone_ops, remap, set_ops


def inline_call(call: CallOp, callee: Function) -> tuple[list[Op], list]:
    """The copied body of `callee` for `call` (terminator excluded) and the values it returns."""
    mapping: ValueMap = dict(zip(callee.args, call.operands, strict=True))
    args = set(callee.args)
    body = [op for op in callee.body.block.ops if not (isinstance(op, DirectiveOp) and op.target in args)]
    term = body.pop() if body and isinstance(body[-1], ReturnOp) else None
    copies = fold_rows(clone_ops(body, mapping))
    for op, copy in zip(body, copies, strict=True):
        if isinstance(op, AllocOp) and op.static:  # one array however often it is inlined
            copy.attrs.setdefault("origin", id(op.result))
    return copies, remap(term.operands, mapping) if term is not None else []


@dataclass(frozen=True)
class InlineCallsPass:
    name: str = "inline"
    library: Module | None = None  # where callees are found (default: the module being changed)

    def apply(self, module: Module) -> None:
        library = self.library or module
        for func in module.functions.values():
            while self._block(func.body.block, library):
                pass

    def _block(self, block: Block, library: Module) -> bool:
        changed, kept = False, []
        for op in block.ops:
            for region in op.regions:
                changed |= self._block(region.block, library)
            callee = library.functions.get(op.callee) if isinstance(op, CallOp) else None
            if callee is None:
                kept.append(op)
                continue
            copies, values = inline_call(op, callee)
            for result, value in zip(op.results, values, strict=True):
                result.replace_all_uses_with(value)
            op.drop_operands()
            kept.extend(copies)
            changed = True
        set_ops(block, kept)
        return changed



def fold_rows(ops: list[Op]) -> list[Op]:
    """`ops` with each load or store through a row (`row_sum(M[i])` inlined: `r[j]` with r = M[i]) made the
    access `M[i, j]` of the array itself, so the scheduler sees one memory and affine indices over it."""
    out = []
    for op in ops:
        for region in op.regions:
            set_ops(region.block, fold_rows(region.block.ops))
        if not isinstance(op, (LoadOp, StoreOp)) or not isinstance(getattr(op.memref, "op", None), RowOp):
            out.append(op)
            continue
        base, prefix = row_base(op.memref)
        if isinstance(op, LoadOp):
            new: Op = LoadOp(base, [*prefix, *op.indices], op.loc, field=op.field)
            op.result.replace_all_uses_with(new.result)
        else:
            new = StoreOp(op.value, base, [*prefix, *op.indices], op.loc, field=op.field)
        op.drop_operands()
        out.append(new)
    return out
