"""Affine index expressions and value ranges.

Dependence analysis needs array indices as `sum(coeff * symbol) + const`, where a symbol is the
pipelined loop's iteration number (ITER) or any value that stays fixed during one iteration (an outer
induction variable, a kernel argument). Two accesses whose indices differ only in the constant touch
the same element a fixed number of iterations apart: the dependence distance.

Trip counts of loops whose bounds depend on outer induction variables (`range(i + 1)`) need the
bounds' ranges; `value_range` evaluates them with interval arithmetic.
"""

from __future__ import annotations

from typing import Any

from hls.ir.kinds import OpKind

ITER = "<iteration>"  # the pipelined loop's iteration number, 0, 1, 2, ...


class Affine:
    """sum(terms[k] * k) + const over symbols k (ITER or an IR value held fixed)."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: dict[Any, int] | None = None, const: int = 0):
        self.terms = {k: v for k, v in (terms or {}).items() if v}
        self.const = const

    @staticmethod
    def symbol(key: Any) -> Affine:
        return Affine({key: 1}, 0)

    def __add__(self, other: Affine) -> Affine:
        terms = dict(self.terms)
        for key, coeff in other.terms.items():
            terms[key] = terms.get(key, 0) + coeff
        return Affine(terms, self.const + other.const)

    def __sub__(self, other: Affine) -> Affine:
        return self + other.scale(-1)

    def scale(self, factor: int) -> Affine:
        return Affine({k: v * factor for k, v in self.terms.items()}, self.const * factor)

    @property
    def is_const(self) -> bool:
        return not self.terms

    def coeff(self, key: Any) -> int:
        return self.terms.get(key, 0)

    def without(self, key: Any) -> Affine:
        return Affine({k: v for k, v in self.terms.items() if k != key}, self.const)

    def at(self, iteration: int) -> int:
        """Value at an iteration with every other symbol taken as 0 (for bank sampling)."""
        return self.const + self.coeff(ITER) * iteration

    def __repr__(self) -> str:
        parts = [f"{v}*{getattr(k, 'name', k)}" for k, v in self.terms.items()]
        return " + ".join([*parts, str(self.const)])


def combine(kind: OpKind | str, lhs: Affine | None, rhs: Affine | None) -> Affine | None:
    """The affine form of `lhs <kind> rhs`, or None when it is not affine."""
    if lhs is None or rhs is None:
        return None
    if kind == OpKind.ADD:
        return lhs + rhs
    if kind == OpKind.SUB:
        return lhs - rhs
    if kind == OpKind.MUL:
        if rhs.is_const:
            return lhs.scale(rhs.const)
        if lhs.is_const:
            return rhs.scale(lhs.const)
        return None
    if kind == OpKind.SHL and rhs.is_const and 0 <= rhs.const < 62:
        return lhs.scale(1 << rhs.const)
    return None


def trip_range(lb: tuple[int, int], ub: tuple[int, int], step: int | tuple[int, int]) -> tuple[int, int]:
    """Fewest and most iterations of range(lb, ub, step) over the given bound ranges. A step given as a
    range of one sign (a variable step): the largest magnitude bounds the fewest, the smallest the most."""
    fast, slow = (step, step) if isinstance(step, int) else (step[1], step[0]) if step[0] > 0 else step
    if fast > 0:
        low, high = len(range(lb[1], ub[0], fast)), len(range(lb[0], ub[1], slow))
    else:
        low, high = len(range(lb[0], ub[1], fast)), len(range(lb[1], ub[0], slow))
    return (low, max(low, high))


def signed_steps(step: tuple[int, int] | None) -> tuple[int, int] | int | None:
    """A step's value range as `trip_range` takes it: one value, or a range of one sign; None when the
    range holds 0 (a trip count the range cannot bound)."""
    if step is None or step[0] <= 0 <= step[1]:
        return None
    return step[0] if step[0] == step[1] else step


def induction_step(loop: Any, k: int) -> int | None:
    """The constant `c` when the loop's carried integer k is updated as `x = x + c` on every path of
    every iteration (a chain of constant adds, subtracts and integer casts back to x), else None.

    Such a scalar is an induction variable: LLVM's induction-variable simplification (SCEV, run by
    Vitis's front end before scheduling) rewrites it as init + c * iteration, so its accesses are as
    affine as the loop counter's (labB fft_stage_last: `j += 1` indexes X_R[j] and OUT_R[j])."""
    from hls.ir import BinaryOp, CastOp, ConstantOp
    from hls.types import IntType

    arg = loop.carried[k]
    if not isinstance(arg.type, IntType):
        return None
    value, step = loop.body.terminator.operands[k], 0
    while value is not arg:
        op = getattr(value, "op", None)
        if isinstance(op, CastOp) and isinstance(op.result.type, IntType):
            value = op.operands[0]
            continue
        if not isinstance(op, BinaryOp) or op.attrs["kind"] not in ("add", "sub"):
            return None
        consts = [isinstance(getattr(v, "op", None), ConstantOp) for v in op.operands]
        if consts[1] and isinstance(op.rhs.op.value, int):
            step += op.rhs.op.value if op.attrs["kind"] == "add" else -op.rhs.op.value
            value = op.lhs
        elif consts[0] and op.attrs["kind"] == "add" and isinstance(op.lhs.op.value, int):
            step += op.lhs.op.value
            value = op.rhs
        else:
            return None
    return step or None
