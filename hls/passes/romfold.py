"""Loads of a ROM (a captured constant array) at constant indices become constants, as LLVM folds
them before Vitis schedules: such a load takes no memory port, and its value is known to what
follows (unrolled index arithmetic, branch conditions, products by a constant). A load outside the
array's bounds stays for the csim bounds check.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import ConstantOp, LoadOp, Module, RomOp
from hls.ir.core import Block
from hls.passes.clone import set_ops
from hls.passes.evaluate import static_value
from hls.types import BoolType, FloatType


def rom_constant(load: LoadOp) -> ConstantOp | None:
    """The constant `load` reads, or None when the array is not a ROM or an index is not known."""
    rom = getattr(load.memref, "op", None)
    if not isinstance(rom, RomOp):
        return None
    indices = [static_value(v) for v in load.indices]  # computed from constants, e.g. an unrolled `2 * k + 1`
    if None in indices:
        return None
    index = tuple(int(i) for i in indices)
    if not all(0 <= i < size for i, size in zip(index, rom.result.type.shape, strict=True)):
        return None
    value, t = rom.data[index].item(), load.result.type
    value = bool(value) if isinstance(t, BoolType) else float(value) if isinstance(t, FloatType) else int(value)
    const = ConstantOp(value, t, load.loc)
    const.result.name = load.result.name
    return const


def _fold_block(block: Block) -> None:
    kept = []
    for op in block.ops:
        for region in op.regions:
            _fold_block(region.block)
        const = rom_constant(op) if isinstance(op, LoadOp) else None
        if const is None:
            kept.append(op)
            continue
        op.result.replace_all_uses_with(const.result)
        op.drop_operands()
        kept.append(const)
    set_ops(block, kept)


@dataclass(frozen=True)
class FoldRomLoadsPass:
    name: str = "fold-rom-loads"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            _fold_block(func.body.block)
