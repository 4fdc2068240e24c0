"""Entry points: a kernel (and the kernels it calls) -> an IR Module plus golden-model facts."""

from __future__ import annotations

from typing import Any

from hls.errors import HLSTypeError
from hls.frontend.builder import FunctionBuilder, GoldenInfo
from hls.frontend.source import KernelSource, parse_kernel
from hls.ir import Function, Module


def build_function(kernel: Any, module: Module, compiling: tuple[Any, ...] = ()) -> Function:
    """Build `kernel` into `module` once (callees are added before their callers)."""
    func = kernel.__hls_kernel__
    src = parse_kernel(func, getattr(kernel, "__hls_enclosing__", None))
    existing = module.functions.get(src.tree.name)
    if existing is not None:
        if existing.attrs.get("py_func") is not func:
            raise HLSTypeError(f"two different kernels are named {src.tree.name!r}; rename one", src.loc(src.tree))
        return existing
    builder = FunctionBuilder(src, module, (*compiling, func))
    result = builder.build()
    result.attrs["py_func"] = func
    module.add(result)
    return result


def build_module(kernel: Any) -> tuple[Module, GoldenInfo, KernelSource]:
    """The top kernel's module, the facts its golden model needs, and its parsed source."""
    func = kernel.__hls_kernel__
    src = parse_kernel(func, getattr(kernel, "__hls_enclosing__", None))
    module = Module(src.tree.name)
    builder = FunctionBuilder(src, module, (func,))
    result = builder.build()
    result.attrs["py_func"] = func
    module.add(result)
    return module, builder.info, src
