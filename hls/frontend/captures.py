"""Names a kernel reads from its module: numbers become constants, numpy arrays become ROMs."""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from hls.errors import UnsupportedError
from hls.frontend.lower import float64
from hls.frontend.source import MISSING, try_static
from hls.ir import RomOp, Value
from hls.types import ArrayType, BoolType, FloatType, IntType, ScalarType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

NUMPY_TYPES: dict[str, ScalarType] = {
    "b1": BoolType(), "i1": IntType(8, True), "i2": IntType(16, True), "i4": IntType(32, True),
    "i8": IntType(64, True), "u1": IntType(8, False), "u2": IntType(16, False), "u4": IntType(32, False),
    "u8": IntType(64, False), "f4": FloatType(32), "f8": FloatType(64),
}


def captured(b: FunctionBuilder, node: ast.Name) -> Value:
    obj = try_static(node, b.src)
    if obj is MISSING:
        raise b.error(f"unknown name {node.id!r}", node)
    if isinstance(obj, np.ndarray):
        return rom(b, node.id, obj, node)
    if isinstance(obj, (bool, int, float, np.number, np.bool_)):
        return constant_value(b, obj, node)
    raise b.error(f"{node.id!r} ({type(obj).__name__}) cannot be used as a value in a kernel; "
                     "captured values must be numbers or numpy arrays", node, UnsupportedError)


def rom(b: FunctionBuilder, name: str, data: np.ndarray, node: ast.AST) -> Value:
    if name in b.roms:
        return b.roms[name]
    elem = NUMPY_TYPES.get(data.dtype.str[1:]) if data.dtype.kind in "biuf" else None
    if elem is None or data.ndim == 0:
        raise b.error(f"captured array {name!r} has dtype {data.dtype}; use bool, int8..64, uint8..64, "
                         "float32 or float64 arrays", node)
    t = ArrayType(elem, tuple(data.shape))
    op = RomOp(t, data.copy(), name, b.loc)
    entry = b.func.body.block
    op.parent = entry
    entry.ops.insert(len(b.roms), op)
    b.roms[name] = op.result
    b.info.captured_arrays[name] = t
    return op.result


def constant_value(b: FunctionBuilder, value: Any, node: ast.AST) -> Value:
    if isinstance(value, (bool, np.bool_)):
        return b.lower.constant(bool(value), b.loc)
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if not -(2**1023) <= value < 2**1023:
            raise b.error("integer constant too wide (over 1024 bits)", node)
        return b.lower.constant(value, b.loc)
    if isinstance(value, np.floating):
        t = FloatType(32) if value.dtype == np.float32 else FloatType(64)
        return b.lower.float_const(float(value), t, b.loc)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise b.error(f"constant {value} is not finite", node, UnsupportedError)
        b.info.float_literals[id(node)] = float64
        return b.lower.float_const(value, float64, b.loc, weak=True)
    raise b.error(f"constant {value!r} is not a number", node, UnsupportedError)
