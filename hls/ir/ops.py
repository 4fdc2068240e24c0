"""The op set. Each op is a small class with a `name`, typed accessors and its own verify()."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hls.errors import Loc
from hls.ir.core import Block, KindOp, Op, Region, Value
from hls.ir.kinds import BINARY, COMPARE, LOGIC, MATH, UNARY, OpKind, kinds
from hls.ir.traits import ArrayAccess, DataflowProcess, LoopDirectives
from hls.lang.directives import Directive, Unroll
from hls.types import (
    ArrayType,
    BoolType,
    FloatType,
    HLSType,
    IntType,
    ScalarType,
)

BINARY_KINDS = kinds(BINARY)
COMPARE_KINDS = kinds(COMPARE)
UNARY_KINDS = kinds(UNARY)
MATH_FUNCS = kinds(MATH)
LOGIC_KINDS = kinds(LOGIC)


def as_kind(kind: str) -> OpKind | str:
    """The OpKind member named `kind` (an unknown name stays a string for verify() to report)."""
    return OpKind(kind) if kind in OpKind._value2member_map_ else kind


def _scalar(op: Op, value: Value, what: str) -> None:
    if not isinstance(value.type, ScalarType):
        raise op.fail(f"{what} must be a scalar, got {value.type}")


class ConstantOp(Op):
    name = "hls.const"
    pure = True

    def __init__(self, value: int | float | bool | Fraction, type: ScalarType, loc: Loc | None = None):
        super().__init__([], [type], attrs={"value": value}, loc=loc)

    @property
    def value(self) -> Any:
        return self.attrs["value"]

    def verify(self) -> None:
        value, t = self.value, self.result.type
        if isinstance(t, IntType) and not (isinstance(value, int) and t.min <= value <= t.max):
            raise self.fail(f"constant {value!r} does not fit {t}")
        if isinstance(t, FloatType) and not isinstance(value, float):
            raise self.fail(f"float constant {value!r} is not a float")


class BinaryOp(KindOp):
    name = "hls.binary"
    pure = True
    kinds = BINARY_KINDS

    def __init__(self, kind: str, lhs: Value, rhs: Value, type: ScalarType, loc: Loc | None = None):
        super().__init__([lhs, rhs], [type], attrs={"kind": as_kind(kind)}, loc=loc)

    @property
    def lhs(self) -> Value:
        return self.operands[0]

    @property
    def rhs(self) -> Value:
        return self.operands[1]

    def verify(self) -> None:
        super().verify()
        _scalar(self, self.lhs, "lhs")
        _scalar(self, self.rhs, "rhs")


class CompareOp(KindOp):
    name = "hls.cmp"
    pure = True
    kinds = COMPARE_KINDS
    kind_word = "predicate"

    def __init__(self, kind: str, lhs: Value, rhs: Value, loc: Loc | None = None):
        super().__init__([lhs, rhs], [BoolType()], attrs={"kind": as_kind(kind)}, loc=loc)


class LogicOp(KindOp):
    """Short-circuit-free boolean and/or (operands are side-effect free values)."""

    name = "hls.logic"
    pure = True
    kinds = LOGIC_KINDS

    def __init__(self, kind: str, lhs: Value, rhs: Value, loc: Loc | None = None):
        super().__init__([lhs, rhs], [BoolType()], attrs={"kind": as_kind(kind)}, loc=loc)

    def verify(self) -> None:
        super().verify()
        for value in self.operands:
            if not isinstance(value.type, BoolType):
                raise self.fail("operands must be bool")


class UnaryOp(KindOp):
    name = "hls.unary"
    pure = True
    kinds = UNARY_KINDS

    def __init__(self, kind: str, operand: Value, type: ScalarType, loc: Loc | None = None):
        super().__init__([operand], [type], attrs={"kind": as_kind(kind)}, loc=loc)

    def verify(self) -> None:
        super().verify()
        _scalar(self, self.operands[0], "operand")


class CastOp(Op):
    """Conversion with the target type's assignment semantics (wrap, quantize, truncate toward 0)."""

    name = "hls.cast"
    pure = True

    def __init__(self, operand: Value, type: ScalarType, loc: Loc | None = None, explicit: bool = False):
        super().__init__([operand], [type], attrs={"explicit": explicit}, loc=loc)

    @property
    def explicit(self) -> bool:
        """Written by the user (`hls.int8(x)`): Python mode does not report its wraps."""
        return bool(self.attrs.get("explicit"))

    def verify(self) -> None:
        _scalar(self, self.operands[0], "operand")
        if not isinstance(self.result.type, ScalarType):
            raise self.fail("target must be a scalar type")


class SelectOp(Op):
    name = "hls.select"
    pure = True

    def __init__(self, cond: Value, if_true: Value, if_false: Value, loc: Loc | None = None):
        super().__init__([cond, if_true, if_false], [if_true.type], loc=loc)

    def verify(self) -> None:
        cond, a, b = self.operands
        if not isinstance(cond.type, BoolType):
            raise self.fail("condition must be bool")
        if a.type != b.type:
            raise self.fail(f"branches differ in type: {a.type} vs {b.type}")


class MathOp(Op):
    name = "hls.math"
    pure = True

    def __init__(self, func: str, args: list[Value], type: ScalarType, loc: Loc | None = None):
        super().__init__(args, [type], attrs={"func": as_kind(func)}, loc=loc)

    @property
    def func(self) -> OpKind:
        return self.attrs["func"]

    def verify(self) -> None:
        if self.func not in MATH_FUNCS:
            raise self.fail(f"unknown math function {self.func!r}")
        if not isinstance(self.result.type, FloatType):
            raise self.fail("math functions return floats")


SCALAR_OPS = (ConstantOp, BinaryOp, CompareOp, LogicOp, UnaryOp, CastOp, SelectOp, MathOp)  # pure, on scalars


class AllocOp(Op):
    """A local array, zero-initialised (hls.zeros)."""

    name = "hls.alloc"

    def __init__(self, type: ArrayType, name: str | None = None, loc: Loc | None = None):
        super().__init__([], [type], loc=loc, result_names=[name])

    @property
    def static(self) -> bool:
        """An `hls.static` local: its value lives between calls (a C++ `static`)."""
        return bool(self.attrs.get("static"))

    @property
    def cell(self) -> bool:
        """A scalar static, held as a one-element array (`init` is its initial value)."""
        return bool(self.attrs.get("cell"))

    @property
    def init(self) -> Any:
        return self.attrs.get("init", 0)

    @property
    def filled_by_call(self) -> bool:
        """A sub-kernel's array result: the call writes every element, so nothing zero-fills it."""
        return bool(self.attrs.get("filled_by_call"))

    @property
    def origin(self) -> Any:
        """Which array of the unoptimised kernel this is a copy of (set by the scheduler's copies)."""
        return self.attrs.get("origin")


class RomOp(Op):
    """A constant array captured from the module: becomes a static const ROM."""

    name = "hls.rom"
    pure = True

    def __init__(self, type: ArrayType, data: Any, name: str | None = None, loc: Loc | None = None):
        super().__init__([], [type], attrs={"data": data}, loc=loc, result_names=[name])

    def verify(self) -> None:
        if tuple(self.data.shape) != self.result.type.shape:
            raise self.fail("data shape differs from the ROM type")

    @property
    def data(self) -> Any:
        """The table's values (a numpy array of the ROM's shape)."""
        return self.attrs["data"]

    @property
    def origin(self) -> Any:
        return self.attrs.get("origin")


class RowOp(Op):
    """`M[i]`: the row of an n-D array at leading indices, an array of the remaining shape handed to a
    call (`row_sum(M[i])`, `pe(buf[r], out[r])`). A view of M, as C++'s `M[i]` is a pointer into it: it
    reads and writes nothing itself; a call's accesses through it are accesses of M."""

    name = "hls.row"
    pure = True

    def __init__(self, base: Value, indices: list[Value], loc: Loc | None = None):
        shape = base.type.shape[len(indices):]
        super().__init__([base, *indices], [ArrayType(base.type.elem, shape)], loc=loc,
                         result_names=[base.name])

    @property
    def memref(self) -> Value:
        """The array viewed (as a load's `memref`: the bounds of `indices` are its leading dimensions)."""
        return self.operands[0]

    base = memref

    @property
    def indices(self) -> list[Value]:
        return self.operands[1:]

    def verify(self) -> None:
        if not isinstance(self.base.type, ArrayType) or not 0 < len(self.indices) < len(self.base.type.shape):
            raise self.fail(f"a row of {self.base.type} at {len(self.indices)} indices")
        if any(not isinstance(i.type, (IntType, BoolType)) for i in self.indices):
            raise self.fail("a row index that is not an integer")

    def constant_indices(self) -> tuple[int, ...] | None:
        """The indices when all are constants (a row a dataflow region may give its own channel)."""
        found = [getattr(i, "op", None) for i in self.indices]
        return tuple(int(op.value) for op in found) if all(isinstance(op, ConstantOp) for op in found) else None


def row_base(value: Value) -> tuple[Value, list[Value]]:
    """The array a value views and the leading indices it adds (rows of rows fold): (value, []) for an array."""
    indices: list[Value] = []
    op = getattr(value, "op", None)
    while isinstance(op, RowOp):
        indices = [*op.indices, *indices]
        value = op.base
        op = getattr(value, "op", None)
    return value, indices


class LoadOp(ArrayAccess, Op):
    """A read of one element; with `field`, of one field of an element of an array of structs (the
    indices then go on into the field's own dimensions: `back[i].taps[j]`)."""

    name = "hls.load"

    def __init__(self, memref: Value, indices: list[Value], loc: Loc | None = None, field: str | None = None):
        elem = memref.type.elem if isinstance(memref.type, ArrayType) else memref.type
        if field is not None:
            elem = elem.field(field)
            elem = elem.elem if isinstance(elem, ArrayType) else elem
        super().__init__([memref, *indices], [elem], attrs={"field": field} if field else None, loc=loc)

    @property
    def memref(self) -> Value:
        return self.operands[0]

    @property
    def indices(self) -> list[Value]:
        return self.operands[1:]

    def verify(self) -> None:
        _verify_access(self, self.memref, self.indices)


class StoreOp(ArrayAccess, Op):
    name = "hls.store"

    def __init__(self, value: Value, memref: Value, indices: list[Value], loc: Loc | None = None,
                 field: str | None = None):
        super().__init__([value, memref, *indices], [], attrs={"field": field} if field else None, loc=loc)

    @property
    def value(self) -> Value:
        return self.operands[0]

    @property
    def memref(self) -> Value:
        return self.operands[1]

    @property
    def indices(self) -> list[Value]:
        return self.operands[2:]

    def verify(self) -> None:
        _verify_access(self, self.memref, self.indices)
        if self.value.type != access_elem(self):
            raise self.fail(f"stored {self.value.type} into {self.memref.type}")


def access_shape(op: Op) -> tuple[int, ...]:
    """The dimensions a load or store indexes: the array's, then its field's (`back[i].taps[j]`)."""
    t = op.operands[0 if isinstance(op, LoadOp) else 1].type
    field = op.field
    if field is None:
        return t.shape
    ft = t.elem.field(field)
    return t.shape + (ft.shape if isinstance(ft, ArrayType) else ())


def access_elem(op: Op) -> HLSType:
    """The scalar type a load reads or a store writes."""
    t = op.operands[0 if isinstance(op, LoadOp) else 1].type.elem
    field = op.field
    if field is not None:
        t = t.field(field)
    return t.elem if isinstance(t, ArrayType) else t


def _verify_access(op: LoadOp | StoreOp, memref: Value, indices: list[Value]) -> None:
    if not isinstance(memref.type, ArrayType):
        raise op.fail(f"accesses a non-array {memref.type}")
    if op.field is not None and memref.type.elem.field(op.field) is None:
        raise op.fail(f"{memref.type.elem} has no field {op.field!r}")
    if len(indices) != len(access_shape(op)):
        raise op.fail(f"{len(indices)} indices for rank {len(access_shape(op))}")
    for index in indices:
        if not isinstance(index.type, (IntType, BoolType)):
            raise op.fail(f"index of type {index.type}")


class YieldOp(Op):
    name = "hls.yield"
    is_terminator = True

    def __init__(self, values: list[Value], loc: Loc | None = None):
        super().__init__(values, [], loc=loc)


class ForOp(LoopDirectives, DataflowProcess, Op):
    """for iv in range(lb, ub, step) with carried values. Body block args: [iv, *carried]."""

    name = "hls.for"

    def __init__(self, lb: Value, ub: Value, step: Value, inits: list[Value], iv_type: IntType,
                 iv_name: str, carried_names: list[str], loc: Loc | None = None):
        block = Block([iv_type, *(v.type for v in inits)], [iv_name, *carried_names])
        super().__init__([lb, ub, step, *inits], [v.type for v in inits], [Region(block)],
                         attrs={"label": None, "pipeline": None, "unroll": None, "tripcount": None,
                                "loop_flatten": None},
                         loc=loc, result_names=list(carried_names))

    @property
    def lb(self) -> Value:
        return self.operands[0]

    @property
    def ub(self) -> Value:
        return self.operands[1]

    @property
    def step(self) -> Value:
        return self.operands[2]

    @property
    def inits(self) -> list[Value]:
        return self.operands[3:]

    @property
    def body(self) -> Block:
        return self.regions[0].block

    @property
    def iv(self) -> Value:
        return self.body.args[0]

    @property
    def carried(self) -> list[Value]:
        return self.body.args[1:]

    def const_bounds(self) -> tuple[int, int, int] | None:
        vals = [v.op.value if isinstance(getattr(v, "op", None), ConstantOp) else None
                for v in (self.lb, self.ub, self.step)]
        return None if None in vals else tuple(vals)  # type: ignore[return-value]

    def trip_count(self) -> int | None:
        bounds = self.const_bounds()
        if bounds is None:
            return None
        lb, ub, step = bounds
        return len(range(lb, ub, step))

    @property
    def fill(self) -> bool:
        """The zero-fill loop nest of an array result (hls.passes.fill drops it when a later nest
        writes every element)."""
        return bool(self.attrs.get("fill"))

    def verify(self) -> None:
        _verify_carried(self, self.inits, self.carried, self.body)


def has_exit(loop: Op) -> bool:
    """A loop with an early exit (`break`, `return` inside): its body yields one more value, a bool
    that ends the loop after the iteration when true (the carried values are then its results)."""
    return isinstance(loop, LoopDirectives) and loop.exit


def _verify_carried(loop: Op, inits: list[Value], carried: list[Value], body: Block) -> None:
    term = body.terminator
    extra = 1 if has_exit(loop) else 0
    if not isinstance(term, YieldOp) or len(term.operands) != len(loop.results) + extra:
        raise loop.fail("body must end in a yield of every carried value" + (" and the exit flag" if extra else ""))
    for init, arg, res, out in zip(inits, carried, loop.results, term.operands, strict=False):
        if not init.type == arg.type == res.type == out.type:
            raise loop.fail(f"carried value {arg.name} changes type")
    if not len(inits) == len(carried) == len(loop.results):
        raise loop.fail("inits, carried values and results differ in number")
    if extra and not isinstance(term.operands[-1].type, BoolType):
        raise loop.fail("the exit flag must be bool")


class WhileOp(LoopDirectives, Op):
    """`while cond: body` with carried values. Both regions receive the carried values: the condition
    region yields one bool (false ends the loop), the body yields the next carried values (and, with
    an early exit, the exit flag). The results are the carried values when the loop ends."""

    name = "hls.while"

    def __init__(self, inits: list[Value], carried_names: list[str], loc: Loc | None = None):
        types = [v.type for v in inits]
        cond, body = Block(types, list(carried_names)), Block(types, list(carried_names))
        super().__init__(inits, types, [Region(cond), Region(body)],
                         attrs={"label": None, "pipeline": None, "unroll": None, "tripcount": None},
                         loc=loc, result_names=list(carried_names))

    @property
    def inits(self) -> list[Value]:
        return self.operands

    @property
    def cond(self) -> Block:
        return self.regions[0].block

    @property
    def body(self) -> Block:
        return self.regions[1].block

    @property
    def carried(self) -> list[Value]:
        return self.body.args

    def trip_count(self) -> None:
        return None

    def verify(self) -> None:
        _verify_carried(self, self.inits, self.carried, self.body)
        term = self.cond.terminator
        if [a.type for a in self.cond.args] != [v.type for v in self.inits]:
            raise self.fail("the condition region must receive every carried value")
        if not isinstance(term, YieldOp) or len(term.operands) != 1 or not isinstance(term.operands[0].type, BoolType):
            raise self.fail("the condition region must yield one bool")
        if self.unroll_options():
            raise self.fail("a while loop cannot be unrolled")

    def unroll_options(self) -> Unroll | None:
        return None if self.unroll is None or self.unroll.off else self.unroll


LOOPS = (ForOp, WhileOp)


class IfOp(DataflowProcess, Op):
    name = "hls.if"

    def __init__(self, cond: Value, result_types: list[HLSType], result_names: list[str | None],
                 loc: Loc | None = None):
        super().__init__([cond], result_types, [Region(), Region()], loc=loc, result_names=result_names)

    @property
    def then_block(self) -> Block:
        return self.regions[0].block

    @property
    def else_block(self) -> Block:
        return self.regions[1].block

    def verify(self) -> None:
        if not isinstance(self.operands[0].type, BoolType):
            raise self.fail("condition must be bool")
        for block in (self.then_block, self.else_block):
            term = block.terminator
            if not isinstance(term, YieldOp) or [v.type for v in term.operands] != [r.type for r in self.results]:
                raise self.fail("each branch must yield the if's result types")


class CallOp(DataflowProcess, Op):
    name = "hls.call"

    def __init__(self, callee: str, args: list[Value], result_types: list[HLSType], loc: Loc | None = None):
        super().__init__(args, result_types, attrs={"callee": callee}, loc=loc)

    @property
    def callee(self) -> str:
        return self.attrs["callee"]

    @property
    def outputs(self) -> bool:
        """A tuple result: the callee writes it through reference outputs."""
        return bool(self.attrs.get("outputs"))


class ReturnOp(Op):
    name = "hls.return"
    is_terminator = True

    def __init__(self, values: list[Value], loc: Loc | None = None):
        super().__init__(values, [], loc=loc)


class DirectiveOp(Op):
    """A function- or array-level directive kept where the user wrote it (partition, interface, ...)."""

    name = "hls.directive"

    def __init__(self, directive: Directive, target: Value | None, loc: Loc | None = None):
        super().__init__([target] if target is not None else [], [],
                         attrs={"kind": directive.name, "options": directive}, loc=loc)

    @property
    def kind(self) -> str:
        return self.attrs["kind"]

    @property
    def directive(self) -> Directive:
        return self.attrs["options"]

    @property
    def target(self) -> Value | None:
        return self.operands[0] if self.operands else None


class PrintOp(Op):
    """`print(...)`: a debugging aid, printed in Python mode and csim, absent from synthesis.

    `parts` lists, in order, literal strings and None for each operand's place."""

    name = "hls.print"

    def __init__(self, values: list[Value], parts: tuple[str | None, ...], sep: str = " ", end: str = "\n",
                 loc: Loc | None = None):
        super().__init__(values, [], attrs={"parts": tuple(parts), "sep": sep, "end": end}, loc=loc)

    @property
    def parts(self) -> tuple[str | None, ...]:
        return self.attrs["parts"]

    @property
    def sep(self) -> str:
        return self.attrs["sep"]

    @property
    def end(self) -> str:
        return self.attrs["end"]

    def verify(self) -> None:
        super().verify()
        if sum(part is None for part in self.parts) != len(self.operands):
            raise self.fail("one None part per printed value")
        for value in self.operands:
            _scalar(self, value, "a printed value")


TERMINATORS = (YieldOp, ReturnOp)
