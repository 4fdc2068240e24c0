"""The dependence graph the schedulers work on, built from a straight-line stretch of IR.

One node per operator instance. The stretch is a copy the passes have already straightened
(hls.passes.straighten: calls inlined, inner loops of a pipelined loop unrolled as Vitis does, ROM
loads at constant indices folded, constants folded, CSE, DCE); `straight_region` makes it and gives
the copy's arrays their storages. Here if-regions are if-converted (both branches, then a
multiplexer per result), indices get their affine form in the pipelined loop's iteration, repeated
loads of one element reuse the value (sums arrive balanced by hls.passes.reassociate).

Edges are (source, distance, lag): distance counts iterations of the pipelined loop (0 inside one
iteration); lag DATA means "after the source's result is ready", a lag >= 0 means "at least `lag`
cycles after the source's cycle" (ordering through memory).

Times are integers in picoseconds: cycle = time // period, with period the usable clock period, so
fabric operators chain inside a cycle while their delays fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hls.errors import HLSError
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
    Module,
    Op,
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
from hls.ir.affine import ITER, Affine, combine, induction_step
from hls.ir.bitops import BIT_OPS
from hls.ir.core import KindOp
from hls.ir.kinds import OpKind
from hls.ir.stream_ops import BlockLockOp, FifoOp, StreamOp, StreamStatusOp
from hls.ir.structops import StructGetOp, StructPackOp
from hls.ir.visit import Walker, rule
from hls.passes.straighten import MAX_REGION_OPS, NotUnrollable, extract, straighten
from hls.schedule.memory import Storage, StorageKind, bit_width, function_storages, rom_constant
from hls.schedule.opcost import op_cost
from hls.schedule.oplib import OpCost, OpLib
from hls.types import BoolType, IntType

DATA = -1
EXTERNAL = -1  # a value available from the start (constant, argument, computed before this stretch)
NOCONST = object()


@dataclass(slots=True)
class Access:
    storage: Storage
    indices: list[Affine | None]
    is_store: bool
    guard: tuple = ()  # the if-converted branches it sits in: (id of the if, taken side, single iteration)

    def exclusive(self, other: Access) -> bool:
        """Both can never happen in one iteration: they sit on opposite sides of one if."""
        return exclusive(self.guard, other.guard)

    @property
    def only_at(self) -> int | None:
        """The one iteration this access happens in (a branch on `iv == constant`), else None."""
        return next((g[2] for g in self.guard if g[2] is not None), None)


def exclusive(guard: tuple, other: tuple) -> bool:
    """Two guards (the branches an operator sits under) on opposite sides of one if."""
    sides = {g[0]: g[1] for g in guard}
    return any(g[0] in sides and sides[g[0]] != g[1] for g in other)


@dataclass(slots=True, eq=False)
class Node:
    index: int
    cost: OpCost
    latency: int
    delay: int  # ps, for chained (latency 0) operators
    width: int
    op: Op | None
    preds: list[tuple[int, int, int]]
    access: Access | None = None
    guard: tuple = ()  # the if-converted branches it sits under (Access.guard)

    @property
    def name(self) -> str:
        return self.cost.name


@dataclass
class Carried:
    """A value carried from one iteration to the next: producer node, name, where it is produced."""

    name: str
    src: int
    consumers: list[int] = field(default_factory=list)


class Graph:
    def __init__(self, period_ps: int):
        self.period = period_ps
        self.nodes: list[Node] = []
        self.accesses: list[int] = []
        self.carried: list[Carried] = []
        self.trip: int | None = None  # trip count of the pipelined loop (dependence analysis)
        self.guard: tuple = ()  # the branches the builder is in: given to each node added
        self.partial_unroll = False  # a pipelined loop a partial unroll left (deps: false dependences, L4)
        self.false_deps: set[tuple[int, int]] = set()  # (src, dst) pairs ordered only by such a dependence
        self.varying: set[int] = set()  # nodes that change every iteration whatever their preds (bank dividers)

    def add(self, cost: OpCost, op: Op | None, width: int, preds: list[tuple[int, int, int]],
            access: Access | None = None) -> int:
        index = len(self.nodes)
        delay = int(round(cost.delay_ns * 1000)) if cost.latency == 0 else 0
        self.nodes.append(Node(index, cost, cost.latency, delay, width, op, preds, access, self.guard))
        if access is not None:
            self.accesses.append(index)
        if index >= MAX_REGION_OPS:
            raise HLSError(f"more than {MAX_REGION_OPS} operators in one schedule region",
                           getattr(op, "loc", None))
        return index


@dataclass
class GraphRegion:
    """A straightened copy: its ops (no terminator), the copy of the pipelined loop, the arrays' storages."""

    ops: list[Op]
    loop: ForOp | WhileOp | None
    storages: dict[Value, Storage]


def straight_region(ops: list[Op], storages: dict[Value, Storage], library: Module,
                    pipelined: ForOp | WhileOp | None = None) -> GraphRegion:
    """`ops` (or the iteration of `pipelined`, then ops == [pipelined]) as straight-line code on a copy.

    Arrays from outside keep their storages, and so do copies of the region's own arrays (an array
    declared in an unrolled body is one array); arrays of inlined sub-kernels get their own, one
    per call, as Vitis makes them. Raises NotUnrollable (hls.passes.straighten)."""
    ops = [op for op in ops if not isinstance(op, (YieldOp, ReturnOp))]
    if pipelined is None and not any(_straightens(op) for top in ops for op in top.walk()):
        return GraphRegion(ops, None, storages)  # nothing the passes would change: no copy needed
    module, mapping = extract(ops, "region")
    func = module.top_function
    for old, new in mapping.items():  # a constant-table read from outside is a constant in the copy
        const = rom_constant(old) if new in func.args else None
        if const is not None:
            func.body.block.insert(0, const)
            new.replace_all_uses_with(const.result)
    origins = {}
    for old, new in mapping.items():
        op = getattr(new, "op", None)
        if old in storages and isinstance(op, (AllocOp, RomOp, StreamOp, BlockLockOp)):
            op.attrs["origin"] = id(old)
            origins[id(old)] = storages[old]
    keep = func.body.block.ops[-2] if pipelined is not None else None
    straighten(module, library, keep)
    if keep is not None and keep.parent is None:
        raise NotUnrollable(pipelined, f"loop {pipelined.label} does nothing once unrolled and folded")
    found = {new: storages[old] for old, new in mapping.items() if old in storages and new in func.args}
    arrays = [op for op in func.walk() if isinstance(op, (AllocOp, RomOp, StreamOp, BlockLockOp))]
    if any(op.origin not in origins for op in arrays):  # arrays of inlined sub-kernels
        found = function_storages(func, False, args=found)
    for op in arrays:
        origin = op.origin
        if origin in origins:  # a copy of an array met before, or a sub-kernel's static (one for all calls)
            found[op.result] = origins[origin]
        elif origin is not None:
            origins[origin] = found[op.result]
    return GraphRegion(func.body.block.ops[:-1], keep, found)


def _straightens(op: Op) -> bool:
    """A loop, a call or a ROM load: something for the passes to do (the module comes folded)."""
    return op.is_loop or isinstance(op, CallOp) or isinstance(op, LoadOp) and isinstance(getattr(op.memref, "op", None),
                                                                                     RomOp)


Binding = tuple  # (src node or EXTERNAL or carried marker, constant or NOCONST, Affine or None)


class GraphBuilder(Walker):
    """Walks IR ops into a Graph; after `bind_iteration(loop)` the ops are one iteration of `loop`.
    The terminators end `walk` before any rule sees them."""

    not_applicable = (YieldOp, ReturnOp)

    def __init__(self, lib: OpLib, storages: dict[Value, Storage], graph: Graph):
        self.lib = lib
        self.storages = storages
        self.graph = graph
        self.env: dict[Value, Binding] = {}
        self._memory_costs: dict[tuple, OpCost] = {}
        self._loaded: dict[int, dict[tuple, Binding]] = {}  # per storage: index key -> loaded value
        self._words: dict[int, Binding] = {}  # per array of structs: the last struct word read
        self.guard: tuple = ()  # the branches being walked (Access.guard)
        self._computed: dict[tuple, Binding] = {}  # value numbering of pure operators
        self._dirty: set[int] = set()  # storages stored to (inside the if being walked)
        self.trip: int | None = None  # trip count of the pipelined loop bound by bind_iteration

    # ---- bindings ---------------------------------------------------------------------------------

    def lookup(self, value: Value) -> Binding:
        bound = self.env.get(value)
        if bound is not None:
            return bound
        op = getattr(value, "op", None)
        if isinstance(op, ConstantOp):
            const = op.value
            aff = Affine(None, int(const)) if isinstance(const, (bool, int)) else None
            return (EXTERNAL, const, aff)
        return (EXTERNAL, NOCONST, Affine.symbol(value))

    def bind_iteration(self, loop: ForOp | WhileOp) -> None:
        """Make `loop` the pipelined loop: its iv is affine in ITER, its carried values are markers."""
        if isinstance(loop, ForOp):
            self.trip = loop.trip_count()
            lb = self.lookup(loop.lb)
            step = self.lookup(loop.step)
            base = lb[2] if lb[2] is not None else Affine.symbol(loop.lb)
            # a step that is a variable: the counter is no affine function of the iteration
            self.env[loop.iv] = (EXTERNAL, NOCONST, base + Affine({ITER: step[1]}) if isinstance(step[1], int)
                                 else None)
        args = [loop.carried] + ([loop.cond.args] if isinstance(loop, WhileOp) else [])
        for k, arg in enumerate(loop.carried):
            step = induction_step(loop, k) if isinstance(loop, ForOp) else None
            aff = None
            if step is not None:  # an induction variable: init + step * ITER (affine.induction_step)
                init = self.lookup(loop.inits[k])
                aff = (init[2] if init[2] is not None else Affine.symbol(loop.inits[k])) + Affine({ITER: step})
            for block_args in args:
                self.env[block_args[k]] = (-2 - k, NOCONST, aff)
            self.graph.carried.append(Carried(arg.name or f"carried{k}", EXTERNAL))

    def walk_iteration(self, loop: ForOp | WhileOp) -> tuple[list[Binding], list[int]]:
        """One iteration of the pipelined `loop`: the yielded bindings and the nodes deciding whether
        the next iteration runs (the while condition, the exit flag)."""
        exits = []
        if isinstance(loop, WhileOp):
            exits.append(self.walk(loop.cond.ops)[0][0])
        yields = self.walk(loop.body.ops)
        if has_exit(loop):
            exits.append(yields.pop()[0])
        return yields, [e for e in exits if e >= 0]

    def storage(self, value: Value) -> Storage:
        return self.storages[value]

    # ---- walking ----------------------------------------------------------------------------------

    def walk(self, ops: list[Op]) -> list[Binding]:
        """Add every op; the bindings of the terminator's operands (yield/return), if any."""
        for op in ops:
            if op.is_terminator:
                return [self.lookup(v) for v in op.operands]
            self.dispatch(op)
        return []

    @rule(ConstantOp)
    def constant(self, op: ConstantOp) -> None:
        self.env[op.result] = self.lookup(op.result)

    @rule(AllocOp, RomOp, RowOp, DirectiveOp, PrintOp, StreamOp)
    def declaration(self, op: Op) -> None:
        """No operator: storages are the region's, directives are read elsewhere, print is csim only; a row
        is a view (the inlined accesses through it are its array's, hls.passes.inline.fold_rows)."""

    @rule(ForOp, WhileOp, CallOp)
    def unstraightened(self, op: Op) -> None:
        raise op.fail("reached the scheduler without being straightened (hls.passes.straighten)")

    def _preds(self, bindings: list[Binding]) -> list[tuple[int, int, int]]:
        return [(b[0], 0, DATA) for b in bindings if b[0] >= 0]

    def _note_carried(self, bindings: list[Binding], node: int) -> None:
        for b in bindings:
            if b[0] <= -2:
                self.graph.carried[-2 - b[0]].consumers.append(node)

    @rule(BinaryOp, CompareOp, LogicOp, UnaryOp, CastOp, SelectOp, MathOp, *BIT_OPS, StructPackOp, StructGetOp)
    def compute(self, op: Op) -> None:
        bindings = [self.lookup(v) for v in op.operands]
        kind = op.kind if isinstance(op, KindOp) else None
        aff = None
        if len(bindings) == 2 and kind is not None:
            aff = combine(kind, bindings[0][2], bindings[1][2])
        elif len(bindings) == 1 and isinstance(op, CastOp):
            aff = bindings[0][2] if _is_integral(op.result.type) else None
        elif len(bindings) == 1 and kind == OpKind.NEG:
            aff = bindings[0][2].scale(-1) if bindings[0][2] is not None else None
        key = (op.name, kind, str(op.result.type), *(_index_key(b) for b in bindings))
        if any(b[0] == EXTERNAL and b[1] is NOCONST and b[2] is None for b in bindings):
            key = None  # a value this stretch cannot name: no numbering
        elif key in self._computed:  # the same operator on the same values: LLVM's GVN keeps one
            self.env[op.result] = self._computed[key]
            return
        known = tuple(b[1] for b in bindings if b[1] is not NOCONST)
        node = self.graph.add(op_cost(op, self.lib, known), op, bit_width(op.result.type), self._preds(bindings))
        self._note_carried(bindings, node)
        self.env[op.result] = (node, NOCONST, aff)
        if key is not None:
            self._computed[key] = self.env[op.result]

    # ---- memory -----------------------------------------------------------------------------------

    def _memory_cost(self, storage: Storage, is_store: bool, dynamic: bool) -> OpCost:
        key = (storage.kind, is_store, dynamic, bit_width(storage.elem), storage.banks)
        if key not in self._memory_costs:
            name = "store" if is_store else "load"
            if storage.kind == StorageKind.REGS:
                cost = self.lib.mux(bit_width(storage.elem), storage.banks) if dynamic and not is_store \
                    else self.lib.wire(name)
                cost = OpCost(name, 0, cost.delay_ns, 0, 0, cost.lut)
            else:
                latency = storage.write_latency if is_store else storage.read_latency
                out = 0.0 if is_store or storage.is_maxi else self.lib.memory_read_ns()
                mux = self.lib.mux(bit_width(storage.elem), storage.banks) if dynamic and not is_store else None
                cost = OpCost(f"m_axi_{'write' if is_store else 'read'}" if storage.is_maxi else name, latency,
                              lut=mux.lut if mux else 0, output_ns=out + (mux.delay_ns if mux else 0.0))
            self._memory_costs[key] = cost
        return self._memory_costs[key]

    def _bank_dividers(self, storage: Storage, indices: list[Value], bindings: list[Binding]
                       ) -> list[tuple[int, int, int]]:
        """R14 (docs/oplib.md 9): an index whose bank moves from one iteration to the next (`bank_moves`) into
        banks that split a dimension by a number that is no power of two (cyclic: the factor, block: the
        block size) finds its bank and its address in the bank by an integer divide (quotient and
        remainder from one core, `OpLib.divider`) of the index's width, shared by the accesses at that
        index (wes237c fir128 q5_c: cyclic 3, the accumulation's load 10 cycles deeper, 7-bit counter)."""
        if storage.ports is None or storage.is_maxi:
            return []
        preds = []
        for split, index, binding in zip(storage.splits, indices, bindings, strict=False):
            divisor = split.banks if split.cyclic else split.block
            aff = binding[2]
            if split.banks == 1 or divisor & (divisor - 1) == 0 or binding[1] is not NOCONST:
                continue
            if aff is not None and not (aff.coeff(ITER) % split.banks if split.cyclic else aff.coeff(ITER)):
                continue
            span = _index_range(aff, self.trip)
            if span is not None and 0 <= span[0] and span[1] < 2 * divisor:
                continue  # a quotient of 0 or 1: a compare, a subtract and a select (InstCombine)
            key = ("bank_divider", divisor, _index_key(binding))
            if key not in self._computed:
                width = max(abs(span[0]), abs(span[1]), 1).bit_length() if span else bit_width(index.type)
                node = self.graph.add(self.lib.divider(width), None, width, self._preds([binding]))
                self._note_carried([binding], node)
                self.graph.varying.add(node)  # its index moves with the iteration: never hoisted
                self._computed[key] = (node, NOCONST, None)
            preds.append((self._computed[key][0], 0, DATA))
        return preds

    @rule(LoadOp)
    def load(self, op: LoadOp) -> None:
        storage = self.storage(op.memref)
        bindings = [self.lookup(v) for v in op.indices]
        loaded = self._loaded.setdefault(id(storage), {})
        key = (op.field, *(_index_key(b) for b in bindings))
        if key in loaded:  # the same element again, no store in between: LLVM reuses the value
            self.env[op.result] = loaded[key]
            return
        rank = len(op.memref.type.shape)  # a field of an array of structs: the indices of its element
        dynamic = any(b[1] is NOCONST for b in bindings) and (storage.kind == StorageKind.REGS or storage.bank_varies(
            [b[2] for b in bindings[:rank]]))
        # a field of an array of structs is an access to its element: the struct is one aggregated word
        # (Vitis's default for struct ports), so the further fields of a whole-struct read come with it
        if op.word_part and id(storage) in self._words:
            node = self.graph.add(OpCost("load", 0), op, 0, self._preds([*bindings, self._words[id(storage)]]))
        else:
            access = Access(storage, [b[2] for b in bindings[:rank]], False, guard=self.guard)
            cost = self._memory_cost(storage, False, dynamic)
            preds = self._preds(bindings) + self._bank_dividers(storage, op.indices[:rank], bindings[:rank])
            node = self.graph.add(cost, op, bit_width(storage.elem), preds, access)
        self._note_carried(bindings, node)
        self.env[op.result] = loaded[key] = (node, NOCONST, None)
        if op.field is not None and not op.word_part:
            self._words[id(storage)] = self.env[op.result]

    @rule(StoreOp)
    def store(self, op: StoreOp) -> None:
        storage = self.storage(op.memref)
        bindings = [self.lookup(v) for v in (op.value, *op.indices)]
        # a later load of the same element reads the stored value (LLVM store-to-load forwarding);
        # other elements may alias this one, so what was loaded before is forgotten
        key = (op.field, *(_index_key(b) for b in bindings[1:]))
        if op.word_part:  # a further field of a whole-struct store: part of the same word
            self._loaded.setdefault(id(storage), {})[key] = bindings[0]
            self.graph.add(OpCost("store", 0), op, 0, self._preds(bindings))
            return
        self._loaded[id(storage)] = {key: bindings[0]}
        self._dirty.add(id(storage))
        dynamic = any(b[1] is NOCONST for b in bindings[1:])
        access = Access(storage, [b[2] for b in bindings[1:len(op.memref.type.shape) + 1]], True, guard=self.guard)
        rank = len(op.memref.type.shape)
        preds = self._preds(bindings) + self._bank_dividers(storage, op.indices[:rank], bindings[1:rank + 1])
        node = self.graph.add(self._memory_cost(storage, True, dynamic), op, bit_width(storage.elem), preds, access)
        self._note_carried(bindings, node)

    @rule(FifoOp)
    def fifo(self, op: FifoOp) -> None:
        """A FIFO access takes its FIFO's one port for a cycle, like a memory access; a status check
        (empty/full) is a wire."""
        storage = self.storage(op.stream)
        bindings = [self.lookup(v) for v in op.operands]
        if isinstance(op, StreamStatusOp):
            node = self.graph.add(OpCost("fifo_status", 0), op, 1, self._preds(bindings))
        else:
            is_write = op.is_fifo_write
            cost = OpCost("fifo_write" if is_write else "fifo_read", 1)
            node = self.graph.add(cost, op, bit_width(storage.elem), self._preds(bindings),
                                  Access(storage, [], is_write))
        self._note_carried(bindings, node)
        for result in op.results:
            self.env[result] = (node, NOCONST, None)

    # ---- regions inside a pipelined body ----------------------------------------------------------

    @rule(IfOp)
    def if_convert(self, op: IfOp) -> None:
        cond = self.lookup(op.operands[0])
        before, guard, dirty = self._loaded, self.guard, self._dirty
        self._dirty = set()
        self._loaded, self.guard = {k: dict(v) for k, v in before.items()}, guard + ((id(op), True, self._single(op)),)
        self.graph.guard = self.guard
        then_values = self.walk(op.then_block.ops)
        self._loaded, self.guard = {k: dict(v) for k, v in before.items()}, guard + ((id(op), False, None),)
        self.graph.guard = self.guard
        else_values = self.walk(op.else_block.ops)
        # after the if, what a branch stored is not known here; other arrays keep their loaded values
        self._loaded = {k: v for k, v in before.items() if k not in self._dirty}
        self.guard, self._dirty = guard, dirty | self._dirty
        self.graph.guard = guard
        for result, a, b in zip(op.results, then_values, else_values, strict=True):
            node = self.graph.add(self.lib.mux(bit_width(result.type)), op, bit_width(result.type),
                                  self._preds([cond, a, b]))
            self._note_carried([cond, a, b], node)
            self.env[result] = (node, NOCONST, None)

    def _single(self, op: IfOp) -> int | None:
        """The one iteration a branch on `iv == constant` is taken in (None for other conditions)."""
        cond = getattr(op.operands[0], "op", None)
        if cond is None or not isinstance(cond, CompareOp) or cond.kind is not OpKind.EQ or len(cond.operands) != 2:
            return None
        a, b = (self.lookup(v)[2] for v in cond.operands)
        diff = combine("sub", a, b)
        if diff is None or diff.without(ITER).terms or diff.coeff(ITER) == 0 or diff.const % diff.coeff(ITER):
            return None
        n = -diff.const // diff.coeff(ITER)
        return n if n >= 0 else None


def _index_key(binding: Binding) -> tuple:
    """What identifies an index value: its node, its constant, or its affine form over fixed values."""
    src, const, aff = binding
    if src >= 0 or src <= -2:
        return (src,)
    if const is not NOCONST:
        return ("const", const)
    return ("aff", None if aff is None else (frozenset(aff.terms.items()), aff.const))


def _index_range(aff: Affine | None, trip: int | None) -> tuple[int, int] | None:
    """(min, max) of an index the iteration alone moves (const + c * iteration, 0 <= iteration < trip)."""
    if aff is None or not trip or aff.without(ITER).terms:
        return None
    ends = (aff.at(0), aff.at(trip - 1))
    return min(ends), max(ends)


def _is_integral(t: Any) -> bool:
    return isinstance(t, (IntType, BoolType))
