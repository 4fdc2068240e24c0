"""Iterative modulo scheduling of a pipelined loop body (B. R. Rau, "Iterative modulo scheduling",
MICRO-27, 1994): the II starts at MII = max(ResMII, RecMII) and grows until every operator has a
start time that respects its dependences, loop-carried ones included (start(dst) + distance * II >=
ready(src)), and no memory bank serves more accesses in one cycle modulo II than it has ports.

ResMII = max over banks of ceil(accesses / ports). RecMII = max over recurrences of
ceil(latency around the cycle / distance), found as the longest distance-0 path from each carried
edge's destination to its source.

Banks that rotate with the iteration (A[i] and A[i+1] in a cyclic partition) are sampled: each
bank is checked at as many consecutive iterations as the array has banks. Values fixed during the
loop (outer induction variables) are taken as 0 there: exact for accesses that share those terms
(buf[j + k] and buf[j + k + 1] land in different banks whatever j is); non-affine indices may hit
any bank of a split dimension.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass

from hls.ir.affine import ITER
from hls.schedule.graph import Graph, Node
from hls.schedule.listsched import PortTable
from hls.schedule.memory import Storage
from hls.schedule.timing import fit, heights, inherit_output_states, occupied_states, port_limits, required_start

MAX_SAMPLES = 64
EXTRA_II = 64  # how far above MII to search before falling back to a non-overlapped schedule


@dataclass
class Recurrence:
    """One loop-carried cycle: the II it forces and the operators on it (destination first)."""

    ii: int
    src: int
    dst: int
    distance: int
    path: list[int]


@dataclass
class PortBound:
    """The bank that forces the largest ResMII."""

    ii: int
    storage: Storage
    reads: int
    writes: int


@dataclass
class ModuloResult:
    ii: int
    depth: int
    times: list[int]
    res_mii: int
    rec_mii: int
    recurrence: Recurrence | None = None
    ports: PortBound | None = None
    fallback: bool = False


def _samples(graph: Graph) -> dict[int, int]:
    """Per storage: how many consecutive iterations to check banks at (1 when no bank rotates)."""
    count: dict[int, int] = {}
    for index in graph.accesses:
        access = graph.nodes[index].access
        storage = access.storage
        rotates = any(split.banks > 1 and (aff is None or aff.coeff(ITER) != 0)
                      for split, aff in zip(storage.splits, access.indices, strict=False))
        if storage.ports is not None and storage.banks > 1 and rotates:
            # iterations past the trip count would index beyond the array (clamped into the last bank)
            count[id(storage)] = min(MAX_SAMPLES, storage.banks, graph.trip or MAX_SAMPLES)
    return count


def _shares_port(node: Node, groups: dict[tuple, list[list[Node]]]) -> bool:
    """Accesses on opposite sides of an if (if-converted) use one port between them: a predicated
    access joins a group of same-direction accesses to the array it excludes every member of."""
    access = node.access
    key = (access.storage.resource, access.is_store)
    for group in groups[key]:
        if all(access.exclusive(other.access) for other in group):
            group.append(node)
            return True
    groups[key].append([node])
    return False


def modulo_uses(graph: Graph) -> list[tuple]:
    samples = _samples(graph)
    uses: list[tuple] = []
    groups: dict[tuple, list[list[Node]]] = defaultdict(list)
    for node in graph.nodes:
        access = node.access
        if access is None or access.storage.ports is None or (access.guard and _shares_port(node, groups)):
            uses.append(())
            continue
        storage = access.storage
        limits = port_limits(storage, access.is_store)
        entries = []
        for sample in range(samples.get(id(storage), 1)):
            values = [None if a is None else a.at(sample) for a in access.indices]
            entries += [((storage.resource, banks, sample), limits) for banks in storage.bank_sets(values)]
        uses.append(tuple(entries))
    return uses


def res_mii(graph: Graph, uses: list[tuple]) -> tuple[int, PortBound | None]:
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    owner: dict[tuple, Storage] = {}
    for node, entries in zip(graph.nodes, uses, strict=True):
        for rid, _ in entries:
            counts[rid][node.access.is_store] += 1
            owner[rid] = node.access.storage
    best, bound = 1, None
    for rid, (reads, writes) in counts.items():
        max_reads, max_writes, total = owner[rid].ports
        need = max(math.ceil(reads / max_reads) if reads else 0, math.ceil(writes / max(max_writes, 1)) if writes
                   else 0, math.ceil((reads + writes) / total))
        if need > best:
            best, bound = need, PortBound(need, owner[rid], reads, writes)
    return best, bound


def rec_mii(graph: Graph) -> tuple[int, Recurrence | None]:
    """Longest recurrence, from one ASAP pass per distinct destination of a carried edge."""
    nodes, period = graph.nodes, graph.period
    carried: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for node in nodes:
        for src, distance, lag in node.preds:
            if distance > 0:
                carried[node.index].append((src, distance, lag))
    best, worst = 1, None
    for dst, edges in carried.items():
        times, parent = _asap_from(nodes, dst, period, max(src for src, _, _ in edges))
        for src, distance, lag in edges:
            if src not in times:
                continue
            bound = required_start(nodes[src], times[src], distance, lag, period, 0, nodes[dst])
            need = max(1, math.ceil(bound / (distance * period)))
            if need > best or worst is None:
                path, at = [src], src
                while at != dst:
                    at = parent[at]
                    path.append(at)
                best, worst = need, Recurrence(need, src, dst, distance, path[::-1])
    return best, worst


def _asap_from(nodes: list[Node], start: int, period: int, last: int) -> tuple[dict[int, int], dict[int, int]]:
    times, parent = {start: 0}, {}
    for node in nodes[start + 1:last + 1]:
        best, via = None, None
        for src, distance, lag in node.preds:
            if distance == 0 and src in times:
                bound = required_start(nodes[src], times[src], 0, lag, period, 0, node)
                if best is None or bound > best:
                    best, via = bound, src
        if best is not None:
            times[node.index], parent[node.index] = fit(node, best, period), via
    return times, parent


def modulo_schedule(graph: Graph, target_ii: int | None = None) -> ModuloResult:
    inherit_output_states(graph.nodes)
    uses = modulo_uses(graph)
    res, port_bound = res_mii(graph, uses)
    rec, recurrence = rec_mii(graph)
    start_ii = max(res, rec, target_ii or 1)
    succs: list[list[tuple[int, int, int]]] = [[] for _ in graph.nodes]
    for node in graph.nodes:
        for src, distance, lag in node.preds:
            succs[src].append((node.index, distance, lag))
    height = heights(graph.nodes, graph.period)
    for ii in range(start_ii, start_ii + EXTRA_II):
        times = _try(graph, ii, uses, succs, height)
        if times is not None:
            low = min(t // graph.period for t in times) if times else 0
            times = [t - low * graph.period for t in times]
            depth = occupied_states(graph.nodes, times, graph.period)
            # a target II above the iteration's depth leaves nothing to overlap: the next iteration starts
            # once this one is done (wes237c FIR: pipeline II=6 reports the II=5 loop, interval 640)
            ii = max(res, rec, min(ii, depth)) if target_ii else ii
            return ModuloResult(ii, max(depth, 1), times, res, rec, recurrence, port_bound)
    from hls.schedule.listsched import list_schedule

    times, depth = list_schedule(graph)
    return ModuloResult(max(depth, start_ii), max(depth, 1), times, res, rec, recurrence, port_bound, True)


def _earliest(node: Node, times: list[int | None], nodes: list[Node], period: int, ii: int) -> int:
    start = 0
    for src, distance, lag in node.preds:
        if times[src] is not None:
            start = max(start, required_start(nodes[src], times[src], distance, lag, period, ii, node))
    return fit(node, start, period)


def _asap_cycles(nodes: list[Node], period: int) -> list[int]:
    """Earliest cycle of each operator from the distance-0 dependences alone."""
    start = [0] * len(nodes)
    for node in nodes:
        for src, distance, lag in node.preds:
            if distance == 0:
                start[node.index] = max(start[node.index], required_start(nodes[src], start[src], 0, lag, period, 0,
                                                                                    node))
    return [t // period for t in start]


def _try(graph: Graph, ii: int, uses: list[tuple], succs: list, height: list[int]) -> list[int] | None:
    """One attempt at a given II with Rau's eviction; None when the budget runs out."""
    nodes, period = graph.nodes, graph.period
    times: list[int | None] = [None] * len(nodes)
    last_cycle: list[int | None] = [None] * len(nodes)
    table = PortTable()
    holders: dict[tuple, list[int]] = defaultdict(list)
    depth = _asap_cycles(nodes, period)  # among equal heights, the later-ready (less free) operator first
    queue = [(-height[n.index], -depth[n.index], n.index) for n in nodes]
    heapq.heapify(queue)
    budget = 6 * len(nodes) + 16

    def unschedule(index: int) -> None:
        slot = times[index] // period % ii
        store = nodes[index].access.is_store if uses[index] else False
        for rid, _ in uses[index]:
            table.used[(rid, slot)][store] -= 1
            holders[(rid, slot)].remove(index)
        times[index] = None
        heapq.heappush(queue, (-height[index], -depth[index], index))

    while queue:
        _, _, index = heapq.heappop(queue)
        if times[index] is not None:
            continue
        budget -= 1
        if budget < 0:
            return None
        node = nodes[index]
        store = node.access.is_store if uses[index] else False
        start = _earliest(node, times, nodes, period, ii)
        first = start // period
        chosen = next((c for c in range(first, first + ii) if table.free(uses[index], c % ii, store)), None)
        if chosen is None:
            chosen = first if last_cycle[index] is None or first > last_cycle[index] else last_cycle[index] + 1
            for rid, _ in uses[index]:
                for other in list(holders[(rid, chosen % ii)]):
                    if times[other] is not None and not table.free(uses[index], chosen % ii, store):
                        unschedule(other)
        begin = start if chosen == first else chosen * period
        times[index], last_cycle[index] = begin, chosen
        table.take(uses[index], chosen % ii, store)
        for rid, _ in uses[index]:
            holders[(rid, chosen % ii)].append(index)
        for dst, distance, lag in succs[index]:
            if times[dst] is not None and times[dst] < required_start(node, begin, distance, lag, period, ii,
                                                                      nodes[dst]):
                unschedule(dst)
        for src, distance, lag in node.preds:
            bound = required_start(nodes[src], times[src], distance, lag, period, ii, node) if times[src] is not None \
                else None
            if bound is not None and begin < bound:
                unschedule(src)
    return times  # type: ignore[return-value]
