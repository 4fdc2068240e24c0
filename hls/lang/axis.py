"""AXI4-Stream packets: `hls.axis[T]` and `hls.axis[T, U, TI, TD]`, as Vitis's `hls::axis<T, U, TI, TD>`.

A packet is an `@hls.struct` record with fixed fields, in the order of the AXI4-Stream signals:
`data` (type T), `keep` and `strb` (one bit per byte of T: ceil(bits / 8) bits), `user` (U bits),
`last` (1 bit), `id` (TI bits), `dest` (TD bits). A side channel of width 0 is absent, so using it is
an error (UG1399, "How AXI4-Stream is Implemented": the template parameters are the widths of TUSER,
TID and TDEST; "Customizing AXI4-Stream Interfaces": the member list and `ap_uint<bytesof<T>>` masks).
`keep` and `strb` default to all ones (every byte of the beat is a data byte); the other fields to 0.

`hls.axis[T]` returns the packet's class (a dataclass, one per parameter set): kernels and Python code
build packets with it (`hls.axis[hls.int32](data=x, last=done)`), `hls.stream[hls.axis[...]]`
annotates a packet stream, and its `__hls_struct__` is the `AxisType`. The C++ spells it
`hls::axis<T, U, TI, TD>` from ap_axi_sdata.h (the project's own, hls/sim/include, unless Vitis's).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from hls.lang.structs import struct
from hls.types import MAX_INT_WIDTH, FixedType, FloatType, IntType, ScalarType, StructType, struct_type_of
from hls.wording import type_expr

SIDE_CHANNELS = ("user", "id", "dest")
USAGE = "hls.axis[T] or hls.axis[T, U, TI, TD] (T an hls integer, fixed-point or float type; U, TI, TD the " \
        "widths of user, id and dest, 0 for none)"


@dataclass(frozen=True)
class AxisType(StructType):
    """The struct type of one AXI4-Stream packet: its data type and side-channel widths."""

    data: ScalarType | None = None
    user: int = 0
    id: int = 0
    dest: int = 0

    def __str__(self) -> str:
        widths = (self.user, self.id, self.dest)
        return f"axis[{self.data}{''.join(f', {w}' for w in widths) if any(widths) else ''}]"

    __repr__ = __str__

    def type_expr(self) -> str:
        """The expression that builds this packet type (hls.wording.type_expr asks for it)."""
        widths = (self.user, self.id, self.dest)
        return f"hls.axis[{type_expr(self.data)}{''.join(f', {w}' for w in widths) if any(widths) else ''}]"

    @property
    def widths(self) -> dict[str, int]:
        return {"user": self.user, "id": self.id, "dest": self.dest}

    def missing_hint(self, name: str) -> str:
        if name in SIDE_CHANNELS:
            return (f" ({name} has width 0 in this packet type, so it is absent; give its width as in "
                    f"hls.axis[T, U, TI, TD], e.g. hls.axis[{type_expr(self.data)}, 8, 4, 4])")
        return ""


def data_bits(t: ScalarType) -> int:
    return t.bits if isinstance(t, FloatType) else t.width


def _width(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT_WIDTH:
        raise TypeError(f"the {what} width of an AXI-stream packet must be an integer in 0..{MAX_INT_WIDTH}, "
                        f"got {value!r}; use {USAGE}")
    return value


@functools.cache
def packet_class(data: ScalarType, user: int, id_: int, dest: int) -> type:
    """The dataclass of hls.axis[data, user, id, dest] (one per parameter set, so types compare equal)."""
    mask = IntType(max(1, (data_bits(data) + 7) // 8), False)
    fields: dict[str, Any] = {"data": data, "keep": mask, "strb": mask}
    if user:
        fields["user"] = IntType(user, False)
    fields["last"] = IntType(1, False)
    if id_:
        fields["id"] = IntType(id_, False)
    if dest:
        fields["dest"] = IntType(dest, False)
    name = "axis_" + "_".join(map(str, (data, user, id_, dest) if user or id_ or dest else (data,)))
    all_ones = mask.max
    namespace = {"__annotations__": fields, "__module__": __name__, "__qualname__": name,
                 "__doc__": f"An AXI4-Stream packet: {', '.join(fields)}.", "keep": all_ones, "strb": all_ones}
    make = functools.partial(AxisType, data=data, user=user, id=id_, dest=dest)
    cls = struct(type(name, (), namespace), make_type=make)
    cls.__repr__ = lambda self: f"{cls.__hls_struct__}({', '.join(_shown(self, n, t) for n, t in fields.items())})"
    return cls


def _shown(packet: Any, name: str, t: ScalarType) -> str:
    value = getattr(packet, name)
    return f"{name}={float(value) if isinstance(t, FixedType) else value!r}"


class _AxisFactory:
    """`hls.axis[T]`, `hls.axis[T, U, TI, TD]`: the class of an AXI4-Stream packet."""

    def __getitem__(self, params: Any) -> type:
        params = params if isinstance(params, tuple) else (params,)
        if len(params) not in (1, 4):
            raise TypeError(f"hls.axis takes one type or a type and three widths, got {len(params)} parameters; "
                            f"use {USAGE}")
        data = params[0]
        if struct_type_of(data) is not None or not isinstance(data, (IntType, FixedType, FloatType)):
            shown = getattr(data, "__name__", None) or repr(data)
            raise TypeError(f"the data of an AXI-stream packet must be an hls integer, fixed-point or float type, "
                            f"got {shown}; use {USAGE}")
        widths = [_width(w, what) for w, what in zip(params[1:], SIDE_CHANNELS, strict=False)]
        return packet_class(data, *(widths or [0, 0, 0]))

    def __repr__(self) -> str:
        return "hls.axis"


axis = _AxisFactory()


def axis_type_of(value: Any) -> AxisType | None:
    """The AxisType of a packet class or type, else None."""
    t = struct_type_of(value) if isinstance(value, type) else value
    return t if isinstance(t, AxisType) else None


__all__ = ["AxisType", "axis", "axis_type_of"]
