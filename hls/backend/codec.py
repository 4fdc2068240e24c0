"""The numpy <-> C++ boundary: one codec per type, the only place that decides how a value crosses.

A `Codec` (from `codec_for(t)`) is made once per scalar, array or stream type and holds every fact
about crossing: the numpy storage dtype and its C type (what cffi passes), the kernel's C++ type, the
C++ conversions both ways (storage -> kernel and back, in the csim bridge; `.dat` value -> kernel
and back, in the exported testbench), the `.dat` text format both ways, how a random input is drawn
and how golden and csim outputs are compared. The bridge template (hls/backend/testbenches/bridge.cpp.j2), csim
(hls/sim/csim.py), verify (Kernel.verify) and the project export (hls/project/) read it.

It lives in the backend so that everything after it (sim, the project export) imports it without
reaching back; it only needs the types and their C++ spelling (hls/backend/ctype.py).

Composite types (structs, then AXI-stream packets) are codecs made of field codecs: `fields` holds
`(name, Codec)` pairs in declaration order and `kind` is "struct". Such a codec is built from the
field codecs alone: its `dtype` is the numpy structured dtype of the fields' dtypes (`align=True`, so
that it matches a C struct of the fields' `storage` types declared in the bridge), its C++
conversions convert field by field (`hls_in_T` / `hls_out_T`, see `declarations`), its `.dat` data is one file per
field (`<arg>.<field>.dat`, each in that field's format), and random values and the comparison go
field by field, naming `arg[i].field` on a mismatch. Scalars have no fields. See docs/architecture.md,
"How to add a type".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from numbers import Real
from typing import Any

import numpy as np

from hls.backend.ctype import ctype_of, spelling, storage_ctype
from hls.backend.names import member
from hls.errors import SimulationError, VerificationError
from hls.golden.runtime import ArrayView
from hls.types import (
    ArrayType,
    BoolType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    StreamType,
    StructType,
    exact_value,
)
from hls.wording import type_expr

MAX_INT_BITS = 64  # integers travel as int64/uint64 (numpy, cffi, the testbench's strtoll)
MAX_FIXED_BITS = 53  # fixed point travels as float64, exact up to 53 significant bits


@dataclass(frozen=True)
class Codec:
    """How values of one type cross numpy <-> C++ <-> `.dat` (plain data; see the module docstring).

    `kind` is "int" (a native C integer), "ap_int", "fixed", "float", "bool" (or "struct" for a
    composite). The `cpp_*`/`dat_*` methods return C++ expressions converting `expr`.
    """

    elem: ScalarType
    shape: tuple[int, ...]  # () for a scalar or a stream item
    kind: str
    dtype: np.dtype  # numpy storage of one element
    storage: str  # C type of one stored element (what cffi passes)
    c_type: str  # C++ type of one element in the kernel
    dat_type: str  # C type the testbench parses one `.dat` line into
    exact: bool  # compared bit-exactly (else within rtol/atol)
    unsupported: str | None = None  # why this type cannot cross the boundary, or None
    fields: tuple[tuple[str, Codec], ...] = ()  # a composite's field codecs (empty for scalars)

    @property
    def zero_copy(self) -> bool:
        """The kernel reads numpy's buffer in place (same layout), no conversion loop."""
        return self.kind in ("int", "float", "bool")

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    # ---- C++ snippets ------------------------------------------------------------------------

    def cpp_in(self, expr: str) -> str:
        """Storage value -> kernel type (csim bridge)."""
        if self.kind == "struct":
            return f"hls_in_{self.elem.name}({expr})"
        return f"{self.c_type}({expr})"

    def cpp_out(self, expr: str) -> str:
        """Kernel value -> storage type (csim bridge)."""
        if self.kind == "struct":
            return f"hls_out_{self.elem.name}({expr})"
        if self.kind == "fixed":
            return f"{expr}.to_double()"
        if self.kind == "ap_int":
            return f"({self.storage}){expr}.to_int64()"
        return expr

    def dat_in(self, expr: str) -> str:
        """A value parsed from a `.dat` line (of `dat_type`) -> kernel type (testbench)."""
        if self.kind == "bool":
            return f"{expr} != 0"
        if self.kind == "float":
            return expr
        if self.kind == "int":
            return f"static_cast<{self.c_type}>({expr})"
        return f"{self.c_type}({expr})"

    def dat_out(self, expr: str) -> str:
        """Kernel value -> `dat_type`, compared with the golden `.dat` values (testbench)."""
        if self.kind == "fixed":
            return f"{expr}.to_double()"
        if self.kind == "ap_int":
            return f"{expr}.{'to_int64' if self.elem.signed else 'to_uint64'}()"
        if self.kind == "float":
            return expr
        return f"static_cast<{self.dat_type}>({expr})"

    # ---- Python side: cffi scalars and numpy arrays --------------------------------------------

    def to_storage(self, name: str, value: Any) -> Any:
        """A Python scalar argument as the Python number cffi passes in `storage` (a struct: a dict of
        its fields' storage values, which cffi takes as the storage struct); refused as `value` refuses."""
        converted = self.value(name, value)
        if self.kind == "struct":
            record = self.elem.to_storage([converted])[0]
            return {member(self.elem, n): record[n].tolist() for n, _ in self.fields}
        if self.kind in ("fixed", "float"):
            return float(converted)
        if self.kind == "bool":
            return bool(converted)
        return int(converted)

    def value(self, name: str, value: Any, item: int | None = None) -> Any:
        """A scalar argument, one stream item (`item`: its index) or one struct field as its exact
        Python-mode value. Only values of the type cross, as `check_range` demands of an array's
        elements: an integer in range (an integral float such as 3.0 counts), a bool or 0/1, a number
        on the fixed-point grid and in range, any real number for a float (rounded as numpy does); a
        struct field by field. Anything else is an error naming the argument before anything runs."""
        if type(value) is int and self.kind in ("int", "ap_int"):  # the common case, checked first
            if self.elem.min <= value <= self.elem.max:
                return value
            raise SimulationError(f"{_where(name, item)}: {value} does {_not_fit(self.elem)}")
        if isinstance(value, (np.ndarray, ArrayView)) and self.kind != "struct":
            raise SimulationError(f"{_where(name, item)} is a scalar {self.elem}, got an array")
        if self.kind == "struct":
            return self.struct_value(name, value, item)
        return self.number(_where(name, item), value)

    def number(self, where: str, value: Any) -> Any:
        """`value` (any Python or numpy number) as the type's exact value, or an error naming `where`."""
        if isinstance(value, (str, bytes, complex)) or not isinstance(value, (Real, np.number, np.bool_)):
            raise SimulationError(f"{where}: {self.elem} takes a number, got {type(value).__name__}")
        if self.kind == "float":
            return self.elem.convert(value)
        if self.kind == "bool":
            if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
                return bool(value)
            raise SimulationError(f"{where}: {_show(value)} is not a bool (True, False, 0 or 1)")
        if isinstance(value, (float, np.floating)) and not np.isfinite(value):
            raise SimulationError(f"{where}: {_show(value)} is not a finite number, and {self.elem} holds none")
        exact = exact_value(value)  # an int or a Fraction
        if self.kind == "fixed":
            if exact < self.elem.min or exact > self.elem.max or self.elem.convert(exact) != exact:
                raise SimulationError(f"{where}: {_show(value)} is not exactly representable in {self.elem} "
                                      f"({float(self.elem.min)}..{float(self.elem.max)}, steps of "
                                      f"{float(self.elem.lsb)}); {_quantize(self.elem)}")
            return Fraction(exact)
        if exact.denominator != 1:
            raise SimulationError(f"{where}: {_show(value)} is not an integer, and {self.elem} holds integers only; "
                                  f"convert with {type_expr(self.elem)}(x), which truncates toward zero")
        if not self.elem.min <= exact <= self.elem.max:
            raise SimulationError(f"{where}: {_show(value)} does {_not_fit(self.elem)}")
        return int(exact)

    def struct_value(self, name: str, value: Any, item: int | None) -> Any:
        """A struct (an instance, a numpy record or a mapping of its fields) with every field checked
        by its field codec, as `check` checks an array of structs field by field."""
        record = isinstance(value, np.void) and value.dtype == self.dtype
        if not (record or isinstance(value, dict) or getattr(value, "__hls_struct_type__", None) == self.elem):
            raise SimulationError(f"{_where(name, item)} is a {self.elem}, got {type(value).__name__}")
        fields = {}
        for n, f in self.fields:
            given = value[n] if record else value.get(n, 0) if isinstance(value, dict) else getattr(value, n)
            if f.shape:
                flat = np.asarray(getattr(given, "data", given), dtype=object).reshape(-1)
                elems = [replace(f, shape=()).value(f"{name}.{n}", v, item) for v in flat]
                fields[n] = np.asarray([float(v) if f.kind == "fixed" else v for v in elems]).reshape(f.shape)
            else:
                fields[n] = f.value(f"{name}.{n}", given, item)
        return self.elem.cls(**fields)

    def check_stream(self, name: str, stream: Any) -> None:
        """Every item of a stream argument checked as `value` checks a scalar (naming its index) and
        replaced by its exact value: `hls.Stream(T, values)` keeps the values as given until here."""
        if getattr(stream, "elem", None) != self.elem:
            raise SimulationError(f"argument {name!r} is a stream of {self.elem}: pass "
                                  f"hls.Stream({type_expr(self.elem)}, values), got {stream!r}")
        stream.items = type(stream.items)(self.value(name, v, i) for i, v in enumerate(stream.items))

    def from_storage(self, raw: Any) -> Any:
        """A stored value (from cffi or numpy) as the exact Python-mode value (a struct: from a cffi
        storage struct, a numpy record or the tuple `tolist()` gives, as the dataclass instance)."""
        if self.kind == "struct":
            record = np.zeros(1, self.dtype)
            for k, (n, f) in enumerate(self.fields):
                value = raw[k] if isinstance(raw, tuple) else raw[n] if isinstance(raw, np.void) \
                    else getattr(raw, member(self.elem, n))
                record[n][0] = np.asarray(_nested(value)).reshape(f.shape) if f.shape else value
            return self.elem.convert(record[0])
        if self.kind in ("int", "ap_int"):
            return int(raw)
        if self.kind == "float":
            return self.dtype.type(raw)
        if self.kind == "fixed":
            return Fraction(float(raw))
        return bool(raw)

    def check(self, name: str, arg: Any) -> np.ndarray:
        """Shape, dtype, layout and range checks of an array argument: a wrong array never reaches C++."""
        if not isinstance(arg, np.ndarray):
            raise SimulationError(f"argument {name!r} must be a numpy array of shape {self.shape} and dtype "
                                  f"{self.dtype}, got {type(arg).__name__}")
        if arg.shape != self.shape:
            raise SimulationError(f"argument {name!r} has shape {arg.shape}, the kernel declares {self.shape}")
        if arg.dtype != self.dtype:
            raise SimulationError(f"argument {name!r} has dtype {arg.dtype}; {self.elem} arrays travel as "
                                  f"{self.dtype} (use .astype(np.{self.dtype}))")
        if not arg.flags.c_contiguous:
            raise SimulationError(f"argument {name!r} is not C-contiguous; pass np.ascontiguousarray(...)")
        if not arg.flags.writeable:
            raise SimulationError(f"argument {name!r} is read-only; csim writes array outputs in place")
        for n, f in self.fields:  # a struct: each field holds its own type's values
            f.check_range(f"{name}.{n}", arg[n])
        self.check_range(name, arg)
        return arg

    def check_range(self, name: str, values: np.ndarray) -> None:
        """Every stored value is one of the type's values (the dtype alone allows more)."""
        elem = self.elem
        if self.kind == "ap_int" and values.size:
            low, high = int(values.min()), int(values.max())
            if low < elem.min or high > elem.max:
                raise SimulationError(f"argument {name!r}: values {low}..{high} do {_not_fit(elem)}")
        if self.kind == "fixed" and values.size:
            if not np.all(np.isfinite(values)) or np.any(elem.convert(values) != values):
                raise SimulationError(f"argument {name!r}: values are not exactly representable in {elem}; "
                                      f"{_quantize(elem)}")

    # ---- .dat text -----------------------------------------------------------------------------

    def format_dat(self, values: Any) -> str:
        """One value per line, exact: decimal integers, %.9g/%.17g floats (round-trip), fixed as float64."""
        flat = values.ravel().tolist() if isinstance(values, np.ndarray) else [values]
        if self.kind == "bool":
            lines = ["1" if v else "0" for v in flat]
        elif self.kind in ("int", "ap_int"):
            lines = [str(int(v)) for v in flat]
        elif self.kind == "float":
            digits = 9 if self.dtype.itemsize == 4 else 17
            lines = [f"{float(v):.{digits}g}" for v in flat]
        else:
            lines = [f"{float(v if isinstance(v, float) else Fraction(v)):.17g}" for v in flat]
        return "".join(line + "\n" for line in lines)

    def parse_dat(self, text: str) -> np.ndarray:
        """The values of a `.dat` text in storage form (1-D; blank lines ignored), as the testbench reads it."""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if self.kind == "bool":
            return np.array([int(v) != 0 for v in lines], dtype=self.dtype)
        if self.kind in ("int", "ap_int"):
            return np.array([int(v) for v in lines], dtype=self.dtype)
        return np.array([float(v) for v in lines], dtype=np.float64).astype(self.dtype)

    # ---- random inputs and comparison ----------------------------------------------------------

    def random(self, rng: np.random.Generator) -> Any:
        """Inputs spanning the type: full range for integers and fixed point, [-1, 1) for floats; a
        struct field by field (a structured array, or one dataclass instance)."""
        shape, elem = self.shape, self.elem
        if self.kind == "struct":
            records = np.zeros(shape or (1,), self.dtype)
            for n, f in self.fields:
                records[n] = replace(f, shape=records.shape + f.shape).random(rng)
            return records if shape else elem.convert(records[0])
        if self.kind == "bool":
            values = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif self.kind in ("int", "ap_int"):
            if elem.width <= 63:
                values = rng.integers(elem.min, elem.max, size=shape, endpoint=True, dtype=np.int64)
            else:
                # two 32-bit halves: every bit pattern of 64 bits, odd values included
                high, low = (rng.integers(0, 2**32, size=shape, dtype=np.int64).astype(np.uint64) for _ in range(2))
                values = elem.convert((high << np.uint64(32)) | low)
            values = np.asarray(values).astype(self.dtype)
        elif self.kind == "fixed":
            # AP_SAT_SYM saturates the most negative code to -max, so no assignment can produce it
            low = elem.raw_min + (1 if elem.signed and elem.overflow == "AP_SAT_SYM" and elem.width > 1 else 0)
            raw = rng.integers(low, elem.raw_max, size=shape, endpoint=True, dtype=np.int64)
            values = raw.astype(np.float64) * float(elem.lsb)
        else:
            values = rng.uniform(-1.0, 1.0, size=shape).astype(self.dtype)
        if shape:
            return np.ascontiguousarray(values)
        item = values.item() if isinstance(values, np.ndarray) else values
        if self.kind == "float":
            return self.dtype.type(item)
        if self.kind == "fixed":
            return Fraction(item)
        return item

    def compare(self, name: str, golden: Any, actual: Any, rtol: float, atol: float) -> None:
        """Exact for integers, bools and fixed point; floats within rtol/atol; a struct field by field
        (`name.field`). Names the first mismatch."""
        if self.kind == "struct":
            g, a = (v if isinstance(v, np.ndarray) else np.asarray(v) if hasattr(v, "__array__")
                    else self.elem.to_storage([v])[0] for v in (golden, actual))
            for n, f in self.fields:
                f.compare(f"{name}.{n}", g[n], a[n], rtol, atol)
            return
        g = np.asarray(golden)
        a = np.asarray(actual)
        if g.shape != a.shape:
            raise VerificationError(f"{name}: golden shape {g.shape} but csim shape {a.shape}")
        if self.exact:
            bad = g != a
        else:
            with np.errstate(all="ignore"):
                bad = ~np.isclose(a.astype(np.float64), g.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
        if np.any(bad):
            index = tuple(int(i) for i in np.argwhere(bad)[0]) if g.ndim else ()
            count = int(np.count_nonzero(bad))
            where = f"{name}[{', '.join(map(str, index))}]" if index else name
            gv, av = (g[index], a[index]) if index else (golden, actual)
            raise VerificationError(f"{where}: golden {_show(gv)} but csim {_show(av)} ({count} of {bad.size} "
                                    f"element{'s' if bad.size != 1 else ''} differ; {self.elem})")


def _not_fit(t: Any) -> str:
    return f"not fit {t} ({t.min}..{t.max}); convert with {type_expr(t)}(x) if the wrap is intended"


def _quantize(t: Any) -> str:
    return f"quantize with {type_expr(t)}(x) first"


def _where(name: str, item: int | None) -> str:
    return f"argument {name!r}" + (f" item {item}" if item is not None else "")


def _nested(value: Any) -> Any:
    """A (cffi or numpy) array of any rank as nested lists."""
    return [_nested(v) for v in value] if hasattr(value, "__len__") else value


def _show(value: Any) -> str:
    if isinstance(value, (np.floating, float)):
        return repr(float(value))
    if isinstance(value, Fraction):
        return f"{float(value)!r}"
    return repr(value.item() if isinstance(value, np.generic) else value)


@cache
def codec_for(t: ScalarType | ArrayType | StreamType) -> Codec:
    """The codec of a scalar type, of an array (its element's, with the shape) or of a stream's items."""
    if isinstance(t, ArrayType):
        return replace(codec_for(t.elem), shape=t.shape)
    if isinstance(t, StreamType):
        return codec_for(t.elem)
    if isinstance(t, StructType):
        return struct_codec(t)
    if not isinstance(t, ScalarType):
        raise TypeError(f"no boundary codec for {t}")
    if isinstance(t, IntType):
        kind = "int" if ctype_of(t).kind == "native" else "ap_int"
    elif type(t) in _KINDS:
        kind = _KINDS[type(t)]
    else:
        raise TypeError(f"no boundary codec for {t}")
    return Codec(t, (), kind, t.storage_dtype, storage_ctype(t), ctype_of(t).spelling, _dat_type(t),
                 exact=not isinstance(t, FloatType), unsupported=_unsupported(t))


_KINDS = {FixedType: "fixed", FloatType: "float", BoolType: "bool"}


def _dat_type(t: ScalarType) -> str:
    """The C type a `.dat` line parses into: a superset of every value of `t`."""
    if isinstance(t, IntType):
        return "int64_t" if t.signed else "uint64_t"
    if isinstance(t, BoolType):
        return "int64_t"
    if isinstance(t, FloatType):
        return "float" if t.bits == 32 else "double"
    return "double"


def _unsupported(t: ScalarType) -> str | None:
    if isinstance(t, IntType) and t.width > MAX_INT_BITS:
        return f"is wider than {MAX_INT_BITS} bits; csim and testbench ports support up to 64-bit integers"
    if isinstance(t, FixedType) and t.width > MAX_FIXED_BITS:
        return f"is wider than {MAX_FIXED_BITS} bits and cannot travel exactly as float64 at the csim boundary"
    return None


def struct_codec(t: StructType) -> Codec:
    """A struct as the composite of its field codecs: numpy stores it as a structured array of the
    fields' storage (`align=True`, laid out as the C storage struct `hls_storage_<T>` the bridge
    declares), the bridge converts field by field (`hls_in_<T>`, `hls_out_<T>`: `declarations`)."""
    fields = tuple((n, codec_for(ft)) for n, ft in t.fields)
    unsupported = next((f"has a field {n!r} that {f.unsupported}" for n, f in fields if f.unsupported), None)
    exact = all(f.exact for _, f in fields)
    return Codec(t, (), "struct", t.storage_dtype, f"hls_storage_{t.name}", spelling(t), "", exact, unsupported, fields)


def storage_declaration(codec: Codec) -> str:
    """The C storage struct of a struct codec (valid C for cffi's cdef and C++ for the bridge)."""
    members = "".join(f" {f.storage} {member(codec.elem, n)}{''.join(f'[{d}]' for d in f.shape)};"
                      for n, f in codec.fields)
    return f"typedef struct {codec.storage} {{{members} }} {codec.storage};"


def declarations(codecs: list[Codec]) -> tuple[list[str], list[str]]:
    """(storage structs for cffi and the bridge, the bridge's conversion functions) of the struct
    codecs among `codecs`, each once."""
    structs = list(dict.fromkeys(replace(c, shape=()) for c in codecs if c.kind == "struct"))
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
