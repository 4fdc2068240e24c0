"""`hls export` and `hls report` sub-commands, kept apart from hls/cli/main.py so the parsers can be tested alone.

hls/cli/main.py wires them in with `add_export_parser(sub)` and `add_report_parser(sub)`; errors are
raised as HLSError / BadTarget and turned into exit code 2 and one line on stderr by `hls.cli.main`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hls.cli.target import BadTarget, add_schedule_option, load_kernel
from hls.defaults import DEFAULT_CLOCK_NS, DEFAULT_PART
from hls.interfaces import FLOWS
from hls.project.export import MANIFEST


def add_export_parser(subparsers: Any) -> argparse.ArgumentParser:
    """`hls export FILE.py:kernel -o DIR [--part P] [--clock NS] [--flow F] [--seed S] [--force]`."""
    p = subparsers.add_parser(
        "export", help="write a Vitis HLS project (sources, testbench, data, run_hls.tcl, hls_config.cfg, Makefile)",
        description="Write a Vitis HLS project for FILE.py:kernel into DIR: the kernel C++, a self-checking "
                    "testbench with input and golden vectors from the Python model, run_hls.tcl, hls_config.cfg, "
                    "a Makefile (make csim needs only g++) and a README.")
    p.add_argument("target", help="FILE.py:kernel")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="project directory to create")
    p.add_argument("--part", default=DEFAULT_PART, help=f"FPGA part (default {DEFAULT_PART})")
    p.add_argument("--clock", type=float, default=DEFAULT_CLOCK_NS, metavar="NS",
                   help=f"clock period in ns (default {DEFAULT_CLOCK_NS})")
    add_flow_option(p, "vitis: kernel flow, exports .xo; vivado: IP flow, exports ip_catalog")
    p.add_argument("--seed", type=int, default=0, help="seed of the random input vectors (default 0)")
    p.add_argument("--force", action="store_true",
                   help="write into a non-empty DIR that holds no previous hls export, replacing only the files hls "
                        "writes (others are kept); a previous export is updated in place without it")
    add_schedule_option(p)
    p.add_argument("--directives", choices=("inline", "tcl"), default="inline",
                   help="with --schedule: the directives as pragmas in the C++ (inline) or as directives.tcl")
    p.set_defaults(func=cmd_export)
    return p


def cmd_export(args: argparse.Namespace) -> int:
    kernel = load_kernel(args.target, args.schedule)
    options = {"directives": args.directives} if args.schedule is not None else {}
    if args.directives != "inline" and args.schedule is None:
        raise BadTarget("--directives tcl writes a schedule's directives: give --schedule FILE")
    root = kernel.export(args.output, part=args.part, clock_ns=args.clock, flow=args.flow, seed=args.seed,
                         overwrite=args.force, **options)
    print(f"{kernel.__name__}: Vitis HLS project written to {root}; run `make -C {root} csim` (g++ only) "
          f"or `make -C {root} csynth` (Vitis)")
    return 0


def add_flow_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--flow", choices=FLOWS, default=None, help=f"{what} (default: the kernel's flow)")


def add_report_parser(subparsers: Any) -> argparse.ArgumentParser:
    """`hls report FILE.py:kernel` (the estimate) or `hls report DIR` (an exported project)."""
    p = subparsers.add_parser(
        "report", help="print the latency/II/resource estimate of FILE.py:kernel or of an exported project DIR",
        description="Print the schedule estimate of FILE.py:kernel. For a project DIR written by `hls export`, "
                    "print the estimate stored there and, once Vitis has synthesized it, the numbers from "
                    "Vitis's csynth.xml side by side.")
    p.add_argument("target", help="FILE.py:kernel or an exported project directory")
    p.add_argument("--clock", type=float, default=DEFAULT_CLOCK_NS,
                   help=f"clock period in ns (default {DEFAULT_CLOCK_NS})")
    p.add_argument("--part", default=DEFAULT_PART, help=f"target part (default {DEFAULT_PART})")
    add_flow_option(p, "the design's interfaces: vitis (m_axi/s_axilite) or vivado (ap_memory/ap_none)")
    p.add_argument("--json", action="store_true", help="print Report.to_dict() as JSON")
    p.add_argument("--compare", metavar="DIR", help="a Vitis project (or csynth.xml) to print side by side")
    p.add_argument("--html", metavar="FILE", help="write the report page (one self-contained HTML file) to FILE")
    add_schedule_option(p)
    p.add_argument("--size-fifos", action="store_true",
                   help="print, per FIFO of the dataflow region, the smallest depth that neither deadlocks nor "
                        "slows the region (k.size_fifos())")
    p.set_defaults(func=cmd_report)
    return p


def cmd_report(args: argparse.Namespace) -> int:
    target = resolve_report_target(args.target, args.schedule)
    if args.size_fifos:
        return print_fifo_depths(target, args)
    return run_report(target, args)


def print_fifo_depths(target: Any, args: argparse.Namespace) -> int:
    import json

    if isinstance(target, Path):
        raise BadTarget("--size-fifos needs FILE.py:kernel (a kernel with a dataflow region), not a project")
    depths = target.size_fifos(clock_ns=args.clock, part=args.part)
    if args.json:
        print(json.dumps(depths, indent=2))
        return 0
    declared = {f.name: f.depth for f in target.dataflow_trace().fifos}
    width = max((len(name) for name in depths), default=4)
    print(f"{'FIFO':<{width}}  declared  sized")
    for name, depth in depths.items():
        mark = "  <- deadlocks or slows the region at the declared depth" if depth > declared.get(name, 0) else ""
        print(f"{name:<{width}}  {declared.get(name, '-')!s:>8}  {depth:>5}{mark}")
    return 0


def resolve_report_target(target: str, schedule: str | None = None) -> Any:
    """An exported project directory as a Path, otherwise the Kernel named by FILE.py:kernel.

    Bad targets fail here (BadTarget -> exit 2) so the report hook only deals with good ones.
    """
    path = Path(target)
    if path.is_dir():
        if schedule is not None:
            raise BadTarget("--schedule applies to FILE.py:kernel, not to an exported project")
        if not (path / MANIFEST).is_file():
            raise BadTarget(f"{target} is not a project written by `hls export` (no {MANIFEST})")
        return path
    if ":" not in target:
        raise BadTarget(f"expected FILE.py:kernel or an exported project directory, got {target!r}")
    return load_kernel(target, schedule)


def run_report(target: Any, args: argparse.Namespace | None = None) -> int:
    """Print the estimate of a kernel, or of an exported project next to Vitis's csynth.xml once it exists."""
    import json

    from hls.errors import HLSError
    from hls.project.export import read_manifest
    from hls.report.csynth_xml import load_report
    from hls.report.report import Report

    clock = args.clock if args is not None else DEFAULT_CLOCK_NS
    part = args.part if args is not None else DEFAULT_PART
    compare_dir = getattr(args, "compare", None)
    if isinstance(target, Path):
        stored = read_manifest(target).get("estimate")
        estimate = Report.from_dict(stored) if stored else None
        compare_dir = compare_dir or str(target)
    else:
        estimate = target.report(clock_ns=clock, part=part, flow=getattr(args, "flow", None))
    vitis = None
    if compare_dir is not None:
        try:
            vitis = load_report(compare_dir)
        except HLSError:
            if getattr(args, "compare", None):
                raise
    if getattr(args, "html", None):
        shown = estimate or vitis
        if shown is None:
            raise HLSError(f"{target}: no stored estimate and no Vitis csynth.xml")
        shown.to_html(args.html)
        print(f"{shown.top}: report page written to {args.html}")
        return 0
    if args is not None and args.json:
        print(json.dumps({"estimate": estimate.to_dict() if estimate else None,
                          "vitis": vitis.to_dict() if vitis else None}, indent=2))
        return 0
    if estimate is not None and vitis is not None:
        print(estimate.compare(vitis))
    elif estimate is not None:
        print(estimate)
        if isinstance(target, Path):
            print("(no csynth.xml in this project yet: `make csynth` runs Vitis, then this prints both)")
    elif vitis is not None:
        print(vitis)
    else:
        raise HLSError(f"{target}: no stored estimate and no Vitis csynth.xml")
    return 0
