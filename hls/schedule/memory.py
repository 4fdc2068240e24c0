"""Memories: where each array lives, how many ports each bank has, its latency and its area.

Port rules (VITIS_FACTS.md section 4): per cycle RAM_1P has 1 port, RAM_2P 1 read/write + 1 read,
RAM_S2P 1 read + 1 write, RAM_T2P 2 read/write; each m_axi bundle has 1 read + 1 write channel.
Local arrays default to a dual-port RAM (Vitis RAM_AUTO uses both ports when the schedule needs
them); top-level array arguments are m_axi unless an interface directive says otherwise (the backend
gives each its own bundle gmem0, gmem1, ...); `ap_memory`/`bram` arguments are dual-port RAMs outside
the kernel. array_partition splits a dimension into banks (complete = one bank per element; when
every dimension is complete the array becomes registers without port limits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from itertools import product
from typing import Any

from hls.interfaces import default_interface
from hls.ir import AllocOp, BlockLockOp, ConstantOp, DirectiveOp, Function, LoadOp, RomOp, StoreOp, StreamOp, Value
from hls.ir.affine import ITER
from hls.schedule.autopartition import automatically_complete, throughput_cyclic
from hls.types import ArrayType, BoolType, FloatType, IntType, ScalarType, StreamType

MAXI_LATENCY = 64  # Vitis-flow default m_axi latency (config_interface -m_axi_latency), VITIS_FACTS.md 2 and 4
BRAM_READ_LATENCY = 1  # Bind Storage Report "Latency 1" for RAM_AUTO (bavlyshehata/ADMM_BP, xcu250, 2022.2)
URAM_READ_LATENCY = 2  # inferred: UltraRAM output is registered once more than BRAM
# inferred: a memory of at most 1 Kbit per bank is LUTRAM, not an 18 Kbit BRAM; decided per bank once
# partitioned (rhsuanwang mmult: 32 banks of 32 x 32 bits, 4 BRAM in all; level2fast DFT cyclic16: 0 BRAM)
LUTRAM_BITS = 1024

# (reads, writes, total accesses) per bank per cycle
PORTS = {
    "ram_1p": (1, 1, 1), "ram_2p": (2, 1, 2), "ram_s2p": (1, 1, 2), "ram_t2p": (2, 2, 2),
    "ram_1wnr": (8, 1, 9), "rom_1p": (1, 0, 1), "rom_2p": (2, 0, 2), "rom_np": (8, 0, 8),
    "fifo": (1, 1, 2), "auto": (2, 2, 2), "m_axi": (1, 1, 2),
}
BRAM18_SHAPES = ((16384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18), (512, 36))  # RAMB18 aspect ratios


def bit_width(t: Any) -> int:
    """Bits of a value (registers, memory words): the type's own `bit_width`, 32 for a type without one."""
    return getattr(t, "bit_width", 32)


@dataclass
class DimSplit:
    """How one dimension is split into banks: `banks` banks, cyclic (index mod banks) or in blocks."""

    banks: int = 1
    cyclic: bool = True
    block: int = 1


class StorageKind(str, Enum):
    """Where an array lives, as the schedulers and the resource count see it (a str enum: it prints and
    formats as its value, `regs`)."""

    BRAM = "bram"
    LUTRAM = "lutram"
    URAM = "uram"
    REGS = "regs"  # completely partitioned: registers, no port limit
    ROM = "rom"
    M_AXI = "m_axi"
    AP_MEMORY = "ap_memory"
    FIFO = "fifo"

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass
class Storage:
    """One array's memory: kind, element type, shape, banks, ports and latencies."""

    name: str
    kind: StorageKind
    elem: ScalarType
    shape: tuple[int, ...]
    ports: tuple[int, int, int] | None  # None: registers, no port limit
    splits: list[DimSplit] = field(default_factory=list)
    read_latency: int = BRAM_READ_LATENCY
    write_latency: int = 1
    bundle: str | None = None
    rom_data: Any = None

    @property
    def banks(self) -> int:
        return math.prod(s.banks for s in self.splits) if self.splits else 1

    @property
    def resource(self) -> str:
        """What shares ports: the array itself, or its m_axi bundle (arrays in one bundle share it)."""
        return f"m_axi:{self.bundle}" if self.kind is StorageKind.M_AXI else f"mem:{self.name}:{id(self)}"

    @property
    def is_maxi(self) -> bool:
        return self.kind is StorageKind.M_AXI

    def bank_sets(self, indices: list[int | None]) -> list[tuple[int, ...]]:
        """Banks an access with these index values may touch (all banks of a dimension it cannot tell)."""
        if self.ports is None or self.kind is StorageKind.M_AXI or self.banks == 1:
            return [()]
        per_dim = []
        for split, index in zip(self.splits, indices, strict=False):
            if split.banks == 1:
                per_dim.append((0,))
            elif index is None:
                per_dim.append(tuple(range(split.banks)))
            else:
                per_dim.append((index % split.banks if split.cyclic else min(index // split.block,
                                                                                split.banks - 1),))
        return list(product(*per_dim))

    def bank_varies(self, indices: list) -> bool:
        """Whether an access with these affine indices (None: not affine) may touch a different bank from
        one execution to the next; Vitis then reads every bank it may touch and multiplexes the data
        (ELEN226 inner_product solution4: a[i] in a block-partitioned array loads a_0 and a_1 and muxes)."""
        for split, index in zip(self.splits, indices, strict=False):
            if split.banks == 1:
                continue
            if index is None:
                return True
            if split.cyclic and any(coeff % split.banks for coeff in index.terms.values()):
                return True
            if not split.cyclic and not index.is_const:
                return True
        return False

    def banks_reached(self, indices: list) -> list[frozenset[int] | None]:
        """Per dimension, the banks an access with these affine indices (None: not affine) reaches as its loop
        runs, the loop's fixed symbols (outer counters) taken as 0: a cyclic bank moves in steps of
        gcd(banks, the counter's coefficient) from the constant's bank, a block bank may be any once the
        index moves; None where it may reach any bank."""
        reached: list[frozenset[int] | None] = []
        for split, index in zip(self.splits, indices, strict=False):
            if split.banks == 1:
                reached.append(frozenset({0}))
            elif index is None or (not split.cyclic and not index.is_const):
                reached.append(None)
            elif not split.cyclic:
                reached.append(frozenset({min(index.const // split.block, split.banks - 1)}))
            else:
                step = math.gcd(split.banks, index.coeff(ITER))
                reached.append(frozenset((index.const + step * k) % split.banks for k in range(split.banks // step)))
        return reached

    def bank_moves(self, indices: list) -> bool:
        """Whether an access picks a different bank from one iteration of its loop to the next: an index that
        is not affine, a cyclic dimension whose counter coefficient is no multiple of its banks, a block
        dimension whose index moves with the counter."""
        for split, index in zip(self.splits, indices, strict=False):
            if split.banks == 1:
                continue
            if index is None or (index.coeff(ITER) % split.banks if split.cyclic else index.coeff(ITER)):
                return True
        return False

    def area(self) -> dict[str, int]:
        """BRAM_18K, URAM, LUT and FF of the memory itself (m_axi adapters are counted per bundle)."""
        width = bit_width(self.elem)
        words = math.prod(self.shape)
        per_bank = math.ceil(words / self.banks)
        if self.kind in (StorageKind.M_AXI, StorageKind.AP_MEMORY, StorageKind.FIFO):
            # a FIFO's cost: hls.schedule.fifo_timing.fifo_cost
            return {}
        if self.kind is StorageKind.REGS and self.rom_data is not None:
            # a completely partitioned ROM holds constants: no register, a LUT ROM (64 words x 1 bit per
            # LUT6) in front of the multiplexer (level2fast DFT cyclic16: two 256 x 32 ROMs, Memory row 256 LUT)
            return {"lut": lutram_luts(words, width)}
        if self.kind is StorageKind.REGS:
            return {"ff": words * width, "lut": words * width // 4}
        if self.kind is StorageKind.LUTRAM:
            # the read data is registered in fabric, `q0 <= ram[address0]` in Vitis's RAM model: its width in
            # FF per read port (level2fast DFT-256 block16/cyclic16 Memory rows: 32 FF per 16 x 32 bank)
            reads = self.ports[0] if self.ports and self.rom_data is None else 0  # a ROM's: not seen in a report
            return {"lut": self.banks * lutram_luts(per_bank, width), "ff": self.banks * reads * width}
        if self.kind is StorageKind.URAM:
            return {"uram": self.banks * uram_blocks(per_bank, width)}
        return {"bram18k": self.banks * bram18_blocks(per_bank, width)}


def lutram_luts(words: int, width: int) -> int:
    """LUTs of a LUT-RAM of `words` x `width` bits: one 64-deep LUT-RAM per bit per 64 words."""
    return math.ceil(words / 64) * width


def uram_blocks(words: int, width: int) -> int:
    """UltraRAM blocks (4K x 72 each) for `words` x `width` bits."""
    return math.ceil(words / 4096) * math.ceil(width / 72)


def bram18_blocks(words: int, width: int) -> int:
    """RAMB18s for `words` x `width` bits, with the aspect ratio that needs the fewest."""
    return min(math.ceil(words / depth) * math.ceil(width / bits) for depth, bits in BRAM18_SHAPES)


def _directives(func: Function) -> dict[str, dict[int, list[DirectiveOp]]]:
    found: dict[str, dict[int, list[DirectiveOp]]] = {}
    for op in func.walk():
        if isinstance(op, DirectiveOp) and op.target is not None:
            found.setdefault(op.kind, {}).setdefault(id(op.target), []).append(op)
    return found


def _splits(shape: tuple[int, ...], partitions: list[DirectiveOp]) -> list[DimSplit]:
    splits = [DimSplit() for _ in shape]
    for op in partitions:
        o = op.directive
        dims = range(len(shape)) if o.dim == 0 else [o.dim - 1]
        for d in dims:
            if not 0 <= d < len(shape):
                continue
            size = shape[d]
            if o.type == "complete":
                splits[d] = DimSplit(size, True, 1)
            else:
                factor = max(1, min(int(o.factor or 1), size))
                splits[d] = DimSplit(factor, o.type == "cyclic", math.ceil(size / factor))
    return splits


def constant_rows(value: Value) -> bool:
    """Whether every access of a multi-dimensional ROM names its first index with a constant: LLVM's
    GlobalOpt then splits the constant global into one array per row (SRA of global aggregates, run
    before Vitis schedules), so each row is its own ROM with its own ports (labC DFT: 21 twiddle rows)."""
    shape = getattr(value.type, "shape", ())
    if len(shape) < 2 or not value.uses:
        return False
    return all(isinstance(use, (LoadOp, StoreOp)) and use.operands[0] is value
               and isinstance(getattr(use.operands[1], "op", None), ConstantOp) for use in value.uses)


def rom_constant(value: Value) -> ConstantOp | None:
    """A scalar read from a ROM at constant indices, as a constant: LLVM folds a load of a constant global
    at a constant offset (ConstantFolding, before Vitis schedules), so a loop reading such a value from
    outside sees the constant (aahwu labB fft_stage_first: twiddle W[0] = (1.0, -0.0) read before the loop;
    its Bind Op report keeps 4 of the 8 fmul, the ones by 1.0 folded)."""
    op = getattr(value, "op", None)
    if not isinstance(op, LoadOp) or op.field or not isinstance(getattr(op.memref, "op", None), RomOp) \
            or not all(isinstance(getattr(i, "op", None), ConstantOp) for i in op.indices):
        return None
    data = op.memref.op.data
    index = tuple(int(i.op.value) for i in op.indices)
    if len(index) != data.ndim or not all(0 <= k < n for k, n in zip(index, data.shape, strict=True)):
        return None
    t = value.type
    if isinstance(t, FloatType):
        return ConstantOp(float(data[index]), t, op.loc)
    if isinstance(t, IntType) and not isinstance(t, BoolType):
        return ConstantOp(int(data[index]), t, op.loc)
    return None


def local_storage(name: str, t: ArrayType, directives: dict, value: Value, rom: Any = None,
                  func: Function | None = None, pipeline_loops: int = 0) -> Storage:
    """A local array or ROM: RAM_AUTO dual-port BRAM unless bind_storage / array_partition say otherwise,
    or Vitis's automatic partitioning of local arrays does (autopartition.py)."""
    partitions = directives.get("array_partition", {}).get(id(value), [])
    splits = _splits(t.shape, partitions)
    if not partitions and automatically_complete(value, func, pipeline_loops):
        splits = [DimSplit(size, True, 1) for size in t.shape]
    elif not partitions and rom is None and func is not None:
        small = math.prod(t.shape) * bit_width(t.elem) <= LUTRAM_BITS  # R4/R7: one read, one write port
        factor = throughput_cyclic(value, func, pipeline_loops, PORTS["ram_s2p" if small else "auto"])
        if factor:
            splits = [DimSplit(factor, True, math.ceil(t.shape[0] / factor))]
    if rom is not None and splits[0].banks == 1 and constant_rows(value):
        splits[0] = DimSplit(t.shape[0], True, 1)
    bind = directives.get("bind_storage", {}).get(id(value), [])
    options = bind[-1].directive if bind else None
    kind_name = options.type if options else ("rom_2p" if rom is not None else "auto")
    impl = (options.impl if options else None) or "auto"
    kind = StorageKind.ROM if rom is not None else StorageKind.BRAM
    storage = Storage(name, kind, t.elem, t.shape, PORTS.get(kind_name, PORTS["auto"]), splits, rom_data=rom)
    if all(s.banks == size for s, size in zip(splits, t.shape, strict=True)):
        storage.kind, storage.ports, storage.read_latency, storage.write_latency = StorageKind.REGS, None, 0, 1
    elif impl == "uram":
        storage.kind, storage.read_latency = StorageKind.URAM, URAM_READ_LATENCY
    elif impl == "lutram" or (impl == "auto" and math.ceil(math.prod(t.shape) / storage.banks) * bit_width(t.elem)
                              <= LUTRAM_BITS):
        storage.kind = StorageKind.LUTRAM
        if kind_name == "auto":
            storage.ports = PORTS["ram_s2p"]
    if options and options.latency:
        storage.read_latency = int(options.latency)
    return storage


def fifo_storage(name: str, t: StreamType) -> Storage:
    """A FIFO as the schedulers see it: one read and one write port, one access of a process per
    cycle (a process only reads or only writes it); a read takes a cycle, as Vitis's FIFO read state."""
    return Storage(name, StorageKind.FIFO, t.elem, (t.depth,), (1, 1, 1), read_latency=1, write_latency=1)


def argument_storage(arg: Value, bundle_index: int, directives: dict, maxi_latency: int, flow: str = "vitis"
                     ) -> Storage:
    """A top-level array argument: the flow's default (m_axi with its own bundle, or ap_memory) unless an
    interface directive chose; an external RAM port has the ports of its storage_type."""
    t: ArrayType = arg.type  # type: ignore[assignment]
    chosen = directives.get("interface", {}).get(id(arg), [])
    options = chosen[-1].directive if chosen else default_interface(flow, True, bundle_index, t.size)
    mode = options.mode
    if mode == "m_axi":
        latency = int(options.latency or maxi_latency)
        return Storage(arg.name or "arg", StorageKind.M_AXI, t.elem, t.shape, PORTS["m_axi"], read_latency=latency,
                       write_latency=latency, bundle=options.bundle or "gmem")
    splits = _splits(t.shape, directives.get("array_partition", {}).get(id(arg), []))
    # without storage_type an ap_memory port has two read/write ports (RAM_T2P-like): ELEN226 Vitis 2022.1
    # verbose schedule reports, loop_perfect solution2 (two stores to B in one state, core `Ports = 2`) and
    # inner_product solution4 (two loads of one bank per state), docs/oplib.md
    storage_type = options.storage_type or "ram_t2p"
    ports = PORTS["fifo"] if mode in ("ap_fifo", "axis") else PORTS.get(storage_type, PORTS["ram_2p"])
    return Storage(arg.name or "arg", StorageKind.AP_MEMORY, t.elem, t.shape, ports, splits)


def function_storages(func: Function, is_top: bool, maxi_latency: int = MAXI_LATENCY,
                      args: dict[Value, Storage] | None = None, flow: str = "vitis",
                      pipeline_loops: int = 0) -> dict[Value, Storage]:
    """Storage of every array in `func`: arguments (given by the caller unless top) and local arrays
    (`pipeline_loops`: config_compile -pipeline_loops, 0 = off, for the automatic partitioning of autopartition.py)."""
    directives = _directives(func)
    storages: dict[Value, Storage] = {}
    bundle = 0
    for arg in func.args:
        if not isinstance(arg.type, ArrayType):
            continue
        if args is not None and arg in args:
            storages[arg] = args[arg]
        elif is_top:
            chosen = id(arg) in directives.get("interface", {})
            storages[arg] = argument_storage(arg, bundle, directives, maxi_latency, flow)
            bundle += 0 if chosen else 1
        else:
            storages[arg] = local_storage(arg.name or "arg", arg.type, directives, arg)
    for arg in func.args:
        if isinstance(arg.type, StreamType):
            given = args.get(arg) if args is not None else None
            storages[arg] = given if given is not None else fifo_storage(arg.name or "stream", arg.type)
    for op in func.walk():
        if isinstance(op, StreamOp):
            storages[op.result] = fifo_storage(op.result.name or "stream", op.result.type)
        elif isinstance(op, AllocOp):
            storages[op.result] = local_storage(op.result.name or "buf", op.result.type, directives, op.result,
                                                func=func, pipeline_loops=pipeline_loops)
        elif isinstance(op, RomOp):
            storages[op.result] = local_storage(op.result.name or "rom", op.result.type, directives, op.result,
                                                rom=op.data)
        elif isinstance(op, BlockLockOp):  # the block a lock holds: an on-chip memory, as a ping-pong bank
            storages[op.result] = local_storage(op.result.name or "block", op.result.type, directives, op.result)
    return storages
