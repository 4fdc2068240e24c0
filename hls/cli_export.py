"""`hls export` and `hls report` sub-commands, kept apart from hls/cli.py so the parsers can be tested alone.

hls/cli.py wires them in with `add_export_parser(sub)` and `add_report_parser(sub)`; errors are
raised as HLSError / BadTarget and turned into exit code 2 and one line on stderr by `hls.cli.main`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hls.backend.export import DEFAULT_CLOCK_NS, DEFAULT_PART, EXPORT_FORMATS, MANIFEST, export_project


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
    p.add_argument("--flow", choices=sorted(EXPORT_FORMATS), default="vitis",
                   help="vitis: kernel flow, exports .xo; vivado: IP flow, exports ip_catalog (default vitis)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random input vectors (default 0)")
    p.add_argument("--force", action="store_true",
                   help="write into a non-empty DIR, replacing only the files hls writes (others are kept)")
    p.set_defaults(func=cmd_export)
    return p


def cmd_export(args: argparse.Namespace) -> int:
    from hls.cli import load_kernel

    kernel = load_kernel(args.target)
    root = export_project(kernel, args.output, part=args.part, clock_ns=args.clock, flow=args.flow,
                          seed=args.seed, overwrite=args.force)
    print(f"{kernel.__name__}: Vitis HLS project written to {root}; run `make -C {root} csim` (g++ only) "
          f"or `make -C {root} csynth` (Vitis)")
    return 0


def add_report_parser(subparsers: Any) -> argparse.ArgumentParser:
    """`hls report FILE.py:kernel` (the estimate) or `hls report DIR` (an exported project)."""
    p = subparsers.add_parser(
        "report", help="print the latency/II/resource estimate of FILE.py:kernel or of an exported project DIR",
        description="Print the schedule estimate of FILE.py:kernel. For a project DIR written by `hls export`, "
                    "print the estimate stored there and, once Vitis has synthesized it, the numbers from "
                    "Vitis's csynth.xml side by side.")
    p.add_argument("target", help="FILE.py:kernel or an exported project directory")
    p.set_defaults(func=cmd_report)
    return p


def cmd_report(args: argparse.Namespace) -> int:
    return run_report(resolve_report_target(args.target))


def resolve_report_target(target: str) -> Any:
    """An exported project directory as a Path, otherwise the Kernel named by FILE.py:kernel.

    Bad targets fail here (BadTarget -> exit 2) so the report hook only deals with good ones.
    """
    from hls.cli import BadTarget, load_kernel

    path = Path(target)
    if path.is_dir():
        if not (path / MANIFEST).is_file():
            raise BadTarget(f"{target} is not a project written by `hls export` (no {MANIFEST})")
        return path
    if ":" not in target:
        raise BadTarget(f"expected FILE.py:kernel or an exported project directory, got {target!r}")
    return load_kernel(target)


def run_report(target: Any) -> int:
    """Hook for the report printer (provided by the schedule/report work; replace this body).

    `target` is either a Kernel (print `target.report()`) or the Path of an exported project (read
    it with `hls.backend.export.read_manifest`: its "estimate" is the hls Report as a dict, and
    "csynth_xml" lists where Vitis puts csynth.xml for the Tcl and the unified flow; print them side
    by side when one exists, the estimate alone otherwise). Return the exit code.
    """
    raise NotImplementedError("hls report is not wired yet: hls.cli_export.run_report is a hook")
