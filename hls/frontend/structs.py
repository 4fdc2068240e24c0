"""Structs in kernels: `@hls.struct` locals, arguments, results, arrays of structs and FIFO items.

A struct local is one variable per field under the name `p.r` (not a Python identifier, so never a
user's; the C++ local is `p_r`), an array field is a local array `p.taps`; loops and branches carry
fields like any variable. Struct arguments are read into such fields on entry (by value, as C++
passes them). An element of an array of structs is read and written field by field (`back[i].r`:
an hls.load/hls.store with a `field`). A whole struct value (hls.struct_pack) is made only where the
C++ hands one over: a return, a FIFO write, a sub-kernel argument. Python mode runs the user's own
statements on the dataclass instances; assignments of a whole struct copy it (GoldenInfo.assign_types).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuilderBase, is_kernel
from hls.frontend.conversions import Cast
from hls.frontend.scan import zero_of
from hls.frontend.source import call_target, subscript_chain
from hls.frontend.state import Var
from hls.ir import AllocOp, ConstantOp, LoadOp, StoreOp, StreamReadOp, Value
from hls.ir.structops import StructGetOp, StructPackOp, flat_fields
from hls.types import ArrayType, ScalarType, StructType, struct_type_of


@dataclass
class StructVal:
    """A struct as the frontend holds it: every scalar it contains, in `flat_fields` order."""

    type: StructType
    scalars: list[Value]


def local_name(name: str, field: str) -> str:
    return f"{name}.{field}"


class Structs(BuilderBase):
    """Struct locals, arguments, results, fields and whole-struct copies (see the module docstring)."""

    def is_struct_local(self, name: str) -> bool:
        t = self.structs.get(name)
        return t is not None and local_name(name, t.fields[0][0]) in self.env

    def struct_type_of_node(self, node: ast.AST) -> StructType | None:
        """The struct type of the value `node` denotes, or None when it is not a struct (no IR emitted)."""
        if isinstance(node, ast.Name):
            return self.structs.get(node.id) if self.is_struct_local(node.id) else None
        if isinstance(node, ast.Subscript):
            base, _ = subscript_chain(node)
            var = self.env.get(base.id) if isinstance(base, ast.Name) else None
            if var is not None and var.is_array and isinstance(var.type.elem, StructType):
                return var.type.elem
            return None
        if isinstance(node, ast.Call):
            found = self.stream_method(node)
            if found is not None:
                elem = found[0].type.elem
                return elem if found[1] == "read" and isinstance(elem, StructType) else None
            target = call_target(node.func, self.src)
            if struct_type_of(target) is not None:
                return struct_type_of(target)
            if is_kernel(target):
                ret = self.callee(target, node).return_type
                return ret if isinstance(ret, StructType) else None
        return None

    def struct_not_a_value(self, t: StructType, node: ast.AST) -> HLSTypeError:
        fields = ", ".join(n for n, _ in t.fields[:3])
        return self.error(f"{ast.unparse(node)!r} is a {t} struct, which has no arithmetic or comparison; use its "
                          f"fields ({fields}, ...) or assign, store, pass or return it whole", node)

    # ---- reading whole structs ---------------------------------------------------------------------

    def struct_value(self, node: ast.AST, expected: StructType | None, what: str) -> StructVal:
        """The struct `node` denotes, checked against the `expected` type."""
        t = self.struct_type_of_node(node)
        if t is None:
            got = "a value" if expected is None else "not a struct"
            raise self.error(f"{what} must be a {expected} struct, got {got}", node)
        if expected is not None and t != expected:
            raise self.error(f"{what} is a {expected} struct; got a {t} (structs convert only to their own type)", node)
        if isinstance(node, ast.Name):
            return StructVal(t, [self.struct_read_local(node.id, f, k) for f, k, _ in flat_fields(t)])
        if isinstance(node, ast.Subscript):
            memref, indices = self.access(node)
            return StructVal(t, [self.load_field(memref, indices, f, k, n > 0)
                                 for n, (f, k, _) in enumerate(flat_fields(t))])
        target = call_target(node.func, self.src)
        if struct_type_of(target) is not None:
            return self.struct_construct(t, node)
        if isinstance(node.func, ast.Attribute) and not struct_type_of(target):
            found = self.stream_method(node)
            if found is not None:
                if node.args or node.keywords:
                    raise self.error("read() takes no arguments", node)
                return self.struct_unpack(self.emit(StreamReadOp(found[0], self.loc)))
        return self.struct_unpack(self.call_kernel(target, node, want_result=True))

    def struct_unpack(self, whole: Value) -> StructVal:
        return StructVal(whole.type, [self.emit(StructGetOp(whole, f, k, self.loc))
                                      for f, k, _ in flat_fields(whole.type)])

    def struct_pack(self, val: StructVal) -> Value:
        return self.emit(StructPackOp(val.scalars, val.type, self.loc))

    def struct_packed(self, node: ast.AST, t: StructType, what: str) -> Value:
        """A whole struct value for a return, a FIFO write or a sub-kernel argument."""
        return self.struct_pack(self.struct_value(node, t, what))

    def struct_read_local(self, name: str, field: str, element: int | None) -> Value:
        var = self.env[local_name(name, field)]
        if element is None:
            return var.value
        return self.emit(LoadOp(var.value, self.constant_indices(var.type.shape, element), self.loc))

    def constant_indices(self, shape: tuple[int, ...], element: int) -> list[Value]:
        out = []
        for size in reversed(shape):
            element, k = divmod(element, size)
            out.insert(0, self.lower.constant(k, self.loc))
        return [self.lower.as_int(v, self.loc) for v in out]

    def load_field(self, memref: Value, indices: list[Value], field: str, element: int | None,
                   part: bool = False) -> Value:
        """One field of an element; `part` when an earlier load of the same statement read the whole
        struct (the schedule counts one access of the aggregated word)."""
        ft = memref.type.elem.field(field)
        extra = self.constant_indices(ft.shape, element) if element is not None else []
        op = LoadOp(memref, [*indices, *extra], self.loc, field=field)
        if part:
            op.attrs["word_part"] = True
        return self.emit(op)

    def struct_construct(self, t: StructType, node: ast.Call) -> StructVal:
        """`Pixel(r, g, b=...)`: positional then keyword fields, each converted to its type; omitted fields
        are zero (the dataclass defaults). Array fields take their zeros only."""
        names = [n for n, _ in t.fields]
        if len(node.args) > len(names):
            raise self.error(f"{t} has {len(names)} fields, got {len(node.args)} positional arguments", node)
        given: dict[str, ast.AST] = dict(zip(names, node.args, strict=False))
        for kw in node.keywords:
            if kw.arg not in names:
                raise self.error(f"{t} has no field {kw.arg!r}; its fields are {', '.join(names)}", kw.value)
            if kw.arg in given:
                raise self.error(f"field {kw.arg!r} of {t} given twice", kw.value)
            given[kw.arg] = kw.value
        scalars = []
        for field, element, ft in flat_fields(t):
            source = given.get(field)
            if source is not None and element is not None:
                raise self.error(f"array field {field!r} cannot be given in the constructor; assign its elements "
                              f"(`x.{field}[k] = ...`)", source, UnsupportedError)
            if source is None:

                default = t.cls.__dataclass_fields__[field].default if element is None and t.cls is not None else None
                scalars.append(self.emit(ConstantOp(zero_of(ft) if default is None else default, ft, self.loc)))
            else:
                value = self.expr(source)
                scalars.append(self.lower.assign(value, ft, self.src.loc(source), f"field {field!r} of {t}"))
        return StructVal(t, scalars)

    # ---- binding and storing whole structs ---------------------------------------------------------------

    def struct_assign(self, target: ast.AST, node: ast.AST, key: ast.AST,
               declared: StructType | None = None) -> None:
        """`p = <struct>` (a copy), `back[i] = <struct>`, `p: Pixel = <struct>`."""
        if isinstance(target, ast.Name):
            expected = declared or self.structs.get(target.id)
            if target.id in self.env:
                raise self.error(f"{target.id!r} is not a struct; a struct cannot be assigned to it", target)
            val = self.struct_value(node, expected, f"{target.id!r}")
            self.struct_bind_local(target.id, val)
        elif isinstance(target, ast.Subscript) and self.struct_type_of_node(target) is not None:
            memref, indices = self.access(target)
            val = self.struct_value(node, memref.type.elem, f"an element of {ast.unparse(target.value)!r}")
            self.struct_store_whole(memref, indices, val)
        else:
            raise self.error("a struct can be assigned to a variable or to an element of an array of structs", target,
                          UnsupportedError)
        self.conversions.add(key, Cast(val.type))

    def struct_bind_local(self, name: str, val: StructVal) -> None:

        self.structs[name] = val.type
        for (field, element, ft), value in zip(flat_fields(val.type), val.scalars, strict=True):
            key = local_name(name, field)
            if element is None:
                value = self.lower.assign(value, ft, self.loc, f"field {field!r}")
                self.env[key] = Var(value, ft)
                continue
            var = self.env.get(key)
            if var is None:
                at = val.type.field(field)
                var = Var(self.emit(AllocOp(at, key.replace(".", "_"), self.loc)), at, is_array=True)
                self.env[key] = var
            self.emit(StoreOp(value, var.value, self.constant_indices(var.type.shape, element), self.loc))

    def struct_store_whole(self, memref: Value, indices: list[Value], val: StructVal) -> None:
        """A whole struct into an element, field by field: one write of the aggregated word in the schedule."""
        for n, ((field, element, _), value) in enumerate(zip(flat_fields(val.type), val.scalars, strict=True)):
            ft = val.type.field(field)
            extra = self.constant_indices(ft.shape, element) if element is not None else []
            op = StoreOp(value, memref, [*indices, *extra], self.loc, field=field)
            if n > 0:
                op.attrs["word_part"] = True
            self.emit(op)

    def struct_bind_argument(self, name: str, arg: Value) -> None:
        """A struct argument arrives by value: its fields become the kernel's own variables."""
        self.struct_bind_local(name, self.struct_unpack(arg))

    # ---- fields ------------------------------------------------------------------------------------------

    def field_type(self, t: StructType, node: ast.Attribute) -> ScalarType | ArrayType:
        ft = t.field(node.attr)
        if ft is None:
            names = ", ".join(n for n, _ in t.fields)
            raise self.error(f"{t} has no field {node.attr!r}; its fields are {names}{t.missing_hint(node.attr)}", node)
        return ft

    def read_field(self, node: ast.Attribute) -> Value:
        """`p.r`, `back[i].r`, `s.read().r`: one scalar field."""
        t = self.struct_type_of_node(node.value)
        ft = self.field_type(t, node)
        if isinstance(ft, ArrayType):
            raise self.error(f"field {node.attr!r} is an array; index it (`{ast.unparse(node)}[k]`)", node)
        if isinstance(node.value, ast.Name):
            return self.struct_read_local(node.value.id, node.attr, None)
        if isinstance(node.value, ast.Subscript):
            memref, indices = self.access(node.value)
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
            raise self.error(f"field {base.attr!r} has shape {ft.shape}, indexed with {len(index_nodes)} indices", node)
        extra = [self.field_index(n, size) for n, size in zip(index_nodes, ft.shape, strict=True)]
        if isinstance(base.value, ast.Name):
            return self.env[local_name(base.value.id, base.attr)].value, extra, None
        if isinstance(base.value, ast.Subscript):
            memref, indices = self.access(base.value)
            return memref, [*indices, *extra], base.attr
        raise self.error("index an array field of a struct variable or of an array element", node, UnsupportedError)

    def field_index(self, node: ast.AST, size: int) -> Value:
        return self.index_value(node, size, "array index",
                                f"index {{}} is out of bounds for a field dimension of size {size}")

    def store_field(self, target: ast.Attribute, value: Value) -> None:
        """`p.r = v`, `back[i].r = v`."""
        t = self.struct_type_of_node(target.value)
        if t is None:
            raise self.error(f"{ast.unparse(target.value)!r} is not a struct; only struct fields can be assigned "
                             "with `.`", target, UnsupportedError)
        ft = self.field_type(t, target)
        if isinstance(ft, ArrayType):
            raise self.error(f"field {target.attr!r} is an array; assign its elements "
                             f"(`{ast.unparse(target)}[k] = ...`)", target, UnsupportedError)
        value = self.lower.assign(value, ft, self.loc, f"field {target.attr!r}")
        if isinstance(target.value, ast.Name):

            self.env[local_name(target.value.id, target.attr)] = Var(value, ft)
        elif isinstance(target.value, ast.Subscript):
            memref, indices = self.access(target.value)
            self.emit(StoreOp(value, memref, indices, self.loc, field=target.attr))
        else:
            raise self.error("assign fields of a struct variable or of an array element", target, UnsupportedError)

