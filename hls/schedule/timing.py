"""Time arithmetic shared by the list and modulo schedulers (times are ps, cycle = time // period).

A pipelined operator started in cycle c has its result at the start of cycle c + latency; a chained
(latency 0) operator's result is ready `delay` ps after it starts, in the same cycle, and it may only
start where its delay still fits the usable period. A value carried to a later iteration always
crosses a register: it is ready at the next cycle boundary at the earliest.
"""

from __future__ import annotations

from dataclasses import replace

from hls.schedule.graph import DATA, Node
from hls.schedule.memory import Storage


def ready(node: Node, start: int, period: int, carried: bool = False) -> int:
    if node.latency > 0:
        return (start // period + node.latency) * period + (0 if carried else _ps(node.cost.output_ns))
    if carried:
        return (start // period + 1) * period
    return start + node.delay


def _ps(ns: float) -> int:
    return int(round(ns * 1000))


def fit(node: Node, start: int, period: int) -> int:
    """The earliest start at or after `start` where a chained operator does not cross a cycle edge, and
    a pipelined one's input stage still fits its first cycle."""
    if node.latency == 0 and start % period + node.delay > period:
        return (start // period + 1) * period
    if node.latency > 0 and start % period and start % period + _ps(node.cost.input_ns) > period:
        return (start // period + 1) * period
    return start


def holds_operands(node: Node) -> bool:
    """A multi-cycle operator whose operands must be held in registers while it runs: a multi-DSP
    `mul_*_2_1` instance reads a loaded value from its `*_load_reg` a state after the load returns
    (wes237c FIR without pipelining: 5 states an iteration, registers shift_reg_load_reg and
    fir_int_int_c_load_reg in the csynth report); a one-tile DSP48 multiply holds them in its own A/B
    registers (ELEN226 inner_product solution1: the MAC reads a_q0 directly, 5 states)."""
    return node.latency > 0 and node.name == "mul" and node.cost.dsp > 1


def core_instance(node: Node) -> bool:
    """A multi-cycle core Vitis instantiates as a module of its own (the csynth Instance table: floating-
    point operators, dividers, multi-DSP multipliers), as opposed to a DSP48 of the DSP table."""
    return node.latency > 0 and node.access is None and node.cost.shareable and \
        not (node.name == "mul" and node.cost.dsp <= 1)


def registered_input(src: Node, dst: Node, carried: bool = False) -> bool:
    """`dst` takes `src`'s value from a register, a state after it arrives. Vitis feeds a core instance
    from registers only: a loaded value from its `*_load_reg`, a core's result from its `*_reg`, a value
    carried through the loop's phi (fabric logic after the last core: an if's select) from the register
    behind it; a value a core carries in its own output register goes straight back (`acc += x[i]`:
    II = fadd latency, VITIS_FACTS.md 4). Register tables: level2fast DFT-256 ROM variants (c_reg,
    real_sample_load_reg, mul_reg, sub_reg; 16 states an iteration), aahwu labB FFT stages (pipelined:
    bitcast_ln30_reg, mul3_reg, temp_R_reg; depth 17), wes237c FIR (shift_reg_load_reg into a multi-DSP
    mul); the aubaez CORDICs' II 6 (fixed point: faddfsub 4 + select + phi) and 10 (float)."""
    if not core_instance(dst) or (src.access is not None and src.access.is_store):
        return False
    if carried:
        return src.latency == 0 and src.access is None
    return src.access is not None or src.latency > 0


def required_start(src: Node, src_start: int, distance: int, lag: int, period: int, ii: int,
                   dst: Node | None = None) -> int:
    """Earliest start of an edge's destination given its source's start (and the II for distances).
    `dst`: an operator that reads its operand from a register starts a state later (`registered_input`)."""
    if lag == DATA:
        bound = ready(src, src_start, period, carried=distance > 0)
        if distance == 0 and src.cost.output_states and (dst is None or not is_wire(dst)):
            bound = (-(-bound // period) + src.cost.output_states) * period
        if dst is not None and registered_input(src, dst, distance > 0):
            bound = (bound // period + 1) * period
    else:
        bound = (src_start // period + lag) * period
    return bound - distance * ii * period


def is_wire(node: Node) -> bool:
    """A cast or other renaming: no delay, no cycle, no port."""
    return node.latency == 0 and node.delay == 0 and node.access is None


def inherit_output_states(nodes: list[Node]) -> None:
    """A wire over a result that fabric logic may use only some states later passes the wait on (the
    register of a carried value still takes it at once: deps.add_carried_scalars looks through wires)."""
    for node in nodes:
        if is_wire(node) and len(node.preds) == 1 and node.preds[0][1] == 0:
            states = nodes[node.preds[0][0]].cost.output_states
            if states > node.cost.output_states:
                node.cost = replace(node.cost, output_states=states)


def occupied_states(nodes: list[Node], times: list[int], period: int) -> int:
    """States an iteration (or a straight-line stretch) spans: last cycle any operator is busy, plus 1.
    A stretch of chained operators alone that fits in cycle 0 takes no state of its own."""
    last = 0
    for node, start in zip(nodes, times, strict=True):
        cycle = start // period
        if node.latency > 0 or node.access is not None or cycle > 0:
            last = max(last, cycle + max(node.latency, 1))
    return last


def port_limits(storage: Storage, is_store: bool) -> tuple[int, int]:
    """(accesses of this direction, accesses in total) a bank takes per cycle."""
    reads, writes, total = storage.ports
    return (writes if is_store else reads), total


def heights(nodes: list[Node], period: int) -> list[int]:
    """Cycles from each node to the end of the longest distance-0 path it starts: the list priority."""
    height = [0] * len(nodes)
    for node in reversed(nodes):
        own = max(node.latency, 1 if node.access is not None else 0)
        height[node.index] = max(height[node.index], own)
        for src, distance, _ in node.preds:
            if distance == 0:
                height[src] = max(height[src], height[node.index] + max(nodes[src].latency, 0))
    return height
