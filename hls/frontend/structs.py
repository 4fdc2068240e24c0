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
from typing import TYPE_CHECKING

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.source import call_target
from hls.ir import AllocOp, ConstantOp, LoadOp, StoreOp, StreamReadOp, Value
from hls.ir.structops import StructGetOp, StructPackOp, flat_fields
from hls.types import ArrayType, BoolType, IntType, ScalarType, StructType, struct_type_of

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder


@dataclass
class StructVal:
    """A struct as the frontend holds it: every scalar it contains, in `flat_fields` order."""

    type: StructType
    scalars: list[Value]


def local_name(name: str, field: str) -> str:
    return f"{name}.{field}"


def is_local(b: FunctionBuilder, name: str) -> bool:
    t = b.structs.get(name)
    return t is not None and local_name(name, t.fields[0][0]) in b.env


def node_type(b: FunctionBuilder, node: ast.AST) -> StructType | None:
    """The struct type of the value `node` denotes, or None when it is not a struct (no IR emitted)."""
    if isinstance(node, ast.Name):
        return b.structs.get(node.id) if is_local(b, node.id) else None
    if isinstance(node, ast.Subscript):
        base = node
        while isinstance(base, ast.Subscript):
            base = base.value
        var = b.env.get(base.id) if isinstance(base, ast.Name) else None
        if var is not None and var.is_array and isinstance(var.type.elem, StructType):
            return var.type.elem
        return None
    if isinstance(node, ast.Call):
        from hls.frontend import streams
        from hls.frontend.builder import is_kernel

        found = streams.stream_method(b, node)
        if found is not None:
            elem = found[0].type.elem
            return elem if found[1] == "read" and isinstance(elem, StructType) else None
        target = call_target(node.func, b.src)
        if struct_type_of(target) is not None:
            return struct_type_of(target)
        if is_kernel(target):
            ret = b.callee(target, node).return_type
            return ret if isinstance(ret, StructType) else None
    return None


def not_a_value(b: FunctionBuilder, t: StructType, node: ast.AST) -> HLSTypeError:
    return b.error(f"{ast.unparse(node)!r} is a {t} struct, which has no arithmetic or comparison; use its fields "
                   f"({', '.join(n for n, _ in t.fields[:3])}, ...) or assign, store, pass or return it whole", node)


# ---- reading whole structs -------------------------------------------------------------------------


def value_of(b: FunctionBuilder, node: ast.AST, expected: StructType | None, what: str) -> StructVal:
    """The struct `node` denotes, checked against the `expected` type."""
    t = node_type(b, node)
    if t is None:
        got = "a value" if expected is None else "not a struct"
        raise b.error(f"{what} must be a {expected} struct, got {got}", node)
    if expected is not None and t != expected:
        raise b.error(f"{what} is a {expected} struct; got a {t} (structs convert only to their own type)", node)
    if isinstance(node, ast.Name):
        return StructVal(t, [read_local(b, node.id, f, k) for f, k, _ in flat_fields(t)])
    if isinstance(node, ast.Subscript):
        memref, indices = b.access(node)
        return StructVal(t, [load_field(b, memref, indices, f, k, n > 0) for n, (f, k, _) in enumerate(flat_fields(t))])
    target = call_target(node.func, b.src)
    if struct_type_of(target) is not None:
        return construct(b, t, node)
    if isinstance(node.func, ast.Attribute) and not struct_type_of(target):
        from hls.frontend import streams

        found = streams.stream_method(b, node)
        if found is not None:
            if node.args or node.keywords:
                raise b.error("read() takes no arguments", node)
            return unpack(b, b.emit(StreamReadOp(found[0], b.loc)))
    return unpack(b, b.call_kernel(target, node, want_result=True))


def unpack(b: FunctionBuilder, whole: Value) -> StructVal:
    return StructVal(whole.type, [b.emit(StructGetOp(whole, f, k, b.loc)) for f, k, _ in flat_fields(whole.type)])


def pack(b: FunctionBuilder, val: StructVal) -> Value:
    return b.emit(StructPackOp(val.scalars, val.type, b.loc))


def packed(b: FunctionBuilder, node: ast.AST, t: StructType, what: str) -> Value:
    """A whole struct value for a return, a FIFO write or a sub-kernel argument."""
    return pack(b, value_of(b, node, t, what))


def read_local(b: FunctionBuilder, name: str, field: str, element: int | None) -> Value:
    var = b.env[local_name(name, field)]
    if element is None:
        return var.value
    return b.emit(LoadOp(var.value, constant_indices(b, var.type.shape, element), b.loc))


def constant_indices(b: FunctionBuilder, shape: tuple[int, ...], element: int) -> list[Value]:
    out = []
    for size in reversed(shape):
        element, k = divmod(element, size)
        out.insert(0, b.lower.constant(k, b.loc))
    return [b.lower.as_int(v, b.loc) for v in out]


def load_field(b: FunctionBuilder, memref: Value, indices: list[Value], field: str, element: int | None,
               part: bool = False) -> Value:
    """One field of an element; `part` when an earlier load of the same statement read the whole
    struct (the schedule counts one access of the aggregated word)."""
    ft = memref.type.elem.field(field)
    extra = constant_indices(b, ft.shape, element) if element is not None else []
    op = LoadOp(memref, [*indices, *extra], b.loc, field=field)
    if part:
        op.attrs["word_part"] = True
    return b.emit(op)


def construct(b: FunctionBuilder, t: StructType, node: ast.Call) -> StructVal:
    """`Pixel(r, g, b=...)`: positional then keyword fields, each converted to its type; omitted fields
    are zero (the dataclass defaults). Array fields take their zeros only."""
    names = [n for n, _ in t.fields]
    if len(node.args) > len(names):
        raise b.error(f"{t} has {len(names)} fields, got {len(node.args)} positional arguments", node)
    given: dict[str, ast.AST] = dict(zip(names, node.args, strict=False))
    for kw in node.keywords:
        if kw.arg not in names:
            raise b.error(f"{t} has no field {kw.arg!r}; its fields are {', '.join(names)}", kw.value)
        if kw.arg in given:
            raise b.error(f"field {kw.arg!r} of {t} given twice", kw.value)
        given[kw.arg] = kw.value
    scalars = []
    for field, element, ft in flat_fields(t):
        source = given.get(field)
        if source is not None and element is not None:
            raise b.error(f"array field {field!r} cannot be given in the constructor; assign its elements "
                          f"(`x.{field}[k] = ...`)", source, UnsupportedError)
        if source is None:
            from hls.frontend.control import zero_of

            scalars.append(b.emit(ConstantOp(zero_of(ft), ft, b.loc)))
        else:
            scalars.append(b.lower.assign(b.expr(source), ft, b.src.loc(source), f"field {field!r} of {t}"))
    return StructVal(t, scalars)


# ---- binding and storing whole structs ---------------------------------------------------------------


def assign(b: FunctionBuilder, target: ast.AST, node: ast.AST, key: ast.AST,
           declared: StructType | None = None) -> None:
    """`p = <struct>` (a copy), `back[i] = <struct>`, `p: Pixel = <struct>`."""
    if isinstance(target, ast.Name):
        expected = declared or b.structs.get(target.id)
        if target.id in b.env:
            raise b.error(f"{target.id!r} is not a struct; a struct cannot be assigned to it", target)
        val = value_of(b, node, expected, f"{target.id!r}")
        bind_local(b, target.id, val)
    elif isinstance(target, ast.Subscript) and node_type(b, target) is not None:
        memref, indices = b.access(target)
        val = value_of(b, node, memref.type.elem, f"an element of {ast.unparse(target.value)!r}")
        store_whole(b, memref, indices, val)
    else:
        raise b.error("a struct can be assigned to a variable or to an element of an array of structs", target,
                      UnsupportedError)
    b.info.assign_types[id(key)] = val.type


def bind_local(b: FunctionBuilder, name: str, val: StructVal) -> None:
    from hls.frontend.builder import Var

    b.structs[name] = val.type
    for (field, element, ft), value in zip(flat_fields(val.type), val.scalars, strict=True):
        key = local_name(name, field)
        if element is None:
            value = b.lower.assign(value, ft, b.loc, f"field {field!r}")
            b.env[key] = Var(value, ft)
            continue
        var = b.env.get(key)
        if var is None:
            at = val.type.field(field)
            var = Var(b.emit(AllocOp(at, key.replace(".", "_"), b.loc)), at, is_array=True)
            b.env[key] = var
        b.emit(StoreOp(value, var.value, constant_indices(b, var.type.shape, element), b.loc))


def store_whole(b: FunctionBuilder, memref: Value, indices: list[Value], val: StructVal) -> None:
    """A whole struct into an element, field by field: one write of the aggregated word in the schedule."""
    for n, ((field, element, _), value) in enumerate(zip(flat_fields(val.type), val.scalars, strict=True)):
        ft = val.type.field(field)
        extra = constant_indices(b, ft.shape, element) if element is not None else []
        op = StoreOp(value, memref, [*indices, *extra], b.loc, field=field)
        if n > 0:
            op.attrs["word_part"] = True
        b.emit(op)


def bind_argument(b: FunctionBuilder, name: str, arg: Value) -> None:
    """A struct argument arrives by value: its fields become the kernel's own variables."""
    bind_local(b, name, unpack(b, arg))


# ---- fields ------------------------------------------------------------------------------------------


def field_type(b: FunctionBuilder, t: StructType, node: ast.Attribute) -> ScalarType | ArrayType:
    ft = t.field(node.attr)
    if ft is None:
        raise b.error(f"{t} has no field {node.attr!r}; its fields are {', '.join(n for n, _ in t.fields)}", node)
    return ft


def read_field(b: FunctionBuilder, node: ast.Attribute) -> Value:
    """`p.r`, `back[i].r`, `s.read().r`: one scalar field."""
    t = node_type(b, node.value)
    ft = field_type(b, t, node)
    if isinstance(ft, ArrayType):
        raise b.error(f"field {node.attr!r} is an array; index it (`{ast.unparse(node)}[k]`)", node)
    if isinstance(node.value, ast.Name):
        return read_local(b, node.value.id, node.attr, None)
    if isinstance(node.value, ast.Subscript):
        memref, indices = b.access(node.value)
        return load_field(b, memref, indices, node.attr, None)
    val = value_of(b, node.value, t, "a struct")
    return val.scalars[[f for f, _, _ in flat_fields(t)].index(node.attr)]


def field_access(b: FunctionBuilder, node: ast.Subscript) -> tuple[Value, list[Value], str | None] | None:
    """`p.taps[j]` / `back[i].taps[j]`: (memref, indices, field of the memref's structs or None);
    None when `node` is no element of a struct's array field."""
    index_nodes: list[ast.AST] = []
    base: ast.AST = node
    while isinstance(base, ast.Subscript):
        sl = base.slice
        index_nodes[:0] = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        base = base.value
    if not isinstance(base, ast.Attribute):
        return None
    t = node_type(b, base.value)
    if t is None:
        return None
    ft = field_type(b, t, base)
    if not isinstance(ft, ArrayType):
        return None  # bits of a scalar field (`p.r[0:4]`): hls.frontend.bits reads the field first
    if len(index_nodes) != len(ft.shape):
        raise b.error(f"field {base.attr!r} has shape {ft.shape}, indexed with {len(index_nodes)} indices", node)
    extra = [index_value(b, n, size) for n, size in zip(index_nodes, ft.shape, strict=True)]
    if isinstance(base.value, ast.Name):
        return b.env[local_name(base.value.id, base.attr)].value, extra, None
    if isinstance(base.value, ast.Subscript):
        memref, indices = b.access(base.value)
        return memref, [*indices, *extra], base.attr
    raise b.error("index an array field of a struct variable or of an array element", node, UnsupportedError)


def index_value(b: FunctionBuilder, node: ast.AST, size: int) -> Value:
    index = b.expr(node)
    if not isinstance(index.type, (IntType, BoolType)):
        raise b.error(f"array index must be an integer, got {index.type}", node)
    op = getattr(index, "op", None)
    if isinstance(op, ConstantOp) and not 0 <= int(op.value) < size:
        raise b.error(f"index {op.value} is out of bounds for a field dimension of size {size}", node)
    return b.lower.as_int(index, b.loc)


def store_field(b: FunctionBuilder, target: ast.Attribute, value: Value) -> None:
    """`p.r = v`, `back[i].r = v`."""
    t = node_type(b, target.value)
    if t is None:
        raise b.error(f"{ast.unparse(target.value)!r} is not a struct; only struct fields can be assigned with `.`",
                      target, UnsupportedError)
    ft = field_type(b, t, target)
    if isinstance(ft, ArrayType):
        raise b.error(f"field {target.attr!r} is an array; assign its elements (`{ast.unparse(target)}[k] = ...`)",
                      target, UnsupportedError)
    value = b.lower.assign(value, ft, b.loc, f"field {target.attr!r}")
    if isinstance(target.value, ast.Name):
        from hls.frontend.builder import Var

        b.env[local_name(target.value.id, target.attr)] = Var(value, ft)
    elif isinstance(target.value, ast.Subscript):
        memref, indices = b.access(target.value)
        b.emit(StoreOp(value, memref, indices, b.loc, field=target.attr))
    else:
        raise b.error("assign fields of a struct variable or of an array element", target, UnsupportedError)

