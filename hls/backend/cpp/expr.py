"""One C++ expression per pure IR op, with the casts that keep C++ arithmetic exact.

Python integer arithmetic is exact; C++ native arithmetic promotes to int and may overflow. Each
rule compares what C++ would compute in (`promote`) with the exact IR result type and widens the
operands only when C++ would lose bits, so the common case stays as plain as hand-written code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from hls.backend.cpp import faults
from hls.backend.cpp.casts import holds, ir_int, literal_type, operand_type
from hls.backend.ctype import ApInt, CBool, CFixed, CType, NativeInt, ctype_of, exact_ctype, promote
from hls.ir import BinaryOp, CastOp, CompareOp, ConstantOp, LogicOp, MathOp, SelectOp, UnaryOp
from hls.ir.kinds import BINARY, COMPARE, OpKind, kinds
from hls.ir.ranges import in_bounds, value_range
from hls.types import BoolType, FixedType, FloatType, IntType, TypeFamily, fixed_binop_type, fixed_of, int_union

# helper templates the kernel preamble defines when used (in this order); the first group is checked in csim
CHECKS = ("hls_divisor", "hls_index", "hls_bit_index", "hls_shift_count", "hls_float_to_int", "hls_finite",
          "hls_range_step")
CSIM_CHECKED = frozenset({"hls_floordiv", "hls_floormod", "hls_div", "hls_mod", "hls_fixed_div", *CHECKS})
HELPERS = ("hls_floordiv", "hls_floormod", "hls_div", "hls_mod", "hls_fixed_div", "hls_abs", "hls_min", "hls_max",
           "hls_wide_to_float", *CHECKS, "hls_set_bit", "hls_set_range", "hls_reverse",
           "hls_popcount", "hls_float_bits", "hls_bits_float", "hls_fixed_from_bits")
PREC = {"primary": 16, "unary": 15, "mul": 13, "add": 12, "shift": 11, "rel": 10, "eq": 9, "band": 8,
        "xor": 7, "bor": 6, "land": 5, "lor": 4, "cond": 3}
# C++ operator token and precedence class per kind (operators only: helpers and methods have rules below)
BIN_C = {k: (k.cpp, k.prec) for k in kinds(BINARY) if k.prec not in (None, "primary")}
CMP_C = {k: (k.cpp, k.prec) for k in kinds(COMPARE)}


@dataclass(frozen=True)
class Expr:
    text: str
    prec: int
    ctype: CType
    has_load: bool = False
    reads: frozenset[str] = field(default_factory=frozenset)

    def at(self, prec: int) -> str:
        """The text, parenthesised if it binds looser than `prec`."""
        return self.text if self.prec >= prec else f"({self.text})"


def combine(text: str, prec: str, ctype: CType, *parts: Expr) -> Expr:
    return Expr(text, PREC[prec], ctype, any(p.has_load for p in parts),
                frozenset().union(*(p.reads for p in parts)))


def checked(e: Expr, check: str, kind: int, what: str, loc, *args: object) -> Expr:
    """`CHECK(e, args..., site)`: a csim-only check (kernel.cpp.j2) that flags a fault at `loc`, the
    kernel's line (hls/backend/cpp/faults.py), where Python mode raises; synthesis reads `e` itself."""
    site = faults.site(kind, what, loc)
    return Expr(f"{check}({', '.join([macro_argument(e.text), *map(str, args), str(site)])})", PREC["primary"],
                e.ctype, e.has_load, e.reads)


def macro_argument(text: str) -> str:
    """`text` as one macro argument: parenthesised when a comma outside parentheses would split it
    (a template's `ap_fixed<6, 8>(x)`)."""
    depth = 0
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            return f"({text})"
    return text


def divisor(op: BinaryOp, b: Expr) -> Expr:
    """The divisor, checked in csim unless it is proven nonzero (a constant, a range without 0)."""
    count = getattr(op.rhs, "op", None)
    known = value_range(op.rhs) if isinstance(op.rhs.type, (IntType, BoolType)) else None
    if isinstance(count, ConstantOp) and count.value != 0 or known is not None and (known[0] > 0 or known[1] < 0):
        return b
    what = "modulo by zero" if op.kind == OpKind.MOD else "division by zero"
    return checked(b, "HLS_DIVISOR", faults.DIVISION, what, op.loc)


def cast_to(e: Expr, target: CType) -> Expr:
    """An explicit conversion, spelled as a C cast for natives and a constructor for ap types."""
    if e.ctype == target:
        return e
    if target.family is TypeFamily.FIXED:
        e = fixed_source(e, target.fixed)
    if target.builtin:
        if isinstance(e.ctype, ApInt) and e.ctype.width > 64 and target.family is TypeFamily.FLOAT:
            # a C cast goes through 64 bits and to_double() is wrong above 2**63: round in a helper,
            # straight to the target (through double, a float32 would be rounded twice)
            w = e.ctype.width + 1
            return combine(f"hls_wide_to_float<{target.spelling}, {w}>(ap_int<{w}>({e.text}))", "primary", target, e)
        if e.ctype.family is TypeFamily.FIXED and target.family is TypeFamily.FLOAT:
            method = "to_float" if target.width == 32 else "to_double"
            return combine(f"{e.at(PREC['primary'])}.{method}()", "primary", target, e)
        return combine(f"({target.spelling}){e.at(PREC['unary'])}", "unary", target, e)
    return combine(f"{target.spelling}({e.text})", "primary", target, e)


def as_unsigned(e: Expr, target: CType) -> Expr:
    """`e` converted to unsigned native `target` (casts.unsigned_wrap): a non-negative literal by its
    suffix (`1u`, `1ull`), anything else by a cast."""
    if e.text.isdigit():
        return Expr(f"{e.text}{'u' if target.width <= 32 else 'ull'}", PREC["primary"], target)
    return cast_to(e, target)


def fixed_source(e: Expr, target: FixedType) -> Expr:
    """`e`, widened if needed so that converting it into `target` cannot abort the program.

    ap_fixed's operator= reads the source's bit F2 - F - 1 (the half-lsb bit) for every rounding
    mode, even when that bit lies above the source's MSB (all of the source is below half an lsb of
    the target: a bool into ap_fixed<6, 8, AP_RND_MIN_INF>), and ap_private asserts on it. Adding
    integer bits (a sign or zero extension) keeps the value and puts the bit inside the source.
    """
    c = e.ctype
    if target.quant == "AP_TRN" or c.family is TypeFamily.FLOAT:
        return e
    if c.family is TypeFamily.FIXED:
        width, frac, signed = c.fixed.width, c.fixed.frac_bits, c.fixed.signed
    else:  # native, ap, bool: ap_fixed converts them as ap_fixed<W, W>
        width, frac, signed = c.width, 0, c.signed and c.family is not TypeFamily.BOOL
    if (target.quant == "AP_TRN_ZERO" and not signed) or frac - target.frac_bits <= width:
        return e
    width = frac - target.frac_bits
    if c.family is TypeFamily.FIXED:
        return cast_to(e, CFixed(width, signed, FixedType(width, width - frac, signed)))
    return cast_to(e, ApInt(width, signed))


def exact_operands(a: Expr, b: Expr, ta, tb, result: IntType) -> tuple[Expr, Expr]:
    """Widen operands where C++'s own arithmetic would not represent the exact result (the decision
    is casts.operand_type)."""
    if not (a.ctype.promotes and b.ctype.promotes):  # an ap type: a literal weighs as unsigned (casts.literal_type)
        ta, tb = literal_type(a.text, ta, tb), literal_type(b.text, tb, ta)
    wide = operand_type(a.ctype, b.ctype, ta, tb, result)
    return (a, b) if wide is None else (cast_to(a, wide), cast_to(b, wide))


def binary_expr(op: BinaryOp, a: Expr, b: Expr) -> Expr:
    result = op.result.type
    kind = op.kind
    ta, tb = op.lhs.type, op.rhs.type
    ctype = ctype_of(result)
    if isinstance(result, FixedType) and kind == OpKind.DIV:
        fa = a.ctype.fixed
        if fa is not None and fa.signed:
            # the header's division overflows on MIN / -1 (ap_fixed<4, 4>(-8) / -1 gave -8 although the
            # quotient type holds 8): one more integer bit in the dividend keeps its value and the result
            wide = FixedType(fa.width + 1, fa.int_bits + 1, True)
            a = cast_to(a, CFixed(wide.width, True, wide))
        return combine(f"hls_fixed_div<{ctype.spelling}>({a.text}, {divisor(op, b).text})", "primary", ctype, a, b)
    if isinstance(result, BoolType) or isinstance(result, (FloatType, FixedType)):
        if kind in (OpKind.MIN, OpKind.MAX):
            return minmax_expr(kind, a, b, ctype)
        sym, prec = BIN_C[kind]
        return combine(f"{a.at(PREC[prec])} {sym} {b.at(PREC[prec] + 1)}", prec, ctype, a, b)
    if kind in (OpKind.FLOORDIV, OpKind.MOD):
        joined = int_union(result, int_union(ir_int(ta), ir_int(tb)))
        if joined.signed:  # one more bit, so MIN / -1 and MIN % -1 cannot overflow (x86 traps on them)
            joined = IntType(joined.width + 1, True)
        wide = exact_ctype(joined)
        helper = kind.cpp if joined.signed else kind.cpp_unsigned
        return combine(f"{helper}<{wide.spelling}>({a.text}, {divisor(op, b).text})", "primary", wide, a, b)
    if kind in (OpKind.SHL, OpKind.SHR):
        return shift_expr(op, a, b)
    if kind in (OpKind.ROTL, OpKind.ROTR):
        return rotate_expr(op, a, b)
    if kind in (OpKind.MIN, OpKind.MAX):
        wide = ctype_of(result)
        return minmax_expr(kind, cast_to(a, wide), cast_to(b, wide), wide)
    if kind in (OpKind.AND, OpKind.OR, OpKind.XOR):
        wide = ctype_of(result) if promote(a.ctype, b.ctype) is None else exact_ctype(result)
        p = promote(a.ctype, b.ctype)
        if not (p is not None and holds(p, ir_int(ta)) and holds(p, ir_int(tb))):
            a, b = cast_to(a, wide), cast_to(b, wide)
        sym, prec = BIN_C[kind]
        return combine(f"{a.at(PREC[prec])} {sym} {b.at(PREC[prec] + 1)}", prec, actual_type(a, b, result), a, b)
    a, b = exact_operands(a, b, ta, tb, result)
    sym, prec = BIN_C[kind]
    return combine(f"{a.at(PREC[prec])} {sym} {b.at(PREC[prec] + 1)}", prec, actual_type(a, b, result), a, b)


def actual_type(a: Expr, b: Expr | None, result: IntType) -> CType:
    """The type C++ itself gives `a op b`: promoted natives, or an ap type when one is involved."""
    p = promote(a.ctype, b.ctype if b is not None else None)
    if p is not None:
        return p
    return ApInt(result.width, result.signed)


def minmax_expr(kind: OpKind, a: Expr, b: Expr, ctype: CType) -> Expr:
    fn = kind.cpp
    a, b = cast_to(a, ctype), cast_to(b, ctype)
    return combine(f"{fn}<{ctype.spelling}>({a.text}, {b.text})", "primary", ctype, a, b)


def shift_expr(op: BinaryOp, a: Expr, b: Expr) -> Expr:
    """Shifts go through ap types where native C++ would be undefined (negative or wide shifts)."""
    result = op.result.type
    count = getattr(op.rhs, "op", None)
    sym = "<<" if op.kind == OpKind.SHL else ">>"
    lhs_type = ir_int(op.lhs.type)
    if isinstance(count, ConstantOp):
        n = count.value
        if op.kind == OpKind.SHR and a.ctype.native and n < max(a.ctype.width, 32):
            return combine(f"{a.at(PREC['shift'])} >> {n}", "shift", promote(a.ctype), a)
        wide = ApInt(result.width, result.signed) if op.kind == OpKind.SHL else ApInt(lhs_type.width,
                                                                                        lhs_type.signed)
        a = cast_to(a, wide)
        return combine(f"{a.at(PREC['shift'])} {sym} {n}", "shift", wide, a)
    ap = ApInt(lhs_type.width, lhs_type.signed)
    # a variable shift keeps its left operand's width, so that operand must be exactly the IR's type:
    # a compound one may be wider in C++ (ap_uint<65> + ap_uint<65> is ap_uint<66>) and keep bits the
    # IR's shift wraps away (fuzz seed 4242000016)
    a = combine(f"{ap.spelling}({a.text})", "primary", ap, a) if a.prec < PREC["primary"] else cast_to(a, ap)
    low = value_range(op.rhs)
    if low is None or low[0] < 0:  # ap_int shifts the other way on a negative count; Python raises
        b = checked(b, "HLS_SHIFT_COUNT", faults.SHIFT_COUNT, "negative shift count", op.loc)
    return combine(f"{a.at(PREC['shift'])} {sym} {b.at(PREC['shift'] + 1)}", "shift", ap, a, b)


def index_text(value, e: Expr, width: int, op, what: str = "bit index") -> str:
    """A bit position, checked in csim (at `op`'s line) where not proven in 0..width-1 (the header
    would abort)."""
    if in_bounds(value, width):
        return e.text
    text = f"{what} out of range for a {width}-bit value (0..{width - 1})"
    return checked(e, "HLS_BIT_INDEX", faults.BIT_INDEX, text, op.loc, width).text


def rotate_expr(op: BinaryOp, a: Expr, b: Expr) -> Expr:
    """`ap_uint<W>(x).lrotate(n)` (rrotate): ap_int rotates in place and returns a reference, so a copy is
    rotated and read back as a value; a count not proven in 0..W-1 is checked in csim (the header asserts)."""
    ap = ApInt(op.result.type.width, False)
    text = f"{ap.spelling}({a.text}).{op.kind.cpp}({index_text(op.rhs, b, ap.width, op, 'rotate count')})"
    return combine(f"{ap.spelling}({text})", "primary", ap, a, b)


def compare_expr(op: CompareOp, a: Expr, b: Expr) -> Expr:
    ta, tb = op.operands[0].type, op.operands[1].type
    if isinstance(ta, (IntType, BoolType)) and isinstance(tb, (IntType, BoolType)):
        a, b = exact_operands(a, b, ta, tb, int_union(ir_int(ta), ir_int(tb)))
    elif isinstance(ta, FixedType) or isinstance(tb, FixedType):
        # the header aligns the two raw integers and compares those, and a signed raw against a wider
        # unsigned one compares as unsigned (ap_fixed<16, 8>(-0.75) >= 5u was true): compare both in
        # one type that holds them exactly
        joined = ctype_of(fixed_binop_type("max", fixed_of(ta), fixed_of(tb)))
        a, b = cast_to(a, joined), cast_to(b, joined)
    sym, prec = CMP_C[op.kind]
    return combine(f"{a.at(PREC[prec] + 1)} {sym} {b.at(PREC[prec] + 1)}", prec, CBool(), a, b)


def logic_expr(op: LogicOp, a: Expr, b: Expr) -> Expr:
    sym, prec = op.kind.cpp, op.kind.prec
    return combine(f"{a.at(PREC[prec])} {sym} {b.at(PREC[prec] + 1)}", prec, CBool(), a, b)


def unary_expr(op: UnaryOp, a: Expr) -> Expr:
    result = op.result.type
    ctype = ctype_of(result)
    if op.kind == OpKind.NOT:
        return combine(f"!{a.at(PREC['unary'])}", "unary", ctype, a)
    if isinstance(result, FloatType):
        if op.kind == OpKind.ABS:
            return combine(f"std::fabs({a.text})", "primary", ctype, a)
        return combine(f"-{negand(a)}", "unary", ctype, a)
    if op.kind == OpKind.ABS:
        wide = ctype if result.__class__ is FixedType else exact_ctype(result)
        return combine(f"{op.kind.cpp}<{wide.spelling}>({a.text})", "primary", wide, a)
    sym = op.kind.cpp
    if isinstance(result, IntType):
        p = promote(a.ctype)
        if not (p is not None and holds(p, result) and holds(p, ir_int(op.operands[0].type))):
            a = cast_to(a, exact_ctype(result))
    else:
        a = cast_to(a, ctype)
    actual = promote(a.ctype) or a.ctype
    return combine(f"{sym}{negand(a) if sym == '-' else a.at(PREC['unary'])}", "unary", actual, a)


def negand(a: Expr) -> str:
    """The operand of a unary minus: `-` before `-x` (a negation or a negative literal) reads as `--`."""
    text = a.at(PREC["unary"])
    return f"({text})" if text.startswith("-") else text


def cast_expr(op: CastOp, a: Expr) -> Expr:
    target = op.result.type
    src = op.operands[0].type
    ctype = ctype_of(target)
    if isinstance(target, BoolType):
        return combine(f"{a.at(PREC['eq'] + 1)} != 0", "eq", ctype, a)
    if isinstance(target, IntType) and isinstance(src, FloatType):
        # truncate toward zero in 64 bits first: a direct narrowing cast of a float is undefined (and
        # beyond int64, or NaN, so is that one: csim checks it, as Python mode raises there)
        a = checked(a, "HLS_FLOAT_TO_INT", faults.FLOAT_TO_INT, f"cannot convert a NaN, an infinity or a float "
                    f"beyond +-2**63 to {target}: float-to-integer conversion is defined for |x| < 2**63 only", op.loc)
        wide = cast_to(a, NativeInt(64, True))
        return cast_to(wide, ctype)
    if isinstance(target, FixedType) and isinstance(src, FloatType) and a.ctype != ctype:
        # (a float ROM declared in the fixed type is read as fixed: no conversion is left to check)
        a = checked(a, "HLS_FINITE", faults.FLOAT_TO_INT, f"cannot convert a NaN or an infinity to {target}", op.loc)
    if isinstance(target, IntType) and isinstance(src, FixedType):
        if src.int_bits <= 0:
            # every value lies in (-1, 1), so truncation toward zero gives 0; the header's
            # to_ap_int_base() is wrong there (I < 0 leaves its result unset, I == 0 overflows it)
            return cast_to(Expr("0", PREC["primary"], NativeInt(32, True)), ctype)
        return cast_to(combine(f"{a.at(PREC['primary'])}.to_ap_int_base()", "primary",
                               ApInt(max(src.int_bits, 1), src.signed), a), ctype)
    return cast_to(a, ctype)


def select_expr(op: SelectOp, c: Expr, a: Expr, b: Expr) -> Expr:
    ctype = ctype_of(op.result.type)
    if a.ctype != ctype or b.ctype != ctype:
        a, b = cast_to(a, ctype), cast_to(b, ctype)
    if ctype.ap_type:
        # `?:` needs both arms of one C++ type, and ap arithmetic widens beyond the modelled type
        # (ap_int<117> * ap_int<117> is ap_int<234>): construct compound arms explicitly
        a, b = (combine(f"{ctype.spelling}({e.text})", "primary", ctype, e) if e.prec < PREC["primary"] else e
                for e in (a, b))
    return combine(f"{c.at(PREC['lor'])} ? {a.at(PREC['cond'])} : {b.at(PREC['cond'])}", "cond", ctype, c, a, b)


def math_expr(op: MathOp, args: list[Expr]) -> Expr:
    ctype = ctype_of(op.result.type)
    text = ", ".join(a.text for a in args)
    return combine(f"{op.func.cpp}({text})", "primary", ctype, *args)


def constant_expr(op: ConstantOp) -> Expr:
    t = op.result.type
    value = op.value
    ctype = ctype_of(t)
    if isinstance(t, BoolType):
        return Expr("true" if value else "false", PREC["primary"], ctype)
    if isinstance(t, FloatType):
        return Expr(float_literal(value, t.bits), PREC["primary"] if value >= 0 else PREC["unary"], ctype)
    if isinstance(t, FixedType):
        return Expr(f"{ctype.spelling}({float(Fraction(value))!r})", PREC["primary"], ctype)
    return int_literal(int(value), t)


def int_literal(value: int, t: IntType) -> Expr:
    if -(2**31) < value < 2**31:
        lit_type = NativeInt(32, True)
        return Expr(str(value), PREC["primary"] if value >= 0 else PREC["unary"], lit_type)
    if -(2**63) < value < 2**63:
        return Expr(f"{value}LL", PREC["primary"] if value >= 0 else PREC["unary"], NativeInt(64, True))
    if 0 <= value < 2**64 and not t.signed:  # a signed type keeps its sign: ap_int<17> >= 2**63ULL compares
        return Expr(f"{value}ULL", PREC["primary"], NativeInt(64, False))  # as unsigned (fuzz seed 2316000082)
    width = max(t.width, value.bit_length() + 1)
    hexed = format(value % (1 << width), "x")
    ap = ApInt(width, True)
    return Expr(f'{ap.spelling}("{hexed}", 16)' if value >= 0 else f'{ap.spelling}("-{format(-value, "x")}", 16)',
                PREC["primary"], ap)


def float_literal(value: float, bits: int) -> str:
    """The shortest text that reads back as exactly this float32/float64 value (with `f` for float32)."""
    scalar = np.float32(value) if bits == 32 else np.float64(value)
    if scalar == 0 or 1e-4 <= abs(scalar) < 1e7:
        text = np.format_float_positional(scalar, unique=True, trim="0")
    else:
        text = np.format_float_scientific(scalar, unique=True, trim="0")
    return text + ("f" if bits == 32 else "")
