"""The golden model at numpy speed: the kernel's IR run with whole arrays for parallel loops.

Every SSA value is a numpy array over the iteration space of the parallel loops around it (one axis
per loop, size 1 where it does not vary) or a numpy scalar. Integers travel as int64, which holds
them exactly (hls/golden/vplan.py admits only types within 64 signed bits, and the IR's result types
hold exact results); fixed-point values as float64, exact up to 53 bits; floats as float32/float64
in the IR's operation order (numpy ufuncs contract nothing into FMAs). Conversions go through the
same hls.types / hls.fixed routines as Python mode, so results are the element-by-element model's
bit for bit. Element-by-element loops (carried values) run in order with array-valued lanes;
branches under varying conditions run predicated, and whatever could raise (a division by zero, an
index out of bounds, a conversion of NaN) is checked in the lanes that really execute only.

Wraps of declared values are reported as Python mode reports them: per source line, the first
event in the element-by-element order, with its value before and after.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from hls.golden import runtime, vobject
from hls.golden.vplan import Plan, native_ok, shifts_out
from hls.ir import (
    AllocOp,
    BinaryOp,
    CallOp,
    CastOp,
    CompareOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    IfOp,
    LoadOp,
    LogicOp,
    MathOp,
    PrintOp,
    ReturnOp,
    RomOp,
    RowOp,
    SelectOp,
    StoreOp,
    UnaryOp,
    WhileOp,
    YieldOp,
)
from hls.ir.bitops import BIT_OPS
from hls.ir.core import Block, Op, Value
from hls.ir.kinds import OpKind
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.passes.evaluate import COMPARE, UNARY, VECTOR_ARITH
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, ScalarType, TupleType, wrap_int64

Lanes = Any  # an ndarray over the current iteration space, or a numpy scalar


class Context:
    """Where execution is: the parallel axes so far, the lanes that run, the sequential position."""

    __slots__ = ("shape", "mask", "path")

    def __init__(self, shape: tuple[int, ...] = (), mask: Any = None, path: tuple = ()):
        self.shape = shape
        self.mask = mask  # bool array of the lanes that execute; None: all of them
        self.path = path  # op positions and loop counters; ("axis", k) for the k-th parallel axis


def active(ctx: Context, bad: Any) -> Any:
    """`bad` restricted to executing lanes, broadcast to the iteration space."""
    bad = np.broadcast_to(bad, ctx.shape) if np.ndim(bad) else np.full(ctx.shape, bool(bad))
    return bad & ctx.mask if ctx.mask is not None else bad


def first_lane(ctx: Context, bad: Any) -> tuple[int, ...] | None:
    """The first executing lane (in element-by-element order) where `bad` holds."""
    if not np.any(bad):
        return None
    hits = active(ctx, bad)
    if ctx.mask is not None and not hits.any():
        return None
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(hits)), ctx.shape)) if ctx.shape else ()


def lane_value(values: Any, lane: tuple[int, ...]) -> Any:
    arr = np.asarray(values)
    return arr[tuple(i if n > 1 else 0 for i, n in zip(lane, arr.shape, strict=False))] if arr.ndim else arr[()]


def safe(values: Any, bad: Any, fill: Any) -> Any:
    """`values` with `fill` where `bad` (lanes that do not execute and would raise)."""
    return np.where(bad, fill, values) if np.any(bad) else values


# --------------------------------------------------------------------------------------------------
# value representation


def from_storage(data: Any, t: ScalarType) -> Lanes:
    if not native_ok(t):
        return vobject.py(data.astype(object) if isinstance(t, IntType) else data, t)
    return data.astype(np.int64) if isinstance(t, IntType) else data


def to_storage(values: Lanes, t: ScalarType) -> Any:
    return np.asarray(values).astype(t.storage_dtype, copy=False)  # float() of a Fraction is what Python mode stores


def ints(values: Lanes) -> Lanes:
    return values.astype(np.int64) if np.asarray(values).dtype == np.bool_ else values


def to_python(value: Any, t: ScalarType) -> Any:
    """One lane as Python mode holds it: int, np.float32/np.float64, Fraction, bool."""
    if isinstance(t, IntType):
        return int(value)
    if isinstance(t, FloatType):
        return t.storage_dtype.type(value)
    if isinstance(t, FixedType):
        return value if isinstance(value, Fraction) else Fraction(float(value))
    return bool(value)


def constant(op: ConstantOp) -> Lanes:
    t = op.result.type
    if not native_ok(t):
        return vobject.objects(Fraction(op.value) if isinstance(t, FixedType) else op.value)
    if isinstance(t, IntType):
        return np.int64(op.value)
    if isinstance(t, FixedType):
        return np.float64(float(Fraction(op.value)))
    return t.storage_dtype.type(t.convert(op.value))


def convert(ctx: Context, t: ScalarType, src: ScalarType, values: Lanes) -> Lanes:
    """Assignment to `t` (hls.types convert, vectorized), raising only for executing lanes."""
    arr = np.asarray(values)
    if isinstance(t, FloatType):
        return t.convert(arr.astype(np.int64) if arr.dtype == np.bool_ else arr)
    if isinstance(t, BoolType):
        return arr.astype(np.bool_)
    if isinstance(src, FloatType) and np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) if isinstance(t, FixedType) else ~(np.abs(arr) < 2.0**63)
        lane = first_lane(ctx, bad)
        if lane is not None:
            t.convert(lane_value(arr, lane).item())  # raises Python mode's own error
        arr = safe(arr, bad, 0)
    if isinstance(t, IntType):
        if (np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_) and t.width < 64:
            return wrap_int64(arr, t)
        return t.convert(ints(arr)).astype(np.int64)
    return t.convert(arr.astype(np.float64))


def overflowed(t: ScalarType, src: ScalarType, before: Lanes, after: Lanes) -> Any:
    """Lanes where a conversion wrapped or saturated (runtime.overflowed, vectorized)."""
    if isinstance(src, FloatType) or isinstance(t, (FloatType, BoolType)):
        return np.False_
    if isinstance(t, IntType):
        if isinstance(src, FixedType):
            return np.asarray(before) != np.asarray(after, dtype=np.float64)
        return ints(before) != after
    low, high = float(t.min), float(t.max + t.lsb)
    exact = np.asarray(before, dtype=np.float64)
    return ~((low <= exact) & (exact < high))


def strided_index(index: tuple[Any, ...], shape: tuple[int, ...]) -> tuple[tuple[Any, ...], list[int]] | None:
    """Basic indexing for an access whose indices are each one value or a progression along its own
    parallel axis (the common `x[i, j]`): a strided view instead of a gather. The parallel axis of
    each slice is returned beside it; None when the access needs fancy indexing."""
    keys: list[Any] = []
    axes: list[int] = []
    for arr in index:
        if arr.size == 1:
            keys.append(int(arr.reshape(-1)[0]))
            continue
        dims = [k for k, n in enumerate(arr.shape) if n > 1]
        if arr.ndim != len(shape) or len(dims) != 1 or dims[0] in axes:
            return None
        flat = arr.reshape(-1)
        first, step = int(flat[0]), int(flat[1] - flat[0])
        if step == 0 or not np.array_equal(flat, first + step * np.arange(flat.size)):
            return None
        stop = first + step * flat.size
        keys.append(slice(first, stop if stop >= 0 else None, step))
        axes.append(dims[0])
    return tuple(keys), axes


# --------------------------------------------------------------------------------------------------
# pure ops


def binary(ctx: Context, op: BinaryOp, a: Lanes, b: Lanes) -> Lanes:
    t, kind = op.result.type, op.kind
    if isinstance(t, IntType):
        a, b = ints(a), ints(b)
        if kind in (OpKind.FLOORDIV, OpKind.MOD, OpKind.SHL, OpKind.SHR):
            return int_special(ctx, kind, t, a, b)
    elif isinstance(t, FixedType):
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return VECTOR_ARITH[kind](a, b)


def shifted_out(t: IntType, a: Lanes, b: Lanes) -> Lanes:
    """Lanes where `a << b` does not fit `t` (a count of t.width or more keeps only a zero)."""
    a, b = ints(a), ints(b)
    count = np.clip(b, 0, 63)
    low, high = np.right_shift(np.int64(t.min), count), np.right_shift(np.int64(min(t.max, 2 ** 63 - 1)), count)
    return np.where(b >= t.width, a != 0, (a < low) | (a > high))


def int_special(ctx: Context, kind: str, t: IntType, a: Lanes, b: Lanes) -> Lanes:
    bad = b == 0 if kind in (OpKind.FLOORDIV, OpKind.MOD) else b < 0
    if first_lane(ctx, bad) is not None:
        if kind in (OpKind.FLOORDIV, OpKind.MOD):
            raise ZeroDivisionError("integer division or modulo by zero")
        raise ValueError("negative shift count")
    b = safe(b, bad, 1)
    if kind == OpKind.FLOORDIV:
        return a // b
    if kind == OpKind.MOD:
        return a % b
    if kind == OpKind.SHR:
        return a >> np.minimum(b, 63)
    shifted = np.where(b >= 64, np.int64(0), np.left_shift(a, np.minimum(b, 63)))
    return wrap_int64(np.asarray(shifted), t) if t.width < 64 else shifted


def unary(op: UnaryOp, a: Lanes) -> Lanes:
    t = op.result.type
    if op.kind == OpKind.NOT:
        return np.logical_not(a)
    if isinstance(t, IntType):
        a = ints(a)
    return UNARY[op.kind](a)


def compare(op: CompareOp, a: Lanes, b: Lanes) -> Lanes:
    if isinstance(op.operands[0].type, BoolType) != isinstance(op.operands[1].type, BoolType):
        a, b = ints(a), ints(b)
    return COMPARE[op.kind](a, b)


def math(op: MathOp, args: list[Lanes]) -> Lanes:
    t = op.result.type
    converted = [np.asarray(t.convert(np.asarray(ints(a)))) for a in args]
    return runtime.math_lanes(op.func, t, *converted)  # the C library csim calls, as Python mode does


# --------------------------------------------------------------------------------------------------


class Runner(Walker):
    """One run of the numpy model over a kernel's IR: a rule per op class the plan admits
    (hls/sim/vplan.check_op); `block` ends at the terminator before any rule sees it."""

    not_applicable = (YieldOp, ReturnOp, WhileOp, PrintOp, RowOp, StreamOp, FifoOp, StructPackOp, StructGetOp, *BIT_OPS)

    def __init__(self, plan: Plan, record: bool):
        self.plan = plan
        self.env: dict[Value, Any] = {}
        self.record = record
        self.events: dict[str, tuple[tuple, ScalarType, Any, Any]] = {}

    def get(self, ctx: Context, value: Value) -> Any:
        v = self.env[value]
        if isinstance(v, np.ndarray) and 0 < v.ndim < len(ctx.shape):
            return v.reshape(v.shape + (1,) * (len(ctx.shape) - v.ndim))
        return v

    def run(self, args: list[Any]) -> Any:
        func = self.plan.func
        ret = func.return_type
        if isinstance(ret, ArrayType):  # an array result is a fresh output argument (hls.frontend.results)
            args = [*args, runtime.ArrayView(np.zeros(ret.shape, ret.elem.storage_dtype), ret.elem)]
        for arg, value in zip(func.args, args, strict=True):
            self.env[arg] = value.data if isinstance(value, runtime.ArrayView) else \
                constant_of(arg.type, value)
        with np.errstate(all="ignore"):
            values = self.block(Context(), func.body.block)
        if isinstance(ret, ArrayType):
            result = args[-1].data
        elif isinstance(ret, TupleType):
            result = tuple(to_python(np.asarray(v).reshape(-1)[0], t) for v, t in zip(values, ret.elems, strict=True))
        else:
            result = to_python(np.asarray(values[0]).reshape(-1)[0], ret) if values else None
        for site, (_, t, before, after) in sorted(self.events.items(), key=lambda e: e[1][0]):
            runtime.OVERFLOWS.record(site, t, before, after)
        return result

    def block(self, ctx: Context, block: Block) -> list[Any] | Any:
        for pos, op in enumerate(block.ops):
            if op.is_terminator:
                return [self.get(ctx, v) for v in op.operands]
            self.dispatch(op, ctx, pos)
            for value in self.plan.dead_after.get(op, ()):
                del self.env[value]
        return []

    def args(self, ctx: Context, op: Op) -> list[Any]:
        return [self.get(ctx, v) for v in op.operands]

    @rule(CallOp)
    def call(self, op: CallOp, ctx: Context, pos: int) -> None:
        callee = self.plan.functions[op.callee]
        args = [self.env[v] if isinstance(v.type, ArrayType) else self.get(ctx, v) for v in op.operands]
        self.env.update(zip(callee.args, args, strict=True))
        results = self.block(Context(ctx.shape, ctx.mask, (*ctx.path, pos)), callee.body.block)
        self.env.update(zip(op.results, results, strict=True))

    @rule(AllocOp)
    def alloc(self, op: AllocOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = np.zeros(op.result.type.shape, op.result.type.elem.storage_dtype)

    @rule(RomOp)
    def rom(self, op: RomOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = np.asarray(op.data)

    @rule(DirectiveOp)
    def directive(self, op: DirectiveOp, ctx: Context, pos: int) -> None:
        """Directives change nothing a run computes."""

    @rule(ConstantOp)
    def const(self, op: ConstantOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = constant(op)

    @rule(BinaryOp)
    def binary(self, op: BinaryOp, ctx: Context, pos: int) -> None:
        args = self.args(ctx, op)
        if op in self.plan.object_ops:
            result = vobject.binary(op, *args, lambda bad, error, v, fill: self.check(ctx, bad, error, v, fill))
            if self.record and shifts_out(op):
                wrapped = vobject.bools(vobject.objects(args[0]) << vobject.objects(args[1]) != result)
                self.note_wrap(ctx, op, pos, wrapped, (args[0], args[1]), result)
        else:
            result = binary(ctx, op, *args)
            if self.record and shifts_out(op):
                self.note_wrap(ctx, op, pos, shifted_out(op.result.type, *args), (args[0], args[1]), result)
        self.env[op.result] = result

    @rule(CompareOp)
    def compare(self, op: CompareOp, ctx: Context, pos: int) -> None:
        args = self.args(ctx, op)
        self.env[op.result] = vobject.compare(op, *args) if op in self.plan.object_ops else compare(op, *args)

    @rule(UnaryOp)
    def unary(self, op: UnaryOp, ctx: Context, pos: int) -> None:
        (arg,) = self.args(ctx, op)
        self.env[op.result] = vobject.unary(op, arg) if op in self.plan.object_ops else unary(op, arg)

    @rule(LogicOp)
    def logic(self, op: LogicOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = (np.logical_and if op.kind is OpKind.LAND else np.logical_or)(*self.args(ctx, op))

    @rule(SelectOp)
    def select(self, op: SelectOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = np.where(*self.args(ctx, op))

    @rule(MathOp)
    def math(self, op: MathOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = math(op, self.args(ctx, op))

    def check(self, ctx: Context, bad: Any, error: Exception, values: Any, fill: Any) -> Any:
        """Raise `error` if a lane that executes is bad; `values` made harmless in the others."""
        if first_lane(ctx, bad) is not None:
            raise error
        return safe(values, bad, fill)

    @rule(CastOp)
    def cast(self, op: CastOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = self.convert(ctx, op, pos, self.get(ctx, op.operands[0]))

    def convert(self, ctx: Context, op: CastOp, pos: int, value: Lanes) -> Lanes:
        t, src = op.result.type, op.operands[0].type
        record = self.record and not op.explicit and op.loc is not None and op not in self.plan.silent
        if op in self.plan.object_ops:
            if ctx.mask is not None:
                value = np.where(ctx.mask, value, vobject.objects(0) if np.asarray(value).dtype == object else 0)
            result, wrapped, value = vobject.convert(t, src, value, record)
        else:
            result = convert(ctx, t, src, value)
            wrapped = overflowed(t, src, value, result) if record else None
        if record:
            self.note_wrap(ctx, op, pos, wrapped, value, result)
        return result

    def note_wrap(self, ctx: Context, op: Op, pos: int, wrapped: Any, value: Any, result: Lanes) -> None:
        """The first lane (in iteration order) where `op` wrapped, as its source line's event; `value` is
        the operand converted, or the (left, count) pair of a `<<` that shifted bits out."""
        lane = first_lane(ctx, wrapped)
        if lane is None:
            return
        key = (*(lane[e[1]] if isinstance(e, tuple) else e for e in ctx.path), pos)
        site = f"{op.loc.file}:{op.loc.line}"
        if site not in self.events or key < self.events[site][0]:
            t = op.result.type
            if isinstance(value, tuple):
                before = int(to_python(lane_value(value[0], lane), op.lhs.type)) << int(lane_value(value[1], lane))
            else:
                before = to_python(lane_value(value, lane), op.operands[0].type)
            self.events[site] = (key, t, before, to_python(lane_value(result, lane), t))

    # ---- memory ------------------------------------------------------------------------------------

    def indices(self, ctx: Context, op: LoadOp | StoreOp) -> tuple[Any, ...]:
        data = self.env[op.memref]
        out = []
        for dim, value in enumerate(op.indices):
            index = ints(self.get(ctx, value))
            bad = np.asarray((index < 0) | (index >= data.shape[dim]), dtype=np.bool_)
            lane = first_lane(ctx, bad)
            if lane is not None:
                raise IndexError(f"{op.memref.name or 'array'}: index {int(lane_value(index, lane))} out of "
                                 f"bounds for dimension {dim} of size {data.shape[dim]}")
            out.append(np.asarray(safe(index, bad, 0)).astype(np.int64, copy=False))
        return tuple(out)

    @rule(LoadOp)
    def load(self, op: LoadOp, ctx: Context, pos: int) -> None:
        self.env[op.result] = self.read(ctx, op)

    def read(self, ctx: Context, op: LoadOp) -> Lanes:
        data, index = self.env[op.memref], self.indices(ctx, op)
        strided = strided_index(index, ctx.shape)
        if strided is None:
            return from_storage(data[index], op.result.type)
        keys, axes = strided
        view = np.asarray(data[keys]).transpose(np.argsort(axes))
        view = view.reshape([n if a in axes else 1 for a, n in enumerate(ctx.shape)])
        return from_storage(view.copy(), op.result.type)  # a copy: a later store must not change what was read

    @rule(StoreOp)
    def store(self, op: StoreOp, ctx: Context, pos: int) -> None:
        data, elem = self.env[op.memref], op.memref.type.elem
        index = self.indices(ctx, op)
        value = to_storage(self.get(ctx, op.value), elem)
        if not ctx.shape:
            data[tuple(int(np.asarray(i).reshape(-1)[0]) for i in index)] = value.reshape(-1)[0]
            return
        strided = strided_index(index, ctx.shape) if ctx.mask is None else None
        if strided is not None and all(a in strided[1] for a, n in enumerate(ctx.shape) if n > 1):
            keys, axes = strided
            lanes = np.broadcast_to(value, ctx.shape)[tuple(slice(None) if a in axes else 0
                                                            for a in range(len(ctx.shape)))]
            data[keys] = np.asarray(lanes).transpose([sorted(axes).index(a) for a in axes])
            return
        full = np.broadcast_arrays(*index, value, np.empty(ctx.shape, dtype=np.bool_))
        if ctx.mask is not None:
            keep = np.broadcast_to(ctx.mask, ctx.shape)
            data[tuple(i[keep] for i in full[:-2])] = full[-2][keep]
        else:  # lanes write distinct elements (vplan proves it), so the order of a scatter does not matter
            data[tuple(full[:-2])] = full[-2]

    # ---- control flow ------------------------------------------------------------------------------

    def bounds(self, ctx: Context, op: ForOp) -> range:
        lb, ub, step = (int(np.asarray(self.get(ctx, v)).reshape(-1)[0]) for v in (op.lb, op.ub, op.step))
        return range(lb, ub, step)  # step 0 raises Python's own ValueError, as Python mode does

    @rule(ForOp)
    def loop(self, op: ForOp, ctx: Context, pos: int) -> None:
        trips = self.bounds(ctx, op)
        if op in self.plan.parallel:
            if len(trips):
                axis = len(ctx.shape)
                self.env[op.iv] = np.asarray(trips, dtype=np.int64).reshape((1,) * axis + (len(trips),))
                mask = None if ctx.mask is None else ctx.mask.reshape(ctx.mask.shape + (1,))
                self.block(Context((*ctx.shape, len(trips)), mask, (*ctx.path, pos, ("axis", axis))), op.body)
            return
        carried = [self.get(ctx, v) for v in op.inits]
        for count, iv in enumerate(trips):
            self.env[op.iv] = np.int64(iv)
            self.env.update(zip(op.carried, carried, strict=True))
            carried = self.block(Context(ctx.shape, ctx.mask, (*ctx.path, pos, count)), op.body)
        self.env.update(zip(op.results, carried, strict=True))

    @rule(IfOp)
    def branch(self, op: IfOp, ctx: Context, pos: int) -> None:
        cond = self.get(ctx, op.operands[0])
        if np.ndim(cond) == 0 or cond.size == 1:
            taken = bool(np.asarray(cond).reshape(-1)[0])
            block = op.then_block if taken else op.else_block
            results = self.block(Context(ctx.shape, ctx.mask, (*ctx.path, pos, 0 if taken else 1)), block)
        else:
            outcomes = []
            for k, (block, lanes) in enumerate(((op.then_block, cond), (op.else_block, ~cond))):
                mask = lanes if ctx.mask is None else lanes & ctx.mask
                sub = Context(ctx.shape, mask, (*ctx.path, pos, k))
                outcomes.append(self.block(sub, block) if np.any(mask) else None)
            then, other = (x if x is not None else y for x, y in (outcomes, outcomes[::-1]))
            results = [np.where(cond, a, b) for a, b in zip(then, other, strict=True)]
        self.env.update(zip(op.results, results, strict=True))


def constant_of(t: Any, value: Any) -> Lanes:
    """A scalar kernel argument (already converted by golden_arg) in the numpy model's form."""
    if not native_ok(t):
        return vobject.objects(value)
    if isinstance(t, IntType):
        return np.int64(value)
    if isinstance(t, FixedType):
        return np.float64(float(value))
    if isinstance(t, ArrayType):
        raise TypeError(t)
    return t.storage_dtype.type(value)


PYTHON_ERRORS = (ArithmeticError, ValueError, IndexError)


def run(plan: Plan, args: list[Any]) -> tuple[bool, Any]:
    """Run the kernel on Python-mode arguments (ArrayViews and converted scalars): (True, its result).

    On an error the arrays are put back as they were and the answer is (False, None): Python mode then
    runs the kernel and raises its own error, or finds none, because the IR computes both sides of
    `x if c else y` and `c and x` where Python evaluates one.
    """
    if runtime.OVERFLOWS.enabled and plan.speculative_reports:
        return False, None  # it could report a wrap in a value Python mode never computes
    saved = [(a.data, a.data.copy()) for a in args if isinstance(a, runtime.ArrayView) and not a.readonly]
    try:
        return True, Runner(plan, runtime.OVERFLOWS.enabled).run(args)
    except PYTHON_ERRORS:
        for data, copy in saved:
            data[...] = copy
        return False, None
