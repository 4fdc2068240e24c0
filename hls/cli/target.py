"""Finding what a command names: FILE.py:kernel, or a file of examples. Shared by hls/cli/main.py and
hls/cli/export.py; a bad target is a BadTarget, which `hls.cli.main` turns into exit code 2."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from hls.customize import Schedule, customize
from hls.errors import HLSError
from hls.kernel import Kernel


class BadTarget(Exception):
    """The FILE.py:kernel argument does not name a kernel."""


def load_module(path: Path) -> Any:
    if not path.is_file():
        raise BadTarget(f"no such file: {path}")
    name = f"hls_user_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BadTarget(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except HLSError:
        raise
    except Exception as exc:
        raise BadTarget(f"importing {path} failed: {type(exc).__name__}: {exc}") from None
    return module


def add_schedule_option(p: Any) -> None:
    p.add_argument("--schedule", metavar="FILE", default=None,
                   help="apply a schedule (hls.customize) read from FILE.json (Schedule.to_json) or FILE.tcl "
                        "(set_directive_* lines)")


def scheduled(kernel: Kernel, schedule: str | None) -> Kernel:
    """`kernel` with the schedule of a .json or .tcl file applied (hls.customize), or as it is."""
    if schedule is None:
        return kernel
    path = Path(schedule)
    if not path.is_file():
        raise BadTarget(f"no such schedule file: {schedule}")
    if path.suffix == ".json":
        return Schedule.from_json(kernel, path).build()
    if path.suffix == ".tcl":
        return customize(kernel).from_tcl(path).build()
    raise BadTarget(f"--schedule takes FILE.json (Schedule.to_json) or FILE.tcl (set_directive_* lines), "
                    f"got {schedule}")


def load_kernel(target: str, schedule: str | None = None) -> Any:
    """The kernel named by FILE.py:kernel, with the schedule of `schedule` (a file) applied."""
    file, sep, name = target.rpartition(":")
    if not sep or not file or not name:
        raise BadTarget(f"expected FILE.py:kernel, got {target!r}")
    module = load_module(Path(file))
    obj = getattr(module, name, None)
    if not isinstance(obj, Kernel):
        raise BadTarget(f"{file} has no @hls.kernel named {name!r}")
    return scheduled(obj, schedule)
