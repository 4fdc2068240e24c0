"""Where the C++ needs an explicit cast: the one decision the emitter, the expressions and the
assignments ask (issue 21: "a cast appears only where C++'s own conversions would compute something
else than the IR or would be undefined behaviour").

Every question is "does C++, left to itself, compute the IR's value here?", answered on C++ types:

- `operand_type`: a binary integer op or compare. Native operands are promoted by the usual
  arithmetic conversions (`promote`); when the promoted type holds both operands and the exact
  result, C++ computes the IR's value (Python integers are exact, the IR types are wide enough) and
  no cast is written. Otherwise both operands are widened to one type that holds all three. With an
  ap type involved the arithmetic widens exactly, but mixed signedness needs one common type.
- `assignment_type`: a value assigned (or returned, stored, passed) into a declared type. C++
  converts by itself where the conversion is the IR's: into an ap type (its converting constructor
  wraps modulo 2**W, as the IR does), into an unsigned native from a native integer (modulo 2**W by
  the standard), into a native type that holds every source value, into a signed native from a
  native integer: an explicit cast is the very same integral conversion (modulo 2**W: defined since
  C++20, and so defined by GCC and Clang, Vitis HLS's front end, before), so it would add nothing;
  fixed point is converted by the target's constructor (the half-lsb widening `fixed_source` does
  lives in expr.py, since an explicit cast needs it too).
- `implicit_conversion`: an IR CastOp whose conversion the assignment to a variable of its type
  makes by itself, so the cast is not written at all (`acc = acc + x` into an ap_int or ap_fixed).
- `modular_arith` / `unsigned_wrap`: an IR wrap of `x + y`, `x - y` or `x * y` into W bits, stored
  or assigned: written as C++'s own operator where its arithmetic wraps modulo 2**P, P >= W; where it
  would overflow a signed `int` instead (undefined), the right operand is made unsigned (`1u`, or
  one cast) so the operator wraps, and `hist[b] += 1` on an `int32_t` is `hist[b] += 1u`.
"""

from __future__ import annotations

from hls.backend.ctype import ApInt, CType, NativeInt, ctype_of, exact_ctype, promote
from hls.ir import CastOp, ForOp
from hls.ir.core import Op
from hls.ir.kinds import OpKind
from hls.types import BoolType, FixedType, FloatType, IntType, TypeFamily, int_union


def ir_int(value_type) -> IntType:
    """A bool as the 1-bit unsigned integer C++ promotes it to."""
    return IntType(1, False) if isinstance(value_type, BoolType) else value_type


def holds(c: CType, t: IntType) -> bool:
    """The C++ type `c` represents every value of IR integer type `t`."""
    ct = c.int_type
    return ct is not None and ct.contains(t)


def operand_type(a: CType, b: CType, ta, tb, result: IntType) -> CType | None:
    """The type both integer operands are cast to so that C++ computes the exact `result`; None when
    C++'s own arithmetic already does (module docstring)."""
    p = promote(a, b)
    xa, xb = ir_int(ta), ir_int(tb)
    if p is not None:
        if holds(p, result) and holds(p, xa) and holds(p, xb):
            return None
        return exact_ctype(int_union(result, int_union(xa, xb)))
    if xa.signed != xb.signed:
        return ctype_of(int_union(result, int_union(xa, xb)))
    return None


def literal_type(text: str, value_type, other):
    """The IR type `operand_type` weighs an operand by: a non-negative integer literal (`1`) against an
    unsigned `other` as the unsigned type of its bits, so that `flag == 1` on an `ap_uint<1>` is no
    mixed-signedness compare (an ap type compares and computes a non-negative value against either
    signedness exactly)."""
    if text.isdigit() and isinstance(value_type, IntType) and not isinstance(value_type, BoolType) \
            and not ir_int(other).signed:
        return IntType(max(1, int(text).bit_length()), False)
    return value_type


def assignment_type(source: CType, target_type, target: CType | None = None) -> CType | None:
    """The cast an assignment of a `source` value into `target_type` (held in C++ type `target`, its
    own by default) needs; None when the C++ assignment converts exactly as the IR does (module
    docstring). Fixed-point targets answer None: their constructor is the conversion."""
    target = target or ctype_of(target_type)
    if target.family in (TypeFamily.STRUCT, TypeFamily.FIXED):
        return None
    if source == target or isinstance(target, ApInt):
        return None
    if target.native and source.promotes and not target.signed:
        return None
    if target.native and source.native and target.int_type.contains(source.int_type):
        return None
    if target.native and target.signed and source.promotes:
        return None  # the integral conversion an explicit cast would make too (module docstring)
    if target.native and isinstance(source, ApInt) and holds(target, source.int_type):
        return None  # ap_int's conversion operator gives the value, which the native type holds
    return target


def implicit_conversion(op: Op) -> bool:
    """A CastOp the assignment to a variable of its type makes by itself: into an ap_fixed from an
    integer, fixed or float value, into an ap_int from an integer one (their converting constructors
    are the ones the explicit cast calls), into a native integer from an integer (modulo 2**W, the
    conversion the cast would make; `assignment_type` keeps the cast for an ap source)."""
    if not isinstance(op, CastOp):
        return False
    target, src = ctype_of(op.result.type), op.operands[0].type
    if target.family is TypeFamily.FIXED:
        return isinstance(src, (IntType, FixedType, FloatType)) and not isinstance(src, BoolType)
    if target.native and (not target.signed or target.family is TypeFamily.INT):
        return isinstance(src, (IntType, BoolType))
    return isinstance(target, ApInt) and isinstance(src, IntType)


MODULAR = (OpKind.ADD, OpKind.SUB, OpKind.MUL)
MODULAR_SYMBOLS = tuple(k.cpp for k in MODULAR)  # `x op= y` says `x = x op y` for these


def modular_arith(a: CType, b: CType, ta, tb, result, target_type) -> bool:
    """C++'s own `a op b` (+, - or *, no operand cast) assigned into integer `target_type` gives the
    IR's wrap of the exact result: the arithmetic is modulo 2**P with P at least the target's width
    (an unsigned native type after promotion: defined to wrap; a signed one may overflow, undefined),
    or exact (ap types of one signedness), and the ring maps mod 2**P onto mod 2**W."""
    if not isinstance(target_type, IntType) or isinstance(target_type, BoolType) or not isinstance(result, IntType):
        return False
    p = promote(a, b)
    if p is not None:
        return not p.signed and p.width >= target_type.width
    if a.family not in (TypeFamily.INT, TypeFamily.BOOL) or b.family not in (TypeFamily.INT, TypeFamily.BOOL):
        return False
    return ir_int(ta).signed == ir_int(tb).signed


def unsigned_wrap(a: CType, b: CType, target_type) -> NativeInt | None:
    """The unsigned native type the right operand of `a op b` (+, - or *, natives) is converted to
    where C++ would compute it in a signed type at least as wide as integer `target_type` (which may
    overflow: undefined): the usual conversions then make the whole operation unsigned, modulo 2**P
    with P at least the target's width, so that `modular_arith` holds (a literal takes the `u`
    suffix instead of a cast). None where C++'s own arithmetic needs no help or cannot be helped."""
    p = promote(a, b)
    if p is None or not p.signed or not isinstance(target_type, IntType) or isinstance(target_type, BoolType):
        return None
    return NativeInt(p.width, False) if p.width >= target_type.width else None


def accumulator_type(arg, update) -> CType | None:
    """The C++ type of a loop-carried signed local updated as `acc = acc op y` (+, - or *) with the IR
    wrapping the wider result back, or updated by an inner loop that does so to it: ap_int<W> of the
    same width, whose arithmetic is exact and whose assignment wraps, so `acc += y` needs no cast (a
    native `int32_t` would overflow, undefined, and need the widening casts). None where the
    declared native type needs none."""
    t = arg.type
    target = ctype_of(t) if isinstance(t, IntType) and not isinstance(t, BoolType) else None
    op = getattr(update, "op", None)
    if target is None or not target.native or not target.signed or update.type != t or len(update.uses) != 1:
        return None
    inner = op.body if isinstance(op, ForOp) else None
    if inner is not None:  # the update is an inner loop's result: that loop accumulates into it
        k = [id(r) for r in op.results].index(id(update))
        if op.inits[k] is not arg or len(arg.uses) != 1:
            return None
        return accumulator_type(op.carried[k], inner.ops[-1].operands[k])
    arith = getattr(op.operands[0], "op", None) if isinstance(op, CastOp) else None
    if getattr(arith, "kind", None) not in MODULAR or not any(arg is v for v in (arith.lhs, arith.rhs)):
        return None
    return ApInt(t.width, True) if len(arith.result.uses) == 1 else None
