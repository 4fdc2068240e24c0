"""The `hls` command: emit, csim, demo. Exit 0 on success, 1 on a verification mismatch, 2 on bad input."""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

from hls.cli.export import add_export_parser, add_flow_option, add_report_parser
from hls.cli.target import BadTarget, add_schedule_option, load_kernel, load_module
from hls.errors import HLSError, OverflowWarning, VerificationError
from hls.wording import decimal


def cmd_emit(args: argparse.Namespace) -> int:
    k = load_kernel(args.target, args.schedule)
    print(k.mlir if args.mlir else k.ir if args.ir else k.compile(args.flow).design.kernel_cpp, end="")
    return 0


def cmd_csim(args: argparse.Namespace) -> int:
    k = load_kernel(args.target, args.schedule)
    result = k.verify(seed=args.seed)
    print(f"{k.__name__}: csim matches the golden model on {', '.join(result['compared'])} (seed {args.seed}, "
          f"{len(result['trials'])} input sets)")
    print(f"{k.__name__}: {result.coverage}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Every example end to end: C++, csim against the golden model, the estimate, an exported project
    whose testbench `make csim` compiles and runs with g++."""
    import subprocess

    folder = Path(args.dir)
    files = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if not files:
        raise BadTarget(f"no examples in {folder}")
    out = Path(args.out)
    failures = 0
    for path in files:
        k = getattr(load_module(path), "KERNEL", None)
        if k is None:
            continue
        start = time.perf_counter()
        pragmas = sorted({line.strip().split()[2] for line in k.cpp.splitlines()
                          if line.strip().startswith("#pragma HLS")})
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", OverflowWarning)  # listed below instead
                result = k.verify(seed=args.seed)
            status = f"csim == golden on {', '.join(result['compared'])}; {result.coverage}"
            for site, (t, before, after) in result["overflows"].items():
                status += (f"\n    note: random inputs wrap {t} at {Path(site).name} "
                           f"(e.g. {decimal(before)} -> {decimal(after)})")
        except VerificationError as exc:
            failures += 1
            status = f"MISMATCH {exc}"
        report = k.report()
        iis = [f"{loop.label} II={loop.ii}" for loop in report.loops if loop.ii is not None]
        project = k.export(out / path.stem, overwrite=True)
        make = subprocess.run(["make", "-s", "-C", str(project), "csim", f"PYTHON={sys.executable}"],
                              capture_output=True, text=True)
        failures += make.returncode != 0
        print(f"{path.name}: {k.__name__}")
        print(f"    C++ {len(k.cpp.splitlines())} lines, pragmas [{', '.join(pragmas)}]; {status}")
        print(f"    estimate: {report.latency_max} cycles, {', '.join(iis) or 'no pipelined loop'}; "
              f"{report.resources.dsp} DSP, {report.resources.lut} LUT")
        if report.dataflow is not None:
            print(f"    dataflow: {report.dataflow.deadlock or f'region interval {report.dataflow.interval} cycles'}; "
                  f"FIFO depths declared {[f.depth for f in report.dataflow.fifos]}, sized {k.size_fifos()}")
        print(f"    project {project}: make csim {'passed' if make.returncode == 0 else 'FAILED'} "
              f"({time.perf_counter() - start:.1f} s)")
    return 1 if failures else 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hls", description="Typed Python kernels to Vitis HLS C++.")
    sub = p.add_subparsers(dest="command", required=True)
    emit = sub.add_parser("emit", help="print the generated C++ (or --ir, --mlir) of FILE.py:kernel")
    emit.add_argument("target", help="FILE.py:kernel")
    form = emit.add_mutually_exclusive_group()
    form.add_argument("--ir", action="store_true", help="print the SSA IR instead of C++")
    form.add_argument("--mlir", action="store_true", help="print upstream MLIR (func/scf/arith/memref/math)")
    add_flow_option(emit, "the interfaces of the C++: vitis (m_axi/s_axilite) or vivado (ap_memory/ap_none)")
    add_schedule_option(emit)
    emit.set_defaults(func=cmd_emit)
    csim = sub.add_parser("csim", help="compile the C++ with g++ and check it against the golden model")
    csim.add_argument("target", help="FILE.py:kernel")
    csim.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    add_schedule_option(csim)
    csim.set_defaults(func=cmd_csim)

    add_export_parser(sub)
    add_report_parser(sub)
    demo = sub.add_parser("demo", help="run every example end to end")
    demo.add_argument("dir", nargs="?", default="examples", help="folder of example kernels")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--out", default="build/demo", help="where the example projects are exported")
    demo.set_defaults(func=cmd_demo)
    return p


def closed_pipe() -> int:
    """Exit quietly when stdout's reader went away: point stdout at /dev/null so that the interpreter's
    final flush cannot raise again, and return 128 + SIGPIPE as a program killed by it would."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:  # `hls report --json ... | head`: the reader has all it wanted
        return closed_pipe()
    except VerificationError as exc:
        print(f"hls: verification failed: {exc}", file=sys.stderr)
        return 1
    except (HLSError, BadTarget) as exc:
        print(f"hls: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

