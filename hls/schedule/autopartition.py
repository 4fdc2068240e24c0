"""Vitis's automatic array partitioning of local arrays (config_array_partition, UG1399 2023.1 to 2026.1).

Three rules, all on local arrays only (a global, which a ROM is in the C++, is excluded) and only where the
user gave the array no array_partition directive:
- `-complete_threshold 4`: an array of fewer than 4 elements is completely partitioned (memory.local_storage);
- `-throughput_driven auto` (the default): an array the pipelined region reads and writes more often per
  iteration than its two ports allow is partitioned to remove the bottleneck. Modelled here for the case the
  choice is unambiguous: every access of the array sits in a pipelined region (a pipelined function, or a
  loop with a pipeline directive) and indexes it with constants once the region's inner loops are unrolled,
  so that complete partitioning gives each access its own register (`constant_after_unroll`); an innermost
  loop automatic pipelining pipelines counts as a pipelined region when it is on;
- the same option, partially (M3, `throughput_cyclic`): a 1-D array a pipelined loop accesses past its ports
  at its counter plus constants is split cyclically into as many banks as the constants span (ShantonuM/
  wes237c_fa2026 2024.2, fir128 q5_c: `shift_reg[i]`, `[i - 1]`, `[i - 2]` -> 3 banks of 43 words).
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


def _pipelined_parent(op, auto_pipeline: bool) -> ForOp | None:
    """The loop an access sits in directly (through ifs only), when that loop is pipelined: a pipeline
    directive, or an innermost loop automatic pipelining pipelines (L1)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, (ForOp, WhileOp, Function)):
        parent = parent.parent_op()
    if not isinstance(parent, ForOp):
        return None
    outer = parent.parent_op()
    while outer is not None:  # inside a pipelined loop or function the loop is unrolled: no loop of its own
        if isinstance(outer, (ForOp, WhileOp, Function)) and outer.pipeline is not None and not outer.pipeline.off:
            return None
        outer = outer.parent_op()
    explicit = parent.pipeline is not None and not parent.pipeline.off
    return parent if explicit or auto_pipeline and _auto_pipelined(parent) else None


def _counter_offset(value: Value, iv: Value) -> tuple[int, int] | None:
    """`value` as coeff * iv + offset (adds, subtracts and casts of the counter and constants), or None."""
    if value is iv:
        return 1, 0
    const = _const(value)
    if const is not None:
        return 0, const
    op = getattr(value, "op", None)
    if isinstance(op, CastOp):
        return _counter_offset(op.operands[0], iv)
    if isinstance(op, BinaryOp) and op.kind.name in ("ADD", "SUB"):
        lhs, rhs = _counter_offset(op.operands[0], iv), _counter_offset(op.operands[1], iv)
        if lhs is None or rhs is None:
            return None
        sign = 1 if op.kind.name == "ADD" else -1
        return lhs[0] + sign * rhs[0], lhs[1] + sign * rhs[1]
    return None


def throughput_cyclic(value: Value, auto_pipeline: bool, ports: tuple[int, int, int]) -> int | None:
    """M3 (docs/oplib.md 9): the cyclic factor `-throughput_driven auto` gives a 1-D local array that a
    pipelined loop reads or writes more often per iteration than its ports allow, every access at the
    loop's counter plus a constant (a load of an element the iteration stored before is forwarded, no
    access): as many banks as the offsets span, so each access of an iteration has its own bank (wes237c
    fir128 q5_c: `shift_reg[i]`, `[i - 1]`, `[i - 2]` -> 3 banks of 43 words). None when no loop needs it."""
    if not isinstance(getattr(value, "op", None), AllocOp) or len(value.type.shape) != 1:
        return None
    per_loop: dict[int, tuple[ForOp, list]] = {}
    for use in value.uses:
        if not isinstance(use, (LoadOp, StoreOp)) or use.memref is not value:
            return None
        loop = _pipelined_parent(use, auto_pipeline)
        if loop is not None:
            per_loop.setdefault(id(loop), (loop, []))[1].append(use)
    factor = None
    for loop, uses in per_loop.values():
        order = {id(op): k for k, op in enumerate(loop.walk())}
        reads = writes = 0
        offsets: set[tuple[int, int]] = set()
        stored: set[tuple[int, int]] = set()
        for use in sorted(uses, key=lambda op: order.get(id(op), 0)):
            at = _counter_offset(use.indices[0], loop.iv)
            if at is None or at[0] == 0:
                break
            if isinstance(use, StoreOp):
                stored.add(at)
                writes += 1
            elif at in stored:  # LLVM store-to-load forwarding: the stored value, no read
                continue
            else:
                reads += 1
            offsets.add(at)
        else:
            if len({a for a, _ in offsets}) != 1 or not (
                    reads > ports[0] or writes > ports[1] or reads + writes > ports[2]):
                continue
            span = max(c for _, c in offsets) - min(c for _, c in offsets) + 1
            if span >= 2:
                factor = max(factor or 0, min(span, value.type.shape[0]))
    return factor
