"""Results beyond one scalar, and state kept between calls.

- Tuple returns (`-> tuple[hls.int18, hls.uint13]`): the IR function returns several values; the
  C++ gets one reference output per element; Python returns a tuple.
- Array results (`-> hls.int9[4, 8]`, `return y`): the returned local becomes an extra output
  argument of the IR function (the C++ port, named after the variable), so every later stage sees
  an ordinary array argument. `y = hls.zeros(...)` zero-fills that port (`bind_local_array` binds every
  local `hls.zeros` array, the returned one included); `y = sub(x)` passes it.
- `x = hls.static(initial)`: a memory allocated once (a C++ `static` local); a scalar static is a
  one-element memory ("cell") that reads and assignments of `x` load and store.
"""

from __future__ import annotations

import ast
import typing
from contextlib import ExitStack
from typing import Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.conversions import Call, Cast, CastEach, Part, Static
from hls.frontend.lower import iv_type
from hls.frontend.names import Names
from hls.frontend.source import MISSING, call_target, static_eval, try_static
from hls.frontend.state import Var
from hls.frontend.structs import Structs
from hls.frontend.subkernels import KernelCalls
from hls.ir import AllocOp, ReturnOp, StoreOp, Value, YieldOp
from hls.ir.labels import fresh_label
from hls.lang.storage import static
from hls.types import ArrayType, HLSType, ScalarType, TupleType

ARRAY_RETURN_HELP = ("a kernel returning an array returns one local array variable, created with "
                     "`y = hls.zeros(shape, type)` or received from a sub-kernel (`y = sub(x)`): `return y`")


# ---- annotations -------------------------------------------------------------------------------


# ---- returns -----------------------------------------------------------------------------------


# ---- array results -----------------------------------------------------------------------------


# ---- state between calls -----------------------------------------------------------------------


class Results(Family):
    """Tuple and array results, unpacking and `hls.static` state."""

    def __init__(self, ctx: BuildContext, names: Names, arrays: Arrays, kernel_calls: KernelCalls,
                 structs: Structs) -> None:
        super().__init__(ctx)
        self.names = names
        self.arrays = arrays
        self.kernel_calls = kernel_calls
        self.structs = structs

    def return_annotation(self, node: ast.AST, resolved: Any) -> HLSType:
        """A scalar, an array or `tuple[...]`/`typing.Tuple[...]` of scalars."""
        value = resolved
        if value is MISSING:
            value = static_eval(node, self.ctx.src, "the return annotation")
        if typing.get_origin(value) is tuple:
            elems = typing.get_args(value)
            if not elems or Ellipsis in elems:
                raise self.ctx.error("a tuple return type lists each element's type, e.g. tuple[hls.int18, hls.uint13]",
                                     node)
            return TupleType(tuple(self.ctx.annotation(node, f"element {i} of the return type", allow_array=False,
                                                       resolved=e)
                                   for i, e in enumerate(elems)))
        return self.ctx.annotation(node, "return type", allow_array=True, resolved=value)

    def returned_array_name(self, tree: ast.FunctionDef) -> str:
        """The one local every `return` of an array-returning kernel names (it becomes the output port)."""
        names = set()
        returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return)]
        if len(returns) == 1 and returns[0].value is not None and not isinstance(returns[0].value, (ast.Name,
                                                                                                   ast.Constant)):
            taken = {a.arg for a in tree.args.args} | {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            return fresh_label(taken, "result")  # `return <array expression>`
        for ret in returns:
            if not isinstance(ret.value, ast.Name):
                raise self.ctx.error(ARRAY_RETURN_HELP, ret, UnsupportedError)
            if ret.value.id in [a.arg for a in tree.args.args]:
                raise self.ctx.error(f"returning the argument array {ret.value.id!r}: arguments are passed by "
                                     f"reference, so write into it and return nothing, or {ARRAY_RETURN_HELP}", ret,
                                     UnsupportedError)
            names.add(ret.value.id)
        if len(names) > 1:
            raise self.ctx.error(f"every `return` of an array-returning kernel must return the same variable, got "
                                 f"{', '.join(sorted(names))}", returns[-1], UnsupportedError)
        if not names:
            raise self.ctx.error(f"kernel declares an array result but has no `return`; {ARRAY_RETURN_HELP}", tree)
        return names.pop()

    def refuse_early_return(self, ret: HLSType | None, body: list[ast.stmt]) -> None:
        """Early returns carry one scalar result through hls.frontend.control; tuples and arrays not yet."""
        if isinstance(ret, (TupleType, ArrayType)):
            early = [n for stmt in body[:-1] for n in ast.walk(stmt) if isinstance(n, ast.Return)]
            early += [n for n in ast.walk(body[-1]) if isinstance(n, ast.Return) and n is not body[-1]]
            kind = "a tuple" if isinstance(ret, TupleType) else "an array"
            raise self.ctx.error(f"a `return` before the end of a kernel returning {kind} is not supported; assign the "
                                 "results and return once, as the last statement", early[0] if early else None,
                                 UnsupportedError)

    def lower_result_return(self, node: ast.Return) -> bool:
        """Tuple and array returns (True when handled); a scalar return is the builder's own."""
        ret = self.ctx.func.return_type
        if isinstance(ret, TupleType):
            values = self.tuple_values(node.value, len(ret.elems), f"the return of {ret}")
            what = [f"return value {i}" for i in range(len(values))]
            values = [self.ctx.lower.assign(v, t, self.ctx.loc, w) for v, t, w in zip(values, ret.elems, what,
                                                                                      strict=True)]
            if isinstance(node.value, ast.Tuple):
                self.ctx.func.attrs["result_names"] = [e.id if isinstance(e,
                                                                          ast.Name) else None for e in node.value.elts]
            self.ctx.conversions.add(node, CastEach(tuple(ret.elems)))
            self.ctx.emit(ReturnOp(values, self.ctx.loc))
            return True
        if isinstance(ret, ArrayType):
            var = self.ctx.env.get(node.value.id)
            if var is None or var.value is not self.ctx.func.args[-1]:
                raise self.ctx.error(ARRAY_RETURN_HELP, node, UnsupportedError)
            self.ctx.conversions.add(node, Call("rt.array_result", (Part(""),)))
            self.ctx.emit(ReturnOp([], self.ctx.loc))
            return True
        if isinstance(node.value, ast.Tuple):
            raise self.ctx.error(f"kernel returns {len(node.value.elts)} values but its return annotation is {ret}; "
                                 "annotate a tuple, e.g. `-> tuple[hls.int32, hls.int32]`", node)
        return False

    def tuple_values(self, node: ast.AST, count: int, what: str) -> list[Value]:
        """The values of a tuple-valued right-hand side (a tuple display or a sub-kernel returning a tuple)."""
        if isinstance(node, ast.Tuple):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                raise self.ctx.error("starred expressions are not supported in kernels", node, UnsupportedError)
            values = [self.ctx.expr(e) for e in node.elts]
        elif isinstance(node, ast.Call) and self.is_kernel_call(node):
            values = self.kernel_calls.call_kernel(call_target(node.func, self.ctx.src), node, want_result=True,
                                                   tuple_ok=True)
            values = values if isinstance(values, list) else [values]
        else:
            raise self.ctx.error(f"{what} needs {count} values: a tuple (a, b) or a sub-kernel returning a tuple", node,
                                 UnsupportedError)
        if len(values) != count:
            raise self.ctx.error(f"{what} needs {count} values, got {len(values)}", node)
        return values

    def is_kernel_call(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and is_kernel(call_target(node.func, self.ctx.src))

    def lower_unpack(self, node: ast.Assign) -> None:
        """`q, r = divmod_k(a, b)`: every target assigned through the ordinary typed path, left to right."""
        targets = node.targets[0].elts
        if not self.is_kernel_call(node.value):  # general unpacking (`a, b = b, a + b`) is lowered elsewhere
            raise self.ctx.error("tuple unpacking is not supported; assign one variable per statement", node.targets[0],
                                 UnsupportedError)
        values = self.tuple_values(node.value, len(targets), "tuple unpacking")
        self.assign_each(targets, values, node)

    def assign_each(self, targets: list[ast.expr], values: list[Value], node: ast.stmt) -> None:
        """Assign `values` to `targets` in order; the golden model converts each to its target's type."""
        types: list[ScalarType] = []
        for target, value in zip(targets, values, strict=True):
            if isinstance(target, ast.Name):
                self.names.assign_name(target, value, None, node)
                types.append(self.ctx.conversions.pop(node, Cast).type)
            elif isinstance(target, ast.Subscript):
                memref, _ = self.arrays.access(target)
                self.structs.store(target, value)
                types.append(memref.type.elem)
            else:
                raise self.ctx.error("only variables and array elements can be unpacked into", target, UnsupportedError)
        self.ctx.conversions.add(node, CastEach(tuple(types)))

    def bind_local_array(self, target: ast.Name, call: ast.Call) -> None:
        """`buf = hls.zeros(shape, T)`: a new local array, or the result port when `buf` is what is returned."""
        if target.id in self.ctx.env:
            raise self.ctx.error(f"{target.id!r} is already defined; local arrays cannot be rebound", target,
                                 UnsupportedError)
        t = self.arrays.local_array_type(call)
        if target.id == self.ctx.result_name:
            self.bind_result_array(target, t, zero=True)
            return
        value = self.ctx.emit(AllocOp(t, target.id, self.ctx.loc))
        self.ctx.env[target.id] = Var(value, t, is_array=True)

    def bind_result_array(self, target: ast.Name, t: ArrayType, zero: bool) -> Value:
        """Bind the returned local to the output argument (zero-filled when created by hls.zeros)."""
        ret = self.ctx.func.return_type
        if t != ret:
            raise self.ctx.error(f"{target.id!r} is returned as {ret} but is {t} here", target)
        port = self.ctx.func.args[-1]
        self.ctx.env[target.id] = Var(port, ret, is_array=True)
        if zero:
            self.zero_fill(port)
        return port

    def zero_fill(self, memref: Value) -> None:
        """Store 0 into every element (a loop nest: the scheduler and the C++ see ordinary loops)."""
        t: ArrayType = memref.type
        zero = self.ctx.lower.cast(self.ctx.lower.constant(0, self.ctx.loc), t.elem, self.ctx.loc)
        bounds = [[self.ctx.lower.constant(v, self.ctx.loc) for v in (0, size, 1)] for size in t.shape]
        bodies = []
        with ExitStack() as nest:
            for dim, (lb, ub, step) in enumerate(bounds):
                loop = self.ctx.new_loop(lb, ub, step, [], [], f"z{dim}" if len(t.shape) > 1 else "z", iv_type(lb, ub))
                self.ctx.block.append(loop)
                nest.enter_context(self.ctx.region(loop.body))
                bodies.append(loop)
            bodies[0].attrs["fill"] = True  # hls.passes.fill drops it when a later nest overwrites every element
            self.ctx.emit(StoreOp(zero, memref, [loop.iv for loop in bodies], self.ctx.loc))
        for loop in bodies:
            loop.body.append(YieldOp([], self.ctx.loc))

    def assign_array_call(self, target: ast.Name, call: ast.Call) -> None:
        """`y = sub(x)` with `sub` returning an array: `y` is a local (or this kernel's own result port)."""
        kernel = call_target(call.func, self.ctx.src)
        callee = self.kernel_calls.callee(kernel, call)
        t: ArrayType = callee.return_type
        if target.id in self.ctx.env:
            raise self.ctx.error(f"{target.id!r} is already defined; an array result needs a new variable", target,
                                 UnsupportedError)
        if target.id == self.ctx.result_name:
            out = self.bind_result_array(target, t, zero=False)
        else:
            out = self.ctx.emit(AllocOp(t, target.id, self.ctx.loc))
            out.op.attrs["filled_by_call"] = True  # the callee writes every element: no zero-init needed
            self.ctx.env[target.id] = Var(out, t, is_array=True)
        self.ctx.conversions.add(call, Call("rt.array_view", (Part(""), t.elem)))
        self.kernel_calls.call_kernel(kernel, call, want_result=False, out=out)

    def returns_array(self, node: ast.AST) -> bool:
        if not self.is_kernel_call(node):
            return False
        callee = self.kernel_calls.callee(call_target(node.func, self.ctx.src), node)
        return isinstance(callee.return_type, ArrayType)

    def is_static_call(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and try_static(node.func, self.ctx.src) is static

    def bind_static(self, node: ast.Assign) -> None:
        """`x = hls.static(hls.int32(0))` or `buf = hls.static(hls.zeros((N,), T))` at the top of a kernel."""
        target, call = node.targets[0], node.value

        if not isinstance(target, ast.Name):
            raise self.ctx.error("hls.static(...) must be assigned to a plain variable", target, UnsupportedError)
        if self.ctx.block is not self.ctx.func.body.block:
            raise self.ctx.error("declare hls.static(...) at the top level of the kernel body, not inside a loop or "
                                 "branch", call, UnsupportedError)
        if target.id in self.ctx.env or target.id == self.ctx.result_name:
            raise self.ctx.error(f"{target.id!r} is already defined (or returned); a static needs its own variable",
                                 target,
                                 UnsupportedError)
        if len(call.args) != 1 or call.keywords:
            raise self.ctx.error("hls.static takes one initial value: hls.static(hls.int32(0)) or "
                                 "hls.static(hls.zeros((N,), hls.int8))", call)
        init = call.args[0]
        if self.arrays.is_zeros_call(init):
            t = self.arrays.local_array_type(init)
            value = self.ctx.emit(AllocOp(t, target.id, self.ctx.loc))
            value.op.attrs["static"] = True
            self.ctx.env[target.id] = Var(value, t, is_array=True)
        else:
            elem, initial = self.static_scalar(init)
            value = self.ctx.emit(AllocOp(ArrayType(elem, (1,)), target.id, self.ctx.loc))
            value.op.attrs.update(static=True, cell=True, init=initial)
            self.ctx.env[target.id] = Var(value, elem, is_array=True, cell=True)
        self.ctx.conversions.add(node, Static(target.id))

    def static_scalar(self, init: ast.AST) -> tuple[ScalarType, Any]:
        """The type and the converted compile-time initial value of a scalar static."""
        t = call_target(init.func, self.ctx.src) if isinstance(init, ast.Call) else MISSING
        if not isinstance(t, ScalarType) or len(init.args) != 1 or init.keywords:
            raise self.ctx.error("hls.static needs a typed initial value, e.g. hls.static(hls.int32(0)) or "
                                 "hls.static(hls.zeros((N,), hls.int8)): its type is the state's type", init)
        value = static_eval(init.args[0], self.ctx.src, "the initial value of a static")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.ctx.error(f"the initial value of a static must be a number, got {value!r}", init.args[0])
        initial = t.convert(value)
        return t, float(initial) if isinstance(initial, np.floating) else initial

