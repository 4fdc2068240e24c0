"""Vitis's automatic array partitioning of local arrays (config_array_partition, UG1399 2023.1 to 2026.1).

Three rules, all on local arrays only (a global, which a ROM is in the C++, is excluded) and only where the
user gave the array no array_partition directive:
- `-complete_threshold 4`: an array of fewer than 4 elements is completely partitioned (memory.local_storage);
- `-throughput_driven auto` (the default): an array the pipelined region reads and writes more often per
  iteration than its two ports allow is partitioned to remove the bottleneck. Modelled here for the case the
  choice is unambiguous: every access of the array sits in a pipelined region (a pipelined function, or a
  loop with a pipeline directive) and indexes it with constants once the region's inner loops are unrolled,
  so that complete partitioning gives each access its own register (`constant_after_unroll`); a loop
  automatic pipelining pipelines (an innermost loop, or a parent its short inner loops unroll into, rule L1
  in `pipeline_mode`) counts as a pipelined region when it is on;
- the same option, partially (M3, `throughput_cyclic`): a 1-D array a pipelined loop accesses past its ports
  at its counter plus constants is split cyclically into as many banks as the constants span (ShantonuM/
  wes237c_fa2026 2024.2, fir128 q5_c: `shift_reg[i]`, `[i - 1]`, `[i - 2]` -> 3 banks of 43 words).
"""

from __future__ import annotations

import math

from hls.ir import (
    LOOPS,
    AllocOp,
    BinaryOp,
    CastOp,
    ConstantOp,
    ForOp,
    Function,
    LoadOp,
    StoreOp,
    Value,
    WhileOp,
    has_exit,
)
from hls.ir.affine import trip_range
from hls.schedule.whiles import while_trip

COMPLETE_THRESHOLD = 4  # config_array_partition -complete_threshold default (UG1399)
RAM_PORTS = 2  # RAM_AUTO: two ports, so a bottleneck needs more than two accesses per iteration


def pipeline_mode(loop: ForOp | WhileOp, trip_max: int | None, pipeline_loops: int) -> str | None:
    """"yes" (a pipeline directive), "auto" (Vitis's automatic loop pipelining, rule L1 of docs/oplib.md)
    or None (sequential), for a loop no pipelined ancestor unrolls; written once here, for the scheduler
    (design.Design) and for the automatic partitioning below, which must see the same pipelined regions.

    Automatic pipelining (UG1399 "Automatic Loop Pipelining", config_compile -pipeline_loops) runs after
    the user's directives, on the loops they leave. Every innermost loop without a directive is
    pipelined, whatever its trip count, known or not (fir11: 11 trips, fir128 unroll 2: 64 trips, both
    II 1). Moving up the nest, a loop whose inner loops unroll into at most `pipeline_loops` copies is
    pipelined instead, the inner loops unrolled (ELEN226 loop_imperfect: 20 inner iterations, threshold 64)."""
    options = loop.pipeline
    if options is not None:
        return None if options.off else "yes"
    if pipeline_loops <= 0:
        return None
    inner = [op for region in loop.regions for body_op in region.block.ops for op in body_op.walk()
             if isinstance(op, LOOPS)]
    if not inner:
        return "auto"
    if trip_max is None or any(lp.pipeline is not None or lp.unroll for lp in inner):
        return None
    unrolled = unrolled_iterations(loop)
    return "auto" if unrolled is not None and unrolled <= pipeline_loops else None


def unrolled_iterations(loop: ForOp) -> int | None:
    """Copies of inner-loop bodies one iteration of `loop` holds once its inner loops are unrolled
    (None when a bound is not constant)."""
    total = 0
    for op in loop.body.ops:
        if isinstance(op, LOOPS) and (not isinstance(op, ForOp) or has_exit(op)):
            return None  # a while loop or an early exit: its iteration count is the data's
        if isinstance(op, ForOp):
            trip, inner = op.trip_count(), unrolled_iterations(op)
            if trip is None or inner is None:
                return None
            total += trip * max(inner, 1)
        elif any(isinstance(o, LOOPS) for o in op.walk()):
            nested = [unrolled_iterations(o) if isinstance(o, ForOp) else None for o in op.walk()
                      if isinstance(o, LOOPS)]
            if None in nested:
                return None
            total += sum(nested)
    return total



def _pipelined_region(op, func: Function, pipeline_loops: int) -> tuple[ForOp | WhileOp | Function, list[ForOp]] | None:
    """The pipelined region an access sits in (a pipelined function, or the outermost enclosing loop that
    pipeline_mode pipelines: the scheduler walks a nest outermost first) and the loops between the access
    and it, which Vitis unrolls inside it; None when the access is in no pipelined region or a while loop
    (never unrolled) lies in between."""
    chain: list[ForOp | WhileOp] = []
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, LOOPS):
            chain.append(parent)
        parent = parent.parent_op()
    if func.pipeline is not None and not func.pipeline.off:  # every loop inside is unrolled
        region: ForOp | WhileOp | Function = func
        inside = chain
    else:
        for k in range(len(chain) - 1, -1, -1):
            loop = chain[k]
            if pipeline_mode(loop, _known_trip(loop), pipeline_loops) is not None:
                region, inside = loop, chain[:k]
                break
        else:
            return None
    if any(isinstance(lp, WhileOp) for lp in inside):
        return None
    return region, inside


def _const(value: Value) -> int | None:
    op = getattr(value, "op", None)
    return int(op.value) if isinstance(op, ConstantOp) and isinstance(op.value, (bool, int)) else None


def _trip(loop: ForOp) -> int | None:
    lb, ub, step = _const(loop.lb), _const(loop.ub), _const(loop.step)
    if lb is None or ub is None or not step:
        return None
    return trip_range((lb, lb), (ub, ub), step)[1]


def _known_trip(loop: ForOp | WhileOp) -> int | None:
    """The largest trip count known without the scheduler's value ranges: constant bounds, else the
    loop_tripcount directive, else a counter the while condition bounds (hls.schedule.whiles)."""
    if loop.tripcount:
        return loop.tripcount.max
    return _trip(loop) if isinstance(loop, ForOp) else while_trip(loop, {})[1]


def _static(value: Value, counters: set[int]) -> bool:
    """Whether `value` is a constant once the loops whose counters are given are unrolled."""
    if id(value) in counters or _const(value) is not None:
        return True
    op = getattr(value, "op", None)
    return isinstance(op, (BinaryOp, CastOp)) and all(_static(v, counters) for v in op.operands)


def constant_after_unroll(value: Value, func: Function, pipeline_loops: int = 0) -> bool:
    """Whether throughput-driven partitioning makes `value` registers: every access is in a pipelined
    region at indices that unrolling makes constant, and the region makes more accesses than two ports."""
    accesses = 0
    for use in value.uses:
        if not isinstance(use, (LoadOp, StoreOp)) or use.memref is not value:
            return False
        found = _pipelined_region(use, func, pipeline_loops)
        if found is None:
            return False
        loops = found[1]
        trips = [_trip(loop) for loop in loops]
        if any(t is None for t in trips):
            return False
        if not all(_static(i, {id(loop.iv) for loop in loops}) for i in use.indices):
            return False
        accesses += math.prod(trips)
    return accesses > RAM_PORTS and accesses >= math.prod(value.type.shape)



def automatically_complete(value: Value, func: Function | None, pipeline_loops: int) -> bool:
    """Whether Vitis partitions the local array `value` (given no array_partition) completely on its own:
    fewer elements than -complete_threshold, or every access at constants in a pipelined region."""
    if not isinstance(getattr(value, "op", None), AllocOp):
        return False
    if math.prod(value.type.shape) < COMPLETE_THRESHOLD:
        return True
    return func is not None and constant_after_unroll(value, func, pipeline_loops)


def _pipelined_parent(op, func: Function, pipeline_loops: int) -> ForOp | None:
    """The loop an access sits in directly (through ifs only), when that loop is a pipelined region."""
    found = _pipelined_region(op, func, pipeline_loops)
    return found[0] if found is not None and not found[1] and isinstance(found[0], ForOp) else None


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


def throughput_cyclic(value: Value, func: Function, pipeline_loops: int, ports: tuple[int, int, int]) -> int | None:
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
        loop = _pipelined_parent(use, func, pipeline_loops)
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
