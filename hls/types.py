"""The type system: scalar, array and stream types, their Python-mode conversions and storage.

A scalar type object is callable in Python mode (`hls.int9(300) == 44`) on scalars and numpy arrays
and converts exactly as the Vitis ap_types headers do on assignment. Python-mode values are exact:
Python `int` for integer types, `np.float32`/`np.float64` for floats, `fractions.Fraction` for fixed
point, `bool` for bool_.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from hls import fixed
from hls.errors import TypeBuildError, caller_loc

QUANT_MODES = ("AP_RND", "AP_RND_ZERO", "AP_RND_MIN_INF", "AP_RND_INF", "AP_RND_CONV", "AP_TRN", "AP_TRN_ZERO")
OVERFLOW_MODES = ("AP_SAT", "AP_SAT_ZERO", "AP_SAT_SYM", "AP_WRAP", "AP_WRAP_SM")
MAX_INT_WIDTH = 1024


class TypeFamily(str, Enum):
    """The family a type belongs to: what every stage switches on (its codec, its C spelling, the
    operators whose fold is exact on it). A str enum, so a member prints as its name (`int`)."""

    BOOL = "bool"
    INT = "int"
    FIXED = "fixed"
    FLOAT = "float"
    STRUCT = "struct"

    __str__ = str.__str__
    __format__ = str.__format__


def family_of(t: HLSType) -> TypeFamily:
    """The family of a scalar or struct type (an array, stream or tuple has none: ask its elements')."""
    family = getattr(t, "family", None)
    if not isinstance(family, TypeFamily):
        raise TypeError(f"{t} has no type family")
    return family


def register_family_class(cls: type, base: type, registry: dict[TypeFamily, type], family: TypeFamily | None,
                          required: tuple[str, ...]) -> None:
    """Check, when `cls` (a subclass of `base`) is defined, that it defines every method of `required`
    (not inherited from `base`'s abstract one), then register it as `family`'s class in `registry`. The
    per-family registries (codecs, C spellings) call it from `__init_subclass__`, as numba's data
    models do: a class left incomplete fails at import, not at the first kernel that needs it."""
    missing = [n for n in required if next(k for k in cls.__mro__ if n in vars(k)) is base]
    if missing:
        raise TypeError(f"{base.__name__} class {cls.__name__} leaves {', '.join(missing)} undefined")
    if family is not None:
        cls.family = family
        registry[family] = cls


class HLSType:
    """Base of every type."""

    def __getitem__(self, shape: Any) -> ArrayType:
        if not isinstance(self, (ScalarType, StructType)):
            raise TypeBuildError(f"{self} cannot be the element type of an array", caller_loc())
        dims = shape if isinstance(shape, tuple) else (shape,)
        if not dims or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims):
            raise TypeBuildError(f"array shape must be positive integers, got {shape!r} in {self}[...]", caller_loc())
        return ArrayType(self, tuple(dims))


class ScalarType(HLSType):
    """Types of single values."""

    @property
    def storage_dtype(self) -> np.dtype:
        raise NotImplementedError

    def convert(self, value: Any) -> Any:
        raise NotImplementedError

    def __call__(self, value: Any) -> Any:
        return self.convert(value)

    def to_storage(self, values: Any) -> np.ndarray:
        """Python-mode values (scalar, sequence or array) to a numpy array of the storage dtype."""
        arr = self.convert(np.asarray(values) if not isinstance(values, np.ndarray) else values)
        return np.asarray(arr).astype(self.storage_dtype)


@dataclass(frozen=True)
class IntType(ScalarType):
    family: ClassVar[TypeFamily] = TypeFamily.INT
    width: int
    signed: bool

    def __post_init__(self) -> None:
        if not 1 <= self.width <= MAX_INT_WIDTH:
            raise TypeBuildError(f"integer width must be in 1..{MAX_INT_WIDTH}, got {self.width}", caller_loc())

    def __str__(self) -> str:
        return f"{'' if self.signed else 'u'}int{self.width}"

    __repr__ = __str__

    @property
    def min(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    @property
    def is_native(self) -> bool:
        return self.width in (8, 16, 32, 64)

    @property
    def bit_width(self) -> int:
        """Bits a value occupies in hardware (registers, memory words, bit access)."""
        return self.width

    @property
    def storage_dtype(self) -> np.dtype:
        for bits in (8, 16, 32, 64):
            if self.width <= bits:
                return np.dtype(f"{'int' if self.signed else 'uint'}{bits}")
        return np.dtype(object)

    def contains(self, other: IntType) -> bool:
        return self.min <= other.min and other.max <= self.max

    def convert(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return wrap_array(value, self)
        return wrap_int(to_exact_int(value), self.width, self.signed)


@dataclass(frozen=True)
class BoolType(ScalarType):
    family: ClassVar[TypeFamily] = TypeFamily.BOOL

    def __str__(self) -> str:
        return "bool_"

    __repr__ = __str__

    @property
    def bit_width(self) -> int:
        return 1

    @property
    def storage_dtype(self) -> np.dtype:
        return np.dtype(np.bool_)

    def convert(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            return value.astype(np.bool_)
        return bool(value)


@dataclass(frozen=True)
class FloatType(ScalarType):
    family: ClassVar[TypeFamily] = TypeFamily.FLOAT
    bits: int

    def __str__(self) -> str:
        return f"float{self.bits}"

    __repr__ = __str__

    @property
    def bit_width(self) -> int:
        return self.bits

    @property
    def storage_dtype(self) -> np.dtype:
        return np.dtype(np.float32 if self.bits == 32 else np.float64)

    def convert(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            if self.bits == 32 and value.dtype == object:
                flat = [self.convert(v) for v in value.ravel()]
                return np.array(flat, dtype=np.float32).reshape(value.shape)
            return value.astype(self.storage_dtype)
        if self.bits == 32 and isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return exact_to_float32(value)
        if isinstance(value, Fraction):
            value = float(value)
        return self.storage_dtype.type(value)


def exact_to_float32(value: int | Fraction) -> np.float32:
    """An exact int or Fraction rounded to float32 once, to nearest even, as C++ converts an integer
    and ap_fixed::to_float() a fixed-point value.

    np.float32(v) rounds a Python int or a Fraction to float64 first; when that lands exactly on a
    float32 tie the second rounding can go the wrong way (2**60 + 2**36 + 1 gives 2**60). Rounding to
    float64 cannot cross a float32 midpoint (midpoints are float64 values), so only a tie needs care.
    """
    if isinstance(value, int) and -(2**53) <= value <= 2**53:
        return np.float32(value)  # exact in float64: one rounding
    try:
        d = float(value)
    except OverflowError:
        return np.float32(np.inf if value > 0 else -np.inf)
    with np.errstate(over="ignore"):
        f = np.float32(d)
    if not np.isfinite(f) or float(f) == d or Fraction(d) == value:
        return f
    other = np.nextafter(f, np.float32(np.inf) if float(f) < d else np.float32(-np.inf))
    if not np.isfinite(other) or Fraction(float(f)) + Fraction(float(other)) != 2 * Fraction(d):
        return f
    return max(f, other) if value > Fraction(d) else min(f, other)


@dataclass(frozen=True)
class FixedType(ScalarType):
    """ap_fixed<W, I, Q, O, N> (signed) or ap_ufixed<...>."""

    family: ClassVar[TypeFamily] = TypeFamily.FIXED
    width: int
    int_bits: int
    signed: bool = True
    quant: str = "AP_TRN"
    overflow: str = "AP_WRAP"
    sat_bits: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.width <= MAX_INT_WIDTH:
            raise TypeBuildError(f"fixed-point width must be in 1..{MAX_INT_WIDTH}, got {self.width}", caller_loc())
        if self.quant not in QUANT_MODES:
            raise TypeBuildError(f"unknown quantization mode {self.quant!r}; one of {', '.join(QUANT_MODES)}",
                                 caller_loc())
        if self.overflow not in OVERFLOW_MODES:
            raise TypeBuildError(f"unknown overflow mode {self.overflow!r}; one of {', '.join(OVERFLOW_MODES)}",
                                 caller_loc())
        if not 0 <= self.sat_bits <= self.width:
            raise TypeBuildError(f"saturation bits must be in 0..{self.width}", caller_loc())

    @property
    def frac_bits(self) -> int:
        return self.width - self.int_bits

    @property
    def bit_width(self) -> int:
        return self.width

    @property
    def is_default_modes(self) -> bool:
        return self.quant == "AP_TRN" and self.overflow == "AP_WRAP" and self.sat_bits == 0

    def __str__(self) -> str:
        name = f"{'' if self.signed else 'u'}fixed{self.width}_{self.int_bits}"
        if not self.is_default_modes:
            name += f"_{self.quant}_{self.overflow}_{self.sat_bits}"
        return name

    __repr__ = __str__

    @property
    def storage_dtype(self) -> np.dtype:
        # Values travel as float64; exact because csim boundaries require width <= 53.
        return np.dtype(np.float64)

    @property
    def lsb(self) -> Fraction:
        return Fraction(1, 1 << self.frac_bits) if self.frac_bits >= 0 else Fraction(1 << -self.frac_bits)

    @property
    def min(self) -> Fraction:
        return self.raw_min * self.lsb

    @property
    def max(self) -> Fraction:
        return self.raw_max * self.lsb

    @property
    def raw_min(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def raw_max(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    def convert(self, value: Any) -> Any:
        if isinstance(value, np.ndarray):
            if value.dtype == object:
                raw = np.array([fixed.to_raw(Fraction(v), self) for v in value.ravel()], dtype=object)
                return (raw * float(self.lsb)).reshape(value.shape).astype(np.float64)
            return fixed.from_raw(fixed.to_raw(value.astype(np.float64), self), self)
        if isinstance(value, (np.floating, float)) and not math.isfinite(float(value)):
            raise ValueError(f"cannot convert {value} to {self}")
        return fixed.to_raw(exact_value(value), self) * self.lsb


@dataclass(frozen=True)
class StructType(HLSType):
    """A record of named fields, scalars or fixed-size arrays of scalars, in declaration order
    (`@hls.struct`, hls/lang/structs.py). `cls` is the user's dataclass: Python mode's values are its
    instances, so two structs with the same fields but different classes are different types."""

    family: ClassVar[TypeFamily] = TypeFamily.STRUCT
    name: str
    fields: tuple[tuple[str, ScalarType | ArrayType], ...]
    cls: Any = None

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__

    def field(self, name: str) -> ScalarType | ArrayType | None:
        return dict(self.fields).get(name)

    @property
    def bit_width(self) -> int:
        """Aggregated, as Vitis packs a struct: one word of all its fields."""
        return sum(ft.bit_width for _, ft in self.fields)

    def missing_hint(self, name: str) -> str:
        """More words for the error naming a field the type lacks (hls.axis explains absent side channels)."""
        return ""

    @property
    def storage_dtype(self) -> np.dtype:
        """A numpy structured dtype with one field per struct field (array fields as sub-arrays), aligned
        as a C struct of the fields' storage types is (what the csim bridge reads)."""
        return np.dtype([(n, t.elem.storage_dtype, t.shape) if isinstance(t, ArrayType) else (n, t.storage_dtype)
                         for n, t in self.fields], align=True)

    def convert(self, value: Any) -> Any:
        """A fresh instance of the struct's class with `value`'s fields (assignment copies a struct)."""
        if getattr(value, "__hls_struct_type__", None) != self and not (
                isinstance(value, np.void) and value.dtype == self.storage_dtype):
            raise TypeError(f"expected a {self.name}, got {type(value).__name__}")
        return self.cls(**{n: value[n] if isinstance(value, np.void) else getattr(value, n) for n, _ in self.fields})

    __call__ = convert

    def zero(self) -> Any:
        return self.cls()

    def to_storage(self, values: Any) -> np.ndarray:
        """Struct values (instances or records) as a numpy structured array of the storage dtype."""
        values = list(values)
        out = np.zeros(len(values), self.storage_dtype)
        for i, value in enumerate(values):
            for n, t in self.fields:
                x = value[n] if isinstance(value, np.void) else getattr(value, n)
                out[n][i] = np.asarray(getattr(x, "data", x)) if isinstance(t, ArrayType) else \
                    float(x) if isinstance(t, FixedType) else x
        return out


@dataclass(frozen=True)
class ArrayType(HLSType):
    elem: ScalarType | StructType
    shape: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.elem}[{', '.join(map(str, self.shape))}]"

    __repr__ = __str__

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def bit_width(self) -> int:
        """All the elements' bits (an array field of a struct is part of the struct's word)."""
        return self.elem.bit_width * self.size

    def __call__(self, values: Any) -> TypedConstant:
        """`TAPS = hls.ap_fixed[16, 2][4](np.array([...]))`: a module-level constant array of this type, a
        ROM the C++ declares as `static const ap_fixed<16, 2> TAPS[4]`. Each value is converted as an
        assignment converts it (the type's quantization and overflow modes), once, here."""
        if not isinstance(self.elem, ScalarType):
            raise TypeBuildError(f"a typed constant array holds scalars, not {self.elem}", caller_loc())
        if isinstance(self.elem, FixedType) and self.elem.width > 53 or isinstance(self.elem, IntType) \
                and self.elem.width > 64:
            raise TypeBuildError(f"a typed constant array of {self.elem} is not supported (at most 53-bit fixed "
                                 "point and 64-bit integers)", caller_loc())
        data = np.asarray(values.data if isinstance(values, TypedConstant) else values)
        if data.shape != self.shape:
            raise TypeBuildError(f"{self} needs values of shape {self.shape}, got {data.shape}", caller_loc())
        try:
            converted = np.asarray(self.elem.convert(data))
        except (TypeError, ValueError) as exc:
            raise TypeBuildError(f"{self}: {exc}", caller_loc()) from None
        stored = converted.astype(self.elem.storage_dtype)
        stored.setflags(write=False)
        return TypedConstant(self, stored)


@dataclass(frozen=True, eq=False)
class TypedConstant:
    """A constant array with an hls element type (`T[N](values)`): a kernel reading it reads a ROM of
    that type. `data` holds the converted values in the type's storage dtype (read-only)."""

    type: ArrayType
    data: np.ndarray

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.data if dtype is None else self.data.astype(dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape

    @property
    def ndim(self) -> int:
        return len(self.type.shape)

    def __len__(self) -> int:
        return self.type.shape[0]

    def __repr__(self) -> str:
        return f"{self.type}({self.data.tolist()})"


@dataclass(frozen=True)
class TupleType(HLSType):
    """Several scalar results of one kernel (`-> tuple[hls.int18, hls.uint13]`)."""

    elems: tuple[ScalarType, ...]

    def __str__(self) -> str:
        return f"tuple[{', '.join(map(str, self.elems))}]"

    __repr__ = __str__


class ArrayBlock:
    """The class of a FIFO item that is a small array (`hls.stream[hls.int32[4]]`): such a FIFO carries a
    struct of one array field, `struct int32_x4 { int32_t data[4]; }` in C++ (`block_struct`); Python mode
    holds each item as a copy of the array written."""


def block_struct(t: ArrayType) -> StructType:
    """The struct a FIFO of arrays `t` carries: one field `data` of type t, named after t (int32_x4)."""
    name = "".join(c if c.isalnum() else "_" for c in str(t.elem)).strip("_")
    return StructType(f"{name}_x{'x'.join(map(str, t.shape))}", (("data", t),), ArrayBlock)


def is_block(t: Any) -> bool:
    """Whether `t` is the struct of a FIFO of arrays (`block_struct`)."""
    return isinstance(t, StructType) and t.cls is ArrayBlock


def stream_element(elem: Any) -> ScalarType | StructType | None:
    """A FIFO's element type from what the user names: a scalar type, a struct, or a 1-D array of
    scalars (carried as its `block_struct`); None for anything else."""
    if isinstance(elem, ArrayType) and len(elem.shape) == 1 and isinstance(elem.elem, ScalarType):
        return block_struct(elem)
    return elem if isinstance(elem, (ScalarType, StructType)) else None


@dataclass(frozen=True)
class StreamType(HLSType):
    """A FIFO of scalars. A parameter's depth is the caller's business: two stream types of the same
    element type are interchangeable at a call (`accepts`), whatever their depths."""

    elem: ScalarType | StructType
    depth: int = 2

    def __str__(self) -> str:
        return f"stream[{self.elem}, {self.depth}]"

    __repr__ = __str__

    def accepts(self, other: HLSType) -> bool:
        return type(other) is StreamType and other.elem == self.elem


@dataclass(frozen=True)
class BlocksType(StreamType):
    """A FIFO of whole arrays (UG1399 `hls::stream_of_blocks<T[N], depth>`): `depth` counts every block,
    the one the producer holds and the one the consumer holds included (default 2). `elem` is the
    block's element type, so code that sizes a FIFO by its element still reads one."""

    block: ArrayType | None = None

    def __str__(self) -> str:
        return f"stream_of_blocks[{self.block}, {self.depth}]"

    __repr__ = __str__

    def accepts(self, other: HLSType) -> bool:
        """The depth is part of the C++ type (hls::stream_of_blocks<T[N], D>), so it must match too."""
        return isinstance(other, BlocksType) and other.block == self.block and other.depth == self.depth


# --------------------------------------------------------------------------------------------------
# exact integer helpers (Python mode)


def to_exact_int(value: Any) -> int:
    """A Python int from an int-like or, truncating toward zero like C++, a float or fraction."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)) or abs(float(value)) >= 2.0**63:
            # the C++ conversion goes through int64_t; beyond that it is undefined behaviour
            raise ValueError(f"cannot convert {value} to an integer type: float-to-integer conversion is "
                             "defined for |x| < 2**63 only")
        return int(value)
    if isinstance(value, Fraction):
        return int(value)  # truncates toward zero, as ap_fixed::to_int
    raise TypeError(f"cannot convert {type(value).__name__} to an integer type")


def exact_value(value: Any) -> int | Fraction:
    """An exact rational (int or Fraction) for any Python-mode number."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return Fraction(float(value))
    if isinstance(value, Fraction):
        return value
    raise TypeError(f"cannot convert {type(value).__name__} to a number")


def wrap_int(value: int, width: int, signed: bool) -> int:
    """Two's-complement wrap of an exact int to `width` bits, as assignment to ap_int does."""
    value &= (1 << width) - 1
    if signed and value >> (width - 1):
        value -= 1 << width
    return value


def wrap_array(values: np.ndarray, t: IntType) -> np.ndarray:
    """Vectorized wrap; floats truncate toward zero first (numpy's cast does the same)."""
    if np.issubdtype(values.dtype, np.inexact):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"cannot convert non-finite values to {t}")
        values = np.trunc(values)
        if not np.all(np.abs(values) < 2.0**63):
            raise ValueError(f"cannot convert values beyond 2**63 to {t}: undefined in C++")
        values = values.astype(np.int64)
    dtype = t.storage_dtype
    if dtype == np.object_ or values.dtype == np.object_:
        flat = [wrap_int(int(v), t.width, t.signed) for v in values.ravel()]
        return np.array(flat, dtype=dtype).reshape(values.shape)
    if values.dtype == np.bool_:
        values = values.astype(np.int64)
    if np.issubdtype(values.dtype, np.integer) and values.dtype.itemsize <= 8 and t.width < 64 \
            and not (np.issubdtype(values.dtype, np.unsignedinteger) and values.dtype.itemsize == 8):
        return wrap_int64(values, t).astype(dtype, copy=False)
    mask = np.uint64((1 << t.width) - 1) if t.width < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    bits = values.astype(np.uint64) & mask  # astype to uint64 wraps modulo 2**64
    if t.signed and t.width < 64:
        sign = np.uint64(1 << (t.width - 1))
        out = (bits ^ sign).astype(np.int64) - np.int64(1 << (t.width - 1))
        return out.astype(dtype)
    return bits.astype(dtype)


def wrap_int64(values: np.ndarray, t: IntType) -> np.ndarray:
    """The wrap of integers that int64 holds to a type narrower than 64 bits, as an int64 array.

    Adding half the range can overflow int64, but only by multiples of 2**64, which the mask drops.
    """
    mask = np.int64((1 << t.width) - 1)
    if not t.signed:
        return np.bitwise_and(values, mask, dtype=np.int64)
    half = np.int64(1 << (t.width - 1))
    with np.errstate(over="ignore"):
        out = np.add(values, half, dtype=np.int64)
        out &= mask
        out -= half
    return out


# --------------------------------------------------------------------------------------------------
# public constructors: hls.ap_int[W], hls.ap_fixed[W, I, Q, O, N] (hls.stream[T, depth] is in hls/golden/streams.py)


class _IntFactory:
    def __init__(self, signed: bool):
        self.signed = signed

    def __getitem__(self, width: int) -> IntType:
        if not isinstance(width, int) or isinstance(width, bool):
            raise TypeBuildError(f"integer width must be an int, got {width!r}", caller_loc())
        return IntType(width, self.signed)

    def __repr__(self) -> str:
        return "ap_int" if self.signed else "ap_uint"


class _FixedFactory:
    def __init__(self, signed: bool):
        self.signed = signed

    def __getitem__(self, params: Any) -> FixedType:
        params = params if isinstance(params, tuple) else (params,)
        if len(params) < 2 or len(params) > 5:
            raise TypeBuildError("ap_fixed takes [W, I] and optionally a quantization mode, overflow mode and N",
                                 caller_loc())
        width, int_bits, *rest = params
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in (width, int_bits)):
            raise TypeBuildError("ap_fixed width and integer bits must be ints", caller_loc())
        quant = rest[0] if len(rest) > 0 else "AP_TRN"
        overflow = rest[1] if len(rest) > 1 else "AP_WRAP"
        sat_bits = rest[2] if len(rest) > 2 else 0
        return FixedType(width, int_bits, self.signed, quant, overflow, sat_bits)

    def __repr__(self) -> str:
        return "ap_fixed" if self.signed else "ap_ufixed"


def struct_type_of(value: Any) -> StructType | None:
    """The StructType of an `@hls.struct` class (annotations name the class), else None."""
    t = getattr(value, "__hls_struct__", None) if isinstance(value, type) else None
    return t if isinstance(t, StructType) else None


ap_int = _IntFactory(True)
ap_uint = _IntFactory(False)
ap_fixed = _FixedFactory(True)
ap_ufixed = _FixedFactory(False)

int8, int16, int32, int64 = (IntType(w, True) for w in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (IntType(w, False) for w in (8, 16, 32, 64))
float32 = FloatType(32)
float64 = FloatType(64)
bool_ = BoolType()

_ALIAS = re.compile(r"(u?)int([1-9][0-9]*)")


def alias(name: str) -> IntType | None:
    """`int9` -> ap_int[9], `uint12` -> ap_uint[12]; None when the name is not such an alias."""
    match = _ALIAS.fullmatch(name)
    if match is None or int(match.group(2)) > MAX_INT_WIDTH:
        return None
    return IntType(int(match.group(2)), match.group(1) == "")


# --------------------------------------------------------------------------------------------------
# result types, one place for every operator (ap_int_base.h / ap_fixed_base.h RType rules, and
# Python's own rules where Python and C++ differ; docs/semantics.md has the table)


def literal_int_type(value: int) -> IntType:
    """The narrowest signed type holding an integer literal (keeps widths tight in hardware)."""
    width = (value.bit_length() if value >= 0 else (-value - 1).bit_length()) + 1
    return IntType(width, True)


def int_union(a: IntType, b: IntType) -> IntType:
    """The narrowest integer type holding every value of both."""
    if a.signed == b.signed:
        return IntType(max(a.width, b.width), a.signed)
    width = max(a.width + (0 if a.signed else 1), b.width + (0 if b.signed else 1))
    return IntType(width, True)


def _grow(t: IntType, bits: int) -> IntType:
    return IntType(min(t.width + bits, MAX_INT_WIDTH), t.signed)


def int_binop_type(op: str, a: IntType, b: IntType) -> IntType:
    """Exact result type of an integer operator (Python semantics, ap_int widths)."""
    if op in ("add", "sub"):
        joined = int_union(a, b)
        result = _grow(joined, 1)
        return IntType(result.width, True) if op == "sub" or result.signed else result
    if op == "mul":
        return IntType(min(a.width + b.width, MAX_INT_WIDTH), a.signed or b.signed)
    if op == "floordiv":  # |q| <= |a|, plus one bit for MIN // -1
        return IntType(min(a.width + (1 if b.signed else 0), MAX_INT_WIDTH), a.signed or b.signed)
    if op == "mod":  # Python: the result has the divisor's sign and |r| < |b|
        return b
    if op in ("and", "or", "xor"):
        return int_union(a, b)
    if op in ("min", "max"):
        return int_union(a, b)
    raise KeyError(op)


def fixed_of(t: ScalarType) -> FixedType:
    """An integer or bool seen as a fixed-point type (for mixed int/fixed arithmetic)."""
    if isinstance(t, FixedType):
        return t
    if isinstance(t, BoolType):
        return FixedType(1, 1, False)
    if isinstance(t, IntType):
        return FixedType(t.width, t.width, t.signed)
    raise TypeError(t)


def fixed_binop_type(op: str, a: FixedType, b: FixedType) -> FixedType:
    """Full-precision result of a fixed-point operator (ap_fixed_base.h)."""
    fa, fb = a.frac_bits, b.frac_bits
    signed = a.signed or b.signed
    if op in ("add", "sub", "min", "max", "and", "or", "xor"):
        grow = 0 if op in ("min", "max", "and", "or", "xor") else 1
        int_bits = max(a.int_bits + (1 if b.signed and not a.signed else 0),
                       b.int_bits + (1 if a.signed and not b.signed else 0)) + grow
        frac = max(fa, fb)
        return FixedType(min(int_bits + frac, MAX_INT_WIDTH), int_bits, signed or op == "sub")
    if op == "mul":
        return FixedType(min(a.width + b.width, MAX_INT_WIDTH), a.int_bits + b.int_bits, signed)
    if op == "div":
        sb = 1 if b.signed else 0
        width = sb + a.width + max(fb, 0)
        return FixedType(min(width, MAX_INT_WIDTH), sb + a.int_bits + fb, signed)
    raise KeyError(op)


def float_join(*types: ScalarType) -> FloatType:
    """float64 if any side is float64, else float32 (ints convert to the float side's type)."""
    bits = max(t.bits for t in types if isinstance(t, FloatType))
    return FloatType(bits)


def is_integral(t: HLSType) -> bool:
    return isinstance(t, (IntType, BoolType))


def as_int(t: ScalarType) -> IntType:
    """bool behaves as uint1 in arithmetic, as in Python (True + True == 2)."""
    return IntType(1, False) if isinstance(t, BoolType) else t  # type: ignore[return-value]
