"""C++ for the bit-level ops, as Vitis code spells them: `x[i]`, `x.range(hi - 1, lo)`, `(a, b)`,
`x.reverse()`, `countLeadingZeros()`.

Native integers have no bit access in C++: they are first viewed as the `ap_(u)int` of their IR
width. Results that would be proxy objects (`ap_range_ref`, `ap_concat_ref`) are constructed into a
plain `ap_uint` at once, so they behave as values wherever they are used. Updates (`x[i] = b`,
`x.range(..) = v`) on an SSA value go through tiny helpers returning the updated copy.
"""

from __future__ import annotations

from hls.backend.cpp.expr import PREC, Expr, cast_to, combine, index_text
from hls.backend.ctype import ApInt, CType, NativeInt, ctype_of
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryKind, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.core import Op
from hls.lang.bits import width_of
from hls.types import BoolType, FixedType, FloatType, IntType


def bit_view(e: Expr, t) -> Expr:
    """`e` as a C++ value with bit access: ap_(u)int<W> for integers, the ap_fixed type itself."""
    if isinstance(t, FixedType):
        return cast_to(e, ctype_of(t))
    t = IntType(1, False) if isinstance(t, BoolType) else t
    return cast_to(e, ApInt(t.width, t.signed))


def raw_uint(e: Expr, t) -> Expr:
    """The bit pattern of `e` (of IR type t) as an ap_uint<W>: fixed point through its range."""
    width = width_of(t)
    uint = ApInt(width, False)
    if isinstance(t, FixedType):
        e = bit_view(e, t)
        return combine(f"{uint.spelling}({e.at(PREC['primary'])}.range({width - 1}, 0))", "primary", uint, e)
    return cast_to(e, uint)


def bit_expr(op: Op, args: list[Expr]) -> Expr:
    """The expression of one bit-level op."""
    t = op.operands[0].type
    result = ApInt(op.result.type.width, False) if isinstance(op.result.type, IntType) else \
        ctype_of(op.result.type)
    if isinstance(op, SliceOp):
        x = bit_view(args[0], t)
        return combine(f"{result.spelling}({x.at(PREC['primary'])}.range({op.hi - 1}, {op.lo}))", "primary",
                       result, x)
    if isinstance(op, BitGetOp):
        x = bit_view(args[0], t)
        index = index_text(op.operands[1], args[1], t.width, op)
        return combine(f"bool({x.at(PREC['primary'])}[{index}])", "primary", result, x, args[1])
    if isinstance(op, BitSetOp):
        x = bit_view(args[0], t)
        index = index_text(op.operands[1], args[1], t.width, op)
        return combine(f"hls_set_bit<{x.ctype.spelling}>({x.text}, {index}, {args[2].text})", "primary",
                       x.ctype, x, *args[1:])
    if isinstance(op, SliceSetOp):
        x = bit_view(args[0], t)
        lo, hi = op.lo, op.hi
        new = cast_to(args[1], ApInt(hi - lo, False))
        return combine(f"hls_set_range<{x.ctype.spelling}>({x.text}, {hi - 1}, {lo}, {new.text})", "primary",
                       x.ctype, x, new)
    if isinstance(op, ConcatOp):
        parts = [raw_uint(e, v.type) for e, v in zip(args, op.operands, strict=True)]
        if len(parts) == 1:
            return parts[0]
        return combine(f"{result.spelling}(({', '.join(p.text for p in parts)}))", "primary", result, *parts)
    if isinstance(op, BitUnaryOp):
        return bit_unary(op, args[0], result)
    if isinstance(op, BitcastOp):
        return bitcast_expr(op, args[0])
    raise TypeError(f"no expression rule for {op.name}")


def bit_unary(op: BitUnaryOp, a: Expr, result: CType) -> Expr:
    t = op.operands[0].type
    bits = raw_uint(a, t)
    if op.kind is BitUnaryKind.REVERSE:
        return combine(f"hls_reverse<{bits.ctype.spelling}>({bits.text})", "primary", result, bits)
    if op.kind is BitUnaryKind.POPCOUNT:
        return combine(f"hls_popcount<{width_of(t)}, {result.width}>({bits.text})", "primary", result, bits)
    return combine(f"{result.spelling}({bits.at(PREC['primary'])}.countLeadingZeros())", "primary", result, bits)


def bitcast_expr(op: BitcastOp, a: Expr) -> Expr:
    """Reinterpretation through the raw bits: a union helper for floats, `.range()` for fixed point."""
    source, target = op.operands[0].type, op.result.type
    width = width_of(source)
    if isinstance(source, FloatType):
        native = NativeInt(width, False)
        bits = combine(f"hls_float_bits<{ctype_of(source).spelling}, {native.spelling}>({a.text})", "primary",
                       native, a)
    else:
        bits = raw_uint(a, source)
    if isinstance(target, FloatType):
        native = NativeInt(width, False)
        bits = cast_to(bits, native)
        return combine(f"hls_bits_float<{ctype_of(target).spelling}, {native.spelling}>({bits.text})", "primary",
                       ctype_of(target), bits)
    if isinstance(target, FixedType):
        bits = cast_to(bits, ApInt(width, False))
        return combine(f"hls_fixed_from_bits<{ctype_of(target).spelling}, {width}>({bits.text})", "primary",
                       ctype_of(target), bits)
    # an integer: the same bits in a same-width type (ap_int's constructor keeps the low W bits)
    return cast_to(bits, ApInt(width, target.signed))
