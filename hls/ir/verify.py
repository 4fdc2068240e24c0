"""Module verifier: every op's own checks plus SSA dominance in structured regions."""

from __future__ import annotations

from hls.ir.core import Block, Function, Module, Value, VerifyError
from hls.ir.ops import IfOp, ReturnOp


def verify_module(module: Module) -> None:
    if module.top not in module.functions:
        raise VerifyError(f"top function {module.top!r} missing")
    for func in module.functions.values():
        verify_function(func)


def verify_function(func: Function) -> None:
    visible: set[int] = {id(a) for a in func.args}
    _verify_block(func.body.block, visible, {}, top=True)


def _verify_block(block: Block, visible: set[int], users: dict[int, set[int]], top: bool = False) -> None:
    """`users` caches each value's users as a set: a constant used 10^5 times is checked in linear time."""
    scope = set(visible) | {id(a) for a in block.args}
    for index, op in enumerate(block.ops):
        if op.parent is not block:
            raise op.fail("parent link is stale")
        for value in op.operands:
            if id(value) not in scope:
                raise op.fail(f"uses {_label(value)} before its definition or outside its scope")
            known = users.get(id(value))
            if known is None:
                known = users[id(value)] = {id(user) for user in value.uses}
            if id(op) not in known:
                raise op.fail(f"use list of {_label(value)} is missing this op")
        if op.is_terminator and index != len(block.ops) - 1:
            raise op.fail("terminator in the middle of a block")
        if isinstance(op, ReturnOp) and not top:
            raise op.fail("return inside a region")
        op.verify()
        for region in op.regions:
            _verify_block(region.block, scope, users)
        if (op.is_loop or isinstance(op, IfOp)) and any(r.op is not op for r in op.results):
            raise op.fail("result ownership broken")
        scope |= {id(r) for r in op.results}


def _label(value: Value) -> str:
    return f"%{value.name or 'v'}"
