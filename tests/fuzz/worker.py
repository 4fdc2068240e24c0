"""Runs generated kernels in a process of its own and writes a JSON verdict per kernel.

Why a separate process: csim loads the generated C++ into the interpreter, so a kernel that
crashes (a segfault, an assertion in the ap_types headers) would take the whole campaign with it.
The campaign starts `python -m tests.fuzz.worker JOB.json RESULT.json`; a worker that dies or hangs
is itself the verdict ("crash").

Job (JSON): {"dir": folder for module files, "name": file stem, "units": [unit dicts], "batch": bool,
"rtol", "atol"} or, for a shrink candidate, {"dir", "name", "text": whole module, "kernel", "seed",
"rtol", "atol"}. Result: {"members": {seed: verdict}, "batch": verdict or null}, where a verdict is
{"status": "pass" | "mismatch" | "crash" | "rejected" | "untested", "kind": short signature,
"message": text}.
A job or unit with "oracle" set is a no-overflow kernel, checked three ways (tests/fuzz/oracle.py).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from hls.errors import (
    CompileError,
    DeadlockError,
    HLSError,
    HLSTypeError,
    SimulationError,
    UnsupportedError,
    VerificationError,
)
from hls.golden.jitrun import available
from hls.schedule.dataflow import traces
from hls.schedule.fifo_timing import simulate
from hls.types import ArrayType, TupleType
from tests.fuzz.generator import Unit, batch_top, module_text
from tests.fuzz.oracle import check_oracle
from tests.fuzz.schedules import check_scheduled
from tests.golden_diff import disagreement

MAX_MESSAGE = 4000


def verdict(status: str, kind: str = "", message: str = "") -> dict[str, str]:
    return {"status": status, "kind": kind, "message": message[:MAX_MESSAGE]}


def classify(exc: BaseException, stage: str) -> dict[str, str]:
    """The verdict for an exception raised at `stage` ("compile", "golden" or "verify").

    Frontend rejections (UnsupportedError, HLSTypeError) are "rejected": the generator produced
    something outside the language, or the frontend refuses a valid program. An internal compiler
    error is reported through UnsupportedError but is a crash. A mismatch is a VerificationError;
    everything else (C++ that does not compile, a csim fault, Python mode raising on a kernel the
    frontend accepted, any non-HLSError) is a crash.
    """
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, VerificationError):
        return verdict("mismatch", "VerificationError", text)
    if isinstance(exc, (UnsupportedError, HLSTypeError)) and "internal compiler error" not in str(exc):
        return verdict("rejected", f"{stage}:{type(exc).__name__}", text)
    if stage == "compile" and isinstance(exc, HLSError) and not isinstance(exc, CompileError) and exc.loc is not None \
            and "internal compiler error" not in str(exc):
        return verdict("rejected", f"{stage}:{type(exc).__name__}", text)  # a clean error at the kernel's line
    if isinstance(exc, (CompileError, SimulationError)) or not isinstance(exc, HLSError):
        detail = "" if isinstance(exc, HLSError) else "\n" + "".join(traceback.format_exception(exc))[-2000:]
        return verdict("crash", f"{stage}:{type(exc).__name__}", text + detail)
    return verdict("crash", f"{stage}:{type(exc).__name__}", text)


def load_module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def member_inputs(kernel: Any, seed: int) -> list[Any]:
    """A kernel's inputs as `kernel.verify(seed=seed)` draws them, so a batch and a single run agree."""
    return kernel.random_inputs(seed)


def precheck(kernel: Any, seed: int) -> dict[str, str] | None:
    """Frontend and Python mode alone (no C++): a verdict when either fails, else None."""
    try:
        kernel.compile()
    except Exception as exc:  # noqa: BLE001 - every failure is a verdict
        return classify(exc, "compile")
    try:
        kernel(*member_inputs(kernel, seed))
    except DeadlockError:
        return dataflow_verdict(kernel, seed, deadlocked=True)
    except Exception as exc:  # noqa: BLE001
        return classify(exc, "golden")
    problem = compiled_disagreement(kernel, seed)
    if problem is not None:
        return verdict("mismatch", "golden:compiled", problem)
    if kernel.compile().processes:
        return dataflow_verdict(kernel, seed, deadlocked=False)
    return None


def compiled_disagreement(kernel: Any, seed: int) -> str | None:
    """The compiled golden model (numba; where it applies) against Python mode, bit for bit."""
    if not available() or not kernel.compiled_golden.program.supported:
        return None
    return disagreement(kernel, member_inputs(kernel, seed), "compiled")


def dataflow_verdict(kernel: Any, seed: int, deadlocked: bool) -> dict[str, str] | None:
    """A dataflow region: Python mode and the timed simulation must agree on whether it deadlocks at
    its declared depths, and so must csim when it does (else None: golden vs csim is checked next)."""
    inputs = member_inputs(kernel, seed)
    try:
        raw = kernel.dataflow_trace(*inputs)
        report = kernel.report()
        timed = report.dataflow
        in_order = simulate([replace(p, stages=None) for p in traces(raw, report)], raw.fifos)
    except Exception as exc:  # noqa: BLE001
        return classify(exc, "timing")
    # Python mode runs in statement order, so it agrees with the timing in statement order; in stage timing
    # (the accesses of one pipeline stage issue together) a region may deadlock that statement order runs.
    # A load-balance channel routes by arrival: the trace is an unbounded run's routing, not the one at the
    # declared depths, so there whether the region deadlocks depends on timing (the report says so) and
    # only Python mode and csim are compared
    if raw.by_arrival:
        if raw.arrival_note() not in report.notes:
            return verdict("mismatch", "dataflow:note", "a load-balance region's report does not say its "
                           "timing is one interleaving's")
    elif deadlocked != (in_order.deadlock is not None) or deadlocked and timed.deadlock is None:
        return verdict("mismatch", "dataflow:deadlock", f"Python mode {'deadlocks' if deadlocked else 'runs'}; the "
                       f"timed simulation {'deadlocks: ' + timed.deadlock if timed.deadlock else 'does not deadlock'}")
    if not deadlocked:
        return None
    try:
        kernel.csim(*inputs)
    except DeadlockError:
        return verdict("pass")
    except Exception as exc:  # noqa: BLE001
        return classify(exc, "csim")
    return verdict("mismatch", "dataflow:csim", "Python mode deadlocks; csim does not")


def check_single(kernel: Any, seed: int, rtol: float, atol: float) -> dict[str, str]:
    failed = precheck(kernel, seed)
    if failed is not None:
        return failed
    try:
        kernel.verify(seed=seed, rtol=rtol, atol=atol)
    except Exception as exc:  # noqa: BLE001
        return classify(exc, "verify")
    return verdict("pass")


def check_batch(job: dict[str, Any]) -> dict[str, Any]:
    folder = Path(job["dir"])
    units = [Unit(**u) for u in job["units"]]
    members: dict[str, dict[str, str]] = {}
    pre_path = folder / f"{job['name']}_pre.py"
    pre_path.write_text(module_text(units))
    try:
        pre = load_module(pre_path, f"{job['name']}_pre")
    except Exception as exc:  # noqa: BLE001 - the generator wrote invalid Python
        failed = classify(exc, "import")
        return {"members": {str(u.seed): failed for u in units}, "batch": None}
    good = []
    for unit in units:
        failed = precheck(getattr(pre, unit.kernel), unit.seed)
        if failed is not None:
            members[str(unit.seed)] = failed
        else:
            good.append(unit)
    if not good:
        return {"members": members, "batch": None}
    for unit in [u for u in good if u.schedule]:  # each through its own schedule, never batched
        members[str(unit.seed)] = check_scheduled(getattr(pre, unit.kernel), unit.seed, job["rtol"], job["atol"])
    good = [u for u in good if not u.schedule]
    if not good:
        return {"members": members, "batch": None}
    if not job.get("batch", True) or len(good) == 1:
        for unit in good:
            kernel = getattr(pre, unit.kernel)
            members[str(unit.seed)] = check_oracle(kernel, unit.seed) if unit.oracle else \
                check_single(kernel, unit.seed, job["rtol"], job["atol"])
        return {"members": members, "batch": None}
    path = folder / f"{job['name']}.py"
    path.write_text(module_text(good, top=batch_top(good)))
    batch_verdict = verdict("pass")
    try:
        module = load_module(path, job["name"])
        inputs: list[Any] = []
        for unit in good:
            kernel = getattr(module, unit.kernel)
            inputs += member_inputs(kernel, unit.seed)
            if unit.ret is not None:
                inputs += result_arrays(kernel.compile().return_type)
        module.fuzz_batch.verify(*inputs, rtol=job["rtol"], atol=job["atol"])
    except Exception as exc:  # noqa: BLE001
        batch_verdict = classify(exc, "verify")
    status = "pass" if batch_verdict["status"] == "pass" else "untested"
    for unit in good:
        members[str(unit.seed)] = verdict(status)
    return {"members": members, "batch": batch_verdict}


def result_arrays(t: Any) -> list[np.ndarray]:
    """The batch top's arrays receiving one member's results (see generator.batch_top)."""
    if isinstance(t, TupleType):
        return [np.zeros(1, dtype=e.storage_dtype) for e in t.elems]
    if isinstance(t, ArrayType):
        return [np.zeros(t.shape, dtype=t.elem.storage_dtype)]
    return [np.zeros(1, dtype=t.storage_dtype)]


def check_text(job: dict[str, Any]) -> dict[str, Any]:
    """One module text (a shrink candidate) and the kernel in it to verify."""
    path = Path(job["dir"]) / f"{job['name']}.py"
    path.write_text(job["text"])
    try:
        module = load_module(path, job["name"])
        kernel = getattr(module, job["kernel"])
    except Exception as exc:  # noqa: BLE001
        return {"members": {str(job["seed"]): classify(exc, "import")}, "batch": None}
    if job.get("oracle"):
        return {"members": {str(job["seed"]): check_oracle(kernel, job["seed"])}, "batch": None}
    if job.get("schedule"):
        return {"members": {str(job["seed"]): check_scheduled(kernel, job["seed"], job["rtol"], job["atol"])},
                "batch": None}
    return {"members": {str(job["seed"]): check_single(kernel, job["seed"], job["rtol"], job["atol"])},
            "batch": None}


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return check_text(job) if "text" in job else check_batch(job)


def main(argv: list[str]) -> int:
    job = json.loads(Path(argv[0]).read_text())
    result = run_job(job)
    Path(argv[1]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

