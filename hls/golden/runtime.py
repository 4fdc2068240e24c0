"""Python-mode runtime: the objects the golden model runs on.

Array elements read as exact values (Python int, np.float32/np.float64, Fraction, bool) and stores
convert to the element type exactly as the C++ assignment does. Indices are bounds-checked without
Python's negative wrap-around, because the C++ has none.
"""

from __future__ import annotations

import functools
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from hls.errors import Loc
from hls.ir.ops import MATH_FUNCS
from hls.lang.storage import provide
from hls.types import (
    ArrayType,
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    StructType,
    exact_value,
)


class ArrayView:
    """A typed window on a numpy array used by the golden model."""

    __slots__ = ("data", "elem", "readonly", "name")

    def __init__(self, data: np.ndarray, elem: ScalarType, readonly: bool = False, name: str = "array"):
        self.data = data
        self.elem = elem
        self.readonly = readonly
        self.name = name

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    def __len__(self) -> int:
        return self.data.shape[0]

    def _index(self, index: Any) -> tuple[int, ...]:
        idx = index if isinstance(index, tuple) else (index,)
        if len(idx) > self.data.ndim:
            raise IndexError(f"{self.name}: {len(idx)} indices for an array of rank {self.data.ndim}")
        out = []
        for dim, i in enumerate(idx):
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                raise IndexError(f"{self.name}: index {i!r} is not an integer")
            i = int(i)
            if not 0 <= i < self.data.shape[dim]:
                raise IndexError(f"{self.name}: index {i} out of bounds for dimension {dim} of size "
                                 f"{self.data.shape[dim]}")
            out.append(i)
        return tuple(out)

    def __getitem__(self, index: Any) -> Any:
        idx = self._index(index)
        if len(idx) < self.data.ndim:
            return ArrayView(self.data[idx], self.elem, self.readonly, self.name)
        if isinstance(self.elem, StructType):
            return StructRef(self.data, idx, self.elem, self.readonly)
        return exact_element(self.elem, self.data[idx])

    def __setitem__(self, index: Any, value: Any) -> None:
        if self.readonly:
            raise TypeError(f"{self.name} is read-only")
        idx = self._index(index)
        if len(idx) < self.data.ndim:
            raise IndexError(f"{self.name}: assign single elements, indexing every dimension")
        if isinstance(self.elem, StructType):
            copy = self.elem.convert(value)
            ref = StructRef(self.data, idx, self.elem)
            for name, _ in self.elem.fields:
                setattr(ref, name, getattr(copy, name))
            return
        converted = cast(self.elem, value)
        self.data[idx] = float(converted) if isinstance(self.elem, FixedType) else converted

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def __iter__(self):
        """Elements of a 1-D array, rows (views) of an N-D one: `for v in a` as the kernel reads it."""
        return (self[i] for i in range(self.data.shape[0]))

    def __repr__(self) -> str:
        return f"ArrayView({self.name}: {self.elem}{list(self.data.shape)})"


def exact_element(elem: ScalarType, raw: Any) -> Any:
    """A stored element as the exact Python-mode value the kernel reads."""
    if isinstance(elem, IntType):
        return int(raw)
    if isinstance(elem, FloatType):
        return raw
    if isinstance(elem, FixedType):
        return Fraction(float(raw))
    if isinstance(elem, BoolType):
        return bool(raw)
    raise TypeError(elem)


class StructRef:
    """Element `index` of an array of structs, read and written in place: `back[i].r = v` converts v
    to the field's type and stores it into the numpy structured array, `back[i].taps` is a view."""

    __slots__ = ("_data", "_index", "_type", "_readonly")

    def __init__(self, data: np.ndarray, index: tuple[int, ...], t: StructType, readonly: bool = False):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_type", t)
        object.__setattr__(self, "_readonly", readonly)

    @property
    def __hls_struct_type__(self) -> StructType:
        return self._type

    def _field(self, name: str) -> ScalarType | ArrayType:
        t = self._type.field(name)
        if t is None:
            raise AttributeError(f"{self._type.name} has no field {name!r}")
        return t

    def __getattr__(self, name: str) -> Any:
        t = self._field(name)
        raw = self._data[name][self._index]
        if isinstance(t, ArrayType):
            return ArrayView(raw, t.elem, self._readonly, name=name)
        return exact_element(t, raw)

    def __setattr__(self, name: str, value: Any) -> None:
        t = self._field(name)
        if self._readonly:
            raise TypeError(f"{self._type.name} element is read-only")
        if isinstance(t, ArrayType):
            source = value.data if isinstance(value, ArrayView) else np.asarray(value)
            self._data[name][self._index] = t.elem.to_storage(source)
            return
        converted = cast(t, value)
        self._data[name][self._index] = float(converted) if isinstance(t, FixedType) else converted

    def __repr__(self) -> str:
        return repr(self._type.convert(self))


@provide("zeros")
def zeros(shape: Any, dtype: ScalarType | type) -> ArrayView:
    """A local array, zero-initialised (hardware: an on-chip memory)."""
    shape = shape if isinstance(shape, tuple) else (shape,)
    dtype = getattr(dtype, "__hls_struct__", dtype)
    ArrayType(dtype, shape)  # validates
    return ArrayView(np.zeros(shape, dtype=dtype.storage_dtype), dtype, name="local")


# --------------------------------------------------------------------------------------------------
# helpers the golden rewrite calls; each mirrors one IR operation


class OverflowLog:
    """Wraps and saturations of declared values seen in Python mode, first example per source line.

    Recording is on while `Kernel.verify` runs the golden model; explicit type calls
    (`hls.uint32(h * 1103515245)`) never reach it, only implicit conversions at assignments,
    array stores and returns do.
    """

    def __init__(self) -> None:
        self.events: dict[str, tuple[ScalarType, Any, Any]] = {}
        self.enabled = False

    def record(self, site: str, t: ScalarType, before: Any, after: Any) -> None:
        if isinstance(before, Fraction) and before.denominator == 1:
            before = int(before)  # a whole number reads the same whichever model computed it
        self.events.setdefault(site, (t, before, after))


OVERFLOWS = OverflowLog()


def overflowed(t: ScalarType, value: Any, result: Any) -> bool:
    """True when the conversion changed the value beyond quantization (a wrap or a saturation)."""
    if isinstance(value, (float, np.floating)) or isinstance(t, (FloatType, BoolType, StructType)):
        return False
    exact = exact_value(value)
    if isinstance(t, IntType):
        return exact != result
    if isinstance(t, FixedType):
        return not t.min <= exact < t.max + t.lsb
    return False


def cast(t: ScalarType, value: Any, site: str | None = None) -> Any:
    """Assignment semantics of `t` for one Python-mode value."""
    if isinstance(value, ArrayView):
        raise TypeError("an array cannot be converted to a scalar type")
    result = t.convert(value)
    if OVERFLOWS.enabled and overflowed(t, value, result):
        if site is None:
            frame = sys._getframe(2)
            site = f"{frame.f_code.co_filename}:{frame.f_lineno}"
        OVERFLOWS.record(site, t, value, result)
    return result


def convert(t: ScalarType, value: Any) -> Any:
    """A value in the type the hardware computes it in (never an overflow: the type holds it)."""
    return t.convert(value)


def boolean(value: Any) -> bool:
    """A comparison's result as a Python bool (numpy scalars give np.bool_, which adds like `or`)."""
    return bool(value)


def fixed_div(a: Any, b: Any, t: FixedType) -> Fraction:
    """ap_fixed `/`: the exact quotient truncated toward zero to the result's fraction bits.

    The result type (hls.types.fixed_binop_type) always holds the quotient, so nothing wraps.
    """
    quotient = Fraction(exact_value(a)) / Fraction(exact_value(b))
    scaled = quotient / t.lsb
    return Fraction(int(scaled)) * t.lsb  # int() truncates toward zero


def truediv(a: Any, b: Any) -> np.float64:
    """Integer `/` as the hardware computes it: both operands rounded to float64, then divided.

    (Python divides the exact integers; the two differ only beyond 2**53.)
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.float64(a) / np.float64(b)


def shl(value: int, count: int, t: IntType) -> int:
    if count < 0:
        raise ValueError("negative shift count")
    return t.convert(value << count)


def shl_reported(value: int, count: int, t: IntType) -> int:
    """A variable-count `<<` in the kernel's own code: ap_int keeps the left operand's width, and bits
    shifted out are reported as any other implicit wrap (at the kernel's line)."""
    if count < 0:
        raise ValueError("negative shift count")
    return cast(t, value << count)


@functools.lru_cache(maxsize=1)
def libm() -> Any:
    """The C maths library the csim binary calls (std::exp(float) is expf): numpy's own vectorised
    exp/log/sin differ from it by an ulp here and there, so the golden model calls the same functions."""
    import ctypes.util

    import cffi

    ffi = cffi.FFI()
    ffi.cdef("".join(f"float {name}f(float{', float' * (name == 'pow')}); "
                     f"double {name}(double{', double' * (name == 'pow')});" for name in MATH_FUNCS))
    return ffi.dlopen(ctypes.util.find_library("m") or "libm.so.6")


def libm_function(name: str, t: FloatType) -> Any:
    """The C overload std::<name> calls for `t`: `expf` for float32, `exp` for float64."""
    return getattr(libm(), name + ("f" if t.bits == 32 else ""))


def math_lanes(name: str, t: FloatType, *args: np.ndarray) -> np.ndarray:
    """math_call over arrays (the numpy golden model): the same C functions, element by element."""
    function = libm_function(name, t)
    flat = [np.asarray(a, dtype=t.storage_dtype) for a in np.broadcast_arrays(*args)]
    out = np.fromiter((function(*map(float, values)) for values in zip(*(a.ravel() for a in flat), strict=True)),
                      dtype=t.storage_dtype, count=flat[0].size)
    return out.reshape(flat[0].shape)


def math_call(name: str, t: FloatType, *args: Any) -> Any:
    """math.* at the precision of the C++ overload (float32 stays float32, as std::exp(float))."""
    return t.convert(libm_function(name, t)(*(float(t.convert(a)) for a in args)))


GOLDEN_CODES: set[Any] = set()  # the code objects of golden models, to find the kernel line of an error


def kernel_location(tb: Any) -> Loc | None:
    """The innermost kernel statement in a traceback (file, line and column, as Python records them)."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code in GOLDEN_CODES:
            line, end_line, col, end_col = tb.tb_lineno, None, 0, None
            if hasattr(code, "co_positions"):  # Python 3.11+: the column of the failing expression
                line, end_line, col, end_col = list(code.co_positions())[tb.tb_lasti // 2]
            found = Loc(code.co_filename, line or tb.tb_lineno, col or 0, end_col if end_line == line else None)
        tb = tb.tb_next
    return found


def format_value(t: Any, value: Any) -> str:
    """One printed value, spelled as the C++ printf of csim spells it (see backend print_format)."""
    if t is None:
        return str(value)
    if isinstance(t, BoolType):
        return "True" if value else "False"
    if isinstance(t, IntType):
        return str(int(value))
    digits = 9 if isinstance(t, FloatType) and t.bits == 32 else 17
    return f"{float(value):.{digits}g}"


def kernel_print(types: tuple[Any, ...], sep: str, end: str, *values: Any) -> None:
    print(sep.join(format_value(t, v) for t, v in zip(types, values, strict=True)), end=end, flush=True)


# --------------------------------------------------------------------------------------------------
# results beyond one scalar, and state between calls (hls.frontend.results)


class State:
    """A kernel's static locals in Python mode; `clear()` is `k.reset()`."""

    def declare(self, name: str, make: Any) -> None:
        if name not in self.__dict__:
            setattr(self, name, make())

    def clear(self) -> None:
        self.__dict__.clear()


def cast_each(types: list[ScalarType], values: Any, site: str | None = None) -> tuple[Any, ...]:
    """A tuple return or unpacking: each value converted to its target's type, as the C++ assigns."""
    values = tuple(values)
    if len(values) != len(types):
        raise ValueError(f"{len(values)} values for {len(types)} targets")
    return tuple(cast(t, v, site) for t, v in zip(types, values, strict=True))


def array_result(value: Any) -> np.ndarray:
    """The array a kernel returns, as the numpy array Python mode hands back."""
    if not isinstance(value, ArrayView):
        raise TypeError(f"a kernel returning an array must return one, got {type(value).__name__}")
    return value.data


def array_view(data: np.ndarray, elem: ScalarType) -> ArrayView:
    """A sub-kernel's returned array, seen by the caller like its other local arrays."""
    return ArrayView(data, elem, name="result")
