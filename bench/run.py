"""Run every bench/bench_*.py module, print a table and write bench/results.json with the machine.

Each module defines `run(quick: bool = False) -> list[dict]` returning rows
{"name", "value", "baseline", "ratio", "unit", "target", "note"}: value and baseline are measured
side by side in the same run and ratio = value / baseline. A module that fails is reported and
the others still run; the exit code is then 1.

    .venv/bin/python bench/run.py [--quick] [--only NAME ...] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

BENCH = Path(__file__).resolve().parent
FIELDS = {"name": str, "value": float, "baseline": float, "ratio": float, "unit": str, "note": str}


def machine() -> dict:
    """What the figures were measured on."""
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    try:
        gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True, check=False).stdout.splitlines()[0]
    except (OSError, IndexError):
        gxx = "not found"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "gxx": gxx,
            "system": f"{platform.system()} {platform.release()}", "load_average_1min": load,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def discover(only: list[str]) -> list[Path]:
    found = sorted(BENCH.glob("bench_*.py"))
    return [p for p in found if not only or p.stem in only or p.stem.removeprefix("bench_") in only]


def run_module(path: Path, quick: bool) -> list[dict]:
    """Import bench_x.py by path and call its run(); rows are checked for the agreed shape."""
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"hls_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = module.run(quick=quick)
    for r in rows:
        for key, kind in FIELDS.items():
            if not isinstance(r.get(key), (int, float) if kind is float else kind):
                raise TypeError(f"{path.name}: row {r.get('name')!r} has no {kind.__name__} {key!r}")
        if r.get("target") is not None and not isinstance(r["target"], str):
            raise TypeError(f"{path.name}: row {r['name']!r}: target must be a string or None")
    return rows


def table(rows: list[dict]) -> str:
    lines = [f"{'benchmark':<48} {'value':>11} {'baseline':>11} {'unit':<7} {'ratio':>8}  target"]
    for r in rows:
        lines.append(f"{r['name'][:48]:<48} {r['value']:>11.4g} {r['baseline']:>11.4g} {r['unit'][:7]:<7} "
                     f"{r['ratio']:>8.3g}  {r['target'] or ''}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and sizes")
    parser.add_argument("--only", nargs="*", default=[], help="module names (bench_x or x)")
    parser.add_argument("--out", type=Path, default=BENCH / "results.json")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    modules: dict[str, dict] = {}
    failed = False
    for path in discover(args.only):
        start = time.perf_counter()
        try:
            got = run_module(path, args.quick)
            status = "ok" if got else "no rows"
        except Exception:  # noqa: BLE001 - one broken bench must not hide the others
            got, status, failed = [], "failed:\n" + traceback.format_exc(), True
        seconds = time.perf_counter() - start
        print(f"[{path.stem}: {len(got)} rows in {seconds:.1f} s{'' if status == 'ok' else '; ' + status}]",
              file=sys.stderr)
        modules[path.stem] = {"seconds": round(seconds, 2), "status": status.splitlines()[0]}
        rows += [{**r, "module": path.stem} for r in got]
    print(table(rows))
    for r in rows:
        print(f"  {r['name']}: {r['note']}")
    result = {"machine": machine(), "quick": args.quick, "modules": modules, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
