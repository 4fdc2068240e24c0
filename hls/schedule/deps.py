"""Dependence analysis: loop-carried scalars and memory dependences with distances.

Scalars: a value a pipelined loop carries (an iter arg) links the op producing it in iteration n
to its users in iteration n + 1 (distance 1).

Memory: two accesses to one array, at least one a store, depend when their indices can be equal.
With affine indices `a*n + c1` and `a*n + c2` (n the iteration number, other symbols equal on both
sides) they touch the same element (c2 - c1) / a iterations apart: a distance, and a direction
(RAW store -> later load, WAR load -> later store, WAW store -> later store). Indices that are not
affine, or differ in other symbols, may touch the same element any time: a dependence inside the
iteration and one of distance 1 both ways, as Vitis assumes without a DEPENDENCE pragma.
Accesses with all-constant indices (unrolled code) are matched through a table per element, so
that straight-line code of 100k ops is analysed in linear time.
"""

from __future__ import annotations

from collections import defaultdict

from hls.ir.affine import ITER, Affine
from hls.schedule.graph import DATA, Access, Graph, Node

ANY = "any"


def add_carried_scalars(graph: Graph, yields: list[tuple]) -> None:
    """Edges producer(n) -> users(n + 1) for each carried value (the yield bindings of the body)."""
    for k, carried in enumerate(graph.carried):
        src = yields[k][0] if k < len(yields) else -1
        if src < 0:
            continue  # passed through unchanged, or loop-invariant: no recurrence
        src = _register(graph, src)
        carried.src = src
        for user in carried.consumers:
            graph.nodes[user].preds.append((src, 1, DATA))


def _register(graph: Graph, index: int) -> int:
    """The operator whose output register a carried value is: casts in between are wires (the DSP48's P
    register holds a MAC's accumulator, ELEN226 inner_product solution2: II 1 through `acc_V_1`)."""
    node = graph.nodes[index]
    while node.latency == 0 and node.delay == 0 and node.access is None and len(node.preds) == 1 \
            and node.preds[0][1] == 0 and graph.nodes[node.preds[0][0]].latency > 0:
        node = graph.nodes[node.preds[0][0]]
    return node.index


def add_exit_edges(graph: Graph, exits: list[int]) -> None:
    """A loop that may end after any iteration (while condition, break, return): the next iteration's
    stores and calls wait for this one's decision (distance 1), since they must not happen after the
    exit. Loads and arithmetic may start early (speculatively), so only side effects are held back:
    the scheduler moves the stores later (a deeper pipeline) or, when a recurrence pins them, raises
    the II."""
    for node in graph.nodes:
        if node.op is not None and (node.access is not None and node.access.is_store or node.op.name == "hls.call"):
            node.preds.extend((src, 1, DATA) for src in exits)


def _lag(src: Node) -> int:
    """Cycles after the source's cycle that the other access may use the element."""
    return src.latency if src.access is not None and src.access.is_store else 0


def _edge(graph: Graph, src: int, dst: int, distance: int) -> None:
    a, b = graph.nodes[src], graph.nodes[dst]
    if not (a.access.is_store or b.access.is_store):
        return
    if distance == 0 and a.access.exclusive(b.access):
        return  # opposite sides of one if: never in the same iteration
    if distance > 0 and not _both_happen(a.access.only_at, b.access.only_at, distance, graph.trip):
        return
    b.preds.append((src, distance, _lag(a)))


def _both_happen(src_at: int | None, dst_at: int | None, distance: int, trip: int | None) -> bool:
    """Whether an access of iteration n and one of n + distance can both exist, given that either may
    happen in one iteration only (a branch on `iv == constant`, e.g. the last tap of a shift register)."""
    if dst_at is not None and dst_at - distance < 0:
        return False
    return not (src_at is not None and trip is not None and src_at + distance > trip - 1)


def relation(first: list[Affine | None], second: list[Affine | None]) -> int | str | None:
    """Iterations from `first`'s access to `second`'s touching the same element: an int (negative when
    `second`'s iteration comes first), ANY when it may be any, None when never."""
    delta: int | None = None
    for ia, ib in zip(first, second, strict=True):
        if ia is None or ib is None:
            return ANY
        alpha = ia.coeff(ITER)
        if alpha != ib.coeff(ITER) or ia.without(ITER).terms != ib.without(ITER).terms:
            return ANY
        diff = ia.const - ib.const
        if alpha == 0:
            if diff != 0:
                return None
            continue
        if diff % alpha:
            return None
        d = diff // alpha  # second(n + d) touches what first(n) touched
        if delta is not None and delta != d:
            return None
        delta = d
    return ANY if delta is None else delta


def false_dependence(graph: Graph, a: Access, b: Access) -> bool:
    """L4 (docs/oplib.md 9): in a pipelined loop a partial unroll left, a load and a store of one array in
    banks (a partitioned RAM, not registers) where one of them picks its bank at run time (its index moves
    across the banks from one iteration to the next, `Storage.bank_moves`: a cyclic stride of the counter that
    is no multiple of the banks, or a block index that moves with the counter) and the banks each may reach
    overlap (`Storage.banks_reached`). Once the unrolled copies'
    accesses are split per bank, the address inside a moving bank is no affine function of the counter,
    so Vitis cannot prove the two apart and keeps a dependence both ways between iterations (UG1399
    "Removing False Dependencies to Improve Loop Pipelining"; wes237c FIR-128 cyclic4 with unroll 2: II 2)."""
    storage = a.storage
    if not graph.partial_unroll or a.is_store == b.is_store or storage.ports is None or storage.is_maxi \
            or storage.banks == 1:
        return False
    if not (storage.bank_moves(a.indices) or storage.bank_moves(b.indices)):
        return False
    for ia, ib, x, y in zip(a.indices, b.indices, storage.banks_reached(a.indices), storage.banks_reached(b.indices),
                            strict=True):
        same_shift = ia is not None and ib is not None and ia.without(ITER).terms == ib.without(ITER).terms
        if same_shift and x is not None and y is not None and not x & y:
            return False  # never one bank: the outer counters shift both alike
    return True


def _pair_edges(graph: Graph, first: int, second: int, pipelined: bool, trip: int | None) -> None:
    a, b = graph.nodes[first].access, graph.nodes[second].access
    rel = relation(a.indices, b.indices)
    if pipelined and rel != ANY and false_dependence(graph, a, b):
        # the copies of one iteration share the counter, so Vitis still tells them apart: the dependence
        # it cannot rule out is between iterations ("inter" in UG1399's terms), distance 1 both ways
        for src, dst, genuine in ((first, second, rel == 1), (second, first, rel == -1)):
            _edge(graph, src, dst, 1)
            if not genuine:
                graph.false_deps.add((src, dst))
    if rel is None:
        return
    if rel == ANY:
        _edge(graph, first, second, 0)
        if pipelined:
            _edge(graph, first, second, 1)
            _edge(graph, second, first, 1)
        return
    if rel == 0:
        _edge(graph, first, second, 0)
    elif pipelined and (trip is None or abs(rel) < trip):
        if rel > 0:
            _edge(graph, first, second, rel)
        else:
            _edge(graph, second, first, -rel)


def _constant_edges(graph: Graph, accesses: list[int], pipelined: bool) -> None:
    """Accesses at constant indices: last writer / readers-since tables per element."""
    last_store: dict[tuple, int] = {}
    first_store: dict[tuple, int] = {}
    readers: dict[tuple, list[int]] = defaultdict(list)
    early_readers: dict[tuple, list[int]] = defaultdict(list)
    for index in accesses:
        access = graph.nodes[index].access
        key = tuple(i.const for i in access.indices)
        if not access.is_store:
            if key in last_store:
                _edge(graph, last_store[key], index, 0)
            else:
                early_readers[key].append(index)
            readers[key].append(index)
            continue
        for reader in readers.pop(key, []):
            _edge(graph, reader, index, 0)
        if key in last_store:
            _edge(graph, last_store[key], index, 0)
        last_store[key] = index
        first_store.setdefault(key, index)
    if pipelined:
        for key, store in last_store.items():
            for reader in early_readers.get(key, []):
                _edge(graph, store, reader, 1)
            for reader in readers.get(key, []):
                _edge(graph, reader, first_store[key], 1)
            _edge(graph, store, first_store[key], 1)


def add_memory_edges(graph: Graph, pipelined: bool, trip: int | None = None, partial_unroll: bool = False) -> None:
    """Order every pair of accesses to one array that may touch the same element (`partial_unroll`: the
    pipelined loop is what a partial unroll left, where moving banks make false dependences, L4)."""
    graph.trip, graph.partial_unroll = trip, partial_unroll
    by_storage: dict[int, list[int]] = defaultdict(list)
    for index in graph.accesses:
        by_storage[id(graph.nodes[index].access.storage)].append(index)
    for accesses in by_storage.values():
        if not any(graph.nodes[i].access.is_store for i in accesses):
            continue
        constant, other = [], []
        for i in accesses:
            indices = graph.nodes[i].access.indices
            (constant if all(x is not None and x.is_const for x in indices) else other).append(i)
        _constant_edges(graph, constant, pipelined)
        unknown = set(other)
        for i in other:  # each pair with at least one non-constant access, once, in program order
            for j in accesses:
                if j != i and not (j in unknown and j < i):
                    _pair_edges(graph, min(i, j), max(i, j), pipelined, trip)
