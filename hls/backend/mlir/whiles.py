"""`scf.while` for the IR's `while` loops and for `range` loops that may exit early (`break`/`return`).

scf.for cannot stop early, so a `for` with an exit flag runs as a while loop over (counter, carried
values, flag): it continues while the counter is in range and the flag is clear. A `while` with an
early exit carries the flag too, and its condition is not evaluated once the flag is set (as in the
C++, where `if (flag) break;` ends the body first).
"""

from __future__ import annotations

from hls.backend.mlir.builder import Emitter, mlir_type
from hls.backend.mlir.loops import loop_attrs, loop_range
from hls.ir import ForOp, Value, WhileOp
from hls.ir.core import Block


def while_op(e: Emitter, op: WhileOp) -> None:
    b = e.b
    exits = len(op.body.terminator.operands) > len(op.carried)
    types = [mlir_type(v.type) for v in op.inits] + (["i1"] if exits else [])
    inits = [e.operand(v) for v in op.inits] + ([b.int_const(0, 1)] if exits else [])
    before = [b.fresh(a.name) for a in op.cond.args] + ([b.fresh("exit")] if exits else [])
    names = _header(e, [r.name for r in op.results] + (["exited"] if exits else []), before, inits, types)
    _open(e)
    for arg, name in zip(op.cond.args, before, strict=False):
        e.values[id(arg)] = name
    if exits:  # once the body set the flag, the condition is not evaluated again
        go = b.fresh("go")
        b.line(f"{go} = scf.if {before[-1]} -> (i1) {{")
        _open(e)
        b.line(f"scf.yield {b.int_const(0, 1)} : i1")
        _close(e)
        b.line("} else {")
        _open(e)
        cond = _ops_then_yield(e, op.cond)
        b.line(f"scf.yield {cond[0]} : i1")
        _close(e)
        b.line("}")
    else:
        go = _ops_then_yield(e, op.cond)[0]
    b.line(f"scf.condition({go}) {', '.join(before)} : {', '.join(types)}")
    _close(e)
    b.line("} do {")
    after = [b.fresh(a.name) for a in op.carried] + ([b.fresh("exit")] if exits else [])
    b.line(f"^bb0({_args(after, types)}):")
    _open(e)
    for arg, name in zip(op.carried, after, strict=False):
        e.values[id(arg)] = name
    yielded = _ops_then_yield(e, op.body)
    b.line(f"scf.yield {', '.join(yielded)} : {', '.join(types)}")
    _close(e)
    _close_loop(e, op)
    for r, n in zip(op.results, names, strict=False):
        e.values[id(r)] = n


def exit_for_op(e: Emitter, op: ForOp) -> None:
    """A `range` loop with an exit flag: counter, carried values and flag through an scf.while."""
    b = e.b
    start, stop, step, bind = loop_range(e, op)
    types = ["index"] + [mlir_type(v.type) for v in op.inits] + ["i1"]
    inits = [start] + [e.operand(v) for v in op.inits] + [b.int_const(0, 1)]
    before = [b.fresh(f"{op.iv.name}_n")] + [b.fresh(a.name) for a in op.carried] + [b.fresh("exit")]
    names = _header(e, [f"{op.iv.name}_end"] + [r.name for r in op.results] + ["exited"], before, inits, types)
    _open(e)
    in_range = b.op("arith.cmpi", f"slt, {before[0]}, {stop}", "index", "in_range")
    stay = b.op("arith.xori", f"{before[-1]}, {b.int_const(1, 1)}", "i1", "stay")
    go = b.op("arith.andi", f"{in_range}, {stay}", "i1", "go")
    b.line(f"scf.condition({go}) {', '.join(before)} : {', '.join(types)}")
    _close(e)
    b.line("} do {")
    after = [b.fresh(f"{op.iv.name}_n")] + [b.fresh(a.name) for a in op.carried] + [b.fresh("exit")]
    b.line(f"^bb0({_args(after, types)}):")
    _open(e)
    bind(after[0])
    for arg, name in zip(op.carried, after[1:], strict=False):
        e.values[id(arg)] = name
    yielded = _ops_then_yield(e, op.body)
    following = b.op("arith.addi", f"{after[0]}, {step}", "index", f"{op.iv.name}_next")
    b.line(f"scf.yield {', '.join([following, *yielded])} : {', '.join(types)}")
    _close(e)
    _close_loop(e, op)
    for r, n in zip(op.results, names[1:], strict=False):
        e.values[id(r)] = n


def _header(e: Emitter, hints: list[str | None], before: list[str], inits: list[str],
            types: list[str]) -> list[str]:
    """`results = scf.while (before-region arguments = inits) : (types) -> (types) {`; the result names."""
    names = [e.b.fresh(h) for h in hints]
    pairs = ", ".join(f"{n} = {i}" for n, i in zip(before, inits, strict=True))
    e.b.line(f"{', '.join(names)} = scf.while ({pairs}) : ({', '.join(types)}) -> ({', '.join(types)}) {{")
    return names


def _args(names: list[str], types: list[str]) -> str:
    return ", ".join(f"{n}: {t}" for n, t in zip(names, types, strict=True))


def _ops_then_yield(e: Emitter, block: Block) -> list[str]:
    """Emit a region's ops but its terminator; the SSA names the terminator yields."""
    for inner in block.ops[:-1]:
        e.op(inner)
    values: list[Value] = block.terminator.operands
    return [e.operand(v) for v in values]


def _open(e: Emitter) -> None:
    e.b.depth += 1
    e.b.push()


def _close(e: Emitter) -> None:
    e.b.pop()
    e.b.depth -= 1


def _close_loop(e: Emitter, op: ForOp | WhileOp) -> None:
    attrs = loop_attrs(op)
    e.b.line("} attributes" if attrs else "}", attrs=attrs)  # scf.while's attr-dict takes the keyword
