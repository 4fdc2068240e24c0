"""C++ identifiers from Python names: never a keyword, a reserved name, or a clash (PITFALLS, security)."""

from __future__ import annotations

import functools
import re

from hls.types import StructType

CPP_KEYWORDS = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
while xor xor_eq
""".split())
# macros and names the included headers or the C library define, and names the generator itself uses
RESERVED = frozenset("""
NULL EOF errno std main assert offsetof stdin stdout stderr INFINITY NAN ap_int ap_uint ap_fixed ap_ufixed
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t abs min max sqrt exp log sin cos
tanh floor ceil fabs pow hls
""".split())
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_valid_identifier(name: str) -> bool:
    return bool(_IDENT.fullmatch(name)) and name.isascii()


def sanitize(name: str) -> str:
    """A safe base name: ASCII identifier, no `__`, no leading `_`, not a keyword, no generator prefix."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", name) if name else "v"
    text = re.sub(r"_+", "_", text).strip("_") or "v"
    if text[0].isdigit():
        text = "v" + text
    if text in CPP_KEYWORDS or text in RESERVED or text.startswith(("ap_", "hls_", "AP_", "HLS_")):
        text += "_v"
    return text


class Namer:
    """Unique names in one C++ scope, derived from Python names with _N suffixes."""

    def __init__(self, taken: set[str] | None = None):
        self.used: set[str] = set(taken or ())

    def fresh(self, hint: str | None) -> str:
        base = sanitize(hint or "v")
        name, n = base, 1
        while name in self.used:
            name = f"{base}_{n}"
            n += 1
        self.used.add(name)
        return name


@functools.cache
def member_names(t: StructType) -> dict[str, str]:
    """Python field name -> C++ member name of a struct type: the field's own name unless C++ cannot
    use it (`new`, `delete`, `int`, a reserved name), then `sanitize`'s `_v` form (`new_v`), kept unique.
    The header, the kernel, the csim bridge and the testbench all spell members through this."""
    used: set[str] = set()
    out = {}
    for name, _ in t.fields:
        plain = is_valid_identifier(name) and "__" not in name and not name.startswith("_")
        base = name if plain and name not in CPP_KEYWORDS and name not in RESERVED else sanitize(name)
        member, n = base, 1
        while member in used:
            member, n = f"{base}_{n}", n + 1
        used.add(member)
        out[name] = member
    return out


def member(t: StructType, name: str) -> str:
    """The C++ member of field `name` of struct type `t` (see member_names)."""
    return member_names(t)[name]
