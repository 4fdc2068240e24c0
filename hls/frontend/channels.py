"""`hls.split.*` / `hls.merge.*` statements of a dataflow region (hls/lang/channels.py), checked at the line.

The statement becomes a task CallOp of a bodiless function marked `channel` (kind, policy): usage
(hls/ir/usage.py) reads its input stream(s) and writes its output(s) from the call's operands, the
schedule gives it a small latency like any function, and the C++ writes Vitis's split/merge object
instead of a call (hls/backend/cpp/streams.py). Every stream of it must be a local FIFO of the region
(it becomes a member of the object, `split_s.in`, `split_s.out[0]`) and may belong to one split or
merge only.
"""

from __future__ import annotations

import ast
from typing import Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext
from hls.frontend.source import call_target
from hls.ir import CallOp, Function, ReturnOp, StreamOp, Value
from hls.lang.channels import Channel
from hls.types import StreamType


def channel_of(stmt: ast.stmt, ctx: BuildContext) -> Channel | None:
    """The hls.split/merge function a region statement calls, or None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        target = call_target(stmt.value.func, ctx.src)
        return target if isinstance(target, Channel) else None
    return None


def lower_channel(ctx: BuildContext, channel: Channel, call: ast.Call, taken: set[Value]) -> CallOp:
    """The task call of one split or merge; `taken`: the streams earlier channels already own."""
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
        streams.append(member(ctx, node, spelled, taken | set(streams)))
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


def member(ctx: BuildContext, node: ast.AST, spelled: str, taken: set[Value]) -> Value:
    var = ctx.env.get(node.id) if isinstance(node, ast.Name) else None
    if var is None or not isinstance(var.type, StreamType):
        raise ctx.error(f"{spelled} takes streams declared in this region (hls.stream(T)); got "
                        f"{ast.unparse(node)!r}", node, HLSTypeError)
    if not isinstance(getattr(var.value, "op", None), StreamOp):
        raise ctx.error(f"stream {node.id!r} is a kernel argument: {spelled} owns its streams (they become members "
                        "of the Vitis object), so copy it through a local FIFO declared with hls.stream(T)", node,
                        UnsupportedError)
    if var.value in taken:
        raise ctx.error(f"stream {node.id!r} already belongs to a split or merge: each of its FIFOs is one member "
                        "of one object; join two of them through a process (a task) in between", node,
                        UnsupportedError)
    return var.value


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
