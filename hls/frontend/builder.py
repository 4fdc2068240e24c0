"""The frontend visitor: one `visit_<AstClass>` per supported Python construct, producing typed IR.

`FunctionBuilder` is composed of one mixin per kind of construct (each in its own module, each
importing only hls.frontend.base); this module is the only one that imports them all. Alongside
the IR the builder records, per AST node, the `Conversion` records Python mode applies
(hls.frontend.conversions, hls.golden.rewrite).
"""

from __future__ import annotations

import ast
from typing import Any

from hls.errors import HLSError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.bits import Bits
from hls.frontend.branches import Branches
from hls.frontend.calls import Calls
from hls.frontend.captures import Captures
from hls.frontend.control import Control
from hls.frontend.dataflow import Dataflows
from hls.frontend.expressions import Expressions
from hls.frontend.iterables import Iterables
from hls.frontend.joins import MAX_ROUNDS, clamped, growth_error, iterations, settle
from hls.frontend.kernels import kernel_source, unique_name
from hls.frontend.loops import Loops
from hls.frontend.pragmas import Pragmas
from hls.frontend.results import Results
from hls.frontend.scan import RESULT, always_returns, has_early_return
from hls.frontend.source import MISSING
from hls.frontend.state import Var
from hls.frontend.statements import Statements
from hls.frontend.streams import Streams
from hls.frontend.structs import Structs
from hls.ir import Function, ReturnOp
from hls.types import ArrayType, HLSType, ScalarType, StreamType, StructType


class FunctionBuilder(Statements, Expressions, Arrays, Bits, Calls, Results, Captures, Control, Branches, Loops,
                      Iterables, Streams, Structs, Dataflows, Pragmas):
    """Builds one Function from one kernel's AST."""

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
            pins = {n: settle(n, e) for n, e in self.entries.items() if n not in self.declared}
            growing = [n for n, t in pins.items() if not self.used.get(n, {t}) <= {t}]
            regrown |= set(growing) if attempt else set()
            if error is not None and (not growing or pins == previous):
                raise error
            bounds = {n: iterations(self.entries[n]) or MAX_ROUNDS for n in growing}
            # widths stop at 1024 bits, so a join that grew there may have stopped without holding the values
            hopeless = [n for n in regrown if clamped({n: pins[n]})]
            if not hopeless and error is None and all(b <= attempt for b in bounds.values()):
                return func
            hopeless += [n for n in growing if bounds[n] >= MAX_ROUNDS - 1 and attempt >= 2]
            if hopeless or attempt == MAX_ROUNDS - 1:
                name = (hopeless or growing)[0]
                raise error or growth_error(name, self.entries[name])
            previous = pins
            type(self).__init__(self, self.src, self.module, self.compiling, self.built)
            self.pinned = pins
        raise AssertionError("unreachable")

    def build_once(self) -> Function:
        tree = self.src.tree
        types, names, ret = self.signature(tree)
        self.func = Function(self.src.name, types, names, ret, self.src.loc(tree))
        self.facts.traced = any(isinstance(t, StreamType) for t in types)
        if self.result_name is not None:
            self.func.attrs["result_array"] = self.result_name
        self.block = self.func.body.block
        for arg, t, name in zip(self.func.args, types, names, strict=True):
            if isinstance(t, StructType):
                self.struct_bind_argument(name, arg)
            elif name != self.result_name:
                self.env[name] = Var(arg, t, is_array=isinstance(t, ArrayType))
                if isinstance(t, ScalarType):
                    self.declared[name] = t  # an argument keeps its annotated type when reassigned
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        if ret is not None and not always_returns(body):
            raise self.error(f"kernel declares a return type {ret} but does not end with `return`", tree)
        region = self.region_start(body)
        if region is not None:
            self.build_region(body, region)
        elif has_early_return(body):
            self.refuse_early_return(ret, body)
            self.start_function()
            self.visit_body(body)
            self.emit(ReturnOp([self.env[RESULT].value] if ret is not None else [], self.loc))
            return self.func
        else:
            for stmt in body:
                self.visit(stmt)
        if not (self.block.ops and isinstance(self.block.ops[-1], ReturnOp)):
            self.emit(ReturnOp([], self.loc))
        return self.func

    def signature(self, tree: ast.FunctionDef) -> tuple[list[HLSType], list[str], HLSType | None]:
        """The IR function's argument types and names (an array result is one more argument) and result."""
        self.check_signature(tree.args)
        types, names = [], []
        for arg in tree.args.args:
            if arg.annotation is None:
                raise self.error(f"argument {arg.arg!r} needs a type annotation, e.g. `{arg.arg}: hls.int32` "
                                 "or `hls.float32[64]`", arg)
            types.append(self.annotation(arg.annotation, f"argument {arg.arg!r}", allow_array=True,
                                         resolved=self.src.annotations.get(arg.arg, MISSING)))
            names.append(arg.arg)
        ret = None
        if tree.returns is not None and not (isinstance(tree.returns, ast.Constant) and tree.returns.value is None):
            ret = self.return_annotation(tree.returns, self.src.annotations.get("return", MISSING))
        self.facts.arg_types, self.facts.arg_names, self.facts.return_type = list(types), list(names), ret
        if isinstance(ret, ArrayType):  # the returned local is an output argument (hls.frontend.results)
            self.result_name = self.returned_array_name(tree)
            types, names = [*types, ret], [*names, self.result_name]
        return types, names, ret

    def check_signature(self, args: ast.arguments) -> None:
        if args.vararg or args.kwarg:
            node = args.vararg or args.kwarg
            raise self.error("`*args`/`**kwargs` are not supported: every argument needs a fixed type", node,
                             UnsupportedError)
        if args.kwonlyargs or args.posonlyargs:
            raise self.error("keyword-only and positional-only arguments are not supported", self.src.tree,
                             UnsupportedError)
        if args.defaults:
            raise self.error("default argument values are not supported", args.defaults[0], UnsupportedError)

    def build_callee(self, kernel: Any) -> Function:
        """`kernel`'s Function in this module, built once (callees are added before their callers)."""
        existing = self.built.get(kernel)  # the Kernel, not the function: specializations share it
        if existing is not None:
            return existing
        src = kernel_source(kernel)
        src.name = unique_name(src, self.module)
        result = type(self)(src, self.module, (*self.compiling, kernel.__hls_kernel__), self.built).build()
        self.built[kernel] = result
        self.module.add(result)
        return result
