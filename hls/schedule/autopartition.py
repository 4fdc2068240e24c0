"""Vitis's automatic array partitioning of local arrays (config_array_partition, UG1399 2023.1 to 2026.1).

Two rules, both on local arrays only (a global, which a ROM is in the C++, is excluded) and only where the
user gave the array no array_partition directive:
- `-complete_threshold 4`: an array of fewer than 4 elements is completely partitioned (memory.local_storage);
- `-throughput_driven auto` (the default): an array the pipelined region reads and writes more often per
  iteration than its two ports allow is partitioned to remove the bottleneck. Modelled here for the case the
  choice is unambiguous: every access of the array sits in a pipelined region (a pipelined function, or a
  loop with a pipeline directive) and indexes it with constants once the region's inner loops are unrolled,
  so that complete partitioning gives each access its own register (`constant_after_unroll`); an innermost
  loop automatic pipelining pipelines counts as a pipelined region when it is on. An array
  indexed by the pipelined loop's own counter is left alone: the reports of ShantonuM/wes237c_fa2026
  (2024.2, fir128 q5_c) show a cyclic split into 3 banks of a 128-word shift register there, which the model
  does not derive (docs/oplib.md section 9, known misses).
"""

from __future__ import annotations

import math

from hls.ir import AllocOp, BinaryOp, CastOp, ConstantOp, ForOp, Function, LoadOp, StoreOp, Value, WhileOp
from hls.ir.affine import trip_range

COMPLETE_THRESHOLD = 4  # config_array_partition -complete_threshold default (UG1399)
RAM_PORTS = 2  # RAM_AUTO: two ports, so a bottleneck needs more than two accesses per iteration


def _auto_pipelined(loop: ForOp | WhileOp) -> bool:
    """An innermost loop without a pipeline directive, which automatic pipelining pipelines (docs/oplib.md L1)."""
    return loop.pipeline is None and not any(isinstance(op, (ForOp, WhileOp)) for op in loop.walk() if op is not loop)


def _region_loops(op, func: Function, auto_pipeline: bool) -> list[ForOp] | None:
    """The loops between an access and its pipelined region (the ones Vitis unrolls inside it), or None
    when the access is in no pipelined region."""
    loops: list[ForOp] = []
    parent = op.parent_op()
    pipelined = func.pipeline is not None and not func.pipeline.off  # every loop inside is unrolled
    while parent is not None:
        if not pipelined and isinstance(parent, (ForOp, WhileOp)) and (
                parent.pipeline is not None and not parent.pipeline.off
                or not loops and auto_pipeline and _auto_pipelined(parent)):
            return loops
        if isinstance(parent, WhileOp):  # a while loop is never unrolled
            return None
        if isinstance(parent, ForOp):
            loops.append(parent)
        parent = parent.parent_op()
    return loops if pipelined else None


def _const(value: Value) -> int | None:
    op = getattr(value, "op", None)
    return int(op.value) if isinstance(op, ConstantOp) and isinstance(op.value, (bool, int)) else None


def _trip(loop: ForOp) -> int | None:
    lb, ub, step = _const(loop.lb), _const(loop.ub), _const(loop.step)
    if lb is None or ub is None or not step:
        return None
    return trip_range((lb, lb), (ub, ub), step)[1]


def _static(value: Value, counters: set[int]) -> bool:
    """Whether `value` is a constant once the loops whose counters are given are unrolled."""
    if id(value) in counters or _const(value) is not None:
        return True
    op = getattr(value, "op", None)
    return isinstance(op, (BinaryOp, CastOp)) and all(_static(v, counters) for v in op.operands)


def constant_after_unroll(value: Value, func: Function, auto_pipeline: bool = False) -> bool:
    """Whether throughput-driven partitioning makes `value` registers: every access is in a pipelined
    region at indices that unrolling makes constant, and the region makes more accesses than two ports."""
    accesses = 0
    for use in value.uses:
        if not isinstance(use, (LoadOp, StoreOp)) or use.memref is not value:
            return False
        loops = _region_loops(use, func, auto_pipeline)
        if loops is None:
            return False
        trips = [_trip(loop) for loop in loops]
        if any(t is None for t in trips):
            return False
        if not all(_static(i, {id(loop.iv) for loop in loops}) for i in use.indices):
            return False
        accesses += math.prod(trips)
    return accesses > RAM_PORTS and accesses >= math.prod(value.type.shape)



def automatically_complete(value: Value, func: Function | None, auto_pipeline: bool) -> bool:
    """Whether Vitis partitions the local array `value` (given no array_partition) completely on its own:
    fewer elements than -complete_threshold, or every access at constants in a pipelined region."""
    if not isinstance(getattr(value, "op", None), AllocOp):
        return False
    if math.prod(value.type.shape) < COMPLETE_THRESHOLD:
        return True
    return func is not None and constant_after_unroll(value, func, auto_pipeline)
