"""Structs in kernels: `@hls.struct` locals, arguments, results, arrays of structs and FIFO items.

A struct local is one variable per field under the name `p.r` (not a Python identifier, so never a
user's; the C++ local is `p_r`), an array field is a local array `p.taps`; loops and branches carry
fields like any variable. Struct arguments are read into such fields on entry (by value, as C++
passes them). An element of an array of structs is read and written field by field (`back[i].r`:
an hls.load/hls.store with a `field`). A whole struct value (hls.struct_pack) is made only where the
C++ hands one over: a return, a FIFO write, a sub-kernel argument. Python mode runs the user's own
statements on the dataclass instances; assignments of a whole struct copy it (GoldenInfo.assign_types).
Two rules that must know structs first live here: `visit_Attribute` (a field read, else a compile-time
number such as `a.shape`) and `store` (an element store, into a field's array when the target is one).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from hls.errors import UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.conversions import Cast
from hls.frontend.expressions import Expressions
from hls.frontend.scan import zero_of
from hls.frontend.source import call_target, subscript_chain
from hls.frontend.state import Var, local_name
from hls.frontend.streams import Streams
from hls.frontend.subkernels import KernelCalls
from hls.ir import AllocOp, ConstantOp, LoadOp, StoreOp, StreamReadOp, Value
from hls.ir.structops import StructGetOp, StructPackOp, flat_fields
from hls.types import ArrayType, ScalarType, StructType, is_block, struct_type_of


@dataclass
class StructVal:
    """A struct as the frontend holds it: every scalar it contains, in `flat_fields` order."""

    type: StructType
    scalars: list[Value]


class Structs(Family):
    """Struct locals, arguments, results, fields and whole-struct copies (see the module docstring)."""

    def __init__(self, ctx: BuildContext, exprs: Expressions, arrays: Arrays, streams: Streams,
                 kernel_calls: KernelCalls) -> None:
        super().__init__(ctx)
        self.exprs = exprs
        self.arrays = arrays
        self.streams = streams
        self.kernel_calls = kernel_calls

    def struct_type_of_node(self, node: ast.AST) -> StructType | None:
        """The struct type of the value `node` denotes, or None when it is not a struct (no IR emitted)."""
        if isinstance(node, ast.Name):
            return self.ctx.struct_locals.get(node.id) if self.ctx.is_struct_local(node.id) else None
        if isinstance(node, ast.Subscript):
            base, _ = subscript_chain(node)
            var = self.ctx.env.get(base.id) if isinstance(base, ast.Name) else None
            if var is not None and var.is_array and isinstance(var.type.elem, StructType):
                return var.type.elem
            return None
        if isinstance(node, ast.Call):
            found = self.streams.stream_method(node)
            if found is not None:
                elem = found[0].type.elem
                # a FIFO of arrays reads into an array local (Streams.block_unpack), no struct local
                return elem if found[1] == "read" and isinstance(elem, StructType) and not is_block(elem) else None
            target = call_target(node.func, self.ctx.src)
            if struct_type_of(target) is not None:
                return struct_type_of(target)
            if is_kernel(target):
                ret = self.kernel_calls.callee(target, node).return_type
                return ret if isinstance(ret, StructType) else None
        return None

    # ---- reading whole structs ---------------------------------------------------------------------

    def struct_value(self, node: ast.AST, expected: StructType | None, what: str) -> StructVal:
        """The struct `node` denotes, checked against the `expected` type."""
        t = self.struct_type_of_node(node)
        if t is None:
            got = "a value" if expected is None else "not a struct"
            raise self.ctx.error(f"{what} must be a {expected} struct, got {got}", node)
        if expected is not None and t != expected:
            raise self.ctx.error(f"{what} is a {expected} struct; got a {t} (structs convert only to their own type)",
                                 node)
        if isinstance(node, ast.Name):
            return StructVal(t, [self.struct_read_local(node.id, f, k) for f, k, _ in flat_fields(t)])
        if isinstance(node, ast.Subscript):
            memref, indices = self.arrays.access(node)
            return StructVal(t, [self.load_field(memref, indices, f, k, n > 0)
                                 for n, (f, k, _) in enumerate(flat_fields(t))])
        target = call_target(node.func, self.ctx.src)
        if struct_type_of(target) is not None:
            return self.struct_construct(t, node)
        if isinstance(node.func, ast.Attribute) and not struct_type_of(target):
            found = self.streams.stream_method(node)
            if found is not None:
                if node.args or node.keywords:
                    raise self.ctx.error("read() takes no arguments", node)
                return self.struct_unpack(self.ctx.emit(StreamReadOp(found[0], self.ctx.loc)))
        return self.struct_unpack(self.kernel_calls.call_kernel(target, node, want_result=True))

    def struct_unpack(self, whole: Value) -> StructVal:
        return StructVal(whole.type, [self.ctx.emit(StructGetOp(whole, f, k, self.ctx.loc))
                                      for f, k, _ in flat_fields(whole.type)])

    def struct_pack(self, val: StructVal) -> Value:
        return self.ctx.emit(StructPackOp(val.scalars, val.type, self.ctx.loc))

    def struct_packed(self, node: ast.AST, t: StructType, what: str) -> Value:
        """A whole struct value for a return, a FIFO write or a sub-kernel argument."""
        return self.struct_pack(self.struct_value(node, t, what))

    def struct_read_local(self, name: str, field: str, element: int | None) -> Value:
        var = self.ctx.env[local_name(name, field)]
        if element is None:
            return var.value
        return self.ctx.emit(LoadOp(var.value, self.constant_indices(var.type.shape, element), self.ctx.loc))

    def constant_indices(self, shape: tuple[int, ...], element: int) -> list[Value]:
        out = []
        for size in reversed(shape):
            element, k = divmod(element, size)
            out.insert(0, self.ctx.lower.constant(k, self.ctx.loc))
        return [self.ctx.lower.as_int(v, self.ctx.loc) for v in out]

    def load_field(self, memref: Value, indices: list[Value], field: str, element: int | None,
                   part: bool = False) -> Value:
        """One field of an element; `part` when an earlier load of the same statement read the whole
        struct (the schedule counts one access of the aggregated word)."""
        ft = memref.type.elem.field(field)
        extra = self.constant_indices(ft.shape, element) if element is not None else []
        op = LoadOp(memref, [*indices, *extra], self.ctx.loc, field=field)
        if part:
            op.attrs["word_part"] = True
        return self.ctx.emit(op)

    def struct_construct(self, t: StructType, node: ast.Call) -> StructVal:
        """`Pixel(r, g, b=...)`: positional then keyword fields, each converted to its type; omitted fields
        are zero (the dataclass defaults). Array fields take their zeros only."""
        names = [n for n, _ in t.fields]
        if len(node.args) > len(names):
            raise self.ctx.error(f"{t} has {len(names)} fields, got {len(node.args)} positional arguments", node)
        given: dict[str, ast.AST] = dict(zip(names, node.args, strict=False))
        for kw in node.keywords:
            if kw.arg not in names:
                raise self.ctx.error(f"{t} has no field {kw.arg!r}; its fields are {', '.join(names)}", kw.value)
            if kw.arg in given:
                raise self.ctx.error(f"field {kw.arg!r} of {t} given twice", kw.value)
            given[kw.arg] = kw.value
        scalars = []
        for field, element, ft in flat_fields(t):
            source = given.get(field)
            if source is not None and element is not None:
                raise self.ctx.error(f"array field {field!r} cannot be given in the constructor; assign its elements "
                              f"(`x.{field}[k] = ...`)", source, UnsupportedError)
            if source is None:

                default = t.cls.__dataclass_fields__[field].default if element is None and t.cls is not None else None
                scalars.append(self.ctx.emit(ConstantOp(zero_of(ft) if default is None else default, ft, self.ctx.loc)))
            else:
                value = self.ctx.expr(source)
                scalars.append(self.ctx.lower.assign(value, ft, self.ctx.src.loc(source), f"field {field!r} of {t}"))
        return StructVal(t, scalars)

    # ---- binding and storing whole structs ---------------------------------------------------------------

    def struct_assign(self, target: ast.AST, node: ast.AST, key: ast.AST,
               declared: StructType | None = None) -> None:
        """`p = <struct>` (a copy), `back[i] = <struct>`, `p: Pixel = <struct>`."""
        if isinstance(target, ast.Name):
            expected = declared or self.ctx.struct_locals.get(target.id)
            if target.id in self.ctx.env:
                raise self.ctx.error(f"{target.id!r} is not a struct; a struct cannot be assigned to it", target)
            val = self.struct_value(node, expected, f"{target.id!r}")
            self.name_reads(target.id, val)
            self.struct_bind_local(target.id, val)
        elif isinstance(target, ast.Subscript) and self.struct_type_of_node(target) is not None:
            memref, indices = self.arrays.access(target)
            val = self.struct_value(node, memref.type.elem, f"an element of {ast.unparse(target.value)!r}")
            self.struct_store_whole(memref, indices, val)
        else:
            raise self.ctx.error("a struct can be assigned to a variable or to an element of an array of structs",
                                 target,
                          UnsupportedError)
        self.ctx.conversions.add(key, Cast(val.type))

    @staticmethod
    def name_reads(name: str, val: StructVal) -> None:
        """`p = pixels[i]` / `p = s.read()`: the values read take the local's names (`p` for a whole value,
        `p.r` for a field), so the C++ reads `Pixel p = pixels[i];` and `p.r` as the Python does
        (hls/backend/cpp/structs.py, `struct_read`). Names only: the IR is the same."""
        for (field, element, _), value in zip(flat_fields(val.type), val.scalars, strict=True):
            op = getattr(value, "op", None)
            if element is not None or value.name or not isinstance(op, (LoadOp, StructGetOp)):
                continue
            value.name = local_name(name, field)
            if isinstance(op, StructGetOp) and not op.struct.name:
                op.struct.name = name

    def struct_bind_local(self, name: str, val: StructVal) -> None:

        self.ctx.struct_locals[name] = val.type
        for (field, element, ft), value in zip(flat_fields(val.type), val.scalars, strict=True):
            key = local_name(name, field)
            if element is None:
                value = self.ctx.lower.assign(value, ft, self.ctx.loc, f"field {field!r}")
                self.ctx.env[key] = Var(value, ft)
                continue
            var = self.ctx.env.get(key)
            if var is None:
                at = val.type.field(field)
                var = Var(self.ctx.emit(AllocOp(at, key.replace(".", "_"), self.ctx.loc)), at, is_array=True)
                self.ctx.env[key] = var
            self.ctx.emit(StoreOp(value, var.value, self.constant_indices(var.type.shape, element), self.ctx.loc))

    def struct_store_whole(self, memref: Value, indices: list[Value], val: StructVal) -> None:
        """A whole struct into an element, field by field: one write of the aggregated word in the schedule."""
        for n, ((field, element, _), value) in enumerate(zip(flat_fields(val.type), val.scalars, strict=True)):
            ft = val.type.field(field)
            extra = self.constant_indices(ft.shape, element) if element is not None else []
            op = StoreOp(value, memref, [*indices, *extra], self.ctx.loc, field=field)
            if n > 0:
                op.attrs["word_part"] = True
            self.ctx.emit(op)

    def struct_bind_argument(self, name: str, arg: Value) -> None:
        """A struct argument arrives by value: its fields become the kernel's own variables."""
        self.struct_bind_local(name, self.struct_unpack(arg))

    # ---- fields ------------------------------------------------------------------------------------------

    def field_type(self, t: StructType, node: ast.Attribute) -> ScalarType | ArrayType:
        ft = t.field(node.attr)
        if ft is None:
            names = ", ".join(n for n, _ in t.fields)
            raise self.ctx.error(f"{t} has no field {node.attr!r}; its fields are {names}{t.missing_hint(node.attr)}",
                                 node)
        return ft

    def read_field(self, node: ast.Attribute) -> Value:
        """`p.r`, `back[i].r`, `s.read().r`: one scalar field."""
        t = self.struct_type_of_node(node.value)
        ft = self.field_type(t, node)
        if isinstance(ft, ArrayType):
            raise self.ctx.error(f"field {node.attr!r} is an array; index it (`{ast.unparse(node)}[k]`)", node)
        if isinstance(node.value, ast.Name):
            return self.struct_read_local(node.value.id, node.attr, None)
        if isinstance(node.value, ast.Subscript):
            memref, indices = self.arrays.access(node.value)
            return self.load_field(memref, indices, node.attr, None)
        val = self.struct_value(node.value, t, "a struct")
        return val.scalars[[f for f, _, _ in flat_fields(t)].index(node.attr)]

    def field_access(self, node: ast.Subscript) -> tuple[Value, list[Value], str | None] | None:
        """`p.taps[j]` / `back[i].taps[j]`: (memref, indices, field of the memref's structs or None);
        None when `node` is no element of a struct's array field."""
        base, index_nodes = subscript_chain(node)
        if not isinstance(base, ast.Attribute):
            return None
        t = self.struct_type_of_node(base.value)
        if t is None:
            return None
        ft = self.field_type(t, base)
        if not isinstance(ft, ArrayType):
            return None  # bits of a scalar field (`p.r[0:4]`): hls.frontend.bits reads the field first
        if len(index_nodes) != len(ft.shape):
            raise self.ctx.error(f"field {base.attr!r} has shape {ft.shape}, indexed with {len(index_nodes)} indices",
                                 node)
        extra = [self.field_index(n, size) for n, size in zip(index_nodes, ft.shape, strict=True)]
        if isinstance(base.value, ast.Name):
            return self.ctx.env[local_name(base.value.id, base.attr)].value, extra, None
        if isinstance(base.value, ast.Subscript):
            memref, indices = self.arrays.access(base.value)
            return memref, [*indices, *extra], base.attr
        raise self.ctx.error("index an array field of a struct variable or of an array element", node, UnsupportedError)

    def field_index(self, node: ast.AST, size: int) -> Value:
        return self.arrays.index_value(node, size, "array index",
                                f"index {{}} is out of bounds for a field dimension of size {size}")

    def store_field(self, target: ast.Attribute, value: Value) -> None:
        """`p.r = v`, `back[i].r = v`."""
        t = self.struct_type_of_node(target.value)
        if t is None:
            raise self.ctx.error(f"{ast.unparse(target.value)!r} is not a struct; only struct fields can be assigned "
                                 "with `.`", target, UnsupportedError)
        ft = self.field_type(t, target)
        if isinstance(ft, ArrayType):
            raise self.ctx.error(f"field {target.attr!r} is an array; assign its elements "
                                 f"(`{ast.unparse(target)}[k] = ...`)", target, UnsupportedError)
        value = self.ctx.lower.assign(value, ft, self.ctx.loc, f"field {target.attr!r}")
        if isinstance(target.value, ast.Name):
            key = local_name(target.value.id, target.attr)
            if not value.name and getattr(value, "op", None) is not None:
                value.name = key  # `p.r = ...` assigns the C++ `p.r` where it may (names only)
            self.ctx.env[key] = Var(value, ft)
        elif isinstance(target.value, ast.Subscript):
            memref, indices = self.arrays.access(target.value)
            self.ctx.emit(StoreOp(value, memref, indices, self.ctx.loc, field=target.attr))
        else:
            raise self.ctx.error("assign fields of a struct variable or of an array element", target, UnsupportedError)

    def visit_Attribute(self, node: ast.Attribute) -> Value:
        """`p.r` (a struct field); `a.shape[0]`, `a.ndim`, `math.pi`, `cfg.N`: compile-time numbers."""
        if self.struct_type_of_node(node.value) is not None:
            return self.read_field(node)
        return self.exprs.static_number(node)

    def store(self, target: ast.Subscript, value: Value) -> None:
        """`a[i] = v` or `p.taps[j] = v`: an element store, into a struct's array field when `target` is one."""
        memref, indices, field = self.field_access(target) or (*self.arrays.access(target), None)
        self.arrays.store_value(memref, indices, value, field)

