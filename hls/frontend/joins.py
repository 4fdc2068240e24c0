"""The type of a local without a declared type: the join of every value assigned to it.

The builder records each assignment to an undeclared local (`Entry`); after a build of the function,
`settle` turns a local's entries into the one type that holds all of them, and the function is built
again with those types pinned until they no longer change (hls.frontend.builder). In straight-line
code the local holds each value in that value's own type; where paths join (after an `if`, around a
loop) and where a bare literal is assigned, it has the settled type. The IR carries both, and Python
mode converts where the IR does, so the two cannot differ.

- a bare literal adapts to the other values (`m = 0` then `m = v`, v a uint32: m is a uint32); a local
  only literals are assigned to is C's int32 (int64 if a literal needs it) or float64;
- int meets float: the float; int meets fixed point: a fixed type holding both; fixed meets float:
  an error asking for the conversion;
- an accumulation (`s = s + v`, `s += v`, `s -= v`, the local once as a term of a sum) is counted:
  over N executions its values lie in init + N * [min(0, step_lo), max(0, step_hi)], where N is the
  product of the trip counts of the loops that carry it (outside such loops it is a plain value), and the local gets the
  narrowest type holding that (at least int32 if it starts from literals); a trip count that is not
  known at compile time, or a result over 64 bits, is an error asking for a declaration;
- except a while loop's counter (`while i < n: ... i += 1`): its condition bounds it at the start of
  every iteration, so where every assignment to it in the loop is a step of one sign outside inner
  loops, its values reach max(n) - 1 plus the sum of the steps at most (`counter_bound`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hls.errors import HLSTypeError, Loc
from hls.ir import BinaryOp, CompareOp, ForOp, LogicOp, Value
from hls.ir.affine import signed_steps, trip_range
from hls.ir.kinds import OpKind
from hls.ir.ranges import value_range
from hls.types import (
    MAX_INT_WIDTH,
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    as_int,
    fixed_binop_type,
    fixed_of,
    float_join,
    int_union,
    literal_int_type,
)

MAX_ACC_WIDTH = 64  # an accumulator wider than this needs a declaration (it cannot cross the boundary)
MAX_ROUNDS = 18  # builds of one function before a type that keeps growing is reported (16 iterations)
INT32 = IntType(32, True)


@dataclass
class Entry:
    """One assignment to an undeclared local: the value's type or a bare literal's value, how often it
    runs in the loops that carry the local, and for an accumulation the range of its step."""

    type: ScalarType
    loc: Loc | None
    literal: Any = None
    step: tuple[Fraction, Fraction] | None = None
    count: int | None = 0  # executions in the loops that carry the local (0: none does; None: unbounded)
    loop: int = 0  # id() of the innermost loop around the assignment (0: none)
    bound: Fraction | None = None  # a counter's update bounded by its while condition: the furthest it reaches


def type_range(t: ScalarType) -> tuple[Fraction, Fraction]:
    """The least and greatest value of an integer, bool or fixed-point type."""
    if isinstance(t, BoolType):
        return Fraction(0), Fraction(1)
    if isinstance(t, IntType):
        return Fraction(t.min), Fraction(t.max)
    ulp = Fraction(1, 2 ** t.frac_bits) if t.frac_bits >= 0 else Fraction(2 ** -t.frac_bits)
    top = Fraction(2) ** (t.int_bits - (1 if t.signed else 0))
    return (-top if t.signed else Fraction(0)), top - ulp


def int_for_range(lo: int, hi: int) -> IntType:
    """The narrowest integer type holding [lo, hi] (unsigned when lo >= 0)."""
    if lo >= 0:
        return IntType(max(hi.bit_length(), 1), False)
    return IntType(max(literal_int_type(lo).width, literal_int_type(hi).width), True)


def fixed_for_range(lo: Fraction, hi: Fraction, frac: int) -> FixedType:
    """The narrowest fixed-point type with `frac` fraction bits holding [lo, hi]."""
    scale = 2 ** frac
    raw = int_for_range(int(lo * scale), int(hi * scale))
    return FixedType(raw.width, raw.width - frac, raw.signed)


def join(a: ScalarType, b: ScalarType) -> ScalarType | None:
    """The type holding every value of both, None where Python's meaning needs a conversion."""
    if a == b:
        return a
    if isinstance(a, FloatType) or isinstance(b, FloatType):
        return None if isinstance(a, FixedType) or isinstance(b, FixedType) else float_join(a, b)
    if isinstance(a, FixedType) or isinstance(b, FixedType):
        return fixed_binop_type("max", fixed_of(a), fixed_of(b))
    return int_union(as_int(a), as_int(b))


def with_literal(t: ScalarType, value: Any) -> ScalarType | None:
    """`t` widened to hold a bare literal too (None where the literal does not fit a fixed grid)."""
    if isinstance(t, FloatType):
        return t
    if isinstance(t, BoolType):
        t = as_int(t)  # `f = 0` and `f = a > b`: f holds 0 or True, Python's ints 0 and 1
    if isinstance(value, float):
        if not isinstance(t, FixedType):
            return FloatType(64)
        return t if t.convert(value) == value else None
    lo, hi = type_range(t)
    if lo <= value <= hi:
        return t
    if isinstance(t, FixedType):
        return fixed_binop_type("max", t, fixed_of(literal_int_type(int(value))))
    return int_for_range(int(min(lo, value)), int(max(hi, value)))


def literal_default(values: list[Any]) -> ScalarType:
    """A local only literals are assigned to: float64, or int32 (int64 when a literal needs it)."""
    if any(isinstance(v, float) for v in values):
        return FloatType(64)
    wide = any(not -(2 ** 31) <= v < 2 ** 31 for v in values)
    return IntType(64, True) if wide else INT32


def settle(name: str, entries: list[Entry]) -> ScalarType:
    """The one type of the undeclared local `name`, from every assignment the build recorded."""
    plain = [e for e in entries if e.step is None]
    steps = [e for e in entries if e.step is not None]
    typed = [e for e in plain if e.literal is None]
    if not typed:
        literals = [e.literal for e in plain if e.literal is not None]
        result: ScalarType | None = literal_default(literals) if literals else steps[0].type
    else:
        result = typed[0].type
        for e in typed[1:]:
            joined = join(result, e.type)
            if joined is None:
                floating = e.type if isinstance(e.type, FloatType) else result
                raise HLSTypeError(f"{name!r} is assigned {e.type} here and {result} elsewhere: fixed point and floats "
                                   f"do not mix implicitly; convert one, e.g. {name} = hls.{floating}(...)", e.loc)
            result = joined
        for e in plain:
            if e.literal is not None:
                widened = with_literal(result, e.literal)
                if widened is None:
                    raise HLSTypeError(f"{name!r} is a {result} elsewhere and {e.literal!r} is not on its grid; "
                                       f"write the value in that type: hls.{result}({e.literal!r})", e.loc)
                result = widened
    if steps and not isinstance(result, FloatType):
        start = type_range(result) if typed else (min(e.literal for e in plain), max(e.literal for e in plain))
        result = accumulated(name, result, steps, start, bool(typed))
    return result


def accumulated(name: str, init: ScalarType, steps: list[Entry], start: tuple[Any, Any], typed: bool) -> ScalarType:
    """The range `start` (of the values before any step) grown by every accumulation step times its
    count (module docstring), as a type at least as wide as `init`."""
    unsigned = start[0] >= 0 and all(e.step[0] >= 0 for e in steps)
    for e in steps:
        if e.count is None and e.bound is None:
            hint = suggest(init if isinstance(init, FixedType) else IntType(64, not unsigned))
            raise HLSTypeError(f"{name!r} accumulates in a loop whose trip count is not known at compile time, so "
                               f"no width holds every sum; declare it: {name} = hls.{hint}(0)", e.loc)
        if isinstance(e.type, FloatType):
            return e.type
    lo, hi = Fraction(start[0]), Fraction(start[1])
    for e in steps:  # a bounded counter moves monotonically from the other values towards its bound
        if e.bound is not None:
            lo, hi = min(lo, e.bound), max(hi, e.bound)
    for e in steps:
        if e.bound is not None:
            continue
        lo += e.count * min(Fraction(0), e.step[0])
        hi += e.count * max(Fraction(0), e.step[1])
    frac = max([init.frac_bits if isinstance(init, FixedType) else 0]
               + [e.type.frac_bits for e in steps if isinstance(e.type, FixedType)])
    if frac or any(isinstance(t, FixedType) for t in (init, *(e.type for e in steps))):
        result: ScalarType = fixed_for_range(lo, hi, frac)
    else:
        result = int_for_range(int(lo), int(hi))
        small = INT32.min <= lo and hi <= INT32.max
        result = INT32 if small and not typed and isinstance(init, IntType) else result
    if result.width > MAX_ACC_WIDTH:
        raise HLSTypeError(f"{name!r} accumulates to {result.width} bits (more than {MAX_ACC_WIDTH}); declare the "
                           f"type it should wrap in: {name} = hls.{suggest(result)}(0)", steps[0].loc)
    return result


def suggest(t: ScalarType) -> str:
    """The declaration an error proposes for an accumulator of type `t`."""
    if isinstance(t, FixedType):
        return f"ap_fixed[{min(t.width + 16, 1024)}, {t.int_bits + 16}]"
    return "uint64" if isinstance(t, IntType) and not t.signed else "int64"


def iterations(entries: list[Entry]) -> int | None:
    """How many iterations of the loops carrying a local its values can come from (None: unbounded).
    The k-th build's join holds every value k iterations reach, so after that many builds the types
    hold every value even where each iteration widens them (`acc = acc * 2 + j` three times)."""
    counts = [e.count for e in entries]
    return None if None in counts else max(counts, default=0)


def clamped(pins: dict[str, ScalarType]) -> bool:
    """A join reached the widest type (1024 bits): widths stop there, so the values may not fit."""
    return any(getattr(t, "width", 0) >= MAX_INT_WIDTH for t in pins.values())


def growth_error(name: str, entries: list[Entry]) -> HLSTypeError:
    """A local whose joined type still grows after MAX_ROUNDS builds (`a, b = b, a + b`, `x = x * 3`)."""
    loc = next((e.loc for e in entries if e.literal is None and e.count != 0),
               next((e.loc for e in entries if e.literal is None), entries[0].loc if entries else None))
    t = entries[-1].type if entries else INT32
    return HLSTypeError(f"the type of {name!r} grows with every assignment (its new value needs more bits than its "
                        f"old one); declare it: {name} = hls.{suggest(t)}(0)", loc)


def terms(value: Value, sign: int, out: list[tuple[Value, int]], depth: int = 0) -> list[tuple[Value, int]]:
    """`value` as a signed sum of terms (through + and -)."""
    op = getattr(value, "op", None)
    if isinstance(op, BinaryOp) and op.kind in (OpKind.ADD, OpKind.SUB) and depth < 32:
        terms(op.lhs, sign, out, depth + 1)
        terms(op.rhs, sign if op.kind == OpKind.ADD else -sign, out, depth + 1)
    else:
        out.append((value, sign))
    return out


def depends_on(value: Value, target: Value, budget: list[int]) -> bool:
    """`value` is computed from `target` (a bounded walk over operands: a deep tree counts as yes)."""
    if value is target:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return True
    op = getattr(value, "op", None)
    return op is not None and any(depends_on(v, target, budget) for v in op.operands)


def accumulation_step(value: Value, current: Value) -> tuple[Fraction, Fraction] | None:
    """The range added to `current` when `value` is `current` plus terms that do not depend on it."""
    if isinstance(value.type, FloatType):
        return None
    parts = terms(value, 1, [])
    if [sign for v, sign in parts if v is current] != [1]:
        return None
    lo = hi = Fraction(0)
    for v, sign in parts:
        if v is current:
            continue
        if depends_on(v, current, [256]) or not isinstance(v.type, (IntType, BoolType, FixedType)):
            return None
        found = value_range(v) if not isinstance(v.type, FixedType) else None
        a, b = (Fraction(found[0]), Fraction(found[1])) if found else type_range(v.type)
        lo, hi = (lo + a, hi + b) if sign > 0 else (lo - b, hi - a)
    return lo, hi


def trip_bound(loop: ForOp) -> int | None:
    """The most iterations `loop` runs: from its bounds, else from their ranges (enclosing loops, types)."""
    trips = loop.trip_count()
    if trips is not None:
        return trips
    lb, ub, step = value_range(loop.lb), value_range(loop.ub), signed_steps(value_range(loop.step))
    if lb is None or ub is None or step is None:
        return None
    return trip_range(lb, ub, step)[1]


def executions(name: str, loops: list[Any], carries: dict[int, set[str]]) -> int | None:
    """How often an accumulation of `name` runs: the product of the trip counts of the loops carrying it
    (0 when none does: outside such a loop `x = x + 1` is a value like any other, typed as it is)."""
    if not any(name in carries.get(id(loop), ()) for loop in loops):
        return 0
    count = 1
    for loop in loops:
        if name not in carries.get(id(loop), ()):
            continue
        trips = trip_bound(loop) if isinstance(loop, ForOp) else None
        if trips is None:
            return None
        count *= trips
    return count


def conjuncts(cond: Value, out: list[Value], depth: int = 0) -> list[Value]:
    """`cond` split at its `and`s: every part holds whenever `cond` does."""
    op = getattr(cond, "op", None)
    if isinstance(op, LogicOp) and op.kind == OpKind.LAND and depth < 32:
        for operand in op.operands:
            conjuncts(operand, out, depth + 1)
    else:
        out.append(cond)
    return out


FLIPPED = {OpKind.LT: OpKind.GT, OpKind.LE: OpKind.GE, OpKind.GT: OpKind.LT, OpKind.GE: OpKind.LE}


def counter_limit(part: Value, counter: Value) -> tuple[Any, tuple[int, int]] | None:
    """`counter < E` (`<=`, `>`, `>=`, either side) as (kind with the counter on the left, E's range)."""
    op = getattr(part, "op", None)
    if not isinstance(op, CompareOp) or op.kind not in FLIPPED:
        return None
    lhs, rhs = op.operands
    kind = op.kind if lhs is counter else FLIPPED[op.kind] if rhs is counter else None
    other = rhs if lhs is counter else lhs
    if kind is None or other is counter or not isinstance(other.type, (IntType, BoolType)):
        return None
    found = value_range(other)  # sound for every value E takes: its type's range at worst, never its first value
    return (kind, found) if found is not None else None


def counter_bound(cond: Value, counter: Value, updates: list[Entry], loop: int) -> Fraction | None:
    """The furthest a while loop's counter reaches, or None where the rule does not hold: the condition
    `cond` (in the loop's condition region, `counter` its block argument) bounds the counter at the start
    of every iteration, and every assignment of it in the iteration (`updates`) is a step of one sign
    outside any inner loop, so one iteration moves it by at most the sum of the steps beyond the bound."""
    if not updates or not isinstance(counter.type, (IntType, BoolType)):
        return None
    if any(e.loop != loop or e.step is None or e.bound is not None or not isinstance(e.type, IntType)
           for e in updates):
        return None
    up = sum(e.step[1] for e in updates) if all(e.step[0] >= 0 for e in updates) else None
    down = sum(e.step[0] for e in updates) if all(e.step[1] <= 0 for e in updates) else None
    ups: list[Fraction] = []  # each conjunct bounding an up-counter from above gives a reach
    downs: list[Fraction] = []
    for part in conjuncts(cond, []):
        limit = counter_limit(part, counter)
        if limit is None:
            continue
        kind, (lo, hi) = limit
        if kind in (OpKind.LT, OpKind.LE) and up is not None:
            ups.append(hi - (1 if kind == OpKind.LT else 0) + up)
        elif kind in (OpKind.GT, OpKind.GE) and down is not None:
            downs.append(lo + (1 if kind == OpKind.GT else 0) + down)
    if ups:
        return Fraction(min(ups))
    return Fraction(max(downs)) if downs else None
