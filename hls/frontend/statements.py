"""Statements: assignments (plain, annotated, augmented, chained, unpacking), returns and expression
statements (directives, sub-kernel calls, stream methods, print)."""

from __future__ import annotations

import ast

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuilderBase, is_kernel
from hls.frontend.conversions import Call, Cast, Part
from hls.frontend.joins import Entry, accumulation_step, executions
from hls.frontend.source import MISSING, call_target
from hls.frontend.state import Var
from hls.frontend.tables import BINOPS
from hls.ir import ConstantOp, LoadOp, ReturnOp, Value
from hls.ir.kinds import OpKind
from hls.lang.directives import DIRECTIVES
from hls.types import IntType, ScalarType, StreamType, StructType, float64


class Statements(BuilderBase):
    """Assignments, returns and expression statements."""

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Call):
            target = call_target(call.func, self.src)
            if target is not MISSING and DIRECTIVES.get(getattr(target, "__name__", None)) is target:
                self.apply_directive(target.__name__, call)
                return
            if is_kernel(target):
                self.call_kernel(target, call, want_result=False)
                return
            if self.stream_method(call) is not None:
                self.lower_method(call, statement=True)
                return
            if target is print:
                self.lower_print(call)
                return
            self.expr(call)  # unsupported calls raise their own, more specific error
        if isinstance(call, ast.Constant) and isinstance(call.value, str):
            return  # a string used as a comment
        if not isinstance(call, ast.Call):
            self.visit(call)  # unsupported expressions (yield, await, ...) raise their own error
        raise self.error("this expression statement has no effect in hardware; only directive and "
                         "sub-kernel calls may stand alone", node, UnsupportedError)

    def visit_Return(self, node: ast.Return) -> None:
        ret = self.func.return_type
        if node.value is None:
            if ret is not None:
                raise self.error(f"kernel must return a {ret}", node)
            if self.early_return:
                self.flag_return(None)
                return
            self.emit(ReturnOp([], self.loc))
            return
        if ret is None:
            raise self.error("kernel returns a value but has no return annotation (e.g. `-> hls.int32`)", node)
        if self.lower_result_return(node):
            return
        if isinstance(ret, StructType) and not self.early_return:
            self.emit(ReturnOp([self.struct_packed(node.value, ret, "the return value")], self.loc))
            self.conversions.add(node, Cast(ret))
            return
        value = self.lower.assign(self.expr(node.value), ret, self.loc, "return value")
        self.conversions.add(node, Cast(ret))
        if self.early_return:
            self.flag_return(value)
            return
        self.emit(ReturnOp([value], self.loc))

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and self.is_static_call(node.value):
            self.bind_static(node)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.is_zeros_call(node.value):
            self.bind_local_array(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.is_stream_decl(node.value):
            self.bind_local_stream(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and self.returns_array(node.value):
            self.assign_array_call(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and self.is_kernel_call(node.value):
            self.lower_unpack(node)  # `q, r = divmod_k(a, b)`
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)):
            if self.unpack_read_nb(node.targets[0], node.value):
                return
            self.unpack(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and (self.struct_type_of_node(node.value) is not None
                                       or self.struct_type_of_node(node.targets[0]) is not None):
            self.struct_assign(node.targets[0], node.value, node)
            return
        value = self.expr(node.value)  # `a = b = x`: x once, then each target converts it to its own type
        for target in node.targets:
            self.assign_target(target, value, node if len(node.targets) == 1 else target, self.is_type_call(node.value))

    def unpack(self, target: ast.Tuple | ast.List, value_node: ast.AST) -> None:
        """`a, b = b, a + b`: every value on the right first, then the assignments, left to right."""
        if not isinstance(value_node, (ast.Tuple, ast.List)):
            raise self.error("tuple unpacking needs a tuple of values on the right, e.g. `a, b = b, a + b`",
                             value_node, UnsupportedError)
        if len(target.elts) != len(value_node.elts) or any(isinstance(e, ast.Starred)
                                                            for e in (*target.elts, *value_node.elts)):
            raise self.error(f"cannot unpack {len(value_node.elts)} values into {len(target.elts)} names",
                             target, HLSTypeError)
        values = [self.expr(v) for v in value_node.elts]
        for element, value, source in zip(target.elts, values, value_node.elts, strict=True):
            self.assign_target(element, value, element, self.is_type_call(source))

    def is_type_call(self, node: ast.AST) -> bool:
        """`hls.int32(0)`: a first value of this form declares the local's type."""
        return isinstance(node, ast.Call) and isinstance(call_target(node.func, self.src), ScalarType)

    def assign_target(self, target: ast.AST, value: Value, key: ast.AST, typed: bool = False) -> None:
        """One target of an assignment; `key` is the node Python mode converts at (statement or target)."""
        if isinstance(target, ast.Subscript):
            if not self.is_bit_access(target):
                self.store(target, value)
            elif isinstance(key, ast.Assign):
                self.store_bits(target, value, key)
            else:
                raise self.error("assign bits in a statement of their own (`x[0:4] = v`), not in unpacking or "
                                 "chained assignment", target, UnsupportedError)
        elif isinstance(target, ast.Name):
            self.assign_name(target, value, None, key, typed)
        elif isinstance(target, ast.Attribute):
            self.store_field(target, value)
        else:
            raise self.error("only variables and array elements can be assigned", target, UnsupportedError)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.error("annotated assignment needs a plain variable", node.target, UnsupportedError)
        declared = self.annotation(node.annotation, f"variable {node.target.id!r}", allow_array=False)
        if node.value is None:
            raise self.error(f"variable {node.target.id!r} needs an initial value", node, UnsupportedError)
        if isinstance(declared, StructType):
            self.struct_assign(node.target, node.value, node, declared)
            return
        existing = self.env.get(node.target.id)
        if existing is not None and existing.type != declared:
            raise self.error(f"{node.target.id!r} is already a {existing.type}; it cannot be redeclared as "
                             f"{declared}", node)
        self.assign_name(node.target, self.expr(node.value), declared, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        kind = BINOPS.get(type(node.op))
        if kind is None:
            raise self.error("unsupported augmented operator", node, UnsupportedError)
        if isinstance(node.target, ast.Subscript):
            if self.is_bit_access(node.target):
                self.augment_bits(node, kind)
                return
            memref, indices, field = self.field_access(node.target) or (*self.access(node.target), None)
            old = self.emit(LoadOp(memref, indices, self.loc, field=field))
            self.store_value(memref, indices, self.augmented(kind, old, node.value, node), field)
            return
        if isinstance(node.target, ast.Attribute):
            current = self.read_field(node.target)
            self.store_field(node.target, self.augmented(kind, current, node.value, node))
            return
        if not isinstance(node.target, ast.Name):
            raise self.error("only variables and array elements can be updated", node.target, UnsupportedError)
        current = self.read_name(node.target)
        self.assign_name(node.target, self.augmented(kind, current, node.value, node), None, node)

    def augmented(self, kind: str, current: Value, value_node: ast.AST, node: ast.AugAssign) -> Value:
        value = self.expr(value_node)
        result = self.lower.binary(kind, current, value, self.loc)
        if kind == OpKind.SHL and not isinstance(getattr(value, "op", None), ConstantOp):
            # `x <<= n` wraps in the shift, as `x = x << n`
            self.conversions.add(node, Call("rt.shl_reported", (Part("left"), Part("right"), result.type)))
        self.note_literals(value_node, (value_node, value), result)  # `x32 *= 0.1` multiplies by 0.1f
        if kind in (OpKind.ADD, OpKind.SUB, OpKind.MUL, OpKind.DIV):
            self.note_int_to_float(result.type, (value_node, value))
        return result

    def assign_name(self, target: ast.Name, value: Value, declared: ScalarType | None, node: ast.AST,
                    typed: bool = False) -> None:
        name = target.id
        var = self.env.get(name)
        if var is not None and var.cell:
            self.write_cell(var.value, value, name)
            self.conversions.add(node, Cast(var.type))
            return
        if var is not None and var.is_iv:
            raise self.error(f"assignment to the loop variable {name!r}; use another variable", target,
                             UnsupportedError)
        if var is not None and var.is_array:
            raise self.error(f"{name!r} is an array; assign its elements, e.g. {name}[i] = ...", target,
                             UnsupportedError)
        if isinstance(value.type, StreamType):
            raise self.error("streams cannot be assigned to variables; use the stream itself", node,
                             UnsupportedError)
        if not isinstance(value.type, ScalarType):
            raise self.error(f"arrays cannot be assigned to variables; index {name!r} instead", node,
                             UnsupportedError)
        if typed and declared is None and name not in self.entries and name not in self.declared:
            declared = value.type  # `acc = hls.int32(0)` as the first value declares acc
        vtype = self.local_type(name, value, declared, var)
        value = self.lower.assign(value, vtype, self.loc, f"assignment to {name!r}")
        value.name = value.name if getattr(value, "op", None) is None else name
        self.env[name] = Var(value, vtype)
        self.conversions.add(node, Cast(vtype))

    def local_type(self, name: str, value: Value, declared: ScalarType | None, var: Var | None) -> ScalarType:
        """A declared local (annotation, argument, first value from a type call) keeps its type; any other
        takes the join of every value assigned to it (hls.frontend.joins), pinned by the previous build."""
        if declared is not None:
            self.declared.setdefault(name, declared)
        if name in self.declared:
            return self.declared[name]
        op = getattr(value, "op", None)
        literal = op.value if self.lower.is_weak(value) and isinstance(op, ConstantOp) else None
        entry = Entry(value.type, self.loc, literal)
        entry.count = executions(name, self.loops, self.carries)
        entry.loop = id(self.loops[-1]) if self.loops else 0
        if var is not None and literal is None and entry.count != 0:  # in a loop that carries it
            entry.step = accumulation_step(value, var.value)
        self.entries.setdefault(name, []).append(entry)
        if literal is None:
            return value.type  # held as it is; where paths join, the join of all values (merge_type)
        return self.merge_type(name, var.type if var is not None else self.inferred_type(value, None))

    def inferred_type(self, value: Value, node: ast.AST | None) -> ScalarType:
        """A local's type when nothing declares it: bare literals default to int32 / float64 as in C."""
        op = getattr(value, "op", None)
        if self.lower.is_weak(value):
            if isinstance(value.type, IntType):
                return IntType(32, True) if -(2**31) <= op.value < 2**31 else IntType(64, True)
            return float64
        return value.type
