"""Run the compiled golden model (jit.py): the module cached on disk next to the csim libraries,
compiled by numba once per kernel (numba's own cache keeps the machine code beside the source).

numba is optional: without it `available()` is False and Python mode runs the statements.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
import time
from typing import Any

import numpy as np

from hls.golden import runtime
from hls.golden.jit import Program
from hls.golden.vexec import to_python
from hls.sim.cache import cache_root, make_private_dir, write_atomic
from hls.types import BoolType, IntType, TupleType

_FORMAT = "hls-golden-compiled/1"
INT64 = (-(1 << 63), (1 << 63) - 1)  # the scalars the compiled code takes (as np.int64)


@functools.cache
def available() -> bool:
    """numba can be imported (the `dev` extra installs it; users may not have it)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def _load_libm() -> None:
    """Make expf, exp, ... resolvable by name for numba's external calls (the library csim links)."""
    import ctypes.util

    import llvmlite.binding

    llvmlite.binding.load_library_permanently(ctypes.util.find_library("m") or "libm.so.6")


def module_path(source: str) -> Any:
    """`golden/<key>/hls_golden_<key>.py` under the csim cache: content-addressed, written once."""
    import numba

    key = hashlib.sha256(f"{_FORMAT}\n{numba.__version__}\n{source}".encode()).hexdigest()
    home = cache_root() / "golden" / key[:2] / key
    for d in (cache_root() / "golden", home.parent, home):
        make_private_dir(d, "cache directory")
    path = home / f"hls_golden_{key[:16]}.py"
    if not path.is_file() or path.read_text(encoding="utf-8") != source:
        write_atomic(path, source)
    return path


class CompiledGolden:
    """One kernel's compiled golden model; `run` is `Kernel.__call__`'s fast path."""

    def __init__(self, program: Program):
        self.program = program
        self._function: Any = None
        self.load_seconds: float | None = None  # importing the module (first call)
        self.first_call_seconds: float | None = None  # the first call: numba compiles or loads its cache

    def function(self) -> Any:
        if self._function is None:
            start = time.perf_counter()
            _load_libm()
            path = module_path(self.program.source)
            spec = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module  # numba's cache finds the functions' globals by module name
            spec.loader.exec_module(module)
            self._function = getattr(module, self.program.top)
            self.load_seconds = time.perf_counter() - start
        return self._function

    def run(self, args: list[Any], ret: Any) -> tuple[bool, Any]:
        """(True, the result) or, when the compiled code raised or cannot report exactly, (False, None)
        with every array as it was: Python mode then runs and raises its own error at the line."""
        program = self.program
        record = runtime.OVERFLOWS.enabled
        if record and program.speculative_reports:
            return False, None
        arrays = [a for a in args if isinstance(a, runtime.ArrayView)]
        if any(a.readonly for a in arrays):
            return False, None
        if any(isinstance(a, int) and not isinstance(a, bool) and not INT64[0] <= a <= INT64[1] for a in args):
            return False, None  # a uint64 of 2**63 and up: int64 cannot carry it, Python mode can
        values = [a.data if isinstance(a, runtime.ArrayView) else scalar(a) for a in args]
        out = None
        if program.result_array is not None:
            t = program.result_array
            out = np.zeros(t.shape, t.elem.storage_dtype)
            values.append(out)
        saved = [(a.data, a.data.copy()) for k, a in enumerate(args) if k in program.written]  # put back on errors
        events = np.full((len(program.sites) + 1, 3), -1, dtype=np.int64)
        events[-1, 0] = 0
        func = self.function()
        start = time.perf_counter()
        try:
            result = func(*values, events, record)
        except Exception:  # noqa: BLE001 - any error: Python mode raises its own
            for data, copy in saved:
                data[...] = copy
            return False, None
        finally:
            if self.first_call_seconds is None:
                self.first_call_seconds = time.perf_counter() - start
        self.report(events)
        return True, out if out is not None else python_result(result, ret)

    def report(self, events: np.ndarray) -> None:
        """The first wrap per source line, in execution order, as Python mode records it."""
        first: dict[str, tuple[int, int]] = {}
        for k, site in enumerate(self.program.sites):
            order = int(events[k, 0])
            if order >= 0 and (site.where not in first or order < first[site.where][0]):
                first[site.where] = (order, k)
        for where, (_, k) in sorted(first.items(), key=lambda item: item[1][0]):
            site = self.program.sites[k]
            runtime.OVERFLOWS.record(where, site.target, to_python(events[k, 1], site.source),
                                     to_python(events[k, 2], site.target))


def scalar(value: Any) -> Any:
    """A Python-mode scalar argument as the compiled code takes it."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, int):
        return np.int64(value)
    return value


def python_result(result: Any, ret: Any) -> Any:
    if ret is None:
        return None
    if isinstance(ret, TupleType):
        return tuple(to_python(v, t) for v, t in zip(result, ret.elems, strict=True))
    value = result[0]
    if isinstance(ret, (IntType, BoolType)):
        return to_python(value, ret)
    return to_python(value, ret)
