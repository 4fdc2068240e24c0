"""Dead-code elimination: drop what no output depends on, so the C++ and the resource estimate carry
only live logic (folding and unrolling leave many dead constants, casts and branches behind).

Removed, to a fixpoint: side-effect-free ops whose results are unused (pure ops, loads, unused local
arrays); `if`s with no results and empty branches; `if` results nothing reads; loops with no results
and an empty body, or a constant trip count of zero; loop-carried values that nothing reads after the
loop and that only feed their own next iteration (a value that passes through unchanged is replaced
by its init).
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import AllocOp, ForOp, IfOp, LoadOp, Module, Value
from hls.ir.core import Block, Op
from hls.passes.clone import set_ops


def _side_effect_free(op: Op) -> bool:
    return (op.pure or isinstance(op, (LoadOp, AllocOp))) and not op.regions


def _dead(op: Op) -> bool:
    if _side_effect_free(op):
        return not any(r.uses for r in op.results)
    if isinstance(op, IfOp):
        return not op.results and len(op.then_block.ops) == 1 and len(op.else_block.ops) == 1
    if isinstance(op, ForOp):
        return not op.results and len(op.body.ops) == 1
    return False


def _self_feeding(loop: ForOp, slot: int) -> list[Op] | None:
    """The ops computing only the next value of carried `slot` from itself, or None if it feeds more."""
    term = loop.body.terminator
    found: dict[int, Op] = {}
    work: list[Value] = [loop.carried[slot]]
    while work:
        value = work.pop()
        for user in value.uses:
            if user is term:
                if any(v is value for i, v in enumerate(term.operands) if i != slot):
                    return None
            elif id(user) not in found:
                if not _side_effect_free(user):
                    return None
                found[id(user)] = user
                work.extend(user.results)
    return list(found.values())


def _drop_carried(loop: ForOp) -> bool:
    changed = False
    for slot in reversed(range(len(loop.results))):
        arg, result, init = loop.carried[slot], loop.results[slot], loop.inits[slot]
        if loop.body.terminator.operands[slot] is arg:  # never changes: it is its init throughout
            arg.replace_all_uses_with(init)
            result.replace_all_uses_with(init)
        if result.uses:
            continue
        feeding = _self_feeding(loop, slot)
        if feeding is None:
            continue
        loop.body.terminator.erase_operand(slot)
        for op in feeding:
            op.parent.remove(op)
        loop.body.erase_arg(slot + 1)
        loop.erase_operand(3 + slot)
        loop.erase_result(slot)
        changed = True
    return changed


def _drop_if_results(op: IfOp) -> bool:
    """An `if` result nothing reads (a flag or a variable dead after the branch) and its yields."""
    changed = False
    for index in reversed(range(len(op.results))):
        if not op.results[index].uses:
            for block in (op.then_block, op.else_block):
                block.terminator.erase_operand(index)
            op.erase_result(index)
            changed = True
    return changed


def _never_runs(loop: ForOp) -> bool:
    if loop.trip_count() != 0:
        return False
    for result, init in zip(loop.results, loop.inits, strict=True):
        result.replace_all_uses_with(init)
    return True


def _sweep(block: Block) -> bool:
    """One backward pass (users before their definitions), nested blocks first."""
    changed, kept = False, []
    for op in reversed(block.ops):
        for region in op.regions:
            changed |= _sweep(region.block)
        if isinstance(op, ForOp):
            changed |= _drop_carried(op)
        if isinstance(op, IfOp):
            changed |= _drop_if_results(op)
        if _dead(op) or isinstance(op, ForOp) and _never_runs(op):
            op.drop_operands()
            changed = True
        else:
            kept.append(op)
    set_ops(block, kept[::-1])
    return changed


@dataclass(frozen=True)
class EliminateDeadCodePass:
    name: str = "dce"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            while _sweep(func.body.block):
                pass
