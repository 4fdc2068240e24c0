"""`hls.customize(k)`: a schedule kept apart from the algorithm, as an ordered list of records.

Each primitive is checked when it is called, against a working copy of the kernel's IR that already
has the earlier records applied (so an unknown name or an illegal reorder fails at that line, and names
made by a split are usable by the next call). `build()` returns a `ScheduledKernel`: a Kernel whose
compilation applies the same records to a fresh build of the IR before the passes, so the C++, the
estimate and csim all see them, while its golden model stays the original kernel's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hls.customize.directives import check_partitioned_calls
from hls.customize.explain import explain
from hls.customize.kernel import ScheduledKernel, apply_record, directives_file, fresh_module
from hls.customize.names import ScheduleNameError
from hls.customize.records import TRANSFORMS, Record, ScheduleError, make_record, record_from_dict
from hls.customize.source import SOURCE_OPS, located_at_call
from hls.customize.tcl import looks_like_path, read_schedule_file, read_tcl
from hls.errors import HLSError, caller_loc
from hls.ir import Module
from hls.kernel import Kernel


class Schedule:
    """Directives and loop transformations for kernel `k` (and the kernels it calls), by name.

    Every primitive returns the schedule, so calls chain: `hls.customize(mm).pipeline("COL").build()`.
    """

    def __init__(self, kernel: Kernel) -> None:
        if not isinstance(kernel, Kernel):
            raise ScheduleError(f"hls.customize takes an @hls.kernel, got {type(kernel).__name__}", caller_loc())
        self.kernel = kernel.base if isinstance(kernel, ScheduledKernel) else kernel
        self.records: list[Record] = list(kernel.records) if isinstance(kernel, ScheduledKernel) else []
        self._module: Module | None = None

    def _working(self) -> Module:
        if self._module is None:
            self._module = fresh_module(self.kernel, self.records)
        return self._module

    def add(self, record: Record) -> Schedule:
        """Check `record` against the IR the earlier records made, then keep it."""
        module = self._working()
        try:
            apply_record(module, record)
        except Exception:
            self._module = None  # the working copy may be half changed: rebuilt from the records on next use
            raise
        if record.op in SOURCE_OPS:  # the frontend reads it: its checks run on the rewritten source
            try:
                self._module = fresh_module(self.kernel, [*self.records, record])
            except ScheduleError:
                self._module = None
                raise
            except HLSError as exc:
                self._module = None
                raise located_at_call(exc, record) from None
        self.records.append(record)
        return self

    def _call(self, op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Schedule:
        return self.add(make_record(op, args, kwargs, caller_loc()))

    # ---- directives ----------------------------------------------------------------------------------

    def pipeline(self, loop: str | None = None, ii: int | None = None, **options: Any) -> Schedule:
        """Pipeline a loop (or a function, by its name; None: the top), at `ii` (also positional:
        `pipeline("COL", 1)`). Options: off, rewind, style."""
        return self._call("pipeline", (loop,), {"ii": ii, **options} if ii is not None else options)

    def unroll(self, loop: str, factor: int | None = None, **options: Any) -> Schedule:
        """Unroll a loop fully, or by `factor`. Options: off, skip_exit_check."""
        return self._call("unroll", (loop,), {"factor": factor, **options})

    def loop_tripcount(self, loop: str, min: int, max: int, avg: int | None = None) -> Schedule:  # noqa: A002
        return self._call("loop_tripcount", (loop, min, max), {"avg": avg})

    def loop_flatten(self, loop: str, off: bool = False) -> Schedule:
        return self._call("loop_flatten", (loop,), {"off": off})

    def array_partition(self, array: str, type: str | None = None, factor: int | None = None,  # noqa: A002
                        dim: int = 1, *, kind: str | None = None) -> Schedule:
        """Split an array into banks: type (or kind) complete, cyclic or block; `dim` 0 means every one."""
        if type is not None and kind is not None and type != kind:
            raise ScheduleError(f"array_partition: type={type!r} and kind={kind!r} disagree", caller_loc())
        return self._call("array_partition", (array,), {"type": type or kind or "complete", "factor": factor,
                                                         "dim": dim})

    partition = array_partition

    def bind_storage(self, array: str, type: str, impl: str | None = None,  # noqa: A002
                     latency: int | None = None) -> Schedule:
        return self._call("bind_storage", (array, type), {"impl": impl, "latency": latency})

    def interface(self, array: str, mode: str, **options: Any) -> Schedule:
        return self._call("interface", (array, mode), options)

    def dataflow(self, function: str | None = None) -> Schedule:
        return self._call("dataflow", (function,), {})

    def inline(self, function: str | None = None, off: bool = False, recursive: bool = False) -> Schedule:
        return self._call("inline", (function,), {"off": off, "recursive": recursive})

    def stream(self, fifo: str, depth: int) -> Schedule:
        """The depth of a local FIFO (`hls.stream(T, depth=...)`)."""
        return self._call("stream", (fifo, depth), {})

    # ---- loop transformations -----------------------------------------------------------------------

    def split(self, loop: str, factor: int, tail: bool = False) -> Schedule:
        """`loop` -> `<label>_outer` over `<label>_inner` (factor iterations); `tail=True` adds
        `<label>_tail` for a remainder, which is otherwise an error."""
        return self._call("split", (loop, factor), {"tail": tail})

    def tile(self, loops: list[str], factors: list[int]) -> Schedule:
        """Split each loop of a perfect nest, then order the nest outer loops first, inner loops last."""
        return self._call("tile", tuple(list(x) if isinstance(x, (list, tuple)) else x for x in (loops, factors)), {})

    def reorder(self, *loops: str) -> Schedule:
        """Permute the loops of a perfect nest into this order, outermost first (also given as one list)."""
        if len(loops) == 1 and isinstance(loops[0], (list, tuple)):
            loops = tuple(loops[0])
        return self._call("reorder", loops, {})

    def fuse(self, first: str, second: str) -> Schedule:
        """Merge two adjacent loops of equal bounds into one (`<first>_<second>`)."""
        return self._call("fuse", (first, second), {})

    # ---- results ------------------------------------------------------------------------------------

    def build(self, directives_tcl: bool = False) -> ScheduledKernel:
        """A new kernel: the original's golden model, the C++/estimate/csim of the scheduled IR. With
        `directives_tcl`, the C++ carries the transformations (and dataflow, FIFO depths, interfaces) and
        its `directives_tcl` the other directives, located where the transformations left them. A
        partition that reached a sub-kernel from one call site but not alike from another is an error here."""
        check_partitioned_calls(self._working())
        return ScheduledKernel(self.kernel, tuple(self.records), directives_tcl)

    def to_json(self) -> str:
        return json.dumps({"kernel": self.kernel.__name__, "schedule": [r.to_dict() for r in self.records]},
                          indent=1)

    @classmethod
    def from_json(cls, kernel: Kernel, text: str | Path) -> Schedule:
        """The schedule `to_json` wrote (text, or a path to it), replayed and checked on `kernel`."""
        where = "schedule JSON"
        if isinstance(text, Path) or (isinstance(text, str) and looks_like_path(text, ".json")):
            where, text = str(text), read_schedule_file(text, "schedule")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScheduleError(f"{where}: not JSON ({exc})") from None
        records = data.get("schedule") if isinstance(data, dict) else data
        written_for = data.get("kernel") if isinstance(data, dict) else None
        if written_for is not None and written_for != kernel.__name__:  # same loop names would apply silently
            raise ScheduleError(f"{where}: the schedule was written for kernel {written_for!r}, not "
                                f"{kernel.__name__!r}; its names belong to that kernel")
        if not isinstance(records, list):
            raise ScheduleError(f"{where}: expected {{'kernel': ..., 'schedule': [records]}}")
        schedule = cls(kernel)
        for index, item in enumerate(records):
            record = record_from_dict(item, f"{where}, record {index + 1}")
            try:
                schedule.add(record)
            except HLSError as exc:
                raise ScheduleError(f"{where}, record {index + 1} ({record}): {exc.message}") from None
        return schedule

    def from_tcl(self, text_or_path: str | Path) -> Schedule:
        """Add the directives of Vitis `set_directive_*` lines (text, or a directives.tcl path); returns self."""
        records, _, moved = read_tcl(text_or_path)
        for record in records:
            try:
                self.add(record)
            except ScheduleNameError as exc:
                if moved is None or any(r.op in TRANSFORMS for r in self.records):
                    raise
                raise ScheduleNameError(exc.message, exc.loc, (*exc.notes, (
                    f"the file was written after the loop transformations {moved}, which a directives file "
                    "cannot hold: make them first, then read it (hls.customize(k).<transformations>.from_tcl(...))"
                ))) from None
        return self

    def to_tcl(self) -> str:
        """The schedule's directives as `set_directive_*` lines (locations `top/LABEL`, as Vitis writes them)."""
        return directives_file(self.kernel, self.records)

    def explain(self, **report_options: Any) -> str:
        """The estimate after each primitive in order: latency, interval, resources, and the loops whose
        II or limiter changed (hls/customize/explain.py). Printed, and returned."""
        text = explain(self, **report_options)
        print(text)
        return text

    def __repr__(self) -> str:
        body = "".join(f"\n  .{r}" for r in self.records)
        return f"hls.customize({self.kernel.__name__}){body}"


def customize(kernel: Kernel) -> Schedule:
    """A schedule over `kernel`: directives and loop transformations by name, apart from its source."""
    return Schedule(kernel)
