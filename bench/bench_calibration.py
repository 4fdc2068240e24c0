"""The schedule estimate next to 70 real Vitis HLS csynth reports (a benchmark of accuracy, not speed).

The cases live outside the repository, in `../shared/qor/calibration.py` (beside the clone; set
HLS_CALIBRATION to point elsewhere), whose `ALL_CASES` adds the cases of calibration_more.py and
calibration_new.py: each is a kernel with the numbers of the real report it was re-expressed from.
This module runs every case's estimate with the case's part, clock, flow and automatic-pipelining
setting, prints the estimate beside the report (latency, interval, II/trip/iteration latency of each
loop the report lists, DSP/FF/LUT/BRAM) and the aggregate figures issues 13 and 24 judge, per project
(the public repository the case comes from) and over all cases.

A loop the C++ labels is matched by its label. A loop the C++ leaves unlabelled has Vitis's name
VITIS_LOOP_<line>_<n> (joined with `_` where Vitis flattened a nest), where n counts the function's
unlabelled loops in source order (UG1399, "Loop labels"); the Python line cannot reproduce <line>, so
it is matched by n against the estimate's unlabelled loops (`loop_<var>`) in source order.

    .venv/bin/python bench/bench_calibration.py
"""

from __future__ import annotations

import importlib.util
import os
import re
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# the aggregate targets of issues 13 and 24: (metric, target, "<=" or ">=")
TARGETS = {
    "estimated": (1.0, ">="), "latency_err_median": (0.05, "<="), "latency_err_max": (0.15, "<="),
    "ii_equal": (0.90, ">="), "dsp_equal": (0.80, ">="), "ff_err_median": (0.30, "<="),
    "lut_err_median": (0.30, "<="),
}


def calibration_file() -> Path | None:
    """`../shared/qor/calibration.py` beside this clone (or the main checkout of a worktree)."""
    env = os.environ.get("HLS_CALIBRATION")
    candidates = [Path(env)] if env else []
    candidates += [base / "shared" / "qor" / "calibration.py" for base in (ROOT.parent, ROOT.parent.parent)]
    return next((p for p in candidates if p.is_file()), None)


def load_cases() -> list[dict[str, Any]]:
    path = calibration_file()
    if path is None:
        raise FileNotFoundError("no ../shared/qor/calibration.py beside the repository (set HLS_CALIBRATION)")
    spec = importlib.util.spec_from_file_location("hls_calibration_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = getattr(module, "ALL_CASES", None)
    return list(cases if cases is not None else module.CASES)


def project(case: dict[str, Any]) -> str:
    """The public repository a case comes from: its "project" field, else the owner/repo of its source."""
    return case.get("project") or case["source"].split(":", 1)[0]


_AUTO = re.compile(r"VITIS_LOOP_\d+_(\d+)")


def auto_ordinals(label: str) -> list[int]:
    """The n of each VITIS_LOOP_<line>_<n> in a Vitis loop name ([] for a name the C++ gave)."""
    parts = _AUTO.findall(label)
    return [int(n) for n in parts] if _AUTO.sub("", label).strip("_") == "" else []


def _by_ordinal(est_loops: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The estimate's unlabelled loops (`loop_<var>`, flattened `loop_a_loop_b`) by Vitis's ordinal n."""
    out, n = {}, 0
    for lp in sorted(est_loops, key=lambda lp: (lp.get("file") or "", lp.get("line") or 0)):
        label = lp.get("label") or ""
        if not label.startswith("loop_"):
            continue
        for _ in range(max(1, label.count("loop_"))):
            n += 1
            out.setdefault(n, lp)
    return out


def match_loops(real: dict[str, Any], est_loops: list[dict[str, Any]]) -> dict[str, dict[str, Any] | None]:
    """Each loop the report lists -> the estimate's loop of that label (or of its ordinal), or None."""
    by_label = {lp.get("label"): lp for lp in est_loops}
    by_n = _by_ordinal(est_loops)
    out = {}
    for label in real:
        ordinals = auto_ordinals(label)
        out[label] = by_label.get(label) if not ordinals else by_n.get(ordinals[0])
    return out


def _top(value: Any) -> int | None:
    """The max of a (min, max) pair, a {"min", "max"} dict or a plain number."""
    if isinstance(value, dict):
        return value.get("max")
    if isinstance(value, (tuple, list)):
        return value[1]
    return value


def _err(est: Any, real: Any) -> float | None:
    est, real = _top(est), _top(real)
    if est is None or not real:
        return None
    return abs(est - real) / real


def compare(case: dict[str, Any]) -> dict[str, Any]:
    """One case: its estimate beside the report, or the error message when it does not estimate."""
    kernel = case["kernel"]
    try:
        est = kernel.report(clock_ns=case["clock_ns"], part=case["part"], flow=case["flow"],
                            pipeline_loops=64 if case["auto_pipeline"] else 0).to_dict()
    except Exception as exc:  # noqa: BLE001 - a case that fails to estimate is a row of the table
        failed = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        return {"name": case["name"], "project": project(case), "failed": failed,
                "n_loops": len(case["vitis"]["loops"])}
    real = case["vitis"]
    rows = []
    for label, lp in match_loops(real["loops"], est.get("loops", [])).items():
        lt = real["loops"][label]
        est_ii = None if lp is None else _top(lp.get("ii"))
        rows.append({"label": label, "found": lp is not None, "real": lt, "est": lp,
                     "ii_equal": lp is not None and est_ii == _top(lt["ii"])})
    res = est.get("resources", {})
    return {"name": case["name"], "project": project(case), "failed": None, "est": est, "real": real,
            "loops": rows, "n_loops": len(rows),
            "latency_err": _err(est["latency"], (real["latency_min"], real["latency_max"])),
            "dsp_equal": res.get("dsp") == real["dsp"],
            "ff_err": _err(res.get("ff"), real["ff"]), "lut_err": _err(res.get("lut"), real["lut"])}


def summarise(results: list[dict[str, Any]]) -> dict[str, float]:
    """The aggregate figures over all cases (a case that fails counts against every fraction)."""
    ok = [r for r in results if not r["failed"]]
    lat = [r["latency_err"] for r in ok if r["latency_err"] is not None]
    loops = [lp for r in ok for lp in r["loops"]]
    n_loops = sum(r["n_loops"] for r in results)
    ff = [r["ff_err"] for r in ok if r["ff_err"] is not None]
    lut = [r["lut_err"] for r in ok if r["lut_err"] is not None]
    ii_hits = sum(lp["ii_equal"] for lp in loops)
    dsp_hits = sum(r["dsp_equal"] for r in ok)
    return {
        "ii_hits": ii_hits, "ii_loops": n_loops, "dsp_hits": dsp_hits,
        "estimated": len(ok) / len(results),
        "latency_err_median": statistics.median(lat) if lat else float("inf"),
        "latency_err_max": max(lat) if lat else float("inf"),
        "ii_equal": ii_hits / n_loops if n_loops else 1.0,
        "dsp_equal": dsp_hits / len(results),
        "ff_err_median": statistics.median(ff) if ff else float("inf"),
        "lut_err_median": statistics.median(lut) if lut else float("inf"),
    }


def run_cases(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [compare(case) for case in cases]


def _fmt(value: Any) -> str:
    if isinstance(value, dict):
        value = (value.get("min"), value.get("max"))
    if isinstance(value, (tuple, list)):
        return str(value[0]) if value[0] == value[1] else f"{value[0]}..{value[1]}"
    return "-" if value is None else str(value)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _iteration(loop: dict[str, Any]) -> int | None:
    """Pipeline depth of a pipelined loop, else the latency of one iteration."""
    if loop.get("depth") is not None or loop.get("ii") is not None:
        return loop.get("depth")
    latency, trip = _top(loop.get("latency")), _top(loop.get("trip"))
    return latency // trip if latency is not None and trip else None


def _case_lines(r: dict[str, Any]) -> list[str]:
    """One case: latency and interval, each loop the report lists, the resources (estimate/report)."""
    if r["failed"]:
        return [f"{r['name']}: estimate failed: {r['failed']}"]
    est, real = r["est"], r["real"]
    lines = [f"{r['name']}: latency est {_fmt(est['latency'])} real "
             f"{_fmt((real['latency_min'], real['latency_max']))} ({_pct(r['latency_err'])}); interval est "
             f"{_fmt(est.get('interval'))} real {_fmt((real['interval_min'], real['interval_max']))}"]
    for lp in r["loops"]:
        e, t = lp["est"] or {}, lp["real"]
        mark = "=" if lp["ii_equal"] else "x"
        alias = f" (= {e['label']})" if e and e.get("label") != lp["label"] else ""
        lines.append(f"    {mark} {lp['label']}{alias}: II {_fmt(e.get('ii'))}/{_fmt(t['ii'])}  trip "
                     f"{_fmt(e.get('trip'))}/{_fmt(t['trip'])}  iter {_fmt(_iteration(e))}/"
                     f"{_fmt(t['iter_latency'])}" + ("" if lp["found"] else "  (no matching loop)"))
    res = est.get("resources", {})
    lines.append("    " + "  ".join(f"{k.upper()} {res.get(k, '-')}/{real[k]}"
                                    for k in ("dsp", "ff", "lut", "bram18k")))
    return lines


def by_project(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The results grouped by project, in the order the projects first appear."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault(r["project"], []).append(r)
    return groups


def project_table(results: list[dict[str, Any]]) -> str:
    """One row per project and one for all cases: the figures issue 24 judges."""
    head = (f"{'project':<50} {'cases':>5} {'lat med':>8} {'lat max':>8} {'II equal':>9} {'DSP equal':>9} "
            f"{'FF med':>7} {'LUT med':>7}")
    rows = [head, "-" * len(head)]
    groups = list(by_project(results).items()) + [("all", results)]
    for name, group in groups:
        s = summarise(group)
        ii = f"{s['ii_hits']}/{s['ii_loops']}" if s["ii_loops"] else "-"
        dsp = f"{s['dsp_hits']}/{len(group)}"
        rows.append(f"{name:<50} {len(group):>5} {_pct(s['latency_err_median']):>8} {_pct(s['latency_err_max']):>8} "
                    f"{ii:>9} {dsp:>9} {_pct(s['ff_err_median']):>7} {_pct(s['lut_err_median']):>7}")
    return "\n".join(rows)


def table(results: list[dict[str, Any]]) -> str:
    """The estimate beside the report, case by case and project by project, then the per-project table."""
    lines = []
    for name, group in by_project(results).items():
        lines.append(f"== {name} ({len(group)} cases)")
        for r in group:
            lines.extend(_case_lines(r))
        lines.append("   " + summary_line(summarise(group)))
    lines += ["", project_table(results), "", summary_line(summarise(results))]
    return "\n".join(lines)


def summary_line(s: dict[str, float]) -> str:
    return (f"estimated {_pct(s['estimated'])}; latency |err| median {_pct(s['latency_err_median'])}, max "
            f"{_pct(s['latency_err_max'])}; II equal {_pct(s['ii_equal'])} of listed loops; DSP equal "
            f"{_pct(s['dsp_equal'])}; FF |err| median {_pct(s['ff_err_median'])}; LUT |err| median "
            f"{_pct(s['lut_err_median'])}   (est/real per cell)")


def run(quick: bool = False) -> list[dict]:
    """Rows for `make bench`: each aggregate figure of the estimate against the real reports, with its
    issue-24 target as the baseline (ratio = value / target); none when the cases are not beside the repo."""
    if calibration_file() is None:
        print("calibration skipped: ../shared/qor/calibration.py not found", file=sys.stderr)
        return []
    results = run_cases(load_cases())
    print(table(results))
    rows = []
    for name, value in summarise(results).items():
        if name not in TARGETS:
            continue
        target, sense = TARGETS[name]
        rows.append({"name": f"calibration.{name}", "value": round(value, 4), "baseline": target,
                     "ratio": round(value / target, 3) if target else None, "unit": "fraction",
                     "target": f"{sense} {target}", "note": "estimate vs 70 real Vitis csynth reports; "
                                                            "baseline = the issue-24 target"})
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
