"""Results beyond one scalar, and state kept between calls.

- Tuple returns (`-> tuple[hls.int18, hls.uint13]`): the IR function returns several values; the
  C++ gets one reference output per element; Python returns a tuple.
- Array results (`-> hls.int9[4, 8]`, `return y`): the returned local becomes an extra output
  argument of the IR function (the C++ port, named after the variable), so every later stage sees
  an ordinary array argument. `y = hls.zeros(...)` zero-fills that port; `y = sub(x)` passes it.
- `x = hls.static(initial)`: a memory allocated once (a C++ `static` local); a scalar static is a
  one-element memory ("cell") that reads and assignments of `x` load and store.
"""

from __future__ import annotations

import ast
import typing
from typing import TYPE_CHECKING, Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.source import MISSING, call_target, static_eval, try_static
from hls.ir import AllocOp, LoadOp, ReturnOp, StoreOp, Value, YieldOp
from hls.types import ArrayType, HLSType, ScalarType, TupleType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

ARRAY_RETURN_HELP = ("a kernel returning an array returns one local array variable, created with "
                     "`y = hls.zeros(shape, type)` or received from a sub-kernel (`y = sub(x)`): `return y`")


# ---- annotations -------------------------------------------------------------------------------


def return_annotation(b: FunctionBuilder, node: ast.AST, resolved: Any) -> HLSType:
    """A scalar, an array or `tuple[...]`/`typing.Tuple[...]` of scalars."""
    value = resolved
    if value is MISSING:
        value = static_eval(node, b.src, "the return annotation")
    if typing.get_origin(value) is tuple:
        elems = typing.get_args(value)
        if not elems or Ellipsis in elems:
            raise b.error("a tuple return type lists each element's type, e.g. tuple[hls.int18, hls.uint13]", node)
        return TupleType(tuple(b.annotation(node, f"element {i} of the return type", allow_array=False, resolved=e)
                               for i, e in enumerate(elems)))
    return b.annotation(node, "return type", allow_array=True, resolved=value)


def returned_array_name(b: FunctionBuilder, tree: ast.FunctionDef) -> str:
    """The one local every `return` of an array-returning kernel names (it becomes the output port)."""
    names = set()
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return)]
    for ret in returns:
        if not isinstance(ret.value, ast.Name):
            raise b.error(ARRAY_RETURN_HELP, ret, UnsupportedError)
        if ret.value.id in [a.arg for a in tree.args.args]:
            raise b.error(f"returning the argument array {ret.value.id!r}: arguments are passed by reference, "
                          f"so write into it and return nothing, or {ARRAY_RETURN_HELP}", ret, UnsupportedError)
        names.add(ret.value.id)
    if len(names) > 1:
        raise b.error(f"every `return` of an array-returning kernel must return the same variable, got "
                      f"{', '.join(sorted(names))}", returns[-1], UnsupportedError)
    if not names:
        raise b.error(f"kernel declares an array result but has no `return`; {ARRAY_RETURN_HELP}", tree)
    return names.pop()


# ---- returns -----------------------------------------------------------------------------------


def refuse_early_return(b: FunctionBuilder, ret: HLSType | None, body: list[ast.stmt]) -> None:
    """Early returns carry one scalar result through hls.frontend.control; tuples and arrays not yet."""
    if isinstance(ret, (TupleType, ArrayType)):
        early = [n for stmt in body[:-1] for n in ast.walk(stmt) if isinstance(n, ast.Return)]
        early += [n for n in ast.walk(body[-1]) if isinstance(n, ast.Return) and n is not body[-1]]
        kind = "a tuple" if isinstance(ret, TupleType) else "an array"
        raise b.error(f"a `return` before the end of a kernel returning {kind} is not supported; assign the "
                      "results and return once, as the last statement", early[0] if early else None,
                      UnsupportedError)


def lower_return(b: FunctionBuilder, node: ast.Return) -> bool:
    """Tuple and array returns (True when handled); a scalar return is the builder's own."""
    ret = b.func.return_type
    if isinstance(ret, TupleType):
        values = tuple_values(b, node.value, len(ret.elems), f"the return of {ret}")
        what = [f"return value {i}" for i in range(len(values))]
        values = [b.lower.assign(v, t, b.loc, w) for v, t, w in zip(values, ret.elems, what, strict=True)]
        if isinstance(node.value, ast.Tuple):
            b.func.attrs["result_names"] = [e.id if isinstance(e, ast.Name) else None for e in node.value.elts]
        b.info.unpack_types[id(node)] = list(ret.elems)
        b.emit(ReturnOp(values, b.loc))
        return True
    if isinstance(ret, ArrayType):
        var = b.env.get(node.value.id)
        if var is None or var.value is not b.func.args[-1]:
            raise b.error(ARRAY_RETURN_HELP, node, UnsupportedError)
        b.info.array_return = ret
        b.emit(ReturnOp([], b.loc))
        return True
    if isinstance(node.value, ast.Tuple):
        raise b.error(f"kernel returns {len(node.value.elts)} values but its return annotation is {ret}; "
                      "annotate a tuple, e.g. `-> tuple[hls.int32, hls.int32]`", node)
    return False


def tuple_values(b: FunctionBuilder, node: ast.AST, count: int, what: str) -> list[Value]:
    """The values of a tuple-valued right-hand side (a tuple display or a sub-kernel returning a tuple)."""
    if isinstance(node, ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise b.error("starred expressions are not supported in kernels", node, UnsupportedError)
        values = [b.expr(e) for e in node.elts]
    elif isinstance(node, ast.Call) and is_kernel_call(b, node):
        values = b.call_kernel(call_target(node.func, b.src), node, want_result=True, tuple_ok=True)
        values = values if isinstance(values, list) else [values]
    else:
        raise b.error(f"{what} needs {count} values: a tuple (a, b) or a sub-kernel returning a tuple", node,
                      UnsupportedError)
    if len(values) != count:
        raise b.error(f"{what} needs {count} values, got {len(values)}", node)
    return values


def is_kernel_call(b: FunctionBuilder, node: ast.AST) -> bool:
    from hls.frontend.builder import is_kernel

    return isinstance(node, ast.Call) and is_kernel(call_target(node.func, b.src))


def lower_unpack(b: FunctionBuilder, node: ast.Assign) -> None:
    """`q, r = divmod_k(a, b)`: every target assigned through the ordinary typed path, left to right."""
    targets = node.targets[0].elts
    if not is_kernel_call(b, node.value):  # general unpacking (`a, b = b, a + b`) is lowered elsewhere
        raise b.error("tuple unpacking is not supported; assign one variable per statement", node.targets[0],
                      UnsupportedError)
    values = tuple_values(b, node.value, len(targets), "tuple unpacking")
    assign_each(b, targets, values, node)


def assign_each(b: FunctionBuilder, targets: list[ast.expr], values: list[Value], node: ast.stmt) -> None:
    """Assign `values` to `targets` in order; the golden model converts each to its target's type."""
    types: list[ScalarType] = []
    for target, value in zip(targets, values, strict=True):
        if isinstance(target, ast.Name):
            b.assign_name(target, value, None, node)
            types.append(b.info.assign_types.pop(id(node)))
        elif isinstance(target, ast.Subscript):
            memref, _ = b.access(target)
            b.store(target, value)
            types.append(memref.type.elem)
        else:
            raise b.error("only variables and array elements can be unpacked into", target, UnsupportedError)
    b.info.unpack_types[id(node)] = types


# ---- array results -----------------------------------------------------------------------------


def bind_result_array(b: FunctionBuilder, target: ast.Name, t: ArrayType, zero: bool) -> Value:
    """Bind the returned local to the output argument (zero-filled when created by hls.zeros)."""
    from hls.frontend.builder import Var

    ret = b.func.return_type
    if t != ret:
        raise b.error(f"{target.id!r} is returned as {ret} but is {t} here", target)
    port = b.func.args[-1]
    b.env[target.id] = Var(port, ret, is_array=True)
    if zero:
        zero_fill(b, port)
    return port


def zero_fill(b: FunctionBuilder, memref: Value) -> None:
    """Store 0 into every element (a loop nest: the scheduler and the C++ see ordinary loops)."""
    from hls.frontend.loops import iv_type

    t: ArrayType = memref.type
    zero = b.lower.cast(b.lower.constant(0, b.loc), t.elem, b.loc)
    bounds = [[b.lower.constant(v, b.loc) for v in (0, size, 1)] for size in t.shape]
    outer, bodies = b.block, []
    for dim, (lb, ub, step) in enumerate(bounds):
        loop = b.new_loop(lb, ub, step, [], [], f"z{dim}" if len(t.shape) > 1 else "z", iv_type(lb, ub))
        b.block.append(loop)
        b.block = loop.body
        bodies.append(loop)
    bodies[0].attrs["fill"] = True  # hls.passes.fill drops it when a later nest overwrites every element
    b.emit(StoreOp(zero, memref, [loop.iv for loop in bodies], b.loc))
    for loop in bodies:
        loop.body.append(YieldOp([], b.loc))
    b.block = outer


def assign_array_call(b: FunctionBuilder, target: ast.Name, call: ast.Call) -> None:
    """`y = sub(x)` with `sub` returning an array: `y` is a local (or this kernel's own result port)."""
    from hls.frontend.builder import Var

    kernel = call_target(call.func, b.src)
    callee = b.callee(kernel, call)
    t: ArrayType = callee.return_type
    if target.id in b.env:
        raise b.error(f"{target.id!r} is already defined; an array result needs a new variable", target,
                      UnsupportedError)
    if target.id == b.result_name:
        out = bind_result_array(b, target, t, zero=False)
    else:
        out = b.emit(AllocOp(t, target.id, b.loc))
        out.op.attrs["filled_by_call"] = True  # the callee writes every element: no zero-init needed
        b.env[target.id] = Var(out, t, is_array=True)
    b.info.array_views[id(call)] = t.elem
    b.call_kernel(kernel, call, want_result=False, out=out)


def returns_array(b: FunctionBuilder, node: ast.AST) -> bool:
    if not is_kernel_call(b, node):
        return False
    callee = b.callee(call_target(node.func, b.src), node)
    return isinstance(callee.return_type, ArrayType)


# ---- state between calls -----------------------------------------------------------------------


def is_static_call(b: FunctionBuilder, node: ast.AST) -> bool:
    from hls.runtime import static

    return isinstance(node, ast.Call) and try_static(node.func, b.src) is static


def bind_static(b: FunctionBuilder, node: ast.Assign) -> None:
    """`x = hls.static(hls.int32(0))` or `buf = hls.static(hls.zeros((N,), T))` at the top of a kernel."""
    from hls.frontend.builder import Var

    target, call = node.targets[0], node.value

    if not isinstance(target, ast.Name):
        raise b.error("hls.static(...) must be assigned to a plain variable", target, UnsupportedError)
    if b.block is not b.func.body.block:
        raise b.error("declare hls.static(...) at the top level of the kernel body, not inside a loop or branch",
                      call, UnsupportedError)
    if target.id in b.env or target.id == b.result_name:
        raise b.error(f"{target.id!r} is already defined (or returned); a static needs its own variable", target,
                      UnsupportedError)
    if len(call.args) != 1 or call.keywords:
        raise b.error("hls.static takes one initial value: hls.static(hls.int32(0)) or "
                      "hls.static(hls.zeros((N,), hls.int8))", call)
    init = call.args[0]
    if b.is_zeros_call(init):
        t = b.local_array_type(init)
        value = b.emit(AllocOp(t, target.id, b.loc))
        value.op.attrs["static"] = True
        b.env[target.id] = Var(value, t, is_array=True)
    else:
        elem, initial = static_scalar(b, init)
        value = b.emit(AllocOp(ArrayType(elem, (1,)), target.id, b.loc))
        value.op.attrs.update(static=True, cell=True, init=initial)
        b.env[target.id] = Var(value, elem, is_array=True, cell=True)
    b.info.statics[id(node)] = target.id


def static_scalar(b: FunctionBuilder, init: ast.AST) -> tuple[ScalarType, Any]:
    """The type and the converted compile-time initial value of a scalar static."""
    t = call_target(init.func, b.src) if isinstance(init, ast.Call) else MISSING
    if not isinstance(t, ScalarType) or len(init.args) != 1 or init.keywords:
        raise b.error("hls.static needs a typed initial value, e.g. hls.static(hls.int32(0)) or "
                      "hls.static(hls.zeros((N,), hls.int8)): its type is the state's type", init)
    value = static_eval(init.args[0], b.src, "the initial value of a static")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise b.error(f"the initial value of a static must be a number, got {value!r}", init.args[0])
    initial = t.convert(value)
    return t, float(initial) if isinstance(initial, np.floating) else initial


def read_cell(b: FunctionBuilder, memref: Value) -> Value:
    index = b.lower.constant(0, b.loc)
    return b.emit(LoadOp(memref, [index], b.loc))


def write_cell(b: FunctionBuilder, memref: Value, value: Value, name: str) -> None:
    value = b.lower.assign(value, memref.type.elem, b.loc, f"assignment to {name!r}")
    index = b.lower.constant(0, b.loc)
    b.emit(StoreOp(value, memref, [index], b.loc))
