"""Test support for the MLIR export: parse with xdsl, and run kernels in xdsl's interpreter.

xdsl 0.75's interpreter lacks several ops the export uses (the integer extensions and truncation, the
unsigned division family, min/max, memref.alloca, divf, the int/float conversions, most of `math`).
They are defined here from the MLIR LangRef's definitions on the interpreter's own value types:
integers as two's-complement `IntegerAttr`s, floats computed in float64 and rounded once to the
result type by `FloatAttr` (xdsl's own addf/subf/mulf do the same), which is the correctly rounded
float32 result for + - * / and sqrt.
"""

from __future__ import annotations

import struct
from fractions import Fraction
from typing import Any

import numpy as np

from hls.ir import MathOp
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, TupleType, exact_to_float32

xdsl = __import__("pytest").importorskip("xdsl", reason="xdsl is in the dev extra: pip install -e '.[dev]'")

from xdsl.context import Context  # noqa: E402
from xdsl.dialects import arith, builtin, func, linalg, math, memref, scf  # noqa: E402
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls  # noqa: E402
from xdsl.interpreters import arith as arith_interp  # noqa: E402
from xdsl.interpreters import func as func_interp  # noqa: E402
from xdsl.interpreters import linalg as linalg_interp  # noqa: E402
from xdsl.interpreters import memref as memref_interp  # noqa: E402
from xdsl.interpreters import scf as scf_interp  # noqa: E402
from xdsl.interpreters.shaped_array import ShapedArray  # noqa: E402
from xdsl.interpreters.utils.ptr import TypedPtr  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

DIALECTS = (builtin.Builtin, func.Func, scf.Scf, arith.Arith, memref.MemRef, math.Math, linalg.Linalg)


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

    @impl(arith.BitcastOp)
    def bitcast(self, interp, op, args):
        """Same bits, other type (floats as their IEEE-754 encoding)."""
        src, dst = op.input.type, op.result.type
        if isinstance(src, builtin.IntegerType):
            fmt = ("<I", "<f") if _width(src) == 32 else ("<Q", "<d")
            value = struct.unpack(fmt[1], struct.pack(fmt[0], _unsigned(args[0].value.data, _width(src))))[0]
            return (builtin.FloatAttr(value, dst),)
        fmt = ("<f", "<I") if _width(dst) == 32 else ("<d", "<Q")
        return (_int(struct.unpack(fmt[1], struct.pack(fmt[0], args[0].value.data))[0], dst),)

    @impl(memref.AllocaOp)
    def alloca(self, interp, op, args):
        t = op.memref.type
        shape = list(t.get_shape())
        return (ShapedArray(TypedPtr.new([0] * int(np.prod(shape)), xtype=t.get_element_type()), shape),)


def _float(value: Any, t: Any) -> builtin.FloatAttr:
    return builtin.FloatAttr(float(value), t)  # rounds to the type, to nearest even


def _f64(fn, *args: float) -> float:
    """A float64 numpy computation without Python's exceptions (inf and NaN come out as IEEE says)."""
    with np.errstate(all="ignore"):
        return float(fn(*(np.float64(a) for a in args)))


FLOAT_UNARY = {arith.NegfOp: np.negative, math.AbsFOp: np.fabs, math.FloorOp: np.floor,
               math.CeilOp: np.ceil, math.SqrtOp: np.sqrt, math.ExpOp: np.exp, math.LogOp: np.log,
               math.SinOp: np.sin, math.CosOp: np.cos, math.TanhOp: np.tanh}


class MissingFloat(InterpreterFunctions):
    """Float ops in float64, rounded once to the result type: exact for negf, divf, sqrt, floor, ceil,
    fabs and the conversions; exp, log, sin, ... are as precise as numpy's float64 ones."""

    @impl(arith.DivfOp)
    def divf(self, interp, op, args):
        return (_float(_f64(np.divide, args[0].value.data, args[1].value.data), op.result.type),)

    @impl(math.PowFOp)
    def powf(self, interp, op, args):
        return (_float(_f64(np.power, args[0].value.data, args[1].value.data), op.result.type),)

    @impl(arith.SIToFPOp)
    def sitofp(self, interp, op, args):
        return (_exact_float(_signed(args[0].value.data, _width(op.input.type)), op.result.type),)

    @impl(arith.UIToFPOp)
    def uitofp(self, interp, op, args):
        return (_exact_float(_unsigned(args[0].value.data, _width(op.input.type)), op.result.type),)

    @impl(arith.FPToSIOp)
    def fptosi(self, interp, op, args):
        return (_int(int(args[0].value.data), op.result.type),)  # truncates toward zero

    @impl(arith.ExtFOp)
    def extf(self, interp, op, args):
        return (_float(args[0].value.data, op.result.type),)

    @impl(arith.TruncFOp)
    def truncf(self, interp, op, args):
        return (_float(args[0].value.data, op.result.type),)


def _unary_impl(fn):
    def run(self, interp, op, args):
        return (_float(_f64(fn, args[0].value.data), op.result.type),)
    return run


for _op, _fn in FLOAT_UNARY.items():
    setattr(MissingFloat, f"run_{_op.__name__}", impl(_op)(_unary_impl(_fn)))
MissingFloat = register_impls(MissingFloat)


def _exact_float(value: int, t: Any) -> builtin.FloatAttr:
    """An integer rounded once to f32/f64 (float() then f32 would round twice above 2**53)."""
    if isinstance(t, builtin.Float32Type):
        return builtin.FloatAttr(float(exact_to_float32(value)), t)
    return builtin.FloatAttr(float(value), t)


def storage_to_raw(value: Any, t: Any) -> int:
    """A golden-model scalar (int, bool, or a fixed-point value) as the integer the MLIR carries."""
    if isinstance(t, FixedType):
        return int(Fraction(float(value)) / t.lsb) if not isinstance(value, Fraction) else int(value / t.lsb)
    return int(value)


def raw_to_storage(raw: int, t: Any) -> Any:
    """The MLIR's value back as the golden model's (two's complement or plain per the type)."""
    if isinstance(t, FloatType):
        return float(raw)
    width = t.width if isinstance(t, (IntType, FixedType)) else 1
    v = _signed(raw, width) if getattr(t, "signed", False) else _unsigned(raw, width)
    if isinstance(t, FixedType):
        return float(v * t.lsb)
    return bool(v) if isinstance(t, BoolType) else v


def interpretable(kernel: Any) -> bool:
    """Whether every array fits the interpreter's memory (xdsl packs elements with `struct`: 64 bits at most)."""
    module = kernel.compile().module
    arrays = [a.type.elem for f in module.functions.values() for a in f.args if isinstance(a.type, ArrayType)]
    arrays += [op.result.type.elem for f in module.functions.values() for op in f.walk()
               if len(op.results) == 1 and isinstance(op.result.type, ArrayType)]
    return all(isinstance(t, FloatType) or mlir_width(t) <= 64 for t in arrays)


def uses_libm(kernel: Any) -> bool:
    """exp, log, sin, ...: neither numpy nor the C library rounds these correctly, so compare with a tolerance."""
    module = kernel.compile().module
    return any(isinstance(op, MathOp) and op.func not in ("sqrt", "floor", "ceil", "fabs")
               for f in module.functions.values() for op in f.walk())


def interpret(kernel: Any, inputs: list[Any]) -> tuple[Any, list[Any]]:
    """Run the kernel's MLIR in xdsl's interpreter: (return value, the array arguments afterwards)."""
    compiled = kernel.compile()
    interp = Interpreter(parse(kernel.mlir))
    for functions in (arith_interp.ArithFunctions(), scf_interp.ScfFunctions(), memref_interp.MemRefFunctions(),
                      func_interp.FuncFunctions(), linalg_interp.LinalgFunctions(), MissingArith(),
                      MissingFloat()):
        interp.register_implementations(functions)
    values = []
    for arg, t in zip(inputs, compiled.arg_types, strict=True):
        if isinstance(t, ArrayType):
            elem = xdsl_type(t.elem)
            flat = [to_xdsl(v, t.elem).value.data for v in np.asarray(arg).ravel()]
            values.append(ShapedArray(TypedPtr.new(flat, xtype=elem), list(t.shape)))
        else:
            values.append(to_xdsl(arg, t))
    ret_type = compiled.return_type
    results = interp.call_op(compiled.module.top, tuple(values))
    arrays = [np.array([raw_to_storage(v, t.elem) for v in value.data], dtype=object).reshape(t.shape)
              for value, t in zip(values, compiled.arg_types, strict=True) if isinstance(t, ArrayType)]
    if isinstance(ret_type, ArrayType):  # the top kernel returns its memref.alloc (docs/mlir.md)
        ret = np.array([raw_to_storage(v, ret_type.elem) for v in results[0].data], dtype=object)
        return ret.reshape(ret_type.shape), arrays
    if isinstance(ret_type, TupleType):
        return tuple(raw_to_storage(r.value.data, t) for r, t in zip(results, ret_type.elems, strict=True)), arrays
    ret = raw_to_storage(results[0].value.data, ret_type) if results else None
    return ret, arrays


def xdsl_type(t: Any) -> Any:
    if isinstance(t, FloatType):
        return builtin.Float32Type() if t.bits == 32 else builtin.Float64Type()
    return builtin.IntegerType(mlir_width(t))


def to_xdsl(value: Any, t: Any) -> Any:
    """A golden-model scalar as the interpreter's runtime value."""
    if isinstance(t, FloatType):
        return builtin.FloatAttr(float(value), xdsl_type(t))
    return _int(storage_to_raw(value, t), xdsl_type(t))


def mlir_width(t: Any) -> int:
    return 1 if isinstance(t, BoolType) else t.width
