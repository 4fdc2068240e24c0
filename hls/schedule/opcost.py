"""IR op -> operator cost: which core or fabric operator Vitis binds each op to, by type and width."""

from __future__ import annotations

import math
import threading
from weakref import WeakKeyDictionary

from hls.ir import (
    AllocOp,
    BinaryOp,
    BitGetOp,
    BitSetOp,
    BitUnaryOp,
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
    Op,
    PrintOp,
    ReturnOp,
    RomOp,
    RowOp,
    SelectOp,
    StoreOp,
    UnaryOp,
    Value,
    WhileOp,
    YieldOp,
)
from hls.ir.bitops import BIT_OPS, BitUnaryKind
from hls.ir.kinds import BINARY, MATH, OpKind, kinds
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.schedule.memory import bit_width
from hls.schedule.oplib import OpCost, OpLib
from hls.types import FixedType, FloatType, IntType

_FLOAT_BINARY = {k: k.float_core for k in kinds(BINARY) if k.float_core}
_MATH = {k: k.float_core for k in kinds(MATH) if k.float_core}
# a constant with up to 2 non-zero digits in canonical signed-digit form (x*15 = (x << 4) - x) multiplies as
# shifts and one add or sub; ELEN226 loop_perfect: x*15, x*7 are subtractions, x*11, x*13, x*19 DSP MACs
MAX_SHIFT_ADD_TERMS = 2
_ROUNDING = ("AP_RND", "AP_RND_ZERO", "AP_RND_MIN_INF", "AP_RND_INF", "AP_RND_CONV", "AP_TRN_ZERO")


def chain(lib: OpLib, name: str, parts: list[OpCost]) -> OpCost:
    """Operators one after the other, as one: latencies add, chained delays add (registered once
    they no longer fit the usable period), areas add."""
    latency = sum(p.latency for p in parts)
    delay = sum(p.delay_ns for p in parts if p.latency == 0)
    if latency == 0 and delay > lib.usable_ns:
        latency, delay = 1, 0.0
    elif latency > 0:
        delay = 0.0
    first = parts[0] if parts else None  # a DSP's input stage and its wait for the fabric carry over
    return OpCost(name, latency, delay, sum(p.dsp for p in parts), sum(p.ff for p in parts),
                  sum(p.lut for p in parts), any(p.shareable for p in parts),
                  input_ns=first.input_ns if first is not None and first.latency > 0 else 0.0,
                  output_states=sum(p.output_states for p in parts))


def csd_digits(value: int) -> int:
    """Non-zero digits of `value` in canonical signed-digit (non-adjacent) form: the shifted terms a
    multiply by it needs when built from adders and subtractors (0 for 0)."""
    value, digits = abs(value), 0
    while value:
        if value & 1:
            digits += 1
            value -= 2 - (value & 3)  # digit +1 when value % 4 == 1, -1 when 3
        value >>= 1
    return digits


def _constant_operand(op: BinaryOp) -> int | None:
    for value in (op.rhs, op.lhs):
        const = getattr(value, "op", None)
        if isinstance(const, ConstantOp) and isinstance(const.value, int):
            return int(const.value)
    return None


def operand_width(value: Value) -> int:
    """Bits an integer operand really needs: a load from a ROM needs only what its values span (LLVM
    and Vitis shrink a constant table's words; wes237c FIR: a 32x32 product with 5-bit taps binds 2
    DSP48E1, not 4), through widening casts; other values their type's width."""
    op = getattr(value, "op", None)
    if isinstance(op, CastOp) and isinstance(value.type, IntType) and isinstance(op.operands[0].type, IntType) \
            and op.operands[0].type.width <= value.type.width:
        return min(bit_width(value.type), operand_width(op.operands[0]))
    if isinstance(op, LoadOp) and isinstance(getattr(op.memref, "op", None), RomOp) and isinstance(value.type, IntType):
        data = op.memref.op.data
        if data.size:
            low, high = int(data.min()), int(data.max())
            need = max(low.bit_length() + (low < 0), high.bit_length() + (low < 0 or high < 0))
            return max(1, min(bit_width(value.type), need))
    return bit_width(value.type)


def _variable_width(op: BinaryOp, wa: int, wb: int) -> int:
    """Width of the operand that is not the known constant (the one whose IR value is not constant)."""
    return wb if isinstance(getattr(op.lhs, "op", None), ConstantOp) else wa if isinstance(
        getattr(op.rhs, "op", None), ConstantOp) else max(wa, wb)


def _feeds_adder(op: BinaryOp) -> bool:
    """The product goes (through casts) into an add or sub: Vitis binds mul+add as one DSP48 MAC
    (`mac_muladd_*` cores; ELEN226 loop_perfect: 5x5-bit products accumulated on DSPs)."""
    users = list(op.result.uses)
    while users:
        user = users.pop()
        if isinstance(user, CastOp):
            users += user.result.uses
        elif isinstance(user, BinaryOp) and user.kind in (OpKind.ADD, OpKind.SUB):
            return True
    return False


def _product(value: Value) -> BinaryOp | None:
    """The multiply whose product `value` is (through single-use casts), if it is used only there."""
    while len(value.uses) == 1 and isinstance(getattr(value, "op", None), CastOp):
        value = value.op.operands[0]
    op = getattr(value, "op", None)
    return op if isinstance(op, BinaryOp) and op.kind == OpKind.MUL and len(value.uses) == 1 else None


def _mac_multiply(op: BinaryOp, lib: OpLib) -> BinaryOp | None:
    """The one-tile DSP multiply whose post-adder the add or sub `op` is: of two products the right-hand
    one (the other is a multiply of its own whose result enters the C port, as in ELEN226 inner_product
    solutions 3-5: `add_ln859 = add mul_ln859_1, mul_ln859`, mul_ln859 grouped into the DSP)."""
    if op.kind not in (OpKind.ADD, OpKind.SUB) or isinstance(op.result.type, FloatType):
        return None
    for value in (op.rhs, op.lhs):
        mul = _product(value)
        if mul is not None and not isinstance(mul.result.type, FloatType):
            cost = _multiply(mul, lib, None)
            if cost.dsp == 1 and cost.latency > 1:
                return mul
    return None


def _grouped(op: BinaryOp, lib: OpLib) -> bool:
    """The multiply `op` is the one its consuming add takes into its DSP48 as a MAC."""
    value = op.result
    while len(value.uses) == 1 and isinstance(value.uses[0], CastOp):
        value = value.uses[0].result
    user = value.uses[0] if len(value.uses) == 1 else None
    return isinstance(user, BinaryOp) and _mac_multiply(user, lib) is op


def _frac(t: object) -> int:
    return t.frac_bits if isinstance(t, FixedType) else 0


_DEMANDED = threading.local()  # .widths: Value -> bits, this thread's; made afresh by each schedule_module


def forget_demanded_widths() -> None:
    """Start afresh (the IR a cached value belonged to may have changed since). Per thread, so that
    estimates run side by side (hls.explore with a thread pool) never clear each other's table."""
    _DEMANDED.widths = WeakKeyDictionary()


def _keeps_low_bits(user: Op, t: object) -> bool:
    """The user's low result bits depend only on the value's low bits."""
    result = user.results[0].type if user.results else None
    if isinstance(user, CastOp) and isinstance(result, (IntType, FixedType)) and _frac(result) == _frac(t):
        return bit_width(result) >= bit_width(t) or getattr(result, "overflow", "AP_WRAP") == "AP_WRAP"
    return isinstance(user, BinaryOp) and user.kind in (OpKind.ADD, OpKind.SUB, OpKind.MUL) \
        and isinstance(result, (IntType, FixedType)) and _frac(result) == _frac(t) \
        and (user.kind != OpKind.MUL or _frac(result) == 0)


def _demanded_table() -> WeakKeyDictionary:
    if not hasattr(_DEMANDED, "widths"):
        forget_demanded_widths()
    return _DEMANDED.widths


def demanded_width(value: Value) -> int:
    """Low bits of an integer or ap_fixed value its users need (LLVM's demanded-bits analysis, which
    runs before Vitis binds operators: ELEN226 `acc += a[i] * b[i]` in ap_fixed<16,16> binds
    `mac_muladd_16s_16s_16ns_16`, not a 33-bit adder). The low n bits of a sum, difference or product
    depend only on the low n bits of operands with the result's binary point; a wrapping cast keeps the
    low bits; any other user needs every bit. Computed without recursion and remembered: an unrolled
    body chains thousands of sums."""
    known = _demanded_table()
    stack = [value]
    while stack:
        top = stack[-1]
        if top in known:
            stack.pop()
            continue
        t = top.type
        if not isinstance(t, (IntType, FixedType)) or not top.uses or \
                not all(_keeps_low_bits(user, t) for user in top.uses):
            known[top] = bit_width(t)
            stack.pop()
            continue
        waiting = [user.result for user in top.uses if user.result not in known]
        if waiting:
            stack.extend(waiting)
            continue
        known[top] = max(1, min(bit_width(t), max(known[user.result] for user in top.uses)))
        stack.pop()
    return known[value]


def _float_core(lib: OpLib, t: FloatType, base: str) -> OpCost:
    return lib.core(("f" if t.bits == 32 else "d") + base)


def _counter_bits(value: Value) -> int | None:
    """The bits a for loop's counter may have set inside its body (known bits of lb + step * k, k < trip:
    nothing at or above the last value's top bit, nothing below the trailing zeros of lb and step)."""
    block = getattr(value, "block", None)
    loop = getattr(getattr(block, "parent", None), "parent", None)
    if not isinstance(loop, ForOp) or not block.args or value is not block.args[0] or loop.const_bounds() is None:
        return None
    lb, _, step = loop.const_bounds()
    trip = loop.trip_count()
    if lb < 0 or step <= 0 or not trip:
        return None
    low = min((lb | (1 << 62)) & -(lb | (1 << 62)), step & -step)  # lowest bit lb or step can set
    return ((1 << (lb + step * (trip - 1)).bit_length()) - 1) & ~(low - 1)


def disjoint_add(op: BinaryOp) -> bool:
    """`i + c` where no set bit of the constant c can meet one of the counter i: LLVM's InstCombine makes it
    `or disjoint` from known bits, wires in the fabric (Stepaka lab5 sol1: `d_in[i + 128]`, `i + 256`,
    `i + 384` with i < 128; its Expression table has no adder for them, only a 9-LUT xor for i + 384)."""
    if op.kind != OpKind.ADD:
        return False
    for var, const in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        c = getattr(getattr(const, "op", None), "value", None) if isinstance(getattr(const, "op", None), ConstantOp) \
            else None
        bits = _counter_bits(var)
        if isinstance(c, int) and not isinstance(c, bool) and c >= 0 and bits is not None and not c & bits:
            return True
    return False


def _float_constant(value: Value) -> float | None:
    const = getattr(value, "op", None)
    if isinstance(const, ConstantOp) and isinstance(const.value, (float, int)) and not isinstance(const.value, bool):
        return float(const.value)
    return None


def float_identity(op: BinaryOp, constants: tuple = ()) -> bool:
    """`x * 1.0`, `x / 1.0`, `x + -0.0`, `x - 0.0`: exact identities in IEEE 754 that LLVM's InstCombine
    folds without fast-math before Vitis binds cores (aahwu labB fft_stage_first: twiddle (1.0, -0.0),
    the Bind Op report lists 4 fmul of the 8 written, every fadd/fsub kept; `x * -0.0` and `x + 0.0` are
    not identities and stay). `constants`: operand values known in this copy (folded ROM loads)."""
    lhs, rhs = _float_constant(op.lhs), _float_constant(op.rhs)
    known = [float(c) for c in constants if isinstance(c, float)]
    if op.kind == OpKind.MUL:
        return 1.0 in (lhs, rhs) or 1.0 in known
    if op.kind == OpKind.DIV:
        return rhs == 1.0
    if op.kind == OpKind.ADD:
        return any(c == 0.0 and math.copysign(1.0, c) < 0 for c in (lhs, rhs) if c is not None)
    if op.kind == OpKind.SUB:
        return rhs == 0.0 and math.copysign(1.0, rhs) > 0
    return False


def _binary(op: BinaryOp, lib: OpLib, known: int | None = None, constants: tuple = ()) -> OpCost:
    t = op.result.type
    kind = op.kind
    if isinstance(t, FloatType):
        if float_identity(op, constants):
            return lib.wire(f"f{kind}")
        if kind in _FLOAT_BINARY:
            return _float_core(lib, t, _FLOAT_BINARY[kind])
        if kind in (OpKind.MIN, OpKind.MAX):
            return chain(lib, f"f{kind}", [_float_core(lib, t, "cmp"), lib.mux(t.bits)])
        if kind == OpKind.FLOORDIV:
            return chain(lib, "ffloordiv", [_float_core(lib, t, "div"), _float_core(lib, t, "floor")])
        return chain(lib, "fmod", [_float_core(lib, t, "div"), _float_core(lib, t, "floor"),
                                   _float_core(lib, t, "mul"), _float_core(lib, t, "sub")])
    width = bit_width(t)
    wa, wb = operand_width(op.lhs), operand_width(op.rhs)
    if kind in (OpKind.ADD, OpKind.SUB):
        if disjoint_add(op):
            return lib.wire("or")
        if _mac_multiply(op, lib) is not None:
            return lib.post_adder(kind)
        return lib.adder(width, kind, demanded_width(op.result))
    if kind == OpKind.MUL:
        return _multiply(op, lib, known, _grouped(op, lib))
    if kind in (OpKind.DIV, OpKind.FLOORDIV, OpKind.MOD) and isinstance(getattr(op.rhs, "op", None), ConstantOp) \
            and isinstance(op.rhs.op.value, int) and op.rhs.op.value > 0:
        return _by_constant(lib, kind, width, wa, op.rhs.op.value)
    if kind in (OpKind.DIV, OpKind.FLOORDIV, OpKind.MOD):
        core = lib.divider(max(wa, wb))
        return core if kind == OpKind.DIV else chain(lib, kind, [core, lib.adder(width)])
    if kind in (OpKind.AND, OpKind.OR, OpKind.XOR):
        return lib.logic(width, kind)
    if kind.cost == "shifter":  # shifts and rotates: wiring by a constant, a barrel shifter otherwise
        return lib.wire(kind) if isinstance(getattr(op.rhs, "op", None), ConstantOp) else lib.shifter(width)
    if kind in (OpKind.MIN, OpKind.MAX):
        return chain(lib, kind, [lib.comparator(max(wa, wb)), lib.mux(width)])
    return chain(lib, "pow", [lib.multiplier(wa, wa), lib.multiplier(width, wa)])


def _multiply(op: BinaryOp, lib: OpLib, known: int | None, grouped: bool = False) -> OpCost:
    width = bit_width(op.result.type)
    wa, wb = operand_width(op.lhs), operand_width(op.rhs)
    constant = _constant_operand(op) if known is None else known
    if constant is not None and csd_digits(constant) <= MAX_SHIFT_ADD_TERMS:
        terms = csd_digits(constant)  # x*c as shifts and adds or subs in LUTs
        return chain(lib, "mul", [lib.adder(width, "mul") for _ in range(terms - 1)]) if terms > 1 \
            else lib.wire("mul")
    if constant is not None:  # the other operand's width against the constant's bits
        return lib.multiplier(max(wa, wb) if known is None else _variable_width(op, wa, wb),
                              abs(constant).bit_length() + (constant < 0), accumulated=_feeds_adder(op),
                              grouped=grouped)
    return lib.multiplier(wa, wb, accumulated=_feeds_adder(op), grouped=grouped,
                          out_width=min(width, demanded_width(op.result)) if isinstance(op.result.type, IntType)
                          else None)


def _by_constant(lib: OpLib, kind: str, width: int, wa: int, divisor: int) -> OpCost:
    """Integer division by a constant as LLVM lowers it before Vitis binds operators: a power of two is
    a shift (a mask for mod); another constant a multiply by its reciprocal, a shift and a correction
    add (Hacker's Delight ch. 10, LLVM TargetLowering::BuildSDIV/BuildUDIV); mod then multiplies back
    and subtracts."""
    if divisor & (divisor - 1) == 0:
        return lib.wire(kind) if kind != OpKind.MOD else lib.logic(width, "and")
    quotient = chain(lib, kind, [lib.multiplier(wa, wa + 1), lib.adder(wa)])
    if kind != OpKind.MOD:
        return quotient
    return chain(lib, kind, [quotient, lib.multiplier(wa, divisor.bit_length()), lib.adder(width)])


def _cast(op: CastOp, lib: OpLib) -> OpCost:
    src, dst = op.operands[0].type, op.result.type
    if isinstance(src, FloatType) and isinstance(dst, FloatType):
        if src.bits == dst.bits:
            return lib.wire("cast")
        return lib.core("fpext" if dst.bits > src.bits else "fptrunc")
    if isinstance(dst, FloatType):
        return lib.core("sitofp" if dst.bits == 32 else "sitodp")
    if isinstance(src, FloatType):
        return lib.core("fptosi" if src.bits == 32 else "dptosi")
    parts = []
    if isinstance(dst, FixedType):
        src_frac = src.frac_bits if isinstance(src, FixedType) else 0
        src_int = src.int_bits if isinstance(src, FixedType) else bit_width(src)
        if dst.quant in _ROUNDING and dst.frac_bits < src_frac:
            parts.append(lib.adder(dst.width, "round"))
        if dst.overflow != "AP_WRAP" and dst.int_bits < src_int:
            parts += [lib.comparator(bit_width(src)), lib.mux(dst.width)]
    return chain(lib, "quantize", parts) if parts else lib.wire("cast")


def _unary(op: UnaryOp, lib: OpLib) -> OpCost:
    t = op.result.type
    if isinstance(t, FloatType):
        return lib.wire(f"f{op.kind}")
    width = bit_width(t)
    if op.kind == OpKind.NEG:
        return lib.adder(width, "neg")
    if op.kind == OpKind.ABS:
        return chain(lib, "abs", [lib.adder(width, "neg"), lib.mux(width)])
    return lib.logic(width, op.kind)


def _bits(op: Op, lib: OpLib) -> OpCost:
    """Constant slices, concatenation, reversal and bitcasts are wires; a variable bit position is a
    multiplexer (read) or a decoder (write); bit counts are a tree of small adders, one level per
    doubling of the width."""
    width = bit_width(op.operands[0].type)
    if isinstance(op, BitUnaryOp) and op.kind in (BitUnaryKind.POPCOUNT, BitUnaryKind.CLZ):
        out = op.result.type.width
        return chain(lib, op.kind, [lib.adder(max(level, 1)) for level in range(1, out)] or [lib.wire(op.kind)])
    constant = isinstance(getattr(op.operands[1], "op", None), ConstantOp) if len(op.operands) > 1 else True
    if isinstance(op, BitGetOp) and not constant:
        return lib.mux(1, width)
    if isinstance(op, BitSetOp) and not constant:
        return lib.logic(width, "bit_set")
    return lib.wire(op.name)


class OpCoster(Walker):
    """The operator Vitis binds each compute op to (memories, FIFOs and control are the graph
    builder's: hls/schedule/graph.py)."""

    not_applicable = (ConstantOp, AllocOp, RomOp, RowOp, LoadOp, StoreOp, YieldOp, ForOp, WhileOp, IfOp, CallOp,
                      ReturnOp, DirectiveOp, PrintOp, StreamOp, FifoOp)

    @rule(BinaryOp)
    def binary(self, op: BinaryOp, lib: OpLib, constants: tuple) -> OpCost:
        return _binary(op, lib, next((c for c in constants if isinstance(c, int) and not isinstance(c, bool)),
                                     None), constants)

    @rule(CompareOp)
    def compare(self, op: CompareOp, lib: OpLib, constants: tuple) -> OpCost:
        t = op.operands[0].type
        if isinstance(t, FloatType) or isinstance(op.operands[1].type, FloatType):
            return _float_core(lib, t if isinstance(t, FloatType) else op.operands[1].type, "cmp")
        return lib.comparator(max(bit_width(t), bit_width(op.operands[1].type)))

    @rule(LogicOp)
    def logic(self, op: LogicOp, lib: OpLib, constants: tuple) -> OpCost:
        return lib.logic(1, op.kind)

    @rule(UnaryOp)
    def unary(self, op: UnaryOp, lib: OpLib, constants: tuple) -> OpCost:
        return _unary(op, lib)

    @rule(CastOp)
    def cast(self, op: CastOp, lib: OpLib, constants: tuple) -> OpCost:
        return _cast(op, lib)

    @rule(SelectOp)
    def select(self, op: SelectOp, lib: OpLib, constants: tuple) -> OpCost:
        return lib.mux(demanded_width(op.result))

    @rule(MathOp)
    def math(self, op: MathOp, lib: OpLib, constants: tuple) -> OpCost:
        if op.func == OpKind.FABS:
            return lib.wire("fabs")
        return _float_core(lib, op.result.type, _MATH[op.func])

    @rule(*BIT_OPS)
    def bits(self, op: Op, lib: OpLib, constants: tuple) -> OpCost:
        return _bits(op, lib)

    @rule(StructPackOp, StructGetOp)
    def wiring(self, op: Op, lib: OpLib, constants: tuple) -> OpCost:
        """Gathering fields into a struct word, or taking one out: wires."""
        return lib.wire(op.name)


OP_COSTER = OpCoster()


def op_cost(op: Op, lib: OpLib, constants: tuple = ()) -> OpCost:
    """The operator Vitis would bind `op` to (compute ops only; memories are in memory.py). `constants`
    are operand values known in this copy of the op (an unrolled induction variable, a folded ROM
    load), as LLVM would have propagated them."""
    return OP_COSTER.dispatch(op, lib, constants)
