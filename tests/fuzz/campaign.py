"""A differential fuzzing campaign: generate kernels, verify golden vs csim, shrink the failures.

    python -m tests.fuzz.campaign --count 200 --seed 1 [--out DIR] [--batch 8] [--jobs 2]
        [--mode classic|oracle|both] [--branches join,literal,accumulate,unsigned,mixed,boundary]

Each kernel gets seed `S * 1_000_000 + i`: its text and its random inputs both follow from it, so
`fail_<seed>.py` reproduces with `kernel.verify(seed=<seed>)`. Kernels are checked in batches (one top
kernel calling several generated kernels, so one g++ run covers many); a failing or crashing batch is
re-run kernel by kernel, which keeps every failure attributable to one generated kernel. Kernels
that use libm are batched separately and compared with a tolerance; all others bit-exactly.

`--mode oracle` generates no-overflow kernels (tests/fuzz/oracle.py) that are also run as plain
CPython functions: golden, csim and CPython must agree on every input set (the types' edge values
among them); `--mode both` makes one kernel in four such a kernel; `--branches` picks the oracle
generator's branches. A mismatch's kind names its class (`cpython:golden=csim`: both wrong the same
way; `cpython:golden`, `cpython:csim`: one of them wrong; `VerificationError`: golden != csim).

Prints `fuzz: N kernels, P passed, M mismatches, C crashes, R rejected` (and the mismatch classes)
and exits 1 when M + C > 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from hls import progress
from tests.fuzz.dataflow_gen import dataflow_unit
from tests.fuzz.generator import Unit, batch_top, generate, module_text
from tests.fuzz.oracle import BRANCHES, KNOWN_BRANCHES, oracle_unit
from tests.fuzz.packets import packet_unit, uses_packets
from tests.fuzz.schedules import NEST_EVERY, nest_unit
from tests.fuzz.shrink import ShrinkStats, shrink

ROOT = Path(__file__).resolve().parents[2]
EXACT = (0.0, 0.0)  # rtol, atol: without libm, floats must match bit for bit
TOLERANT = (1e-4, 1e-5)  # libm results may differ in the last bits between numpy and glibc
SEED_STRIDE = 1_000_000
SOLO = 10  # every tenth kernel is checked alone, as a top-level kernel


DATAFLOW_EVERY = 10  # one kernel in ten is a random dataflow region (tests/fuzz/dataflow_gen.py)
ORACLE_EVERY = 4  # --mode both: one kernel in four is a no-overflow kernel with the CPython oracle
MODES = ("classic", "oracle", "both")
SCHEDULE_BRANCH = "schedule"  # not an oracle branch: every classic kernel through a random hls.customize schedule


def generate_any(seed: int, mode: str = "classic", branches: tuple[str, ...] = BRANCHES) -> Unit:
    """The unit for `seed`; with the `schedule` branch, a classic one is checked through a random legal
    hls.customize schedule (tests/fuzz/schedules.py)."""
    oracle_branches = tuple(b for b in branches if b in KNOWN_BRANCHES) or BRANCHES
    if mode == "oracle" or mode == "both" and seed % ORACLE_EVERY == 1:
        return oracle_unit(seed, oracle_branches)
    if SCHEDULE_BRANCH in branches and seed % NEST_EVERY == 0:
        return nest_unit(seed)
    if seed % DATAFLOW_EVERY == DATAFLOW_EVERY - 1:
        unit = dataflow_unit(seed)
    else:
        unit = packet_unit(seed) if uses_packets(seed) else generate(seed)
    return replace(unit, schedule=True) if SCHEDULE_BRANCH in branches else unit


@dataclass
class Failure:
    seed: int
    status: str
    kind: str
    message: str
    source: str  # the module text that fails (the whole batch for a batch-only failure)
    kernel: str
    tolerances: tuple[float, float]
    minimized: str | None = None
    schedule: bool = False  # found through a random schedule (tests/fuzz/schedules.py)
    minimized_message: str | None = None
    path: Path | None = None
    oracle: bool = False  # checked against CPython too (tests/fuzz/oracle.py)


@dataclass
class CampaignResult:
    count: int = 0
    passed: int = 0
    mismatches: int = 0
    crashes: int = 0
    rejected: int = 0
    batch_only: int = 0
    failures: list[Failure] = field(default_factory=list)
    rejections: list[tuple[int, str]] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        line = (f"fuzz: {self.count} kernels, {self.passed} passed, {self.mismatches} mismatches, "
                f"{self.crashes} crashes, {self.rejected} rejected")
        if self.batch_only:
            line += f", {self.batch_only} batch-only failures"
        return line

    def classes(self) -> dict[str, list[int]]:
        """Mismatch kind -> the seeds that show it."""
        out: dict[str, list[int]] = {}
        for f in self.failures:
            if f.status == "mismatch":
                out.setdefault(f.kind, []).append(f.seed)
        return out

    @property
    def ok(self) -> bool:
        return self.mismatches + self.crashes + self.batch_only == 0


class Runner:
    """Starts workers (one process per job, its own session so a timeout kills its g++ too)."""

    def __init__(self, workdir: Path, timeout: float):
        self.workdir = workdir
        self.timeout = timeout
        self.counter = 0
        self.active: dict[int, subprocess.Popen[bytes]] = {}
        self.stopped = False

    def stop(self) -> None:
        """Kill the workers still running (each leads its own process group: its g++ goes too)."""
        self.stopped = True
        for pid in list(self.active):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def next_name(self, prefix: str) -> str:
        self.counter += 1  # only called from the coordinating thread
        return f"{prefix}{self.counter}"

    def run(self, job: dict[str, Any], name: str, env: dict[str, str] | None = None) -> dict[str, Any]:
        job_path = self.workdir / f"{name}.job.json"
        result_path = self.workdir / f"{name}.result.json"
        job = {**job, "dir": str(self.workdir), "name": name}
        job_path.write_text(json.dumps(job))
        cmd = [sys.executable, "-m", "tests.fuzz.worker", str(job_path), str(result_path)]
        env = dict(os.environ if env is None else env)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
        if self.stopped:
            raise KeyboardInterrupt
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        self.active[proc.pid] = proc
        try:
            out, err = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return {"error": {"status": "crash", "kind": "timeout",
                              "message": f"worker exceeded {self.timeout:.0f} s"}}
        finally:
            self.active.pop(proc.pid, None)
        if self.stopped:
            raise KeyboardInterrupt
        if proc.returncode != 0 or not result_path.is_file():
            how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit code {proc.returncode}"
            tail = (err or b"").decode(errors="replace")[-3000:]
            return {"error": {"status": "crash", "kind": f"worker died ({how})",
                              "message": f"worker died ({how})\n{tail}"}}
        return json.loads(result_path.read_text())


def unit_job(units: list[Unit], batch: bool, tolerances: tuple[float, float]) -> dict[str, Any]:
    return {"units": [asdict(u) for u in units], "batch": batch, "rtol": tolerances[0], "atol": tolerances[1]}


def tolerances_of(unit: Unit) -> tuple[float, float]:
    return TOLERANT if unit.tolerant else EXACT


def batches(units: list[Unit], size: int) -> list[list[Unit]]:
    """Chunks of at most `size` units, exact and tolerant kernels never mixed.

    Every SOLO-th kernel is checked on its own, as the top: in a batch a kernel is a sub-function,
    so its own ports and return value would never cross the csim boundary.
    """
    out: list[list[Unit]] = [[u] for u in units if u.seed % SOLO == 0 or u.oracle]  # oracle: run alone, as the top
    rest = [u for u in units if u.seed % SOLO != 0 and not u.oracle]
    for group in ([u for u in rest if not u.tolerant], [u for u in rest if u.tolerant]):
        out += [group[i:i + size] for i in range(0, len(group), size)]
    return out


def run_campaign(count: int, seed: int, out: Path | None = None, batch: int = 8, jobs: int | None = None,
                 timeout: float = 600.0, shrink_checks: int = 150, shrink_seconds: float = 600.0,
                 log: Any = None, keep: bool = False, pick: Any = None, mode: str = "classic",
                 branches: tuple[str, ...] = BRANCHES, shrink_per_class: int | None = None) -> CampaignResult:
    """Generate, check, classify and shrink; reproducers go to `out` (when given). `pick(seed)`, when
    given, chooses the kernels: the first `count` seeds it accepts (tests/fuzz/structs.py). `mode` and
    `branches`: which generators (see the module docstring); `shrink_per_class`: shrink only the first
    failures of each (status, kind), the others are written as generated."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    started = time.monotonic()
    say = log or (lambda text: None)
    jobs = jobs or os.cpu_count() or 1
    workdir = Path(tempfile.mkdtemp(prefix="hls-fuzz-"))
    runner = Runner(workdir, timeout)
    result = CampaignResult(count=count)
    seeds = (seed * SEED_STRIDE + i for i in itertools.count())
    units = list(itertools.islice((generate_any(s, mode, branches) for s in seeds if pick is None or pick(s)),
                                  count))
    verdicts: dict[int, dict[str, str]] = {}
    batch_failures: list[tuple[list[Unit], dict[str, str]]] = []
    try:
        groups = batches(units, max(1, batch))
        named = [(g, runner.next_name("b")) for g in groups]
        done = [0]

        def run_group(item: tuple[list[Unit], str]) -> dict[str, Any]:
            outcome = runner.run(unit_job(item[0], batch > 1, tolerances_of(item[0][0])), item[1])
            done[0] += len(item[0])
            advance(len(item[0]))  # the progress bar's, bound by the `with` below before any call
            failed = "error" in outcome or (outcome.get("batch") or {}).get("status", "pass") != "pass" or any(
                v["status"] not in ("pass", "untested") for v in outcome["members"].values())
            say(f"fuzz: {done[0]}/{count} kernels checked{' (failures to look at)' if failed else ''}")
            return outcome

        with progress.task(f"fuzzing: {count} kernels", total=count) as advance, \
                ThreadPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(run_group, named))
        retry: list[Unit] = []
        for (group, _), outcome in zip(named, outcomes, strict=True):
            if "error" in outcome:
                retry += group
                batch_failures.append((group, outcome["error"]))
                continue
            for unit in group:
                v = outcome["members"][str(unit.seed)]
                if v["status"] == "untested":
                    retry.append(unit)
                else:
                    verdicts[unit.seed] = v
            if outcome.get("batch") and outcome["batch"]["status"] != "pass":
                batch_failures.append((group, outcome["batch"]))
        if retry:
            say(f"fuzz: re-running {len(retry)} kernels of failing batches one by one")
            named_single = [(u, runner.next_name("s")) for u in retry]
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                singles = list(pool.map(lambda item: runner.run(unit_job([item[0]], False, tolerances_of(item[0])),
                                                                item[1]), named_single))
            for (unit, _), outcome in zip(named_single, singles, strict=True):
                verdicts[unit.seed] = outcome["error"] if "error" in outcome else outcome["members"][str(unit.seed)]
        for unit in units:
            v = verdicts[unit.seed]
            status = v["status"]
            if status == "pass":
                result.passed += 1
            elif status == "rejected":
                result.rejected += 1
                result.rejections.append((unit.seed, v["message"]))
            else:
                if status == "mismatch":
                    result.mismatches += 1
                else:
                    result.crashes += 1
                result.failures.append(Failure(unit.seed, status, v["kind"], v["message"], module_text([unit]),
                                               unit.kernel, tolerances_of(unit), oracle=unit.oracle,
                                               schedule=unit.schedule))
        for group, v in batch_failures:
            if all(verdicts[u.seed]["status"] in ("pass", "rejected") for u in group):
                result.batch_only += 1
                result.failures.append(Failure(group[0].seed, v["status"], v["kind"], v["message"],
                                               module_text(group, top=batch_top(group)), "fuzz_batch",
                                               tolerances_of(group[0])))
        for failure in result.failures:
            say(f"fuzz: seed {failure.seed}: {failure.status} ({failure.kind}): "
                f"{failure.message.splitlines()[0][:300] if failure.message else ''}")
        if shrink_checks > 0 and result.failures:
            shrink_all(representatives(result.failures, shrink_per_class), runner, jobs, shrink_checks,
                       shrink_seconds, say)
        if out is not None and result.failures:
            out.mkdir(parents=True, exist_ok=True)
            for failure in result.failures:
                failure.path = write_reproducer(out, failure)
                say(f"fuzz: wrote {failure.path}")
    finally:
        runner.stop()
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
    result.seconds = time.monotonic() - started
    return result


def representatives(failures: list[Failure], per_class: int | None) -> list[Failure]:
    """The first `per_class` failures of each (status, kind); all of them when None."""
    if per_class is None:
        return failures
    seen: dict[tuple[str, str], int] = {}
    chosen = []
    for f in failures:
        key = (f.status, f.kind)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= per_class:
            chosen.append(f)
    return chosen


def shrink_all(failures: list[Failure], runner: Runner, jobs: int, max_checks: int, seconds: float,
               say: Any) -> None:
    """Minimize every failure (in parallel), in a private csim cache: candidates are one-offs."""
    cache = runner.workdir / "shrink-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, HLS_CACHE_DIR=str(cache))
    names = iter(range(10**9))

    def minimize(failure: Failure) -> None:
        if failure.kernel == "fuzz_batch":
            return  # a batch-only failure is kept whole: the interaction is the point

        def still_fails(text: str) -> bool:
            job = {"text": text, "kernel": failure.kernel, "seed": failure.seed, "rtol": failure.tolerances[0],
                   "atol": failure.tolerances[1], "oracle": failure.oracle, "schedule": failure.schedule}
            outcome = runner.run(job, f"x{failure.seed}_{next(names)}", env)
            v = outcome.get("error") or outcome["members"][str(failure.seed)]
            if v["status"] == failure.status and v["kind"] == failure.kind:
                failure.minimized_message = v["message"]
                return True
            return False

        stats = ShrinkStats()
        failure.minimized = shrink(failure.source, still_fails, max_checks=max_checks, time_limit=seconds,
                                   stats=stats)
        say(f"fuzz: seed {failure.seed} shrunk in {stats.checks} checks ({stats.accepted} edits kept): "
            f"{len(failure.source.splitlines())} -> {len(failure.minimized.splitlines())} lines")

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(minimize, failures))


def write_reproducer(out: Path, failure: Failure) -> Path:
    """`fail_<seed>.py`: the minimized module, the failure it shows and how to run it."""
    text = failure.minimized or failure.source
    rtol, atol = failure.tolerances
    message = (failure.minimized_message or failure.message).strip()
    doc = [f"Fuzz failure, seed {failure.seed}: {failure.status} ({failure.kind}).", "",
           "Original failure:", *("    " + line for line in failure.message.strip().splitlines()[:20])]
    if failure.minimized is not None:
        doc += ["", "After shrinking:", *("    " + line for line in message.splitlines()[:20])]
    doc += ["", f"Run: python {out / f'fail_{failure.seed}.py'} (from the repository root: it imports hls)"]
    body = '"""' + "\n".join(doc).replace('"""', "'''").replace("\\", "\\\\") + '\n"""\n\n' + text.rstrip("\n")
    call = f"{failure.kernel}.verify(seed={failure.seed}, rtol={rtol!r}, atol={atol!r})"
    if failure.kernel == "fuzz_batch":
        call = "raise SystemExit('a batch-only failure: rerun it through tests.fuzz.worker')"
    if failure.schedule:  # golden of the kernel vs csim of the same random schedule
        call = (f"import sys\n    sys.path.insert(0, {str(ROOT)!r})\n    from tests.fuzz.schedules import "
                f"check_scheduled\n    verdict = check_scheduled({failure.kernel}, {failure.seed}, {rtol!r}, "
                f"{atol!r})\n    if verdict['status'] != 'pass':\n        raise SystemExit(verdict['message'])")
    if failure.oracle:  # golden, csim and CPython on the oracle's input sets
        call = (f"import sys\n    sys.path.insert(0, {str(ROOT)!r})\n    from tests.fuzz.oracle import check_oracle"
                f"\n    verdict = check_oracle({failure.kernel}, "
                f"{failure.seed})\n    if verdict['status'] != 'pass':\n        raise SystemExit(verdict['message'])")
    body += f'\n\n\nif __name__ == "__main__":\n    {call}\n    print("no failure")\n'
    path = out / f"fail_{failure.seed}.py"
    path.write_text(body)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.campaign", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="kernels to generate (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                        help="where fail_<seed>.py reproducers go (default ./fuzz-failures)")
    parser.add_argument("--batch", type=int, default=8, help="kernels per compiled design (default 8; 1 = none)")
    parser.add_argument("--jobs", type=int, default=None, help="parallel workers (default: CPU count)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per worker (default 600)")
    parser.add_argument("--shrink-checks", type=int, default=150,
                        help="predicate runs per failure when shrinking; 0 disables shrinking (default 150)")
    parser.add_argument("--shrink-seconds", type=float, default=600.0, help="time limit per failure (default 600)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary work directory")
    parser.add_argument("--shrink-per-class", type=int, default=None,
                        help="shrink only the first K failures of each kind (default: all)")
    parser.add_argument("--mode", choices=MODES, default="classic",
                        help="classic kernels, no-overflow kernels with the CPython oracle, or both (default classic)")
    parser.add_argument("--branches", default=",".join(BRANCHES),
                        help=f"the oracle generator's branches, comma-separated (default {','.join(BRANCHES)})")
    args = parser.parse_args(argv)
    branches = tuple(b for b in args.branches.split(",") if b)
    known = (*KNOWN_BRANCHES, SCHEDULE_BRANCH)
    unknown = sorted(set(branches) - set(known))
    if unknown or not branches:
        parser.error(f"unknown --branches {', '.join(unknown) or '(none)'}; choose from {', '.join(known)}")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the clean-up (workers, temp files)
    result = run_campaign(args.count, args.seed, args.out, batch=args.batch, jobs=args.jobs, timeout=args.timeout,
                          shrink_checks=args.shrink_checks, shrink_seconds=args.shrink_seconds,
                          log=lambda text: print(text, flush=True), keep=args.keep, mode=args.mode,
                          branches=branches, shrink_per_class=args.shrink_per_class)
    for seed, message in result.rejections:
        print(f"fuzz: seed {seed} rejected: {message.splitlines()[0][:300]}")
    for kind, seeds in sorted(result.classes().items()):
        print(f"fuzz: mismatch class {kind}: {len(seeds)} (seeds {', '.join(map(str, seeds[:8]))}"
              f"{', ...' if len(seeds) > 8 else ''})")
    print(f"fuzz: {result.seconds:.0f} s")
    print(result.summary())
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
