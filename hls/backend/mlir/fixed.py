"""Conversions (hls.cast) for the MLIR export, ap_fixed quantization and overflow included.

A conversion into ap_fixed is done on integers as hls/fixed.py models the header: the floor of the
value at the target's binary point, the half-lsb bit `qb`, the sticky bit below it and the sign decide
the rounding increment; the rounded value is then wrapped or saturated by the overflow mode.
"""

from __future__ import annotations

from hls.backend.mlir.arith import IntArith, Wide
from hls.backend.mlir.builder import mlir_type, unsupported
from hls.ir import CastOp
from hls.types import BoolType, FixedType, FloatType, IntType, as_int, fixed_of

MAX_EXPONENT = {32: 128, 64: 1024}  # every finite float of that width is below 2**this
# ap_fixed quantization: when to add one lsb to the floor (hls/fixed.py _increment), as i1 formulas
QUANT_INC = {"AP_TRN": None, "AP_RND": "qb", "AP_RND_ZERO": ("and", "qb", ("or", "neg", "sticky")),
             "AP_RND_MIN_INF": ("and", "qb", "sticky"), "AP_RND_INF": ("and", "qb", ("or", "pos", "sticky")),
             "AP_RND_CONV": ("and", "qb", ("or", "odd", "sticky")),
             "AP_TRN_ZERO": ("and", "neg", ("or", "qb", "sticky"))}


def convert(s: IntArith, op: CastOp, v: str) -> str:
    src, dst = op.operands[0].type, op.result.type
    if src == dst:
        return v
    if isinstance(dst, BoolType):  # Python truth: nonzero (NaN is true)
        if isinstance(src, FloatType):
            return s.b.op("arith.cmpf", f"une, {v}, {s.b.float_const(0.0, src.bits)}", mlir_type(src), op.result.name)
        w = as_int(src).width if not isinstance(src, FixedType) else src.width
        return s.cmpi("ne", v, s.const(0, w), w)
    if isinstance(src, FloatType):
        return from_float(s, op, v, src, dst)
    if isinstance(dst, FloatType):
        return to_float(s, op, v, src, dst)
    if isinstance(dst, FixedType):
        return fixed_convert(s, op, v, fixed_of(src), dst)
    if isinstance(src, FixedType):  # to an integer: truncate toward zero, then wrap
        return fixed_convert(s, op, v, src, FixedType(dst.width, dst.width, dst.signed, "AP_TRN_ZERO"))
    return s.resize(v, src, dst.width, op.result.name)


def to_float(s: IntArith, op: CastOp, v: str, src, dst: FloatType) -> str:
    """Integers round once (sitofp/uitofp); a fixed raw value is then scaled by 2**-F exactly."""
    signed = src.signed if isinstance(src, (IntType, FixedType)) else False
    name = "arith.sitofp" if signed else "arith.uitofp"
    width = src.width if isinstance(src, (IntType, FixedType)) else 1
    f = s.b.cast(name, v, f"i{width}", mlir_type(dst), op.result.name)
    if isinstance(src, FixedType) and src.frac_bits:
        scale = pow2(s, op, -src.frac_bits, dst.bits)
        f = s.b.op("arith.mulf", f"{f}, {scale}", mlir_type(dst), op.result.name)
    return f


def from_float(s: IntArith, op: CastOp, v: str, src: FloatType, dst) -> str:
    if isinstance(dst, FloatType):
        name = "arith.extf" if dst.bits > src.bits else "arith.truncf"
        return s.b.cast(name, v, f"{mlir_type(src)}", mlir_type(dst), op.result.name)
    if isinstance(dst, IntType):  # C++ truncates toward zero through int64, then wraps
        wide = s.b.cast("arith.fptosi", v, f"{mlir_type(src)}", "i64", op.result.name)
        return s.resize(wide, Wide(64, True), dst.width, op.result.name)
    return float_to_fixed(s, op, v, src, dst)


def pow2(s: IntArith, op: CastOp, exp: int, bits: int) -> str:
    """2**exp as an f32/f64 constant: the scale between a raw mantissa and its value."""
    if not -MAX_EXPONENT[bits] + 2 <= exp < MAX_EXPONENT[bits]:  # a normal float: multiplying by it is exact
        raise unsupported(op, f"a fixed-point scale of 2**{exp} is no normal float{bits}")
    return s.b.float_const(2.0 ** exp, bits, "scale")


def float_to_fixed(s: IntArith, op: CastOp, v: str, src: FloatType, dst: FixedType) -> str:
    """x * 2**F split into floor and fraction (both exact in floating point), then the integer path."""
    ft = mlir_type(src)
    scaled = v
    if dst.frac_bits:
        scale = pow2(s, op, dst.frac_bits, src.bits)
        scaled = s.b.op("arith.mulf", f"{v}, {scale}", ft, "scaled")
    floor = s.b.op("math.floor", scaled, ft, "floor")
    frac = s.b.op("arith.subf", f"{scaled}, {floor}", ft, "frac")
    half, zero = s.b.float_const(0.5, src.bits), s.b.float_const(0.0, src.bits)
    bits = {"qb": lambda: s.b.op("arith.cmpf", f"oge, {frac}, {half}", ft, "qb"),
            "sticky": lambda: s.int_op("arith.andi", s.b.op("arith.cmpf", f"one, {frac}, {zero}", ft, "cmp"),
                                       s.b.op("arith.cmpf", f"one, {frac}, {half}", ft, "cmp"), 1, "sticky"),
            "neg": lambda: s.b.op("arith.cmpf", f"olt, {v}, {zero}", ft, "neg")}
    if dst.overflow in ("AP_WRAP", "AP_WRAP_SM") or dst.width + 2 >= MAX_EXPONENT[src.bits]:
        ww = max(MAX_EXPONENT[src.bits] + 2, dst.width + 2)  # holds every finite float exactly
    else:  # saturating: clamp far outside the range first, so fptosi stays defined
        ww, limit = dst.width + 3, 2.0 ** (dst.width + 1)
        hi, lo = s.b.float_const(limit, src.bits), s.b.float_const(-limit, src.bits)
        floor = s.b.op("arith.minimumf", f"{floor}, {hi}", ft, "floor")
        floor = s.b.op("arith.maximumf", f"{floor}, {lo}", ft, "floor")
    trunc = s.b.cast("arith.fptosi", floor, f"{ft}", f"i{ww}", "trunc")
    return quantize_overflow(s, op, trunc, ww, dst, bits)


def fixed_convert(s: IntArith, op: CastOp, v: str, src: FixedType, dst: FixedType) -> str:
    """Exact integer conversion of a raw value between binary points, rounded and overflowed per dst."""
    drop = src.frac_bits - dst.frac_bits
    if drop <= 0 and dst.overflow == "AP_WRAP" and dst.sat_bits == 0:  # no rounding, plain wrap: in W bits
        if -drop >= dst.width:  # every bit shifted out (and shli would be poison)
            return s.const(0, dst.width)
        x = s.resize(v, src, dst.width, op.result.name if not drop else None)
        return s.int_op("arith.shli", x, s.const(-drop, dst.width), dst.width, op.result.name) if drop else x
    ww = max(src.width + max(-drop, 0), dst.width) + 2
    x = s.resize(v, src, ww)
    if drop <= 0:
        trunc = s.int_op("arith.shli", x, s.const(-drop, ww), ww) if drop else x
        return quantize_overflow(s, op, trunc, ww, dst, {})
    trunc = s.int_op("arith.shrsi", x, s.const(drop, ww), ww, "trunc")
    bits = {"qb": lambda: s.cmpi("ne", s.int_op("arith.andi", x, s.const(1 << (drop - 1), ww), ww),
                                 s.const(0, ww), ww),
            "sticky": lambda: s.cmpi("ne", s.int_op("arith.andi", x, s.const((1 << (drop - 1)) - 1, ww), ww),
                                     s.const(0, ww), ww),
            "neg": lambda: s.cmpi("slt", x, s.const(0, ww), ww)}
    return quantize_overflow(s, op, trunc, ww, dst, bits)


def quantize_overflow(s: IntArith, op: CastOp, trunc: str, ww: int, dst: FixedType, bits: dict) -> str:
    """floor + increment (QUANT_INC), then the overflow mode on the `ww`-bit rounded value."""
    if dst.overflow == "AP_WRAP_SM" and not dst.signed:
        raise unsupported(op, f"conversion to {dst}: ap_ufixed with AP_WRAP_SM (the ap_fixed header exits)")
    formula = QUANT_INC[dst.quant] if bits else None
    q = trunc
    if formula is not None:
        cache: dict[str, str] = {}
        bits = dict(bits, pos=lambda: s.int_op("arith.xori", term("neg"), s.const(1, 1), 1, "pos"),
                    odd=lambda: s.resize(trunc, Wide(ww, True), 1))

        def term(f) -> str:
            if isinstance(f, str):
                if f not in cache:
                    cache[f] = bits[f]()
                return cache[f]
            return s.int_op(f"arith.{f[0]}i", term(f[1]), term(f[2]), 1)

        inc = s.resize(term(formula), BoolType(), ww)
        q = s.int_op("arith.addi", trunc, inc, ww, "rounded")
    if dst.overflow == "AP_WRAP" and dst.sat_bits == 0:
        return s.resize(q, Wide(ww, True), dst.width, op.result.name)
    word = s.resize(q, Wide(ww, True), dst.width)
    return saturate(s, op, q, word, ww, dst, trunc)


def saturate(s: IntArith, op: CastOp, q: str, word: str, ww: int, dst: FixedType, trunc: str) -> str:
    """hls/fixed.py _overflow: out-of-range values become the mode's fixed word."""
    w, sat = dst.width, dst.sat_bits
    sym = dst.overflow == "AP_SAT_SYM" and dst.signed
    over = s.cmpi("sgt", q, s.const(dst.raw_max, ww), ww)
    under = s.cmpi("sle" if sym else "slt", q, s.const(dst.raw_min, ww), ww)
    msb, mask = 1 << (w - 1), (1 << w) - 1
    top = ((1 << sat) - 1) << (w - sat)
    if dst.overflow == "AP_SAT_ZERO":
        fixed = s.const(0, w)
    elif dst.overflow == "AP_WRAP" and dst.signed:
        neg = s.cmpi("slt", q, s.const(0, ww), ww)
        kept = s.int_op("arith.andi", word, s.const(~top, w), w)
        fixed = s.int_op("arith.ori", kept, s.select(None, [neg, s.const(msb, w), s.const(top ^ msb, w)],
                                                      f"i{w}"), w)
    elif dst.overflow == "AP_WRAP":
        fixed = s.int_op("arith.ori", word, s.const(top, w), w)
    elif dst.overflow == "AP_WRAP_SM":
        fixed = sign_magnitude(s, q, word, ww, dst, trunc)
    elif dst.signed:
        low = msb | 1 if dst.overflow == "AP_SAT_SYM" else msb
        fixed = s.select(None, [over, s.const(msb - 1, w), s.const(low, w)], f"i{w}")
    else:
        fixed = s.select(None, [over, s.const(mask, w), s.const(0, w)], f"i{w}")
    out = s.int_op("arith.ori", over, under, 1, "overflow")
    return s.b.op("arith.select", f"{out}, {fixed}, {word}", f"i{w}", op.result.name)


def sign_magnitude(s: IntArith, q: str, word: str, ww: int, dst: FixedType, trunc: str) -> str:
    """AP_WRAP_SM (hls/fixed.py _wrap_sign_magnitude): complement the word by the header's rule, then
    force the N saturation bits."""
    w, sat = dst.width, dst.sat_bits
    msb = 1 << (w - 1)
    inverted = s.int_op("arith.xori", word, s.const(-1, w), w)
    new_msb = s.cmpi("slt", word, s.const(0, w), w)
    neg = s.cmpi("slt", q, s.const(0, ww), ww)
    if sat == 0:  # the first deleted bit above the MSB of the pre-rounding floor
        bit = s.int_op("arith.andi", trunc, s.const(1 << w, ww), ww)
        deleted = s.cmpi("ne", bit, s.const(0, ww), ww)
        return s.select(None, [s.int_op("arith.xori", deleted, new_msb, 1), inverted, word], f"i{w}")
    if sat == 1:
        flipped = s.select(None, [s.int_op("arith.xori", neg, new_msb, 1), inverted, word], f"i{w}")
        kept = s.int_op("arith.andi", flipped, s.const(~msb, w), w)
        return s.int_op("arith.ori", kept, s.select(None, [neg, s.const(msb, w), s.const(0, w)], f"i{w}"), w)
    top = ((1 << sat) - 1) << (w - sat)
    low_bit = s.int_op("arith.andi", word, s.const(1 << (w - sat), w), w)
    low_sat = s.cmpi("ne", low_bit, s.const(0, w), w)
    same = s.int_op("arith.xori", s.int_op("arith.xori", low_sat, neg, 1), s.const(1, 1), 1)
    flipped = s.select(None, [same, inverted, word], f"i{w}")
    kept = s.int_op("arith.andi", flipped, s.const(~top, w), w)
    return s.int_op("arith.ori", kept, s.select(None, [neg, s.const(msb, w), s.const(top ^ msb, w)], f"i{w}"), w)
