"""What a stretch of IR does to streams and arrays, following sub-kernel calls to their parameters:
the facts dataflow checks (frontend), stream port directions (backend) and the trace need."""

from __future__ import annotations

from dataclasses import dataclass, field

from hls.ir.core import Function, Module, Op, Value
from hls.ir.kinds import OpKind
from hls.ir.ops import BinaryOp, CallOp, CastOp, ConstantOp, ForOp, IfOp, LoadOp, StoreOp, row_base
from hls.ir.stream_ops import STREAM_ACCESSES, STREAM_WRITES, ReadLockOp, StreamReadOp


@dataclass
class Usage:
    """What a stretch of IR does to its streams and arrays; counts are None when not constant."""

    reads: dict[Value, int | None] = field(default_factory=dict)
    writes: dict[Value, int | None] = field(default_factory=dict)
    array_reads: set[Value] = field(default_factory=set)
    array_writes: set[Value] = field(default_factory=set)
    blocking_reads: set[Value] = field(default_factory=set)  # FIFOs read with read() (not read_nb)

    def add(self, table: dict[Value, int | None], value: Value, count: int | None) -> None:
        if value in table:
            old = table[value]
            table[value] = None if old is None or count is None else old + count
        else:
            table[value] = count


def usage(ops: list[Op], module: Module, scale: int | None = 1, out: Usage | None = None) -> Usage:
    """Stream and array accesses of `ops`, following sub-kernel calls to their parameters."""
    out = out if out is not None else Usage()
    for op in ops:
        if isinstance(op, STREAM_ACCESSES):
            out.add(out.writes if isinstance(op, STREAM_WRITES) else out.reads, op.stream, scale)
            if isinstance(op, (StreamReadOp, ReadLockOp)):
                out.blocking_reads.add(op.stream)
        elif isinstance(op, LoadOp):
            out.array_reads.add(op.memref)
        elif isinstance(op, StoreOp):
            out.array_writes.add(op.memref)
        elif isinstance(op, ForOp):
            trips = trip_count(op)
            usage(op.body.ops, module, None if scale is None or trips is None else scale * trips, out)
        elif isinstance(op, IfOp):
            usage(op.then_block.ops, module, None, out)
            usage(op.else_block.ops, module, None, out)
        elif isinstance(op, CallOp) and op.attrs.get("channel"):  # hls.split / hls.merge: a task of any count
            ins = op.operands[:1] if op.attrs["channel"].startswith("split") else op.operands[:-1]
            for value in op.operands:
                out.add(out.reads if value in ins else out.writes, value, None)
        elif isinstance(op, CallOp):
            call_usage(op, module.functions[op.callee], module, scale, out)
        else:  # a while loop (or any other op with regions): accesses of unknown count
            for region in op.regions:
                usage(region.block.ops, module, None, out)
    return out


def call_usage(op: CallOp, callee: Function, module: Module, scale: int | None, out: Usage) -> None:
    inner = usage(callee.body.block.ops, module, scale)
    mapping = dict(zip(callee.args, op.operands, strict=True))
    for table, outer in ((inner.reads, out.reads), (inner.writes, out.writes)):
        for value, count in table.items():
            if value in mapping:
                out.add(outer, mapping[value], count)
    out.array_reads |= {a for v in inner.array_reads if (a := outer_array(v, mapping)) is not None}
    out.array_writes |= {a for v in inner.array_writes if (a := outer_array(v, mapping)) is not None}
    out.blocking_reads |= {mapping[v] for v in inner.blocking_reads if v in mapping}


def outer_array(value: Value, mapping: dict[Value, Value]) -> Value | None:
    """The caller's array a callee's access reaches: its parameter's argument, or for a row of a parameter
    the argument itself (the whole array: the row's place in it is the callee's)."""
    if value in mapping:
        return mapping[value]
    base = row_base(value)[0]
    return mapping.get(base)


FOLD = {k: k.fold for k in (OpKind.ADD, OpKind.SUB, OpKind.MUL)}
FOLD[OpKind.SHL] = lambda a, b: a << b if 0 <= b < 64 else None  # `range(1 << 20)`


def constant(value: Value) -> int | None:
    """An integer known before the passes run (`range(N + 1)` is still an add of constants then)."""
    op = getattr(value, "op", None)
    if isinstance(op, ConstantOp) and isinstance(op.value, int):
        return int(op.value)
    if isinstance(op, CastOp):
        return constant(op.operands[0])
    if isinstance(op, BinaryOp) and op.kind in FOLD:
        lhs, rhs = constant(op.lhs), constant(op.rhs)
        return None if lhs is None or rhs is None else FOLD[op.kind](lhs, rhs)
    return None


def trip_count(loop: ForOp) -> int | None:
    bounds = [constant(v) for v in (loop.lb, loop.ub, loop.step)]
    return None if None in bounds or bounds[2] == 0 else len(range(*bounds))


def stream_directions(func: Function, module: Module) -> dict[Value, str]:
    """"in" for each stream argument the function reads, "out" for one it writes."""
    used = usage(func.body.block.ops, module)
    return {arg: "in" if arg in used.reads else "out" if arg in used.writes else "unused" for arg in func.args}
