"""Python locals keep their names in the C++ (a part of FunctionEmitter, hls/backend/cpp/emit.py).

The IR is SSA: `acc = acc + x` makes a new value each time. A value named after a Python local is
written as a C++ variable of that name, and a re-assignment re-uses the variable (`acc = acc + x;`
instead of `int32_t acc_1 = ...`) when nothing reads the variable's current value afterwards:

- every value bound to the C++ name (the previous version, a loop init the loop took over, ...) has
  its uses at or before the assignment in program order, a use in the other branch of an `if` around
  both not counting;
- no such use sits in a loop around the assignment that the value comes from outside of (the next
  iteration would read it again), and the value is not the bound of a loop around it (the header
  reads the bound before every iteration);
- the result of a loop or `if` around the assignment that lives in this very variable does not count:
  the assignment is how that result gets its value;
- the new value has the variable's C++ type, and the variable is declared in an enclosing C++ scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hls.backend.ctype import CType
from hls.ir import ForOp, IfOp, LoadOp, WhileOp
from hls.ir.core import BlockArg, Op, OpResult, Value

LOOPS = (ForOp, WhileOp)
MAX_BOUND_VALUES = 64  # how far back through a bound's expression the walk looks


def bound_values(loop: ForOp) -> list[Value]:
    """The loop's bounds and the values they are computed from through pure ops and loads: an
    expression inlined into the loop header reads all of them before every iteration (`range(acc & 7)`
    with `acc //= 5` in the body must not write `acc` while the header still reads it)."""
    out: list[Value] = []
    work = [loop.lb, loop.ub, loop.step]
    while work and len(out) < MAX_BOUND_VALUES:
        value = work.pop()
        if any(value is seen for seen in out):
            continue
        out.append(value)
        op = defining_op(value)
        if op is not None and (op.pure or isinstance(op, LoadOp)):
            work.extend(op.operands)
    return out


def ancestors(op: Op) -> list[Op]:
    out = []
    parent = op.parent_op()
    while parent is not None:
        out.append(parent)
        parent = parent.parent_op()
    return out


def defining_op(value: Value) -> Op | None:
    if isinstance(value, OpResult):
        return value.op
    if isinstance(value, BlockArg) and value.block.parent is not None:
        return value.block.parent.parent  # a loop's carried argument: defined by the loop
    return None


class LocalNames:
    """Mixed into FunctionEmitter: `scopes` (C++ name -> ctype per open block), `readers` (C++ name ->
    the values bound to it) and `order` (op -> position in program order)."""

    scopes: list[dict[str, CType]]
    readers: dict[str, list[Value]]
    order: dict[int, int]

    def init_locals(self, func: Any) -> None:
        self.scopes = [{}]
        self.readers = {}
        self.order = {id(op): i for i, op in enumerate(func.walk())}

    @contextmanager
    def scope(self) -> Iterator[None]:
        self.scopes.append({})
        try:
            yield
        finally:
            self.scopes.pop()

    def declare_local(self, name: str, ctype: CType) -> None:
        self.scopes[-1][name] = ctype

    def note_reader(self, value: Value, reads: frozenset[str]) -> None:
        for name in reads:
            self.readers.setdefault(name, []).append(value)

    def reusable(self, hint: str | None, ctype: CType, at: Op, inside_ok: bool = False) -> str | None:
        """The C++ variable named `hint` when the value made at `at` may overwrite it (module docstring)."""
        if not hint or not any(hint in s and s[hint] == ctype for s in self.scopes):
            return None
        around = ancestors(at)
        bounds = [id(v) for loop in around if isinstance(loop, ForOp) for v in bound_values(loop)]
        for value in self.readers.get(hint, []):
            if id(value) in bounds:
                return None  # an inlined bound expression reads it before every iteration
            owner = defining_op(value)
            if isinstance(value, OpResult) and owner in around and isinstance(owner, (*LOOPS, IfOp)):
                continue  # the result of a loop or if around `at`, held in this variable
            if any(self.live_after(use, value, at, around, inside_ok) for use in value.uses):
                return None
        return hint

    def live_after(self, use: Op, value: Value, at: Op, around: list[Op], inside_ok: bool) -> bool:
        if isinstance(use, ForOp) and use in around and any(value is v for v in (use.lb, use.ub, use.step)):
            return True  # the loop's header reads its bound again before every iteration
        inside = inside_ok and (use is at or at in ancestors(use))  # read before the branch's assignment
        if not inside and self.order.get(id(use), -1) > self.order[id(at)] and not self.other_branch(use, at, around):
            return True
        owner = defining_op(value)
        inside = ancestors(owner) if owner is not None else []
        for loop in ancestors(use):
            if isinstance(loop, LOOPS) and loop in around and loop is not owner and loop not in inside:
                return True  # read again in the next iteration
        return False

    @staticmethod
    def other_branch(use: Op, at: Op, around: list[Op]) -> bool:
        """`use` and `at` sit in different branches of one `if`."""
        chain = [use, *ancestors(use)]
        for k, op in enumerate(chain[1:], start=1):
            if op in around or op is at:
                if isinstance(op, IfOp):
                    mine = next(b for b in (op.then_block, op.else_block) if b is chain[k - 1].parent)
                    theirs = next((b for b in (op.then_block, op.else_block)
                                   if any(x.parent is b for x in [at, *around])), None)
                    return theirs is not None and theirs is not mine
                return False
        return False
