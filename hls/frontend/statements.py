"""Statements: assignments (plain, annotated, augmented, chained, unpacking), returns and expression
statements (directives, sub-kernel calls, stream methods, print)."""

from __future__ import annotations

import ast

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.arraystmts import ArrayStatements
from hls.frontend.base import BuildContext, Family, is_kernel
from hls.frontend.bits import Bits
from hls.frontend.calls import Calls
from hls.frontend.control import Control
from hls.frontend.conversions import Cast
from hls.frontend.expressions import Expressions
from hls.frontend.names import Names
from hls.frontend.pragmas import Pragmas
from hls.frontend.results import Results
from hls.frontend.source import MISSING, call_target
from hls.frontend.streams import Streams
from hls.frontend.structs import Structs
from hls.frontend.subkernels import KernelCalls
from hls.frontend.tables import BINOPS
from hls.ir import LoadOp, ReturnOp, Value
from hls.lang.directives import DIRECTIVES
from hls.types import ScalarType, StructType


class Statements(Family):
    """Assignments, returns and expression statements."""

    def __init__(self, ctx: BuildContext, pragmas: Pragmas, names: Names, exprs: Expressions, arrays: Arrays,
                 streams: Streams, kernel_calls: KernelCalls, structs: Structs, bits: Bits, calls: Calls,
                 results: Results, control: Control, array_stmts: ArrayStatements) -> None:
        super().__init__(ctx)
        self.pragmas = pragmas
        self.names = names
        self.exprs = exprs
        self.arrays = arrays
        self.streams = streams
        self.kernel_calls = kernel_calls
        self.structs = structs
        self.bits = bits
        self.calls = calls
        self.results = results
        self.control = control
        self.array_stmts = array_stmts

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Call):
            target = call_target(call.func, self.ctx.src)
            if target is not MISSING and DIRECTIVES.get(getattr(target, "__name__", None)) is target:
                if self.array_stmts.defer_directive(node, self.following(node)):
                    return  # it applies to the loops of the array statement after it
                self.pragmas.apply_directive(target.__name__, call)
                return
            if is_kernel(target):
                self.kernel_calls.call_kernel(target, call, want_result=False)
                return
            if self.streams.stream_method(call) is not None:
                self.streams.lower_method(call, statement=True)
                return
            if target is print:
                self.calls.lower_print(call)
                return
            if self.calls.helper_statement(call):
                return
            self.ctx.expr(call)  # unsupported calls raise their own, more specific error
        if isinstance(call, ast.Constant) and isinstance(call.value, str):
            return  # a string used as a comment
        if not isinstance(call, ast.Call):
            self.ctx.visit(call)  # unsupported expressions (yield, await, ...) raise their own error
        raise self.ctx.error("this expression statement has no effect in hardware; only directive and "
                             "sub-kernel calls may stand alone", node, UnsupportedError)

    def visit_With(self, node: ast.With) -> None:
        self.streams.lower_lock(node, lambda body: [self.ctx.visit(stmt) for stmt in body])

    def visit_Return(self, node: ast.Return) -> None:
        ret = self.ctx.func.return_type
        if node.value is None:
            if ret is not None:
                raise self.ctx.error(f"kernel must return a {ret}", node)
            if self.ctx.early_return:
                self.control.flag_return(None)
                return
            self.ctx.emit(ReturnOp([], self.ctx.loc))
            return
        if ret is None:
            raise self.ctx.error("kernel returns a value but has no return annotation (e.g. `-> hls.int32`)", node)
        if self.array_stmts.is_array_return(node):
            self.array_stmts.lower_return(node)
            return
        if self.array_stmts.has_reduction(node):
            self.array_stmts.lower_scalar(node)
            return
        if self.results.lower_result_return(node):
            return
        if isinstance(ret, StructType) and not self.ctx.early_return:
            self.ctx.emit(ReturnOp([self.structs.struct_packed(node.value, ret, "the return value")], self.ctx.loc))
            self.ctx.conversions.add(node, Cast(ret))
            return
        value = self.ctx.lower.assign(self.ctx.expr(node.value), ret, self.ctx.loc, "return value")
        self.ctx.conversions.add(node, Cast(ret))
        if self.ctx.early_return:
            self.control.flag_return(value)
            return
        self.ctx.emit(ReturnOp([value], self.ctx.loc))

    def following(self, node: ast.stmt) -> ast.stmt | None:
        """The statement after `node` in its body, past other directive statements (None at the end)."""
        for parent in ast.walk(self.ctx.src.tree):
            for name in ("body", "orelse"):
                stmts = getattr(parent, name, None)
                if isinstance(stmts, list) and node in stmts:
                    for after in stmts[stmts.index(node) + 1:]:
                        if not (isinstance(after, ast.Expr) and isinstance(after.value, ast.Call)
                                and call_target(after.value.func, self.ctx.src) in DIRECTIVES.values()):
                            return after
                    return None
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        if self.array_stmts.is_first_store(node):
            self.array_stmts.first_store(node)
            return
        if len(node.targets) == 1 and self.results.is_static_call(node.value):
            self.results.bind_static(node)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.arrays.is_zeros_call(node.value):
            self.results.bind_local_array(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.streams.is_stream_decl(node.value):
            self.streams.bind_local_stream(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and self.results.returns_array(node.value):
            self.results.assign_array_call(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and self.results.is_kernel_call(node.value):
            self.results.lower_unpack(node)  # `q, r = divmod_k(a, b)`
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)):
            results = self.streams.read_nb(node.targets[0], node.value)
            if results is not None:  # `ok, v = s.read_nb()`
                for element, value in zip(node.targets[0].elts, results, strict=True):
                    self.assign_target(element, value, element)
                return
            self.unpack(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and (self.structs.struct_type_of_node(node.value) is not None
                                       or self.structs.struct_type_of_node(node.targets[0]) is not None):
            self.structs.struct_assign(node.targets[0], node.value, node)
            return
        if self.array_stmts.is_array_assign(node):
            self.array_stmts.lower_assign(node)
            return
        if len(node.targets) == 1 and self.array_stmts.has_reduction(node):
            self.array_stmts.lower_scalar(node)
            return
        value = self.ctx.expr(node.value)  # `a = b = x`: x once, then each target converts it to its own type
        for target in node.targets:
            self.assign_target(target, value, node if len(node.targets) == 1 else target, self.is_type_call(node.value))

    def unpack(self, target: ast.Tuple | ast.List, value_node: ast.AST) -> None:
        """`a, b = b, a + b`: every value on the right first, then the assignments, left to right."""
        if not isinstance(value_node, (ast.Tuple, ast.List)):
            raise self.ctx.error("tuple unpacking needs a tuple of values on the right, e.g. `a, b = b, a + b`",
                                 value_node, UnsupportedError)
        if len(target.elts) != len(value_node.elts) or any(isinstance(e, ast.Starred)
                                                            for e in (*target.elts, *value_node.elts)):
            raise self.ctx.error(f"cannot unpack {len(value_node.elts)} values into {len(target.elts)} names",
                                 target, HLSTypeError)
        values = [self.ctx.expr(v) for v in value_node.elts]
        for element, value, source in zip(target.elts, values, value_node.elts, strict=True):
            self.assign_target(element, value, element, self.is_type_call(source))

    def is_type_call(self, node: ast.AST) -> bool:
        """`hls.int32(0)`: a first value of this form declares the local's type."""
        return isinstance(node, ast.Call) and isinstance(call_target(node.func, self.ctx.src), ScalarType)

    def assign_target(self, target: ast.AST, value: Value, key: ast.AST, typed: bool = False) -> None:
        """One target of an assignment; `key` is the node Python mode converts at (statement or target)."""
        if isinstance(target, ast.Subscript):
            if not self.bits.is_bit_access(target):
                self.structs.store(target, value)
            elif isinstance(key, ast.Assign):
                self.bits.store_bits(target, value, key)
            else:
                raise self.ctx.error("assign bits in a statement of their own (`x[0:4] = v`), not in unpacking or "
                                     "chained assignment", target, UnsupportedError)
        elif isinstance(target, ast.Name):
            self.names.assign_name(target, value, None, key, typed)
        elif isinstance(target, ast.Attribute):
            self.structs.store_field(target, value)
        else:
            raise self.ctx.error("only variables and array elements can be assigned", target, UnsupportedError)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.ctx.error("annotated assignment needs a plain variable", node.target, UnsupportedError)
        declared = self.ctx.annotation(node.annotation, f"variable {node.target.id!r}", allow_array=False)
        if node.value is None:
            raise self.ctx.error(f"variable {node.target.id!r} needs an initial value", node, UnsupportedError)
        if isinstance(declared, StructType):
            self.structs.struct_assign(node.target, node.value, node, declared)
            return
        existing = self.ctx.env.get(node.target.id)
        if existing is not None and existing.type != declared:
            raise self.ctx.error(f"{node.target.id!r} is already a {existing.type}; it cannot be redeclared as "
                                 f"{declared}", node)
        self.names.assign_name(node.target, self.ctx.expr(node.value), declared, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        kind = BINOPS.get(type(node.op))
        if kind is None:
            raise self.ctx.error("unsupported augmented operator", node, UnsupportedError)
        if self.array_stmts.is_array_statement(node):
            self.array_stmts.lower_assign(node)
            return
        if self.array_stmts.has_reduction(node):
            self.array_stmts.lower_scalar(node)
            return
        if isinstance(node.target, ast.Subscript):
            if self.bits.is_bit_access(node.target):
                self.bits.augment_bits(node, kind)
                return
            memref, indices, field = self.structs.field_access(node.target) or (*self.arrays.access(node.target), None)
            old = self.ctx.emit(LoadOp(memref, indices, self.ctx.loc, field=field))
            self.arrays.store_value(memref, indices, self.exprs.augmented(kind, old, node.value, node), field)
            return
        if isinstance(node.target, ast.Attribute):
            current = self.structs.read_field(node.target)
            self.structs.store_field(node.target, self.exprs.augmented(kind, current, node.value, node))
            return
        if not isinstance(node.target, ast.Name):
            raise self.ctx.error("only variables and array elements can be updated", node.target, UnsupportedError)
        current = self.names.read_name(node.target)
        self.names.assign_name(node.target, self.exprs.augmented(kind, current, node.value, node), None, node)

