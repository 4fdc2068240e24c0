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
from typing import Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.conversions import ProcessLoop, ProcessRecord, RegionRecord
from hls.frontend.source import MISSING, call_target, try_static
from hls.frontend.state import Var
from hls.frontend.streams import Streams
from hls.frontend.tasks import channel_of, lower_channel, refuse_nested_tasks
from hls.ir import BlockArg, CallOp, ConstantOp, ForOp, IfOp, Op, RowOp, StreamOp, Value, row_base
from hls.ir.traits import process_of
from hls.ir.usage import Usage, usage
from hls.lang.directives import DIRECTIVES, dataflow
from hls.lang.directives import unroll as unroll_directive
from hls.types import ArrayType, IntType, StreamType

PROCESS_OPS = (ForOp, CallOp, IfOp)
# (statement, process name, its ops, (the unrolled loop, the statement's index in it, the loop value) or None)
Process = tuple[ast.stmt, str, list[Op], "tuple[ast.For, int, Any] | None"]


# ---- feedback between processes --------------------------------------------------------------
# A channel read by a process earlier in call order than the process that writes it. UG1399 "Modeling
# Feedback in Dataflow Regions": a ping-pong (PIPO) buffer flows only forward in the call sequence, so a
# local array read before a later process writes it is refused (a kernel argument read by one process
# and written by a later one is an input read at the start and an output written at the end, as UG1399
# recommends). Through a FIFO the feedback is possible under two rules of the same section: the reader
# must not block on the FIFO before the writer has produced anything (it tests `empty()` or reads with
# `read_nb()`), and the FIFO must hold what the writer produces in one invocation (under ap_ctrl_chain
# the writer finishes before the reader can run again; a smaller depth needs a free-running region).

RULE = 'UG1399 "Modeling Feedback in Dataflow Regions"'


def overlaps(a: Value, b: Value) -> bool:
    """Whether two channels share elements: one array, an array and a row of it, or rows of one array at
    indices not known to differ (each compile-time row of a region is its own channel)."""
    base_a, at_a = row_base(a)
    base_b, at_b = row_base(b)
    if base_a is not base_b:
        return False
    for x, y in zip(at_a, at_b, strict=False):
        cx, cy = (v.op.value if isinstance(getattr(v, "op", None), ConstantOp) else None for v in (x, y))
        if cx is not None and cy is not None and cx != cy:
            return False
    return True


def shared(reads: set[Value], writes: set[Value]) -> list[tuple[Value, Value]]:
    """(read, written) pairs of channels that overlap, in a stable order."""
    return sorted(((r, w) for r in reads for w in writes if overlaps(r, w)),
                  key=lambda pair: (pair[0].name or "", pair[1].name or ""))


def check_feedback(ctx: BuildContext, stmt: ast.stmt, name: str, used: Usage,
                   later: list[tuple[Any, ...]], later_used: list[Usage],
                   writers: dict[Value, str], downstream: set[str]) -> None:
    """Refuse a channel process `name` reads that only a later process writes, unless it is a FIFO
    kept by UG1399's feedback rules, or a kernel argument updated in place by a process that the reader
    feeds through FIFOs (`downstream`: the processes its streams reach)."""
    for (_, writer, *_), theirs in zip(later, later_used, strict=True):
        for array, _ in shared(used.array_reads, theirs.array_writes):
            if any(overlaps(array, w) for w in writers) or any(overlaps(array, w) for w in used.array_writes):
                continue
            if not isinstance(row_base(array)[0], BlockArg):
                raise ctx.error(f"process {name!r} reads array {array.name!r} before process {writer!r} writes it: "
                                f"a ping-pong buffer flows only forward in call order ({RULE}); call {writer!r} "
                                "first, or pass the data back through a FIFO read with read_nb()", stmt, HLSTypeError)
            if writer not in downstream:
                raise ctx.error(f"process {name!r} reads argument {array.name!r} and the later process {writer!r} "
                                "writes it, with no FIFO from one to the other: the two run concurrently, so the "
                                "write may land before the read; update an argument in place only downstream of "
                                "its reader (read, stream, write), or write a separate output", stmt, HLSTypeError)
        for stream in used.reads.keys() & theirs.writes.keys():
            check_backward_fifo(ctx, stmt, name, writer, stream, used, theirs.writes[stream])


def check_backward_fifo(ctx: BuildContext, stmt: ast.stmt, reader: str, writer: str, stream: Value, used: Usage,
                        written: int | None) -> None:
    """A FIFO from a later process back to an earlier one: non-blocking reads, depth for one invocation."""
    what = f"FIFO {stream.name!r} goes back from process {writer!r} to the earlier process {reader!r}"
    if stream in used.blocking_reads:
        raise ctx.error(f"{what}, which reads it with read(): in a feedback loop the reader must not block before "
                        f"the writer has run ({RULE}); test it with empty() or read it with read_nb(), or reorder "
                        "the processes so the data flows forward", stmt, HLSTypeError)
    depth = stream.type.depth if isinstance(stream.type, StreamType) else None
    if written is not None and depth is not None and depth < written:
        raise ctx.error(f"{what} with depth {depth}, but {writer!r} writes {written} items in one run: a feedback "
                        f"FIFO holds everything its writer produces before the reader runs again ({RULE}); declare "
                        f"it with depth={written}", stmt, HLSTypeError)


def reached(start: int, processes: list[Process], used_by: list[Usage]) -> set[str]:
    """The names of the processes that process `start`'s written streams reach, transitively."""
    seen, todo = set(), [start]
    while todo:
        i = todo.pop()
        for j, theirs in enumerate(used_by):
            if j not in seen and used_by[i].writes.keys() & theirs.reads.keys():
                seen.add(j)
                todo.append(j)
    return {processes[j][1] for j in seen}


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
        for stmt in body[:start]:  # the Vitis diamond examples declare their streams before the pragma
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) or isinstance(stmt, ast.Assign) \
                    and (self.streams.is_stream_decl(stmt.value) or self.arrays.is_zeros_call(stmt.value)):
                self.ctx.visit(stmt)
                continue
            raise self.ctx.error("before hls.dataflow() a dataflow kernel holds only directives and the stream and "
                                 "array declarations of its region", stmt, UnsupportedError)
        processes: list[Process] = []
        channels: set[Value] = set()  # the streams splits and merges own
        names: dict[str, int] = {}
        scalars: set[str] = set()
        for stmt in body[start:]:
            if self.is_process_loop(stmt):
                self.unroll_processes(stmt, processes, names, channels)
                continue
            kind = self.statement_kind(stmt)
            if kind is RegionStatement.SCALAR:
                self.check_scalar(stmt, scalars)
            if kind is RegionStatement.RETURN:
                if stmt.value is not None:
                    raise self.ctx.error("a dataflow kernel cannot return a value; write results to a stream or array",
                                         stmt, UnsupportedError)
                continue
            if kind is RegionStatement.PROCESS:
                self.check_scalar_writes(stmt, scalars)
                self.add_process(stmt, processes, names, None, channels)
            else:
                self.ctx.visit(stmt)
        self.check_region(processes)
        if processes:  # Python mode runs the processes concurrently, with the region's FIFOs
            fifos = [name for name, var in self.ctx.env.items() if isinstance(getattr(var.value, "op", None), StreamOp)]
            self.ctx.conversions.add(self.ctx.src.tree, RegionRecord((*fifos, *self.streams.lists)))

    def add_process(self, stmt: ast.stmt, processes: list[Process], names: dict[str, int],
                    unrolled: tuple[ast.For, int, Any] | None, channels: set[Value]) -> None:
        """Visit one process statement and record it under a name unique in the region; a task is called
        only from the region itself (not from a loop of processes), a split or merge owns its FIFOs."""
        before = len(self.ctx.block.ops)
        channel = channel_of(stmt, self.ctx)
        self.ctx.task_site = stmt.value if self.is_call_process(stmt) and unrolled is None else None
        try:
            if channel is not None:
                self.ctx.loc = self.ctx.src.loc(stmt)
                lower_channel(self.ctx, channel, stmt.value, channels, self.streams.element)
            else:
                self.ctx.visit(stmt)
        finally:
            self.ctx.task_site = None
        ops = self.ctx.block.ops[before:]
        name = process_name(ops)
        names[name] = names.get(name, 0) + 1
        if names[name] > 1:
            name = f"{name}_{names[name] - 1}"
        main = [op for op in ops if isinstance(op, PROCESS_OPS)]
        if len(main) != 1:
            raise self.ctx.error("a process is one loop or one sub-kernel call", stmt, UnsupportedError)
        main[0].attrs["process"] = name
        processes.append((stmt, name, ops, unrolled))

    def is_process_loop(self, stmt: ast.stmt) -> bool:
        """`for p in range(P): pe(s[p], s[p + 1])`: a loop of sub-kernel calls that is unrolled (hls.unroll(),
        or it indexes a list of streams) is one process per call and iteration, as UG1399's unrolled chain."""
        if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and not stmt.orelse):
            return False
        calls = [s for s in stmt.body if self.is_call_process(s)]
        unroll = [s for s in stmt.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                  and call_target(s.value.func, self.ctx.src) is unroll_directive]
        if not calls or len(calls) + len(unroll) != len(stmt.body):
            return False
        indexes_streams = any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                              and n.value.id in self.streams.lists for c in calls for n in ast.walk(c))
        return bool(unroll) or indexes_streams

    def unroll_processes(self, stmt: ast.For, processes: list[Process], names: dict[str, int],
                         channels: set[Value]) -> None:
        bounds = [self.ctx.compile_time(a) for a in stmt.iter.args] \
            if isinstance(stmt.iter, ast.Call) and try_static(stmt.iter.func, self.ctx.src) is range else [MISSING]
        if not bounds or not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
            raise self.ctx.error("a loop of processes is unrolled when the design is built: its range needs "
                                 "compile-time bounds", stmt.iter, UnsupportedError)
        var = stmt.target.id
        saved = self.ctx.consts.get(var, MISSING)
        for value in range(*bounds):
            self.ctx.consts[var] = value
            self.ctx.env[var] = Var(self.ctx.lower.constant(value, self.ctx.loc), IntType(32, True))
            for index, call in enumerate(stmt.body):
                if self.is_call_process(call):
                    self.add_process(call, processes, names, (stmt, index, value), channels)
        self.ctx.env.pop(var, None)
        if saved is MISSING:
            self.ctx.consts.pop(var, None)
        else:
            self.ctx.consts[var] = saved

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
        if isinstance(stmt, ast.With) and self.streams.lock_of(stmt):
            raise self.ctx.error("a block lock at the top of the region is no process: take it inside a loop of the "
                                 "region or a sub-kernel (UG1399: a stream of blocks joins two concurrent processes)",
                                 stmt, UnsupportedError)
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple) and any(
                self.streams.is_stream_decl(v) or self.arrays.is_zeros_call(v) for v in stmt.value.elts):
            raise self.ctx.error("declare one FIFO or array per statement (`w0 = hls.stream(T)` on its own line): "
                                 "each declaration of a dataflow region is one statement", stmt, UnsupportedError)
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

    def check_scalar_writes(self, stmt: ast.stmt, scalars: set[str]) -> None:
        """A process reads the region's scalars and never assigns them (fuzz seed 2317000450: a loop doing
        `acc <<= 2` on a region scalar ran in Python mode as a process of its own with no `acc`): each
        process is a function of its own in Vitis as in Python mode, so what it computes leaves through
        a FIFO or an array."""
        for node in ast.walk(stmt):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) else []
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id in scalars:
                        raise self.ctx.error(f"a process assigns {name.id!r}, a scalar of the dataflow region: each "
                                             "process runs as a function of its own, so a value it computes "
                                             "leaves through a FIFO or an array; compute it in the process, or "
                                             "write it to an array", name, UnsupportedError)

    def check_rows(self, stmt: ast.stmt, name: str, ops: list[Op]) -> None:
        """A row handed to a process is a channel of its own only at a compile-time index."""
        for op in ops:
            for value in op.operands if isinstance(op, CallOp) else ():
                row = getattr(value, "op", None)
                if isinstance(row, RowOp) and row.constant_indices() is None:
                    raise self.ctx.error(f"process {name!r} takes a row of {row.base.name!r} at an index known only "
                                         "at run time: each row a dataflow region hands to a process is a channel of "
                                         "its own, so its index must be a compile-time constant (unroll the loop of "
                                         "processes, or pass the whole array)", stmt, HLSTypeError)

    def check_region(self, processes: list[Process]) -> None:
        producer: dict[Value, tuple[str, int | None]] = {}
        consumer: dict[Value, tuple[str, int | None]] = {}
        writers: dict[Value, str] = {}
        loops: dict[ast.For, list[tuple[Any, int, str, tuple[str, ...]]]] = {}
        used_by = [usage(ops, self.ctx.module) for _, _, ops, _ in processes]
        for index, ((stmt, name, ops, unrolled), used) in enumerate(zip(processes, used_by, strict=True)):
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
            check_feedback(self.ctx, stmt, name, used, processes[index + 1:], used_by[index + 1:], writers,
                           reached(index, processes, used_by))
            self.check_rows(stmt, name, ops)
            after = sorted({w for a, v in shared(used.array_reads, set(writers)) if (w := writers[v]) != name})
            for array in used.array_writes:
                other = next((w for v, w in writers.items() if w != name and overlaps(v, array)), None)
                writers.setdefault(array, name)
                if isinstance(array.type, ArrayType) and other is not None:
                    raise self.ctx.error(f"array {array.name!r} is written by two processes of the dataflow region, "
                                         f"{other!r} and {name!r}: UG1399's single-producer-consumer rule "
                                         "gives each channel one writer and one reader; write it in one process, or "
                                         "give each process its own array and merge them in a later one", stmt,
                                         HLSTypeError)
            if unrolled is None:
                self.ctx.conversions.add(stmt, ProcessRecord(name, tuple(after), task))
            else:  # Python mode runs body[index] with the loop variable bound to value, as its own process
                loops.setdefault(unrolled[0], []).append((unrolled[2], unrolled[1], name, tuple(after)))
            if after:  # csim waits too (hls_csim::region::after)
                next(op for op in ops if process_of(op) == name).attrs["after"] = tuple(after)
        for loop, entries in loops.items():
            self.ctx.conversions.add(loop, ProcessLoop(loop.target.id, tuple(entries)))
        for stream, (writer, written) in producer.items():
            if stream in consumer and isinstance(stream.type, StreamType):
                reader, read = consumer[stream]
                if written is not None and read is not None and written != read:
                    stmt = next(s for s, n, _, _ in processes if n == reader)
                    raise self.ctx.error(f"{writer} writes {written} items to {stream.name}, {reader} reads {read}: a "
                                         "dataflow region must consume every item its processes produce", stmt,
                                         HLSTypeError)
