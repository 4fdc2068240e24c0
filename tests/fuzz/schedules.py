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
from hls.customize.names import ScheduleNameError, loop_refs, storage_values
from hls.customize.records import ScheduleError
from hls.errors import HLSTypeError
from hls.ir import AllocOp, ForOp
from hls.passes.dependence import DependenceError
from hls.passes.loopnest import TransformError
from hls.types import ArrayType

REFUSALS = (ScheduleError, ScheduleNameError, TransformError, DependenceError, HLSTypeError)
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
    kind = rng.choice(["split", "split", "reorder", "fuse", "pipeline", "unroll", "flatten", "partition", "tile"])
    if kind == "split" and trip:
        return _done(_try(schedule, "split", name, rng.randint(1, max(1, min(trip, 6))), tail=True), kind, name)
    if kind == "reorder":
        inner = [r for r in refs if r.ancestors and r.ancestors[-1] is ref.op]
        if inner:
            return _done(_try(schedule, "reorder", inner[0].path, name), kind, name)
    if kind == "tile":
        inner = [r for r in refs if r.ancestors and r.ancestors[-1] is ref.op]
        if inner and trip and inner[0].op.trip_count():
            factors = [_divisor(trip, rng), _divisor(inner[0].op.trip_count(), rng)]
            return _done(_try(schedule, "tile", [name, inner[0].path], factors), kind, name)
    if kind == "fuse":
        block = ref.op.parent
        later = [r for r in refs if r.op.parent is block and block.ops.index(r.op) > block.ops.index(ref.op)]
        if later:
            return _done(_try(schedule, "fuse", name, later[0].path), kind, name)
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
    return _done(_try(schedule, "partition", target, kind, factor=factor, dim=rng.randint(1, len(value.type.shape))),
                 "partition", target)


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
