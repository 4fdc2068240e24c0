"""Resource estimate: operator units after sharing, registers, memories, interface adapters.

Sharing follows what Vitis does: a pipelined core (floating point, DSP multiply, divider) serves
every operation of its kind that starts in a different cycle of a sequential module, or in a
different slot modulo II of a pipelined loop; fabric operators (adders, comparators, multiplexers)
are counted once per operation. Registers hold every value that outlives the cycle it is ready in:
in a pipeline one copy per iteration in flight during its lifetime, once in a sequential module.
Pipelined loops are their own modules, as Vitis outlines them (`<top>_Pipeline_<label>`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from hls.schedule.graph import Graph, Node
from hls.schedule.memory import Storage
from hls.schedule.report import BreakdownRow, Resources
from hls.schedule.timing import ready

# Estimates without a source (docs/oplib.md): one m_axi adapter (read/write buffers, address logic)
# and the s_axilite control block of a Vitis-flow kernel.
MAXI_ADAPTER = Resources(dsp=0, bram18k=2, ff=700, lut=900)
CONTROL_ADAPTER = Resources(dsp=0, bram18k=0, ff=200, lut=250)


def _type_name(node: Node) -> str:
    if node.op is not None and node.op.results:
        return str(node.op.results[0].type)
    if node.access is not None:
        return str(node.access.storage.elem)
    return ""


class ResourceTally:
    def __init__(self) -> None:
        self.units: dict[tuple[str, str, str], int] = {}
        self.unit_cost: dict[tuple[str, str, str], Resources] = {}
        self.extra: dict[tuple[str, str], Resources] = {}
        self._memories: dict[int, Storage] = {}  # held, so that no later storage reuses a counted one's id
        self._bundles: set[str] = set()

    def _units(self, module: str, node: Node, count: int, shared: bool) -> None:
        if node.access is not None or (node.cost.dsp == 0 and node.cost.ff == 0 and node.cost.lut == 0):
            return
        key = (module, node.name, _type_name(node))
        self.unit_cost[key] = Resources(node.cost.dsp, 0, node.cost.ff, node.cost.lut)
        self.units[key] = max(self.units.get(key, 0), count) if shared else self.units.get(key, 0) + count

    def _add(self, module: str, name: str, resources: Resources) -> None:
        self.extra[(module, name)] = self.extra.get((module, name), Resources()) + resources

    def add_schedule(self, module: str, graph: Graph, times: list[int], ii: int | None, states: int) -> None:
        """Units, registers and control of one scheduled stretch (ii None: sequential)."""
        period = graph.period
        per_slot: dict[tuple, Counter] = defaultdict(Counter)
        for node, start in zip(graph.nodes, times, strict=True):
            if node.cost.shareable:
                slot = (start // period) % ii if ii else start // period
                per_slot[(node.name, _type_name(node))][slot] += 1
            else:
                self._units(module, node, 1, shared=False)
        for node in graph.nodes:
            key = (node.name, _type_name(node))
            if node.cost.shareable and key in per_slot:
                self._units(module, node, max(per_slot.pop(key).values()), shared=True)
        self._add(module, "registers", Resources(ff=self._register_bits(graph, times, ii)))
        self._add(module, "control", Resources(ff=states, lut=states))

    @staticmethod
    def _register_bits(graph: Graph, times: list[int], ii: int | None) -> int:
        period = graph.period
        last_use: dict[int, int] = {}
        for node, start in zip(graph.nodes, times, strict=True):
            for src, distance, _ in node.preds:
                use = start // period + distance * (ii or 0)
                last_use[src] = max(last_use.get(src, 0), use)
        bits = 0
        for src, use in last_use.items():
            node = graph.nodes[src]
            lives = use - ready(node, times[src], period) // period
            if lives > 0:  # a pipeline holds one copy per iteration in flight, ceil(lives / II)
                bits += node.width * (math.ceil(lives / ii) if ii else 1)
        return bits

    def add_loop_control(self, module: str, iv_width: int) -> None:
        self._add(module, "loop control", Resources(ff=iv_width, lut=2 * iv_width))

    def add_memory(self, module: str, storage: Storage) -> None:
        if id(storage) in self._memories:
            return
        self._memories[id(storage)] = storage
        if storage.is_maxi:
            if storage.bundle not in self._bundles:
                self._bundles.add(storage.bundle)
                self._add("interface", f"m_axi {storage.bundle}", MAXI_ADAPTER)
            return
        area = storage.area()
        if area:
            kind = f"memory {storage.name} ({storage.kind}, {storage.banks} bank{'s' * (storage.banks > 1)})"
            self._add(module, kind, Resources(0, area.get("bram18k", 0), area.get("ff", 0), area.get("lut", 0),
                                              area.get("uram", 0)))

    def add_control_adapter(self, flow: str = "vitis") -> None:
        """The s_axilite control block of the Vitis flow; ap_ctrl_hs (Vivado flow) is four wires on the FSM."""
        if flow == "vitis":
            self._add("interface", "s_axilite control", CONTROL_ADAPTER)

    def rows(self) -> list[BreakdownRow]:
        rows = [BreakdownRow(module, name, type_name, count, self.unit_cost[(module, name, type_name)].scaled(count))
                for (module, name, type_name), count in self.units.items() if count]
        rows += [BreakdownRow(module, name, "", None, resources) for (module, name), resources in self.extra.items()]
        return rows

    def total(self) -> Resources:
        total = Resources()
        for row in self.rows():
            total = total + row.resources
        return total


def iv_width(trip: int | None) -> int:
    return max(1, math.ceil(math.log2((trip or 2) + 1)))

