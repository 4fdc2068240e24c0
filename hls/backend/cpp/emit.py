"""IR function -> C++ statements. Single-use pure values are inlined into their user, so the code
reads like hand-written HLS C++; everything else becomes a named local from the Python variable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hls.backend.cpp import faults
from hls.backend.cpp.casts import (
    MODULAR,
    MODULAR_SYMBOLS,
    accumulator_type,
    assignment_type,
    implicit_conversion,
    modular_arith,
    unsigned_wrap,
)
from hls.backend.cpp.expr import (
    BIN_C,
    HELPERS,
    PREC,
    Expr,
    as_unsigned,
    cast_to,
    combine,
    fixed_source,
    macro_argument,
)
from hls.backend.cpp.locals import LocalNames
from hls.backend.cpp.op_expr import pure_expr
from hls.backend.cpp.pragmas import directive_pragma, loop_pragmas
from hls.backend.cpp.streams import StreamStatements, stream_spelling
from hls.backend.cpp.structs import StructStatements, element_subscripts
from hls.backend.cpp.values import (
    _ctype_or_int,
    _is_cell,
    _rom_value,
    c_string,
    plain_constant,
    print_format,
    rom_use_type,
    static_declaration,
)
from hls.backend.ctype import ApInt, CType, carrier_of, ctype_of, declared_array, promote, spelling
from hls.backend.names import Namer, member, sanitize
from hls.ir import (
    AllocOp,
    BinaryOp,
    CallOp,
    CastOp,
    CompareOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    Function,
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
    Value,
    WhileOp,
    YieldOp,
    has_exit,
)
from hls.ir.bitops import BIT_OPS
from hls.ir.core import Block, Op
from hls.ir.kinds import OpKind
from hls.ir.ranges import in_bounds, value_range
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.traits import process_of
from hls.ir.visit import Walker, rule
from hls.types import (
    ArrayType,
    FixedType,
    FloatType,
    IntType,
    ScalarType,
    StreamType,
    StructType,
    TupleType,
    TypeFamily,
)

MAX_INLINE_DEPTH = 6


ZERO_LIST_MAX = 16  # an ap array of at most this many elements is zeroed by an initializer list


@dataclass
class EmittedFunction:
    name: str
    signature: str
    body: list[str]
    helpers: set[str] = field(default_factory=set)
    arg_names: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # reference outputs of a tuple return
    makers: dict[str, tuple[str, str, list[str]]] = field(default_factory=dict)  # structs.struct_maker by type


class FunctionEmitter(StreamStatements, StructStatements, LocalNames, Walker):
    """One function as C++ statements: `block_ops` sends each op to its rule (a statement, a pending
    expression or nothing); a dataflow process is wrapped by `process` around its loop or call rule."""

    def __init__(self, func: Function, c_names: dict[str, str], top_pragmas: list[str]):
        self.func = func
        self.c_names = c_names
        self.namer = Namer(set(c_names.values()))
        self.exprs: dict[int, Expr] = {}
        self.pending: dict[int, Op] = {}
        self.depths: dict[int, int] = {}
        self.lines: list[str] = []
        self.depth = 1
        self.helpers: set[str] = set()
        self.makers: dict[str, tuple[str, str, list[str]]] = {}
        self.field_vars: dict[str, str] = {}  # `p.r` (a struct local's field in the IR) -> its C++ text
        self.done: set[int] = set()  # ops another rule wrote already (a whole-struct store)
        self.top_pragmas = top_pragmas
        self.ivs: set[int] = set()  # induction variables: the loop header reads them, beyond their uses
        self.init_locals(func)
        self.free_ivs: set[str] = set()
        self.retyped: dict[int, CType] = {}  # ROMs declared in the one fixed type their reads convert to

    # ---- entry ---------------------------------------------------------------------------------

    def emit(self) -> EmittedFunction:
        params = []
        for arg in self.func.args:
            name = self.namer.fresh(arg.name)
            self.bind(arg, Expr(name, PREC["primary"], _ctype_or_int(arg.type), reads=frozenset({name})))
            if isinstance(arg.type, ScalarType):
                self.declare_local(name, ctype_of(arg.type))  # a by-value argument: a re-assignment reuses it
            if isinstance(arg.type, StreamType):
                params.append(f"{stream_spelling(arg.type)} &{name}")
            else:
                params.append(declared_array(arg.type, name) if isinstance(arg.type, ArrayType)
                              else f"{spelling(arg.type)} {name}")
        ret_type = self.func.return_type
        ret = spelling(ret_type) if isinstance(ret_type, (ScalarType, StructType)) else "void"
        self.outputs = []
        if isinstance(ret_type, TupleType):  # one reference output per element
            names = self.func.result_names
            for i, t in enumerate(ret_type.elems):
                hint = f"{names[i]}_out" if i < len(names) and names[i] else f"ret_{i}"
                self.outputs.append(self.namer.fresh(hint))
                params.append(f"{spelling(t)} &{self.outputs[-1]}")
        c_name = self.c_names[self.func.name]
        ports = {a.name: self.exprs[id(a)].text for a in self.func.args}
        ports.update({f"__out{i}": name for i, name in enumerate(self.outputs)})
        for pragma in self.top_pragmas:
            self.line(pragma.format(**ports))
        pipeline = self.func.pipeline
        if pipeline is not None:
            self.lines.extend(f"    {p}" for p in loop_pragmas({"pipeline": pipeline}))
        self.block(self.func.body.block)
        return EmittedFunction(c_name, f"{ret} {c_name}({', '.join(params)})", self.lines, self.helpers,
                               [self.exprs[id(a)].text for a in self.func.args], self.outputs, self.makers)

    # ---- helpers -------------------------------------------------------------------------------

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def bind(self, value: Value, expr: Expr) -> None:
        self.exprs[id(value)] = expr
        self.note_reader(value, expr.reads)

    def use(self, value: Value) -> Expr:
        key = id(value)
        if key in self.pending:
            op = self.pending.pop(key)
            expr = self.build(op)
            self.exprs[key] = expr
            return expr
        if key in self.exprs:
            return self.exprs[key]
        op = getattr(value, "op", None)
        if isinstance(op, ConstantOp):
            return pure_expr(op, [])
        raise KeyError(f"value {value.name} used before it was emitted")

    def build(self, op: Op) -> Expr:
        if isinstance(op, LoadOp):
            memref = self.use(op.memref)
            indices = [self.use(i) for i in op.indices]
            text = memref.text + self.access(op, indices)
            ctype = self.retyped.get(id(op.memref)) or ctype_of(op.result.type)
            return Expr(text, PREC["primary"], ctype, True,
                        memref.reads.union(*(e.reads for e in indices)))
        if isinstance(op, StructGetOp):
            whole = self.use(op.struct)
            ft = op.struct.type.field(op.field)
            text = f"{whole.at(PREC['primary'])}.{member(op.struct.type, op.field)}"
            text += element_subscripts(op.element, getattr(ft, "shape", ()))
            return Expr(text, PREC["primary"], ctype_of(op.result.type), whole.has_load, whole.reads)
        expr = pure_expr(op, [self.use(v) for v in op.operands])
        self.note_helpers(expr.text)
        return expr

    def access(self, op: LoadOp | StoreOp, exprs: list[Expr]) -> str:
        """`[i]`, or for a field of an array of structs `[i].r` and `[i].taps[j]`."""
        rank = len(op.memref.type.shape)
        text = self.subscripts(op, op.indices[:rank], exprs[:rank])
        field = op.field
        if field is None:
            return text
        shape = op.memref.type.elem.field(field).shape if rank < len(op.indices) else ()
        name = member(op.memref.type.elem, field)
        return f"{text}.{name}{self.subscripts(op, op.indices[rank:], exprs[rank:], shape)}"

    def subscripts(self, op: LoadOp | StoreOp | RowOp, values: list[Value], exprs: list[Expr],
                   shape: tuple[int, ...] | None = None) -> str:
        """`[i][j]`, with a csim-only bounds check (at the access's line) on indices not proven in range."""
        parts = []
        memref = op.memref
        if _is_cell(memref):
            return ""  # a scalar static is declared as a scalar
        for dim, (size, value, expr) in enumerate(zip(memref.type.shape if shape is None else shape, values, exprs,
                                                      strict=True)):
            if in_bounds(value, size):
                parts.append(f"[{expr.text}]")
            else:
                self.helpers.add("hls_index")
                what = f"{memref.name or 'array'}: index out of bounds for dimension {dim} of size {size}"
                where = faults.site(faults.INDEX, what, op.loc)
                parts.append(f"[HLS_INDEX({macro_argument(expr.text)}, {size}, {where})]")
        return "".join(parts)

    def note_helpers(self, text: str) -> None:
        for helper in HELPERS:
            if helper + "<" in text or helper.upper() + "(" in text:  # templates, and the csim-checked macros
                self.helpers.add(helper)

    def inlinable(self, op: Op, block: Block) -> bool:
        """A load or pure op (`expression`) written inside its one user's expression."""
        # `p.r`, a struct local's field, is a C++ variable where the struct is one (`p.r = ...`, struct_read)
        named = op.result.name and ("." not in op.result.name or op.result.name in self.field_vars)
        if len(op.results) != 1 or named:  # a Python local: a C++ variable of its name (cpp/locals.py)
            return False
        uses = op.result.uses
        return len(uses) == 1 and uses[0].parent is block and self.depth_of(op) <= MAX_INLINE_DEPTH

    def depth_of(self, op: Op) -> int:
        """How deeply pending expressions nest under `op`: long chains get named locals instead."""
        return 1 + max((self.depths.get(id(v), 0) for v in op.operands if id(v) in self.pending), default=0)

    def flush(self, keep: set[int], loads_only: bool = True) -> None:
        """Materialize pending values before a side effect (a store may change what a load reads)."""
        for key in list(self.pending):
            if key in keep or key not in self.pending:
                continue
            op = self.pending[key]
            if loads_only and not self.has_load(op):
                continue
            self.materialize(op)

    def has_load(self, op: Op) -> bool:
        if isinstance(op, LoadOp):
            return True
        return any(id(v) in self.pending and self.has_load(self.pending[id(v)]) for v in op.operands)

    def materialize(self, op: Op) -> None:
        value = op.result
        held = self.accumulator(op)
        ctype = held or ctype_of(value.type)
        if (held or implicit_conversion(op)) and id(value) not in self.exprs:
            # `acc = acc + x` into an ap type: the assignment converts as the cast would, so write none
            text = self.assignable(self.use(op.operands[0]), value.type, ctype).text
        else:
            expr = self.build(op) if id(value) not in self.pending else self.use(value)
            # an operator's value fits its IR type, which a native or ap_int variable takes as it is (an
            # ap value converts into a native type that holds it, `uint16_t lo = ap_uint<16>(...)`)
            fits = not isinstance(op, CastOp) and (ctype.native or isinstance(ctype, ApInt)) and (
                expr.ctype.promotes or ctype.native and assignment_type(expr.ctype, value.type, ctype) is None)
            text = expr.text if fits else cast_to(expr, ctype).text
        self.pending.pop(id(value), None)
        name = self.reusable(self.field_vars.get(value.name, value.name), ctype, op)  # `p.r = ...` too
        if name is not None:
            self.flush_readers(name, op)
            sym = self.compound(op, name, held is not None)
            prefix = f"{name} {sym} "
            if sym is not None and text.startswith(prefix):
                self.line(f"{name} {sym}= {text[len(prefix):]};")  # `acc += x`, as the Python says
            else:
                self.line(f"{name} = {text};")
        else:
            name = self.namer.fresh(value.name)
            self.line(f"{ctype.spelling} {name} = {text};")
            self.declare_local(name, ctype)
        self.bind(value, Expr(name, PREC["primary"], ctype, reads=frozenset({name})))

    def accumulator(self, op: Op) -> CType | None:
        """The ap_int variable (casts.accumulator_type chose it) of the Python local that `op` assigns,
        when `op` is an integer wrap into that very width: the variable's assignment wraps as the cast."""
        t = op.result.type
        if not isinstance(op, CastOp) or not isinstance(op.operands[0].type, IntType) or not isinstance(t, IntType):
            return None
        want = ApInt(t.width, t.signed)
        return want if t.family is TypeFamily.INT and any(s.get(op.result.name) == want for s in self.scopes) else None

    def compound(self, op: Op, name: str, wraps: bool = False) -> str | None:
        """`+`, `-` or `*` when `op` computes `name <op> rhs` in float or fixed point (maybe through the
        assignment's conversion), so that `name op= rhs` says the same: ap_fixed's and float's `op=`
        compute the full-precision result and assign it."""
        arith = op.operands[0].op if (wraps or implicit_conversion(op)) and isinstance(
            getattr(op.operands[0], "op", None), BinaryOp) else op
        if not isinstance(arith, BinaryOp) or arith.kind not in (OpKind.ADD, OpKind.SUB, OpKind.MUL):
            return None
        exact = (FloatType, FixedType, IntType) if wraps else (FloatType, FixedType)  # ap_int's op= wraps as the IR
        if not isinstance(arith.result.type, exact) or id(arith.lhs) in self.pending:
            return None
        lhs = self.exprs.get(id(arith.lhs))
        return BIN_C[arith.kind][0] if lhs is not None and lhs.text == name else None

    def flush_readers(self, name: str, op: Op) -> None:
        """Pending expressions reading `name` that `op` does not evaluate itself: written out before
        `name` is overwritten."""
        keep = self.consumed(op) | {id(op.result)}
        for key in [k for k in self.pending if k not in keep]:
            if key in self.pending and name in self.reads_of(self.pending[key]):
                self.materialize(self.pending[key])

    def reads_of(self, op: Op) -> set[str]:
        """The C++ names a pending op's expression would read."""
        names: set[str] = set()
        for v in op.operands:
            if id(v) in self.pending:
                names |= self.reads_of(self.pending[id(v)])
            elif id(v) in self.exprs:
                names |= self.exprs[id(v)].reads
        return names

    def consumed(self, op: Op) -> set[int]:
        """Pending values `op` will evaluate at its own position: its operands and their inlined inputs."""
        keep: set[int] = set()
        work = [id(v) for v in op.operands]
        while work:
            key = work.pop()
            if key in keep:
                continue
            keep.add(key)
            if key in self.pending:
                work.extend(id(v) for v in self.pending[key].operands)
        return keep

    # ---- statements ----------------------------------------------------------------------------

    def block(self, block: Block) -> None:
        with self.scope():
            self.block_ops(block)

    def block_ops(self, block: Block) -> None:
        for op in block.ops:
            if process_of(op) is not None:
                self.flush(self.consumed(op), loads_only=False)
                self.process(op)
            else:
                self.dispatch(op, block)

    def side_effect(self, op: Op) -> None:
        """Before a statement: pending loads are written out (it may change what they read)."""
        self.flush(self.consumed(op))

    @rule(RowOp)
    def row(self, op: RowOp, block: Block) -> None:
        """`M[i]`: C++'s own row of a multi-dimensional array, a pointer to it where a call takes an array."""
        base = self.use(op.base)
        exprs = [self.use(v) for v in op.indices]
        text = f"{base.text}{self.subscripts(op, op.indices, exprs, op.base.type.shape[:len(op.indices)])}"
        self.bind(op.result, Expr(text, PREC["primary"], base.ctype, any(e.has_load for e in exprs),
                                  base.reads.union(*(e.reads for e in exprs))))

    @rule(ConstantOp)
    def constant(self, op: ConstantOp, block: Block) -> None:
        """Spelled where used (`use`)."""

    @rule(StructPackOp)
    def struct_pack(self, op: StructPackOp, block: Block) -> None:
        self.side_effect(op)
        self.pack(op)

    @rule(LoadOp, StructGetOp, BinaryOp, CompareOp, LogicOp, UnaryOp, CastOp, SelectOp, MathOp, *BIT_OPS)
    def expression(self, op: Op, block: Block) -> None:
        """Inlined into its one user when it may be (`inlinable`), else a named local."""
        if id(op.result) in self.exprs or self.struct_read(op):
            return  # a field of a struct local: `p.r` (StructStatements.struct_read)
        if self.inlinable(op, block):
            self.pending[id(op.result)] = op
            self.depths[id(op.result)] = self.depth_of(op)
            return
        self.side_effect(op)
        self.materialize(op)

    @rule(StoreOp)
    def store(self, op: StoreOp, block: Block) -> None:
        if id(op) in self.done or self.whole_store(op):
            return
        self.side_effect(op)
        indices = [self.use(i) for i in op.indices]
        target = self.use(op.memref).text + self.access(op, indices)
        self.line(self.assignment(target, op.value, op.value.type))

    @rule(StreamOp, FifoOp)
    def fifo(self, op: Op, block: Block) -> None:
        self.side_effect(op)
        self.stream_op(op)

    @rule(AllocOp)
    def alloc(self, op: AllocOp, block: Block) -> None:
        self.side_effect(op)
        name = self.namer.fresh(op.result.name)
        t = op.result.type
        if op.static or op.filled_by_call:
            self.line(static_declaration(op, name))
        elif isinstance(t.elem, StructType):
            self.line(f"{declared_array(t, name)};")
            self.zero_fill(name, t.shape, t.elem)
        elif ctype_of(t.elem).builtin:
            self.line(f"{declared_array(t, name)} = {{}};")
        elif t.size <= ZERO_LIST_MAX:
            # `= {}` runs ap_int/ap_fixed's default constructor, which leaves the value undefined:
            # hls.zeros promises zeros, so a short array lists them, a long one stores them in a loop
            self.line(f"{declared_array(t, name)} = {{{', '.join(['0'] * t.size)}}};")
        else:
            self.line(f"{declared_array(t, name)};")
            ivs = [self.namer.fresh("z") for _ in t.shape]
            loops = "".join(f"for (int {iv} = 0; {iv} < {n}; {iv}++) " for iv, n in zip(ivs, t.shape, strict=True))
            self.line(f"{loops}{name}{''.join(f'[{iv}]' for iv in ivs)} = 0;")
        self.bind(op.result, Expr(name, PREC["primary"], ctype_of(t.elem)))

    @rule(DirectiveOp)
    def directive(self, op: DirectiveOp, block: Block) -> None:
        self.side_effect(op)
        target = self.use(op.target).text if op.target is not None else None
        self.line(directive_pragma(op.directive, target))

    @rule(YieldOp)
    def yield_op(self, op: YieldOp, block: Block) -> None:
        """The enclosing loop or branch assigns the yielded values (`loop_tail`, `branch`)."""
        self.side_effect(op)

    @rule(ReturnOp)
    def return_op(self, op: ReturnOp, block: Block | None = None) -> None:
        self.side_effect(op)
        last = op.parent is self.func.body.block and op is self.func.body.block.ops[-1]
        if self.outputs:
            for name, value, t in zip(self.outputs, op.operands, self.func.return_type.elems, strict=True):
                self.line(f"{name} = {self.assignable(self.use(value), t).text};")
        elif op.operands:
            value = self.use(op.operands[0])
            self.line(f"return {self.assignable(value, self.func.return_type).text};")
            return
        if not last:
            self.line("return;")

    @rule(PrintOp)
    def print_op(self, op: PrintOp, block: Block) -> None:
        """printf for csim only; Python mode formats each value the same way (runtime.format_value)."""
        self.side_effect(op)
        values = iter(op.operands)
        pieces, args = [], []
        for part in op.parts:
            if part is not None:
                pieces.append(part.replace("%", "%%"))
                continue
            spec, arg = print_format(self.use(next(values)))
            pieces.append(spec)
            args.append(arg)
        text = c_string(op.sep.replace("%", "%%").join(pieces) + op.end.replace("%", "%%"))
        self.lines.append("#ifndef __SYNTHESIS__")
        self.line(f"std::printf({', '.join([text, *args])});")
        self.line("std::fflush(stdout);")
        self.lines.append("#endif")

    def assignable(self, expr: Expr, target_type, held: CType | None = None) -> Expr:
        """`expr` converted into a declared type (held in C++ type `held`, its own by default) as C++
        assignment does, with the cast casts.py asks for."""
        target = held or ctype_of(target_type)
        if target.family is TypeFamily.FIXED and expr.ctype != target:
            return fixed_source(expr, target.fixed)
        wide = assignment_type(expr.ctype, target_type, target)
        return expr if wide is None else cast_to(expr, wide)

    def assigned(self, value: Value, target_type, held: CType | None = None) -> tuple[Expr, Expr | None]:
        """`value` to assign into `target_type`, without the casts C++'s own wrap makes needless
        (`casts.modular_arith`: a pending IR wrap of `x + y` is written `x + y`), and the left operand
        when it is such a `+`, `-` or `*` (for `x op= y`)."""
        key = id(value)
        cast = self.pending.get(key)
        arith = self.pending.get(id(cast.operands[0])) if isinstance(cast, CastOp) else None
        if not isinstance(arith, BinaryOp) or arith.kind not in MODULAR or value.type != target_type:
            return self.assignable(self.use(value), target_type, held), None
        del self.pending[key], self.pending[id(arith.result)]
        a, b = self.use(arith.lhs), self.use(arith.rhs)
        wrap = unsigned_wrap(a.ctype, b.ctype, target_type)
        if wrap is not None:  # `x + 1u`: unsigned, so C++ wraps where a signed int would overflow
            a, b = (as_unsigned(a, wrap), b) if a.text.isdigit() and not b.text.isdigit() else (a, as_unsigned(b, wrap))
        if modular_arith(a.ctype, b.ctype, arith.lhs.type, arith.rhs.type, arith.result.type, target_type):
            sym, prec = BIN_C[arith.kind]
            expr = combine(f"{a.at(PREC[prec])} {sym} {b.at(PREC[prec] + 1)}", prec,
                           promote(a.ctype, b.ctype) or ctype_of(arith.result.type), a, b)
            self.exprs[key] = expr
            return self.assignable(expr, target_type, held), a
        inner = pure_expr(arith, [a, b])
        self.exprs[id(arith.result)] = inner
        expr = pure_expr(cast, [inner])
        self.note_helpers(expr.text)
        self.exprs[key] = expr
        return self.assignable(expr, target_type, held), None

    def assignment(self, target: str, value: Value, target_type) -> str:
        """`target = value;`, or `target op= y;` when the value is `target op y` in C++'s own wrap."""
        return self.compound_assignment(target, *self.assigned(value, target_type))

    @staticmethod
    def compound_assignment(target: str, expr: Expr, lhs: Expr | None) -> str:
        """`target op= y;` for `expr` = `target op y` (`lhs` its left operand), else `target = expr;`."""
        for sym in MODULAR_SYMBOLS if lhs is not None and lhs.text == target else ():
            if expr.text.startswith(f"{target} {sym} "):
                return f"{target} {sym}= {expr.text[len(target) + len(sym) + 2:]};"
        return f"{target} = {expr.text};"

    @rule(RomOp)
    def rom(self, op: RomOp, block: Block) -> None:
        from hls.backend.cpp.expr import constant_expr

        name = self.namer.fresh(op.result.name)
        t: ArrayType = op.result.type
        flat = op.data.ravel().tolist()
        used_as = rom_use_type(op)
        if used_as is not None:  # a float table read only as one fixed type: a table of that type
            t = ArrayType(used_as, t.shape)
            flat = [float(used_as.convert(v)) for v in flat]
            self.retyped[id(op.result)] = ctype_of(used_as)
        if isinstance(t.elem, FixedType):  # the exact value as a double: the initialization converts it
            values = [repr(float(v)) for v in flat]
        else:
            values = [constant_expr(ConstantOp(_rom_value(v, t.elem), t.elem)).text for v in flat]
        rows = [", ".join(values[i:i + 8]) for i in range(0, len(values), 8)]
        self.line(f"static const {declared_array(t, name)} = {{")
        for row in rows:
            self.line(f"    {row},")
        self.line("};")
        self.bind(op.result, Expr(name, PREC["primary"], ctype_of(t.elem)))

    def carried_vars(self, op: ForOp | WhileOp, *arg_lists: list[Value]) -> list[str]:
        """One C++ variable per carried value, standing for its block arguments and its loop result."""
        carried = []
        for k, (init, res) in enumerate(zip(op.inits, op.results, strict=True)):
            arg = arg_lists[0][k]
            ctype = accumulator_type(op.carried[k], op.body.ops[-1].operands[k]) or ctype_of(arg.type)
            # a pending init may be another value's variable under a no-op cast (acc = i0), and an
            # induction variable is read by its loop header: only a variable of init's own is taken over
            owned = id(init) not in self.pending and id(init) not in self.ivs
            init_expr = plain_constant(init, arg.type) or self.use(init)
            if owned and len(init.uses) == 1 and init_expr.reads == {init_expr.text} and init_expr.ctype == ctype \
                    and not isinstance(init.type, ArrayType):
                name = init_expr.text  # the loop takes over a variable nothing else reads afterwards
            else:
                name = self.namer.fresh(arg.name)
                self.line(f"{ctype.spelling} {name} = {self.assignable(init_expr, arg.type).text};")
                self.declare_local(name, ctype)
            expr = Expr(name, PREC["primary"], ctype, reads=frozenset({name}))
            for args in arg_lists:
                self.bind(args[k], expr)
            self.bind(res, expr)
            carried.append(name)
        return carried

    @rule(ForOp)
    def for_op(self, op: ForOp, block: Block | None = None) -> None:
        self.flush(self.consumed(op), loads_only=False)  # it may store to what a pending load reads
        carried = self.carried_vars(op, op.carried)
        lb, ub, step = (self.use(v) for v in (op.lb, op.ub, op.step))
        if ub.has_load:
            # the condition runs every iteration, but Python evaluates range() once, and the body may
            # store to what the bound reads (range(a[0] & 7) with a[0] = ... inside): read it once
            name = self.namer.fresh("bound")
            self.line(f"{ub.ctype.spelling} {name} = {ub.text};")
            ub = Expr(name, PREC["primary"], ub.ctype, reads=frozenset({name}))
        iv = self.iv_name(op.iv.name)
        carrier = carrier_of(op.iv.type)
        self.bind(op.iv, Expr(iv, PREC["primary"], carrier, reads=frozenset({iv})))
        self.ivs.add(id(op.iv))
        test, inc = self.loop_step(op, iv, step, ub)
        label = op.label
        prefix = f"{label}: " if label else ""
        self.line(f"{prefix}for ({carrier.spelling} {iv} = {lb.text}; {test}; {inc}) {{")
        self.depth += 1
        for pragma in loop_pragmas(op.directive_fields()):
            self.line(pragma)
        self.block(op.body)
        self.loop_tail(op, carried)
        self.depth -= 1
        self.line("}")
        self.free_ivs.add(iv)  # out of scope: the next loop over `i` may call its variable `i` again

    def loop_step(self, op: ForOp, iv: str, step: Expr, ub: Expr) -> tuple[str, str]:
        """The condition and the increment of a counted loop. A step that is a variable is read once (Python
        evaluates range() once); its sign, when its value range does not fix it, is tested in the condition,
        so a zero step runs no iteration, and csim flags it before the loop, where Python mode raises."""
        bound = ub.at(PREC["rel"] + 1)
        if isinstance(getattr(op.step, "op", None), ConstantOp):
            value = op.step.op.value
            inc = f"{iv}++" if value == 1 else f"{iv}--" if value == -1 else \
                f"{iv} += {step.text}" if value > 0 else f"{iv} -= {-value}"
            return f"{iv} {'<' if value > 0 else '>'} {bound}", inc
        if step.has_load or step.prec < PREC["primary"]:
            name = self.namer.fresh("step")
            self.line(f"{step.ctype.spelling} {name} = {step.text};")
            step = Expr(name, PREC["primary"], step.ctype, reads=frozenset({name}))
        known = value_range(op.step)
        inc = f"{iv} += {step.text}"
        if known is not None and known[0] > 0:
            return f"{iv} < {bound}", inc
        if known is not None and known[1] < 0:
            return f"{iv} > {bound}", inc
        self.helpers.add("hls_range_step")
        where = faults.site(faults.RANGE_STEP, "range() arg 3 must not be zero", op.loc)
        self.line(f"HLS_RANGE_STEP({step.text}, {where});")
        return f"({step.text} > 0 ? {iv} < {bound} : {step.text} < 0 && {iv} > {bound})", inc

    def iv_name(self, hint: str | None) -> str:
        """A loop variable's C++ name: the Python one when only an earlier, closed loop used it."""
        name = sanitize(hint or "v")
        if name in self.free_ivs:
            self.free_ivs.discard(name)
            return name
        return self.namer.fresh(hint)

    @rule(WhileOp)
    def while_op(self, op: WhileOp, block: Block | None = None) -> None:
        """`while (cond) { ... }`, or `while (true) { ...; if (!(cond)) break; ... }` when the condition
        needs statements of its own."""
        self.flush(self.consumed(op), loads_only=False)  # it may store to what a pending load reads
        carried = self.carried_vars(op, op.cond.args, op.body.args)
        label = op.label
        saved, self.lines = self.lines, []
        self.depth += 1
        self.block(op.cond)
        cond = self.use(op.cond.terminator.operands[0])
        self.pending.clear()
        cond_lines, self.lines = self.lines, saved
        self.depth -= 1
        self.line(f"{label + ': ' if label else ''}while ({'true' if cond_lines else cond.text}) {{")
        self.depth += 1
        for pragma in loop_pragmas(op.directive_fields()):
            self.line(pragma)
        if cond_lines:
            self.lines.extend(cond_lines)
            self.line(f"if (!({cond.text})) break;")
        self.block(op.body)
        self.loop_tail(op, carried)
        self.depth -= 1
        self.line("}")

    def loop_tail(self, op: ForOp | WhileOp, names: list[str]) -> None:
        """The carried variables' updates and, for a loop with an early exit, `if (flag) break;`."""
        values = op.body.terminator.operands
        stop = None
        if has_exit(op):
            values, stop = values[:-1], self.use(values[-1])
            if stop.reads & set(names):  # read before the updates overwrite what it reads
                name = self.namer.fresh("exit")
                self.line(f"bool {name} = {stop.text};")
                stop = Expr(name, PREC["primary"], stop.ctype, reads=frozenset({name}))
        self.assign_yield(values, names, op.carried)
        if stop is not None:
            self.line(f"if ({stop.text}) break;")

    def assign_yield(self, operands: list[Value], names: list[str], targets: list[Value]) -> None:
        assigned = [self.assigned(v, t.type, self.exprs[id(t)].ctype) for v, t in zip(operands, targets, strict=True)]
        self.pending.clear()
        updates = [(n, e, t, lhs) for n, (e, lhs), t in zip(names, assigned, targets, strict=True) if e.text != n]
        written: set[str] = set()
        clash = False
        for n, e, _, _ in updates:
            if e.reads & written:
                clash = True
            written.add(n)
        if clash:
            temps = []
            for n, e, t, _ in updates:
                tmp = self.namer.fresh(n + "_next")
                held = self.exprs[id(t)].ctype
                self.line(f"{held.spelling} {tmp} = {self.assignable(e, t.type, held).text};")
                temps.append((n, tmp))
            for n, tmp in temps:
                self.line(f"{n} = {tmp};")
            return
        for n, e, _, lhs in updates:
            self.line(self.compound_assignment(n, e, lhs))

    @rule(IfOp)
    def if_op(self, op: IfOp, block: Block | None = None) -> None:
        self.flush(self.consumed(op), loads_only=False)  # it may store to what a pending load reads
        cond = self.use(op.operands[0])
        names = []
        for res in op.results:
            ctype = ctype_of(res.type)
            name = self.reusable(res.name, ctype, op, inside_ok=True) if len(op.results) == 1 else None
            if name is None:
                name = self.namer.fresh(res.name)
                self.line(f"{ctype.spelling} {name};")
                self.declare_local(name, ctype)
            self.bind(res, Expr(name, PREC["primary"], ctype, reads=frozenset({name})))
            names.append(name)
        self.line(f"if ({cond.text}) {{")
        self.branch(op.then_block, names, op.results)
        saved, self.lines = self.lines, []
        self.branch(op.else_block, names, op.results)
        orelse, self.lines = self.lines, saved
        if orelse:  # a branch that writes nothing (the variable keeps its value) has no `else`
            self.line("} else {")
            self.lines.extend(orelse)
        self.line("}")

    def branch(self, block: Block, names: list[str], results: list[Value]) -> None:
        self.depth += 1
        self.block(block)
        exprs = [self.use(v) for v in block.terminator.operands]
        for name, expr, res in zip(names, exprs, results, strict=True):
            if expr.text != name:  # a branch that left the variable as it was writes nothing
                self.line(f"{name} = {self.assignable(expr, res.type).text};")
        self.pending.clear()
        self.depth -= 1

    @rule(CallOp)
    def call_op(self, op: CallOp, block: Block | None = None) -> None:
        self.flush(self.consumed(op), loads_only=False)  # it may store to what a pending load reads
        args = ", ".join(self.use(v).text for v in op.operands)
        if op.outputs:  # a tuple result: locals the callee writes through references
            names = []
            for res in op.results:
                name = self.namer.fresh(res.name or "ret")
                ctype = ctype_of(res.type)
                self.line(f"{ctype.spelling} {name};")
                self.bind(res, Expr(name, PREC["primary"], ctype, reads=frozenset({name})))
                names.append(name)
            self.line(f"{self.c_names[op.callee]}({', '.join([args, *names] if args else names)});")
            return
        call = f"{self.c_names[op.callee]}({args})"
        if not op.results:
            self.line(f"{call};")
            return
        ctype = ctype_of(op.result.type)
        name = self.reusable(op.result.name, ctype, op)
        if name is not None:  # `acc = mac(w, x, acc)`: the call reads its arguments before the assignment
            self.flush_readers(name, op)
            self.line(f"{name} = {call};")
        else:
            name = self.namer.fresh(op.result.name or "ret")
            self.line(f"{ctype.spelling} {name} = {call};")
            self.declare_local(name, ctype)
        self.bind(op.result, Expr(name, PREC["primary"], ctype, reads=frozenset({name})))
