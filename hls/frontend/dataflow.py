"""Dataflow regions: `hls.dataflow()` at the top of a kernel makes its body a region of processes.

The body after the directive is UG1399's canonical form: local stream and array declarations, then
processes (loops and sub-kernel calls). Vitis also accepts, with a message, what its "Dataflow
Optimization Limitations" (UG1399) list as limiting the overlap but not refused: a scalar computed in
the region from the kernel's scalars (each assigned once, so its value does not depend on where the
processes run), and the conditional execution of a task, an `if` whose branches are processes (the
`if` is one process; Python mode and csim run it as a thread, the branch taken or none).

Checked here, at the process's line: a FIFO with two producers or two consumers, a FIFO read and
written by one process, constant trip counts whose writes and reads of a FIFO do not balance.
A local array written by one process and read by a later one is a ping-pong buffer: the reader
starts when the writer is done (recorded for Python mode).
"""

from __future__ import annotations

import ast
from enum import Enum

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.conversions import ProcessRecord, RegionRecord
from hls.frontend.source import MISSING, call_target, try_static
from hls.frontend.streams import Streams
from hls.frontend.tasks import channel_of, lower_channel, refuse_nested_tasks
from hls.ir import CallOp, ForOp, IfOp, Op, StreamOp, Value
from hls.ir.traits import process_of
from hls.ir.usage import usage
from hls.lang.directives import DIRECTIVES, dataflow
from hls.types import ArrayType, StreamType

PROCESS_OPS = (ForOp, CallOp, IfOp)


class RegionStatement(Enum):
    """What one statement of a dataflow region is (`Dataflow.statement_kind`)."""

    PROCESS = "process"
    RETURN = "return"
    DECLARATION = "declaration"
    SCALAR = "scalar"
    DIRECTIVE = "directive"
    COMMENT = "comment"


def process_name(ops: list[Op]) -> str:
    """A loop's label or the callee's name; a conditional process is named after the first it runs."""
    for op in (inner for top in ops for inner in top.walk()):
        if isinstance(op, ForOp):
            return op.label or "loop"
        if isinstance(op, CallOp) and op.attrs.get("channel"):  # split_s, merge_out: after the stream it owns
            kind = op.attrs["channel"].split(".")[0]
            return f"{kind}_{(op.operands[0] if kind == 'split' else op.operands[-1]).name}"
        if isinstance(op, CallOp):
            return op.callee
    return "process"


class Dataflows(Family):
    """Dataflow regions: processes, their FIFOs and ping-pong arrays, checked at the line."""

    def __init__(self, ctx: BuildContext, arrays: Arrays, streams: Streams) -> None:
        super().__init__(ctx)
        self.arrays = arrays
        self.streams = streams

    def region_start(self, body: list[ast.stmt]) -> int | None:
        for index, stmt in enumerate(body):
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and call_target(stmt.value.func, self.ctx.src) is dataflow:
                return index
        return None

    def build_region(self, body: list[ast.stmt], start: int) -> None:
        """Visit a dataflow kernel's body, recording each process and checking the region."""
        for stmt in body[:start]:
            if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
                raise self.ctx.error("hls.dataflow() must come first in a dataflow kernel (directives may precede it)",
                                     stmt, UnsupportedError)
        processes: list[tuple[ast.stmt, str, list[Op]]] = []
        channels: set[Value] = set()  # the streams splits and merges own
        names: dict[str, int] = {}
        scalars: set[str] = set()
        for stmt in body[start:]:
            kind = self.statement_kind(stmt)
            if kind is RegionStatement.SCALAR:
                self.check_scalar(stmt, scalars)
            if kind is RegionStatement.RETURN:
                if stmt.value is not None:
                    raise self.ctx.error("a dataflow kernel cannot return a value; write results to a stream or array",
                                         stmt, UnsupportedError)
                continue
            before = len(self.ctx.block.ops)
            channel = channel_of(stmt, self.ctx)
            self.ctx.task_site = stmt.value if self.is_call_process(stmt) else None
            try:
                if channel is not None:
                    self.ctx.loc = self.ctx.src.loc(stmt)
                    lower_channel(self.ctx, channel, stmt.value, channels)
                else:
                    self.ctx.visit(stmt)
            finally:
                self.ctx.task_site = None
            if kind is not RegionStatement.PROCESS:
                continue
            ops = self.ctx.block.ops[before:]
            name = process_name(ops)
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:
                name = f"{name}_{names[name] - 1}"
            main = [op for op in ops if isinstance(op, PROCESS_OPS)]
            if len(main) != 1:
                raise self.ctx.error("a process is one loop or one sub-kernel call", stmt, UnsupportedError)
            main[0].attrs["process"] = name
            processes.append((stmt, name, ops))
        self.check_region(processes)
        if processes:  # Python mode runs the processes concurrently, with the region's FIFOs
            fifos = [name for name, var in self.ctx.env.items() if isinstance(getattr(var.value, "op", None), StreamOp)]
            self.ctx.conversions.add(self.ctx.src.tree, RegionRecord(tuple(fifos)))

    def statement_kind(self, stmt: ast.stmt) -> RegionStatement:
        if isinstance(stmt, ast.For):
            return RegionStatement.PROCESS
        if isinstance(stmt, ast.Return):
            return RegionStatement.RETURN
        if isinstance(stmt, ast.Assign) and (self.streams.is_stream_decl(stmt.value)
                                             or self.arrays.is_zeros_call(stmt.value)):
            return RegionStatement.DECLARATION
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and self.is_scalar_statement(stmt):
            return RegionStatement.SCALAR
        if isinstance(stmt, ast.If) and self.is_conditional_process(stmt):
            return RegionStatement.PROCESS
        if self.is_call_process(stmt) or channel_of(stmt, self.ctx) is not None:
            return RegionStatement.PROCESS
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            target = call_target(stmt.value.func, self.ctx.src)
            if getattr(target, "__name__", None) in DIRECTIVES:
                return RegionStatement.DIRECTIVE
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return RegionStatement.COMMENT
        raise self.ctx.error("a dataflow region holds stream and array declarations, loops and sub-kernel calls only "
                             "(UG1399 canonical form), scalars computed from the kernel's scalars, and an `if` whose "
                             "branches are processes; move this statement into a loop or a sub-kernel", stmt,
                             UnsupportedError)

    def is_call_process(self, stmt: ast.stmt) -> bool:
        return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
            and is_kernel(call_target(stmt.value.func, self.ctx.src))

    def is_conditional_process(self, stmt: ast.If) -> bool:
        """`if c: task(...)` (UG1399 "Conditional execution of tasks"): each branch holds processes only."""
        branches = [stmt.body] + ([stmt.orelse] if stmt.orelse else [])
        return all(isinstance(s, ast.For) or self.is_call_process(s)
                   or (isinstance(s, ast.If) and self.is_conditional_process(s)) for b in branches for s in b)

    def is_scalar_statement(self, stmt: ast.Assign | ast.AnnAssign) -> bool:
        """`name = expression` on scalars only: no subscript, no call of a kernel or a stream method."""
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name) or stmt.value is None:
            return False
        for node in ast.walk(stmt.value):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and try_static(node, self.ctx.src) is MISSING:
                return False
            var = self.ctx.env.get(node.id) if isinstance(node, ast.Name) else None
            if var is not None and (var.is_array or var.cell or isinstance(var.type, (ArrayType, StreamType))):
                return False
            if isinstance(node, ast.Call) and is_kernel(call_target(node.func, self.ctx.src)):
                return False
        return True

    def check_scalar(self, stmt: ast.Assign | ast.AnnAssign, scalars: set[str]) -> None:
        """A scalar of the region is assigned once: Python mode and csim compute it before the processes run."""
        name = (stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target).id
        if name in scalars or name in self.ctx.env:
            raise self.ctx.error(f"{name!r} is assigned twice in the dataflow region: a scalar of the region is "
                                 "computed once, before its processes run", stmt, UnsupportedError)
        scalars.add(name)

    def check_region(self, processes: list[tuple[ast.stmt, str, list[Op]]]) -> None:
        producer: dict[Value, tuple[str, int | None]] = {}
        consumer: dict[Value, tuple[str, int | None]] = {}
        writers: dict[Value, str] = {}
        for stmt, name, ops in processes:
            used = usage(ops, self.ctx.module)
            refuse_nested_tasks(self.ctx, stmt, ops)
            task = next((op.callee for op in ops if isinstance(op, CallOp) and op.attrs.get("task")), "")
            if task:  # a task runs its body any number of times: its counts are not the region's
                used.reads, used.writes = dict.fromkeys(used.reads), dict.fromkeys(used.writes)
            for stream in used.reads.keys() & used.writes.keys():
                raise self.ctx.error(f"process {name!r} both reads and writes FIFO {stream.name!r}: a FIFO joins two "
                                     "different processes of a dataflow region", stmt, HLSTypeError)
            for table, seen, role in ((used.writes, producer, "producer"), (used.reads, consumer, "consumer")):
                for stream, count in table.items():
                    if stream in seen:
                        raise self.ctx.error(f"FIFO {stream.name!r} has more than one {role} in the dataflow region: "
                                             f"{seen[stream][0]!r} and {name!r}", stmt, HLSTypeError)
                    seen[stream] = (name, count)
            after = sorted({writers[a] for a in used.array_reads if a in writers and writers[a] != name})
            for array in used.array_writes:
                if isinstance(array.type, ArrayType):
                    writers.setdefault(array, name)
            self.ctx.conversions.add(stmt, ProcessRecord(name, tuple(after), task))
            if after:  # csim waits too (hls_csim::region::after)
                next(op for op in ops if process_of(op) == name).attrs["after"] = tuple(after)
        for stream, (writer, written) in producer.items():
            if stream in consumer and isinstance(stream.type, StreamType):
                reader, read = consumer[stream]
                if written is not None and read is not None and written != read:
                    stmt = next(s for s, n, _ in processes if n == reader)
                    raise self.ctx.error(f"{writer} writes {written} items to {stream.name}, {reader} reads {read}: a "
                                         "dataflow region must consume every item its processes produce", stmt,
                                         HLSTypeError)
