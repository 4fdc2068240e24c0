"""Module-level pieces of the C++ emitter (hls/backend/cpp/emit.py): which conversions C++ makes by itself,
constants and ROM tables, static declarations and printf formats."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hls.backend.cpp.expr import PREC, Expr
from hls.backend.ctype import CFloat, CType, ctype_of, declared_array, spelling
from hls.ir import AllocOp, CastOp, ConstantOp, LoadOp, RomOp
from hls.ir.core import Value
from hls.types import ArrayType, BoolType, FixedType, FloatType, StreamType, TypeFamily


def plain_constant(value: Value, t: Any) -> Expr | None:
    """A fixed-point constant assigned to a variable of its own type: the bare decimal (`0.25`; every
    such value is a double exactly)."""
    op = getattr(value, "op", None)
    if not isinstance(op, ConstantOp) or not isinstance(t, FixedType) or value.type != t or t.width > 53:
        return None
    number = float(Fraction(op.value))
    return Expr(repr(number), PREC["primary"] if number >= 0 else PREC["unary"], CFloat(64))


def rom_use_type(op: RomOp) -> FixedType | None:
    """The fixed-point type a float ROM is always read as (every element read goes straight into an
    explicit conversion to that one type), so the C++ can declare the table in it: converting the
    double at initialization or at each read gives the same value. None otherwise."""
    t = op.result.type
    if not isinstance(t.elem, FloatType) or not op.result.uses:
        return None
    targets = set()
    for load in op.result.uses:
        if not isinstance(load, LoadOp) or load.memref is not op.result or not load.result.uses:
            return None
        for user in load.result.uses:
            if not isinstance(user, CastOp) or not isinstance(user.result.type, FixedType):
                return None
            targets.add(user.result.type)
    target = next(iter(targets)) if len(targets) == 1 else None
    return target if target is not None and target.width <= 53 else None


def _is_cell(memref: Value) -> bool:
    op = getattr(memref, "op", None)
    return isinstance(op, AllocOp) and op.cell


def static_declaration(op: AllocOp, name: str) -> str:
    """`static T x = init;`, `static T buf[N];` (static storage starts at zero, as hls.zeros promises;
    ap_int's default constructor leaves it untouched) or a local a sub-kernel fills."""
    from hls.backend.cpp.expr import constant_expr

    t: ArrayType = op.result.type
    if op.cell:
        init = constant_expr(ConstantOp(op.init, t.elem)).text
        return f"static {spelling(t.elem)} {name} = {init};"
    if op.static:
        return f"static {declared_array(t, name)} = {{}};"
    writer = "the loops" if op.attrs.get("filled_by_nest") else "the call"  # an array statement's nest, or a sub-kernel
    return f"{declared_array(t, name)};  // written by {writer} below"

def print_format(value: Expr) -> tuple[str, str]:
    """The printf conversion and argument of one value: ints exactly, floats with the digits that
    round-trip (9 for float32, 17 for double), fixed point through double, bools as Python spells them."""
    ctype, text = value.ctype, value.text
    if ctype.family is TypeFamily.BOOL:
        return "%s", f'({text}) ? "True" : "False"'
    if ctype.family is TypeFamily.FLOAT:
        return ("%.9g" if ctype.width == 32 else "%.17g"), f"(double)({text})"
    if ctype.family is TypeFamily.FIXED:
        return "%.17g", f"({text}).to_double()"
    if ctype.width > 64:
        return "%s", f"({text}).to_string(10).c_str()"
    return ("%lld", f"(long long)({text})") if ctype.signed else ("%llu", f"(unsigned long long)({text})")


def c_string(text: str) -> str:
    """A C string literal holding `text` (UTF-8 bytes; escapes for quotes, backslashes and controls)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _ctype_or_int(t) -> CType:
    return ctype_of(t.elem) if isinstance(t, (ArrayType, StreamType)) else ctype_of(t)



def _rom_value(v, elem):
    """A ROM element as the exact Python value its ConstantOp holds."""
    if isinstance(elem, FixedType):
        return Fraction(v)
    if isinstance(elem, FloatType):
        return float(v)
    if isinstance(elem, BoolType):
        return bool(v)
    return int(v)
