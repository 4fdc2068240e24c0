"""Arrays: local `hls.zeros` arrays, element access with rank and constant-bound checks, stores."""

from __future__ import annotations

import ast

from hls.errors import UnsupportedError
from hls.frontend.base import BuilderBase
from hls.frontend.source import subscript_chain, try_static
from hls.frontend.state import Var
from hls.ir import AllocOp, ConstantOp, LoadOp, RomOp, StoreOp, Value
from hls.lang.storage import zeros
from hls.types import ArrayType, BoolType, IntType, StructType


class Arrays(BuilderBase):
    """Local arrays, element access and stores."""

    def is_zeros_call(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        return try_static(node.func, self.src) is zeros

    def bind_local_array(self, target: ast.Name, call: ast.Call) -> None:
        if target.id in self.env:
            raise self.error(f"{target.id!r} is already defined; local arrays cannot be rebound", target,
                             UnsupportedError)
        t = self.local_array_type(call)
        if target.id == self.result_name:
            self.bind_result_array(target, t, zero=True)
            return
        value = self.emit(AllocOp(t, target.id, self.loc))
        self.env[target.id] = Var(value, t, is_array=True)

    def local_array_type(self, call: ast.Call) -> ArrayType:
        """The type `hls.zeros(shape, type)` creates (shape and type compile-time constants)."""
        if len(call.args) != 2 or call.keywords:
            raise self.error("use hls.zeros(shape, type), e.g. hls.zeros((64, 64), hls.float32)", call)
        for node in ast.walk(call.args[0]):
            if isinstance(node, ast.Name) and node.id in self.env:
                raise self.error(f"array shape must be compile-time constants; {node.id!r} is a kernel variable "
                                 "(use a module-level constant or the largest size)", node)
        shape = self.static(call.args[0], "array shape")
        shape = shape if isinstance(shape, tuple) else (shape,)
        if not shape or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape):
            raise self.error(f"array shape must be positive integer constants, got {shape!r}", call.args[0])
        elem = self.annotation(call.args[1], "array element", allow_array=False)
        return ArrayType(elem, tuple(shape))

    def access(self, node: ast.Subscript) -> tuple[Value, list[Value]]:
        """`A[i, j]` or `A[i][j]` -> (memref, index values), checking rank and constant bounds."""
        base, index_nodes = subscript_chain(node)
        alias = self.env.get(base.id) if isinstance(base, ast.Name) else None
        prefix = list(alias.prefix) if alias is not None else []
        memref = alias.value if prefix else self.expr(base)
        if not isinstance(memref.type, ArrayType):
            raise self.error(f"{memref.type} value is not an array and cannot be indexed", base)
        shape = memref.type.shape
        if len(prefix) + len(index_nodes) != len(shape):
            raise self.error(f"array of shape {shape[len(prefix):]} indexed with {len(index_nodes)} indices; index "
                             "every dimension", node)
        indices = prefix
        for dim, (size, index_node) in enumerate(zip(shape[len(prefix):], index_nodes, strict=True)):
            indices.append(self.index_value(index_node, size, "array index",
                                            f"index {{}} is out of bounds for dimension {dim} of size {size}"))
        return memref, indices

    def index_value(self, node: ast.AST, size: int, what: str, out_of_range: str) -> Value:
        """An index into `size` positions (array elements, bits) as an int: a constant one is checked here
        (`out_of_range` formatted with its value), a variable one by csim."""
        index = self.expr(node)
        if not isinstance(index.type, (IntType, BoolType)):
            raise self.error(f"{what} must be an integer, got {index.type}", node)
        op = getattr(index, "op", None)
        if isinstance(op, ConstantOp) and not 0 <= int(op.value) < size:
            raise self.error(out_of_range.format(op.value), node)
        return self.lower.as_int(index, self.loc)

    def store(self, target: ast.Subscript, value: Value) -> None:
        memref, indices, field = self.field_access(target) or (*self.access(target), None)
        self.store_value(memref, indices, value, field)

    def store_value(self, memref: Value, indices: list[Value], value: Value, field: str | None = None) -> None:
        """A store into an element, or into `field` of an element of an array of structs."""
        if isinstance(getattr(memref, "op", None), RomOp):
            raise self.error("module-level constant arrays are read-only in kernels", None)
        if isinstance(memref.type.elem, StructType) and field is None:
            raise self.error(f"an element of {memref.name!r} is a {memref.type.elem} struct: store a struct, or "
                             "assign one field (`a[i].f = v`)", None)
        elem = memref.type.elem if field is None else memref.type.elem.field(field)
        elem = elem.elem if isinstance(elem, ArrayType) else elem
        value = self.lower.assign(value, elem, self.loc, "array store")
        self.emit(StoreOp(value, memref, indices, self.loc, field=field))

    def visit_Subscript(self, node: ast.Subscript) -> Value:
        found = self.field_access(node)
        if found is not None:  # `p.taps[j]`, `back[i].taps[j]`
            return self.emit(LoadOp(found[0], found[1], self.loc, field=found[2]))
        if isinstance(node.value, ast.Attribute) and self.struct_type_of_node(node.value.value) is None:
            return self.static_number(node)  # `a.shape[1]`: a compile-time number, not a memory read
        if self.is_bit_access(node):
            return self.read_bits(node)
        if self.struct_type_of_node(node) is not None:
            raise self.struct_not_a_value(self.struct_type_of_node(node), node)
        memref, indices = self.access(node)
        return self.emit(LoadOp(memref, indices, self.loc))
