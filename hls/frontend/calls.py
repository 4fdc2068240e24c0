"""Calls inside kernels: type conversions, builtins, math functions and sub-kernels."""

from __future__ import annotations

import ast
import builtins
import math
from collections.abc import Sized
from typing import Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuilderBase, is_kernel
from hls.frontend.conversions import Call, Part
from hls.frontend.source import MISSING, call_target
from hls.frontend.tables import MATH_NAMES
from hls.ir import CallOp, PrintOp, Value
from hls.lang.bits import INTRINSICS
from hls.lang.directives import DIRECTIVES
from hls.lang.storage import static, zeros
from hls.types import (
    ArrayType,
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    StreamType,
    StructType,
    TupleType,
    float64,
    struct_type_of,
)

IMPURE = {print: "print() is a statement (a debugging aid); it has no value",
          open: "open() is not supported: kernels cannot do file I/O",
          input: "input() is not supported in kernels"}


class Calls(BuilderBase):
    """Calls: builtins, math functions, type conversions, print and sub-kernels."""

    def visit_Call(self, node: ast.Call) -> Value:
        if self.stream_method(node) is not None:
            return self.lower_method(node, statement=False)
        method = self.method_call(node)
        if method is not None:
            return method
        target = call_target(node.func, self.src)
        if target in INTRINSICS:
            return self.intrinsic_call(INTRINSICS[target], node)
        if isinstance(target, ScalarType):
            return self.type_call(target, node)
        if struct_type_of(target) is not None:
            raise self.struct_not_a_value(struct_type_of(target), node)
        if is_kernel(target):
            return self.call_kernel(target, node, want_result=True)
        if target is MISSING:
            raise self.error(f"call to unknown function {ast.unparse(node.func)!r}", node.func, UnsupportedError)
        for name in MATH_NAMES:
            if target is getattr(math, name):
                return self.math_call(name, node)
        result = self.builtin_call(target, node)
        if result is None:
            self.refuse_call(target, node)
        return result

    def builtin_call(self, target: Any, node: ast.Call) -> Value | None:
        """min, max, abs, float, bool, len and int; None for anything else."""
        if target in (min, max):
            if node.keywords or len(node.args) < 2:
                raise self.error(f"{target.__name__}() takes two or more scalar arguments", node, UnsupportedError)
            values = [self.expr(a) for a in node.args]
            result = self.lower.minmax(target.__name__, values, self.loc)
            # Python returns the winning operand unconverted; the C++ converts it to the joint type
            self.conversions.add(node, Call("rt.convert", (result.type, Part(""))))
            self.note_int_to_float(result.type, *zip(node.args, values, strict=True))
            return result
        if target is abs:
            return self.lower.absolute(self.single_arg(node), self.loc)
        if target is builtins.float:
            return self.lower.cast(self.single_arg(node), float64, self.loc, explicit=True)
        if target is builtins.bool:
            return self.lower.truth(self.single_arg(node), self.loc)
        if target is builtins.len:
            if len(node.args) != 1 or not isinstance(self.compile_time(node.args[0]), Sized):
                raise self.error("len() needs an array", node)
            return self.static_number(node)
        if target is builtins.int:
            return self.int_call(node)
        return None

    def refuse_call(self, target: Any, node: ast.Call) -> None:
        """The most specific message for a call kernels cannot make."""
        if target is range:
            raise self.error("range() is only supported as the iterable of a for loop", node, UnsupportedError)
        if target in IMPURE:
            raise self.error(IMPURE[target], node, UnsupportedError)
        if target is static:
            raise self.error("hls.static(...) must be assigned to a plain variable at the top of the kernel: "
                             "`x = hls.static(hls.int32(0))`", node, UnsupportedError)
        if target is zeros:
            raise self.error("hls.zeros(...) must be assigned to a variable: `buf = hls.zeros((N,), hls.int32)`", node,
                             UnsupportedError)
        if target in DIRECTIVES.values():
            raise self.error(f"hls.{target.__name__}() is a statement, not a value", node, UnsupportedError)
        module = getattr(target, "__module__", "") or ""
        if module.startswith("numpy.random") or "random" in module:
            raise self.error("random numbers are not supported in kernels: results must be reproducible in "
                             "hardware; pass the values in an array", node, UnsupportedError)
        raise self.error(f"call to {ast.unparse(node.func)!r} is not supported in kernels: only hls types, math "
                         "functions, min/max/abs and other @hls.kernel functions can be called", node,
                         UnsupportedError)

    def single_arg(self, node: ast.Call) -> Value:
        if node.keywords or len(node.args) != 1:
            raise self.error(f"{ast.unparse(node.func)}() takes exactly one argument", node)
        return self.expr(node.args[0])

    def lower_print(self, node: ast.Call) -> None:
        """`print(...)` as a statement: literal strings and scalar values, printed in Python mode and in
        csim (the C++ prints under #ifndef __SYNTHESIS__, so synthesis never sees it)."""
        options = {"sep": " ", "end": "\n"}
        for keyword in node.keywords:
            value = self.static(keyword.value, f"print's {keyword.arg}") if keyword.arg in options else None
            if not isinstance(value, str):
                raise self.error("print() takes only sep= and end= strings as keywords", keyword.value,
                                 UnsupportedError)
            options[keyword.arg] = value
        values, parts, types = [], [], []
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                parts.append(arg.value)
                types.append(None)
                continue
            value = self.expr(arg)
            if not isinstance(value.type, ScalarType):
                raise self.error("print() prints scalars and strings; print array elements one by one", arg,
                                 UnsupportedError)
            values.append(value)
            parts.append(None)
            types.append(value.type)
        # formatted exactly as the C++ printf does
        self.conversions.add(node, Call("rt.kernel_print", (tuple(types), options["sep"], options["end"],
                                                            Part("args.*"))))
        self.emit(PrintOp(values, tuple(parts), options["sep"], options["end"], self.loc))

    def int_call(self, node: ast.Call) -> Value:
        """`int(x)`: integers unchanged; fixed point and floats truncated toward zero, as Python's int() and
        the C++ conversion both do, into the narrowest type holding every result (int64 for floats, whose
        conversion is defined for |x| < 2**63 only)."""
        value = self.single_arg(node)
        t = value.type
        if isinstance(t, (IntType, BoolType)):
            return self.lower.as_int(value, self.loc)
        if isinstance(t, FixedType):
            target = IntType(max(t.int_bits, 1), t.signed)
        elif isinstance(t, FloatType):
            target = IntType(64, True)
        else:
            raise self.error(f"int() of a {t} is not supported", node)
        # Python truncates toward zero, as the C++ conversion does
        self.conversions.add(node, Call("rt.convert", (target, Part("args.0"))))
        return self.lower.cast(value, target, self.loc, explicit=True)

    def type_call(self, target: ScalarType, node: ast.Call) -> Value:
        """`hls.int9(x)`: an explicit conversion, always allowed (wraps, quantizes, truncates)."""
        value = self.single_arg(node)
        if not isinstance(value.type, ScalarType):
            raise HLSTypeError(f"cannot convert {value.type} to {target}", self.loc)
        return self.lower.cast(value, target, self.loc, explicit=True)

    def math_call(self, name: str, node: ast.Call) -> Value:
        arity = 2 if name == "pow" else 1
        if node.keywords or len(node.args) != arity:
            raise self.error(f"math.{name} takes {arity} argument{'s' if arity > 1 else ''}", node)
        result = self.lower.math(name, [self.expr(a) for a in node.args], self.loc)
        self.conversions.add(node, Call("rt.math_call", (name, result.type, Part("args.*"))))
        return result

    def callee(self, kernel: Any, node: ast.Call) -> Any:
        """The called kernel's IR function (built once per module; recursion refused)."""
        callee_func = kernel.__hls_kernel__
        if callee_func in self.compiling:
            raise self.error(f"recursive call to kernel {callee_func.__name__!r}: hardware has no call stack",
                             node, UnsupportedError)
        if kernel not in self.facts.callees:
            self.facts.callees.append(kernel)
        return self.build_callee(kernel)

    def call_kernel(self, kernel: Any, node: ast.Call, want_result: bool, tuple_ok: bool = False,
                    out: Value | None = None) -> Value | list[Value] | None:
        """A CallOp; an array result is written into `out`, a tuple result comes back as a list of values."""
        if node.keywords:
            raise self.error("sub-kernel calls take positional arguments only", node, UnsupportedError)
        callee = self.callee(kernel, node)
        ret = callee.return_type
        params = callee.args[:-1] if isinstance(ret, ArrayType) else callee.args
        if len(node.args) != len(params):
            raise self.error(f"kernel {callee.name!r} takes {len(params)} arguments, got {len(node.args)}", node)
        if isinstance(ret, ArrayType) and out is None:
            raise self.error(f"kernel {callee.name!r} returns an array: assign it to a new variable, "
                             f"`y = {callee.name}(...)`", node, UnsupportedError)
        if isinstance(ret, TupleType) and want_result and not tuple_ok:
            raise self.error(f"kernel {callee.name!r} returns {len(ret.elems)} values: unpack them, "
                             f"e.g. `q, r = {callee.name}(...)`", node, UnsupportedError)
        args = []
        for param, arg_node in zip(params, node.args, strict=True):
            if isinstance(param.type, StructType):
                args.append(self.struct_packed(arg_node, param.type, f"argument {param.name!r} of {callee.name!r}"))
                continue
            value = self.expr(arg_node)
            self.check_argument(param.type, value, f"argument {param.name!r} of {callee.name!r}", arg_node)
            if isinstance(param.type, StreamType):
                args.append(value)
            elif isinstance(param.type, ArrayType):
                if value.type != param.type:
                    raise self.error(f"argument {param.name!r} of {callee.name!r} must be {param.type}, got "
                                     f"{value.type}", arg_node)
                args.append(value)
            else:
                args.append(self.lower.assign(value, param.type, self.src.loc(arg_node),
                                              f"argument {param.name!r} of {callee.name!r}"))
        if out is not None:
            args.append(out)
        results = list(ret.elems) if isinstance(ret, TupleType) else \
            [ret] if isinstance(ret, (ScalarType, StructType)) else []
        call = CallOp(callee.name, args, results, self.loc)
        if isinstance(ret, TupleType):
            call.attrs["outputs"] = True  # results come back through reference arguments (even just one)
        self.block.append(call)
        if not want_result:
            return None
        if not results:
            raise self.error(f"kernel {callee.name!r} returns nothing", node)
        return list(call.results) if isinstance(ret, TupleType) else call.result
