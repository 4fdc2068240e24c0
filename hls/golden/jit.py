"""The golden model at compiled speed: a kernel's IR written out as plain Python for numba's @njit.

The numpy model (vexec.py) needs independent loops; this one runs element by element in the
IR's order, so loop-carried code (sums, IIR filters, line buffers) runs as machine code too. It
applies where every value travels exactly in a machine word: integers whose IR type holds within
int64, bools, float32/float64 (no fixed point, no streams, no statics: those keep Python mode).
Integer operations are the golden model's own: the IR types every result exactly, so int64
arithmetic computes it; wraps at conversions are written out as mask-and-sign integer ops here,
not taken from the C++. Sums and products whose exact type is wider than 64 bits are allowed
where only ring operations (+ - * & | ^ ~ and unary -) use them before a conversion to a narrow
int: their value modulo 2**64 is then right, and a flag beside each tracks whether it is also the
exact value, which a reported conversion needs (the model gives up to Python mode when it is not).
Floats stay in their own precision (numba without fastmath contracts nothing); math functions
call the C library's expf/exp, as Python mode does through cffi.

Anything that would raise (division by zero, an index out of bounds, a NaN converted to an int) is
checked and raised in the compiled code; the runner (jitrun.py) then puts the arrays back and lets
Python mode raise its own error at the user's line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hls.golden.jitops import (
    CMP,
    RING,
    binary_lines,
    bit_lines,
    cast_lines,
    const_text,
    extern_decl,
    math_lines,
    unary_lines,
    wide,
)
from hls.golden.vplan import Plan, Unsupported, check_function, needs_objects, reports, shifts_out, speculative
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
    ReturnOp,
    RomOp,
    SelectOp,
    StoreOp,
    UnaryOp,
    WhileOp,
    YieldOp,
    has_exit,
)
from hls.ir.bitops import BIT_OPS, BitcastOp
from hls.ir.core import Block, Function, Module, Op, Value
from hls.ir.kinds import OpKind
from hls.types import ArrayType, BoolType, FixedType, IntType, ScalarType


@dataclass
class Site:
    """One reported conversion: its source line and types (the compiled code fills its event slot)."""

    where: str
    target: ScalarType
    source: ScalarType


@dataclass
class Program:
    """The generated module of one kernel, or why the kernel stays in Python mode."""

    source: str = ""
    top: str = ""
    sites: list[Site] = field(default_factory=list)
    externs: set[str] = field(default_factory=set)  # C maths functions the code calls
    reason: str | None = None
    speculative_reports: bool = False
    result_array: ArrayType | None = None  # an array result: a fresh output argument
    written: set[int] = field(default_factory=set)  # the array arguments the kernel may store into

    @property
    def supported(self) -> bool:
        return self.reason is None


def compile_module(module: Module) -> Program:
    """The numba source of a kernel and its sub-kernels (unoptimised IR: dead code still raises)."""
    program = Program()
    try:
        for func in module.functions.values():
            check_function(func, sequential=True)
            for op in func.walk():
                check_compiled(op)
        plan = Plan(module.top_function, dict(module.functions))
        plan.silent = {op for f in module.functions.values() for op in f.walk() if isinstance(op, CastOp)
                       and op.result.uses and all(isinstance(user, CallOp) for user in op.result.uses)}
        program.speculative_reports = any(reports(op, plan, module) for f in module.functions.values()
                                          for op in f.walk() if speculative(op))
    except Unsupported as exc:
        program.reason = str(exc)
        return program
    lines = ["import numpy as np", "from numba import njit", "from numba.core import types", ""]
    body: list[str] = []
    for func in module.functions.values():  # callees come before callers
        body += Writer(func, program, plan.silent).function()
    lines += [extern_decl(name) for name in sorted(program.externs)]
    program.source = "\n".join(lines + body) + "\n"
    program.top = fname(module.top)
    ret = module.top_function.return_type
    program.result_array = ret if isinstance(ret, ArrayType) else None
    top = module.top_function
    for op in top.walk():  # a store, or a sub-kernel given the array (not followed further)
        targets = [op.memref] if isinstance(op, StoreOp) else op.operands if isinstance(op, CallOp) else []
        program.written |= {top.args.index(v) for v in targets if v in top.args and isinstance(v.type, ArrayType)}
    return program


def check_compiled(op: Op) -> None:
    """What the compiled model adds to the numpy model's checks: no fixed point, wide values only in rings."""
    for value in [*op.operands, *op.results]:
        t = value.type.elem if isinstance(value.type, ArrayType) else value.type
        if isinstance(t, FixedType):
            raise Unsupported("fixed-point values (they run on exact fractions in Python mode)")
    if isinstance(op, BIT_OPS):
        if isinstance(op, BitcastOp) or not all(isinstance(v.type, BoolType) or isinstance(v.type, IntType) and
                                                v.type.width <= 63 for v in [*op.operands, *op.results]):
            raise Unsupported(f"{op.name} beyond integers of 63 bits")
        return
    if not isinstance(op, SCALAR_OPS) or not needs_objects(op):
        return
    if isinstance(op, (BinaryOp, UnaryOp)) and op.kind in RING and isinstance(op.result.type, IntType) and \
            all(isinstance(v.type, (IntType, BoolType)) for v in op.operands):
        if wide(op.result.type) and not all(ring_user(u) for u in op.result.uses):
            raise Unsupported(f"a {op.result.type} value used beyond + - * & | ^ ~")
        return
    if isinstance(op, CastOp) and isinstance(op.result.type, IntType) and \
            isinstance(op.operands[0].type, (IntType, BoolType)) or isinstance(op, ConstantOp):
        if wide(op.result.type) and not all(ring_user(u) for u in op.result.uses):
            raise Unsupported(f"a {op.result.type} value used beyond + - * & | ^ ~")
        return
    raise Unsupported(f"{op.name} on values wider than 64 bits")


def ring_user(op: Op) -> bool:
    return isinstance(op, (BinaryOp, UnaryOp)) and op.kind in RING or \
        isinstance(op, CastOp) and isinstance(op.result.type, IntType)


def fname(name: str) -> str:
    return f"k_{name}"


class Writer:
    """The Python text of one function: one SSA value, one local name."""

    def __init__(self, func: Function, program: Program, silent: set[Op]):
        self.func = func
        self.program = program
        self.silent = silent
        self.names: dict[Value, str] = {}
        self.exact: dict[Value, str] = {}  # wide value -> the name of its exactness flag
        self.lines: list[str] = []
        self.depth = 1

    def name(self, value: Value) -> str:
        if value not in self.names:
            self.names[value] = f"v{len(self.names)}"
        return self.names[value]

    def emit(self, *lines: str) -> None:
        self.lines += ["    " * self.depth + line for line in lines]

    def function(self) -> list[str]:
        args = [self.name(a) for a in self.func.args]
        head = ["", "", "@njit(cache=True, error_model='numpy', nogil=True)",
                f"def {fname(self.func.name)}({', '.join([*args, 'EV', 'REC'])}):"]
        for arg in self.func.args:
            if isinstance(arg.type, IntType):  # scalars arrive as int64 (bools stay bools)
                self.emit(f"{self.name(arg)} = np.int64({self.name(arg)})")
        self.block(self.func.body.block)
        if not any(isinstance(op, ReturnOp) for op in self.func.body.block.ops):
            self.emit("return 0")
        return head + self.lines

    def block(self, block: Block) -> list[str]:
        """Emit the block's ops; the names its terminator yields."""
        start = len(self.lines)
        out: list[str] = []
        for op in block.ops:
            if isinstance(op, YieldOp):
                out = [self.name(v) for v in op.operands]
            else:
                self.op(op)
        if len(self.lines) == start:
            self.emit("pass")
        return out

    def op(self, op: Op) -> None:
        if isinstance(op, (ForOp, WhileOp)):
            return self.loop(op)
        if isinstance(op, IfOp):
            return self.branch(op)
        if isinstance(op, (LoadOp, StoreOp)):
            return self.access(op)
        if isinstance(op, ReturnOp):
            values = [self.name(v) for v in op.operands]  # a sub-kernel's array result is one of them
            return self.emit(f"return ({', '.join(values)},)" if values else "return 0")
        if isinstance(op, CallOp):
            return self.call(op)
        if isinstance(op, AllocOp):
            t = op.result.type
            return self.emit(f"{self.name(op.result)} = np.zeros({t.shape!r}, np.{t.elem.storage_dtype.name})")
        if isinstance(op, RomOp):
            data = op.data
            return self.emit(f"{self.name(op.result)} = np.array({data.tolist()!r}, "
                             f"dtype=np.{data.dtype.name}).reshape({tuple(data.shape)!r})")
        if isinstance(op, DirectiveOp):
            return None
        return self.pure(op)

    def pure(self, op: Op) -> None:
        out = self.name(op.result)
        args = [self.name(v) for v in op.operands]
        types = [v.type for v in op.operands]
        if isinstance(op, ConstantOp) and wide(op.result.type):  # modulo 2**64, exact if int64 holds it
            low = (int(op.value) + (1 << 63)) % (1 << 64) - (1 << 63)
            self.exact[op.result] = f"e{out}"
            self.emit(f"{out} = {low}", f"e{out} = {low == int(op.value)}")
        elif isinstance(op, ConstantOp):
            self.emit(f"{out} = {const_text(op.value, op.result.type)}")
        elif isinstance(op, (BinaryOp, UnaryOp)):
            flags = [self.exact.get(v) for v in op.operands]
            if wide(op.result.type):
                self.exact[op.result] = f"e{out}"
            maker = binary_lines if isinstance(op, BinaryOp) else unary_lines
            self.emit(*maker(op.kind, out, args, types, op.result.type, flags))
            if isinstance(op, BinaryOp) and shifts_out(op):
                # bits shifted out are reported in Python mode with the exact value: it computes the report
                a, b = args
                self.emit(f"if REC and ({a} != 0 if {b} >= 64 else ({out} >> {b}) != {a}):",
                          "    raise ArithmeticError('inexact')")
        elif isinstance(op, CompareOp):
            self.emit(f"{out} = {args[0]} {CMP[op.kind]} {args[1]}")
        elif isinstance(op, LogicOp):
            self.emit(f"{out} = {args[0]} {'and' if op.kind is OpKind.LAND else 'or'} {args[1]}")
        elif isinstance(op, SelectOp):
            self.emit(f"{out} = {args[1]} if {args[0]} else {args[2]}")
        elif isinstance(op, BIT_OPS):
            self.emit(*bit_lines(op, out, args, types, op.result.type))
        elif isinstance(op, MathOp):
            self.emit(*math_lines(op.func, out, args, types, op.result.type, self.program.externs))
        else:
            self.cast(op, out, args[0])

    def cast(self, op: CastOp, out: str, arg: str) -> None:
        slot = None
        if not op.explicit and op.loc is not None and op not in self.silent:
            slot = len(self.program.sites)
            self.program.sites.append(Site(f"{op.loc.file}:{op.loc.line}", op.result.type, op.operands[0].type))
        exact = self.exact.get(op.operands[0])
        if wide(op.result.type):
            self.exact[op.result] = f"e{out}"
            self.emit(f"e{out} = {exact or 'True'}")
        self.emit(*cast_lines(out, arg, op.operands[0].type, op.result.type, slot, exact))

    def access(self, op: LoadOp | StoreOp) -> None:
        shape = op.memref.type.shape
        where = op.memref.name or "array"
        index = [self.name(v) for v in op.indices]
        for dim, (i, n) in enumerate(zip(index, shape, strict=True)):
            self.emit(f"if {i} < 0 or {i} >= {n}:", f"    raise IndexError('{where}: index out of bounds "
                      f"for dimension {dim}')")
        ref = f"{self.name(op.memref)}[{', '.join(index)}]"
        if isinstance(op, StoreOp):
            self.emit(f"{ref} = {self.name(op.value)}")
        elif isinstance(op.result.type, IntType):
            self.emit(f"{self.name(op.result)} = np.int64({ref})")
        else:
            self.emit(f"{self.name(op.result)} = {ref}")

    def call(self, op: CallOp) -> None:
        args = ", ".join([*(self.name(v) for v in op.operands), "EV", "REC"])
        results = [self.name(r) for r in op.results]
        if results:
            self.emit(f"{', '.join(results)}, = {fname(op.callee)}({args})")
        else:
            self.emit(f"{fname(op.callee)}({args})")

    def loop(self, op: ForOp | WhileOp) -> None:
        """A for loop over its range, a while loop testing its condition region first; the body's extra
        yielded flag of an early exit (`break`, `return` inside) ends the loop after the iteration."""
        carried = [self.name(v) for v in op.carried]
        for name, init in zip(carried, op.inits, strict=True):
            self.emit(f"{name} = {self.name(init)}")
        if isinstance(op, WhileOp):
            self.names.update(zip(op.cond.args, carried, strict=True))
            self.emit("while True:")
            self.depth += 1
            self.emit(f"if not {self.block(op.cond)[0]}:", "    break")
        else:
            lb, ub, step = (self.name(v) for v in (op.lb, op.ub, op.step))
            self.emit(f"if {step} == 0:", "    raise ValueError('range() arg 3 must not be zero')")
            self.emit(f"for {self.name(op.iv)} in range({lb}, {ub}, {step}):")
            self.depth += 1
        yielded = self.block(op.body)
        if carried:
            self.emit(f"{', '.join(carried)}, = {', '.join(yielded[:len(carried)])},")
        if has_exit(op):
            self.emit(f"if {yielded[len(carried)]}:", "    break")
        self.depth -= 1
        for result, name in zip(op.results, carried, strict=True):
            self.emit(f"{self.name(result)} = {name}")

    def branch(self, op: IfOp) -> None:
        results = [self.name(r) for r in op.results]
        self.emit(f"if {self.name(op.operands[0])}:")
        for k, block in enumerate((op.then_block, op.else_block)):
            if k:
                self.emit("else:")
            self.depth += 1
            yielded = self.block(block)
            if results:
                self.emit(f"{', '.join(results)}, = {', '.join(yielded)},")
            self.depth -= 1


WORTH_COMPILING = 200_000  # op executions: below this, numba's first compile costs more than Python mode saves


def work(ops: list[Op], module: Module, depth: int = 0) -> int:
    """Op executions of a block, loops counted by their constant trip counts (an unknown one as 1)."""
    total = 0
    for op in ops:
        total += 1
        if isinstance(op, ForOp):
            total += (op.trip_count() or 1) * work(op.body.ops, module, depth + 1)
        elif isinstance(op, IfOp):
            total += max(work(b.ops, module, depth + 1) for b in (op.then_block, op.else_block))
        elif isinstance(op, CallOp) and depth < 32:
            total += work(module.functions[op.callee].body.block.ops, module, depth + 1)
    return total


def worth_compiling(module: Module) -> bool:
    return work(module.top_function.body.block.ops, module) >= WORTH_COMPILING
