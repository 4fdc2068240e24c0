"""Calls inside kernels: the dispatch of a call expression (a stream method, a bit method or intrinsic,
a type conversion, a sub-kernel, a math function or a builtin), and the lowering of type conversions,
builtins, math functions and print. The sub-kernel call itself is hls.frontend.subkernels."""

from __future__ import annotations

import ast
import builtins
import math
from collections.abc import Sized
from typing import Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.bits import Bits
from hls.frontend.conversions import Call, Part
from hls.frontend.expressions import Expressions
from hls.frontend.helpers import Helpers
from hls.frontend.source import MISSING, call_target
from hls.frontend.streams import Streams
from hls.frontend.subkernels import KernelCalls
from hls.frontend.tables import MATH_NAMES, NUMPY_MATH
from hls.ir import PrintOp, Value
from hls.lang.bits import INTRINSICS
from hls.lang.directives import DIRECTIVES
from hls.lang.storage import static, zeros
from hls.types import (
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    float64,
    struct_type_of,
)

IMPURE = {print: "print() is a statement (a debugging aid); it has no value",
          open: "open() is not supported: kernels cannot do file I/O",
          input: "input() is not supported in kernels"}


class Calls(Family):
    """Call expressions: their dispatch; builtins, math functions, type conversions and print."""

    def __init__(self, ctx: BuildContext, helpers: Helpers, exprs: Expressions, streams: Streams,
                 kernel_calls: KernelCalls, bits: Bits) -> None:
        super().__init__(ctx)
        self.helpers = helpers
        self.exprs = exprs
        self.streams = streams
        self.kernel_calls = kernel_calls
        self.bits = bits

    def visit_Call(self, node: ast.Call) -> Value:
        if self.streams.stream_method(node) is not None:
            return self.streams.lower_method(node, statement=False)
        method = self.bits.method_call(node)
        if method is not None:
            return method
        target = call_target(node.func, self.ctx.src)
        if target in INTRINSICS:
            return self.bits.intrinsic_call(INTRINSICS[target], node)
        if isinstance(target, ScalarType):
            return self.type_call(target, node)
        if struct_type_of(target) is not None:
            raise self.ctx.struct_not_a_value(struct_type_of(target), node)
        if is_kernel(target):
            return self.kernel_calls.call_kernel(target, node, want_result=True)
        if self.helpers.knows(node):
            return self.helpers.inline(node)
        if target is MISSING:
            raise self.ctx.error(f"call to unknown function {ast.unparse(node.func)!r}", node.func, UnsupportedError)
        for name in MATH_NAMES:
            if target is getattr(math, name):
                return self.math_call(name, node)
        if target in NUMPY_MATH:
            return self.math_call(NUMPY_MATH[target], node)
        result = self.builtin_call(target, node)
        if result is None:
            self.refuse_call(target, node)
        return result

    def helper_statement(self, node: ast.Call) -> bool:
        """`helper(...)` as a statement: inlined, its value (if any) dropped; False for other calls."""
        if not self.helpers.knows(node):
            return False
        self.helpers.inline(node)
        return True

    def builtin_call(self, target: Any, node: ast.Call) -> Value | None:
        """min, max, abs, float, bool, len and int; None for anything else."""
        if target in (min, max):
            if node.keywords or len(node.args) < 2:
                raise self.ctx.error(f"{target.__name__}() takes two or more scalar arguments", node, UnsupportedError)
            values = [self.ctx.expr(a) for a in node.args]
            result = self.ctx.lower.minmax(target.__name__, values, self.ctx.loc)
            # Python returns the winning operand unconverted; the C++ converts it to the joint type
            self.ctx.conversions.add(node, Call("rt.convert", (result.type, Part(""))))
            self.exprs.note_int_to_float(result.type, *zip(node.args, values, strict=True))
            return result
        if target is abs:
            return self.ctx.lower.absolute(self.single_arg(node), self.ctx.loc)
        if target is builtins.float:
            return self.ctx.lower.cast(self.single_arg(node), float64, self.ctx.loc, explicit=True)
        if target is builtins.bool:
            return self.ctx.lower.truth(self.single_arg(node), self.ctx.loc)
        if target is builtins.len:
            if len(node.args) != 1 or not isinstance(self.ctx.compile_time(node.args[0]), Sized):
                raise self.ctx.error("len() needs an array", node)
            return self.exprs.static_number(node)
        if target is builtins.int:
            return self.int_call(node)
        return None

    def refuse_call(self, target: Any, node: ast.Call) -> None:
        """The most specific message for a call kernels cannot make."""
        if target is range:
            raise self.ctx.error("range() is only supported as the iterable of a for loop", node, UnsupportedError)
        if target in IMPURE:
            raise self.ctx.error(IMPURE[target], node, UnsupportedError)
        if target is static:
            raise self.ctx.error("hls.static(...) must be assigned to a plain variable at the top of the kernel: "
                                 "`x = hls.static(hls.int32(0))`", node, UnsupportedError)
        if target is zeros:
            raise self.ctx.error("hls.zeros(...) must be assigned to a variable: `buf = hls.zeros((N,), hls.int32)`",
                                 node,
                                 UnsupportedError)
        if target in DIRECTIVES.values():
            raise self.ctx.error(f"hls.{target.__name__}() is a statement, not a value", node, UnsupportedError)
        module = getattr(target, "__module__", "") or ""
        if module.startswith("numpy.random") or "random" in module:
            raise self.ctx.error("random numbers are not supported in kernels: results must be reproducible in "
                                 "hardware; pass the values in an array", node, UnsupportedError)
        raise self.ctx.error(f"call to {ast.unparse(node.func)!r} is not supported in kernels: only hls types, math "
                             "functions, min/max/abs and other @hls.kernel functions can be called", node,
                             UnsupportedError)

    def single_arg(self, node: ast.Call) -> Value:
        if node.keywords or len(node.args) != 1:
            raise self.ctx.error(f"{ast.unparse(node.func)}() takes exactly one argument", node)
        return self.ctx.expr(node.args[0])

    def lower_print(self, node: ast.Call) -> None:
        """`print(...)` as a statement: literal strings and scalar values, printed in Python mode and in
        csim (the C++ prints under #ifndef __SYNTHESIS__, so synthesis never sees it)."""
        options = {"sep": " ", "end": "\n"}
        for keyword in node.keywords:
            value = self.ctx.static(keyword.value, f"print's {keyword.arg}") if keyword.arg in options else None
            if not isinstance(value, str):
                raise self.ctx.error("print() takes only sep= and end= strings as keywords", keyword.value,
                                     UnsupportedError)
            options[keyword.arg] = value
        values, parts, types = [], [], []
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                parts.append(arg.value)
                types.append(None)
                continue
            value = self.ctx.expr(arg)
            if not isinstance(value.type, ScalarType):
                raise self.ctx.error("print() prints scalars and strings; print array elements one by one", arg,
                                     UnsupportedError)
            values.append(value)
            parts.append(None)
            types.append(value.type)
        # formatted exactly as the C++ printf does
        self.ctx.conversions.add(node, Call("rt.kernel_print", (tuple(types), options["sep"], options["end"],
                                                                Part("args.*"))))
        self.ctx.emit(PrintOp(values, tuple(parts), options["sep"], options["end"], self.ctx.loc))

    def int_call(self, node: ast.Call) -> Value:
        """`int(x)`: integers unchanged; fixed point and floats truncated toward zero, as Python's int() and
        the C++ conversion both do, into the narrowest type holding every result (int64 for floats, whose
        conversion is defined for |x| < 2**63 only)."""
        value = self.single_arg(node)
        t = value.type
        if isinstance(t, (IntType, BoolType)):
            return self.ctx.lower.as_int(value, self.ctx.loc)
        if isinstance(t, FixedType):
            target = IntType(max(t.int_bits, 1), t.signed)
        elif isinstance(t, FloatType):
            target = IntType(64, True)
        else:
            raise self.ctx.error(f"int() of a {t} is not supported", node)
        # Python truncates toward zero, as the C++ conversion does
        self.ctx.conversions.add(node, Call("rt.convert", (target, Part("args.0"))))
        return self.ctx.lower.cast(value, target, self.ctx.loc, explicit=True)

    def type_call(self, target: ScalarType, node: ast.Call) -> Value:
        """`hls.int9(x)`: an explicit conversion, always allowed (wraps, quantizes, truncates)."""
        value = self.single_arg(node)
        if not isinstance(value.type, ScalarType):
            raise HLSTypeError(f"cannot convert {value.type} to {target}", self.ctx.loc)
        return self.ctx.lower.cast(value, target, self.ctx.loc, explicit=True)

    def math_call(self, name: str, node: ast.Call) -> Value:
        arity = 2 if name == "pow" else 1
        if node.keywords or len(node.args) != arity:
            raise self.ctx.error(f"math.{name} takes {arity} argument{'s' if arity > 1 else ''}", node)
        result = self.ctx.lower.math(name, [self.ctx.expr(a) for a in node.args], self.ctx.loc)
        self.ctx.conversions.add(node, Call("rt.math_call", (name, result.type, Part("args.*"))))
        return result

