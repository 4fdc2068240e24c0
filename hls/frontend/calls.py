"""Calls inside kernels: type conversions, builtins, math functions and sub-kernels."""

from __future__ import annotations

import ast
import builtins
import math
from collections.abc import Sized
from typing import TYPE_CHECKING, Any

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend import structs
from hls.frontend.builder import is_kernel
from hls.frontend.source import MISSING, call_target
from hls.frontend.tables import MATH_NAMES
from hls.ir import CallOp, PrintOp, Value
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
    struct_type_of,
)

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

IMPURE = {print: "print() is a statement (a debugging aid); it has no value",
          open: "open() is not supported: kernels cannot do file I/O",
          input: "input() is not supported in kernels"}


def lower_call(b: FunctionBuilder, node: ast.Call) -> Value:
    from hls.frontend import streams

    if streams.stream_method(b, node) is not None:
        return streams.lower_method(b, node, statement=False)
    from hls.bits import INTRINSICS
    from hls.frontend.bits import intrinsic_call, method_call

    method = method_call(b, node)
    if method is not None:
        return method
    target = call_target(node.func, b.src)
    if target in INTRINSICS:
        return intrinsic_call(b, INTRINSICS[target], node)
    if isinstance(target, ScalarType):
        return type_call(b, target, node)
    if struct_type_of(target) is not None:
        raise structs.not_a_value(b, struct_type_of(target), node)
    if is_kernel(target):
        return b.call_kernel(target, node, want_result=True)
    if target is MISSING:
        raise b.error(f"call to unknown function {ast.unparse(node.func)!r}", node.func, UnsupportedError)
    for name in MATH_NAMES:
        if target is getattr(math, name):
            return math_call(b, name, node)
    if target in (min, max):
        if node.keywords or len(node.args) < 2:
            raise b.error(f"{target.__name__}() takes two or more scalar arguments", node, UnsupportedError)
        values = [b.expr(a) for a in node.args]
        result = b.lower.minmax(target.__name__, values, b.loc)
        b.info.value_types[id(node)] = result.type  # Python returns the winning operand unconverted
        b.note_int_to_float(result.type, *zip(node.args, values, strict=True))
        return result
    if target is abs:
        return b.lower.absolute(single_arg(b, node), b.loc)
    if target is builtins.float:
        from hls.types import float64

        return b.lower.cast(single_arg(b, node), float64, b.loc, explicit=True)
    if target is builtins.bool:
        return b.lower.truth(single_arg(b, node), b.loc)
    if target is builtins.len:
        if len(node.args) != 1 or not isinstance(b.compile_time(node.args[0]), Sized):
            raise b.error("len() needs an array", node)
        return b.static_number(node)
    if target is builtins.int:
        return int_call(b, node)
    if target is range:
        raise b.error("range() is only supported as the iterable of a for loop", node, UnsupportedError)
    if target in IMPURE:
        raise b.error(IMPURE[target], node, UnsupportedError)
    from hls.directives import DIRECTIVES
    from hls.runtime import static, zeros

    if target is static:
        raise b.error("hls.static(...) must be assigned to a plain variable at the top of the kernel: "
                      "`x = hls.static(hls.int32(0))`", node, UnsupportedError)
    if target is zeros:
        raise b.error("hls.zeros(...) must be assigned to a variable: `buf = hls.zeros((N,), hls.int32)`", node,
                      UnsupportedError)
    if target in DIRECTIVES.values():
        raise b.error(f"hls.{target.__name__}() is a statement, not a value", node, UnsupportedError)
    module = getattr(target, "__module__", "") or ""
    if module.startswith("numpy.random") or "random" in module:
        raise b.error("random numbers are not supported in kernels: results must be reproducible in "
                      "hardware; pass the values in an array", node, UnsupportedError)
    raise b.error(f"call to {ast.unparse(node.func)!r} is not supported in kernels: only hls types, math "
                  "functions, min/max/abs and other @hls.kernel functions can be called", node,
                  UnsupportedError)


def single_arg(b: FunctionBuilder, node: ast.Call) -> Value:
    if node.keywords or len(node.args) != 1:
        raise b.error(f"{ast.unparse(node.func)}() takes exactly one argument", node)
    return b.expr(node.args[0])


def lower_print(b: FunctionBuilder, node: ast.Call) -> None:
    """`print(...)` as a statement: literal strings and scalar values, printed in Python mode and in
    csim (the C++ prints under #ifndef __SYNTHESIS__, so synthesis never sees it)."""
    options = {"sep": " ", "end": "\n"}
    for keyword in node.keywords:
        value = b.static(keyword.value, f"print's {keyword.arg}") if keyword.arg in options else None
        if not isinstance(value, str):
            raise b.error("print() takes only sep= and end= strings as keywords", keyword.value, UnsupportedError)
        options[keyword.arg] = value
    values, parts, types = [], [], []
    for arg in node.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            parts.append(arg.value)
            types.append(None)
            continue
        value = b.expr(arg)
        if not isinstance(value.type, ScalarType):
            raise b.error("print() prints scalars and strings; print array elements one by one", arg,
                          UnsupportedError)
        values.append(value)
        parts.append(None)
        types.append(value.type)
    b.info.prints[id(node)] = (tuple(types), options["sep"], options["end"])
    b.emit(PrintOp(values, tuple(parts), options["sep"], options["end"], b.loc))


def int_call(b: FunctionBuilder, node: ast.Call) -> Value:
    """`int(x)`: integers unchanged; fixed point and floats truncated toward zero, as Python's int() and
    the C++ conversion both do, into the narrowest type holding every result (int64 for floats, whose
    conversion is defined for |x| < 2**63 only)."""
    value = single_arg(b, node)
    t = value.type
    if isinstance(t, (IntType, BoolType)):
        return b.lower.as_int(value, b.loc)
    if isinstance(t, FixedType):
        target = IntType(max(t.int_bits, 1), t.signed)
    elif isinstance(t, FloatType):
        target = IntType(64, True)
    else:
        raise b.error(f"int() of a {t} is not supported", node)
    b.info.arg_casts[id(node)] = target
    return b.lower.cast(value, target, b.loc, explicit=True)


def type_call(b: FunctionBuilder, target: ScalarType, node: ast.Call) -> Value:
    """`hls.int9(x)`: an explicit conversion, always allowed (wraps, quantizes, truncates)."""
    value = single_arg(b, node)
    if not isinstance(value.type, ScalarType):
        raise HLSTypeError(f"cannot convert {value.type} to {target}", b.loc)
    return b.lower.cast(value, target, b.loc, explicit=True)


def math_call(b: FunctionBuilder, name: str, node: ast.Call) -> Value:
    arity = 2 if name == "pow" else 1
    if node.keywords or len(node.args) != arity:
        raise b.error(f"math.{name} takes {arity} argument{'s' if arity > 1 else ''}", node)
    result = b.lower.math(name, [b.expr(a) for a in node.args], b.loc)
    b.info.math_calls[id(node)] = (name, result.type)
    return result


def callee_function(b: FunctionBuilder, kernel: Any, node: ast.Call) -> Any:
    """The called kernel's IR function (built once per module; recursion refused)."""
    from hls.frontend.build import build_function

    callee_func = kernel.__hls_kernel__
    if callee_func in b.compiling:
        raise b.error(f"recursive call to kernel {callee_func.__name__!r}: hardware has no call stack",
                      node, UnsupportedError)
    if kernel not in b.info.callees:
        b.info.callees.append(kernel)
    return build_function(kernel, b.module, b.compiling)


def call_kernel(b: FunctionBuilder, kernel: Any, node: ast.Call, want_result: bool, tuple_ok: bool = False,
                out: Value | None = None) -> Value | list[Value] | None:
    """A CallOp; an array result is written into `out`, a tuple result comes back as a list of values."""
    if node.keywords:
        raise b.error("sub-kernel calls take positional arguments only", node, UnsupportedError)
    callee = callee_function(b, kernel, node)
    ret = callee.return_type
    params = callee.args[:-1] if isinstance(ret, ArrayType) else callee.args
    if len(node.args) != len(params):
        raise b.error(f"kernel {callee.name!r} takes {len(params)} arguments, got {len(node.args)}", node)
    if isinstance(ret, ArrayType) and out is None:
        raise b.error(f"kernel {callee.name!r} returns an array: assign it to a new variable, "
                      f"`y = {callee.name}(...)`", node, UnsupportedError)
    if isinstance(ret, TupleType) and want_result and not tuple_ok:
        raise b.error(f"kernel {callee.name!r} returns {len(ret.elems)} values: unpack them, "
                      f"e.g. `q, r = {callee.name}(...)`", node, UnsupportedError)
    args = []
    from hls.frontend.streams import check_argument

    for param, arg_node in zip(params, node.args, strict=True):
        if isinstance(param.type, StructType):
            args.append(structs.packed(b, arg_node, param.type, f"argument {param.name!r} of {callee.name!r}"))
            continue
        value = b.expr(arg_node)
        check_argument(b, param.type, value, f"argument {param.name!r} of {callee.name!r}", arg_node)
        if isinstance(param.type, StreamType):
            args.append(value)
        elif isinstance(param.type, ArrayType):
            if value.type != param.type:
                raise b.error(f"argument {param.name!r} of {callee.name!r} must be {param.type}, got "
                              f"{value.type}", arg_node)
            args.append(value)
        else:
            args.append(b.lower.assign(value, param.type, b.src.loc(arg_node),
                                       f"argument {param.name!r} of {callee.name!r}"))
    if out is not None:
        args.append(out)
    results = list(ret.elems) if isinstance(ret, TupleType) else [ret] if isinstance(ret, (ScalarType, StructType)) \
        else []
    call = CallOp(callee.name, args, results, b.loc)
    if isinstance(ret, TupleType):
        call.attrs["outputs"] = True  # results come back through reference arguments (even just one)
    b.block.append(call)
    if not want_result:
        return None
    if not results:
        raise b.error(f"kernel {callee.name!r} returns nothing", node)
    return list(call.results) if isinstance(ret, TupleType) else call.result


# ---- control flow --------------------------------------------------------------------------
