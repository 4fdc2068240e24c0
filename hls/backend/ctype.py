"""C++ spellings of hls types, and the C++ arithmetic model used to decide where casts are needed.

A `CType` describes the type C++ gives an expression (after its own promotions). The emitter
compares it with the exact IR result type and adds a cast only where C++ would otherwise lose bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from hls.backend.names import member
from hls.lang.axis import AxisType
from hls.types import (
    ArrayType,
    FixedType,
    HLSType,
    IntType,
    ScalarType,
    StructType,
    TypeFamily,
    register_family_class,
)

NATIVE_WIDTHS = (8, 16, 32, 64)

C_SPELLINGS: dict[TypeFamily, type[CType]] = {}  # a type family -> the C spelling class declaring its values


@dataclass(frozen=True)
class CType:
    """A C++ type of the kernel: one subclass per C spelling (registry `C_SPELLINGS`). Every subclass
    defines `spelling`; one registered for a family (`class X(CType, family=...)`) also defines `of`,
    the C type declaring a value of an hls type of that family. Leaving either undefined fails when
    the class is defined, not at the first emit. The class flags describe C++'s own arithmetic on it."""

    width: int = 0
    signed: bool = True

    family: ClassVar[TypeFamily]
    native: ClassVar[bool] = False  # a native C integer (intN_t / uintN_t)
    promotes: ClassVar[bool] = False  # C's integer promotions and usual arithmetic conversions apply
    builtin: ClassVar[bool] = False  # a C++ builtin type: an explicit conversion is the C cast `(T)x`
    ap_type: ClassVar[bool] = False  # an ap_int / ap_fixed class template

    def __init_subclass__(cls, family: TypeFamily | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        register_family_class(cls, CType, C_SPELLINGS, family, ("spelling", "of") if family else ("spelling",))

    @property
    def spelling(self) -> str:
        raise NotImplementedError

    @classmethod
    def of(cls, t: HLSType) -> CType:
        raise NotImplementedError

    @property
    def int_type(self) -> IntType | None:
        """The integer type whose values this C type holds, or None for a non-integer one."""
        return None


@dataclass(frozen=True)
class NativeInt(CType, family=TypeFamily.INT):
    """int8_t ... uint64_t; an integer type of another width is declared as an `ApInt`."""

    native: ClassVar[bool] = True
    promotes: ClassVar[bool] = True
    builtin: ClassVar[bool] = True

    @property
    def spelling(self) -> str:
        return f"{'' if self.signed else 'u'}int{self.width}_t"

    @classmethod
    def of(cls, t: HLSType) -> CType:
        return NativeInt(t.width, t.signed) if t.width in NATIVE_WIDTHS else ApInt(t.width, t.signed)

    @property
    def int_type(self) -> IntType | None:
        return IntType(self.width, self.signed)


@dataclass(frozen=True)
class ApInt(CType):
    """ap_int<W> / ap_uint<W> (the INT family's other spelling, chosen by `NativeInt.of`)."""

    family: ClassVar[TypeFamily] = TypeFamily.INT
    ap_type: ClassVar[bool] = True

    @property
    def spelling(self) -> str:
        return f"ap_{'' if self.signed else 'u'}int<{self.width}>"

    @property
    def int_type(self) -> IntType | None:
        return IntType(self.width, self.signed)


@dataclass(frozen=True)
class CBool(CType, family=TypeFamily.BOOL):
    width: int = 1
    signed: bool = False

    promotes: ClassVar[bool] = True
    builtin: ClassVar[bool] = True

    @property
    def spelling(self) -> str:
        return "bool"

    @classmethod
    def of(cls, t: HLSType) -> CType:
        return CBool()

    @property
    def int_type(self) -> IntType | None:
        return IntType(1, False)


@dataclass(frozen=True)
class CFloat(CType, family=TypeFamily.FLOAT):
    builtin: ClassVar[bool] = True

    @property
    def spelling(self) -> str:
        return "float" if self.width == 32 else "double"

    @classmethod
    def of(cls, t: HLSType) -> CType:
        return CFloat(t.bits)


@dataclass(frozen=True)
class CFixed(CType, family=TypeFamily.FIXED):
    """ap_fixed<...> / ap_ufixed<...>: `fixed` is the hls type (its width and sign repeated in the fields)."""

    fixed: FixedType | None = None

    ap_type: ClassVar[bool] = True

    @property
    def spelling(self) -> str:
        return fixed_spelling(self.fixed)

    @classmethod
    def of(cls, t: HLSType) -> CType:
        return CFixed(t.width, t.signed, t)


@dataclass(frozen=True)
class CStruct(CType, family=TypeFamily.STRUCT):
    """A struct the header declares (`struct_declaration`), or an AXI-stream packet (`hls::axis<...>`)."""

    struct: StructType | None = None

    @property
    def spelling(self) -> str:
        return axis_spelling(self.struct) if isinstance(self.struct, AxisType) else self.struct.name

    @classmethod
    def of(cls, t: HLSType) -> CType:
        return CStruct(struct=t)


INT = NativeInt(32, True)


def fixed_spelling(t: FixedType) -> str:
    name = "ap_fixed" if t.signed else "ap_ufixed"
    if t.is_default_modes:
        return f"{name}<{t.width}, {t.int_bits}>"
    return f"{name}<{t.width}, {t.int_bits}, {t.quant}, {t.overflow}, {t.sat_bits}>"


def ctype_of(t: HLSType) -> CType:
    """The C++ type used to declare a value of IR type `t` (its family's C spelling class decides)."""
    cls = C_SPELLINGS.get(getattr(t, "family", None))
    if cls is None:
        raise TypeError(f"no C++ type for {t}")
    return cls.of(t)


def spelling(t: HLSType) -> str:
    return ctype_of(t).spelling


def carrier_of(t: IntType) -> CType:
    """A loop counter's C++ type: plain int where it fits, as Vitis users write loops."""
    if INT.int_type.contains(t):
        return INT
    return ctype_of(IntType(64, True)) if t.width <= 64 else ctype_of(t)


def exact_ctype(t: IntType) -> CType:
    """A C++ type to compute a result of IR type `t` in: 64-bit native where it fits, else ap."""
    if t.width <= 64:
        return NativeInt(64, t.signed)
    return ApInt(t.width, t.signed)


def promote(a: CType, b: CType | None = None) -> CType | None:
    """The C++ usual arithmetic conversions for native integers; None when an ap type is involved."""
    ops = [a] if b is None else [a, b]
    if not all(c.promotes for c in ops):
        return None
    promoted = [INT if c.width < 32 or c.family is TypeFamily.BOOL else c for c in ops]
    if len(promoted) == 1:
        return promoted[0]
    x, y = promoted
    if x.signed == y.signed:
        return x if x.width >= y.width else y
    unsigned, signed = (x, y) if not x.signed else (y, x)
    if unsigned.width >= signed.width:
        return unsigned
    return signed  # the signed type is wider and holds every unsigned value


def declared_array(t: ArrayType, name: str) -> str:
    dims = "".join(f"[{d}]" for d in t.shape)
    return f"{spelling(t.elem)} {name}{dims}"


def storage_ctype(t: ScalarType) -> str:
    """The C type of one element as numpy stores it at the csim boundary."""
    dtype = t.storage_dtype
    if dtype == np.bool_:
        return "bool"
    if np.issubdtype(dtype, np.floating):
        return "float" if dtype.itemsize == 4 else "double"
    return f"{'' if np.issubdtype(dtype, np.signedinteger) else 'u'}int{dtype.itemsize * 8}_t"


def struct_declaration(t: StructType) -> list[str]:
    """The C++ `struct` of a struct type, fields in declaration order (the header declares it)."""
    lines = [f"struct {t.name} {{"]
    members = [member(t, name) for name, _ in t.fields]
    lines += [f"    {declared_array(ft, m) if isinstance(ft, ArrayType) else f'{spelling(ft)} {m}'};"
              for m, (_, ft) in zip(members, t.fields, strict=True)]
    return [*lines, "};"]


def axis_spelling(t: AxisType) -> str:
    """An AXI-stream packet as Vitis spells it (ap_axi_sdata.h): hls::axis<T, WUser, WId, WDest>."""
    return f"hls::axis<{spelling(t.data)}, {t.user}, {t.id}, {t.dest}>"
