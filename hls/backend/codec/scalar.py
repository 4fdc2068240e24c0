"""The scalar codecs, one class per type family (registered in `codec_base.CODECS`): native and ap
integers, bool, float, fixed point. See hls/backend/codec/__init__.py for what a codec decides."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from hls.backend.codec.base import (
    MAX_FIXED_BITS,
    MAX_INT_BITS,
    Codec,
    argument_text,
    dat_lines,
    dat_text,
    finite_exact,
    flat_values,
    not_fit,
    quantize_hint,
    show,
)
from hls.backend.ctype import ctype_of
from hls.errors import SimulationError
from hls.types import BoolType, FixedType, FloatType, IntType, TypeFamily
from hls.wording import type_expr


@dataclass(frozen=True)
class IntCodec(Codec, family=TypeFamily.INT):
    """A native C integer (int8_t ... uint64_t): numpy's buffer is the kernel's. Other widths are `ApIntCodec`."""

    zero_copy: ClassVar[bool] = True

    @classmethod
    def of(cls, t: IntType) -> Codec:
        wide = f"is wider than {MAX_INT_BITS} bits; csim and testbench ports support up to 64-bit integers"
        codec = cls if ctype_of(t).native else ApIntCodec
        dat_type = "int64_t" if t.signed else "uint64_t"
        return codec.scalar(t, dat_type, unsupported=wide if t.width > MAX_INT_BITS else None)

    def cpp_out(self, expr: str) -> str:
        return expr

    def dat_in(self, expr: str) -> str:
        return f"static_cast<{self.c_type}>({expr})"

    def dat_out(self, expr: str) -> str:
        return f"static_cast<{self.dat_type}>({expr})"

    def to_storage(self, name: str, value: Any) -> Any:
        return int(self.value(name, value))

    def value(self, name: str, value: Any, item: int | None = None) -> Any:
        if type(value) is int:  # the common case, checked first
            if self.elem.min <= value <= self.elem.max:
                return value
            raise SimulationError(f"{argument_text(name, item)}: {value} does {not_fit(self.elem)}")
        return super().value(name, value, item)

    def exact_number(self, where: str, value: Any) -> Any:
        exact = finite_exact(where, value, self.elem)
        if exact.denominator != 1:
            raise SimulationError(f"{where}: {show(value)} is not an integer, and {self.elem} holds integers only; "
                                  f"convert with {type_expr(self.elem)}(x), which truncates toward zero")
        if not self.elem.min <= exact <= self.elem.max:
            raise SimulationError(f"{where}: {show(value)} does {not_fit(self.elem)}")
        return int(exact)

    def from_storage(self, raw: Any) -> Any:
        return int(raw)

    def format_dat(self, values: Any) -> str:
        return dat_text(str(int(v)) for v in flat_values(values))

    def parse_dat(self, text: str) -> np.ndarray:
        return np.array([int(v) for v in dat_lines(text)], dtype=self.dtype)

    def draw(self, rng: np.random.Generator) -> Any:
        shape, elem = self.shape, self.elem
        if elem.width <= 63:
            values = rng.integers(elem.min, elem.max, size=shape, endpoint=True, dtype=np.int64)
        else:
            # two 32-bit halves: every bit pattern of 64 bits, odd values included
            high, low = (rng.integers(0, 2**32, size=shape, dtype=np.int64).astype(np.uint64) for _ in range(2))
            values = elem.convert((high << np.uint64(32)) | low)
        return np.asarray(values).astype(self.dtype)


@dataclass(frozen=True)
class ApIntCodec(IntCodec):
    """ap_int<W> / ap_uint<W> of a width C has no type for, stored in the next wider numpy integer."""

    zero_copy: ClassVar[bool] = False

    def cpp_out(self, expr: str) -> str:
        return f"({self.storage}){expr}.to_int64()"

    def dat_in(self, expr: str) -> str:
        return f"{self.c_type}({expr})"

    def dat_out(self, expr: str) -> str:
        return f"{expr}.{'to_int64' if self.elem.signed else 'to_uint64'}()"

    def check_range(self, name: str, values: np.ndarray) -> None:
        if values.size:
            low, high = int(values.min()), int(values.max())
            if low < self.elem.min or high > self.elem.max:
                raise SimulationError(f"argument {name!r}: values {low}..{high} do {not_fit(self.elem)}")


@dataclass(frozen=True)
class BoolCodec(Codec, family=TypeFamily.BOOL):
    zero_copy: ClassVar[bool] = True

    @classmethod
    def of(cls, t: BoolType) -> Codec:
        return cls.scalar(t, "int64_t")

    def cpp_out(self, expr: str) -> str:
        return expr

    def dat_in(self, expr: str) -> str:
        return f"{expr} != 0"

    def dat_out(self, expr: str) -> str:
        return f"static_cast<{self.dat_type}>({expr})"

    def to_storage(self, name: str, value: Any) -> Any:
        return bool(self.value(name, value))

    def exact_number(self, where: str, value: Any) -> Any:
        if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
            return bool(value)
        raise SimulationError(f"{where}: {show(value)} is not a bool (True, False, 0 or 1)")

    def from_storage(self, raw: Any) -> Any:
        return bool(raw)

    def format_dat(self, values: Any) -> str:
        return dat_text("1" if v else "0" for v in flat_values(values))

    def parse_dat(self, text: str) -> np.ndarray:
        return np.array([int(v) != 0 for v in dat_lines(text)], dtype=self.dtype)

    def draw(self, rng: np.random.Generator) -> Any:
        return rng.integers(0, 2, size=self.shape).astype(np.bool_)


@dataclass(frozen=True)
class FloatCodec(Codec, family=TypeFamily.FLOAT):
    """float / double: compared within rtol/atol, `.dat` text with the digits that round-trip."""

    zero_copy: ClassVar[bool] = True

    @classmethod
    def of(cls, t: FloatType) -> Codec:
        return cls.scalar(t, "float" if t.bits == 32 else "double", exact=False)

    def cpp_out(self, expr: str) -> str:
        return expr

    def dat_in(self, expr: str) -> str:
        return expr

    def dat_out(self, expr: str) -> str:
        return expr

    def to_storage(self, name: str, value: Any) -> Any:
        return float(self.value(name, value))

    def exact_number(self, where: str, value: Any) -> Any:
        return self.elem.convert(value)

    def from_storage(self, raw: Any) -> Any:
        return self.dtype.type(raw)

    def format_dat(self, values: Any) -> str:
        digits = 9 if self.dtype.itemsize == 4 else 17
        return dat_text(f"{float(v):.{digits}g}" for v in flat_values(values))

    def parse_dat(self, text: str) -> np.ndarray:
        return np.array([float(v) for v in dat_lines(text)], dtype=np.float64).astype(self.dtype)

    def draw(self, rng: np.random.Generator) -> Any:
        return rng.uniform(-1.0, 1.0, size=self.shape).astype(self.dtype)

    def item(self, stored: Any) -> Any:
        return self.dtype.type(stored)


@dataclass(frozen=True)
class FixedCodec(Codec, family=TypeFamily.FIXED):
    """ap_fixed travels as float64 (exact up to 53 bits) and is compared exactly."""

    @classmethod
    def of(cls, t: FixedType) -> Codec:
        wide = f"is wider than {MAX_FIXED_BITS} bits and cannot travel exactly as float64 at the csim boundary"
        return cls.scalar(t, "double", unsupported=wide if t.width > MAX_FIXED_BITS else None)

    def cpp_out(self, expr: str) -> str:
        return f"{expr}.to_double()"

    def dat_in(self, expr: str) -> str:
        return f"{self.c_type}({expr})"

    def dat_out(self, expr: str) -> str:
        return f"{expr}.to_double()"

    def to_storage(self, name: str, value: Any) -> Any:
        return float(self.value(name, value))

    def exact_number(self, where: str, value: Any) -> Any:
        exact, elem = finite_exact(where, value, self.elem), self.elem
        if exact < elem.min or exact > elem.max or elem.convert(exact) != exact:
            raise SimulationError(f"{where}: {show(value)} is not exactly representable in {elem} "
                                  f"({float(elem.min)}..{float(elem.max)}, steps of "
                                  f"{float(elem.lsb)}); {quantize_hint(elem)}")
        return Fraction(exact)

    def from_storage(self, raw: Any) -> Any:
        return Fraction(float(raw))

    def check_range(self, name: str, values: np.ndarray) -> None:
        if values.size and (not np.all(np.isfinite(values)) or np.any(self.elem.convert(values) != values)):
            raise SimulationError(f"argument {name!r}: values are not exactly representable in {self.elem}; "
                                  f"{quantize_hint(self.elem)}")

    def format_dat(self, values: Any) -> str:
        return dat_text(f"{float(v if isinstance(v, float) else Fraction(v)):.17g}" for v in flat_values(values))

    def parse_dat(self, text: str) -> np.ndarray:
        return np.array([float(v) for v in dat_lines(text)], dtype=np.float64).astype(self.dtype)

    def draw(self, rng: np.random.Generator) -> Any:
        # AP_SAT_SYM saturates the most negative code to -max, so no assignment can produce it
        elem = self.elem
        low = elem.raw_min + (1 if elem.signed and elem.overflow == "AP_SAT_SYM" and elem.width > 1 else 0)
        raw = rng.integers(low, elem.raw_max, size=self.shape, endpoint=True, dtype=np.int64)
        return raw.astype(np.float64) * float(elem.lsb)

    def item(self, stored: Any) -> Any:
        return Fraction(stored)
