"""`@hls.task` kernels: a body that runs forever on streams (UG1399 `hls::task`), checked at the line.

A task's arguments are streams only: it is started once and then runs whenever data is in its input
FIFOs, so it has no call to take an array or a scalar from, and no return value to give back (UG1399
"HLS Task Library": tasks with only streaming I/O; the stable scalars and m_axi pointers of "Support
of Scalars/Memory Interfaces in DTLP" are not modelled here). In a dataflow region a call of a task
is one process, instantiated once; anywhere else (in a loop, a branch, a plain body) a task call is
refused, since nothing would ever return from it.

`hls.split.*` / `hls.merge.*` statements (hls/lang/channels.py) are lowered here too: one becomes a
task CallOp of a bodiless function marked `channel` (kind, policy). Usage (hls/ir/usage.py) reads
its input stream(s) and writes its output(s) from the call's operands, the schedule gives it a small
latency like any function, and the C++ writes Vitis's split/merge object instead of a call
(hls/backend/cpp/streams.py). Every stream of it must be a local FIFO of the region (it becomes a
member of the object, `split_s.in`, `split_s.out[0]`) and may belong to one split or merge only.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext
from hls.frontend.source import call_target
from hls.ir import CallOp, Function, Op, ReadLockOp, ReturnOp, StreamOp, StreamReadOp, Value
from hls.lang.channels import Channel
from hls.types import HLSType, StreamType


def check_task_signature(ctx: BuildContext, tree: ast.FunctionDef, types: list[HLSType],
                         ret: HLSType | None) -> None:
    """Every argument a stream, no result, no dataflow region of its own."""
    for arg, t in zip(tree.args.args, types, strict=False):
        if not isinstance(t, StreamType):
            raise ctx.error(f"task {ctx.src.name!r}: argument {arg.arg!r} is {t}; a task's arguments are streams "
                            "(hls.stream[T]): it runs forever on the data they carry and is never called again to "
                            "take an array or a scalar (use @hls.kernel for a process with memory arguments)",
                            arg.annotation or arg, HLSTypeError)
    if ret is not None:
        raise ctx.error(f"task {ctx.src.name!r} returns {ret}: a task never returns; write results to an output "
                        "stream", tree.returns or tree, HLSTypeError)


def refuse_task_region(ctx: BuildContext, stmt: ast.stmt) -> None:
    raise ctx.error(f"task {ctx.src.name!r} holds a dataflow region: a task body is one iteration of a process "
                    "that runs forever; make it a kernel that instantiates tasks instead", stmt, UnsupportedError)


def refuse_task_call(ctx: BuildContext, name: str, node: ast.AST) -> None:
    raise ctx.error(f"task {name!r} called outside a dataflow region: a task runs forever, so it can only be "
                    "instantiated as one process of a hls.dataflow() region (a statement of its own, not in a "
                    "loop or a branch)", node, UnsupportedError)


def refuse_nested_tasks(ctx: BuildContext, stmt: ast.stmt, ops: list[Op]) -> None:
    """A process that calls a kernel whose own region instantiates tasks: refused (Python mode and csim
    end tasks only with the outermost region, where idling on empty inputs is the normal end)."""
    for op in (inner for top in ops for inner in top.walk()):
        callee = ctx.module.functions.get(op.callee) if isinstance(op, CallOp) else None
        if callee is not None and not op.attrs.get("task") \
                and any(isinstance(o, CallOp) and o.attrs.get("task") for o in callee.walk()):
            raise ctx.error(f"{op.callee!r} instantiates tasks in its dataflow region and is called from a process "
                            "of another region: tasks are supported in the outermost region only; instantiate "
                            "them here instead", stmt, UnsupportedError)


def check_task_reads(ctx: BuildContext, func: Function) -> None:
    """A task must block on a read somewhere: one that never does never idles (Python mode and csim
    would spin for ever, hardware would run without input)."""
    seen: set[str] = set()

    def reads(f: Function) -> bool:
        for op in f.walk():
            if isinstance(op, (StreamReadOp, ReadLockOp)):
                return True
            if isinstance(op, CallOp) and op.callee not in seen and op.callee in ctx.module.functions:
                seen.add(op.callee)
                if reads(ctx.module.functions[op.callee]):
                    return True
        return False

    if not reads(func):
        raise ctx.error(f"task {ctx.src.name!r} never blocks on a read (s.read() or hls.read_lock): a task runs "
                        "its body again whenever an input holds data, so it must wait on one; without a blocking read "
                        "it would never idle", ctx.src.tree, UnsupportedError)


def channel_of(stmt: ast.stmt, ctx: BuildContext) -> Channel | None:
    """The hls.split/merge function a region statement calls, or None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        target = call_target(stmt.value.func, ctx.src)
        return target if isinstance(target, Channel) else None
    return None


def lower_channel(ctx: BuildContext, channel: Channel, call: ast.Call, taken: set[Value],
                  element: Callable[[ast.AST], Value | None]) -> CallOp:
    """The task call of one split or merge; `taken`: the streams earlier channels already own; `element`
    resolves `r[k]` of a list of streams (None for anything else)."""
    spelled = f"hls.{channel.kind}.{channel.policy}"
    many_first = channel.kind == "merge"
    shape = "([r0, r1, ...], out)" if many_first else "(s, [w0, w1, ...])"
    if call.keywords or len(call.args) != 2 or not isinstance(call.args[0 if many_first else 1], (ast.List, ast.Tuple)):
        raise ctx.error(f"use {spelled}{shape}: local streams, the {'inputs' if many_first else 'outputs'} in a "
                        "list", call, UnsupportedError)
    many = call.args[0 if many_first else 1].elts
    one = call.args[1 if many_first else 0]
    if len(many) < 2:
        raise ctx.error(f"{spelled} needs at least two {'inputs' if many_first else 'outputs'}", call,
                        UnsupportedError)
    nodes = [*many, one] if many_first else [one, *many]
    streams: list[Value] = []
    for node in nodes:
        streams.append(member(ctx, node, spelled, taken | set(streams), element))
    elem = streams[0].type.elem
    for node, value in zip(nodes, streams, strict=True):
        if value.type.elem != elem:
            raise ctx.error(f"{spelled} carries one type: {value.name!r} holds {value.type.elem}, "
                            f"{streams[0].name!r} {elem}", node, HLSTypeError)
    taken.update(streams)
    callee = channel_function(ctx, channel, [v.type for v in streams])
    op = CallOp(callee.name, streams, [], ctx.src.loc(call))
    op.attrs["task"] = True
    op.attrs["channel"] = f"{channel.kind}.{channel.policy}"
    ctx.block.append(op)
    return op


def member(ctx: BuildContext, node: ast.AST, spelled: str, taken: set[Value],
           element: Callable[[ast.AST], Value | None]) -> Value:
    """One FIFO a split or merge owns: a local stream by name, or `r[k]` of a local list of streams."""
    value = element(node)
    if value is None:
        var = ctx.env.get(node.id) if isinstance(node, ast.Name) else None
        if var is None or not isinstance(var.type, StreamType):
            raise ctx.error(f"{spelled} takes streams declared in this region (hls.stream(T)); got "
                            f"{ast.unparse(node)!r}", node, HLSTypeError)
        if not isinstance(getattr(var.value, "op", None), StreamOp):
            raise ctx.error(f"stream {node.id!r} is a kernel argument: {spelled} owns its streams (they become "
                            "members of the Vitis object), so copy it through a local FIFO declared with "
                            "hls.stream(T)", node, UnsupportedError)
        value = var.value
    if value in taken:
        raise ctx.error(f"stream {ast.unparse(node)!r} already belongs to a split or merge: each of its FIFOs is one "
                        "member of one object; join two of them through a process (a task) in between", node,
                        UnsupportedError)
    return value


def channel_function(ctx: BuildContext, channel: Channel, types: list[Any]) -> Function:
    """The bodiless function of one split/merge shape (its ports only), shared by equal shapes."""
    elem = types[0].elem
    name = f"hls_{channel.kind}_{channel.policy}_{len(types) - 1}_{str(elem).replace('[', '_').replace(', ', '_')}"
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    existing = ctx.module.functions.get(name)
    if existing is not None and [a.type for a in existing.args] == types:
        return existing
    many = len(types) - 1
    names = [f"in{k}" for k in range(many)] + ["out"] if channel.kind == "merge" else \
        ["in"] + [f"out{k}" for k in range(many)]
    func = Function(name, types, names, None, ctx.src.loc(ctx.src.tree))
    func.attrs["channel"] = f"{channel.kind}.{channel.policy}"
    func.body.block.append(ReturnOp([], ctx.loc))
    ctx.module.add(func)
    return func
