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
import os
from collections import Counter, defaultdict

from hls.report.report import BreakdownRow, Resources
from hls.schedule.graph import DATA, Graph, Node, exclusive
from hls.schedule.memory import Storage, StorageKind
from hls.schedule.opcost import demanded_width
from hls.schedule.oplib import ADDER_LUT_EXTRA, COMPARE_LUT_EXTRA, MUX_LUT_PER_INPUT, mux_lut
from hls.schedule.timing import holds_operands, ready

# Estimates without a source (docs/oplib.md): one m_axi adapter (read/write buffers, address logic)
# and the s_axilite control block of a Vitis-flow kernel.
MAXI_ADAPTER = Resources(dsp=0, bram18k=2, ff=700, lut=900)
CONTROL_ADAPTER = Resources(dsp=0, bram18k=0, ff=200, lut=250)
# A pipeline register chain over more than EXPLICIT_STAGES stages is a shift register, which the csynth
# report's Register table counts as one register plus 64 FF and 32 LUT whatever its width (docs/oplib.md 8).
EXPLICIT_STAGES = 2
SHIFT_REGISTER = Resources(ff=64, lut=32)
# Pipeline control of a pipelined loop (Register/Expression/Multiplexer tables): ap_CS_fsm, ap_done_reg,
# one ap_enable_reg_pp0_iter per stage after the first, one ap_loop_exit_ready_pp0_iter*_reg per stage
# after the first but the last; two 2-input muxes (ap_done_int, ap_enable_reg_pp0_iter1) and three
# one-bit gates (ap_enable_pp0, two ap_condition_*) of 2 LUT each.
PIPELINE_LOGIC_LUT = 2 * mux_lut(2) + 3 * 2


def _type_name(node: Node) -> str:
    if node.op is not None and node.op.results:
        return str(node.op.results[0].type)
    if node.access is not None:
        return str(node.access.storage.elem)
    return ""


def _chain(width: int, copies: int) -> Resources:
    """`copies` pipeline registers of `width` bits, a shift register past EXPLICIT_STAGES."""
    if copies > EXPLICIT_STAGES:
        return Resources(ff=width) + SHIFT_REGISTER
    return Resources(ff=width * copies)


def _access_chains(graph: Graph, times: list[int], ii: int) -> Resources:
    """What a pipeline carries to an access in a later stage: its address when the index moves with the
    iteration (computed from the counters in the first stage) and the condition it sits under (the
    Register tables list c_addr_reg / add_ln16_reg and the icmp_ln* predicates down to the store)."""
    addresses: dict[tuple, int] = {}
    guards: dict[object, int] = {}
    for index in graph.accesses:
        node = graph.nodes[index]
        stage = times[index] // graph.period
        if stage == 0 or node.access.storage.ports is None:
            continue
        storage = node.access.storage
        if any(i is None or not i.is_const for i in node.access.indices):
            words = max(2, math.ceil(math.prod(storage.shape) / storage.banks))
            key = (storage.resource, tuple(repr(i) for i in node.access.indices))
            addresses[key] = max(addresses.get(key, 0), stage)
            addresses[key, "bits"] = math.ceil(math.log2(words))
        for guard in node.access.guard:
            guards[guard[0]] = max(guards.get(guard[0], 0), stage)
    total = Resources()
    for key, stage in addresses.items():
        if key[-1] != "bits":
            total = total + _chain(addresses[key, "bits"], math.ceil(stage / ii))
    for stage in guards.values():
        total = total + _chain(1, math.ceil(stage / ii))
    return total


# Floating-point adds and subtracts share one core kind: Vitis binds `faddfsub_*` / `dadddsub_*` units,
# the operation chosen per cycle (UG902 floating-point cores FAddSub_*/DAddSub_*; bavlyshehata/ADMM_BP and
# level2fast DFT-256: one unit serves an fadd and an fsub of different states).
ADD_SUB_UNIT = {"fadd": "faddfsub", "fsub": "faddfsub", "dadd": "dadddsub", "dsub": "dadddsub"}


def _port_read(node: Node) -> bool:
    """A load of an ap_memory argument whose every dimension is completely partitioned: each element is a
    scalar input port (ELEN226 inner_product solution3, mmul solution4: `a_0_read_reg`, 16 FF each)."""
    access = node.access
    if access is None or access.is_store or access.storage.kind is not StorageKind.AP_MEMORY:
        return False
    storage = access.storage
    return bool(storage.splits) and all(s.banks == n for s, n in zip(storage.splits, storage.shape, strict=True))


def _ports_read(node: Node) -> int:
    """How many ports a scalar-port read registers: one, or every port an index that moves may select (the
    value is muxed after the registers: mmul solution4 registers all 12 `a_*_read` and 24 `b_*_read`)."""
    if not _port_read(node):
        return 1
    indices = [i.const if i is not None and i.is_const else None for i in node.access.indices]
    return len(node.access.storage.bank_sets(indices))


def _unit_key(node: Node) -> tuple:
    """Operators one unit can serve: same kind, type and area (a MAC's multiply and a lone multiply of the
    same widths are both one DSP48, whatever their latency; an fadd and an fsub are one faddfsub)."""
    return ADD_SUB_UNIT.get(node.name, node.name), _type_name(node), node.cost.dsp, node.cost.ff, node.cost.lut


def _dsp_multiply(node: Node) -> bool:
    """An integer multiply on DSP48s: a pipeline gives each its own (ELEN226 loop_perfect solution6,
    II 5: 4 DSP; rhsuanwang mmult ijk, II 32: 32 products on 96 DSP48s), where floating-point cores are
    shared across the II's slots (aubaez float CORDIC, II 10: 10 DSP for 4 fmul and 6 fadd/fsub)."""
    return node.name == "mul" and node.cost.dsp > 0


def _new_unit(groups: list[list[tuple]], guard: tuple) -> int:
    """1 when an operator needs a unit of its own in its cycle, 0 when it joins a unit whose operators
    all sit on the other side of an if from it (only one of them runs: UG1448 "Mutual Exclusion,
    Resources, and Predicates"; wes237c fir11 binds its two branches' multiplies to 2 DSP48s)."""
    for group in groups:
        if all(exclusive(guard, other) for other in group):
            group.append(guard)
            return 0
    groups.append([guard])
    return 1


def _post_adders(graph: Graph) -> set[int]:
    """Adds and subs that take a DSP product (through wires such as casts) as an operand: the DSP48
    post-adder computes them (Vitis binds `mac_muladd_*` cores; the csynth report lists the MAC in its
    DSP table and no adder in Expression). One add per product."""
    def source(index: int) -> int:
        node = graph.nodes[index]
        while node.cost.latency == 0 and node.cost.lut == 0 and node.access is None and len(node.preds) == 1:
            node = graph.nodes[node.preds[0][0]]
        return node.index

    taken: set[int] = set()
    absorbed: set[int] = set()
    for node in graph.nodes:
        if node.name not in ("add", "sub") or node.cost.lut == 0:
            continue
        for src, distance, _ in node.preds:
            product = source(src)
            if distance == 0 and graph.nodes[product].cost.dsp > 0 and graph.nodes[product].name == "mul" \
                    and product not in taken:
                taken.add(product)
                absorbed.add(node.index)
                break
    return absorbed


class ResourceTally:
    def __init__(self) -> None:
        self.units: dict[tuple, int] = {}
        self.unit_cost: dict[tuple, Resources] = {}
        self.extra: dict[tuple[str, str], Resources] = {}
        self._memories: dict[int, Storage] = {}  # held, so that no later storage reuses a counted one's id
        self._bundles: set[str] = set()
        # R13: per sequential module, the registers of its largest straight stretch (the others reuse them),
        # and for its note: how many stretches, the FF they would sum to, where the largest starts
        self.stretch_registers: dict[str, Resources] = {}
        self._stretches: dict[str, list] = {}

    def _units(self, module: str, node: Node, count: int, shared: bool, cost: Resources | None = None,
               name: str | None = None) -> None:
        if node.access is not None or (node.cost.dsp == 0 and node.cost.ff == 0 and node.cost.lut == 0):
            return
        cost = cost or Resources(node.cost.dsp, 0, node.cost.ff, node.cost.lut)
        key = (module, name or node.name, _type_name(node), cost.dsp, cost.ff, cost.lut)  # one row per distinct unit
        self.unit_cost[key] = cost
        self.units[key] = max(self.units.get(key, 0), count) if shared else self.units.get(key, 0) + count

    def _add(self, module: str, name: str, resources: Resources) -> None:
        self.extra[(module, name)] = self.extra.get((module, name), Resources()) + resources

    def add_schedule(self, module: str, graph: Graph, times: list[int], ii: int | None, states: int) -> None:
        """Units, registers and control of one scheduled stretch (ii None: sequential)."""
        period = graph.period
        absorbed = _post_adders(graph)
        per_slot: dict[tuple, Counter] = defaultdict(Counter)
        groups: dict[tuple, list[list[tuple]]] = defaultdict(list)
        for node, start in zip(graph.nodes, times, strict=True):
            if node.cost.shareable:
                slot = (0 if _dsp_multiply(node) else (start // period) % ii) if ii else start // period
                per_slot[_unit_key(node)][slot] += _new_unit(groups[(_unit_key(node), slot)], node.guard)
            elif node.index in absorbed:  # the DSP48 post-adder does this add: no LUT of its own
                self._units(module, node, 1, shared=False, cost=Resources(0, 0, node.cost.ff, 0))
            else:
                self._units(module, node, 1, shared=False)
        shared = sum(2 * mux_lut(len(g)) for gs in groups.values() for g in gs if len(g) > 1)
        if shared:  # a unit serving both sides of an if multiplexes its two operands
            self._add(module, "shared unit inputs", Resources(lut=shared))
        kinds: dict[tuple, set[str]] = defaultdict(set)
        for node in graph.nodes:
            kinds[_unit_key(node)].add(node.name)
        for node in graph.nodes:
            key = _unit_key(node)
            if node.cost.shareable and key in per_slot:  # a unit serving two kinds is named by its core
                name = key[0] if len(kinds[key]) > 1 else node.name
                self._units(module, node, max(per_slot.pop(key).values()), shared=True, name=name)
        self._add_registers(module, self._registers(graph, times, ii), sequential=not ii, graph=graph)
        # a carried scalar is a register with a mux choosing its initial or updated value, and in a
        # pipeline a second one forwarding the value written in the cycle it is read (ap_sig_allocacmp_*)
        carried = len(graph.carried) * mux_lut(2) * (2 if ii else 1)
        if ii:
            self._add(module, "control", Resources(ff=max(1, 2 * states - 1), lut=PIPELINE_LOGIC_LUT + carried))
        else:  # one-hot FSM: a flip-flop per state, and its next-state mux grows by one input per state
            self._add(module, "control", Resources(ff=states, lut=MUX_LUT_PER_INPUT * states + carried))

    def add_registers(self, module: str, graph: Graph, times: list[int], states: int) -> None:
        """Registers and FSM states of a sequential stretch whose operators are counted elsewhere."""
        self._add_registers(module, self._registers(graph, times, None), sequential=True, graph=graph)
        self._add(module, "control", Resources(ff=states, lut=MUX_LUT_PER_INPUT * states))

    def _add_registers(self, module: str, registers: Resources, sequential: bool, graph: Graph) -> None:
        """R13 (docs/oplib.md 9): the straight stretches of one sequential module (code between its loops, the
        bodies of its sequential loops) run in different FSM states, so the values of one stretch never live
        while another's do and Vitis binds them to the same registers: the Register tables list `reg_<n>`
        registers that no single value names (level2fast DFT-256 unroll16: 32 `reg_*` of 32 bits serve 16
        unrolled copies of the inner loop, 9,219 Register FF in all). The module keeps the registers of its
        largest stretch, not their sum; a pipeline's registers are all live at once and add up."""
        if not sequential:
            self._add(module, "registers", registers)
            return
        seen = self._stretches.setdefault(module, [0, 0, None])
        seen[0] += 1
        seen[1] += registers.ff
        if registers.ff > self.stretch_registers.get(module, Resources()).ff:
            self.stretch_registers[module] = registers
            seen[2] = next((n.op.loc for n in graph.nodes if n.op is not None and n.op.loc is not None), None)

    def shared_register_notes(self) -> list[str]:
        """One note per sequential module whose stretches' registers R13 shares, naming the largest stretch's line."""
        notes = []
        for module, (count, total, loc) in self._stretches.items():
            kept = self.stretch_registers.get(module, Resources()).ff
            if count > 1 and total > kept:
                where = f" from {os.path.basename(loc.file)}:{loc.line}" if loc is not None else ""
                notes.append(f"registers of `{module}`: its {count} sequential stretches run in different states and "
                             f"share one set, that of the largest{where} ({kept} FF, {total} FF if each had its own)")
        return notes

    @staticmethod
    def _registers(graph: Graph, times: list[int], ii: int | None) -> Resources:
        period = graph.period
        last_use: dict[int, int] = {}
        held: set[int] = set()  # loads an FSM keeps in a register while a multi-cycle operator reads them
        for node, start in zip(graph.nodes, times, strict=True):
            for src, distance, lag in node.preds:
                if lag != DATA:  # an ordering edge between memory accesses carries no value: no register
                    continue
                use = start // period + distance * (ii or 0)
                last_use[src] = max(last_use.get(src, 0), use)
                if holds_operands(node) and graph.nodes[src].access is not None:
                    held.add(src)
        total = Resources()
        for src, use in last_use.items():
            node = graph.nodes[src]
            # a read of a scalar port (an element of a completely partitioned top-level array, ap_none) is a
            # fabric register, `<port>_read_reg` in the Register tables, where a RAM's output register is not
            lives = use - (times[src] if _port_read(node) else ready(node, times[src], period)) // period
            if lives <= 0 and not (ii is None and src in held):
                continue
            lives = max(lives, 1)
            width = min(node.width, demanded_width(node.op.results[0])) if node.op is not None \
                and node.op.results else node.width
            copies = math.ceil(lives / ii) if ii else 1  # a pipeline holds one copy per iteration in flight
            total = total + _chain(width * _ports_read(node), copies)
        return total + (_access_chains(graph, times, ii) if ii else Resources())

    def add_loop_control(self, module: str, iv_width: int, pipelined: bool = False, carried: tuple = ()) -> None:
        """The induction variable: its register, increment, exit compare and the mux that loads its start
        value (and in a pipeline the one forwarding it, ap_sig_allocacmp_*). `carried`: widths of the
        values a sequential loop carries, each a register behind a 2-input mux."""
        lut = iv_width + ADDER_LUT_EXTRA + iv_width // 2 + COMPARE_LUT_EXTRA + mux_lut(2) * (2 if pipelined else 1)
        self._add(module, "loop control", Resources(ff=iv_width + sum(carried), lut=lut + mux_lut(2) * len(carried)))

    def add_pipeline_exit(self, module: str, depth: int) -> None:
        """The exit test of a pipelined loop travels down the pipeline with its iteration (the csynth
        Register table lists the loop's `icmp` as a register, plus a shift register past two stages)."""
        stages = depth - 1
        if stages > EXPLICIT_STAGES:
            self._add(module, "loop control", Resources(ff=1) + SHIFT_REGISTER)
        elif stages > 0:
            self._add(module, "loop control", Resources(ff=stages))

    def add_fsm(self, module: str) -> None:
        """A sequential module's idle state and the base of its next-state mux."""
        self._add(module, "control", Resources(ff=1, lut=mux_lut(2) - MUX_LUT_PER_INPUT))

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
        rows = [BreakdownRow(key[0], key[1], key[2], count, self.unit_cost[key].scaled(count))
                for key, count in self.units.items() if count]
        rows += [BreakdownRow(module, name, "", None, resources) for (module, name), resources in self.extra.items()]
        rows += [BreakdownRow(module, "registers (shared by its sequential stretches)", "", None, resources)
                 for module, resources in self.stretch_registers.items()]
        return rows

    def total(self) -> Resources:
        total = Resources()
        for row in self.rows():
            total = total + row.resources
        return total


def iv_width(trip: int | None) -> int:
    return max(1, math.ceil(math.log2((trip or 2) + 1)))

