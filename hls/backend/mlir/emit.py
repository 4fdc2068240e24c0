"""The IR module as upstream MLIR: `func`, `scf`, `arith`, `memref`, `math` (docs/mlir.md has the mapping).

Loops are `scf.for` over `index` (not `affine.for`): bounds may be kernel arguments and indices are
computed in exact-width integer arithmetic (i17, i33, ...), which affine maps cannot state without
first proving the widths never wrap; `scf` keeps the translation one-to-one. Directives that no
upstream dialect has become discardable `hls.*` attributes.
"""

from __future__ import annotations

import numpy as np

from hls.backend.mlir import whiles as mlir_while
from hls.backend.mlir.builder import Builder, attr_text, elem_attrs, float_text, mlir_type, signed_bits, unsupported
from hls.backend.mlir.linalg import emit_generic, generic_of
from hls.backend.mlir.loops import loop_attrs, loop_header
from hls.backend.mlir.reductions import emit_reduction, reduction_of
from hls.backend.mlir.scalar import ScalarLowering
from hls.backend.mlir.selects import emit_ops
from hls.backend.mlir.streams import declarations, stream_op
from hls.errors import UnsupportedError
from hls.ir import (
    AllocOp,
    CallOp,
    ConstantOp,
    DirectiveOp,
    ForOp,
    Function,
    IfOp,
    LoadOp,
    Module,
    PrintOp,
    ReturnOp,
    RomOp,
    RowOp,
    StoreOp,
    Value,
    WhileOp,
    YieldOp,
)
from hls.ir.core import Block, Op
from hls.ir.stream_ops import FifoOp, StreamOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.types import ArrayType, BoolType, FixedType, FloatType, ScalarType, TupleType, as_int


def emit_mlir(module: Module) -> str:
    """The whole design as one `module`: ROM globals, then every function (callees first)."""
    b = Builder()
    b.line("module {")
    b.depth = 1
    globals_ = rom_globals(b, module)
    declarations(b, module)
    for func in module.functions.values():
        MlirFunctionEmitter(b, func, globals_, func.name == module.top).emit()
    b.depth = 0
    b.line("}")
    return b.render()


def rom_globals(b: Builder, module: Module) -> dict[int, str]:
    """One `memref.global constant` per ROM (generic form: xdsl has no custom syntax for it), and one
    mutable `memref.global` per hls.static local (its state between calls, initialised once)."""
    names: dict[int, str] = {}
    for func in module.functions.values():
        for op in func.walk():
            if isinstance(op, AllocOp) and op.static:
                static_global(b, func, op, names)
            elif isinstance(op, RomOp):
                base = f"{func.name}_{op.result.name or 'rom'}"
                name, n = base, 0
                while name in names.values():
                    n += 1
                    name = f"{base}_{n}"
                names[id(op)] = name
                t = op.result.type
                props = (f'sym_name = "{name}", sym_visibility = "private", type = {mlir_type(t)}, '
                         f"initial_value = {dense(op.data, t)}, constant")
                line = b.line(f'"memref.global"() <{{{props}}}>', " : () -> ()")
                line.attrs.update(elem_attrs(t))
    return names


def static_global(b: Builder, func: Function, op: AllocOp, names: dict[int, str]) -> None:
    base = name = f"{func.name}_{op.result.name or 'state'}"
    n = 0
    while name in names.values():
        n += 1
        name = f"{base}_{n}"
    names[id(op)] = name
    t = op.result.type
    init = op.init if op.cell else 0
    data = np.full(t.shape, float(init) if isinstance(t.elem, (FloatType, FixedType)) else init, dtype=object)
    props = (f'sym_name = "{name}", sym_visibility = "private", type = {mlir_type(t)}, '
             f"initial_value = {dense(data, t)}")
    line = b.line(f'"memref.global"() <{{{props}}}>', " : () -> ()")
    line.attrs.update(elem_attrs(t))


def dense(data, t: ArrayType) -> str:
    """`dense<...> : tensor<..>` of a ROM: raw mantissas for fixed point, exact literals otherwise."""
    def scalar(v) -> str:
        if isinstance(t.elem, FloatType):
            text = float_text(float(v))
            if text is None:
                raise UnsupportedError(f"ROM of {t} holds {v}, which MLIR's dense literal cannot spell")
            return text
        raw = int(v / t.elem.lsb) if isinstance(t.elem, FixedType) else int(v)
        if isinstance(t.elem, BoolType) or t.elem.width == 1:
            return "true" if raw else "false"
        return str(signed_bits(raw, t.elem.width))

    def nest(a) -> str:
        return "[" + ", ".join(nest(x) for x in a) + "]" if getattr(a, "ndim", 0) else scalar(a)

    tensor = f"tensor<{'x'.join(map(str, t.shape))}x{mlir_type(t.elem)}>"
    return f"dense<{nest(data)}> : {tensor}"


def grouped(directives: list[DirectiveOp]) -> dict[str, object]:
    """`hls.<kind>` -> the options (a list when one target has several of one kind)."""
    out: dict[str, object] = {}
    for d in directives:
        key = f"hls.{d.kind}"
        options = {k: v for k, v in d.directive.options().items() if v is not None}
        if key in out:
            prev = out[key]
            out[key] = [*prev, options] if isinstance(prev, list) else [prev, options]
        else:
            out[key] = options
    return out


class MlirFunctionEmitter(Walker):
    """One function as MLIR: a rule per op class. Structs have no MLIR form: reaching one is the
    user-facing `UnsupportedError` at its line, not an internal error."""

    not_applicable = (StructPackOp, StructGetOp)

    def __init__(self, b: Builder, func: Function, globals_: dict[int, str], top: bool):
        self.b, self.func, self.globals, self.top = b, func, globals_, top
        self.values: dict[int, str] = {}
        self.ivs: dict[int, str] = {}  # loop induction variables as `index`
        self.scalar = ScalarLowering(b)

    def emit(self) -> None:
        b, func = self.b, self.func
        b.start_function()
        directives = [op for op in func.walk() if isinstance(op, DirectiveOp)]
        params = []
        self.result = self.returned_array()
        for arg in func.args:
            name = self.values[id(arg)] = b.fresh(arg.name)
            if arg is self.result:
                continue
            attrs = {**elem_attrs(arg.type), **grouped([d for d in directives if d.target is arg])}
            params.append(f"{name}: {mlir_type(arg.type)}{_attr_dict(attrs)}")
        ret = ""
        results = list(func.return_type.elems) if isinstance(func.return_type, TupleType) else \
            [func.return_type] if isinstance(func.return_type, ScalarType) else []  # array result: an out arg
        if self.result is not None:
            results = [self.result.type]
        if results:
            ret = " -> (" + ", ".join(f"{mlir_type(t)}{_attr_dict(elem_attrs(t))}" for t in results) + ")"
        fattrs = {"hls.pipeline": func.pipeline} if func.pipeline is not None else {}
        fattrs.update(grouped([d for d in directives if d.target is None]))
        if self.top:
            fattrs["hls.top"] = True
        attributes = f" attributes {_attr_dict(fattrs).strip()}" if fattrs else ""
        b.line(f"func.func @{func.name}({', '.join(params)}){ret}{attributes} {{")
        b.depth += 1
        if self.result is not None:  # the seed's shape: the top kernel allocates and returns its result
            t = self.result.type
            b.line(f"{self.values[id(self.result)]} = memref.alloc()", f" : {mlir_type(t)}", elem_attrs(t))
        self.block(func.body.block)
        b.depth -= 1
        b.line("}")

    def returned_array(self) -> Value | None:
        """The top kernel's array result (its output argument in the IR, the C++ and the export), which the
        MLIR returns as a `memref.alloc` as the seed does; a sub-kernel's stays an argument its caller fills."""
        name = self.func.result_array
        if not self.top or name is None:
            return None
        return next(a for a in self.func.args if a.name == name)

    # ---- blocks and ops ------------------------------------------------------------------------

    def block(self, block: Block) -> None:
        emit_ops(self, block.ops)  # a select whose side loads is an scf.if (hls.backend.mlir.selects)

    def operand(self, v: Value) -> str:
        """The SSA name of `v`; constants are spelled where used (reused within a region, never dead)."""
        if isinstance(getattr(v, "op", None), ConstantOp):
            return self.scalar.constant(v.op, [])
        return self.values[id(v)]

    def op(self, op: Op) -> None:
        try:
            self.dispatch(op)
        except UnsupportedError as exc:
            if exc.loc is not None or op.loc is None:
                raise
            raise UnsupportedError(exc.message, op.loc) from None  # e.g. a type without an MLIR form

    def inapplicable(self, op: Op) -> None:
        raise unsupported(op, "no rule")

    @rule(StreamOp, FifoOp)
    def fifo_op(self, op: Op) -> None:
        stream_op(self, op)

    @rule(ConstantOp)
    def constant_op(self, op: ConstantOp) -> None:
        """Spelled where used (operand(), index())."""

    @rule(*(c for c in ScalarLowering.rules if c is not ConstantOp))
    def scalar_op(self, op: Op) -> None:
        """A pure op: arith/math through ScalarLowering, the result named with its type's attributes."""
        b = self.b
        start = len(b.lines)
        try:
            result = self.scalar.lower(op, [self.operand(v) for v in op.operands])
        except KeyError as exc:  # a kind missing from a table
            raise unsupported(op, f"kind {exc}") from None
        if len(op.results) != 1:
            raise unsupported(op, "results")
        self.values[id(op.result)] = result
        line = b.defs.get(result)
        if line is not None and line in b.lines[start:]:
            line.attrs.update(elem_attrs(op.result.type))

    def index(self, v: Value) -> str:
        """`v` as an `index` (memref subscripts, loop bounds): the loop's own index, or a cast."""
        if id(v) in self.ivs:
            return self.ivs[id(v)]
        if isinstance(getattr(v, "op", None), ConstantOp):
            return self.b.index_const(int(v.op.value))
        found = self.b.cached(("index", id(v)))
        if found is not None:
            return found
        t = as_int(v.type)
        x = self.operand(v)
        if not t.signed:  # index_cast sign-extends: give an unsigned value a zero top bit first
            x = self.b.cast("arith.extui", x, f"i{t.width}", f"i{t.width + 1}", (v.name or "v") + "_u")
            t = type(t)(t.width + 1, True)
        name = self.b.cast("arith.index_cast", x, f"i{t.width}", "index", (v.name or "v") + "_idx")
        return self.b.remember(("index", id(v)), name)

    @rule(LoadOp)
    def load_op(self, op: LoadOp) -> None:
        idx = ", ".join(self.index(i) for i in op.indices)
        t = mlir_type(op.memref.type)
        name = self.b.op("memref.load", f"{self.operand(op.memref)}[{idx}]", t, op.result.name)
        self.values[id(op.result)] = name

    @rule(StoreOp)
    def store_op(self, op: StoreOp) -> None:
        idx = ", ".join(self.index(i) for i in op.indices)
        self.b.line(f"memref.store {self.operand(op.value)}, {self.operand(op.memref)}[{idx}]",
                    f" : {mlir_type(op.memref.type)}")

    @rule(AllocOp)
    def alloc_op(self, op: AllocOp) -> None:
        """memref.alloca, then zeros stored by a loop nest (hls.zeros is zero-initialised); a static is
        its global (initialised once), a sub-kernel's array result is filled by the call."""
        b, t = self.b, op.result.type
        if op.static:
            name = self.values[id(op.result)] = b.op("memref.get_global", f"@{self.globals[id(op)]}", mlir_type(t),
                                                     op.result.name, elem_attrs(t))
            line = b.defs[name]
            line.head, line.tail = line.head + line.tail, ""  # its attr-dict follows the type
            return
        name = self.values[id(op.result)] = b.op("memref.alloca()", "", mlir_type(t), op.result.name,
                                                 elem_attrs(t))
        if op.filled_by_call:
            return
        zero = b.float_const(0.0, t.elem.bits) if isinstance(t.elem, FloatType) else \
            b.int_const(0, 1 if isinstance(t.elem, BoolType) else t.elem.width)
        ivs = []
        bounds = [(b.index_const(0), b.index_const(extent), b.index_const(1)) for extent in t.shape]  # outside
        for lo, hi, step in bounds:
            iv = b.fresh("z")
            b.line(f"scf.for {iv} = {lo} to {hi} step {step} {{")
            b.depth += 1
            ivs.append(iv)
        b.line(f"memref.store {zero}, {name}[{', '.join(ivs)}]", f" : {mlir_type(t)}")
        for _ in t.shape:
            b.depth -= 1
            b.line("}")

    @rule(RowOp)
    def row_op(self, op: RowOp) -> None:
        raise unsupported(op, "a row of an array handed to a call (memref.subview is not written yet)")

    @rule(RomOp)
    def rom_op(self, op: RomOp) -> None:
        t = op.result.type
        self.values[id(op.result)] = self.b.op("memref.get_global", f"@{self.globals[id(op)]}", mlir_type(t),
                                               op.result.name, elem_attrs(t))

    @rule(CallOp)
    def call_op(self, op: CallOp) -> None:
        args = ", ".join(self.operand(v) for v in op.operands)
        sig = f"({', '.join(mlir_type(v.type) for v in op.operands)}) -> " \
              f"({', '.join(mlir_type(r.type) for r in op.results)})"
        names = [self.b.fresh(r.name) for r in op.results]
        lhs = f"{', '.join(names)} = " if names else ""
        attrs = {"hls.task": True} if op.attrs.get("task") else None  # hls::task: run forever (docs/dataflow.md)
        self.b.line(f"{lhs}func.call @{op.callee}({args})", f" : {sig}", attrs)
        for r, n in zip(op.results, names, strict=True):
            self.values[id(r)] = n

    @rule(ReturnOp)
    def return_op(self, op: ReturnOp) -> None:
        self.terminator("func.return", [*op.operands, *([self.result] if self.result is not None else [])])

    @rule(YieldOp)
    def yield_op(self, op: YieldOp) -> None:
        self.terminator("scf.yield", op.operands)

    def terminator(self, name: str, values: list[Value]) -> None:
        if values:
            self.b.line(f"{name} {', '.join(self.operand(v) for v in values)}",
                        f" : {', '.join(mlir_type(v.type) for v in values)}")
        else:
            self.b.line(name)

    @rule(PrintOp)
    def print_op(self, op: PrintOp) -> None:
        """print() is a csim-only debugging aid (no synthesis meaning): the export leaves it out."""

    @rule(DirectiveOp)
    def directive_op(self, op: DirectiveOp) -> None:
        """Directives on arguments and the function went into the signature; local arrays get them here."""
        if op.target is not None and id(op.target) in self.values and op.target not in self.func.args:
            self.b.annotate(self.values[id(op.target)], grouped([op]))

    # ---- structured control flow ---------------------------------------------------------------

    def region(self, block: Block, setup=None) -> None:
        self.b.depth += 1
        self.b.push()
        if setup is not None:
            setup()
        self.block(block)
        self.b.pop()
        self.b.depth -= 1

    @rule(IfOp)
    def if_op(self, op: IfOp) -> None:
        b = self.b
        names = [b.fresh(r.name) for r in op.results]
        lhs = f"{', '.join(names)} = " if names else ""
        types = f" -> ({', '.join(mlir_type(r.type) for r in op.results)})" if names else ""
        b.line(f"{lhs}scf.if {self.operand(op.operands[0])}{types} {{")
        self.region(op.then_block)
        if names or len(op.else_block.ops) > 1:
            b.line("} else {")
            self.region(op.else_block)
        b.line("}")
        for r, n in zip(op.results, names, strict=True):
            self.values[id(r)] = n

    @rule(WhileOp)
    def while_op(self, op: WhileOp) -> None:
        mlir_while.while_op(self, op)

    @rule(ForOp)
    def for_op(self, op: ForOp) -> None:
        if op.exit:  # scf.for cannot stop early: a while loop over counter, values and flag
            mlir_while.exit_for_op(self, op)
            return
        generic = generic_of(op) if op.attrs.get("array_nest") else None
        if generic is not None:  # a whole-array statement (hls.backend.mlir.linalg)
            emit_generic(self, generic)
            return
        reduction = reduction_of(op) if op.attrs.get("array_nest") else None
        if reduction is not None:  # a reduction or contraction (hls.backend.mlir.reductions)
            emit_reduction(self, reduction)
            return
        b = self.b
        header, body_setup = loop_header(self, op)
        names = [b.fresh(r.name) for r in op.results]
        carried = [b.fresh(a.name) for a in op.carried]
        for arg, n in zip(op.carried, carried, strict=True):
            self.values[id(arg)] = n
        lhs = f"{', '.join(names)} = " if names else ""
        iters = ""
        if carried:
            pairs = ", ".join(f"{a} = {self.operand(i)}" for a, i in zip(carried, op.inits, strict=True))
            iters = f" iter_args({pairs}) -> ({', '.join(mlir_type(r.type) for r in op.results)})"
        b.line(f"{lhs}{header}{iters} {{")
        self.region(op.body, body_setup)
        b.line("}", attrs=loop_attrs(op))
        for r, n in zip(op.results, names, strict=True):
            self.values[id(r)] = n


def _attr_dict(attrs: dict) -> str:
    if not attrs:
        return ""
    return " {" + ", ".join(f"{k} = {attr_text(v)}" for k, v in attrs.items()) + "}"
