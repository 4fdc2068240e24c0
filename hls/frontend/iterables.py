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
from typing import Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.branches import Branches
from hls.frontend.captures import Captures
from hls.frontend.control import Control
from hls.frontend.conversions import Literal
from hls.frontend.loops import Loops
from hls.frontend.lower import float64
from hls.frontend.source import MISSING, call_target, try_static
from hls.frontend.state import Var
from hls.ir import LoadOp, Value
from hls.lang.directives import unroll
from hls.types import ArrayType, FloatType, TypedConstant, int_union, literal_int_type

_NUMBERS = (bool, int, float, np.integer, np.floating, np.bool_)


def _common_type(values: list[Any]) -> Any:
    """One type for every value, so each copy of the body has the same types (Python mode is one loop)."""
    if any(isinstance(v, (float, np.floating)) for v in values):
        return float64
    return functools.reduce(int_union, [literal_int_type(int(v)) for v in values])


class Iterables(Family):
    """`for` over tuples, arrays, enumerate and zip."""

    def __init__(self, ctx: BuildContext, captures: Captures, branches: Branches, control: Control,
                 for_loops: Loops) -> None:
        super().__init__(ctx)
        self.captures = captures
        self.branches = branches
        self.control = control
        self.for_loops = for_loops

    def visit_For(self, node: ast.For) -> None:
        """Every `for`: range loops go to lower_for; the rest are rewritten into one here."""
        target = call_target(node.iter.func, self.ctx.src) if isinstance(node.iter, ast.Call) else MISSING
        if target is builtins.range:
            self.for_loops.lower_for(node)
        elif node.orelse:
            raise self.ctx.error("`for ... else` is not supported", node, UnsupportedError)
        elif target is builtins.enumerate:
            self.lower_enumerate(node)
        elif target is builtins.zip:
            self.lower_zip(node, node.target, node.iter, index_name=None)
        elif isinstance(node.target, ast.Name) and self._is_array(node.iter):
            self.lower_arrays(node, [(node.target, node.iter)], index_name=None)
        else:
            values = self.ctx.compile_time(node.iter, "the iterable of a for loop")
            if values is MISSING or not isinstance(values, (tuple, list)):
                raise self.ctx.error("loops iterate over range(...), an array, enumerate/zip of arrays, or a tuple of "
                                     "compile-time values", node.iter, UnsupportedError)
            self.unroll_tuple(node, list(values))

    def _is_array(self, node: ast.AST) -> bool:
        return self._array_var(node) is not None

    def _array_var(self, node: ast.AST) -> Any:
        """The kernel array (argument, local, or module-level numpy ROM) a name refers to, else None."""
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.ctx.env:
            return self.ctx.env[node.id] if self.ctx.env[node.id].is_array and not self.ctx.env[node.id].cell else None
        if node.id not in self.ctx.kernel_names and isinstance(try_static(node, self.ctx.src), (np.ndarray,
                                                                                                TypedConstant)):
            value = self.ctx.expr(node)  # the ROM
            return Var(value, value.type, is_array=True)
        return None

    def lower_enumerate(self, node: ast.For) -> None:
        call = node.iter
        if call.keywords or len(call.args) != 1:
            raise self.ctx.error("enumerate() over one array, without a start, e.g. `for i, v in enumerate(a)`", call,
                                 UnsupportedError)
        if not (isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2
                and isinstance(node.target.elts[0], ast.Name)):
            raise self.ctx.error("unpack enumerate into two names: `for i, v in enumerate(a)`", node.target,
                                 UnsupportedError)
        index, element = node.target.elts
        inner = call.args[0]
        inner_target = call_target(inner.func, self.ctx.src) if isinstance(inner, ast.Call) else MISSING
        if inner_target is builtins.zip:
            self.lower_zip(node, element, inner, index_name=index.id)
        elif isinstance(element, ast.Name) and self._is_array(inner):
            self.lower_arrays(node, [(element, inner)], index_name=index.id)
        else:
            raise self.ctx.error("enumerate() needs an array (or zip of arrays) and one element name", inner,
                                 UnsupportedError)

    def lower_zip(self, node: ast.For, target: ast.AST, call: ast.Call, index_name: str | None) -> None:
        if not call.args or any(k.arg != "strict" for k in call.keywords):
            raise self.ctx.error("zip() of arrays, e.g. `for x, y in zip(a, b)`", call, UnsupportedError)
        names = target.elts if isinstance(target, ast.Tuple) else []
        if len(names) != len(call.args) or not all(isinstance(n, ast.Name) for n in names):
            raise self.ctx.error(f"unpack zip of {len(call.args)} arrays into as many names", target, UnsupportedError)
        for arg in call.args:
            if not self._is_array(arg):
                raise self.ctx.error("zip() arguments must be arrays of the kernel", arg, UnsupportedError)
        lengths = {self._array_var(arg).type.shape[0] for arg in call.args}
        if any(self.ctx.static(k.value, "zip's strict") for k in call.keywords) and len(lengths) > 1:
            raise self.ctx.error(f"zip(..., strict=True) of arrays of different lengths {sorted(lengths)}", call)
        self.lower_arrays(node, list(zip(names, call.args, strict=True)), index_name)

    def lower_arrays(self, node: ast.For, pairs: list[tuple[ast.Name, ast.Name]],
                     index_name: str | None) -> None:
        """An index loop over the first dimension (the shortest, as zip stops there) binding each name."""
        for name, _ in pairs:
            if name.id in self.ctx.env:
                raise self.ctx.error(f"loop variable {name.id!r} reuses the name of a variable defined earlier; "
                                     "rename it", name, UnsupportedError)
        arrays = {array.id: self._array_var(array) for _, array in pairs}
        count = min(var.type.shape[0] for var in arrays.values())
        iv = index_name or self._fresh(f"{pairs[0][0].id}_i")
        loop = ast.For(target=ast.Name(id=iv, ctx=ast.Store()),
                       iter=ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=[ast.Constant(count)],
                                     keywords=[]),
                       body=node.body, orelse=[], type_comment=None)
        for part in [*ast.walk(loop.target), *ast.walk(loop.iter)]:
            ast.copy_location(part, node)

        def bind(index: Value) -> None:
            for name, array in pairs:
                self.bind_element(name.id, arrays[array.id], index)

        self.for_loops.lower_for(loop, prologue=bind)
        self.ctx.loop_locals |= {name.id for name, _ in pairs}

    def bind_element(self, name: str, array: Any, index: Value) -> None:
        index = self.ctx.lower.as_int(index, self.ctx.loc)
        prefix = (*array.prefix, index)
        t: ArrayType = array.type
        if len(t.shape) == 1:
            value = self.ctx.emit(LoadOp(array.value, list(prefix), self.ctx.loc))
            value.name = name
            self.ctx.env[name] = Var(value, t.elem)
        else:  # a row: `v[j]` reads the parent at (index, j)
            self.ctx.env[name] = Var(array.value, ArrayType(t.elem, t.shape[1:]), is_array=True, prefix=prefix)

    def _fresh(self, base: str) -> str:
        name, count = base, 1
        while name in self.ctx.kernel_names or name in self.ctx.env:
            name, count = f"{base}{count}", count + 1
        self.ctx.kernel_names.add(name)
        return name

    def unroll_tuple(self, node: ast.For, values: list[Any]) -> None:
        """`for w in (1, 2, 4)`: the body once per value, `w` a compile-time constant in each."""
        if not isinstance(node.target, ast.Name):
            raise self.ctx.error("the loop variable of a tuple loop must be a single name", node.target,
                                 UnsupportedError)
        self.control.refuse_exits(node)
        name, body = node.target.id, node.body
        if body and self._is_unroll(body[0]):
            body = body[1:]  # implied: a tuple loop is always unrolled
        numeric = all(isinstance(v, _NUMBERS) for v in values)
        vtype = _common_type(values) if numeric and values else None
        if vtype is not None and isinstance(node.iter, (ast.Tuple, ast.List)) and isinstance(vtype, FloatType):
            for element in node.iter.elts:  # Python mode multiplies by these as float64, as the C++ does
                if isinstance(element, ast.Constant):
                    self.ctx.conversions.add(element, Literal(vtype, element.value))
        saved = self.ctx.consts.get(name, MISSING)
        before = set(self.ctx.env)
        for value in values:
            for fresh in [n for n in self.ctx.env if n not in before and self.ctx.env[n].is_array]:
                del self.ctx.env[fresh]  # `buf = hls.zeros(...)` in the body: a new array in each copy, as in Python
            self.ctx.consts[name] = value
            if vtype is not None:
                constant = self.captures.constant_value(value, node.target)
                self.ctx.env[name] = Var(self.ctx.lower.assign(constant, vtype, self.ctx.loc, "loop value"),
                                         vtype)
            self.branches.visit_body(body)
        if saved is MISSING:
            self.ctx.consts.pop(name, None)
        else:
            self.ctx.consts[name] = saved

    def _is_unroll(self, stmt: ast.stmt) -> bool:
        return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and not stmt.value.keywords \
            and not stmt.value.args and call_target(stmt.value.func, self.ctx.src) is unroll
