"""The frontend's composer: one `FunctionBuilder` per function, holding the shared `BuildContext` and
one object per construct family, each constructed with the earlier families it calls.

The families' order (docs/architecture.md, "The frontend"; tests/test_architecture.py checks it) is the
order of construction below: a family's constructor can only be given families built before it. The
two rules a lower family needs from a higher one are callbacks of this class: `pack_struct` (a struct
argument of a sub-kernel call or a struct written to a FIFO, lowered by `Structs`) and `build_callee`.
Alongside the IR the families record, per AST node, the `Conversion` records Python mode applies
(hls.frontend.conversions, hls.golden.rewrite).
"""

from __future__ import annotations

import ast
from typing import Any

from hls.errors import HLSError, UnsupportedError
from hls.frontend.arrayexpr import Elements
from hls.frontend.arrays import Arrays
from hls.frontend.arraystmts import ArrayStatements
from hls.frontend.base import BuildContext, Family
from hls.frontend.bits import Bits
from hls.frontend.branches import Branches
from hls.frontend.calls import Calls
from hls.frontend.captures import Captures
from hls.frontend.control import Control
from hls.frontend.dataflow import Dataflows
from hls.frontend.expressions import Expressions
from hls.frontend.helpers import Helpers
from hls.frontend.iterables import Iterables
from hls.frontend.joins import MAX_ROUNDS, clamped, growth_error, iterations, settle
from hls.frontend.kernels import kernel_source, unique_name
from hls.frontend.loops import Loops
from hls.frontend.names import Names
from hls.frontend.pragmas import Pragmas
from hls.frontend.results import Results
from hls.frontend.scan import RESULT, always_returns, has_early_return
from hls.frontend.source import MISSING, KernelSource
from hls.frontend.state import Var
from hls.frontend.statements import Statements
from hls.frontend.streams import Streams
from hls.frontend.structs import Structs
from hls.frontend.subkernels import KernelCalls
from hls.frontend.tasks import check_task_reads, check_task_signature, refuse_task_region
from hls.ir import Function, Module, ReturnOp, Value
from hls.types import ArrayType, HLSType, ScalarType, StreamType, StructType


class FunctionBuilder:
    """Builds one Function from one kernel's AST: the families below, in their order, sharing one context."""

    def __init__(self, src: KernelSource, module: Module, compiling: tuple[Any, ...],
                 built: dict[Any, Function] | None = None):
        self.ctx = ctx = BuildContext(src, module, compiling, built)
        self.helpers = Helpers(ctx)
        self.captures = Captures(ctx)
        self.pragmas = Pragmas(ctx, self.captures)
        self.names = Names(ctx)
        self.exprs = Expressions(ctx, self.captures, self.names)
        self.arrays = Arrays(ctx)
        self.streams = Streams(ctx, self.arrays, self.pack_struct)
        self.kernel_calls = KernelCalls(ctx, self.arrays, self.streams, self.pack_struct, self.build_callee)
        self.structs = Structs(ctx, self.exprs, self.arrays, self.streams, self.kernel_calls)
        self.bits = Bits(ctx, self.names, self.exprs, self.arrays, self.structs)
        self.calls = Calls(ctx, self.helpers, self.exprs, self.streams, self.kernel_calls, self.bits)
        self.results = Results(ctx, self.names, self.arrays, self.kernel_calls, self.structs)
        self.branches = Branches(ctx, self.exprs)
        self.control = Control(ctx, self.exprs, self.branches)
        self.for_loops = Loops(ctx, self.branches, self.control)
        self.iterables = Iterables(ctx, self.captures, self.branches, self.control, self.for_loops)
        self.dataflow = Dataflows(ctx, self.arrays, self.streams)
        self.elements = Elements(ctx)
        self.array_stmts = ArrayStatements(ctx, self.pragmas, self.names, self.arrays, self.results, self.elements)
        self.statements = Statements(ctx, self.pragmas, self.names, self.exprs, self.arrays, self.streams,
                                     self.kernel_calls, self.structs, self.bits, self.calls, self.results,
                                     self.control, self.array_stmts)
        for family in vars(self).values():
            if isinstance(family, Family):
                ctx.register(family)

    @property
    def facts(self) -> Any:
        return self.ctx.facts

    @property
    def built(self) -> dict[Any, Function]:
        return self.ctx.built

    def pack_struct(self, node: ast.AST, t: StructType, what: str) -> Value:
        """The callback the stream and sub-kernel families get for a whole struct operand."""
        return self.structs.struct_packed(node, t, what)

    def build(self) -> Function:
        """Build until the types of the undeclared locals settle (hls.frontend.joins): each build pins the
        joins the previous one found. An error in a build whose types had not settled yet may come from
        those types (a float assigned to a local an earlier `0` made int32), so only a settled build's
        errors are reported."""
        previous: dict[str, ScalarType] = {}
        regrown: set[str] = set()  # names whose join grew again after the first rebuild
        for attempt in range(MAX_ROUNDS):
            error: HLSError | None = None
            try:
                func = self.build_once()
            except HLSError as exc:
                error = exc
            pins = {n: settle(n, e) for n, e in self.ctx.entries.items() if n not in self.ctx.declared}
            growing = [n for n, t in pins.items() if not self.ctx.used.get(n, {t}) <= {t}]
            regrown |= set(growing) if attempt else set()
            if error is not None and (not growing or pins == previous):
                raise error
            bounds = {n: iterations(self.ctx.entries[n]) or MAX_ROUNDS for n in growing}
            # widths stop at 1024 bits, so a join that grew there may have stopped without holding the values
            hopeless = [n for n in regrown if clamped({n: pins[n]})]
            if not hopeless and error is None and all(b <= attempt for b in bounds.values()):
                return func
            hopeless += [n for n in growing if bounds[n] >= MAX_ROUNDS - 1 and attempt >= 2]
            if hopeless or attempt == MAX_ROUNDS - 1:
                name = (hopeless or growing)[0]
                raise error or growth_error(name, self.ctx.entries[name])
            previous = pins
            type(self).__init__(self, self.ctx.src, self.ctx.module, self.ctx.compiling, self.ctx.built)
            self.ctx.pinned = pins
        raise AssertionError("unreachable")

    def build_once(self) -> Function:
        tree = self.ctx.src.tree
        types, names, ret = self.signature(tree)
        if self.ctx.src.is_task:
            check_task_signature(self.ctx, tree, types, ret)
        self.ctx.func = Function(self.ctx.src.name, types, names, ret, self.ctx.src.loc(tree))
        if self.ctx.src.is_task:
            self.ctx.func.attrs["task"] = True
        self.ctx.facts.traced = any(isinstance(t, StreamType) for t in types)
        if self.ctx.result_name is not None:
            self.ctx.func.attrs["result_array"] = self.ctx.result_name
        self.ctx.block = self.ctx.func.body.block
        for arg, t, name in zip(self.ctx.func.args, types, names, strict=True):
            if isinstance(t, StructType):
                self.structs.struct_bind_argument(name, arg)
            elif name != self.ctx.result_name:
                self.ctx.env[name] = Var(arg, t, is_array=isinstance(t, ArrayType))
                if isinstance(t, ScalarType):
                    self.ctx.declared[name] = t  # an argument keeps its annotated type when reassigned
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        if ret is not None and not always_returns(body):
            raise self.ctx.error(f"kernel declares a return type {ret} but does not end with `return`", tree)
        region = self.dataflow.region_start(body)
        if region is not None and self.ctx.src.is_task:
            refuse_task_region(self.ctx, body[region])
        if region is not None:
            self.dataflow.build_region(body, region)
        elif has_early_return(body):
            self.results.refuse_early_return(ret, body)
            self.control.start_function()
            self.branches.visit_body(body)
            self.ctx.emit(ReturnOp([self.ctx.env[RESULT].value] if ret is not None else [], self.ctx.loc))
            return self.ctx.func
        else:
            for stmt in body:
                self.ctx.visit(stmt)
        if not (self.ctx.block.ops and isinstance(self.ctx.block.ops[-1], ReturnOp)):
            self.ctx.emit(ReturnOp([], self.ctx.loc))
        if self.ctx.src.is_task:
            check_task_reads(self.ctx, self.ctx.func)
        return self.ctx.func

    def signature(self, tree: ast.FunctionDef) -> tuple[list[HLSType], list[str], HLSType | None]:
        """The IR function's argument types and names (an array result is one more argument) and result."""
        self.check_signature(tree.args)
        types, names = [], []
        for arg in tree.args.args:
            if arg.annotation is None:
                raise self.ctx.error(f"argument {arg.arg!r} needs a type annotation, e.g. `{arg.arg}: hls.int32` "
                                     "or `hls.float32[64]`", arg)
            types.append(self.ctx.annotation(arg.annotation, f"argument {arg.arg!r}", allow_array=True,
                                             resolved=self.ctx.src.annotations.get(arg.arg, MISSING)))
            names.append(arg.arg)
        ret = None
        if tree.returns is not None and not (isinstance(tree.returns, ast.Constant) and tree.returns.value is None):
            ret = self.results.return_annotation(tree.returns, self.ctx.src.annotations.get("return", MISSING))
        self.ctx.facts.arg_types, self.ctx.facts.arg_names, self.ctx.facts.return_type = list(types), list(names), ret
        if isinstance(ret, ArrayType):  # the returned local is an output argument (hls.frontend.results)
            self.ctx.result_name = self.results.returned_array_name(tree)
            types, names = [*types, ret], [*names, self.ctx.result_name]
        return types, names, ret

    def check_signature(self, args: ast.arguments) -> None:
        if args.vararg or args.kwarg:
            node = args.vararg or args.kwarg
            raise self.ctx.error("`*args`/`**kwargs` are not supported: every argument needs a fixed type", node,
                                 UnsupportedError)
        if args.kwonlyargs or args.posonlyargs:
            raise self.ctx.error("keyword-only and positional-only arguments are not supported", self.ctx.src.tree,
                                 UnsupportedError)
        if args.defaults:
            raise self.ctx.error("default argument values are not supported", args.defaults[0], UnsupportedError)

    def build_callee(self, kernel: Any) -> Function:
        """`kernel`'s Function in this module, built once (callees are added before their callers)."""
        existing = self.ctx.built.get(kernel)  # the Kernel, not the function: specializations share it
        if existing is not None:
            return existing
        src = kernel_source(kernel)
        src.name = unique_name(src, self.ctx.module)
        result = type(self)(src, self.ctx.module, (*self.ctx.compiling, kernel.__hls_kernel__), self.ctx.built).build()
        self.ctx.built[kernel] = result
        self.ctx.module.add(result)
        return result
