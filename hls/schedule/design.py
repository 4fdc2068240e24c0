"""Latency of a whole design, composed from its regions, and the Report.

A function body is a sequence of straight-line stretches (list-scheduled), loops, if-regions and
calls of sub-kernels that contain loops; they run one after the other, as Vitis runs them without
DATAFLOW. Cycle accounting (VITIS_FACTS.md section 3, fitted on committed Vitis reports):

* pipelined loop: (trip - 1) * II + depth, depth = the iteration's states; its outlined instance
  costs the caller one more cycle (none with `rewind`), plus the m_axi latency once per burst
  direction (the read request goes out that long before the first beat; writes wait for the response);
* other loops: trip * iteration latency, plus 2 cycles to enter and leave;
* if-region: the branches' latencies, min and max; sub-kernel call: its latency plus 1;
* top function: body + 1; interval latency + 1 (not pipelined) or the II (function pipeline).

With automatic pipelining on (config_compile -pipeline_loops, 64 by default, 0 = off), every innermost
loop is pipelined and a small nest is pipelined at its parent (`autopartition.pipeline_mode`, docs/oplib.md).
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator
from dataclasses import replace

from hls.defaults import DEFAULT_CLOCK_NS, DEFAULT_PART, PIPELINE_LOOPS
from hls.errors import HLSError
from hls.interfaces import check_flow
from hls.ir import (
    LOOPS,
    Block,
    CallOp,
    DirectiveOp,
    ForOp,
    Function,
    IfOp,
    Module,
    Op,
    ReturnOp,
    WhileOp,
    YieldOp,
    has_exit,
)
from hls.ir.affine import signed_steps, trip_range
from hls.ir.ranges import value_range
from hls.lang.directives import Dataflow
from hls.passes.unroll import unroll_plan
from hls.report.data import NodeKind
from hls.report.report import GraphEdge, GraphNode, LoopReport, Report
from hls.schedule.autopartition import pipeline_mode
from hls.schedule.dataflow import UNMODELLED, RawRegion, Untimed, with_region
from hls.schedule.deps import add_memory_edges
from hls.schedule.flatten import flattenable_nest, joined_label
from hls.schedule.graph import Graph, GraphBuilder, straight_region
from hls.schedule.listsched import list_schedule
from hls.schedule.loops import pipelined_function, pipelined_loop
from hls.schedule.memory import MAXI_LATENCY, bit_width, function_storages
from hls.schedule.opcost import forget_demanded_widths
from hls.schedule.oplib import OpLib
from hls.schedule.resources import ResourceTally, iv_width
from hls.schedule.scope import Scope
from hls.schedule.span import Span
from hls.schedule.whiles import while_trip


class DesignScheduler:
    def __init__(self, module: Module, lib: OpLib, pipeline_loops: int):
        self.module = module
        self.lib = lib
        self.pipeline_loops = pipeline_loops
        self.loops: list[LoopReport] = []
        self.tally = ResourceTally()
        self.notes: list[str] = []
        self.calls: dict[str, Span] = {}  # latency of each sub-kernel scheduled as its own module
        self.period = int(round(lib.usable_ns * 1000))

    # ---- regions ----------------------------------------------------------------------------------

    def region(self, block: Block, scope: Scope) -> Span:
        total, pending = Span(0, 0), []
        for op in block.ops:
            if isinstance(op, (YieldOp, ReturnOp)):
                break
            if self._compound(op):
                total = total + self.segment(pending, scope) + self.compound(op, scope)
                pending = []
            else:
                pending.append(op)
        return total + self.segment(pending, scope)

    def _compound(self, op: Op) -> bool:
        if isinstance(op, (*LOOPS, IfOp)):
            return True
        return isinstance(op, CallOp) and self._has_loops(self.module.functions[op.callee])

    def _has_loops(self, func: Function) -> bool:
        return any(isinstance(op, LOOPS) or isinstance(op, CallOp) and self._has_loops(self.module.functions[op.callee])
                   for op in func.walk())

    def segment(self, ops: list[Op], scope: Scope) -> Span:
        if not ops:
            return Span(0, 0)
        graph = Graph(self.period)
        region = straight_region(ops, scope.storages, self.module)
        GraphBuilder(self.lib, region.storages, graph).walk(region.ops)
        for storage in region.storages.values():  # local arrays of inlined sub-kernels
            self.tally.add_memory(scope.module, storage)
        add_memory_edges(graph, pipelined=False)
        times, states = list_schedule(graph)
        self.tally.add_schedule(scope.module, graph, times, None, states)
        return Span(states, states)

    def compound(self, op: Op, scope: Scope) -> Span:
        if isinstance(op, LOOPS):
            return self.loop(op, scope)
        if isinstance(op, IfOp):
            return Span.either(self.region(op.then_block, scope), self.region(op.else_block, scope))
        return self.call(op, scope)

    def call(self, op: CallOp, scope: Scope) -> Span:
        callee = self.module.functions[op.callee]
        arrays = {arg: scope.storages[value] for arg, value in zip(callee.args, op.operands, strict=True)
                  if value in scope.storages}
        storages = function_storages(callee, False, args=arrays, pipeline_loops=self.pipeline_loops)
        for storage in storages.values():
            self.tally.add_memory(callee.name, storage)
        inner = Scope(storages, {}, callee.name, callee.name, scope.level)
        span = self.region(callee.body.block, inner)
        self.calls[callee.name] = span
        return span.plus(1)

    # ---- loops ------------------------------------------------------------------------------------

    def trip(self, loop: ForOp | WhileOp, scope: Scope) -> tuple[int | None, int | None]:
        """Trip count from constant bounds, else the loop_tripcount directive, else bound ranges.

        A loop with an early exit runs from one iteration (the first always starts) to the range's
        count unless loop_tripcount says otherwise; a while loop's count is known only from
        loop_tripcount or a counter the condition bounds (hls.schedule.whiles)."""
        given = loop.tripcount
        if isinstance(loop, WhileOp):
            return (given.min, given.max) if given else while_trip(loop, scope.ranges)
        if has_exit(loop):
            if given:
                return given.min, given.max
            low, high = self.range_trip(loop, scope)
            return (None if low is None else min(low, 1)), high
        exact = loop.trip_count()
        if exact is not None:
            return exact, exact
        if given:
            return given.min, given.max
        return self.range_trip(loop, scope)

    def range_trip(self, loop: ForOp, scope: Scope) -> tuple[int | None, int | None]:
        exact = loop.trip_count()
        if exact is not None:
            return exact, exact
        lb, ub, step = (value_range(v, scope.ranges, use_types=False) for v in (loop.lb, loop.ub, loop.step))
        steps = signed_steps(step)
        if lb is None or ub is None or steps is None:
            return None, None
        return trip_range(lb, ub, steps)

    def loop(self, loop: ForOp | WhileOp, scope: Scope) -> Span:
        nest = None
        if isinstance(loop, ForOp) and not has_exit(loop):
            nest = flattenable_nest(loop, lambda lp: self._pipeline_mode(lp, self.trip(lp, scope)[1]) is not None)
        if nest is not None:
            span = self._flattened(nest, scope)
            if span is not None:
                return span
        report = self._loop_report(loop, scope)
        trip = self.trip(loop, scope)
        report.trip_min, report.trip_max = trip
        if trip[1] is None:
            self.notes.append(f"loop {report.label} ({report.where}) has no known trip count: add "
                              "hls.loop_tripcount(min=, max=) for a latency")
        mode = self._pipeline_mode(loop, trip[1])
        if mode is not None:
            report.pipelined = mode
            target = loop.pipeline.ii if loop.pipeline else None
            module = f"{scope.function}/{report.label}"
            span = pipelined_loop(self, loop, replace(scope, module=module), report, trip, target)
            if span is not None:
                self.tally.add_loop_control(module, iv_width(trip[1]), pipelined=True)
                self.tally.add_pipeline_exit(module, report.depth or 1)
                if report.ii_met is False:
                    self.notes.append(f"{report.label} ({report.where}): target II {report.target_ii} not met, "
                                      f"II {report.ii}; the pragma stays in the C++ and Vitis decides")
                return span
            report.pipelined = "no"
        return self._sequential_loop(loop, scope, report, trip)

    def _flattened(self, nest: list[ForOp], scope: Scope) -> Span | None:
        """A perfect nest with a pipelined innermost loop as the one loop Vitis makes of it (flatten.py)."""
        inner = nest[-1]
        trips = [self.trip(lp, scope) for lp in nest]
        if any(t[0] is None or t[1] is None for t in trips) or self._pipeline_mode(inner, trips[-1][1]) is None:
            return None
        trip = (_product(t[0] for t in trips), _product(t[1] for t in trips))
        report = self._loop_report(inner, scope)
        report.label, report.trip_min, report.trip_max = joined_label(nest), *trip
        report.pipelined = self._pipeline_mode(inner, trips[-1][1])
        report.notes.append(f"flattened nest of {len(nest)} loops")
        module = f"{scope.function}/{report.label}"
        span = pipelined_loop(self, inner, replace(scope, module=module), report, trip,
                              inner.pipeline.ii if inner.pipeline else None)
        if span is None:
            self.loops.remove(report)
            return None
        for level in range(len(nest)):  # Vitis keeps every level's counter and one per flattened suffix
            self.tally.add_loop_control(module, iv_width(trips[level][1]), pipelined=True)
            if 0 < level < len(nest) - 1:
                self.tally.add_loop_control(module, iv_width(_product(t[1] for t in trips[level:])), pipelined=True)
        self.tally.add_loop_control(module, iv_width(trip[1]), pipelined=True)
        self.tally.add_pipeline_exit(module, report.depth or 1)
        return span

    def _loop_report(self, loop: ForOp | WhileOp, scope: Scope) -> LoopReport:
        loc = loop.loc
        report = LoopReport(loop.label, loc.file if loc else None, loc.line if loc else None,
                            level=scope.level, function=scope.function)
        if loop.unrolled:
            report.notes.append(f"unrolled by {loop.unrolled}")
        if loop.unroll and not loop.unroll.off and isinstance(loop, ForOp):
            _, why = unroll_plan(loop, bind=False)
            report.notes.append(f"unroll pragma left to Vitis ({why or 'not unrolled'}): not modelled")
        elif loop.unroll and not loop.unroll.off:
            report.notes.append("unroll pragma left to Vitis (a while loop has no trip count): not modelled")
        self.loops.append(report)
        return report

    def _pipeline_mode(self, loop: ForOp | WhileOp, trip_max: int | None) -> str | None:
        """autopartition.pipeline_mode (rule L1, written once there) under this design's -pipeline_loops."""
        return pipeline_mode(loop, trip_max, self.pipeline_loops)

    def _sequential_loop(self, loop: ForOp | WhileOp, scope: Scope, report: LoopReport, trip: tuple) -> Span:
        ranges = dict(scope.ranges)
        if isinstance(loop, ForOp):
            lb, ub, step = (value_range(v, ranges) for v in (loop.lb, loop.ub, loop.step))
            if lb is not None and ub is not None and signed_steps(step) is not None:
                low, high = (lb[0], ub[1] - 1) if step[0] > 0 else (ub[0] + 1, lb[1])
                if low <= high:
                    ranges[loop.iv] = (low, high)
        inner = Scope(scope.storages, ranges, scope.module, scope.function, scope.level + 1)
        body = self.region(loop.body, inner)
        if isinstance(loop, WhileOp):  # the condition is evaluated at the start of every iteration
            body = self.region(loop.cond, inner) + body
        iteration = Span(max(1, body.min) if body.min is not None else None,
                         max(1, body.max) if body.max is not None else None)
        report.depth = iteration.max
        total = iteration.times(Span(*trip))
        report.latency_min, report.latency_max = total.min, total.max
        carried = tuple(bit_width(r.type) for r in loop.results) if isinstance(loop, ForOp) else ()
        self.tally.add_loop_control(scope.module, iv_width(trip[1]), carried=carried)
        return total.plus(2)


def _product(values: object) -> int:
    total = 1
    for value in values:
        total *= value or 1
    return total


def _blocks(loop: ForOp | WhileOp) -> list[Block]:
    return [region.block for region in loop.regions]


def schedule_module(module: Module, *, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART,
                    flow: str = "vitis", pipeline_loops: int = PIPELINE_LOOPS,
                    dataflow: RawRegion | Untimed | None = None) -> Report:
    """Estimate latency, II and resources of `module` (after passes) as Vitis would schedule it; a
    dataflow top's region is timed from `dataflow`, its Python-mode trace (or why there is none).

    The cyclic garbage collector pauses meanwhile: the copies the passes make (10^5 ops for a big
    unrolled body) would otherwise be rescanned many times over while they are all still in use."""
    forget_demanded_widths()
    with _gc_paused():
        report = _schedule_module(module, clock_ns, part, flow, pipeline_loops)
    return report if dataflow is None else with_region(report, dataflow)


_GC_LOCK = threading.Lock()
_GC_STATE = {"pauses": 0, "was_enabled": False}  # estimates may run in several threads at once


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The collector off while any thread estimates; back to its earlier state when the last one ends."""
    with _GC_LOCK:
        if _GC_STATE["pauses"] == 0:
            _GC_STATE["was_enabled"] = gc.isenabled()
            gc.disable()
        _GC_STATE["pauses"] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_STATE["pauses"] -= 1
            if _GC_STATE["pauses"] == 0 and _GC_STATE["was_enabled"]:
                gc.enable()


def _schedule_module(module: Module, clock_ns: float, part: str, flow: str, pipeline_loops: int) -> Report:
    check_flow(flow)
    if pipeline_loops < 0:
        raise HLSError(f"pipeline_loops must be >= 0, got {pipeline_loops}")
    lib = OpLib(clock_ns, part)
    design = DesignScheduler(module, lib, pipeline_loops)
    func = module.top_function
    # Vivado-flow default m_axi latency is 0 (VITIS_FACTS.md section 2); a read still takes a cycle.
    storages = function_storages(func, True, maxi_latency=MAXI_LATENCY if flow == "vitis" else 1, flow=flow,
                                 pipeline_loops=pipeline_loops)
    for storage in storages.values():
        design.tally.add_memory(func.name, storage)
    design.tally.add_control_adapter(flow)
    for callee in module.functions.values():  # hls.customize: a partition carried to a callee's port
        design.notes += [f"array_partition followed an array into a sub-kernel: {op.attrs['followed']}"
                         for op in callee.walk() if isinstance(op, DirectiveOp) and "followed" in op.attrs]
    if any(isinstance(op, DirectiveOp) and isinstance(op.directive, Dataflow) for op in func.walk()):
        design.notes.append(f"{UNMODELLED}: the estimate runs the tasks one after the other")
    scope = Scope(storages, {}, func.name, func.name, 0)
    pipelined = pipelined_function(design, func, scope)
    if pipelined is not None:
        latency, interval = pipelined
    else:
        design.tally.add_fsm(func.name)
        latency = design.region(func.body.block, scope).plus(1)
        interval = latency.plus(1)
    design.notes.extend(design.tally.shared_register_notes())
    report = Report(func.name, part, float(clock_ns), latency.min, latency.max, interval.min, interval.max,
                    design.loops, design.tally.total(), design.tally.rows(), "estimate", lib.part.family,
                    round(clock_ns * lib.uncertainty, 3), None, design.notes)
    report.nodes, report.edges = call_graph(module, {**design.calls, func.name: latency})
    return report


def call_graph(module: Module, latencies: dict[str, Span]) -> tuple[list[GraphNode], list[GraphEdge]]:
    """Functions reachable from the top, callers before callees, and one edge per (caller, callee) with
    its number of call sites. Sub-kernels without loops are scheduled inline in their caller: no latency
    of their own."""
    nodes: list[GraphNode] = []
    edges: dict[tuple[str, str], GraphEdge] = {}
    pending = [module.top]
    while pending:
        name = pending.pop(0)
        if any(node.name == name for node in nodes):
            continue
        func = module.functions[name]
        span = latencies.get(name)
        nodes.append(GraphNode(name, NodeKind.FUNCTION, func.loc.file if func.loc else None,
                               func.loc.line if func.loc else None, span.min if span else None,
                               span.max if span else None))
        for op in func.walk():
            if isinstance(op, CallOp):
                edge = edges.get((name, op.callee))
                if edge is None:
                    edges[(name, op.callee)] = GraphEdge(name, op.callee, "call", 1, op.loc.line if op.loc else None)
                    pending.append(op.callee)
                else:
                    edge.count += 1
    return nodes, list(edges.values())
