"""Resource-constrained list scheduling of a straight-line graph.

Cycle by cycle, the operators whose inputs are ready compete for memory ports; the one with the
longest path to the end of the graph (its height) wins. Only memory ports are limited: Vitis gives
every other operator its own unit unless told otherwise (ALLOCATION), and shares units afterwards
where their cycles allow.

Ready operators wait in one heap per set of banks they need, so each cycle looks only at the heads
of those heaps: O(n log n) for n operators, not O(n * cycles).
"""

from __future__ import annotations

import heapq
from collections import defaultdict

from hls.schedule.graph import Graph, Node
from hls.schedule.timing import fit, heights, inherit_output_states, occupied_states, port_limits, required_start

Uses = tuple  # ((resource id, (direction limit, total limit)), ...)


def access_uses(node: Node) -> Uses:
    """The banks a straight-line access occupies: one, or every bank it cannot tell apart."""
    access = node.access
    if access is None or access.storage.ports is None:
        return ()
    storage = access.storage
    values = [None if i is None else i.const for i in access.indices]  # fixed values taken as 0, as in modulo.py
    limits = port_limits(storage, access.is_store)
    return tuple(((storage.resource, banks), limits) for banks in storage.bank_sets(values))


class PortTable:
    """Reads and writes per (resource, bank, cycle), checked against the bank's port limits."""

    def __init__(self) -> None:
        self.used: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])

    def free(self, uses: Uses, cycle: int, is_store: bool) -> bool:
        for rid, (limit, total) in uses:
            counts = self.used[(rid, cycle)]
            if counts[is_store] + 1 > limit or counts[0] + counts[1] + 1 > total:
                return False
        return True

    def take(self, uses: Uses, cycle: int, is_store: bool) -> None:
        for rid, _ in uses:
            self.used[(rid, cycle)][is_store] += 1


def list_schedule(graph: Graph) -> tuple[list[int], int]:
    """Start time (ps) of every node and the number of states the stretch takes."""
    nodes, period = graph.nodes, graph.period
    if not nodes:
        return [], 0
    inherit_output_states(nodes)
    height = heights(nodes, period)
    succs: list[list[tuple[int, int]]] = [[] for _ in nodes]
    waiting = [0] * len(nodes)
    for node in nodes:
        for src, distance, lag in node.preds:
            if distance == 0:
                succs[src].append((node.index, lag))
                waiting[node.index] += 1
    earliest = [0] * len(nodes)
    times = [0] * len(nodes)
    uses = [access_uses(node) for node in nodes]
    ready_heap = [(0, -height[n.index], n.index) for n in nodes if waiting[n.index] == 0]
    heapq.heapify(ready_heap)
    queues: dict[tuple, list] = {}
    ports = PortTable()

    def place(index: int, start: int) -> None:
        times[index] = start
        for dst, lag in succs[index]:
            earliest[dst] = max(earliest[dst], required_start(nodes[index], start, 0, lag, period, 0, nodes[dst]))
            waiting[dst] -= 1
            if waiting[dst] == 0:
                heapq.heappush(ready_heap, (earliest[dst], -height[dst], dst))

    cycle = 0
    while ready_heap or queues:
        if not queues:
            cycle = max(cycle, ready_heap[0][0] // period)
        progress = True
        while progress:
            progress = False
            while ready_heap and ready_heap[0][0] // period <= cycle:
                start, priority, index = heapq.heappop(ready_heap)
                if not uses[index]:
                    place(index, fit(nodes[index], start, period))
                else:
                    key = (uses[index], nodes[index].access.is_store)
                    heapq.heappush(queues.setdefault(key, []), (priority, start, index))
                progress = True
            for key in list(queues):
                progress |= _issue(queues, key, cycle, period, nodes, ports, place)
        cycle += 1
    return times, occupied_states(nodes, times, period)


def _issue(queues: dict, key: tuple, cycle: int, period: int, nodes: list[Node], ports: PortTable,
           place) -> bool:
    """Start the highest-priority waiting accesses on one set of banks while ports remain this cycle."""
    heap = queues[key]
    uses, is_store = key
    issued = False
    while heap:
        _, start, index = heap[0]
        begin = fit(nodes[index], max(start, cycle * period), period)
        if begin // period != cycle or not ports.free(uses, cycle, is_store):
            break
        heapq.heappop(heap)
        ports.take(uses, cycle, is_store)
        place(index, begin)
        issued = True
    if not heap:
        del queues[key]
    return issued
