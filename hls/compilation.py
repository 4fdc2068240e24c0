"""The first step of a kernel's journey: its Python source compiled, once, into one `Compiled` value.

The frontend builds the IR once; everything the later steps read is derived from that build: the
optimised module (estimate, MLIR), the C++ design, the golden Python function, the unoptimised IR
the numpy and compiled golden models run and, from it, their plans. Nothing here runs a kernel.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from hls.backend.cpp.render import CppDesign, emit_module
from hls.frontend.build import build_module
from hls.golden.jit import compile_module, worth_compiling
from hls.golden.jitrun import CompiledGolden
from hls.golden.rewrite import make_golden
from hls.golden.vplan import Plan, plan_kernel
from hls.ir import Module, print_module, verify_module
from hls.passes import UnrollLoopsPass, default_pipeline, run_passes
from hls.passes.clone import clone_module
from hls.types import ArrayType, HLSType, ScalarType, TupleType


@dataclass
class Compiled:
    """What compiling a kernel for one flow yields. The plans of the golden models are computed on
    first use (most kernels that are only emitted never need them) and kept with the value."""

    module: Module  # optimised: the estimate and the MLIR read it
    design: CppDesign
    golden: Any  # the user's function rewritten with the declared types' semantics (Python mode)
    golden_ir: Module  # unoptimised, so dead code still converts, wraps and raises (numpy and numba models)
    arg_types: list[HLSType]
    arg_names: list[str]
    return_type: ScalarType | TupleType | ArrayType | None
    ir_text: str
    callees: list[Any]
    origin: str = ""
    processes: bool = False  # the top is a dataflow region
    cpp_module: Module | None = None  # what the C++ is written from, when it differs from `module`
    task: bool = False  # the top is an @hls.task: free running, its body repeated while inputs come

    @cached_property
    def plan(self) -> Plan:
        """Which loops the numpy golden model runs as whole arrays, or why it cannot."""
        return plan_kernel(self.golden_ir)

    @cached_property
    def program(self) -> CompiledGolden:
        """The golden IR compiled by numba (hls/sim/jit.py); `.program.reason` says why it cannot be."""
        return CompiledGolden(compile_module(self.golden_ir))

    @cached_property
    def worth_compiling(self) -> bool:
        """Enough work in the kernel for the compiled golden model to pay for its compilation."""
        return worth_compiling(self.golden_ir)


def compile_kernel(kernel: Any, flow: str, state: Any) -> Compiled:
    """Build `kernel` (a Kernel: its function, enclosing names and parameters) for `flow`; `state`
    holds the golden model's hls.static values."""
    module, info, src = build_module(kernel)
    verify_module(module)
    golden_ir = clone_module(module)
    rewrite = getattr(kernel, "rewrite_ir", None)  # hls.customize: the schedule; the golden keeps the source IR
    if rewrite is not None:
        rewrite(module)
        verify_module(module)
    cpp_module = loops_kept(module)
    run_passes(module)
    verify_module(module)
    ir_text = print_module(module)
    origin = f"{os.path.basename(src.file)}:{src.tree.lineno}"
    design = emit_module(cpp_module or module, origin, flow)
    golden = make_golden(src, info, state)
    return Compiled(module, design, golden, golden_ir, info.arg_types, info.arg_names, info.return_type, ir_text,
                    info.callees, origin, bool(info.processes), cpp_module,
                    bool(module.top_function.attrs.get("task")))


def for_flow(compiled: Compiled, flow: str) -> Compiled:
    """The same kernel with the C++ of another flow (its interface pragmas); the IR is shared."""
    return replace(compiled, design=emit_module(compiled.cpp_module or compiled.module, compiled.origin, flow))


def loops_kept(module: Module) -> Module | None:
    """The module the C++ is written from when a loop carries `hls.unroll()`: a copy optimised without
    the unroll pass, so the loop stays a loop with `#pragma HLS unroll` as the user wrote it. The
    estimate, the MLIR and the golden model keep the unrolled module (`Compiled.module`), so the
    estimate never reads the C++. None when no loop asks for an unroll (one module serves both)."""
    if not any(getattr(op, "unroll", None) is not None and not op.unroll.off
               for func in module.functions.values() for op in func.walk()):
        return None
    kept = clone_module(module)
    run_passes(kept, [p for p in default_pipeline() if not isinstance(p, UnrollLoopsPass)])
    verify_module(kept)
    return kept
