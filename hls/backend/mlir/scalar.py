"""Pure IR ops -> `arith`/`math` ops with the exact-width semantics of the IR.

arith integers are signless: the signed or unsigned variant of an op comes from the IR operand types
(one table below). Every integer rule first extends (extsi/extui by the operand's own signedness)
or truncates both operands to the width it computes in, so the MLIR computes the values the golden
model and the C++ compute. Fixed-point values are their raw two's-complement mantissas (iW); the
rules align binary points with shifts and implement ap_fixed quantization and overflow exactly
(hls/fixed.py is the reference they follow).
"""

from __future__ import annotations

from hls.backend.mlir import bits as mlir_bits
from hls.backend.mlir.arith import IntArith, Wide
from hls.backend.mlir.builder import elem_attrs, mlir_type, signed_bits, unsupported
from hls.backend.mlir.fixed import convert
from hls.ir import (
    AllocOp,
    BinaryOp,
    CallOp,
    CastOp,
    CompareOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    IfOp,
    LoadOp,
    LogicOp,
    MathOp,
    PrintOp,
    ReturnOp,
    RomOp,
    RowOp,
    SelectOp,
    StoreOp,
    UnaryOp,
    WhileOp,
    YieldOp,
)
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.core import Op
from hls.ir.kinds import BINARY, COMPARE, MATH, OpKind, kinds
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.types import BoolType, FixedType, FloatType, as_int, fixed_of, int_union

# op kind -> (signed variant, unsigned variant) on integers, float op, raw-integer op on fixed point,
# comparison predicates (signed, unsigned, float), math function: all from the kinds' own facts
INT_OPS = {k: k.mlir_int for k in kinds(BINARY) if k.mlir_int}
FLOAT_OPS = {k: k.mlir_float for k in kinds(BINARY) if k.mlir_float}
FIXED_OPS = {k: k.mlir_int[0] for k in kinds(BINARY) if k.mlir_fixed}
CMP_PREDICATES = {k: k.mlir_pred for k in kinds(COMPARE)}
MATH_OPS = {k: k.mlir_math for k in kinds(MATH)}


class ScalarLowering(IntArith, Walker):
    """Turns one pure IR op, given its operands' SSA names, into arith/math ops; returns the result.
    The function emitter (hls/backend/mlir/emit.py) sends it every op class with a rule here."""

    not_applicable = (AllocOp, RomOp, RowOp, LoadOp, StoreOp, YieldOp, ForOp, WhileOp, IfOp, CallOp, ReturnOp,
                      DirectiveOp, PrintOp, StreamOp, FifoOp, StructPackOp, StructGetOp)

    def lower(self, op: Op, args: list[str]) -> str:
        return self.dispatch(op, args)

    def inapplicable(self, op: Op, args: list[str]) -> str:
        raise unsupported(op, "no rule")

    # ---- bit-level ops (hls/backend/mlir/bits.py) ----------------------------------------------

    @rule(SliceOp)
    def slice(self, op: SliceOp, args: list[str]) -> str:
        return mlir_bits.slice_bits(self, op, args)

    @rule(BitGetOp)
    def bit_get(self, op: BitGetOp, args: list[str]) -> str:
        return mlir_bits.get_bit(self, op, args)

    @rule(BitSetOp, SliceSetOp)
    def insert_bits(self, op: BitSetOp | SliceSetOp, args: list[str]) -> str:
        return mlir_bits.insert(self, op, args)

    @rule(ConcatOp)
    def concat(self, op: ConcatOp, args: list[str]) -> str:
        return mlir_bits.concat(self, op, args)

    @rule(BitcastOp)
    def bitcast(self, op: BitcastOp, args: list[str]) -> str:
        return mlir_bits.bitcast(self, op, args)

    @rule(BitUnaryOp)
    def bit_unary(self, op: BitUnaryOp, args: list[str]) -> str:
        return mlir_bits.bit_unary(self, op, args)

    @rule(SelectOp)
    def select_op(self, op: SelectOp, args: list[str]) -> str:
        return self.select(op, args)

    # ---- constants -----------------------------------------------------------------------------

    @rule(ConstantOp)
    def constant(self, op: ConstantOp, args: list[str]) -> str:
        t, value = op.result.type, op.value
        if isinstance(t, FloatType):
            return self.b.float_const(value, t.bits)
        if isinstance(t, FixedType):  # the raw mantissa; not shared with an integer constant of equal bits
            raw = signed_bits(int(value / t.lsb), t.width)
            found = self.b.cached(("fixed", raw, t))
            if found is not None:
                return found
            literal = ("true" if raw else "false") if t.width == 1 else str(raw)
            name = self.b.op("arith.constant", literal, f"i{t.width}", "cst", elem_attrs(t))
            if t.width == 1:  # i1 constants carry no type in MLIR's syntax
                self.b.defs[name].tail = ""
            return self.b.remember(("fixed", raw, t), name)
        width = 1 if isinstance(t, BoolType) else t.width
        return self.const(int(value), width)

    # ---- binary --------------------------------------------------------------------------------

    @rule(BinaryOp)
    def binary(self, op: BinaryOp, args: list[str]) -> str:
        result, (a, c) = op.result.type, args
        ta, tb = op.lhs.type, op.rhs.type
        if isinstance(result, FloatType):
            if op.kind in (OpKind.MIN, OpKind.MAX):
                return self.float_minmax(op, a, c)
            if op.kind not in FLOAT_OPS:
                raise unsupported(op, f"{op.kind} on floats")
            return self.b.op(FLOAT_OPS[op.kind], f"{a}, {c}", mlir_type(result), op.result.name)
        if isinstance(result, FixedType):
            return self.fixed_binary(op, a, c)
        if isinstance(result, BoolType):  # and/or/xor of two bools
            return self.int_op(INT_OPS[op.kind][0], a, c, 1, op.result.name)
        if op.kind in (OpKind.FLOORDIV, OpKind.MOD):
            return self.divmod(op, a, c)
        if op.kind in (OpKind.SHL, OpKind.SHR):
            return self.shift(op, a, c)
        if op.kind not in INT_OPS:
            raise unsupported(op, f"integer {op.kind}")
        w = result.width
        name = INT_OPS[op.kind][0 if result.signed else 1]
        return self.int_op(name, self.resize(a, ta, w), self.resize(c, tb, w), w, op.result.name)

    def float_minmax(self, op: BinaryOp, a: str, c: str) -> str:
        """min as `b < a ? b : a`, max as `a < b ? b : a` (Python's builtins and the C++ helpers)."""
        t = mlir_type(op.result.type)
        lt = self.b.op("arith.cmpf", f"olt, {c}, {a}" if op.kind == OpKind.MIN else f"olt, {a}, {c}", t, "cmp")
        return self.select(op, [lt, c, a])

    def divmod(self, op: BinaryOp, a: str, c: str) -> str:
        """Python `//` and `%` (floor semantics) in one width wider than every operand and the result."""
        ta, tb, result = as_int(op.lhs.type), as_int(op.rhs.type), op.result.type
        joined = int_union(result, int_union(ta, tb))
        w = joined.width + (1 if joined.signed else 0)  # MIN // -1 fits
        aw, cw = self.resize(a, ta, w), self.resize(c, tb, w)
        name = INT_OPS[op.kind][0 if joined.signed else 1]
        r = self.int_op(name, aw, cw, w, op.result.name)
        if op.kind == OpKind.MOD and joined.signed:  # remsi truncates: move a nonzero remainder to the divisor's sign
            zero = self.const(0, w)
            nonzero = self.cmpi("ne", r, zero, w)
            signs = self.int_op("arith.xori", self.cmpi("slt", r, zero, w), self.cmpi("slt", cw, zero, w), 1)
            fix = self.int_op("arith.andi", nonzero, signs, 1)
            r = self.select(None, [fix, self.int_op("arith.addi", r, cw, w), r], f"i{w}")
        return self.resize(r, Wide(w, True), result.width)

    def shift(self, op: BinaryOp, a: str, c: str) -> str:
        """ap_int shifts: a count at or past the width gives 0 (or the sign for >>), never poison."""
        ta, tc, result = as_int(op.lhs.type), as_int(op.rhs.type), op.result.type
        w = result.width
        av = self.resize(a, ta, w)
        name = INT_OPS[op.kind][0 if ta.signed else 1]
        count = getattr(op.rhs, "op", None)
        if isinstance(count, ConstantOp):
            n = int(count.value)
            if n < w:
                return self.int_op(name, av, self.const(n, w), w, op.result.name)
            if op.kind == OpKind.SHR and ta.signed:
                return self.int_op(name, av, self.const(w - 1, w), w, op.result.name)
            return self.const(0, w)
        cw = max(tc.width, w.bit_length() + 1)
        cv = self.resize(c, tc, cw)
        inside = self.cmpi("ult", cv, self.const(w, cw), cw)
        # the count is zeroed when out of range too, so no shift is ever given a poison-producing count
        count_w = self.select(None, [inside, self.resize(cv, Wide(cw, False), w), self.const(0, w)], f"i{w}")
        shifted = self.int_op(name, av, count_w, w)
        arithmetic = op.kind == OpKind.SHR and ta.signed
        fill = self.int_op(name, av, self.const(w - 1, w), w) if arithmetic else self.const(0, w)
        return self.select(op, [inside, shifted, fill])

    def fixed_binary(self, op: BinaryOp, a: str, c: str) -> str:
        result: FixedType = op.result.type
        fa, fb = fixed_of(op.lhs.type), fixed_of(op.rhs.type)
        w = result.width
        if op.kind == OpKind.MUL:  # the binary point of a product is the sum of the operands'
            return self.int_op("arith.muli", self.resize(a, fa, w), self.resize(c, fb, w), w, op.result.name)
        if op.kind == OpKind.DIV:  # the quotient truncated toward zero: (a << max(Fb, 0)) / b on raw values
            ww = max(w, fa.width + max(fb.frac_bits, 0), fb.width) + 1
            num = self.align(a, fa, fa.frac_bits + max(fb.frac_bits, 0), ww)
            q = self.int_op("arith.divsi", num, self.resize(c, fb, ww), ww, op.result.name)
            return self.resize(q, Wide(ww, True), w)
        av, cv = self.align(a, fa, result.frac_bits, w), self.align(c, fb, result.frac_bits, w)
        if op.kind in FIXED_OPS:
            return self.int_op(FIXED_OPS[op.kind], av, cv, w, op.result.name)
        if op.kind in (OpKind.MIN, OpKind.MAX):
            pred = "slt" if result.signed else "ult"
            lt = self.cmpi(pred, cv, av, w) if op.kind == OpKind.MIN else self.cmpi(pred, av, cv, w)
            return self.select(op, [lt, cv, av])
        raise unsupported(op, f"fixed-point {op.kind}")

    def align(self, v: str, t: FixedType, frac: int, width: int) -> str:
        """A raw fixed value at `frac` fraction bits (frac >= t's) in a `width`-bit integer."""
        wide = self.resize(v, t, width)
        shift = frac - t.frac_bits
        return self.int_op("arith.shli", wide, self.const(shift, width), width) if shift else wide

    # ---- comparisons, logic, unary, select, math -----------------------------------------------

    @rule(CompareOp)
    def compare(self, op: CompareOp, args: list[str]) -> str:
        (a, c), (ta, tb) = args, (op.operands[0].type, op.operands[1].type)
        signed_pred, unsigned_pred, float_pred = CMP_PREDICATES[op.kind]
        if isinstance(ta, FloatType):
            return self.b.op("arith.cmpf", f"{float_pred}, {a}, {c}", mlir_type(ta), op.result.name)
        if isinstance(ta, FixedType) or isinstance(tb, FixedType):
            fa, fb = fixed_of(ta), fixed_of(tb)
            frac = max(fa.frac_bits, fb.frac_bits)
            w = max(fa.width + frac - fa.frac_bits, fb.width + frac - fb.frac_bits) + 1
            a, c, signed = self.align(a, fa, frac, w), self.align(c, fb, frac, w), fa.signed or fb.signed
        else:
            joined = int_union(as_int(ta), as_int(tb))
            w, signed = joined.width, joined.signed
            a, c = self.resize(a, ta, w), self.resize(c, tb, w)
        pred = signed_pred if signed else unsigned_pred
        return self.b.op("arith.cmpi", f"{pred}, {a}, {c}", f"i{w}", op.result.name)

    @rule(LogicOp)
    def logic(self, op: LogicOp, args: list[str]) -> str:
        return self.int_op(op.kind.mlir_int[0], *args, 1, op.result.name)

    @rule(UnaryOp)
    def unary(self, op: UnaryOp, args: list[str]) -> str:
        (a,), src, result = args, op.operands[0].type, op.result.type
        if op.kind == OpKind.NOT:
            return self.int_op("arith.xori", a, self.const(1, 1), 1, op.result.name)
        if isinstance(result, FloatType):
            name = op.kind.mlir_float
            return self.b.op(name, a, mlir_type(result), op.result.name)
        w = result.width  # ints and fixed alike: the raw value, one bit wider, keeps the binary point
        av = self.resize(a, src, w)
        if op.kind == OpKind.INVERT:
            return self.int_op("arith.xori", av, self.const(-1, w), w, op.result.name)
        negated = self.int_op("arith.subi", self.const(0, w), av, w, op.result.name)
        if op.kind == OpKind.NEG:
            return negated
        return self.select(op, [self.cmpi("slt", av, self.const(0, w), w), negated, av])

    @rule(MathOp)
    def math(self, op: MathOp, args: list[str]) -> str:
        return self.b.op(MATH_OPS[op.func], ", ".join(args), mlir_type(op.result.type), op.result.name)

    # ---- conversions ---------------------------------------------------------------------------

    @rule(CastOp)
    def cast(self, op: CastOp, args: list[str]) -> str:
        return convert(self, op, args[0])  # conversions live beside the fixed-point rules they share
