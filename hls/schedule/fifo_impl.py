"""What a FIFO is built from and what it costs: shift register, LUTRAM, BRAM or URAM (an estimate).

Re-exported by hls/schedule/fifo_timing.py, next to the timed simulation that sizes the FIFOs.
"""

from __future__ import annotations

import math

from hls.errors import HLSError
from hls.report.report import Resources
from hls.schedule.memory import bram18_blocks, lutram_luts, uram_blocks
from hls.schedule.parts import FAMILIES

# UG1399 config_storage / syn.storage: FIFOs are SRLs while depth x width <= auto_srl_max_bits, default
# 1024 (also LightningSim's rule; Vitis names such FIFOs *_fifo_w32_d25_S, larger ones *_A, memory).
SRL_MAX_BITS = 1024
SRL_WORDS = 32  # one SRLC32E LUT shifts 32 words of one bit (6-input-LUT fabrics: 7-series to Versal)
# Estimate: a memory FIFO no deeper than one LUT-RAM (64 words) goes to LUTRAM, deeper ones to BRAM.
LUTRAM_MAX_DEPTH = 64
IMPLS = ("auto", "srl", "lutram", "bram", "uram", "memory")  # pragma HLS bind_storage type=fifo impl=...
URAM_FAMILIES = ("ultrascale+", "zynq-ultrascale+", "versal")


def fifo_cost(width: int, depth: int, family: str, impl: str = "auto") -> tuple[str, Resources]:
    """How a FIFO is built ("SRL", "LUTRAM", "BRAM" or "URAM") and its resources (an estimate: data
    storage from the primitive sizes; control as its address counters and the empty/full flags; a
    LUTRAM FIFO also registers its output). `impl` as in bind_storage; "memory" = LUTRAM or BRAM."""
    if width < 1 or depth < 1:
        raise HLSError(f"FIFO width and depth must be at least 1 (got {width}, {depth})")
    if impl not in IMPLS:
        raise HLSError(f"FIFO impl {impl!r}: expected one of {', '.join(IMPLS)}")
    if family not in FAMILIES:
        raise HLSError(f"unknown FPGA family {family!r}: expected one of {', '.join(FAMILIES)}")
    if impl == "uram" and family not in URAM_FAMILIES:
        raise HLSError(f"impl=uram: {family} parts have no UltraRAM (only {', '.join(URAM_FAMILIES)})")
    counter = math.ceil(math.log2(depth + 1))
    if impl == "srl" or (impl == "auto" and depth * width <= SRL_MAX_BITS):
        return "SRL", Resources(lut=width * math.ceil(depth / SRL_WORDS) + counter + 2, ff=counter + 2)
    control = Resources(lut=2 * counter + 4, ff=2 * counter + 2)
    if impl == "uram":
        return "URAM", control + Resources(uram=uram_blocks(depth, width))
    if impl == "lutram" or (impl in ("auto", "memory") and depth <= LUTRAM_MAX_DEPTH):
        return "LUTRAM", control + Resources(lut=lutram_luts(depth, width), ff=width)
    return "BRAM", control + Resources(bram18k=bram18_blocks(depth, width))
