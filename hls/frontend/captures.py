"""Names a kernel reads from its module: numbers become constants, numpy arrays become ROMs."""

from __future__ import annotations

import ast
import math
from typing import Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.base import Family
from hls.frontend.conversions import Literal
from hls.frontend.lower import float64
from hls.frontend.source import MISSING, try_static
from hls.ir import RomOp, Value
from hls.types import ArrayType, BoolType, FloatType, IntType, ScalarType, TypedConstant

NUMPY_TYPES: dict[str, ScalarType] = {
    "b1": BoolType(), "i1": IntType(8, True), "i2": IntType(16, True), "i4": IntType(32, True),
    "i8": IntType(64, True), "u1": IntType(8, False), "u2": IntType(16, False), "u4": IntType(32, False),
    "u8": IntType(64, False), "f4": FloatType(32), "f8": FloatType(64),
}


def _real(dtype: np.dtype) -> bool:
    """A bool, integer or floating numpy dtype (what a captured ROM may hold)."""
    return dtype == np.bool_ or np.issubdtype(dtype, np.integer) or np.issubdtype(dtype, np.floating)


class Captures(Family):
    """Module-level numbers and arrays a kernel reads (constants and ROMs)."""

    def captured(self, node: ast.Name) -> Value:
        obj = try_static(node, self.ctx.src)
        if obj is MISSING:
            raise self.ctx.error(f"unknown name {node.id!r}", node)
        if isinstance(obj, np.ndarray):
            return self.rom(node.id, obj, node)
        if isinstance(obj, TypedConstant):  # `T[N](values)`: a ROM of its declared type
            return self.rom(node.id, obj.data, node, obj.type.elem)
        if isinstance(obj, (bool, int, float, np.number, np.bool_)):
            return self.constant_value(obj, node)
        raise self.ctx.error(f"{node.id!r} ({type(obj).__name__}) cannot be used as a value in a kernel; "
                             "captured values must be numbers, numpy arrays or typed constant arrays (T[N](values))",
                             node, UnsupportedError)

    def rom(self, name: str, data: np.ndarray, node: ast.AST, typed: ScalarType | None = None) -> Value:
        if name in self.ctx.roms:
            return self.ctx.roms[name]
        elem = typed or (NUMPY_TYPES.get(data.dtype.str[1:]) if _real(data.dtype) else None)
        if elem is None or data.ndim == 0:
            raise self.ctx.error(f"captured array {name!r} has dtype {data.dtype}; use bool, int8..64, uint8..64, "
                                 "float32 or float64 arrays", node)
        t = ArrayType(elem, tuple(data.shape))
        op = RomOp(t, data.copy(), name, self.ctx.loc)
        entry = self.ctx.func.body.block
        op.parent = entry
        entry.ops.insert(len(self.ctx.roms), op)
        self.ctx.roms[name] = op.result
        self.ctx.facts.captured_arrays[name] = t
        return op.result

    def constant_value(self, value: Any, node: ast.AST) -> Value:
        if isinstance(value, (bool, np.bool_)):
            return self.ctx.lower.constant(bool(value), self.ctx.loc)
        if isinstance(value, (int, np.integer)):
            value = int(value)
            if not -(2**1023) <= value < 2**1023:
                raise self.ctx.error("integer constant too wide (over 1024 bits)", node)
            return self.ctx.lower.constant(value, self.ctx.loc)
        if isinstance(value, np.floating):
            t = FloatType(32) if value.dtype == np.float32 else FloatType(64)
            return self.ctx.lower.float_const(float(value), t, self.ctx.loc)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.ctx.error(f"constant {value} is not finite", node, UnsupportedError)
            if isinstance(node, (ast.Constant, ast.UnaryOp)):  # a literal as written: typed where it is used
                self.ctx.conversions.add(node, Literal(float64, value))
            return self.ctx.lower.float_const(value, float64, self.ctx.loc, weak=True)
        raise self.ctx.error(f"constant {value!r} is not a number", node, UnsupportedError)
