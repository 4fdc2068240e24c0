"""Which loops of a kernel the numpy golden model may run as whole-array operations.

A loop is *parallel* when no iteration uses what another iteration produces: it carries no value,
its bounds are the same in every lane of the loops around it, and every pair of accesses to an
array inside it (at least one a store) provably touches the same element only within one
iteration. The proof works on affine indices (hls.ir.affine): some dimension where both
indices are `a * iv + (the same terms fixed during the loop) + c` with equal `a` and constants that
cannot meet in another iteration. Indices that involve inner loop counters or data prove nothing.

The analysis also decides whether the interpreter in hls/golden/vexec.py can run the kernel at all
(supported ops and types, exactly representable in int64 / float64) and whether it is worth it
(`fast`: every loop that runs element by element sits inside a parallel loop or contains one).
This lives in the sim stage because it uses the schedule stage's affine forms.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from hls.ir import (
    SCALAR_OPS,
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
    has_exit,
)
from hls.ir.affine import Affine, combine
from hls.ir.bitops import BIT_OPS
from hls.ir.core import Block, BlockArg, Function, Module, Op, Value
from hls.ir.kinds import OpKind
from hls.ir.ranges import value_range
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.passes.evaluate import KINDS
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, ScalarType

INT64 = (-(1 << 63), (1 << 63) - 1)
FLOAT_EXACT_BITS = 53  # fixed-point values and the ints mixed with them travel exactly as float64
MIN_LANES = 8  # fewer lanes than this, and interpreting the IR costs more than Python mode's statements
PURE = SCALAR_OPS


class Unsupported(Exception):
    """The kernel needs the element-by-element model; the message says why."""


@dataclass
class Plan:
    """The numpy model's view of one kernel: parallel loops, and whether the model applies."""

    func: Function
    functions: dict[str, Function]
    parallel: set[ForOp] = field(default_factory=set)
    object_ops: set[Op] = field(default_factory=set)  # ops run on Python-mode values (vobject.py)
    silent: set[Op] = field(default_factory=set)  # conversions Python mode never reports (call arguments)
    speculative_reports: bool = False  # a reported conversion in a value Python may not compute
    reason: str | None = None  # why the model cannot run the kernel (None: it can)
    fast: bool = False  # the model is worth using by default
    dead_after: dict[Op, list[Value]] = field(default_factory=dict)  # values last used by the op

    @property
    def supported(self) -> bool:
        return self.reason is None


def plan_kernel(module: Module) -> Plan:
    plan = Plan(module.top_function, dict(module.functions))
    try:
        for func in module.functions.values():
            check_function(func)
        for func in module.functions.values():
            plan.parallel |= {op for op in func.walk() if isinstance(op, ForOp) and is_parallel(op, module)}
        for func in module.functions.values():
            check_vector_contexts(func, plan.parallel, module)
    except Unsupported as exc:
        plan.reason = str(exc)
        return plan
    for func in module.functions.values():
        for op in [None, *func.walk()]:
            for region in op.regions if op is not None else [func.body]:
                plan.dead_after.update(last_uses(region.block))
        plan.object_ops |= {op for op in func.walk() if isinstance(op, PURE) and needs_objects(op)}
        plan.silent |= {op for op in func.walk() if isinstance(op, CastOp) and op.result.uses
                        and all(isinstance(user, CallOp) for user in op.result.uses)}
    try:
        plan.speculative_reports = any(reports(op, plan, module) for f in module.functions.values()
                                       for op in f.walk() if speculative(op))
    except Unsupported as exc:
        plan.reason = str(exc)
        return plan
    serial = [op for f in module.functions.values() for op in f.walk() if isinstance(op, ForOp)
              and op not in plan.parallel]
    plan.fast = bool(plan.parallel) and all(serial_is_cheap(op, plan.parallel, module) for op in serial)
    return plan


def callees(op: Op, module: Module) -> list[Function]:
    """The sub-kernels `op` runs (its calls, and theirs)."""
    found = []
    for inner in op.walk():
        if isinstance(inner, CallOp):
            func = module.functions[inner.callee]
            found.append(func)
            for nested in func.body.block.ops:
                found += callees(nested, module)
    return found


def lane_safe(func: Function) -> bool:
    """A sub-kernel that can run once for many lanes: no arrays of its own, fixed loop bounds."""
    return all(not isinstance(op, AllocOp) and not (isinstance(op, ForOp) and op.const_bounds() is None)
               for op in func.walk())


# --------------------------------------------------------------------------------------------------
# what the interpreter can run exactly


@functools.cache
def native_ok(t: ScalarType) -> bool:
    """Values of `t` travel exactly in a numpy dtype (else as Python objects, hls/golden/vobject.py)."""
    if isinstance(t, (BoolType, FloatType)):
        return True
    if isinstance(t, IntType):
        return INT64[0] <= t.min and t.max <= INT64[1]
    if isinstance(t, FixedType):
        return t.width <= FLOAT_EXACT_BITS and -900 < t.frac_bits < 900
    return False


def type_ok(t: object) -> bool:
    if isinstance(t, ArrayType):
        return isinstance(t.elem, (BoolType, FloatType, IntType, FixedType))
    return isinstance(t, (BoolType, FloatType, IntType, FixedType))


def exact_in_float(t: object) -> bool:
    """Values of `t` are exact as float64 (fixed point, bools and ints up to 53 bits)."""
    if isinstance(t, IntType):
        return t.width <= FLOAT_EXACT_BITS
    return isinstance(t, (FixedType, BoolType)) and native_ok(t)


def needs_objects(op: Op) -> bool:
    """The op runs on Python-mode values per lane: a type numpy does not hold exactly, fixed-point
    division, or fixed point mixed with integers wider than float64 holds."""
    types = [v.type for v in [*op.operands, *op.results]]
    if not all(native_ok(t) for t in types):
        return True
    if isinstance(op, BinaryOp) and (op.kind == OpKind.DIV and isinstance(op.result.type, FixedType) or op.kind.typed):
        return True  # fixed-point division, and kinds whose fold needs the type (rotates), run per lane
    return any(isinstance(t, FixedType) for t in types) and not all(exact_in_float(t) or isinstance(t, FloatType)
                                                                   for t in types)


def check_function(func: Function, sequential: bool = False) -> None:
    """Raise Unsupported unless the interpreter can run `func`; `sequential`: the compiled model
    (hls/golden/jit.py), which runs in order and so also takes while loops and early exits."""
    for arg in func.args:
        if not type_ok(arg.type):
            raise Unsupported(f"argument {arg.name} of type {arg.type}")
    ops = func.body.block.ops
    for op in func.walk():
        check_op(op, sequential)
        if isinstance(op, ReturnOp) and op is not ops[-1]:
            raise Unsupported("a return before the end of the kernel")


class Admit(Walker):
    """The op classes the numpy model runs exactly as the golden model, each with the checks its
    operands and types need; every other op class keeps the kernel in the element-by-element model."""

    not_applicable = (WhileOp, *BIT_OPS, PrintOp, RowOp, StreamOp, FifoOp, StructPackOp, StructGetOp)

    def inapplicable(self, op: Op) -> None:
        raise Unsupported(f"{op.name} is not modelled in numpy")

    @rule(ConstantOp, LogicOp, SelectOp, CastOp, LoadOp, StoreOp, RomOp, ForOp, IfOp, YieldOp, ReturnOp,
          DirectiveOp)
    def plain(self, op: Op) -> None:
        """Nothing beyond the checks every op gets (check_op)."""

    @rule(AllocOp)
    def alloc(self, op: AllocOp) -> None:
        if op.static:
            raise Unsupported("state kept between calls (hls.static) lives in Python mode's kernel object")

    @rule(BinaryOp)
    def binary(self, op: BinaryOp) -> None:
        check_binary(op, op.result.type, [v.type for v in op.operands])

    @rule(CallOp)
    def call(self, op: CallOp) -> None:
        arrays = [v for v in op.operands if isinstance(v.type, ArrayType)]
        if len({id(v) for v in arrays}) < len(arrays):
            raise Unsupported("an array passed twice to one sub-kernel")

    @rule(CompareOp)
    def compare(self, op: CompareOp) -> None:
        types = [v.type for v in op.operands]
        if not numeric_mix_ok(types, None):
            raise Unsupported(f"comparison of {types[0]} with {types[1]}")

    @rule(UnaryOp)
    def unary(self, op: UnaryOp) -> None:
        if op.kind == OpKind.INVERT and not isinstance(op.result.type, IntType):
            raise Unsupported(f"~ on {op.result.type}")

    @rule(MathOp)
    def math(self, op: MathOp) -> None:
        types = [v.type for v in op.operands]
        if not all(isinstance(x, (FloatType, IntType, BoolType)) for x in types):
            raise Unsupported(f"math.{op.func} of {types}")


class AdmitSequential(Admit):
    """The compiled model (hls/sim/jit.py) runs in order, so it also takes while loops, early exits and
    the bit-level ops."""

    not_applicable = (PrintOp, RowOp, StreamOp, FifoOp, StructPackOp, StructGetOp)  # rows: Python mode

    @rule(WhileOp, *BIT_OPS)
    def in_order(self, op: Op) -> None:
        """Nothing beyond the checks every op gets."""


ADMIT, ADMIT_SEQUENTIAL = Admit(), AdmitSequential()


def check_op(op: Op, sequential: bool = False) -> None:
    """Raise Unsupported unless the interpreter computes `op` exactly as the golden model does."""
    admit = ADMIT_SEQUENTIAL if sequential else ADMIT
    if admit.rule_name(type(op)) is None:
        admit.inapplicable(op)
    if has_exit(op) and not sequential:
        raise Unsupported("a loop with `break` or `return` inside (its trip count depends on the data)")
    for value in [*op.results, *(a for r in op.regions for a in r.block.args)]:
        if not type_ok(value.type):
            raise Unsupported(f"{op.name} has a value of type {value.type}")
    admit.dispatch(op)


def check_binary(op: BinaryOp, t: object, types: list[object]) -> None:
    if op.kind not in KINDS.get(type(t), ()) and not (op.kind == OpKind.DIV and isinstance(t, FixedType)) \
            and not (op.kind.typed and isinstance(t, IntType)):
        raise Unsupported(f"{op.kind} on {t}")
    if isinstance(t, FloatType) and not types[0] == types[1] == t:
        raise Unsupported(f"{op.kind} of {types[0]} and {types[1]} to {t}")
    if not numeric_mix_ok(types, t):
        raise Unsupported(f"{op.kind} of {types[0]} and {types[1]}")


def numeric_mix_ok(types: list[object], result: object) -> bool:
    """Operands combine as Python mode combines them: ints/bools together, one float type, or fixed
    point with ints."""
    everything = [*types, *([result] if result is not None else [])]
    if isinstance(result, (IntType, BoolType)) or all(isinstance(x, (IntType, BoolType)) for x in everything):
        return all(isinstance(x, (IntType, BoolType)) for x in everything)
    if any(isinstance(x, FloatType) for x in everything):
        return all(x == types[0] for x in types) and (result is None or result == types[0])
    return True


# --------------------------------------------------------------------------------------------------
# parallel loops


def loop_of(value: Value) -> ForOp | None:
    if isinstance(value, BlockArg) and value.block.parent is not None:
        owner = value.block.parent.parent
        if isinstance(owner, ForOp) and value is owner.iv:
            return owner
    return None


def inside(op: Op | None, loop: Op) -> bool:
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def defining_op(value: Value) -> Op | None:
    if isinstance(value, BlockArg):
        return value.block.parent.parent if value.block.parent is not None else None
    return getattr(value, "op", None)


def affine(value: Value, loop: ForOp, depth: int = 0) -> Affine | None:
    """`value` as an affine form whose symbols are loop counters and values fixed during `loop`."""
    owner = defining_op(value)
    if owner is None or not inside(owner, loop) or loop_of(value) is not None:
        return Affine.symbol(value)  # fixed during the loop, or a loop counter
    op = getattr(value, "op", None)
    if depth > 32:
        return None
    if isinstance(op, ConstantOp) and isinstance(op.value, (int, bool)):
        return Affine(const=int(op.value))
    if isinstance(op, BinaryOp) and isinstance(op.result.type, IntType):
        return combine(op.kind, affine(op.lhs, loop, depth + 1), affine(op.rhs, loop, depth + 1))
    if isinstance(op, CastOp) and isinstance(op.result.type, IntType):
        inner, target = value_range(op.operands[0]), op.result.type
        if inner is not None and target.min <= inner[0] and inner[1] <= target.max:
            return affine(op.operands[0], loop, depth + 1)  # a cast that cannot wrap
    return None


def varies_inside(form: Affine, loop: ForOp) -> bool:
    """The form uses a counter of a loop nested in `loop` (it changes within one iteration)."""
    return any(isinstance(k, Value) and (inner := loop_of(k)) is not None and inner is not loop
               and inside(inner, loop) for k in form.terms)


def never_across(a: Affine | None, b: Affine | None, loop: ForOp) -> bool:
    """This dimension alone shows that the two accesses never meet in two different iterations."""
    if a is None or b is None or varies_inside(a, loop) or varies_inside(b, loop):
        return False
    iv = loop.iv
    if a.without(iv).terms != b.without(iv).terms or a.coeff(iv) != b.coeff(iv):
        return False
    coeff, diff = a.coeff(iv), b.const - a.const
    if coeff == 0:
        return diff != 0  # never the same element at all
    bounds = loop.const_bounds()
    if diff == 0 or bounds is None:
        return diff == 0
    stride = coeff * bounds[2]
    return diff % stride != 0 or abs(diff) >= abs(stride) * len(range(*bounds))


def is_parallel(loop: ForOp, module: Module) -> bool:
    if loop.inits:
        return False
    accesses: dict[Value, list[tuple[bool, list[Affine | None]]]] = {}
    for op in loop.body.ops:
        for inner in op.walk():
            if isinstance(inner, (LoadOp, StoreOp)):
                forms = [affine(i, loop) for i in inner.indices]
                accesses.setdefault(inner.memref, []).append((isinstance(inner, StoreOp), forms))
            elif isinstance(inner, (AllocOp, ReturnOp)):
                return False  # a fresh array per iteration, or leaving the kernel
            elif isinstance(inner, CallOp) and (any(isinstance(v.type, ArrayType) for v in inner.operands)
                                                or not all(lane_safe(f) for f in callees(inner, module))):
                return False  # what a sub-kernel does to an array is not analysed here
    for group in accesses.values():
        stores = [forms for is_store, forms in group if is_store]
        for s in stores:
            for _, other in group:
                if not any(never_across(x, y, loop) for x, y in zip(s, other, strict=True)):
                    return False
    return True


def uniform(value: Value, vector: set[ForOp], depth: int = 0) -> bool:
    """The value is the same in every lane: computed from constants and values outside parallel loops."""
    owner = defining_op(value)
    if owner is None or not any(inside(owner, loop) for loop in vector):
        return True
    op = getattr(value, "op", None)
    if isinstance(op, ConstantOp):
        return True
    if isinstance(op, PURE) and depth < 32:
        return all(uniform(v, vector, depth + 1) for v in op.operands)
    return False


def check_vector_contexts(func: Function, parallel: set[ForOp], module: Module) -> None:
    """Loop bounds are lane-uniform (rectangular iteration spaces): a parallel loop around a loop whose
    bounds depend on its counter runs element by element. Arrays are never allocated per lane."""
    changed = True
    while changed:
        changed = False
        for op in func.walk():
            if isinstance(op, ForOp) and not all(uniform(v, parallel) for v in (op.lb, op.ub, op.step)):
                outer = {p for p in parallel if p is not op and inside(op, p)}
                parallel -= outer
                changed = changed or bool(outer)
    for op in func.walk():
        if isinstance(op, AllocOp) and any(inside(op, loop) for loop in parallel):
            raise Unsupported("an array allocated inside an independent loop")


def lanes(loop: ForOp) -> int:
    trips = loop.trip_count()
    return MIN_LANES if trips is None else trips


def serial_is_cheap(loop: ForOp, parallel: set[ForOp], module: Module) -> bool:
    """An element-by-element loop costs little when it runs on whole arrays (inside parallel loops of
    enough lanes, or in a sub-kernel called only inside parallel loops) or drives one (contains one)."""
    around = [p for p in parallel if inside(loop, p)]
    if around:
        return math.prod(lanes(p) for p in around) >= MIN_LANES
    if any(op in parallel and lanes(op) >= MIN_LANES for op in loop.walk()):
        return True
    owner = loop
    while owner.parent_op() is not None:
        owner = owner.parent_op()
    name = next((f.name for f in module.functions.values() if owner in f.body.block.ops), None)
    sites = [op for f in module.functions.values() for op in f.walk()
             if isinstance(op, CallOp) and op.callee == name]
    return bool(sites) and all(any(inside(site, p) for p in parallel) for site in sites)


def last_uses(block: Block) -> dict[Op, list[Value]]:
    """For each op of the block, the block's values it uses for the last time (so their arrays can go)."""
    position = {op: k for k, op in enumerate(block.ops)}
    last: dict[Value, Op] = {}
    for op in block.ops:
        for inner in op.walk():
            for value in inner.operands:
                owner = getattr(value, "op", None)
                if owner is not None and owner.parent is block and position[op] > position[owner]:
                    last[value] = op
    out: dict[Op, list[Value]] = {}
    for value, op in last.items():
        out.setdefault(op, []).append(value)
    return out


def speculative(op: Op, depth: int = 0) -> bool:
    """Python may not compute the op: its value only feeds a side of `x if c else y` or the right of
    `c and x` / `c or x`, which the IR evaluates always."""
    if not op.results or depth > 64:
        return False
    for value in op.results:
        if not value.uses:
            return False
        for user in value.uses:
            guarded = isinstance(user, SelectOp) and user.operands[0] is not value or \
                isinstance(user, LogicOp) and user.operands[0] is not value
            if not guarded and not (isinstance(user, (*PURE, CallOp)) and speculative(user, depth + 1)):
                return False
    return True


def reports(op: Op, plan: Plan, module: Module) -> bool:
    """Running the op may report a wrap (or store into an array, which a speculative call must not)."""
    if isinstance(op, CastOp):
        return not op.explicit and op not in plan.silent and can_wrap(op.operands[0].type, op.result.type)
    if isinstance(op, BinaryOp) and shifts_out(op):
        return True
    if isinstance(op, CallOp):
        if any(isinstance(v.type, ArrayType) for v in op.operands):
            raise Unsupported("a sub-kernel with array arguments called inside an expression")
        return any(reports(inner, plan, module) for inner in module.functions[op.callee].walk())
    return False


def shifts_out(op: BinaryOp) -> bool:
    """A variable-count `<<` written in the kernel: Python mode reports the bits it drops as a wrap."""
    return op.kind == OpKind.SHL and not isinstance(getattr(op.rhs, "op", None), ConstantOp) and op.loc is not None


def can_wrap(src: object, t: object) -> bool:
    """A conversion Python mode may report (runtime.overflowed): a value of `src` that `t` does not hold."""
    if isinstance(src, (FloatType, BoolType)) or isinstance(t, (FloatType, BoolType)):
        return False
    if isinstance(t, IntType):
        return not (isinstance(src, IntType) and t.contains(src))
    return not (t.min <= src.min and src.max <= t.max)  # fixed point or an int into fixed point
