"""Sub-kernel calls: the callee's IR function (built once per module) and the CallOp with converted arguments.

A struct argument is packed by the struct family, which sits above this one (it reads structs that
sub-kernels return); the composer hands that rule down as the `pack_struct` callback, and the callee's
build as `build_callee`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from hls.errors import UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family
from hls.frontend.streams import PackStruct, Streams
from hls.frontend.tasks import refuse_task_call
from hls.ir import CallOp, Function, Value
from hls.types import ArrayType, ScalarType, StreamType, StructType, TupleType


class KernelCalls(Family):
    """Calls of other @hls.kernel functions."""

    def __init__(self, ctx: BuildContext, arrays: Arrays, streams: Streams, pack_struct: PackStruct,
                 build_callee: Callable[[Any], Function]) -> None:
        super().__init__(ctx)
        self.arrays = arrays
        self.streams = streams
        self.pack_struct = pack_struct
        self.build_callee = build_callee

    def callee(self, kernel: Any, node: ast.Call) -> Any:
        """The called kernel's IR function (built once per module; recursion refused)."""
        callee_func = kernel.__hls_kernel__
        if callee_func in self.ctx.compiling:
            raise self.ctx.error(f"recursive call to kernel {callee_func.__name__!r}: hardware has no call stack",
                                 node, UnsupportedError)
        if kernel not in self.ctx.facts.callees:
            self.ctx.facts.callees.append(kernel)
        return self.build_callee(kernel)

    def call_kernel(self, kernel: Any, node: ast.Call, want_result: bool, tuple_ok: bool = False,
                    out: Value | None = None) -> Value | list[Value] | None:
        """A CallOp; an array result is written into `out`, a tuple result comes back as a list of values."""
        if node.keywords:
            raise self.ctx.error("sub-kernel calls take positional arguments only", node, UnsupportedError)
        is_task = bool(getattr(kernel, "is_task", False))
        if is_task and self.ctx.task_site is not node:
            refuse_task_call(self.ctx, kernel.__name__, node)
        callee = self.callee(kernel, node)
        ret = callee.return_type
        params = callee.args[:-1] if isinstance(ret, ArrayType) else callee.args
        if len(node.args) != len(params):
            raise self.ctx.error(f"kernel {callee.name!r} takes {len(params)} arguments, got {len(node.args)}", node)
        if isinstance(ret, ArrayType) and out is None:
            raise self.ctx.error(f"kernel {callee.name!r} returns an array: assign it to a new variable, "
                                 f"`y = {callee.name}(...)`", node, UnsupportedError)
        if isinstance(ret, TupleType) and want_result and not tuple_ok:
            raise self.ctx.error(f"kernel {callee.name!r} returns {len(ret.elems)} values: unpack them, "
                                 f"e.g. `q, r = {callee.name}(...)`", node, UnsupportedError)
        args = []
        for param, arg_node in zip(params, node.args, strict=True):
            if isinstance(param.type, StructType):
                args.append(self.pack_struct(arg_node, param.type, f"argument {param.name!r} of {callee.name!r}"))
                continue
            value = (self.arrays.row(arg_node) if isinstance(param.type, ArrayType) else None) \
                or self.streams.element(arg_node) or self.ctx.expr(arg_node)
            self.streams.check_argument(param.type, value, f"argument {param.name!r} of {callee.name!r}", arg_node)
            if isinstance(param.type, StreamType):
                args.append(value)
            elif isinstance(param.type, ArrayType):
                if value.type != param.type:
                    raise self.ctx.error(f"argument {param.name!r} of {callee.name!r} must be {param.type}, got "
                                         f"{value.type}", arg_node)
                args.append(value)
            else:
                args.append(self.ctx.lower.assign(value, param.type, self.ctx.src.loc(arg_node),
                                                  f"argument {param.name!r} of {callee.name!r}"))
        if out is not None:
            args.append(out)
        results = list(ret.elems) if isinstance(ret, TupleType) else \
            [ret] if isinstance(ret, (ScalarType, StructType)) else []
        call = CallOp(callee.name, args, results, self.ctx.loc)
        if is_task:
            call.attrs["task"] = True  # hls::task: the region starts it once, it runs forever
        if isinstance(ret, TupleType):
            call.attrs["outputs"] = True  # results come back through reference arguments (even just one)
        self.ctx.block.append(call)
        if not want_result:
            return None
        if not results:
            raise self.ctx.error(f"kernel {callee.name!r} returns nothing", node)
        return list(call.results) if isinstance(ret, TupleType) else call.result
