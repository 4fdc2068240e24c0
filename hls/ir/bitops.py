"""Bit-level ops: single bits, slices, concatenation, bit counts and same-width reinterpretation.

They read and write the two's-complement bit pattern of integers and fixed-point values (hls.golden.bits
defines each one on Python-mode values). Slices and counts are unsigned (`ap_uint`).
"""

from __future__ import annotations

from enum import Enum

from hls.errors import Loc
from hls.ir.core import KindOp, Op, Value
from hls.lang.bits import count_type, width_of
from hls.types import BoolType, FixedType, FloatType, IntType, ScalarType


class BitUnaryKind(str, Enum):
    """What a `BitUnaryOp` computes (a str enum: it prints in the IR as its value, `popcount`)."""

    REVERSE = "reverse"
    POPCOUNT = "popcount"
    CLZ = "clz"

    __str__ = str.__str__
    __format__ = str.__format__


BIT_UNARY_KINDS = tuple(BitUnaryKind)


def _bits_operand(op: Op, value: Value) -> int:
    if not isinstance(value.type, (IntType, FixedType)):
        raise op.fail(f"bit access needs an integer or fixed-point value, got {value.type}")
    return value.type.width


def _index_operand(op: Op, value: Value) -> None:
    if not isinstance(value.type, (IntType, BoolType)):
        raise op.fail(f"bit index of type {value.type}")


class BitGetOp(Op):
    """`x[i]`: one bit as a bool (`i` may be a variable)."""

    name = "hls.bit_get"
    pure = True

    def __init__(self, value: Value, index: Value, loc: Loc | None = None):
        super().__init__([value, index], [BoolType()], loc=loc)

    def verify(self) -> None:
        _bits_operand(self, self.operands[0])
        _index_operand(self, self.operands[1])


class BitSetOp(Op):
    """`x[i] = b`: x with bit i replaced by the bool b."""

    name = "hls.bit_set"
    pure = True

    def __init__(self, value: Value, index: Value, bit: Value, loc: Loc | None = None):
        super().__init__([value, index, bit], [value.type], loc=loc)

    def verify(self) -> None:
        _bits_operand(self, self.operands[0])
        _index_operand(self, self.operands[1])
        if not isinstance(self.operands[2].type, BoolType):
            raise self.fail("the stored bit must be a bool")


class SliceOp(Op):
    """`x[lo:hi]`: bits lo..hi-1 as an ap_uint[hi - lo] (constant bounds)."""

    name = "hls.slice"
    pure = True

    def __init__(self, value: Value, lo: int, hi: int, loc: Loc | None = None):
        super().__init__([value], [IntType(hi - lo, False)], attrs={"lo": lo, "hi": hi}, loc=loc)

    @property
    def lo(self) -> int:
        return self.attrs["lo"]

    @property
    def hi(self) -> int:
        return self.attrs["hi"]

    def verify(self) -> None:
        width = _bits_operand(self, self.operands[0])
        if not 0 <= self.lo < self.hi <= width:
            raise self.fail(f"slice [{self.lo}:{self.hi}] outside a {width}-bit value")
        if self.result.type != IntType(self.hi - self.lo, False):
            raise self.fail("a slice is an ap_uint of its width")


class SliceSetOp(Op):
    """`x[lo:hi] = v`: x with bits lo..hi-1 replaced by v (an ap_uint[hi - lo])."""

    name = "hls.slice_set"
    pure = True

    def __init__(self, value: Value, new: Value, lo: int, hi: int, loc: Loc | None = None):
        super().__init__([value, new], [value.type], attrs={"lo": lo, "hi": hi}, loc=loc)

    @property
    def lo(self) -> int:
        return self.attrs["lo"]

    @property
    def hi(self) -> int:
        return self.attrs["hi"]

    def verify(self) -> None:
        width = _bits_operand(self, self.operands[0])
        lo, hi = self.lo, self.hi
        if not 0 <= lo < hi <= width:
            raise self.fail(f"slice [{lo}:{hi}] outside a {width}-bit value")
        if self.operands[1].type != IntType(hi - lo, False):
            raise self.fail(f"stored {self.operands[1].type} into a {hi - lo}-bit slice")


class ConcatOp(Op):
    """`hls.concat(a, b, ...)`: the first operand in the most significant bits."""

    name = "hls.concat"
    pure = True

    def __init__(self, values: list[Value], loc: Loc | None = None):
        width = sum(width_of(v.type) for v in values)
        super().__init__(values, [IntType(width, False)], loc=loc)

    def verify(self) -> None:
        if not self.operands:
            raise self.fail("concatenation of nothing")
        for value in self.operands:
            if not isinstance(value.type, (IntType, FixedType, BoolType)):
                raise self.fail(f"cannot concatenate a {value.type}")
        if self.result.type.width != sum(width_of(v.type) for v in self.operands):
            raise self.fail("the result width is the sum of the operand widths")


class BitUnaryOp(KindOp):
    """`x.reverse()` (ap_uint of x's width), `x.bit_count()` and `hls.leading_zeros(x)` (counts)."""

    name = "hls.bitop"
    pure = True
    kinds = BIT_UNARY_KINDS

    def __init__(self, kind: BitUnaryKind | str, value: Value, loc: Loc | None = None):
        kind = BitUnaryKind(kind)
        width = width_of(value.type)
        result = IntType(width, False) if kind is BitUnaryKind.REVERSE else count_type(width)
        super().__init__([value], [result], attrs={"kind": kind}, loc=loc)

    def verify(self) -> None:
        super().verify()
        _bits_operand(self, self.operands[0])


class BitcastOp(Op):
    """Same-width reinterpretation between integers, fixed point and floats."""

    name = "hls.bitcast"
    pure = True

    def __init__(self, value: Value, type: ScalarType, loc: Loc | None = None):
        super().__init__([value], [type], loc=loc)

    def verify(self) -> None:
        source, target = self.operands[0].type, self.result.type
        for t in (source, target):
            if not isinstance(t, (IntType, FixedType, FloatType)):
                raise self.fail(f"cannot reinterpret {t}")
        if width_of(source) != width_of(target):
            raise self.fail(f"bitcast between {source} and {target} changes the width")


BIT_OPS = (BitGetOp, BitSetOp, SliceOp, SliceSetOp, ConcatOp, BitUnaryOp, BitcastOp)
