"""Test support for the MLIR export: parse with xdsl, and run integer kernels in xdsl's interpreter.

xdsl 0.75's interpreter lacks a few of the arith ops the export uses (the extensions and truncation,
the unsigned division family, min/max, memref.alloca); they are defined here from the MLIR arith
specification (LangRef), on the interpreter's own value representation.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType

xdsl = __import__("pytest").importorskip("xdsl", reason="xdsl is in the dev extra: pip install -e '.[dev]'")

from xdsl.context import Context  # noqa: E402
from xdsl.dialects import arith, builtin, func, math, memref, scf  # noqa: E402
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls  # noqa: E402
from xdsl.interpreters import arith as arith_interp  # noqa: E402
from xdsl.interpreters import func as func_interp  # noqa: E402
from xdsl.interpreters import memref as memref_interp  # noqa: E402
from xdsl.interpreters import scf as scf_interp  # noqa: E402
from xdsl.interpreters.shaped_array import ShapedArray  # noqa: E402
from xdsl.interpreters.utils.ptr import TypedPtr  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

DIALECTS = (builtin.Builtin, func.Func, scf.Scf, arith.Arith, memref.MemRef, math.Math)


def parse(text: str) -> builtin.ModuleOp:
    """Parse and verify with only the upstream dialects the export promises."""
    ctx = Context()
    for dialect in DIALECTS:
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def _width(t: Any) -> int:
    return t.width.data


def _unsigned(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def _signed(v: int, w: int) -> int:
    v = _unsigned(v, w)
    return v - (1 << w) if v >> (w - 1) else v


def _int(value: int, t: Any) -> builtin.IntegerAttr:
    return builtin.IntegerAttr(_signed(value, _width(t)), t)


@register_impls
class MissingArith(InterpreterFunctions):
    """arith ops xdsl's interpreter does not implement yet, per the LangRef's definitions."""

    @impl(arith.ExtSIOp)
    def extsi(self, interp, op, args):
        return (_int(_signed(args[0].value.data, _width(op.input.type)), op.result.type),)

    @impl(arith.ExtUIOp)
    def extui(self, interp, op, args):
        return (_int(_unsigned(args[0].value.data, _width(op.input.type)), op.result.type),)

    @impl(arith.TruncIOp)
    def trunci(self, interp, op, args):
        return (_int(args[0].value.data, op.result.type),)

    def _binary(self, op, args, fn, signed: bool):
        w = _width(op.result.type)
        read = _signed if signed else _unsigned
        return (_int(fn(read(args[0].value.data, w), read(args[1].value.data, w)), op.result.type),)

    @impl(arith.DivUIOp)
    def divui(self, interp, op, args):
        return self._binary(op, args, lambda a, b: a // b, False)

    @impl(arith.RemUIOp)
    def remui(self, interp, op, args):
        return self._binary(op, args, lambda a, b: a % b, False)

    @impl(arith.ShRUIOp)
    def shrui(self, interp, op, args):
        return self._binary(op, args, lambda a, b: a >> b, False)

    @impl(arith.MinSIOp)
    def minsi(self, interp, op, args):
        return self._binary(op, args, min, True)

    @impl(arith.MaxSIOp)
    def maxsi(self, interp, op, args):
        return self._binary(op, args, max, True)

    @impl(arith.MinUIOp)
    def minui(self, interp, op, args):
        return self._binary(op, args, min, False)

    @impl(arith.MaxUIOp)
    def maxui(self, interp, op, args):
        return self._binary(op, args, max, False)

    @impl(memref.AllocaOp)
    def alloca(self, interp, op, args):
        t = op.memref.type
        shape = list(t.get_shape())
        return (ShapedArray(TypedPtr.new([0] * int(np.prod(shape)), xtype=t.get_element_type()), shape),)


def storage_to_raw(value: Any, t: Any) -> int:
    """A golden-model scalar (int, bool, or a fixed-point value) as the integer the MLIR carries."""
    if isinstance(t, FixedType):
        return int(Fraction(float(value)) / t.lsb) if not isinstance(value, Fraction) else int(value / t.lsb)
    return int(value)


def raw_to_storage(raw: int, t: Any) -> Any:
    """The MLIR's integer back as the golden model's value (two's complement or plain per the type)."""
    width = t.width if isinstance(t, (IntType, FixedType)) else 1
    v = _signed(raw, width) if getattr(t, "signed", False) else _unsigned(raw, width)
    if isinstance(t, FixedType):
        return float(v * t.lsb)
    return bool(v) if isinstance(t, BoolType) else v


def interpretable(kernel: Any) -> bool:
    """Integer, bool and fixed-point kernels without floats (xdsl's float ops compute in float64 only)."""
    module = kernel.compile().module
    values = [a for f in module.functions.values() for a in f.args]
    values += [r for f in module.functions.values() for op in f.walk() for r in op.results]
    types = [v.type.elem if isinstance(v.type, ArrayType) else v.type for v in values]
    arrays = [a.type.elem for f in module.functions.values() for a in f.args if isinstance(a.type, ArrayType)]
    arrays += [op.result.type.elem for f in module.functions.values() for op in f.walk()
               if len(op.results) == 1 and isinstance(op.result.type, ArrayType)]
    # xdsl packs memref elements with `struct`: 64 bits at most
    return not any(isinstance(t, FloatType) for t in types) and all(mlir_width(t) <= 64 for t in arrays)


def interpret(kernel: Any, inputs: list[Any]) -> tuple[Any, list[Any]]:
    """Run the kernel's MLIR in xdsl's interpreter: (return value, the array arguments afterwards)."""
    compiled = kernel.compile()
    interp = Interpreter(parse(kernel.mlir))
    for functions in (arith_interp.ArithFunctions(), scf_interp.ScfFunctions(), memref_interp.MemRefFunctions(),
                      func_interp.FuncFunctions(), MissingArith()):
        interp.register_implementations(functions)
    values = []
    for arg, t in zip(inputs, compiled.arg_types, strict=True):
        if isinstance(t, ArrayType):
            elem = builtin.IntegerType(mlir_width(t.elem))
            flat = [_signed(storage_to_raw(v, t.elem), mlir_width(t.elem)) for v in np.asarray(arg).ravel()]
            values.append(ShapedArray(TypedPtr.new(flat, xtype=elem), list(t.shape)))
        else:
            values.append(_int(storage_to_raw(arg, t), builtin.IntegerType(mlir_width(t))))
    results = interp.call_op(compiled.module.top, tuple(values))
    arrays = [np.array([raw_to_storage(v, t.elem) for v in value.data], dtype=object).reshape(t.shape)
              for value, t in zip(values, compiled.arg_types, strict=True) if isinstance(t, ArrayType)]
    ret = raw_to_storage(results[0].value.data, compiled.return_type) if results else None
    return ret, arrays


def mlir_width(t: Any) -> int:
    return 1 if isinstance(t, BoolType) else t.width
