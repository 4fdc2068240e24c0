"""The schedule branch (`--branches ...,schedule`): a random legal hls.customize schedule applied to a
generated kernel, then golden of the original vs csim of the scheduled kernel.

The schedule is drawn from the kernel's own IR (its loops and local arrays, hls/customize/names.py)
and seeded by the kernel's seed, so a failure reproduces. Each primitive is tried at its call: the
ones the schedule refuses with its clean errors (an illegal reorder or fusion, a factor that does
not divide, an option a loop cannot take) are skipped; any other exception (an IR verify error, a
crash) propagates and is the verdict.
"""

from __future__ import annotations

import random
from typing import Any

import hls
from hls.customize.directives import check_partitioned_calls
from hls.customize.names import ScheduleNameError, loop_refs, storage_values
from hls.customize.records import ScheduleError
from hls.errors import HLSTypeError, UnsupportedError
from hls.ir import AllocOp, ForOp
from hls.passes.dependence import DependenceError
from hls.passes.loopnest import TransformError
from hls.types import ArrayType

REFUSALS = (ScheduleError, ScheduleNameError, TransformError, DependenceError, HLSTypeError, UnsupportedError)
STEPS = 6


def _try(schedule: hls.Schedule, primitive: str, *args: Any, **kwargs: Any) -> bool:
    try:
        getattr(schedule, primitive)(*args, **kwargs)
    except REFUSALS:
        return False
    return True


def _loops(schedule: hls.Schedule) -> list[Any]:
    module = schedule._working()
    return [ref for func in module.functions.values() for ref in loop_refs(func)]


def _step(schedule: hls.Schedule, rng: random.Random) -> str | None:
    """One random primitive on a random loop or array of the current IR; its text when it applied."""
    refs = _loops(schedule)
    if not refs:
        return None
    ref = rng.choice(refs)
    name = ref.path
    trip = ref.op.trip_count() if isinstance(ref.op, ForOp) else None
    kind = rng.choice(["split", "split", "reorder", "fuse", "pipeline", "unroll", "flatten", "partition", "tile",
                       "function"])
    if kind == "split" and trip is not None:  # a zero-trip loop splits by 1
        return _done(_try(schedule, "split", name, rng.randint(1, max(1, min(trip, 6))), tail=True), kind, name)
    if kind == "function":  # a dataflow region (the frontend's region checks refuse most) or an inline
        funcs = list(schedule._working().functions)
        func = rng.choice(funcs)
        if rng.random() < 0.5 or func == funcs[-1]:
            return _done(_try(schedule, "dataflow", func), "dataflow", func)
        return _done(_try(schedule, "inline", func, off=rng.random() < 0.3), "inline", func)
    if kind in ("reorder", "tile"):  # the first nest, from this loop on, that takes it
        for outer in refs[refs.index(ref):]:
            inner = [r for r in refs if r.ancestors and r.ancestors[-1] is outer.op and r.op.parent is outer.op.body]
            trips = (outer.op.trip_count() if isinstance(outer.op, ForOp) else None,
                     inner[0].op.trip_count() if inner and isinstance(inner[0].op, ForOp) else None)
            if kind == "reorder" and inner and _try(schedule, "reorder", inner[0].path, outer.path):
                return _done(True, kind, outer.path)
            if kind == "tile" and inner and all(trips) and _try(
                    schedule, "tile", [outer.path, inner[0].path], [_divisor(t, rng) for t in trips]):
                return _done(True, kind, outer.path)
        return None
    if kind == "fuse":  # the first pair of loops after this one in one block that fuses
        for first in refs[refs.index(ref):]:
            block = first.op.parent
            after = [r for r in refs if r.op.parent is block and block.ops.index(r.op) > block.ops.index(first.op)]
            for later in after:
                if _try(schedule, "fuse", first.path, later.path):
                    return _done(True, kind, first.path)
        return None
    if kind == "pipeline":
        return _done(_try(schedule, "pipeline", name, ii=rng.choice([None, 1, 2])), kind, name)
    if kind == "unroll" and trip:
        return _done(_try(schedule, "unroll", name, factor=rng.choice([None, 2, 3]) if trip <= 8 else 2), kind, name)
    if kind == "flatten":
        return _done(_try(schedule, "loop_flatten", name, off=rng.random() < 0.5), kind, name)
    if kind == "partition":
        return _partition(schedule, rng)
    return None


def _divisor(n: int, rng: random.Random) -> int:
    return rng.choice([d for d in range(1, min(n, 8) + 1) if n % d == 0])


def _done(applied: bool, kind: str, name: str) -> str | None:
    return f"{kind} {name}" if applied else None


def _partition(schedule: hls.Schedule, rng: random.Random) -> str | None:
    """A local array (a partition of an m_axi argument is Vitis's error, not the schedule's) split up."""
    module = schedule._working()
    local = [(f.name, n, v) for f in module.functions.values() for n, v in storage_values(f)
             if isinstance(getattr(v, "op", None), AllocOp) and isinstance(v.type, ArrayType)]
    if not local:
        return None
    func, name, value = rng.choice(local)
    kind = rng.choice(["complete", "cyclic", "block"])
    factor = None if kind == "complete" else rng.randint(2, 4)
    target = f"{func}/{name}"
    applied = _try(schedule, "partition", target, kind, factor=factor, dim=rng.randint(1, len(value.type.shape)))
    if applied:
        try:  # build() refuses a sub-kernel whose two call sites now pass differently partitioned arrays
            check_partitioned_calls(schedule._working())
        except ScheduleError:
            schedule.records.pop()
            schedule._module = None
            applied = False
    return _done(applied, "partition", target)


def random_schedule(kernel: Any, seed: int, steps: int = STEPS) -> hls.Schedule:
    """A random legal schedule of up to `steps` primitives for `kernel` (deterministic in `seed`)."""
    rng = random.Random(seed * 7919 + 17)
    schedule = hls.customize(kernel)
    for _ in range(steps):
        _step(schedule, rng)
    return schedule


def check_scheduled(kernel: Any, seed: int, rtol: float, atol: float) -> dict[str, str]:
    """Golden of `kernel` vs csim of a random legal schedule of it, on verify()'s input sets."""
    from tests.fuzz.worker import classify, verdict

    try:
        schedule = random_schedule(kernel, seed)
        scheduled = schedule.build()
        scheduled.compile()
    except Exception as exc:  # noqa: BLE001 - the original compiled: any failure here is the schedule's bug
        return verdict("crash", f"schedule:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
    try:
        scheduled.verify(seed=seed, rtol=rtol, atol=atol)
    except Exception as exc:  # noqa: BLE001
        found = classify(exc, "verify")
        found["message"] = f"{schedule!r}\n{found['message']}"
        if found["status"] == "mismatch":
            found["kind"] = "schedule:" + found["kind"]
        return found
    return verdict("pass")


# ---- kernels made for the loop transformations ----------------------------------------------------

NEST_EVERY = 3  # with the schedule branch, one classic seed in NEST_EVERY is a loop-nest kernel instead


def _index(rng: random.Random, var: str) -> str:
    shift = rng.choice([-1, 0, 0, 1])
    return var if shift == 0 else f"{var} {'+' if shift > 0 else '-'} {abs(shift)}"


def nest_unit(seed: int) -> Any:
    """Perfect 2-deep nests and sibling loops of equal bounds over two 8x8 arrays, with stencil-like
    accesses (offsets -1..1, so some interchanges and fusions are legal and some are not): the kernels
    the generator rarely writes, where reorder, tile and fuse apply."""
    from tests.fuzz.generator import Unit

    rng = random.Random(seed)
    name = f"n_{seed}"
    lines = ["@hls.kernel", f"def {name}(A: hls.int32[8, 8], B: hls.int32[8, 8], v: hls.int32[8]):"]
    bounds = "range(1, 7)" if rng.random() < 0.6 else \
        rng.choice(["range(6, 0, -1)", "range(1, 7, 2)", "range(4, 4)", "range(3, 4)"])  # edge trip counts
    for _ in range(rng.randint(1, 3)):
        dst, src = rng.sample(["A", "B"], 2) if rng.random() < 0.5 else (rng.choice("AB"),) * 2
        if rng.random() < 0.6:
            lines += [f"    for i in {bounds}:", f"        for j in {rng.choice([bounds, 'range(1, 7)'])}:",
                      f"            {dst}[{_index(rng, 'i')}, {_index(rng, 'j')}] = "
                      f"{src}[{_index(rng, 'i')}, {_index(rng, 'j')}] * {rng.randint(-3, 3)} + j - i"]
        else:
            lines += [f"    for i in {bounds}:", f"        v[{_index(rng, 'i')}] = {dst}[i, {rng.randint(0, 7)}] + "
                      f"v[{_index(rng, 'i')}]"]
    return Unit(seed, name, "\n".join(lines) + "\n",
                [("A", "hls.int32[8, 8]"), ("B", "hls.int32[8, 8]"), ("v", "hls.int32[8]")], None, False,
                schedule=True)
