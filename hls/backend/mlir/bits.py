"""Bit-level ops -> `arith`/`math`: shifts, masks and truncations on the iW values (fixed point is its raw
mantissa already), `arith.bitcast` between floats and integers. `reverse`, the bit count and the leading
zeros are spelled bit by bit in arith: there is no upstream bit-reverse op, and `math.ctpop`/`math.ctlz`
do not lower with the upstream math-to-libm/LLVM passes the export is checked with."""

from __future__ import annotations

from hls.backend.mlir.arith import IntArith
from hls.backend.mlir.builder import mlir_type
from hls.golden.bits import width_of
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryKind, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.types import IntType


def slice_bits(s: IntArith, op: SliceOp, args: list[str]) -> str:
    width = width_of(op.operands[0].type)
    return s.resize(shift_right(s, args[0], op.lo, width), _uint(width), op.hi - op.lo)


def get_bit(s: IntArith, op: BitGetOp, args: list[str]) -> str:
    width = width_of(op.operands[0].type)
    index = s.resize(args[1], op.operands[1].type, width)
    return s.resize(s.int_op("arith.shrui", args[0], index, width), _uint(width), 1)


def bitcast(s: IntArith, op: BitcastOp, args: list[str]) -> str:
    source, target = mlir_type(op.operands[0].type), mlir_type(op.result.type)
    if source == target:
        return args[0]  # fixed point <-> its raw integer: the same iW
    return s.b.cast("arith.bitcast", args[0], source, target, "bits")


def _uint(width: int) -> IntType:
    return IntType(width, False)


def shift_right(s: IntArith, v: str, n: int, width: int) -> str:
    return v if n == 0 else s.int_op("arith.shrui", v, s.const(n, width), width)


def insert(s: IntArith, op: BitSetOp | SliceSetOp, args: list[str]) -> str:
    """x & ~mask | (v << lo) & mask, the mask covering the replaced bits."""
    width = width_of(op.operands[0].type)
    if isinstance(op, SliceSetOp):
        lo, hi = op.lo, op.hi
        mask = s.const(((1 << (hi - lo)) - 1) << lo, width)
        new = s.resize(args[1], op.operands[1].type, width)
        shifted = new if lo == 0 else s.int_op("arith.shli", new, s.const(lo, width), width)
    else:
        index = s.resize(args[1], op.operands[1].type, width)
        mask = s.int_op("arith.shli", s.const(1, width), index, width)
        shifted = s.int_op("arith.shli", s.resize(args[2], op.operands[2].type, width), index, width)
    keep = s.int_op("arith.andi", args[0], s.int_op("arith.xori", mask, s.const(-1, width), width), width)
    return s.int_op("arith.ori", keep, s.int_op("arith.andi", shifted, mask, width), width)


def concat(s: IntArith, op: ConcatOp, args: list[str]) -> str:
    total = op.result.type.width
    result, offset = None, total
    for value, arg in zip(op.operands, args, strict=True):
        offset -= width_of(value.type)
        part = s.resize(arg, _uint(width_of(value.type)), total)
        if offset:
            part = s.int_op("arith.shli", part, s.const(offset, total), total)
        result = part if result is None else s.int_op("arith.ori", result, part, total)
    return result


def bit_at(s: IntArith, v: str, i: int, width: int, out: int) -> str:
    """Bit i of the iW value v, as an i`out` 0 or 1."""
    bit = s.int_op("arith.andi", shift_right(s, v, i, width), s.const(1, width), width)
    return s.resize(bit, _uint(width), out)


def bit_unary(s: IntArith, op: BitUnaryOp, args: list[str]) -> str:
    v, width = args[0], width_of(op.operands[0].type)
    result = op.result.type.width
    out = None
    if op.kind == BitUnaryKind.POPCOUNT:
        for i in range(width):
            bit = bit_at(s, v, i, width, result)
            out = bit if out is None else s.int_op("arith.addi", out, bit, result)
        return out
    if op.kind == BitUnaryKind.CLZ:  # a zero counts while no set bit has been seen above it
        seen, count = s.const(0, 1), s.const(0, result)
        for i in reversed(range(width)):
            seen = s.int_op("arith.ori", seen, bit_at(s, v, i, width, 1), 1)
            unseen = s.resize(s.int_op("arith.xori", seen, s.const(1, 1), 1), _uint(1), result)
            count = s.int_op("arith.addi", count, unseen, result)
        return count
    for i in range(width):  # reverse: bit i moves to width - 1 - i
        bit = bit_at(s, v, i, width, width)
        moved = width - 1 - i
        if moved:
            bit = s.int_op("arith.shli", bit, s.const(moved, width), width)
        out = bit if out is None else s.int_op("arith.ori", out, bit, width)
    return out
