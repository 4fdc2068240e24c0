"""Design-space exploration: `hls.explore(factory, space)` estimates every directive variant of a kernel.

`factory` is a plain function of directive parameters returning an `hls.Kernel` (its parameters
may be used as directive options, loop bounds and array sizes); `space` maps each parameter to its
list of values. Every point of the Cartesian product (or a seeded sample of `sample` points) is
built and scheduled on a `concurrent.futures.Executor` -- a local process pool by default, any other
such as `ThreadPoolExecutor()`, or a Dask cluster (a `distributed.Client` or a scheduler address)
-- and becomes one `Row`.
A point that raises gives a row holding the error; it never stops the exploration. Rows are in the
order of the space whatever the executor, so two runs print identical tables.

The Pareto front is taken over (worst-case latency in cycles, cost), both minimised; the cost is
the `objective`: a resource name ("lut", "ff", "dsp", "bram18k" or "bram", "uram"), a mapping of
resource names to weights (a weighted sum, e.g. {"dsp": 100, "lut": 1}), or a callable taking a
`Row` and returning a number. With `verify=True` each distinct design (same generated C++) is also
checked by csim once; with `vitis=True` the `top_k` best points are exported and synthesised with
`vitis_hls` (HLS_STEPS=csynth) on the same executor, and Vitis's report is read back into the row.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import math
import os
import pickle
import random
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hls import progress
from hls.customize.schedule import Schedule
from hls.errors import HLSError
from hls.explore.result import Exploration, Row, make_objective
from hls.kernel import Kernel

REPORT_OPTIONS = ("clock_ns", "part", "flow", "pipeline_loops")
EXPORT_OPTIONS = ("clock_ns", "part", "flow")
VITIS_HLS = "vitis_hls"


def explore(factory: Callable[..., Kernel], space: Mapping[str, Sequence[Any]], objective: Any = "lut", *,
            executor: concurrent.futures.Executor | None = None, sample: int | None = None, seed: int = 0,
            verify: bool = False, vitis: bool = False, top_k: int = 3, vitis_dir: str | os.PathLike[str] | None = None,
            **report_options: Any) -> Exploration:
    """Estimate `factory(**point)` for every point of `space` (or `sample` of them, drawn with `seed`).

    `objective`: the cost the Pareto front weighs against latency (see the module docstring).
    `executor`: where points run (see `open_executor`); without one a local ProcessPoolExecutor, which
    needs a factory defined at module level in an importable module (pickled by reference); for a
    lambda or a nested function pass `executor=concurrent.futures.ThreadPoolExecutor()`. `verify`:
    csim each distinct design on random inputs drawn with `seed`. `vitis`, `top_k`, `vitis_dir`:
    synthesise the `top_k` best points in `vitis_dir/point_<index>` (default: a new temporary
    directory). `report_options` (clock_ns, part, flow, pipeline_loops) go to `Kernel.report` and,
    but for pipeline_loops, to `Kernel.export`.
    """
    if not callable(factory):
        raise HLSError(f"factory must be a function returning an hls.Kernel, got {type(factory).__name__}")
    axes = check_space(space)
    unknown = sorted(set(report_options) - set(REPORT_OPTIONS))
    if unknown:
        raise HLSError(f"unknown option(s) {', '.join(unknown)}; explore takes {', '.join(REPORT_OPTIONS)}")
    goal = make_objective(objective)
    if vitis and shutil.which(VITIS_HLS) is None:
        raise HLSError(f"vitis=True needs AMD Vitis HLS: `{VITIS_HLS}` is not on PATH (source the Vitis "
                       "settings64.sh first); without it, explore gives the estimate only")
    if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
        raise HLSError(f"top_k must be a positive integer, got {top_k!r}")
    total = math.prod(len(values) for values in axes.values())
    indices = sample_indices(total, sample, seed)
    rows = [Row(i, point(axes, i)) for i in indices]
    name = getattr(factory, "__qualname__", repr(factory))
    if executor is None or isinstance(executor, concurrent.futures.ProcessPoolExecutor):
        check_picklable(factory, rows, name)
    pool, close = open_executor(executor, len(rows))
    try:
        options = dict(report_options)
        results = run_all(pool, estimate_point, [(factory, row.params, options) for row in rows],
                          f"exploring {name}")
        for row, values in zip(rows, results, strict=True):
            for key, value in values.items():
                setattr(row, key, value)
        result = Exploration(name, axes, rows, goal, total)
        if verify:
            verify_designs(pool, factory, rows, seed)
        if vitis:
            synthesise(pool, factory, top_rows(result, top_k), options, vitis_dir)
    finally:
        close()
    return result


def open_executor(executor: Any, jobs: int) -> tuple[concurrent.futures.Executor, Callable[[], None]]:
    """The executor to use and how to release it: None (a local process pool, shut down after), any
    Executor (left running), a Dask Client (its executor) or a Dask scheduler address (a Client of our own)."""
    if executor is None:
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, os.cpu_count() or 1))
        return pool, lambda: pool.shutdown(wait=True, cancel_futures=True)  # interrupted: drop the rest
    if isinstance(executor, concurrent.futures.Executor):
        return executor, lambda: None
    if callable(getattr(executor, "get_executor", None)):  # a distributed.Client
        return executor.get_executor(), lambda: None
    if isinstance(executor, str):
        try:
            import distributed
        except ImportError:
            raise HLSError(f"executor={executor!r} is a Dask scheduler address, which needs Dask: "
                           "pip install 'hls[dask]'") from None
        try:
            client = distributed.Client(executor, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise HLSError(f"cannot connect to the Dask scheduler at {executor!r}: {exc}") from None
        return client.get_executor(), client.close
    raise HLSError(f"executor must be a concurrent.futures.Executor, a Dask Client or a Dask scheduler address, "
                   f"got {type(executor).__name__}")


def check_space(space: Any) -> dict[str, list[Any]]:
    if not isinstance(space, Mapping) or not space:
        raise HLSError("space must be a non-empty dict of parameter name -> list of values")
    axes: dict[str, list[Any]] = {}
    for key, values in space.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise HLSError(f"space key {key!r} must be a parameter name of the factory")
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) == 0:
            raise HLSError(f"space[{key!r}] must be a non-empty list of values, got {values!r}")
        axes[key] = list(values)
    return axes


def sample_indices(total: int, sample: int | None, seed: int) -> list[int]:
    """All indices of the product, or `sample` of them drawn with `seed`, in increasing order."""
    if sample is None:
        return list(range(total))
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 1:
        raise HLSError(f"sample must be a positive number of points, got {sample!r}")
    return sorted(random.Random(seed).sample(range(total), min(sample, total)))


def point(axes: dict[str, list[Any]], index: int) -> dict[str, Any]:
    """The `index`-th point of the product, the last key varying fastest (as itertools.product)."""
    params: dict[str, Any] = {}
    for key in reversed(axes):
        index, digit = divmod(index, len(axes[key]))
        params[key] = axes[key][digit]
    return {key: params[key] for key in axes}


def check_picklable(factory: Any, rows: list[Row], name: str) -> None:
    """A process pool sends the factory by reference: fail early and clearly when it cannot."""
    try:
        pickle.dumps((factory, [row.params for row in rows]))
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise HLSError(f"the factory {name!r} (or a parameter value) cannot be sent to worker processes: {exc}. "
                       "Define the factory at module level in an importable module, or pass "
                       "executor=concurrent.futures.ThreadPoolExecutor()") from None


def run_all(pool: concurrent.futures.Executor, fn: Callable[..., dict[str, Any]], jobs: list[tuple[Any, ...]],
            description: str) -> list[dict[str, Any]]:
    """Submit every job, wait with a progress bar, return results in job order (failures as errors)."""
    futures = [pool.submit(fn, *job) for job in jobs]  # a fork pool forks here, before the display's thread
    with progress.task(description, total=len(jobs)) as advance:
        for _ in concurrent.futures.as_completed(futures):
            advance(1)
    results = []
    for future in futures:
        try:
            results.append(future.result())
        except Exception as exc:  # a dead worker or an unpicklable result: that point's error only
            results.append({"error": f"the worker failed: {type(exc).__name__}: {exc}"})
    return results


def build(factory: Callable[..., Any], params: dict[str, Any]) -> Kernel:
    """The point's kernel: the factory's Kernel, or the one its `hls.Schedule` builds (hls.customize)."""
    kernel = factory(**params)
    if isinstance(kernel, Schedule):
        kernel = kernel.build()
    if not isinstance(kernel, Kernel):
        raise HLSError(f"the factory returned {type(kernel).__name__}, not an hls.Kernel or an hls.Schedule "
                       "(decorate the function it returns with @hls.kernel)")
    return kernel


def failure(exc: Exception) -> str:
    """An error as a row shows it: an HLSError's own message, anything else with its type."""
    if isinstance(exc, HLSError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def estimate_point(factory: Callable[..., Any], params: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Worker: build the kernel of one point and schedule it (runs in the executor)."""
    with progress.silenced():
        try:
            kernel = build(factory, params)
            report = kernel.report(**options)
            design = kernel.compile().design
        except Exception as exc:  # a point's error is that row's, never the exploration's
            return {"error": failure(exc)}
    text = design.kernel_cpp + "\n" + design.header
    res = report.resources
    return {"latency_min": report.latency_min, "latency_max": report.latency_max,
            "interval_min": report.interval_min, "interval_max": report.interval_max, "dsp": res.dsp,
            "bram18k": res.bram18k, "ff": res.ff, "lut": res.lut, "uram": res.uram,
            "design": hashlib.sha256(text.encode()).hexdigest()[:16]}


def verify_point(factory: Callable[..., Any], params: dict[str, Any], seed: int) -> dict[str, Any]:
    """Worker: golden model against csim on seeded random inputs."""
    with progress.silenced(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow warnings are the kernel's business, not the sweep's
        try:
            build(factory, params).verify(seed=seed)
        except Exception as exc:
            return {"verified": False, "verify_error": failure(exc)}
    return {"verified": True, "verify_error": None}


def verify_designs(pool: concurrent.futures.Executor, factory: Any, rows: list[Row], seed: int) -> None:
    """csim each distinct design once (the first point that produced it) and mark every row of it."""
    first: dict[str, Row] = {}
    for row in rows:
        if row.ok and row.design is not None:
            first.setdefault(row.design, row)
    results = run_all(pool, verify_point, [(factory, row.params, seed) for row in first.values()],
                      f"verifying {len(first)} designs")
    outcome = {design: result for design, result in zip(first, results, strict=True)}
    for row in rows:
        if row.design in outcome:
            result = outcome[row.design]
            row.verified = result.get("verified", False)
            row.verify_error = result.get("verify_error") or result.get("error")


def top_rows(result: Exploration, k: int) -> list[Row]:
    """The k best points: the front by latency, then the others by (latency, cost)."""
    front = {row.index for row in result.pareto}
    ranked = sorted((row for row in result.rows if row.ok and row.latency_max is not None),
                    key=lambda row: (row.index not in front, row.latency_max, result.cost(row) or 0, row.index))
    return ranked[:k]


def synthesise_point(factory: Callable[..., Any], params: dict[str, Any], options: dict[str, Any],
                     project: str) -> dict[str, Any]:
    """Worker: export the point's project and run `vitis_hls -f run_hls.tcl` (csynth only), read its report."""
    from hls.report.csynth_xml import load_report

    with progress.silenced():
        try:
            tool = shutil.which(VITIS_HLS)
            if tool is None:
                raise HLSError(f"`{VITIS_HLS}` is not on PATH on this worker")
            build(factory, params).export(project, **{k: v for k, v in options.items() if k in EXPORT_OPTIONS})
            run = subprocess.run([tool, "-f", "run_hls.tcl"], cwd=project, env={**os.environ, "HLS_STEPS": "csynth"},
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                                 check=False)
            log = Path(project) / "vitis_hls.out"
            log.write_text(run.stdout + run.stderr, encoding="utf-8")
            if run.returncode != 0:
                raise HLSError(f"vitis_hls failed (exit code {run.returncode}); its output is in {log}")
            return {"vitis": load_report(project).to_dict(), "vitis_error": None}
        except Exception as exc:
            return {"vitis_error": failure(exc)}


def synthesise(pool: concurrent.futures.Executor, factory: Any, rows: list[Row], options: dict[str, Any],
               vitis_dir: str | os.PathLike[str] | None) -> None:
    root = Path(vitis_dir).resolve() if vitis_dir is not None else Path(tempfile.mkdtemp(prefix="hls-explore-"))
    root.mkdir(parents=True, exist_ok=True)
    for row in rows:
        row.project = str(root / f"point_{row.index}")
    results = run_all(pool, synthesise_point, [(factory, row.params, options, row.project) for row in rows],
                      f"synthesising {len(rows)} points with Vitis")
    for row, result in zip(rows, results, strict=True):
        row.vitis = result.get("vitis")
        row.vitis_error = result.get("vitis_error") or result.get("error")
