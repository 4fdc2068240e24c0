"""`x if c else y` whose side reads memory: `scf.if`, so the side not taken is never loaded.

The IR computes both sides of a conditional expression and selects (`hls.select`), which is right for
pure values but not for a load: `A[i] if i < n else B[i - n]` (an `np.concatenate`, a guarded
boundary read) reads out of bounds on the side not taken, which MLIR leaves undefined while Python
and the C++ ternary never evaluate it. Where a side's value is computed by ops used by nothing else
and among them is a load, those ops move into that branch of an `scf.if` yielding the side.
"""

from __future__ import annotations

from hls.backend.mlir.builder import Emitter, elem_attrs, mlir_type
from hls.ir import ConstantOp, LoadOp, Value
from hls.ir.core import Op
from hls.ir.ops import SelectOp


def side_ops(select: SelectOp, side: Value, before: list[Op]) -> list[Op]:
    """The ops (in order) that compute `side` for this select only; the other side and the condition
    are outside it even where they share an op."""
    cone: set[int] = {id(select)}
    taken: list[Op] = []
    for op in reversed(before):
        if isinstance(op, ConstantOp) or len(op.results) != 1 or not (op.pure or isinstance(op, LoadOp)):
            continue
        result = op.result
        if result is side:
            if all(u is select for u in result.uses) and sum(v is side for v in select.operands) == 1:
                cone.add(id(op))
                taken.append(op)
        elif taken and result.uses and all(id(u) in cone and u is not select for u in result.uses):
            cone.add(id(op))
            taken.append(op)
    return taken[::-1]


def guarded_selects(ops: list[Op]) -> dict[int, tuple[list[Op], list[Op]]]:
    """id(select) -> the ops of its true and false sides, for each select a side of which loads."""
    found: dict[int, tuple[list[Op], list[Op]]] = {}
    for k, op in enumerate(ops):
        if isinstance(op, SelectOp):
            _, a, b = op.operands
            sides = (side_ops(op, a, ops[:k]), side_ops(op, b, ops[:k]))
            if any(isinstance(o, LoadOp) for side in sides for o in side):
                found[id(op)] = sides
    return found


def emit_ops(e: Emitter, ops: list[Op]) -> None:
    """The ops in order, a guarded select's side ops inside its `scf.if`."""
    guarded = guarded_selects(ops)
    moved = {id(o) for sides in guarded.values() for side in sides for o in side}
    for op in ops:
        if id(op) in moved:
            continue
        if id(op) in guarded:
            emit_guarded(e, op, guarded[id(op)])
        else:
            e.op(op)


def emit_guarded(e: Emitter, op: SelectOp, sides: tuple[list[Op], list[Op]]) -> None:
    b = e.b
    cond, *values = op.operands
    name = b.fresh(op.result.name)
    b.line(f"{name} = scf.if {e.operand(cond)} -> ({mlir_type(op.result.type)}) {{")
    for n, (side, value) in enumerate(zip(sides, values, strict=True)):
        if n:
            b.line("} else {")
        b.depth += 1
        b.push()
        emit_ops(e, side)
        e.terminator("scf.yield", [value])
        b.pop()
        b.depth -= 1
    b.line("}", attrs=elem_attrs(op.result.type))
    e.values[id(op.result)] = name
