"""How messages write types and values for a reader: a type as the Python expression that builds it
(so a hint can be pasted into a kernel), a value as a decimal (never a fraction like 127/64)."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from hls.types import ArrayType, BoolType, FixedType, FloatType, HLSType, IntType, StreamType, StructType, TupleType

_NAMED_INTS = {8, 16, 32, 64}


def type_expr(t: HLSType) -> str:
    """The expression that names `t` after `import hls`: `hls.int16`, `hls.ap_fixed[16, 2]`, ...

    Every hint that tells the user to write a type uses this, so it always names something that exists
    (str(t), `fixed16_2`, is the IR's short name and is not an attribute of `hls`)."""
    if isinstance(t, BoolType):
        return "hls.bool_"
    if isinstance(t, IntType):
        return f"hls.{'' if t.signed else 'u'}int{t.width}"
    if isinstance(t, FloatType):
        return f"hls.float{t.bits}"
    if isinstance(t, FixedType):
        params = [str(t.width), str(t.int_bits)]
        if not t.is_default_modes:
            params += [repr(t.quant), repr(t.overflow)] + ([str(t.sat_bits)] if t.sat_bits else [])
        return f"hls.{'ap_fixed' if t.signed else 'ap_ufixed'}[{', '.join(params)}]"
    if isinstance(t, ArrayType):
        return f"{type_expr(t.elem)}[{', '.join(map(str, t.shape))}]"
    if isinstance(t, StreamType):
        return f"hls.stream[{type_expr(t.elem)}, {t.depth}]"
    if isinstance(t, TupleType):
        return f"tuple[{', '.join(type_expr(e) for e in t.elems)}]"
    if isinstance(t, StructType):
        own = getattr(t, "type_expr", None)  # a packet type (hls/lang/axis.py) spells itself
        return own() if callable(own) else t.name
    return str(t)


def decimal(value: Any, digits: int = 17) -> str:
    """`value` as a decimal. A value a double holds (every ap_fixed of up to 53 bits) is written as the
    shortest decimal that reads back as exactly that value; a wider one exactly when `digits` significant
    digits suffice; otherwise rounded, with a `~` in front and the exact fraction after it."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        try:
            value = Fraction(value)
        except (TypeError, ValueError, OverflowError):
            return str(value)
    if value.denominator == 1:
        return str(value.numerator)
    if float(value) == value:
        return repr(float(value))
    with localcontext() as ctx:
        ctx.prec = digits
        text = Decimal(value.numerator) / Decimal(value.denominator)
        exact = Fraction(text) == value
    return f"{text:f}" if exact else f"~{text:f} (exactly {value.numerator}/{value.denominator})"
