"""Run generated C++ through the cffi bridge: argument checks, zero-copy arrays, boundary conversions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from hls.errors import SimulationError
from hls.sim.build import build_shared_library, load_library
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, ScalarType

FAULTS = {1: "divided by zero", 2: "indexed an array out of bounds", 3: "read or wrote a bit beyond a value's width"}


class CompiledKernel:
    """A built csim library for one design; `run` checks arguments before any native code runs."""

    def __init__(self, design: Any, extra_flags: tuple[str, ...] = ()):
        design.check_boundary()
        self.design = design
        self.path = build_shared_library(design.sources, extra_flags=extra_flags, tag="csim")
        params = [f"{p.storage} {'*' if p.is_array else ''}" for p in design.ports]
        if design.return_storage:
            params.append(f"{design.return_storage} *")
        self.cdef = f"int hls_bridge({', '.join(params) or 'void'});"
        self.ffi, self.lib = load_library(self.path, self.cdef)

    def run(self, args: tuple[Any, ...]) -> Any:
        ports = self.design.ports
        if len(args) != len(ports):
            raise SimulationError(f"{self.design.top} takes {len(ports)} arguments, got {len(args)}")
        c_args = [self.convert(port, arg) for port, arg in zip(ports, args, strict=True)]
        ret = None
        if self.design.return_storage:
            ret = self.ffi.new(f"{self.design.return_storage} *")
            c_args.append(ret)
        fault = self.lib.hls_bridge(*c_args)
        if fault:
            what = FAULTS.get(fault, f"faulted ({fault})")
            raise SimulationError(f"{self.design.top}: the C simulation {what}, which is undefined in C++ (csim "
                                  "substituted 0 and went on; outputs are not meaningful)")
        if ret is None:
            return None
        return from_storage(self.design.return_type, ret[0])

    def convert(self, port: Any, arg: Any) -> Any:
        if port.is_array:
            array = check_array(port.name, port.type, arg)
            return self.ffi.from_buffer(f"{port.storage}[]", array, require_writable=True)
        return to_storage(port.name, port.type, arg)


def check_array(name: str, t: ArrayType, arg: Any) -> np.ndarray:
    """Shape, dtype, layout and range checks: a wrong array must never reach native code."""
    if not isinstance(arg, np.ndarray):
        raise SimulationError(f"argument {name!r} must be a numpy array of shape {t.shape} and dtype "
                              f"{t.elem.storage_dtype}, got {type(arg).__name__}")
    if arg.shape != t.shape:
        raise SimulationError(f"argument {name!r} has shape {arg.shape}, the kernel declares {t.shape}")
    if arg.dtype != t.elem.storage_dtype:
        raise SimulationError(f"argument {name!r} has dtype {arg.dtype}; {t.elem} arrays travel as "
                              f"{t.elem.storage_dtype} (use .astype(np.{t.elem.storage_dtype}))")
    if not arg.flags.c_contiguous:
        raise SimulationError(f"argument {name!r} is not C-contiguous; pass np.ascontiguousarray(...)")
    if not arg.flags.writeable:
        raise SimulationError(f"argument {name!r} is read-only; csim writes array outputs in place")
    check_range(name, t.elem, arg)
    return arg


def check_range(name: str, elem: ScalarType, values: np.ndarray) -> None:
    if isinstance(elem, IntType) and elem.width not in (8, 16, 32, 64) and values.size:
        low, high = int(values.min()), int(values.max())
        if low < elem.min or high > elem.max:
            raise SimulationError(f"argument {name!r}: values {low}..{high} do not fit {elem} "
                                  f"({elem.min}..{elem.max}); convert with hls.{elem}(x)")
    if isinstance(elem, FixedType) and values.size:
        if not np.all(np.isfinite(values)) or np.any(elem.convert(values) != values):
            raise SimulationError(f"argument {name!r}: values are not exactly representable in {elem}; "
                                  f"quantize them first with hls.{elem}(x)")


def to_storage(name: str, t: ScalarType, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        raise SimulationError(f"argument {name!r} is a scalar {t}, got an array")
    try:
        converted = t.convert(value)
    except (TypeError, ValueError) as exc:
        raise SimulationError(f"argument {name!r}: {exc}") from None
    if isinstance(t, FixedType):
        return float(converted)
    if isinstance(t, FloatType):
        return float(converted)
    if isinstance(t, BoolType):
        return bool(converted)
    return int(converted)


def from_storage(t: ScalarType, raw: Any) -> Any:
    if isinstance(t, IntType):
        return int(raw)
    if isinstance(t, FloatType):
        return t.storage_dtype.type(raw)
    if isinstance(t, FixedType):
        return Fraction(float(raw))
    if isinstance(t, BoolType):
        return bool(raw)
    raise TypeError(t)
