"""The numpy <-> C++ boundary: one codec per type, the only place that decides how a value crosses.

A `Codec` (from `codec_for(t)`) is made once per scalar, array or stream type and holds every fact
about crossing: the numpy storage dtype and its C type (what cffi passes), the kernel's C++ type, the
C++ conversions both ways (storage -> kernel and back, in the csim bridge; `.dat` value -> kernel
and back, in the exported testbench), the `.dat` text format both ways, how a random input is drawn
and how golden and csim outputs are compared. The bridge template (hls/backend/cpp/testbenches/bridge.cpp.j2), csim
(hls/sim/csim.py), verify (Kernel.verify) and the project export (hls/project/) read it.

It lives in the backend so that everything after it (sim, the project export) imports it without
reaching back; it only needs the types and their C++ spelling (hls/backend/ctype.py).

Each type family has one codec class (`codec_base.CODECS`, `family_of`): `IntCodec` (with `ApIntCodec`
for the widths C has no type for), `BoolCodec`, `FloatCodec`, `FixedCodec` in codec_scalar.py, and
`StructCodec` here. A class that leaves one of `Codec.REQUIRED` undefined fails when it is defined.

Composite types (structs, then AXI-stream packets) are codecs made of field codecs: `fields` holds
`(name, Codec)` pairs in declaration order and the codec is a `StructCodec`. Such a codec is built from the
field codecs alone: its `dtype` is the numpy structured dtype of the fields' dtypes (`align=True`, so
that it matches a C struct of the fields' `storage` types declared in the bridge), its C++
conversions convert field by field (`hls_in_T` / `hls_out_T`, see `declarations`), its `.dat` data is one file per
field (`<arg>.<field>.dat`, each in that field's format), and random values and the comparison go
field by field, naming `arg[i].field` on a mismatch. Scalars have no fields. See docs/architecture.md,
"How to add a type".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

from hls.backend.codec import scalar  # noqa: F401  (registers the scalar families' codec classes)
from hls.backend.codec.base import CODECS, MAX_FIXED_BITS, MAX_INT_BITS, Codec, argument_text
from hls.backend.ctype import spelling
from hls.backend.names import member
from hls.errors import SimulationError
from hls.types import ArrayType, ScalarType, StreamType, StructType, TypeFamily, is_block

BLOCK_PORT = ("is a FIFO of arrays, which joins processes and sub-kernels; as a port of the top kernel it is not "
              "supported yet (pass the arrays as one array of one more dimension, or a stream of scalars)")

__all__ = ["MAX_FIXED_BITS", "MAX_INT_BITS", "Codec", "StructCodec", "codec_for", "declarations",
           "storage_declaration"]


@dataclass(frozen=True)
class StructCodec(Codec, family=TypeFamily.STRUCT):
    """A struct as the composite of its field codecs (module docstring): numpy stores it as a structured
    array of the fields' storage (`align=True`, laid out as the C storage struct `hls_storage_<T>` the
    bridge declares), the bridge converts field by field (`hls_in_<T>`, `hls_out_<T>`: `declarations`)."""

    @classmethod
    def of(cls, t: StructType) -> Codec:
        fields = tuple((n, codec_for(ft)) for n, ft in t.fields)
        unsupported = next((f"has a field {n!r} that {f.unsupported}" for n, f in fields if f.unsupported), None)
        if is_block(t):
            unsupported = BLOCK_PORT
        exact = all(f.exact for _, f in fields)
        return cls(t, (), t.storage_dtype, f"hls_storage_{t.name}", spelling(t), "", exact, unsupported, fields)

    def cpp_in(self, expr: str) -> str:
        return f"hls_in_{self.elem.name}({expr})"

    def cpp_out(self, expr: str) -> str:
        return f"hls_out_{self.elem.name}({expr})"

    def dat_in(self, expr: str) -> str:
        return f"{self.c_type}({expr})"

    def dat_out(self, expr: str) -> str:
        return f"static_cast<{self.dat_type}>({expr})"

    def to_storage(self, name: str, value: Any) -> Any:
        record = self.elem.to_storage([self.value(name, value)])[0]
        return {member(self.elem, n): record[n].tolist() for n, _ in self.fields}

    def value(self, name: str, value: Any, item: int | None = None) -> Any:
        """A struct (an instance, a numpy record or a mapping of its fields) with every field checked
        by its field codec, as `check` checks an array of structs field by field."""
        if is_block(self.elem):
            raise SimulationError(f"{argument_text(name, item)}: {BLOCK_PORT}")
        record = isinstance(value, np.void) and value.dtype == self.dtype
        if not (record or isinstance(value, dict) or getattr(value, "__hls_struct_type__", None) == self.elem):
            raise SimulationError(f"{argument_text(name, item)} is a {self.elem}, got {type(value).__name__}")
        fields = {}
        for n, f in self.fields:
            given = value[n] if record else value.get(n, 0) if isinstance(value, dict) else getattr(value, n)
            if f.shape:
                flat = np.asarray(getattr(given, "data", given), dtype=object).reshape(-1)
                elems = [replace(f, shape=()).value(f"{name}.{n}", v, item) for v in flat]
                stored = [float(v) if f.family is TypeFamily.FIXED else v for v in elems]
                fields[n] = np.asarray(stored).reshape(f.shape)
            else:
                fields[n] = f.value(f"{name}.{n}", given, item)
        return self.elem.cls(**fields)

    def exact_number(self, where: str, value: Any) -> Any:
        raise SimulationError(f"{where}: {self.elem} is a struct, not a number")

    def from_storage(self, raw: Any) -> Any:
        record = np.zeros(1, self.dtype)
        for k, (n, f) in enumerate(self.fields):
            value = raw[k] if isinstance(raw, tuple) else raw[n] if isinstance(raw, np.void) \
                else getattr(raw, member(self.elem, n))
            record[n][0] = np.asarray(_nested(value)).reshape(f.shape) if f.shape else value
        return self.elem.convert(record[0])

    def format_dat(self, values: Any) -> str:
        raise TypeError("a struct's .dat data is one file per field (hls/project/export_structs.py)")

    def parse_dat(self, text: str) -> np.ndarray:
        raise TypeError("a struct's .dat data is one file per field (hls/project/export_structs.py)")

    def random(self, rng: np.random.Generator) -> Any:
        records = self.draw(rng)
        return records if self.shape else self.elem.convert(records[0])

    def draw(self, rng: np.random.Generator) -> Any:
        records = np.zeros(self.shape or (1,), self.dtype)
        for n, f in self.fields:
            records[n] = replace(f, shape=records.shape + f.shape).random(rng)
        return records

    def compare(self, name: str, golden: Any, actual: Any, rtol: float, atol: float) -> None:
        g, a = (v if isinstance(v, np.ndarray) else np.asarray(v) if hasattr(v, "__array__")
                else self.elem.to_storage([v])[0] for v in (golden, actual))
        for n, f in self.fields:
            f.compare(f"{name}.{n}", g[n], a[n], rtol, atol)


def _nested(value: Any) -> Any:
    """A (cffi or numpy) array of any rank as nested lists."""
    return [_nested(v) for v in value] if hasattr(value, "__len__") else value


@cache
def codec_for(t: ScalarType | ArrayType | StreamType) -> Codec:
    """The codec of a scalar type, of an array (its element's, with the shape) or of a stream's items;
    a scalar's or struct's comes from its family's codec class."""
    if isinstance(t, ArrayType):
        return replace(codec_for(t.elem), shape=t.shape)
    if isinstance(t, StreamType):
        return codec_for(t.elem)
    cls = CODECS.get(getattr(t, "family", None))
    if cls is None:
        raise TypeError(f"no boundary codec for {t}")
    return cls.of(t)


def storage_declaration(codec: Codec) -> str:
    """The C storage struct of a struct codec (valid C for cffi's cdef and C++ for the bridge)."""
    members = "".join(f" {f.storage} {member(codec.elem, n)}{''.join(f'[{d}]' for d in f.shape)};"
                      for n, f in codec.fields)
    return f"typedef struct {codec.storage} {{{members} }} {codec.storage};"


def declarations(codecs: list[Codec]) -> tuple[list[str], list[str]]:
    """(storage structs for cffi and the bridge, the bridge's conversion functions) of the struct
    codecs among `codecs`, each once."""
    structs = list(dict.fromkeys(replace(c, shape=()) for c in codecs if c.family is TypeFamily.STRUCT))
    functions = []
    for c in structs:
        functions += [f"static inline {c.c_type} hls_in_{c.elem.name}(const {c.storage} &s) {{", f"    {c.c_type} v;"]
        functions += [f"    {_each(f, member(c.elem, n), 'v', 's', f.cpp_in)}" for n, f in c.fields]
        functions += ["    return v;", "}"]
        functions += [f"static inline {c.storage} hls_out_{c.elem.name}(const {c.c_type} &v) {{", f"    {c.storage} s;"]
        functions += [f"    {_each(f, member(c.elem, n), 's', 'v', f.cpp_out)}" for n, f in c.fields]
        functions += ["    return s;", "}"]
    return [storage_declaration(c) for c in structs], functions


def _each(f: Codec, name: str, target: str, source: str, convert: Any) -> str:
    """`target.name = convert(source.name);`, element by element for an array field."""
    if not f.shape:
        return f"{target}.{name} = {convert(f'{source}.{name}')};"
    first = "[0]" * len(f.shape)
    element = f"(&{source}.{name}{first})[k]"
    return f"for (size_t k = 0; k < {f.size}; k++) (&{target}.{name}{first})[k] = {convert(element)};"
