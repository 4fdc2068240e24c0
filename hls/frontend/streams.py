"""Streams in kernels: local FIFO declarations and the read/write/empty/full/read_nb/write_nb methods.

Python mode runs the same statements on hls.golden.streams.Stream objects, so the frontend only records
what the golden model needs beyond that: the name of each local FIFO (for messages and the report).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family
from hls.frontend.conversions import Call
from hls.frontend.source import try_static
from hls.frontend.state import Var
from hls.ir import (
    AllocOp,
    BlockReleaseOp,
    BlocksOp,
    LoadOp,
    ReadLockOp,
    StoreOp,
    StreamOp,
    StreamReadNbOp,
    StreamReadOp,
    StreamStatusOp,
    StreamWriteNbOp,
    StreamWriteOp,
    StructGetOp,
    StructPackOp,
    Value,
    WriteLockOp,
    row_base,
)
from hls.ir.stream_ops import STREAM_METHODS as METHODS
from hls.lang.blocks import read_lock, stream_of_blocks, write_lock
from hls.lang.directives import dataflow
from hls.lang.storage import stream
from hls.types import ArrayType, BlocksType, ScalarType, StreamType, StructType, is_block, stream_element
from hls.wording import type_expr

# `pack_struct(node, t, what)`: the whole struct `node` denotes, checked against `t`, as one value. The
# struct family sits above this one (it reads structs from FIFOs), so it is handed down as a callback.
PackStruct = Callable[[ast.AST, StructType, str], Value]


class Streams(Family):
    """Local FIFOs and stream methods."""

    def __init__(self, ctx: BuildContext, arrays: Arrays, pack_struct: PackStruct) -> None:
        super().__init__(ctx)
        self.arrays = arrays
        self.pack_struct = pack_struct
        self.lists: dict[str, list[Value]] = {}  # `s = [hls.stream(T) for _ in range(P)]`: its FIFOs
        self.locks: list[str] = []  # the blocks of the lock `with`s being lowered (at most one)

    def is_stream_decl(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and try_static(node.func, self.ctx.src) in (stream, stream_of_blocks) \
            or self.is_stream_list(node)

    def is_stream_list(self, node: ast.AST) -> bool:
        return isinstance(node, ast.ListComp) and len(node.generators) == 1 \
            and isinstance(node.elt, ast.Call) and try_static(node.elt.func, self.ctx.src) is stream

    def bind_stream_list(self, target: ast.Name, comp: ast.ListComp) -> None:
        """`s = [hls.stream(T, depth=D) for _ in range(P)]`: P FIFOs, `s[k]` with k a compile-time integer
        (C++ `hls::stream<T> s[P]`, as UG1399's chain of processes declares them)."""
        gen = comp.generators[0]
        count = self.ctx.compile_time(gen.iter.args[0]) if isinstance(gen.iter, ast.Call) and len(gen.iter.args) == 1 \
            and try_static(gen.iter.func, self.ctx.src) is range else None
        if gen.ifs or gen.is_async or not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise self.ctx.error("a list of streams is [hls.stream(T, depth=N) for _ in range(P)], P a positive "
                                 "compile-time integer", comp, UnsupportedError)
        if target.id in self.ctx.env or target.id in self.lists:
            raise self.ctx.error(f"{target.id!r} is already defined; a stream cannot be rebound", target,
                                 UnsupportedError)
        t = self.stream_type(comp.elt)
        values = []
        for k in range(count):
            value = self.ctx.emit(StreamOp(t, f"{target.id}[{k}]", self.ctx.loc))
            value.op.attrs["array"] = (target.id, k, count)
            values.append(value)
        self.lists[target.id] = values
        self.ctx.conversions.add(comp, Call("st.local_stream_list", (t, target.id, count)))
        self.ctx.facts.traced = True

    def element(self, node: ast.AST) -> Value | None:
        """`s[k]` of a list of streams (k a compile-time integer), else None."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.lists):
            return None
        values = self.lists[node.value.id]
        k = self.ctx.compile_time(node.slice)
        if isinstance(k, bool) or not isinstance(k, int):
            raise self.ctx.error(f"index streams of {node.value.id!r} with a compile-time integer (a stream is a "
                                 "wire between two processes, chosen when the design is built)", node.slice,
                                 UnsupportedError)
        if not 0 <= k < len(values):
            raise self.ctx.error(f"stream index {k} is out of range for {node.value.id!r} ({len(values)} streams)",
                                 node.slice)
        return values[k]

    def bind_local_stream(self, target: ast.Name, call: ast.Call | ast.ListComp) -> None:
        """`s = hls.stream(T, depth=N)`: a FIFO of the region (default depth 2, as Vitis); a list of them."""
        if isinstance(call, ast.ListComp):
            if self.ctx.loops:
                raise self.ctx.error("declare streams at the top level of the kernel, not inside a loop or branch",
                                     call, UnsupportedError)
            self.bind_stream_list(target, call)
            return
        if target.id in self.ctx.env:
            raise self.ctx.error(f"{target.id!r} is already defined; a stream cannot be rebound", target,
                                 UnsupportedError)
        if self.ctx.loops:
            raise self.ctx.error("declare streams at the top level of the kernel, not inside a loop or branch", call,
                                 UnsupportedError)
        if try_static(call.func, self.ctx.src) is stream_of_blocks:
            t = self.blocks_type(call)
            value = self.ctx.emit(BlocksOp(t, target.id, self.ctx.loc))
            self.ctx.conversions.add(call, Call("st.local_blocks", (t, target.id)))
        else:
            t = self.stream_type(call)
            value = self.ctx.emit(StreamOp(t, target.id, self.ctx.loc))
            self.ctx.conversions.add(call, Call("st.local_stream", (t, target.id)))  # Python mode: the IR's depth
        self.ctx.env[target.id] = Var(value, t)
        self.ctx.facts.traced = True

    def blocks_type(self, call: ast.Call) -> BlocksType:
        """The type of `hls.stream_of_blocks(T[N], depth=D)`, declared in a dataflow region only (UG1399:
        its producer and consumer are two concurrent processes, never a sequential region)."""
        body = getattr(self.ctx.src.tree, "body", [])
        if not any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                   and try_static(s.value.func, self.ctx.src) is dataflow for s in body):
            raise self.ctx.error("hls.stream_of_blocks joins two processes of a dataflow region (UG1399): declare it "
                                 "in a kernel whose body starts with hls.dataflow()", call, UnsupportedError)
        depth_nodes = [kw.value for kw in call.keywords if kw.arg == "depth"] + call.args[1:]
        if not 1 <= len(call.args) <= 2 or len(call.keywords) + len(call.args) - 1 != len(depth_nodes) \
                or len(depth_nodes) > 1:
            raise self.ctx.error("use hls.stream_of_blocks(T[N], depth=D), e.g. hls.stream_of_blocks(hls.int32[16])",
                                 call)
        block = self.ctx.annotation(call.args[0], "the block type", allow_array=True)
        if not isinstance(block, ArrayType) or not isinstance(block.elem, ScalarType):
            raise self.ctx.error(f"a block is an array of scalars of a constant shape, such as hls.int32[16]; got "
                                 f"{block}", call.args[0])
        depth = self.ctx.static(depth_nodes[0], "stream_of_blocks depth") if depth_nodes else 2
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise self.ctx.error(f"stream_of_blocks depth must be a positive integer constant (blocks, the "
                                 f"producer's and the consumer's included), got {depth!r}", depth_nodes[0])
        return BlocksType(block.elem, depth, block)

    def lock_of(self, node: ast.With) -> bool:
        """Whether a `with` statement takes a block lock (the only `with` a kernel may hold)."""
        return len(node.items) == 1 and isinstance(node.items[0].context_expr, ast.Call) \
            and try_static(node.items[0].context_expr.func, self.ctx.src) in (write_lock, read_lock)

    def lower_lock(self, node: ast.With, visit_body: Callable[[list[ast.stmt]], None]) -> None:
        """`with hls.write_lock(buf) as b:` (or read_lock): the lock op, the body on the block `b`, the
        release. UG1399: one lock at a time (no nested acquire), and the block lives in its scope only."""
        if not self.lock_of(node):
            raise self.ctx.error("`with` blocks are not supported in kernels, except `with hls.write_lock(buf) as "
                                 "b:` and `with hls.read_lock(buf) as b:` on a hls.stream_of_blocks", node,
                                 UnsupportedError)
        call, target = node.items[0].context_expr, node.items[0].optional_vars
        writes = try_static(call.func, self.ctx.src) is write_lock
        spelled = "hls.write_lock" if writes else "hls.read_lock"
        var = self.ctx.env.get(call.args[0].id) if len(call.args) == 1 and isinstance(call.args[0], ast.Name) \
            and not call.keywords else None
        if var is None or not isinstance(var.type, BlocksType):
            raise self.ctx.error(f"{spelled}(buf) takes one hls.stream_of_blocks (a local of the region or a "
                                 "hls.stream_of_blocks[T[N]] parameter)", call, HLSTypeError)
        if not isinstance(target, ast.Name):
            raise self.ctx.error(f"name the block: `with {spelled}({call.args[0].id}) as b:`", node, UnsupportedError)
        if isinstance(getattr(var.value, "op", None), BlocksOp) and not self.ctx.loops:
            raise self.ctx.error(f"{spelled} outside a process: lock a block in a loop of the region or in a "
                                 "sub-kernel that takes the stream of blocks", node, UnsupportedError)
        if self.locks:
            raise self.ctx.error(f"{spelled} inside the lock of {self.locks[-1]!r}: UG1399 supports no nested "
                                 "acquire; release one block before taking the next", node, UnsupportedError)
        if target.id in self.ctx.env:
            raise self.ctx.error(f"{target.id!r} is already defined; name the block with a new name", target,
                                 UnsupportedError)
        self.ctx.released_blocks.discard(target.id)
        exits = [n for s in node.body for n in ast.walk(s) if isinstance(n, (ast.Return, ast.Break, ast.Continue))]
        if exits:
            raise self.ctx.error("a return, break or continue would leave the lock's `with` early; the block is "
                                 "released at its end only", exits[0], UnsupportedError)
        lock = self.ctx.emit((WriteLockOp if writes else ReadLockOp)(var.value, target.id, self.ctx.loc))
        self.ctx.env[target.id] = Var(lock, lock.type, is_array=True)
        self.locks.append(target.id)
        try:
            visit_body(node.body)
        finally:
            self.locks.pop()
        del self.ctx.env[target.id]
        self.ctx.released_blocks.add(target.id)
        self.ctx.emit(BlockReleaseOp(lock, var.value, self.ctx.loc))

    def stream_type(self, call: ast.Call) -> StreamType:
        """The FIFO type of `hls.stream(T, depth=N)` (default depth 2, as Vitis)."""
        depth_nodes = [kw.value for kw in call.keywords if kw.arg == "depth"] + call.args[1:]
        if not 1 <= len(call.args) <= 2 or len(call.keywords) + len(call.args) - 1 != len(depth_nodes) \
                or len(depth_nodes) > 1:
            raise self.ctx.error("use hls.stream(T, depth=N), e.g. hls.stream(hls.int32, depth=4)", call)
        named = self.ctx.annotation(call.args[0], "stream element", allow_array=True)
        elem = stream_element(named)
        if elem is None or isinstance(named, StreamType):
            raise self.ctx.error(f"stream element: {named} is not a scalar type, a struct or a 1-D array of scalars",
                                 call.args[0])
        depth = self.ctx.static(depth_nodes[0], "stream depth") if depth_nodes else 2
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise self.ctx.error(f"stream depth must be a positive integer constant, got {depth!r}", depth_nodes[0])
        return StreamType(elem, depth)

    def stream_method(self, node: ast.AST) -> tuple[Value, str] | None:
        """(stream value, method) when `node` calls a method of a stream variable, else None."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return None
        element = self.element(node.func.value)
        var = self.ctx.env.get(node.func.value.id) if isinstance(node.func.value, ast.Name) else None
        if element is not None:
            var = Var(element, element.type)
        if var is None or not isinstance(var.type, StreamType):
            return None
        if isinstance(var.type, BlocksType):
            raise self.ctx.error(f"{ast.unparse(node.func.value)!r} is a stream of blocks: take a block with "
                                 "`with hls.write_lock(buf) as b:` or `with hls.read_lock(buf) as b:`", node.func,
                                 UnsupportedError)
        if node.func.attr not in METHODS:
            raise self.ctx.error(f"streams have no method {node.func.attr!r}; use one of {', '.join(METHODS)}",
                                 node.func,
                                 UnsupportedError)
        return var.value, node.func.attr

    def lower_method(self, node: ast.Call, statement: bool) -> Value | None:
        """One method call; `statement` when its value is unused (write, or a read that drops the item)."""
        stream_value, method = self.stream_method(node)
        arity = 1 if method in ("write", "write_nb") else 0
        if node.keywords or len(node.args) != arity:
            raise self.ctx.error(f"{method}() takes {arity} argument{'s' * (arity != 1)}", node)
        t = stream_value.type
        if method == "read_nb":
            raise self.ctx.error("read_nb() returns (ok, value): unpack it, `ok, v = s.read_nb()`", node,
                                 UnsupportedError)
        if method in ("write", "write_nb"):
            what = f"write to stream {ast.unparse(node.func.value)!r}"
            value = self.block_pack(node.args[0], t.elem, what) if is_block(t.elem) else \
                self.pack_struct(node.args[0], t.elem, what) if isinstance(t.elem, StructType) else \
                self.ctx.lower.assign(self.ctx.expr(node.args[0]), t.elem, self.ctx.loc, what)
            op = StreamWriteOp(value, stream_value, self.ctx.loc) if method == "write" else \
                StreamWriteNbOp(value, stream_value, self.ctx.loc)
        elif method == "read" and is_block(t.elem):
            return self.block_unpack(self.ctx.emit(StreamReadOp(stream_value, self.ctx.loc)), node)
        elif method == "read" and isinstance(t.elem, StructType):
            raise self.ctx.struct_not_a_value(t.elem, node)
        elif method == "read":
            op = StreamReadOp(stream_value, self.ctx.loc)
        else:
            op = StreamStatusOp(method, stream_value, self.ctx.loc)
        result = self.ctx.emit(op)
        if not statement and result is None:
            raise self.ctx.error(f"{method}() has no value", node, UnsupportedError)
        return result

    def block_pack(self, node: ast.AST, t: StructType, what: str) -> Value:
        """`s.write(a)` on a FIFO of arrays: the item packed from a's elements (an array of the FIFO's array type:
        a local, an argument or a row `buf[r]`)."""
        array_type = t.field("data")
        value = self.arrays.row(node) or self.ctx.expr(node)
        if value.type != array_type:
            raise self.ctx.error(f"{what} takes an array of {array_type}; got {value.type}", node)
        base, prefix = row_base(value)  # a row `a[i]`: the loads are a's own, a[i, k]
        loads = [self.ctx.emit(LoadOp(base, [*prefix, self.ctx.lower.as_int(self.ctx.lower.constant(k, self.ctx.loc),
                                                                            self.ctx.loc)], self.ctx.loc))
                 for k in range(array_type.shape[0])]
        return self.ctx.emit(StructPackOp(loads, t, self.ctx.loc, name="item"))

    def block_unpack(self, item: Value, node: ast.AST) -> Value:
        """`v = s.read()` on a FIFO of arrays: a local array holding the item's elements."""
        array_type = item.type.field("data")
        local = self.ctx.emit(AllocOp(array_type, None, self.ctx.loc))
        local.op.attrs["fifo_item"] = True  # a name assigned it becomes this array (Names.assign_name)
        for k in range(array_type.shape[0]):
            element = self.ctx.emit(StructGetOp(item, "data", k, self.ctx.loc))
            index = self.ctx.lower.as_int(self.ctx.lower.constant(k, self.ctx.loc), self.ctx.loc)
            self.ctx.emit(StoreOp(element, local, [index], self.ctx.loc))
        return local

    def read_nb(self, target: ast.Tuple | ast.List, call: ast.Call) -> list[Value] | None:
        """`ok, v = s.read_nb()`: the op's two results, for the caller to assign to the two names; None when
        the assignment is something else."""
        found = self.stream_method(call)
        if found is None or found[1] != "read_nb":
            return None
        if call.args or call.keywords:
            raise self.ctx.error("read_nb() takes no arguments", call)
        if len(target.elts) != 2 or not all(isinstance(e, ast.Name) for e in target.elts):
            raise self.ctx.error("read_nb() returns (ok, value): unpack it into two names, `ok, v = s.read_nb()`",
                                 target,
                                 HLSTypeError)
        op = StreamReadNbOp(found[0], self.ctx.loc, (target.elts[0].id, target.elts[1].id))
        self.ctx.emit(op)
        return list(op.results)

    def check_argument(self, param_type, value: Value, what: str, node: ast.AST) -> None:
        """A stream passed where an array or scalar is expected, and the reverse, is an error here."""
        if isinstance(param_type, StreamType) and not param_type.accepts(value.type):
            got = "an array" if hasattr(value.type, "shape") else f"a {value.type}"
            raise self.ctx.error(f"{what} is a stream of {param_type.elem}; got {got} (pass a stream declared with "
                                 f"hls.stream({type_expr(param_type.elem)}, depth=N) or a "
                                 f"hls.stream[{type_expr(param_type.elem)}] parameter)",
                                 node)
        if isinstance(value.type, StreamType) and not isinstance(param_type, StreamType):
            raise self.ctx.error(f"{what} expects {param_type}; got a stream (annotate the parameter hls.stream[T] to "
                                 "pass a FIFO)", node)
