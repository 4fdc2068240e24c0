"""C++ statements for streams and dataflow processes (a part of FunctionEmitter, hls/backend/cpp/emit.py)."""

from __future__ import annotations

from hls.backend.cpp.expr import PREC, Expr
from hls.backend.ctype import ctype_of, spelling
from hls.ir import CallOp, ForOp, IfOp, Value
from hls.ir.core import Op
from hls.ir.stream_ops import (
    BlockLockOp,
    BlockReleaseOp,
    BlocksOp,
    StreamOp,
    StreamReadOp,
    StreamStatusOp,
    StreamWriteNbOp,
    StreamWriteOp,
    WriteLockOp,
)
from hls.ir.traits import process_of
from hls.types import ArrayType, BlocksType, StreamType


def block_spelling(t: ArrayType) -> str:
    """`int32_t[16]`: the block type argument of hls::stream_of_blocks and its locks."""
    return spelling(t.elem) + "".join(f"[{n}]" for n in t.shape)


def stream_spelling(t: StreamType) -> str:
    if isinstance(t, BlocksType):  # UG1399: hls::stream_of_blocks<block_type, depth>, depth 2 by default
        depth = f", {t.depth}" if t.depth != 2 else ""
        return f"hls::stream_of_blocks<{block_spelling(t.block)}{depth}>"
    elem = spelling(t.elem)
    return f"hls::stream<{elem} >" if elem.endswith(">") else f"hls::stream<{elem}>"


class StreamStatements:
    """Mixed into FunctionEmitter, whose line/use/bind/namer/assignable/for_op/call_op it uses."""

    def stream_op(self, op: Op) -> None:
        """FIFO accesses are statements, in program order; a read's value gets a named local."""
        if isinstance(op, StreamOp) and channel_member(op) is not None:
            if op.attrs.get("array") is not None:  # `r[k]` of a list: the list is declared whole, its element
                self.stream_list_element(op)  # k left unused, the object's member taking its place
            self.channel_stream(op, *channel_member(op))
            return
        if isinstance(op, StreamOp) and op.attrs.get("array") is not None:
            self.stream_list_element(op)
            return
        if isinstance(op, (BlocksOp, BlockLockOp, BlockReleaseOp)):
            self.block_op(op)
            return
        if isinstance(op, StreamOp):
            name = self.namer.fresh(op.result.name or "fifo")
            t = op.result.type
            local = "hls_thread_local " if has_tasks(op.parent.ops) else ""  # UG1399: a task's channels
            self.line(f'{local}{stream_spelling(t)} {name}("{name}");')
            self.line(f"#pragma HLS stream variable={name} depth={t.depth}")
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f"hls_csim::set_depth({name}, {t.depth});  // csim FIFOs hold the declared depth")
            self.lines.append("#endif")
            self.bind(op.result, Expr(name, PREC["primary"], ctype_of(t.elem)))
            return
        stream = self.use(op.stream).text
        if isinstance(op, (StreamWriteOp, StreamWriteNbOp)):
            value = self.assignable(self.use(op.value), op.stream.type.elem).text
            call = f"{stream}.{op.method}({value})"
            if isinstance(op, StreamWriteOp):
                self.line(f"{call};")
            else:
                self.declare(op.result, call)
        elif isinstance(op, StreamReadOp) and not op.result.uses:
            self.line(f"{stream}.read();")  # an item dropped: still consumed
        elif isinstance(op, StreamReadOp):
            self.declare(op.result, f"{stream}.read()")
        elif isinstance(op, StreamStatusOp):
            self.declare(op.result, f"{stream}.{op.kind}()")
        else:  # read_nb: the value is the type's zero when nothing was read
            ok, value = op.results
            name = self.declare(value, "0")
            self.declare(ok, f"{stream}.read_nb({name})")

    def block_op(self, op: Op) -> None:
        """A stream of blocks and its locks as UG1399 writes them: the lock is a local of its own scope,
        `{ hls::write_lock<int32_t[16]> b(buf); ... }`, whose destructor releases the block."""
        if isinstance(op, BlocksOp):
            name = self.namer.fresh(op.result.name or "blocks")
            local = "hls_thread_local " if has_tasks(op.parent.ops) else ""  # UG1399: a task's channels
            self.line(f"{local}{stream_spelling(op.result.type)} {name};")
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f'{name}.set_name("{name}");  // csim messages name it')
            self.lines.append("#endif")
            self.bind(op.result, Expr(name, PREC["primary"], ctype_of(op.result.type.elem)))
        elif isinstance(op, BlockLockOp):
            kind = "write_lock" if isinstance(op, WriteLockOp) else "read_lock"
            name = self.namer.fresh(op.result.name or "block")
            self.line("{")
            self.depth += 1
            self.line(f"hls::{kind}<{block_spelling(op.result.type)}> {name}({self.use(op.stream).text});")
            self.bind(op.result, Expr(name, PREC["primary"], ctype_of(op.result.type.elem)))
        else:
            self.depth -= 1
            self.line("}")

    def stream_list_element(self, op: StreamOp) -> None:
        """`s = [hls.stream(T, depth=D) for _ in range(P)]`: `hls::stream<T> s[P];` at its first element (UG1399:
        an array of streams is partitioned into P FIFOs), each element `s[k]`."""
        base, index, count = op.attrs["array"]
        t = op.result.type
        names = self.__dict__.setdefault("stream_lists", {})
        if index == 0:
            names[base] = name = self.namer.fresh(base)
            self.line(f"{stream_spelling(t)} {name}[{count}];")
            self.line(f"#pragma HLS stream variable={name} depth={t.depth}")
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f"for (int k = 0; k < {count}; k++) hls_csim::set_depth({name}[k], {t.depth});")
            self.lines.append("#endif")
        self.bind(op.result, Expr(f"{names[base]}[{index}]", PREC["primary"], ctype_of(t.elem)))

    def declare(self, value: Value, init: str) -> str:
        name = self.namer.fresh(value.name or "v")
        ctype = ctype_of(value.type)
        self.line(f"{ctype.spelling} {name} = {init};")
        self.declare_local(name, ctype)
        self.bind(value, Expr(name, PREC["primary"], ctype, reads=frozenset({name})))
        return name

    def process(self, op: ForOp | IfOp | CallOp) -> None:
        """A process of a dataflow region: plain code for Vitis; for csim, the body of a thread of
        hls_csim::region (hls/sim/include/hls_csim.h), so FIFOs block as in hardware."""
        block = op.parent
        processes = [o for o in block.ops if process_of(o) is not None]
        if op is processes[0]:
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f'hls_csim::region hls_region("{self.c_names[self.func.name]}");')
            self.lines.append("#endif")
        if isinstance(op, CallOp) and op.attrs.get("channel"):  # csim: the object's distributing task
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f'{self.channel_names[op]}.spawn(hls_region, "{op.process}");')
            self.lines.append("#endif")
        elif isinstance(op, CallOp) and op.attrs.get("task"):
            self.task(op)
        else:
            self.process_body(op)
        after = op.process_after
        if after:  # a ping-pong buffer: csim starts the reader once its writers are done, as hardware
            writers = ", ".join(f'"{name}"' for name in after)
            self.lines.append("#ifndef __SYNTHESIS__")
            self.line(f'hls_region.after("{op.process}", {{{writers}}});')
            self.lines.append("#endif")
        if op is processes[-1]:
            self.line("HLS_REGION_RUN(hls_region)")

    def process_body(self, op: ForOp | IfOp | CallOp) -> None:
        self.line(f"HLS_PROCESS_BEGIN(hls_region, {op.process})")
        if isinstance(op, ForOp):
            self.for_op(op)
        elif isinstance(op, IfOp):  # a conditional task (UG1399): the thread runs the branch taken
            self.if_op(op)
        else:
            self.call_op(op)
        self.line("HLS_PROCESS_END")

    def channel_stream(self, op: StreamOp, call: CallOp, index: int) -> None:
        """A FIFO of a split or merge: the object is declared with its first FIFO, the FIFO is its member."""
        names = self.__dict__.setdefault("channel_names", {})
        if call not in names:
            kind, policy = call.attrs["channel"].split(".")
            names[call] = self.namer.fresh(call.process)
            elem = spelling(op.result.type.elem)
            self.line(f"hls_thread_local hls::{kind}::{policy}<{elem}, {len(call.operands) - 1}> {names[call]};")
        text = f"{names[call]}.{member_spelling(call, index)}"
        self.lines.append("#ifndef __SYNTHESIS__")  # csim: the declared depth, and the name messages use
        self.line(f'hls_csim::set_depth({text}, {op.result.type.depth});')
        self.line(f'hls_csim::set_name({text}, "{op.result.name}");')
        self.lines.append("#endif")
        self.bind(op.result, Expr(text, PREC["primary"], ctype_of(op.result.type.elem)))

    def task(self, op: CallOp) -> None:
        """`hls_thread_local hls::task t(func, streams...)` (UG1399); for csim the region is told the
        process name first, since the task object cannot see its variable's name."""
        self.lines.append("#ifndef __SYNTHESIS__")
        self.line(f'hls_region.name_task("{op.process}");')
        self.lines.append("#endif")
        args = ", ".join(self.use(v).text for v in op.operands)
        name = self.namer.fresh(f"{op.process}_task")
        self.line(f"hls_thread_local hls::task {name}({self.c_names[op.callee]}, {args});")


def channel_member(op: StreamOp) -> tuple[CallOp, int] | None:
    """(the split/merge call, the operand index) when a local FIFO is a member of a split or merge."""
    for user in op.result.uses:
        if isinstance(user, CallOp) and user.attrs.get("channel"):
            return user, list(user.operands).index(op.result)
    return None


def member_spelling(call: CallOp, index: int) -> str:
    """`in` / `out[k]` of a split, `in[k]` / `out` of a merge (UG1399's member names)."""
    last = len(call.operands) - 1
    if call.attrs["channel"].startswith("split"):
        return "in" if index == 0 else f"out[{index - 1}]"
    return "out" if index == last else f"in[{index}]"


def has_tasks(ops: list[Op]) -> bool:
    """A region instantiating hls::task objects: its streams are hls_thread_local too (UG1399)."""
    return any(isinstance(op, CallOp) and op.attrs.get("task") for op in ops)
