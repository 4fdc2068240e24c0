"""Text builder for the MLIR export: SSA names from Python variables, scoped constants, attributes.

Ops are kept as lines with a separate attribute dict, so a rule can attach an attribute (the
fixed-point format, a directive) to the op that defines a value after emitting it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from hls.errors import UnsupportedError
from hls.ir.core import Op, Value
from hls.lang.directives import Directive
from hls.types import ArrayType, BoolType, FixedType, FloatType, HLSType, IntType, StreamType

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_SSA = re.compile(r"%[A-Za-z0-9_$.]+")


def mlir_type(t: HLSType) -> str:
    """iW for integers and fixed point (the raw mantissa), i1 for bool, f32/f64, memref for arrays."""
    if isinstance(t, (IntType, FixedType)):
        return f"i{t.width}"
    if isinstance(t, BoolType):
        return "i1"
    if isinstance(t, FloatType):
        return f"f{t.bits}"
    if isinstance(t, ArrayType):
        return f"memref<{'x'.join(map(str, t.shape))}x{mlir_type(t.elem)}>"
    if isinstance(t, StreamType):  # a FIFO's storage; its operations are calls (hls/backend/mlir/streams.py)
        return f"memref<?x{mlir_type(t.elem)}>"
    raise UnsupportedError(f"the MLIR export has no type for {t}")


def unsupported(op: Op, what: str) -> UnsupportedError:
    """The error for an op (or a type of it) the MLIR export has no spelling for, at the op's line."""
    return UnsupportedError(f"the MLIR export cannot express {op.name} ({what})", op.loc)


def fixed_attr(t: FixedType) -> dict[str, Any]:
    """The scaling and modes of an ap_fixed value carried as a plain iW (value = raw * 2**-frac_bits)."""
    return {"frac_bits": t.frac_bits, "int_bits": t.int_bits, "signed": t.signed, "quant": t.quant,
            "overflow": t.overflow, "sat_bits": t.sat_bits}


def signed_bits(value: int, width: int) -> int:
    """The two's-complement reading of the low `width` bits: how an iW literal is written (i1: 0 or -1)."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def elem_attrs(t: HLSType) -> dict[str, Any]:
    """Attributes a value of type t carries: the fixed-point format of it or of its elements."""
    elem = t.elem if isinstance(t, ArrayType) else t
    return {"hls.fixed": fixed_attr(elem)} if isinstance(elem, FixedType) else {}


def attr_text(value: Any) -> str:
    """A Python value as an MLIR attribute (dicts sorted by key, ints as i64, None entries dropped)."""
    if isinstance(value, Directive):
        value = value.options()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value} : i64"
    if isinstance(value, float):
        text = float_text(value)
        if text is None:
            raise UnsupportedError(f"an attribute value of {value} has no MLIR spelling")
        return f"{text} : f64"
    if isinstance(value, Fraction):
        return f'"{value}"'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        shown = sorted((k, v) for k, v in value.items() if v is not None and v is not False)  # False: the default
        return "{" + ", ".join(f"{k} = {attr_text(v)}" for k, v in shown) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(attr_text(v) for v in value) + "]"
    raise TypeError(f"no MLIR attribute for {value!r}")


def float_text(value: float) -> str | None:
    """A decimal float literal MLIR reads back exactly (repr with a '.'); None for inf/NaN, which have none."""
    text = repr(float(value))
    if text in ("inf", "-inf", "nan"):
        return None
    if "e" in text and "." not in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}.0e{exp}"
    return text


def dict_text(attrs: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k} = {attr_text(v)}" for k, v in attrs.items()) + "}"


@dataclass
class Line:
    depth: int
    head: str
    tail: str = ""
    attrs: dict[str, Any] = field(default_factory=dict)
    attrs_at: int | None = None  # where the attribute dict goes in `head` (default: after it)

    def render(self) -> str:
        if not self.attrs:
            return "  " * self.depth + self.head + self.tail
        at = len(self.head) if self.attrs_at is None else self.attrs_at
        return "  " * self.depth + self.head[:at] + f" {dict_text(self.attrs)}" + self.head[at:] + self.tail


class Builder:
    """Lines of one module; names unique per function; constants reused within their region."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.depth = 0
        self.used: set[str] = set()
        self.defs: dict[str, Line] = {}
        self.int_values: dict[str, int] = {}  # integer constants by SSA name (signed reading), for folding
        self.scopes: list[dict[Any, str]] = [{}]

    # ---- names and scopes ----------------------------------------------------------------------

    def fresh(self, hint: str | None) -> str:
        base = hint if hint and _NAME.fullmatch(hint) else "v"
        name, n = base, 0
        while name in self.used:
            n += 1
            name = f"{base}_{n}"
        self.used.add(name)
        return f"%{name}"

    def start_function(self) -> None:
        self.used = set()
        self.scopes = [{}]

    def push(self) -> None:
        self.scopes.append({})

    def pop(self) -> None:
        self.scopes.pop()

    def cached(self, key: Any) -> str | None:
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        return None

    def remember(self, key: Any, name: str) -> str:
        self.scopes[-1][key] = name
        return name

    # ---- lines ---------------------------------------------------------------------------------

    def line(self, head: str, tail: str = "", attrs: dict[str, Any] | None = None) -> Line:
        entry = Line(self.depth, head, tail, dict(attrs or {}))
        self.lines.append(entry)
        return entry

    def op(self, name: str, operands: str, type_: str, hint: str | None = None, attrs: dict | None = None) -> str:
        """`%r = name operands : type`; returns %r."""
        result = self.fresh(hint)
        line = self.defs[result] = self.line(f"{result} = {name} {operands}".rstrip(), f" : {type_}", attrs)
        if name == "arith.constant":  # its syntax is `arith.constant attr-dict value : type`
            line.attrs_at = len(f"{result} = {name}")
        return result

    def cast(self, name: str, v: str, src: str, dst: str, hint: str | None = None) -> str:
        """`%r = name %v : src to dst` (the arith conversions)."""
        result = self.fresh(hint)
        self.defs[result] = self.line(f"{result} = {name} {v}", f" : {src} to {dst}")
        return result

    def annotate(self, value: str, attrs: dict[str, Any]) -> None:
        """Attach attributes to the op that defined `value` (no-op for block arguments)."""
        if attrs and value in self.defs:
            self.defs[value].attrs.update(attrs)

    # ---- constants -----------------------------------------------------------------------------

    def int_const(self, value: int, width: int) -> str:
        """An iW constant; the literal is the signed reading of the W-bit pattern (valid for any W)."""
        value = signed_bits(value, width)
        key = ("int", value, width)
        found = self.cached(key)
        if found is not None:
            return found
        if width == 1:  # MLIR spells an i1 constant `true`/`false`, without a type
            name = self.fresh("true" if value else "false")
            self.defs[name] = self.line(f"{name} = arith.constant {'true' if value else 'false'}")
            self.defs[name].attrs_at = len(f"{name} = arith.constant")
        else:
            name = self.op("arith.constant", str(value), f"i{width}", f"c{value}_i{width}".replace("-", "m"))
        self.int_values[name] = value
        return self.remember(key, name)

    def index_const(self, value: int) -> str:
        key = ("index", value)
        found = self.cached(key)
        if found is not None:
            return found
        return self.remember(key, self.op("arith.constant", str(value), "index", f"c{value}".replace("-", "m")))

    def float_const(self, value: float, bits: int, hint: str | None = None) -> str:
        import numpy as np

        key = ("float", repr(float(value)), bits)
        found = self.cached(key)
        if found is not None:
            return found
        literal = float_text(value)
        if literal is None:  # inf/NaN: MLIR takes the bit pattern as a hex integer
            dtype, itype = (np.float32, np.uint32) if bits == 32 else (np.float64, np.uint64)
            literal = hex(int(np.array(value, dtype=dtype).view(itype)))
        return self.remember(key, self.op("arith.constant", literal, f"f{bits}", hint or "cst"))

    def render(self) -> str:
        """The text, without constants that folding left unused."""
        used: set[str] = set()
        for line in self.lines:
            used.update(_SSA.findall(line.head.partition(" = ")[2] if " = " in line.head else line.head))
        dead = {id(line) for name, line in self.defs.items()
                if name not in used and line.head.startswith(f"{name} = arith.constant")}
        return "\n".join(line.render() for line in self.lines if id(line) not in dead) + "\n"


class Emitter(Protocol):
    """What the loop, while, stream, linalg, reduction and select rules use of the function
    emitter in emit.py that calls them, so they depend on this and not on it."""

    b: Builder
    values: dict[int, str]  # SSA name of each IR value, by id
    ivs: dict[int, str]  # loop induction variables as `index`

    def operand(self, v: Value) -> str: ...

    def index(self, v: Value) -> str: ...

    def op(self, op: Op) -> None: ...

    def terminator(self, name: str, values: list[Value]) -> None: ...
