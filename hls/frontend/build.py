"""Entry point: a kernel (and the kernels it calls) -> an IR Module plus what Python mode needs."""

from __future__ import annotations

from typing import Any

from hls.frontend.builder import FunctionBuilder
from hls.frontend.conversions import KernelFacts
from hls.frontend.kernels import kernel_source, names_used, spell_value
from hls.frontend.source import KernelSource
from hls.ir import Module

__all__ = ["build_module", "names_used", "spell_value"]


def build_module(kernel: Any) -> tuple[Module, KernelFacts, KernelSource]:
    """The top kernel's module, the facts its golden model needs, and its parsed source."""
    src = kernel_source(kernel)
    module = Module(src.name)
    builder = FunctionBuilder(src, module, (kernel.__hls_kernel__,), {})
    result = builder.build()
    builder.built[kernel] = result
    module.add(result)
    return module, builder.facts, src
