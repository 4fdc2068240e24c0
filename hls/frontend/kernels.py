"""Kernel objects as the frontend sees them: parsed source, and a C++ name unique in the module."""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Any

from hls.errors import HLSTypeError
from hls.frontend.source import KernelSource, parse_kernel
from hls.ir import Module
from hls.lang.structs import struct
from hls.types import ArrayType, HLSType, ScalarType, struct_type_of

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def kernel_source(kernel: Any) -> KernelSource:
    src = parse_kernel(kernel.__hls_kernel__, getattr(kernel, "__hls_enclosing__", None))
    for name in _names_used(src.tree):
        adopt_dataclass(src.namespace.get(name))
    if getattr(kernel, "__hls_params__", None):
        src.annotations = {}  # Python evaluated them with the values specialize() replaces
    chosen = getattr(kernel, "__name__", src.tree.name)  # `k.__name__ = "adder_w8"` names the C++ function
    if not isinstance(chosen, str) or not _IDENT.match(chosen):
        raise HLSTypeError(f"kernel name {chosen!r} is not a C++ identifier; set __name__ to a plain name",
                           src.loc(src.tree))
    src.name = chosen
    src.is_task = bool(getattr(kernel, "is_task", False))
    rewrite = getattr(kernel, "rewrite_source", None)  # hls.customize: a schedule's dataflow, inline, stream depth
    if rewrite is not None:
        rewrite(src)
    return src


def adopt_dataclass(value: Any) -> None:
    """A plain `@dataclass` whose annotated fields are all hls types is taken where `@hls.struct` was meant
    (ports from Vitis carry a C struct as a dataclass): the class becomes that hls struct, in place, as the
    decorator would have made it, so Python mode converts its field assignments as the C++ does."""
    if not (isinstance(value, type) and dataclasses.is_dataclass(value)) or struct_type_of(value) is not None:
        return
    annotations = value.__dict__.get("__annotations__", {})
    if annotations and all(isinstance(a, (ScalarType, ArrayType)) for a in annotations.values()):
        for generated in ("__init__", "__repr__", "__eq__"):  # dataclass keeps methods a class defines
            if generated in value.__dict__:
                delattr(value, generated)
        struct(value)


def unique_name(src: KernelSource, module: Module) -> str:
    """A name no other kernel in `module` has: the kernel's own, else specialised by its factory values.

    Two instances of one factory (`make_adder(8, 2)`, `make_adder(16, 1)`) differ only in the
    enclosing values they use, so those values, in order of first use, make the name readable and
    deterministic (`adder_8_2`); a numeric suffix settles what still collides.
    """
    taken = set(module.functions) | {module.top}
    if src.name not in taken:
        return src.name
    parts = [spell_value(src.enclosing[n]) for n in _names_used(src.tree) if n in src.enclosing]
    base = "_".join([src.name, *[p for p in parts if p]])
    name, count = base, 2
    while name in taken:
        name, count = f"{base}_{count}", count + 1
    return name


def names_used(func: Any) -> set[str]:
    """Every name a kernel's source mentions (annotations, body, directive options)."""
    return set(_names_used(parse_kernel(func, {}).tree))


def _names_used(tree: ast.AST) -> list[str]:
    """Names in source order of first appearance (signature first, then the body)."""
    names = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in names))


def spell_value(value: Any) -> str:
    """A factory value as an identifier fragment; values that do not spell well are left out."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value) if value >= 0 else f"m{-value}"
    if isinstance(value, HLSType):
        return re.sub(r"[^A-Za-z0-9]+", "_", str(value)).strip("_")
    return ""
