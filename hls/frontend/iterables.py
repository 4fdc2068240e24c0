"""`for` over what is not a `range`: compile-time tuples, arrays, `enumerate` and `zip`.

A tuple of compile-time values (`for w in (1, 2, 4)`, `for T in TYPES`) is unrolled here, in the
frontend: the body is built once per value with the loop variable a compile-time constant, so a
compile-time `if` inside it is decided per value. Arrays are walked by an index loop: `for v in a`
is `for v_i in range(len(a))` with `v = a[v_i]` at the top of the body (a row alias for an N-D
array, so `v[j]` reads `a[v_i, j]`). Python mode runs the user's own `for`, which iterates the
typed array views element by element in the same order.
"""

from __future__ import annotations

import ast
import builtins
import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.control import refuse_exits
from hls.frontend.loops import lower_for
from hls.frontend.source import MISSING, call_target, try_static
from hls.ir import LoadOp, Value
from hls.types import ArrayType, FloatType, int_union, literal_int_type

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

_NUMBERS = (bool, int, float, np.integer, np.floating, np.bool_)


def lower_iteration(b: FunctionBuilder, node: ast.For) -> None:
    """Every `for`: range loops go to lower_for; the rest are rewritten into one here."""
    target = call_target(node.iter.func, b.src) if isinstance(node.iter, ast.Call) else MISSING
    if target is builtins.range:
        lower_for(b, node)
    elif node.orelse:
        raise b.error("`for ... else` is not supported", node, UnsupportedError)
    elif target is builtins.enumerate:
        lower_enumerate(b, node)
    elif target is builtins.zip:
        lower_zip(b, node, node.target, node.iter, index_name=None)
    elif isinstance(node.target, ast.Name) and _is_array(b, node.iter):
        lower_arrays(b, node, [(node.target, node.iter)], index_name=None)
    else:
        values = b.compile_time(node.iter, "the iterable of a for loop")
        if values is MISSING or not isinstance(values, (tuple, list)):
            raise b.error("loops iterate over range(...), an array, enumerate/zip of arrays, or a tuple of "
                          "compile-time values", node.iter, UnsupportedError)
        unroll_tuple(b, node, list(values))


def _is_array(b: FunctionBuilder, node: ast.AST) -> bool:
    return _array_var(b, node) is not None


def _array_var(b: FunctionBuilder, node: ast.AST) -> Any:
    """The kernel array (argument, local, or module-level numpy ROM) a name refers to, else None."""
    from hls.frontend.builder import Var

    if not isinstance(node, ast.Name):
        return None
    if node.id in b.env:
        return b.env[node.id] if b.env[node.id].is_array and not b.env[node.id].cell else None
    if node.id not in b.kernel_names and isinstance(try_static(node, b.src), np.ndarray):
        value = b.expr(node)  # the ROM
        return Var(value, value.type, is_array=True)
    return None


def lower_enumerate(b: FunctionBuilder, node: ast.For) -> None:
    call = node.iter
    if call.keywords or len(call.args) != 1:
        raise b.error("enumerate() over one array, without a start, e.g. `for i, v in enumerate(a)`", call,
                      UnsupportedError)
    if not (isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2
            and isinstance(node.target.elts[0], ast.Name)):
        raise b.error("unpack enumerate into two names: `for i, v in enumerate(a)`", node.target, UnsupportedError)
    index, element = node.target.elts
    inner = call.args[0]
    inner_target = call_target(inner.func, b.src) if isinstance(inner, ast.Call) else MISSING
    if inner_target is builtins.zip:
        lower_zip(b, node, element, inner, index_name=index.id)
    elif isinstance(element, ast.Name) and _is_array(b, inner):
        lower_arrays(b, node, [(element, inner)], index_name=index.id)
    else:
        raise b.error("enumerate() needs an array (or zip of arrays) and one element name", inner,
                      UnsupportedError)


def lower_zip(b: FunctionBuilder, node: ast.For, target: ast.AST, call: ast.Call, index_name: str | None) -> None:
    if not call.args or any(k.arg != "strict" for k in call.keywords):
        raise b.error("zip() of arrays, e.g. `for x, y in zip(a, b)`", call, UnsupportedError)
    names = target.elts if isinstance(target, ast.Tuple) else []
    if len(names) != len(call.args) or not all(isinstance(n, ast.Name) for n in names):
        raise b.error(f"unpack zip of {len(call.args)} arrays into as many names", target, UnsupportedError)
    for arg in call.args:
        if not _is_array(b, arg):
            raise b.error("zip() arguments must be arrays of the kernel", arg, UnsupportedError)
    lengths = {_array_var(b, arg).type.shape[0] for arg in call.args}
    if any(b.static(k.value, "zip's strict") for k in call.keywords) and len(lengths) > 1:
        raise b.error(f"zip(..., strict=True) of arrays of different lengths {sorted(lengths)}", call)
    lower_arrays(b, node, list(zip(names, call.args, strict=True)), index_name)


def lower_arrays(b: FunctionBuilder, node: ast.For, pairs: list[tuple[ast.Name, ast.Name]],
                 index_name: str | None) -> None:
    """An index loop over the first dimension (the shortest, as zip stops there) binding each name."""
    for name, _ in pairs:
        if name.id in b.env:
            raise b.error(f"loop variable {name.id!r} reuses the name of a variable defined earlier; rename it",
                          name, UnsupportedError)
    arrays = {array.id: _array_var(b, array) for _, array in pairs}
    count = min(var.type.shape[0] for var in arrays.values())
    iv = index_name or _fresh(b, f"{pairs[0][0].id}_i")
    loop = ast.For(target=ast.Name(id=iv, ctx=ast.Store()),
                   iter=ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=[ast.Constant(count)], keywords=[]),
                   body=node.body, orelse=[], type_comment=None)
    for part in [*ast.walk(loop.target), *ast.walk(loop.iter)]:
        ast.copy_location(part, node)

    def bind(index: Value) -> None:
        for name, array in pairs:
            bind_element(b, name.id, arrays[array.id], index)

    lower_for(b, loop, prologue=bind)
    b.loop_locals |= {name.id for name, _ in pairs}


def bind_element(b: FunctionBuilder, name: str, array: Any, index: Value) -> None:
    from hls.frontend.builder import Var

    index = b.lower.as_int(index, b.loc)
    prefix = (*array.prefix, index)
    t: ArrayType = array.type
    if len(t.shape) == 1:
        value = b.emit(LoadOp(array.value, list(prefix), b.loc))
        value.name = name
        b.env[name] = Var(value, t.elem)
    else:  # a row: `v[j]` reads the parent at (index, j)
        b.env[name] = Var(array.value, ArrayType(t.elem, t.shape[1:]), is_array=True, prefix=prefix)


def _fresh(b: FunctionBuilder, base: str) -> str:
    name, count = base, 1
    while name in b.kernel_names or name in b.env:
        name, count = f"{base}{count}", count + 1
    b.kernel_names.add(name)
    return name


def unroll_tuple(b: FunctionBuilder, node: ast.For, values: list[Any]) -> None:
    """`for w in (1, 2, 4)`: the body once per value, `w` a compile-time constant in each."""
    from hls.frontend.builder import Var

    if not isinstance(node.target, ast.Name):
        raise b.error("the loop variable of a tuple loop must be a single name", node.target, UnsupportedError)
    refuse_exits(b, node)
    name, body = node.target.id, node.body
    if body and _is_unroll(b, body[0]):
        body = body[1:]  # implied: a tuple loop is always unrolled
    numeric = all(isinstance(v, _NUMBERS) for v in values)
    vtype = _common_type(values) if numeric and values else None
    if vtype is not None and isinstance(node.iter, (ast.Tuple, ast.List)) and isinstance(vtype, FloatType):
        for element in node.iter.elts:  # Python mode multiplies by these as float64, as the C++ does
            if isinstance(element, ast.Constant):
                b.info.float_literals[id(element)] = vtype
    saved = b.consts.get(name, MISSING)
    before = set(b.env)
    for value in values:
        for fresh in [n for n in b.env if n not in before and b.env[n].is_array]:
            del b.env[fresh]  # `buf = hls.zeros(...)` in the body: a new array in each copy, as in Python
        b.consts[name] = value
        if vtype is not None:
            b.env[name] = Var(b.lower.assign(b.constant_value(value, node.target), vtype, b.loc, "loop value"),
                              vtype)
        b.visit_body(body)
    if saved is MISSING:
        b.consts.pop(name, None)
    else:
        b.consts[name] = saved


def _is_unroll(b: FunctionBuilder, stmt: ast.stmt) -> bool:
    from hls.directives import unroll

    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and not stmt.value.keywords \
        and not stmt.value.args and call_target(stmt.value.func, b.src) is unroll


def _common_type(values: list[Any]) -> Any:
    """One type for every value, so each copy of the body has the same types (Python mode is one loop)."""
    from hls.frontend.lower import float64

    if any(isinstance(v, (float, np.floating)) for v in values):
        return float64
    return functools.reduce(int_union, [literal_int_type(int(v)) for v in values])
