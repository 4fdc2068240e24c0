"""Straight-line copies of scheduling regions, made by ordinary passes (the scheduler's view of the IR).

The scheduler times a pipelined loop's iteration, a pipelined function or a stretch of code between
loops as one block of operators. `extract` copies such a region into a function of its own (values
from outside become its arguments; constants and ROMs are copied in, so that folding sees them);
`straighten` then does on the copy what Vitis does before it schedules:

* every call is inlined (hls.passes.inline);
* every loop inside the region is fully unrolled, outermost first, so that an inner bound such as
  `range(k + 1)` is a constant once k is (UnrollLoopsPass's unroll, without relabelling: copies are
  never emitted); a loop in a branch that is never taken is left to folding;
* a ROM load at constant indices becomes its constant (hls.passes.romfold);
* then constant folding, CSE and DCE, and the module verifier.

A while loop, a loop with an early exit, or variable bounds cannot be unrolled: NotUnrollable names
the loop, and the region is scheduled without pipelining.
"""

from __future__ import annotations

from hls.errors import HLSError
from hls.ir import (
    CallOp,
    ConstantOp,
    ForOp,
    Function,
    IfOp,
    LoadOp,
    Module,
    ReturnOp,
    RomOp,
    Value,
    WhileOp,
    has_exit,
    verify_module,
)
from hls.ir.core import Block, Op
from hls.passes.clone import ValueMap, clone_op
from hls.passes.cse import EliminateCommonSubexpressionsPass
from hls.passes.dce import EliminateDeadCodePass
from hls.passes.evaluate import static_value
from hls.passes.fold import FoldConstantsPass
from hls.passes.inline import inline_call
from hls.passes.reassociate import ReassociateSumsPass
from hls.passes.romfold import rom_constant
from hls.passes.unroll import bind_bounds, unroll

MAX_REGION_OPS = 300_000


class NotUnrollable(HLSError):
    """A loop inside a pipelined region cannot be unrolled (a while loop, an early exit, variable bounds)."""

    def __init__(self, loop: Op, reason: str):
        self.loop = loop
        super().__init__(reason, loop.loc)


def _outside_values(ops: list[Op]) -> list[Value]:
    """Values the ops read that none of them defines, in order of first use."""
    inner: set[Value] = set()
    for op in ops:
        for nested in op.walk():
            inner.update(nested.results)
            for region in nested.regions:
                inner.update(region.block.args)
    outside: dict[Value, None] = {}
    for op in ops:
        for nested in op.walk():
            outside.update((v, None) for v in nested.operands if v not in inner)
    return list(outside)


def extract(ops: list[Op], name: str) -> tuple[Module, ValueMap]:
    """A module holding one function with copies of `ops` (no terminator), and the map from each
    original value to its copy. The function returns the copies of values read after the region."""
    outside = _outside_values(ops)
    args = [v for v in outside if not isinstance(getattr(v, "op", None), (ConstantOp, RomOp))]
    func = Function(name, [v.type for v in args], [v.name or "v" for v in args], None, ops[0].loc if ops else None)
    mapping: ValueMap = dict(zip(args, func.args, strict=True))
    block = func.body.block
    for value in outside:
        if value not in mapping:
            block.append(clone_op(value.op, mapping))
    copied = {id(nested) for op in ops for nested in op.walk()}
    for op in ops:
        block.append(clone_op(op, mapping))
    later = [r for op in ops for r in op.results if any(id(user) not in copied for user in r.uses)]
    block.append(ReturnOp([mapping[r] for r in later], ops[-1].loc if ops else None))
    module = Module(name)
    module.add(func)
    return module, mapping


class _Unroller:
    """Walks a block in program order, unrolling loops, inlining calls and folding ROM loads where met."""

    def __init__(self, library: Module, keep: Op | None, ops: int):
        self.library = library
        self.keep = keep  # the pipelined loop itself: its body is unrolled into, it stays a loop
        self.ops = ops

    def block(self, block: Block) -> None:
        index = 0
        while index < len(block.ops):
            op = block.ops[index]
            if isinstance(op, CallOp):
                self.inline(block, index, op)
                continue
            if op.is_loop and op is not self.keep:
                self.unroll(op)
                continue
            if isinstance(op, LoadOp):
                const = rom_constant(op)
                if const is not None:
                    op.result.replace_all_uses_with(const.result)
                    op.drop_operands()
                    const.parent, block.ops[index] = block, const
            elif isinstance(op, IfOp) and static_value(op.operands[0]) is not None:
                self.block(op.then_block if static_value(op.operands[0]) else op.else_block)
            else:
                for region in op.regions:
                    self.block(region.block)
            index += 1

    def inline(self, block: Block, index: int, call: CallOp) -> None:
        copies, values = inline_call(call, self.library.functions[call.callee])
        for result, value in zip(call.results, values, strict=True):
            result.replace_all_uses_with(value)
        call.drop_operands()
        for op in copies:
            op.parent = block
        block.ops[index:index + 1] = copies

    def unroll(self, loop: Op) -> None:
        label = loop.label
        if isinstance(loop, WhileOp):
            raise NotUnrollable(loop, f"while loop {label} cannot be unrolled inside a pipelined loop")
        if has_exit(loop):
            raise NotUnrollable(loop, f"loop {label} has a `break` or `return` and cannot be unrolled inside a "
                                      "pipelined loop")
        bind_bounds(loop)
        trip = loop.trip_count() if loop.const_bounds() is None or loop.const_bounds()[2] != 0 else None
        if trip is None:
            raise NotUnrollable(loop, f"loop {label} has variable bounds and cannot be unrolled inside a "
                                      "pipelined loop")
        size = sum(1 for op in loop.body.ops for _ in op.walk())
        self.ops += (trip - 1) * size
        if self.ops > MAX_REGION_OPS:
            raise HLSError(f"more than {MAX_REGION_OPS} operators in one schedule region", loop.loc)
        unroll(loop, trip, None)


def straighten(module: Module, library: Module, keep: ForOp | WhileOp | None = None) -> None:
    """Turn the one function of `module` (from `extract`) into straight-line code; `keep` is the
    pipelined loop whose body is straightened, `library` holds the callees."""
    func = module.top_function
    _Unroller(library, keep, sum(1 for _ in func.walk())).block(func.body.block)
    for p in (FoldConstantsPass(), EliminateCommonSubexpressionsPass(), ReassociateSumsPass(), EliminateDeadCodePass()):
        p.apply(module)
    verify_module(module)
