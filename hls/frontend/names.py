"""Names: reading a local variable and binding one, with the type an undeclared local takes.

A scalar static (hls.frontend.results) is a one-element memory ("cell"): reads and assignments of its
name load and store it here, so every family that reads or assigns a name goes through this one.
"""

from __future__ import annotations

import ast

from hls.errors import UnsupportedError
from hls.frontend.base import Family
from hls.frontend.conversions import Cast
from hls.frontend.joins import Entry, accumulation_step, executions
from hls.frontend.state import Var
from hls.ir import ConstantOp, LoadOp, StoreOp, Value
from hls.types import IntType, ScalarType, StreamType, float64


class Names(Family):
    """Reads and assignments of scalar locals (and of scalar statics' cells)."""

    def read_name(self, node: ast.Name) -> Value:
        var = self.ctx.env.get(node.id)
        if var is None:
            if node.id in self.ctx.loop_locals:
                raise self.ctx.error(f"{node.id!r} is only defined inside a loop or branch; define it before",
                                     node)
            if node.id in self.ctx.released_blocks:
                raise self.ctx.error(f"block {node.id!r} is released at the end of its `with` (the lock's scope); "
                                     "use it inside the `with` only", node, UnsupportedError)
            raise self.ctx.error(f"unknown variable {node.id!r}", node)
        return self.read_cell(var.value) if var.cell else var.value

    def assign_name(self, target: ast.Name, value: Value, declared: ScalarType | None, node: ast.AST,
                    typed: bool = False) -> None:
        name = target.id
        var = self.ctx.env.get(name)
        if var is not None and var.cell:
            self.write_cell(var.value, value, name)
            self.ctx.conversions.add(node, Cast(var.type))
            return
        if var is not None and var.is_iv:
            raise self.ctx.error(f"assignment to the loop variable {name!r}; use another variable", target,
                                 UnsupportedError)
        if getattr(value, "op", None) is not None and value.op.attrs.get("fifo_item") \
                and (var is None or var.value.op.attrs.get("fifo_item")):
            value.name = name  # `v = s.read()` from a FIFO of arrays: v is the local array holding the item
            self.ctx.env[name] = Var(value, value.type, is_array=True)
            return
        if var is not None and var.is_array:
            raise self.ctx.error(f"{name!r} is an array; assign its elements, e.g. {name}[i] = ...", target,
                                 UnsupportedError)
        if isinstance(value.type, StreamType):
            raise self.ctx.error("streams cannot be assigned to variables; use the stream itself", node,
                                 UnsupportedError)
        if not isinstance(value.type, ScalarType):
            raise self.ctx.error(f"arrays cannot be assigned to variables; index {name!r} instead", node,
                                 UnsupportedError)
        if typed and declared is None and name not in self.ctx.entries and name not in self.ctx.declared:
            declared = value.type  # `acc = hls.int32(0)` as the first value declares acc
        vtype = self.local_type(name, value, declared, var)
        value = self.ctx.lower.assign(value, vtype, self.ctx.loc, f"assignment to {name!r}")
        value.name = value.name if getattr(value, "op", None) is None else name
        self.ctx.env[name] = Var(value, vtype)
        self.ctx.conversions.add(node, Cast(vtype))

    def local_type(self, name: str, value: Value, declared: ScalarType | None, var: Var | None) -> ScalarType:
        """A declared local (annotation, argument, first value from a type call) keeps its type; any other
        takes the join of every value assigned to it (hls.frontend.joins), pinned by the previous build."""
        if declared is not None:
            self.ctx.declared.setdefault(name, declared)
        if name in self.ctx.declared:
            return self.ctx.declared[name]
        op = getattr(value, "op", None)
        literal = op.value if self.ctx.lower.is_weak(value) and isinstance(op, ConstantOp) else None
        entry = Entry(value.type, self.ctx.loc, literal)
        entry.count = executions(name, self.ctx.loops, self.ctx.carries)
        entry.loop = id(self.ctx.loops[-1]) if self.ctx.loops else 0
        if var is not None and literal is None and entry.count != 0:  # in a loop that carries it
            entry.step = accumulation_step(value, var.value)
        self.ctx.entries.setdefault(name, []).append(entry)
        if literal is None:
            return value.type  # held as it is; where paths join, the join of all values (merge_type)
        return self.ctx.merge_type(name, var.type if var is not None else self.inferred_type(value, None))

    def inferred_type(self, value: Value, node: ast.AST | None) -> ScalarType:
        """A local's type when nothing declares it: bare literals default to int32 / float64 as in C."""
        op = getattr(value, "op", None)
        if self.ctx.lower.is_weak(value):
            if isinstance(value.type, IntType):
                return IntType(32, True) if -(2**31) <= op.value < 2**31 else IntType(64, True)
            return float64
        return value.type

    def read_cell(self, memref: Value) -> Value:
        index = self.ctx.lower.constant(0, self.ctx.loc)
        return self.ctx.emit(LoadOp(memref, [index], self.ctx.loc))

    def write_cell(self, memref: Value, value: Value, name: str) -> None:
        value = self.ctx.lower.assign(value, memref.type.elem, self.ctx.loc, f"assignment to {name!r}")
        index = self.ctx.lower.constant(0, self.ctx.loc)
        self.ctx.emit(StoreOp(value, memref, [index], self.ctx.loc))
