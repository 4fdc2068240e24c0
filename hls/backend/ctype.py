"""C++ spellings of hls types, and the C++ arithmetic model used to decide where casts are needed.

A `CType` describes the type C++ gives an expression (after its own promotions). The emitter
compares it with the exact IR result type and adds a cast only where C++ would otherwise lose bits.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.backend.names import member
from hls.lang.axis import AxisType
from hls.types import ArrayType, BoolType, FixedType, FloatType, HLSType, IntType, ScalarType, StructType

NATIVE_WIDTHS = (8, 16, 32, 64)


@dataclass(frozen=True)
class CType:
    kind: str  # "native", "ap", "float", "fixed", "bool", "struct"
    width: int = 0
    signed: bool = True
    fixed: FixedType | None = None
    struct: StructType | None = None

    @property
    def spelling(self) -> str:
        if self.kind == "native":
            return f"{'' if self.signed else 'u'}int{self.width}_t"
        if self.kind == "ap":
            return f"ap_{'' if self.signed else 'u'}int<{self.width}>"
        if self.kind == "float":
            return "float" if self.width == 32 else "double"
        if self.kind == "bool":
            return "bool"
        if self.kind == "struct":
            return axis_spelling(self.struct) if isinstance(self.struct, AxisType) else self.struct.name
        return fixed_spelling(self.fixed)

    @property
    def int_type(self) -> IntType | None:
        if self.kind in ("native", "ap"):
            return IntType(self.width, self.signed)
        if self.kind == "bool":
            return IntType(1, False)
        return None


INT = CType("native", 32, True)


def fixed_spelling(t: FixedType) -> str:
    name = "ap_fixed" if t.signed else "ap_ufixed"
    if t.is_default_modes:
        return f"{name}<{t.width}, {t.int_bits}>"
    return f"{name}<{t.width}, {t.int_bits}, {t.quant}, {t.overflow}, {t.sat_bits}>"


def ctype_of(t: HLSType) -> CType:
    """The C++ type used to declare a value of IR type `t`."""
    if isinstance(t, BoolType):
        return CType("bool", 1, False)
    if isinstance(t, IntType):
        return CType("native" if t.width in NATIVE_WIDTHS else "ap", t.width, t.signed)
    if isinstance(t, FloatType):
        return CType("float", t.bits)
    if isinstance(t, FixedType):
        return CType("fixed", t.width, t.signed, t)
    if isinstance(t, StructType):
        return CType("struct", struct=t)
    raise TypeError(f"no C++ type for {t}")


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
        return CType("native", 64, t.signed)
    return CType("ap", t.width, t.signed)


def promote(a: CType, b: CType | None = None) -> CType | None:
    """The C++ usual arithmetic conversions for native integers; None when an ap type is involved."""
    ops = [a] if b is None else [a, b]
    if any(c.kind not in ("native", "bool") for c in ops):
        return None
    promoted = [INT if c.width < 32 or c.kind == "bool" else c for c in ops]
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
    if dtype.kind == "b":
        return "bool"
    if dtype.kind == "f":
        return "float" if dtype.itemsize == 4 else "double"
    return f"{'' if dtype.kind == 'i' else 'u'}int{dtype.itemsize * 8}_t"


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
