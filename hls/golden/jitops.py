"""The lines of Python that numba compiles for one IR operation (the compiled golden model, jit.py).

Every integer travels as int64 and every IR integer type within 64 signed bits holds its values
exactly, so int64 arithmetic is the exact arithmetic of Python mode; conversions write the wrap
as integer ops (mask, then the sign). A wide value (an exact type over 64 bits, allowed only
under ring operations) is computed modulo 2**64 with a flag that says it is also exact; its
arithmetic goes through uint64, because numba marks signed adds `nsw` (an overflow would be
undefined, and LLVM may drop an overflow test written on its result).
"""

from __future__ import annotations

from hls.golden.vplan import native_ok
from hls.ir.bitops import BitUnaryKind
from hls.ir.kinds import OpKind
from hls.types import BoolType, FloatType, IntType, ScalarType

RING = frozenset({OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.AND, OpKind.OR, OpKind.XOR, OpKind.NEG,
                  OpKind.INVERT})
INFIX = {OpKind.ADD: "+", OpKind.SUB: "-", OpKind.MUL: "*", OpKind.DIV: "/", OpKind.FLOORDIV: "//",
         OpKind.MOD: "%", OpKind.AND: "&", OpKind.OR: "|", OpKind.XOR: "^"}
CMP = {OpKind.LT: "<", OpKind.LE: "<=", OpKind.GT: ">", OpKind.GE: ">=", OpKind.EQ: "==", OpKind.NE: "!="}
INT64_MIN = -(1 << 63)


def wide(t: object) -> bool:
    """An integer type whose values int64 does not hold (its ops run modulo 2**64 with a flag)."""
    return isinstance(t, IntType) and not native_ok(t)


def as_int(name: str, t: object) -> str:
    """A bool operand of integer arithmetic counts as 0/1, as in Python."""
    return f"np.int64({name})" if isinstance(t, BoolType) else name


def numba_type(t: FloatType) -> str:
    return "float32" if t.bits == 32 else "float64"


def const_text(value: object, t: ScalarType) -> str:
    if isinstance(t, IntType):
        return repr(int(value))
    if isinstance(t, BoolType):
        return repr(bool(value))
    v = float(t.convert(value))
    if v != v:
        text = "np.nan"
    elif v in (float("inf"), float("-inf")):
        text = "np.inf" if v > 0 else "-np.inf"
    else:
        text = repr(v)
    return f"np.{numba_type(t)}({text})"


def wrap_text(name: str, t: IntType) -> str:
    """`name` (an int64 holding the exact value modulo 2**64) wrapped to `t`, as integer ops."""
    if t.signed and t.width >= 64:
        return name
    mask = (1 << t.width) - 1
    if not t.signed:
        return f"({name} & {mask})"
    half = 1 << (t.width - 1)
    return f"((({name} & {mask}) ^ {half}) - {half})"  # the low bits, then the sign bit extended


def overflow_text(kind: OpKind, out: str, a: str, b: str | None) -> str | None:
    """When the int64 result of a ring op differs from the exact one (operands exact)."""
    if kind is OpKind.ADD:
        return f"(({a} ^ {out}) & ({b} ^ {out})) < 0"
    if kind is OpKind.SUB:
        return f"(({a} ^ {b}) & ({a} ^ {out})) < 0"
    if kind is OpKind.MUL:
        return f"not ({a} == 0 or (({b} != {INT64_MIN}) if {a} == -1 else ({out} // {a} == {b})))"
    if kind is OpKind.NEG:
        return f"{a} == {INT64_MIN}"
    return None


def exact_lines(kind: OpKind, out: str, args: list[str], flags: list[str | None]) -> list[str]:
    terms = [f for f in flags if f is not None]
    overflow = overflow_text(kind, out, args[0], args[1] if len(args) > 1 else None)
    if overflow is not None:
        terms.append(f"not ({overflow})")
    return [f"e{out} = {' and '.join(terms) if terms else 'True'}"]


def binary_lines(kind: OpKind, out: str, args: list[str], types: list[object], t: ScalarType,
                 flags: list[str | None]) -> list[str]:
    a, b = args
    if isinstance(t, IntType):
        a, b = as_int(a, types[0]), as_int(b, types[1])
    if kind in (OpKind.FLOORDIV, OpKind.MOD) and isinstance(t, IntType):
        lines = [f"if {b} == 0:", "    raise ZeroDivisionError('integer division or modulo by zero')",
                 f"{out} = {a} {INFIX[kind]} {b}"]
    elif kind in (OpKind.SHL, OpKind.SHR):
        lines = [f"if {b} < 0:", "    raise ValueError('negative shift count')"]
        if kind is OpKind.SHR:
            lines.append(f"{out} = {a} >> min({b}, 63)")
        else:
            lines.append(f"{out} = {wrap_text(f'np.int64(np.uint64({a}) << np.uint64({b}))', t)} if {b} < 64 "
                         "else np.int64(0)")
    elif kind is OpKind.MIN:
        lines = [f"{out} = {b} if {b} < {a} else {a}"]
    elif kind is OpKind.MAX:
        lines = [f"{out} = {b} if {a} < {b} else {a}"]
    elif wide(t) and kind in (OpKind.ADD, OpKind.SUB, OpKind.MUL):  # modulo 2**64: unsigned ops wrap by definition
        lines = [f"{out} = np.int64(np.uint64({a}) {INFIX[kind]} np.uint64({b}))"]
    else:
        lines = [f"{out} = {a} {INFIX[kind]} {b}"]
    if wide(t):
        lines += exact_lines(kind, out, [a, b], flags)
    return lines


def unary_lines(kind: OpKind, out: str, args: list[str], types: list[object], t: ScalarType,
                flags: list[str | None]) -> list[str]:
    a = as_int(args[0], types[0]) if isinstance(t, IntType) else args[0]
    if kind is OpKind.NOT:
        return [f"{out} = not {a}"]
    text = {OpKind.NEG: f"np.int64(np.uint64(0) - np.uint64({a}))" if wide(t) else f"-{a}",
            OpKind.INVERT: f"~{a}", OpKind.ABS: f"abs({a})"}[kind]
    lines = [f"{out} = {text}"]
    if wide(t):
        lines += exact_lines(kind, out, [a], flags)
    return lines


def math_lines(func: OpKind, out: str, args: list[str], types: list[object], t: FloatType,
               externs: set[str]) -> list[str]:
    """std::exp(float) is expf: the same C library function Python mode calls (runtime.libm)."""
    name = func.value + ("f" if t.bits == 32 else "")
    externs.add(name)
    converted = [f"np.{numba_type(t)}({as_int(a, at)})" for a, at in zip(args, types, strict=True)]
    return [f"{out} = {name}({', '.join(converted)})"]


def extern_decl(name: str) -> str:
    kind = "float32" if name.endswith("f") and name != "pow" else "float64"
    count = 2 if name.startswith("pow") else 1
    return f"{name} = types.ExternalFunction({name!r}, types.{kind}({', '.join([f'types.{kind}'] * count)}))"


def cast_lines(out: str, arg: str, src: object, t: ScalarType, slot: int | None, exact: str | None) -> list[str]:
    """Assignment to `t`; a reported conversion (`slot`) records its first wrap: order, before, after."""
    if isinstance(t, FloatType):
        return [f"{out} = np.{numba_type(t)}({as_int(arg, src)})"]
    if isinstance(t, BoolType):
        return [f"{out} = {arg}" if isinstance(src, BoolType) else f"{out} = {arg} != 0"]
    if wide(t):  # from a value int64 holds (exactly, or modulo 2**64 with its flag): nothing wraps
        lines = [f"{out} = {as_int(arg, src)}"]
        if slot is not None and exact is not None:
            lines += [f"if REC and not {exact}:", "    raise ArithmeticError('inexact')"]
        return lines
    lines = []
    before = f"b{out}"
    if isinstance(src, FloatType):
        lines += [f"if not abs({arg}) < 2.0 ** 63:",
                  "    raise ValueError('float-to-integer conversion is defined for |x| < 2**63 only')",
                  f"{before} = np.int64({arg})"]
    else:
        lines.append(f"{before} = {as_int(arg, src)}")
    lines.append(f"{out} = {wrap_text(before, t)}")
    if slot is None or isinstance(src, FloatType) or isinstance(src, IntType) and t.contains(src):
        return lines
    lines.append("if REC:")
    if exact is not None:  # a wide value that is not exact: Python mode computes the report
        lines += [f"    if not {exact}:", "        raise ArithmeticError('inexact')"]
    return lines + [f"    if {out} != {before} and EV[{slot}, 0] < 0:",
                    f"        EV[{slot}, 0] = EV[EV.shape[0] - 1, 0]",
                    "        EV[EV.shape[0] - 1, 0] += 1",
                    f"        EV[{slot}, 1] = {before}",
                    f"        EV[{slot}, 2] = {out}"]


# ---- bit access (hls.golden.bits on integers up to 63 bits: their patterns are non-negative int64s) ---------


def raw_text(name: str, t: object) -> str:
    """The unsigned bit pattern of an int (bits.raw_bits), as a non-negative int64."""
    return f"np.int64({name})" if isinstance(t, BoolType) else f"({name} & {(1 << t.width) - 1})"


def index_lines(index: str, width: int) -> list[str]:
    return [f"if {index} < 0 or {index} >= {width}:",
            f"    raise IndexError('bit index out of range for a {width}-bit value')"]


def bit_lines(op: object, out: str, args: list[str], types: list[object], t: ScalarType) -> list[str]:
    """BitGetOp, BitSetOp, SliceOp, SliceSetOp, ConcatOp and BitUnaryOp, as hls.golden.bits defines them."""
    name = type(op).__name__
    raw = raw_text(args[0], types[0])
    if name == "BitGetOp":
        return [*index_lines(args[1], types[0].width), f"{out} = (({raw} >> {args[1]}) & 1) != 0"]
    if name == "BitSetOp":
        bits = f"({raw} & ~(1 << {args[1]})) | ((np.int64({args[2]}) & 1) << {args[1]})"
        return [*index_lines(args[1], types[0].width), f"{out} = {wrap_text(f'({bits})', t)}"]
    if name == "SliceOp":
        return [f"{out} = ({raw} >> {op.lo}) & {(1 << (op.hi - op.lo)) - 1}"]
    if name == "SliceSetOp":
        lo, hi = op.lo, op.hi
        mask = ((1 << (hi - lo)) - 1) << lo
        return [f"{out} = {wrap_text(f'(({raw} & {~mask}) | (({args[1]} << {lo}) & {mask}))', t)}"]
    if name == "ConcatOp":
        lines = [f"{out} = 0"]
        for arg, at in zip(args, types, strict=True):
            lines.append(f"{out} = ({out} << {1 if isinstance(at, BoolType) else at.width}) | {raw_text(arg, at)}")
        return lines
    return unary_bit_lines(op.kind, out, raw, types[0].width)


def unary_bit_lines(kind: BitUnaryKind, out: str, raw: str, width: int) -> list[str]:
    """popcount, clz and reverse as a loop over the bits."""
    if kind is BitUnaryKind.REVERSE:
        return [f"{out} = 0", f"for q{out} in range({width}):",
                f"    {out} = ({out} << 1) | (({raw} >> q{out}) & 1)"]
    count = kind is BitUnaryKind.POPCOUNT
    lines = [f"p{out} = {raw}", f"{out} = 0" if count else f"{out} = {width}", f"while p{out} != 0:"]
    step = f"{out} += p{out} & 1" if count else f"{out} -= 1"
    return lines + [f"    {step}", f"    p{out} >>= 1"]
