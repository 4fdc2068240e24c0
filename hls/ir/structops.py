"""Struct values in the IR: made from their fields, and read field by field.

A struct value exists only where the C++ needs one whole (a struct argument or result, a FIFO item,
a sub-kernel argument); kernels otherwise work on fields: struct locals are one IR value per field,
and arrays of structs are read and written field by field (LoadOp/StoreOp with a `field`).
"""

from __future__ import annotations

import math

from hls.errors import Loc
from hls.ir.core import Op, Value
from hls.types import ArrayType, ScalarType, StructType


def flat_fields(t: StructType) -> list[tuple[str, int | None, ScalarType]]:
    """Every scalar a struct holds, in declaration order: (field, element index or None, type)."""
    out: list[tuple[str, int | None, ScalarType]] = []
    for name, ft in t.fields:
        if isinstance(ft, ArrayType):
            out.extend((name, k, ft.elem) for k in range(math.prod(ft.shape)))
        else:
            out.append((name, None, ft))
    return out


class StructPackOp(Op):
    """A struct value from every scalar it holds, in `flat_fields` order."""

    name = "hls.struct_pack"
    pure = True

    def __init__(self, values: list[Value], type: StructType, loc: Loc | None = None, name: str | None = None):
        super().__init__(values, [type], loc=loc, result_names=[name])

    def verify(self) -> None:
        expected = [t for _, _, t in flat_fields(self.result.type)]
        if [v.type for v in self.operands] != expected:
            raise self.fail(f"fields {[str(v.type) for v in self.operands]} do not match {self.result.type}")


class StructGetOp(Op):
    """One scalar of a struct value: field `field`, element `element` (row-major) of an array field."""

    name = "hls.struct_get"
    pure = True

    def __init__(self, value: Value, field: str, element: int | None, loc: Loc | None = None):
        ft = value.type.field(field)
        elem = ft.elem if isinstance(ft, ArrayType) else ft
        super().__init__([value], [elem], attrs={"field": field, "element": element}, loc=loc)

    @property
    def struct(self) -> Value:
        return self.operands[0]

    @property
    def field(self) -> str:
        return self.attrs["field"]

    @property
    def element(self) -> int | None:
        return self.attrs["element"]

    def verify(self) -> None:
        t = self.struct.type
        if not isinstance(t, StructType) or t.field(self.field) is None:
            raise self.fail(f"{t} has no field {self.field!r}")


__all__ = ["StructGetOp", "StructPackOp", "flat_fields"]
