"""Arrays: the type of a local `hls.zeros` array, element access with rank and constant-bound checks, and
the store into an element (an element of a struct's array field is found by hls.frontend.structs)."""

from __future__ import annotations

import ast

from hls.errors import UnsupportedError
from hls.frontend.base import Family
from hls.frontend.source import subscript_chain, try_static
from hls.ir import ConstantOp, ReadLockOp, RomOp, RowOp, StoreOp, Value
from hls.ir.core import Block
from hls.lang.storage import zeros
from hls.types import ArrayType, BoolType, IntType, StructType


class Arrays(Family):
    """Local array types, element access and element stores, rows handed to calls."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # one RowOp per block, array and constant indices, so a dataflow region sees `temp[1]` as one channel
        self.rows: dict[tuple[Block, Value, tuple[int, ...]], Value] = {}

    def row(self, node: ast.AST) -> Value | None:
        """`M[i]` (fewer indices than M has dimensions) or a row local of `for row in M`: the RowOp of that
        row, an array of the remaining shape; None when `node` is no row."""
        if isinstance(node, ast.Name):
            alias = self.ctx.env.get(node.id)
            if alias is None or not alias.prefix:
                return None
            return self.row_op(alias.value, list(alias.prefix))
        if not isinstance(node, ast.Subscript):
            return None
        base, index_nodes = subscript_chain(node)
        if any(isinstance(i, ast.Slice) for i in index_nodes) or not isinstance(base, ast.Name):
            return None
        alias = self.ctx.env.get(base.id)
        if alias is None or alias.cell or not isinstance(alias.value.type, ArrayType):
            return None
        prefix = list(alias.prefix)
        memref = alias.value
        if not isinstance(memref.type, ArrayType) or len(prefix) + len(index_nodes) >= len(memref.type.shape):
            return None
        shape = memref.type.shape
        sizes = shape[len(prefix):len(prefix) + len(index_nodes)]
        indices = prefix + [self.row_index(n, size, d)
                            for d, (size, n) in enumerate(zip(sizes, index_nodes, strict=True), start=len(prefix))]
        return self.row_op(memref, indices)

    def row_index(self, node: ast.AST, size: int, dim: int) -> Value:
        """A row's index: a compile-time one (`temp[stage + 1]` in an unrolled loop of processes) as a constant,
        so that each row of a dataflow region is one channel."""
        out_of_range = f"row {{}} is out of bounds for dimension {dim} of size {size}"
        value = self.ctx.compile_time(node)
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value < size:
                raise self.ctx.error(out_of_range.format(value), node)
            return self.ctx.lower.constant(value, self.ctx.loc)
        return self.index_value(node, size, "row index", out_of_range)

    def row_op(self, memref: Value, indices: list[Value]) -> Value:
        op = RowOp(memref, indices, self.ctx.loc)
        consts = op.constant_indices()
        key = (self.ctx.block, memref, consts) if consts is not None else None
        if key is not None and key in self.rows:
            return self.rows[key]
        self.ctx.emit(op)
        if key is not None:
            self.rows[key] = op.result
        return op.result

    def is_zeros_call(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        return try_static(node.func, self.ctx.src) is zeros

    def local_array_type(self, call: ast.Call) -> ArrayType:
        """The type `hls.zeros(shape, type)` creates (shape and type compile-time constants)."""
        if len(call.args) != 2 or call.keywords:
            raise self.ctx.error("use hls.zeros(shape, type), e.g. hls.zeros((64, 64), hls.float32)", call)
        for node in ast.walk(call.args[0]):
            if isinstance(node, ast.Name) and node.id in self.ctx.env:
                raise self.ctx.error(f"array shape must be compile-time constants; {node.id!r} is a kernel variable "
                                     "(use a module-level constant or the largest size)", node)
        shape = self.ctx.static(call.args[0], "array shape")
        shape = shape if isinstance(shape, tuple) else (shape,)
        if not shape or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape):
            raise self.ctx.error(f"array shape must be positive integer constants, got {shape!r}", call.args[0])
        elem = self.ctx.annotation(call.args[1], "array element", allow_array=False)
        return ArrayType(elem, tuple(shape))

    def access(self, node: ast.Subscript) -> tuple[Value, list[Value]]:
        """`A[i, j]` or `A[i][j]` -> (memref, index values), checking rank and constant bounds."""
        base, index_nodes = subscript_chain(node)
        alias = self.ctx.env.get(base.id) if isinstance(base, ast.Name) else None
        prefix = list(alias.prefix) if alias is not None else []
        memref = alias.value if prefix else self.ctx.expr(base)
        if not isinstance(memref.type, ArrayType):
            raise self.ctx.error(f"{memref.type} value is not an array and cannot be indexed", base)
        shape = memref.type.shape
        if len(prefix) + len(index_nodes) != len(shape):
            raise self.ctx.error(f"array of shape {shape[len(prefix):]} indexed with {len(index_nodes)} indices; index "
                                 "every dimension", node)
        indices = prefix
        for dim, (size, index_node) in enumerate(zip(shape[len(prefix):], index_nodes, strict=True)):
            indices.append(self.index_value(index_node, size, "array index",
                                            f"index {{}} is out of bounds for dimension {dim} of size {size}"))
        return memref, indices

    def index_value(self, node: ast.AST, size: int, what: str, out_of_range: str) -> Value:
        """An index into `size` positions (array elements, bits) as an int: a constant one is checked here
        (`out_of_range` formatted with its value), a variable one by csim."""
        index = self.ctx.expr(node)
        if not isinstance(index.type, (IntType, BoolType)):
            raise self.ctx.error(f"{what} must be an integer, got {index.type}", node)
        op = getattr(index, "op", None)
        if isinstance(op, ConstantOp) and not 0 <= int(op.value) < size:
            raise self.ctx.error(out_of_range.format(op.value), node)
        return self.ctx.lower.as_int(index, self.ctx.loc)

    def store_value(self, memref: Value, indices: list[Value], value: Value, field: str | None = None) -> None:
        """A store into an element, or into `field` of an element of an array of structs."""
        if isinstance(getattr(memref, "op", None), RomOp):
            raise self.ctx.error("module-level constant arrays are read-only in kernels", None)
        if isinstance(getattr(memref, "op", None), ReadLockOp):
            raise self.ctx.error(f"{memref.name!r} is a block taken with hls.read_lock: it is read only (write "
                                 "blocks under hls.write_lock in the producer)", None, UnsupportedError)
        if isinstance(memref.type.elem, StructType) and field is None:
            raise self.ctx.error(f"an element of {memref.name!r} is a {memref.type.elem} struct: store a struct, or "
                                 "assign one field (`a[i].f = v`)", None)
        elem = memref.type.elem if field is None else memref.type.elem.field(field)
        elem = elem.elem if isinstance(elem, ArrayType) else elem
        value = self.ctx.lower.assign(value, elem, self.ctx.loc, "array store")
        self.ctx.emit(StoreOp(value, memref, indices, self.ctx.loc, field=field))

