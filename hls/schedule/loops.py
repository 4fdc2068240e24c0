"""Pipelined loops (and pipelined functions): build the body graph, find dependences and bursts,
modulo-schedule, and explain in words what keeps the II above its target.

m_axi model (a choice, documented in docs/oplib.md): inside a pipelined loop, an argument read (or
written) only in one direction, alone in its bundle in that direction, at an index advancing by the
accesses per iteration in its last dimension, is a burst: each access takes 1 cycle from the burst
buffer and the loop pays the m_axi latency (64 by default) once per direction. Every other m_axi
access, and every access outside a pipelined loop, waits the full m_axi latency.
"""

from __future__ import annotations

import os
from collections import defaultdict

from hls.ir import CallOp, DirectiveOp, ForOp, Function, Module, Op, WhileOp
from hls.ir.affine import ITER
from hls.passes.straighten import NotUnrollable
from hls.report.report import LoopReport, ScheduledOp
from hls.schedule.deps import add_carried_scalars, add_exit_edges, add_memory_edges
from hls.schedule.graph import GEP_INDEX_BITS, Graph, GraphBuilder, Node, straight_region
from hls.schedule.listsched import list_schedule
from hls.schedule.memory import Storage, StorageKind
from hls.schedule.modulo import ModuloResult, PortBound, Recurrence, modulo_schedule
from hls.schedule.resources import ResourceTally
from hls.schedule.scope import Design, Scope
from hls.schedule.span import Span

MAX_LISTED_PATH = 6
MAX_SCHEDULED_OPS = 200  # operators of one iteration kept for the report's chart (the earliest ones)


def kept_instances(ops: list[Op], module: Module) -> list[str]:
    """Sub-kernels called in `ops` that say hls.inline(off=True): the estimate inlines every call of a pipelined
    region (hls.passes.straighten), where Vitis keeps such a function an instance (UG1399 pragma inline off);
    a value carried through it then waits for the instance's latency, which the estimate does not count."""
    names: list[str] = []
    for op in (inner for top in ops for inner in top.walk()):
        if isinstance(op, CallOp) and op.callee not in names and any(
                isinstance(d, DirectiveOp) and d.kind == "inline" and d.directive.off
                for d in module.functions[op.callee].walk()):
            names.append(op.callee)
    return names


def _looped_callees(ops: list[Op], module: Module, kept: list[str]) -> list[str]:
    """Sub-kernels called in `ops` that hold a loop and give no inline directive: the estimate inlines them and
    unrolls their loops into the pipeline, as it does every call of a pipelined region."""
    names: list[str] = []
    for op in (inner for top in ops for inner in top.walk()):
        if isinstance(op, CallOp) and op.callee not in names + kept:
            body = list(module.functions[op.callee].walk())
            if any(isinstance(o, (ForOp, WhileOp)) for o in body) and not any(
                    isinstance(d, DirectiveOp) and d.kind == "inline" for d in body):
                names.append(op.callee)
    return names


def _instance_note(ops: list[Op], module: Module) -> str | None:
    """The honest note on calls of a pipelined region the estimate inlines where Vitis may not: an instance
    under inline off (UG1399 pragma inline), and a function with loops, which Vitis inlines on its own only
    when it judges it small (UG1399 "inline": automatic inlining of small functions; the size is not documented)."""
    names = kept_instances(ops, module)
    looped = _looped_callees(ops, module, names)
    notes = []
    if names:
        listed = ", ".join(f"`{n}`" for n in names)
        notes.append(f"approximate: {listed} (hls.inline(off=True)) estimated inlined; Vitis keeps it an instance, "
                     "so a value carried through it waits for its latency")
    if looped:
        listed = ", ".join(f"`{n}`" for n in looped)
        notes.append(f"approximate: {listed} (a sub-kernel with a loop) estimated inlined, its loops unrolled into "
                     "the pipeline; Vitis inlines a function on its own only when it judges it small, else it keeps "
                     "an instance and the II waits for its interval (add hls.inline() to be sure of the first)")
    return "; ".join(notes) or None


def _burstable(nodes: list[Node]) -> bool:
    """Accesses of one iteration covering consecutive elements, the block moving on by its size."""
    count = len(nodes)
    offsets = []
    for node in nodes:
        indices = node.access.indices
        if any(i is None for i in indices) or indices[-1].coeff(ITER) != count:
            return False
        if any(i.coeff(ITER) != 0 for i in indices[:-1]):
            return False
        offsets.append(indices[-1].const)
    return sorted(offsets) == list(range(min(offsets), min(offsets) + count))


def mark_bursts(graph: Graph) -> list[tuple[Storage, bool]]:
    """Turn qualifying m_axi accesses into burst accesses (latency 1); the (storage, is_store) bursts."""
    groups: dict[int, list[Node]] = defaultdict(list)
    per_bundle: dict[tuple[str, bool], set[int]] = defaultdict(set)
    for index in graph.accesses:
        node = graph.nodes[index]
        storage = node.access.storage
        if storage.is_maxi:
            groups[id(storage)].append(node)
            per_bundle[(storage.bundle, node.access.is_store)].add(id(storage))
    bursts = []
    for nodes in groups.values():
        storage = nodes[0].access.storage
        directions = {node.access.is_store for node in nodes}
        if len(directions) != 1:
            continue
        is_store = directions.pop()
        if len(per_bundle[(storage.bundle, is_store)]) == 1 and _burstable(nodes):
            for node in nodes:
                node.latency = 1
            bursts.append((storage, is_store))
    return bursts


def pipeline_latency(trip: int, ii: int, depth: int) -> int:
    """Cycles of a pipelined loop as Vitis reports them: (TC - 1) * II + depth - 1, the last stage
    overlapping the exit test (VITIS_FACTS.md section 3, fitted on committed 2022.1-2024.2 reports)."""
    return max(1, (trip - 1) * ii + depth - 1)


def _invariant_nodes(graph: Graph) -> list[bool]:
    """Operators whose value is the same in every iteration: no carried value, no induction variable
    in an index, no load of an array the loop stores (nodes are in program order)."""
    stored = {id(graph.nodes[i].access.storage) for i in graph.accesses if graph.nodes[i].access.is_store}
    consumers = {user for carried in graph.carried for user in carried.consumers}
    invariant = []
    for node in graph.nodes:
        ok = node.index not in consumers and node.index not in graph.varying and all(
            distance == 0 and invariant[src] for src, distance, _ in node.preds)
        access = node.access
        if ok and access is not None:  # a FIFO read takes the next item: never the same in two iterations
            ok = not access.is_store and access.storage.kind is not StorageKind.FIFO \
                and id(access.storage) not in stored and not access.guard and all(
                i is not None and i.coeff(ITER) == 0 for i in access.indices)
        invariant.append(ok)
    return invariant


def hoist_invariants(graph: Graph, tally: ResourceTally | None = None, module: str = "") -> int:
    """Move loop-invariant operators before the loop, as LLVM's LICM does before Vitis schedules: they
    run once (their states are returned, paid before the loop; their registers and FSM states counted in
    `module` of `tally`) and take neither time nor ports in the iteration."""
    invariant = _invariant_nodes(graph)
    if not any(node.latency > 0 or node.access is not None for node, inv in zip(graph.nodes, invariant,
                                                                             strict=True) if inv):
        return 0
    before = Graph(graph.period)
    index: dict[int, int] = {}
    for node, inv in zip(graph.nodes, invariant, strict=True):
        if inv:
            preds = [(index[src], 0, lag) for src, _, lag in node.preds]
            index[node.index] = before.add(node.cost, node.op, node.width, preds, node.access)
            node.latency, node.delay, node.access = 0, 0, None
    graph.accesses = [i for i in graph.accesses if graph.nodes[i].access is not None]
    add_memory_edges(before, pipelined=False)
    times, states = list_schedule(before)
    if tally is not None:  # units stay with the loop's graph; registers and states are the caller's
        tally.add_registers(module, before, times, states)
    return states


def pipelined_loop(design: Design, loop: ForOp | WhileOp, scope: Scope, report: LoopReport,
                   trip: tuple[int | None, int | None], target: int | None) -> Span | None:
    """Latency of a pipelined loop (None when its inner loops cannot be unrolled: not pipelined)."""
    graph = Graph(design.period)
    note = _instance_note([loop], design.module)
    try:
        region = straight_region([loop], scope.storages, design.module, loop)
    except NotUnrollable as exc:
        report.notes.append(f"not pipelined: {exc.message}")
        return None
    if note:
        report.notes.append(note)
    builder = GraphBuilder(design.lib, region.storages, graph)
    builder.bind_iteration(region.loop)
    if isinstance(loop, ForOp) and trip[1] != loop.trip_count():
        builder.trip = None  # a flattened nest: Vitis knows only the bits of an inner counter (R14)
    if loop.unroll_leftover:  # R14b: the remainder's exit check leaves the counter unbounded
        builder.index_bits = GEP_INDEX_BITS
    yields, exits = builder.walk_iteration(region.loop)
    add_carried_scalars(graph, yields)
    add_exit_edges(graph, exits)
    if exits:
        report.notes.append("data-dependent exit: the next iteration's stores wait for this one's exit decision")
    # a rewound pipeline restarts at once, with no room for work before it: nothing is hoisted
    # (ELEN226 loop_perfect solution6, rewind: II 5 over the invariant loads; solution5 without: II 1)
    rewind = loop.pipeline is not None and loop.pipeline.rewind
    hoisted = 0 if rewind else hoist_invariants(graph, design.tally, scope.function)
    if hoisted:
        report.notes.append(f"{hoisted} cycles of loop-invariant work done once before the loop")
    bursts = mark_bursts(graph)
    add_memory_edges(graph, True, trip[1], partial_unroll=bool(loop.unrolled))
    result = modulo_schedule(graph, target)
    report.target_ii, report.ii, report.depth = target, result.ii, result.depth
    report.res_mii, report.rec_mii = result.res_mii, result.rec_mii
    report.limiter, site = limiter(result, target, graph, design.lib.usable_ns)
    false = false_dependence_limit(graph, result, target)
    if false is not None:
        report.limiter, site = false
    if site is not None and site.op is not None and site.op.loc is not None:
        report.limiter_file, report.limiter_line = site.op.loc.file, site.op.loc.line
    report.ops, report.ops_total = scheduled_ops(graph, result.times)
    latency = Span(*(None if t is None else 0 if t == 0 else pipeline_latency(t, result.ii, result.depth)
                     for t in trip))
    report.latency_min, report.latency_max = latency.min, latency.max
    design.tally.add_schedule(scope.module, graph, result.times, result.ii, result.depth)
    overhead = (0 if rewind else 1) + hoisted
    for is_store in (False, True):
        waits = [s.write_latency if is_store else s.read_latency for s, d in bursts if d == is_store]
        if waits:
            overhead += max(waits)
            names = ", ".join(f"`{s.name}`" for s, d in bursts if d == is_store)
            report.notes.append(f"m_axi burst {'write' if is_store else 'read'} of {names}: +{max(waits)} "
                                f"cycles {'after' if is_store else 'before'} the loop")
    return latency.plus(overhead)


def pipelined_function(design: Design, func: Function, scope: Scope) -> tuple[Span, Span] | None:
    """A function-level pipeline: (latency, interval), or None when the function is not pipelined."""
    options = func.pipeline
    if options is None or options.off:
        return None
    graph = Graph(design.period)
    note = _instance_note(func.body.block.ops, design.module)
    try:
        region = straight_region(func.body.block.ops, scope.storages, design.module)
        GraphBuilder(design.lib, region.storages, graph).walk(region.ops)
    except NotUnrollable as exc:
        design.notes.append(f"function pipeline not applied: {exc.message}")
        return None
    if note:
        design.notes.append(f"function pipeline: {note}")
    add_memory_edges(graph, pipelined=False)
    result = modulo_schedule(graph, options.ii)
    design.tally.add_schedule(scope.module, graph, result.times, result.ii, result.depth)
    text, _ = limiter(result, options.ii, graph, design.lib.usable_ns)
    if text:
        design.notes.append(f"function pipeline: II {result.ii}: {text}")
    # a pipelined function's latency is its depth - 1 (ELEN226 inner_product solution3: D = 8 in the
    # verbose schedule report, latency 7 in csynth.rpt); the top adds no state around it
    latency = max(0, result.depth - 1)
    return Span(latency, latency), Span(result.ii, result.ii)


# ---- explanations -----------------------------------------------------------------------------------


def _where(node: Node) -> str:
    loc = node.op.loc if node.op is not None else None
    return "?" if loc is None else f"{os.path.basename(loc.file)}:{loc.line}"


def scheduled_ops(graph: Graph, times: list[int]) -> tuple[list[ScheduledOp], int]:
    """The iteration's operators with their start cycles, as plain data for the report's chart: the
    earliest MAX_SCHEDULED_OPS of them (a fully unrolled body can have 10^5), and how many there are.

    Wires (casts and index arithmetic that take neither a cycle nor any delay) are left out: they
    occupy nothing, and Vitis's schedule viewer does not draw them either.
    """
    drawn = sorted((start, node.index) for node, start in zip(graph.nodes, times, strict=True)
                   if node.latency > 0 or node.delay > 0 or node.access is not None)
    ops = []
    for start, index in drawn[:MAX_SCHEDULED_OPS]:
        node = graph.nodes[index]
        loc = node.op.loc if node.op is not None else None
        text = None
        if loc is not None and loc.end_col is not None:
            line = loc.source_line()
            text = line[loc.col:loc.end_col] if line else None
        ops.append(ScheduledOp(node.name, start // graph.period, node.latency, text,
                               loc.file if loc else None, loc.line if loc else None,
                               node.access.storage.name if node.access is not None else None,
                               round(start % graph.period / 1000, 3), round(node.delay / 1000, 3)))
    return ops, len(drawn)


def limiter(result: ModuloResult, target: int | None, graph: Graph, usable_ns: float) -> tuple[str | None, Node | None]:
    """Why the II is above its target (1 when none was given), in words with the source line, and the
    operator whose line it names."""
    wanted = target or 1
    if result.ii <= wanted:
        return None, None
    if result.fallback:
        return f"no overlapped schedule found: iterations run one after another (II {result.ii})", None
    if result.recurrence is not None and result.rec_mii >= result.res_mii and result.rec_mii > wanted:
        return recurrence_text(graph, result.recurrence, usable_ns), graph.nodes[result.recurrence.src]
    if result.ports is not None and result.res_mii > wanted:
        return ports_text(graph, result.ports), _first_access(graph, result.ports.storage)
    return (f"memory ports and dependences together need II {result.ii} (ports alone {result.res_mii}, "
            f"dependences alone {result.rec_mii})"), None


def false_dependence_limit(graph: Graph, result: ModuloResult, target: int | None) -> tuple[str, Node] | None:
    """The words for an II that the false dependences of moving banks (deps.false_dependence, L4) raise: the
    loop is scheduled again without them, and when that II is lower they are named as the limiter, at the
    store's line. None when there are none or they do not decide the II."""
    if not graph.false_deps or result.ii <= (target or 1):
        return None
    saved = {node.index: node.preds for node in graph.nodes}
    for node in graph.nodes:
        node.preds = [e for e in node.preds if not (e[1] == 1 and (e[0], node.index) in graph.false_deps)]
    try:
        without = modulo_schedule(graph, target).ii
    finally:
        for node in graph.nodes:
            node.preds = saved[node.index]
    if without >= result.ii:
        return None
    src, dst = min(graph.false_deps)
    store = graph.nodes[src] if graph.nodes[src].access.is_store else graph.nodes[dst]
    return (f"false dependence between iterations on `{store.access.storage.name}`: in this partially unrolled "
            f"loop a load or store picks its bank at run time, so Vitis cannot prove the store and the load "
            f"of different iterations apart (UG1399 \"Removing False Dependencies\"): II {result.ii}, "
            f"{without} without it, at {_where(store)}"), store


def _first_access(graph: Graph, storage: Storage) -> Node:
    return next(graph.nodes[i] for i in graph.accesses if graph.nodes[i].access.storage.resource == storage.resource)


def recurrence_text(graph: Graph, rec: Recurrence, usable_ns: float) -> str:
    src = graph.nodes[rec.src]
    scalar = next((c for c in graph.carried if c.src == rec.src and rec.dst in c.consumers), None)
    name = scalar.name if scalar is not None else src.access.storage.name if src.access else src.name
    path = [graph.nodes[i] for i in rec.path]
    shown = [n for n in path if n.latency > 0 or n.delay > 0]  # wires (casts) take no time
    if len(shown) > MAX_LISTED_PATH:
        shown = [n for n in shown if n.latency > 0]
    total = sum(n.latency for n in path)
    if total == 0:
        delay = sum(n.delay for n in path) / 1000
        through = f"{len(path)} chained operators ({delay:.2f} ns, {usable_ns:.2f} ns usable per cycle)"
    elif len(shown) == 1:
        through = f"{shown[0].name} ({shown[0].latency} cycles)"
    else:
        through = " + ".join(f"{n.name} ({n.latency})" for n in shown) + f" = {total} cycles"
    registers = rec.ii * rec.distance - total
    if total and registers > 0 and len(shown) > 1:
        # a core fed by another core's result takes it from its register (timing.registered_input): the
        # II the recurrence sets counts those states too, so the text adds up to it
        through += f" + {registers} register{'s' if registers > 1 else ''} between operators"
    distance = "" if rec.distance == 1 else f", distance {rec.distance}"
    return f"loop-carried dependence on `{name}` through {through}{distance} at {_where(src)}"


def ports_text(graph: Graph, bound: PortBound) -> str:
    storage = bound.storage
    first = _first_access(graph, storage)
    if storage.is_maxi:
        names = sorted({graph.nodes[i].access.storage.name for i in graph.accesses
                        if graph.nodes[i].access.storage.resource == storage.resource})
        what = f"{bound.reads} reads" if bound.reads else f"{bound.writes} writes"
        return (f"{what} per iteration on m_axi bundle `{storage.bundle}` ({', '.join(names)}), one "
                f"{'read' if bound.reads else 'write'} channel: give each array its own bundle or copy it to a "
                f"local array, at {_where(first)}")
    if storage.kind is StorageKind.FIFO:
        what = f"{bound.reads} reads" if bound.reads else f"{bound.writes} writes"
        return (f"{what} per iteration of FIFO `{storage.name}`, one item per cycle: read or write a wider element "
                f"type once per iteration, at {_where(first)}")
    max_reads, max_writes, total = storage.ports
    if bound.reads and not bound.writes:
        what, ports = f"{bound.reads} loads", max_reads
    elif bound.writes and not bound.reads:
        what, ports = f"{bound.writes} stores", max_writes
    else:
        what, ports = f"{bound.reads} loads and {bound.writes} stores", total
    factor = storage.banks * bound.ii
    dim = f" dim={len(storage.shape)}" if len(storage.shape) > 1 else ""
    return (f"{what} per iteration on `{storage.name}`, {ports} port{'s' * (ports != 1)}: partition "
            f"{storage.name} cyclic factor {factor}{dim}, at {_where(first)}")
