"""Entry points: a kernel (and the kernels it calls) -> an IR Module plus golden-model facts."""

from __future__ import annotations

import ast
import re
import weakref
from typing import Any

from hls.errors import HLSTypeError
from hls.frontend.builder import FunctionBuilder, GoldenInfo
from hls.frontend.source import KernelSource, parse_kernel
from hls.ir import Function, Module
from hls.types import HLSType

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# which Kernel object each IR function of a module was built from: a frontend fact, kept out of the IR
_BUILT: weakref.WeakKeyDictionary[Module, dict[int, Function]] = weakref.WeakKeyDictionary()


def _record(module: Module, kernel: Any, func: Function) -> None:
    _BUILT.setdefault(module, {})[id(kernel)] = func
    module.add(func)


def build_function(kernel: Any, module: Module, compiling: tuple[Any, ...] = ()) -> Function:
    """Build `kernel` into `module` once (callees are added before their callers)."""
    func = kernel.__hls_kernel__
    existing = _BUILT.get(module, {}).get(id(kernel))  # the Kernel, not the function: specializations share it
    if existing is not None:
        return existing
    src = _source(kernel)
    src.name = unique_name(src, module)
    builder = FunctionBuilder(src, module, (*compiling, func))
    result = builder.build()
    _record(module, kernel, result)
    return result


def build_module(kernel: Any) -> tuple[Module, GoldenInfo, KernelSource]:
    """The top kernel's module, the facts its golden model needs, and its parsed source."""
    func = kernel.__hls_kernel__
    src = _source(kernel)
    module = Module(src.name)
    builder = FunctionBuilder(src, module, (func,))
    result = builder.build()
    _record(module, kernel, result)
    return module, builder.info, src


def _source(kernel: Any) -> KernelSource:
    src = parse_kernel(kernel.__hls_kernel__, getattr(kernel, "__hls_enclosing__", None))
    if getattr(kernel, "__hls_params__", None):
        src.annotations = {}  # Python evaluated them with the values specialize() replaces
    chosen = getattr(kernel, "__name__", src.tree.name)  # `k.__name__ = "adder_w8"` names the C++ function
    if not isinstance(chosen, str) or not _IDENT.match(chosen):
        raise HLSTypeError(f"kernel name {chosen!r} is not a C++ identifier; set __name__ to a plain name",
                           src.loc(src.tree))
    src.name = chosen
    return src


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
