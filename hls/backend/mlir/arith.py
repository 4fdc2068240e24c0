"""The integer helpers every MLIR lowering rule builds on: resize an iW value to another width by its
signedness, one integer op, a comparison, a select, a constant. The scalar rules (mlir_scalar.py) and the
bit-level and fixed-point rules they call (mlir_bits.py, mlir_fixed.py) all take an IntArith."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hls.backend.mlir.builder import Builder, mlir_type, signed_bits
from hls.ir.core import Op
from hls.types import FixedType, ScalarType, as_int


@dataclass(frozen=True)
class Wide:
    """An intermediate integer of any width (IntType stops at 1024 bits; exact intermediates may not)."""

    width: int
    signed: bool


class IntArith:
    """Emits integer arith ops into one Builder."""

    def __init__(self, b: Builder):
        self.b = b

    def resize(self, v: str, t: ScalarType | Wide, width: int, hint: str | None = None) -> str:
        """`v` of int/bool/fixed type t as a `width`-bit integer: extended by t's signedness, or truncated."""
        src = t if isinstance(t, (FixedType, Wide)) else as_int(t)
        if width == src.width:
            return v
        if v in self.b.int_values:  # fold: the constant's bits, read with the source's signedness, at the new width
            bits = self.b.int_values[v] & ((1 << src.width) - 1)
            return self.const(signed_bits(bits, src.width) if src.signed else bits, width)
        if width > src.width:
            name = "arith.extsi" if src.signed else "arith.extui"
        else:
            name = "arith.trunci"
        return self.b.cast(name, v, f"i{src.width}", f"i{width}", hint or f"{_base(v)}_i{width}")

    def int_op(self, name: str, a: str, c: str, width: int, hint: str | None = None) -> str:
        return self.b.op(name, f"{a}, {c}", f"i{width}", hint)

    def cmpi(self, pred: str, a: str, c: str, width: int) -> str:
        return self.b.op("arith.cmpi", f"{pred}, {a}, {c}", f"i{width}", "cmp")

    def select(self, op: Op | None, args: list[str], type_: str | None = None) -> str:
        cond, a, c = args
        type_ = type_ or mlir_type(op.result.type)  # type: ignore[union-attr]
        return self.b.op("arith.select", f"{cond}, {a}, {c}", type_, _hint(a) if op is None else op.result.name)

    def const(self, value: int, width: int) -> str:
        return self.b.int_const(value, width)


def _hint(v: str) -> str:
    return v.lstrip("%")


def _base(v: str) -> str:
    """`%acc_3` -> `acc`, `%r_i6` -> `r`: the variable a widened copy is named after."""
    return re.sub(r"(_i[0-9]+)?(_[0-9]+)?$", "", _hint(v)) or "v"
