"""The kernel a schedule builds, and the one step both it and the schedule's checks run: a record applied
to an IR module."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from hls.customize.directives import apply_directive, check_partitioned_calls
from hls.customize.records import TRANSFORMS, Record
from hls.customize.source import SOURCE_OPS, SourcePlan, plan_of, resolve_source_record, rewrite_source
from hls.customize.tcl import record_tcl, schedule_tcl
from hls.customize.transforms import apply_transform
from hls.errors import HLSError
from hls.frontend.build import build_module
from hls.ir import Module, verify_module
from hls.kernel import Kernel
from hls.schedule import Report


def apply_record(module: Module, record: Record) -> None:
    """One record's IR change (a directive field or op, or a loop transformation), then verify. A source
    record (dataflow, inline, stream depth: hls/customize/source.py) is only checked here: the frontend
    applied it."""
    if record.op in SOURCE_OPS:
        resolve_source_record(module, record)
        return
    if record.op in TRANSFORMS:
        apply_transform(module, record.op, record.targets, record.opts, record.loc)
    else:
        apply_directive(module, record)
    verify_module(module)


def fresh_module(kernel: Kernel, records: Iterable[Record]) -> Module:
    """The kernel's IR as the frontend builds it from the source with `records`' source records applied,
    then their IR changes."""
    records = list(records)
    scheduled = ScheduledKernel(kernel, tuple(records))
    module, _, _ = build_module(scheduled if records else kernel)
    scheduled.source_plan.check_applied()
    verify_module(module)
    for record in records:
        apply_record(module, record)
    return module


def directives_file(kernel: Kernel, records: Iterable[Record]) -> str:
    """The directives of `records` as a directives.tcl, each located in the IR the earlier records made."""
    records = list(records)
    module, lines = fresh_module(kernel, ()), []
    for record in records:
        if record.op not in TRANSFORMS:
            lines.append(record_tcl(module, record))
        apply_record(module, record)
    return schedule_tcl(records, lines)


class ScheduledKernel(Kernel):
    """A kernel with a schedule applied: the original's source, names and golden model; the C++,
    estimate and csim of its IR with the schedule's records applied (hls/compilation.py calls
    `rewrite_ir` between the frontend and the passes). With `tcl_directives`, its C++ carries the loop
    transformations only, its export a directives.tcl with the directives, its estimate the whole schedule."""

    def __init__(self, base: Kernel, records: tuple[Record, ...], tcl_directives: bool = False):
        super().__init__(base.__hls_kernel__, base.flow)
        self.__hls_enclosing__ = dict(base.__hls_enclosing__)
        self.__hls_params__ = dict(base.__hls_params__)
        self.__name__ = base.__name__
        self.base = base
        self.records = tuple(records)
        self.tcl_directives = tcl_directives

    @functools.cached_property
    def source_plan(self) -> SourcePlan:
        """The source records resolved on the original kernel's IR (names as the schedule's checks read them)."""
        records = [r for r in self.records if r.op in SOURCE_OPS and not self.tcl_directives]
        if not records:
            return SourcePlan()
        module, _, _ = build_module(self.base)
        return plan_of(module, records)

    def rewrite_source(self, src: Any) -> None:
        """The frontend's hook: this kernel's source with the schedule's dataflow, inline and stream depths."""
        plan = self.source_plan
        if plan.edits:
            rewrite_source(src, plan, lambda callee: _SourceKernel(callee, plan))

    def rewrite_ir(self, module: Module) -> None:
        for record in self.records:
            if not (self.tcl_directives and record.op not in TRANSFORMS):
                apply_record(module, record)
        self.source_plan.check_applied()
        check_partitioned_calls(module)

    @property
    def directives_tcl(self) -> str | None:  # type: ignore[override]
        return directives_file(self.base, self.records) if self.tcl_directives else None

    def report(self, *args: Any, **kwargs: Any) -> Report:
        """The estimate of the whole schedule (directives included, wherever the export writes them)."""
        if self.tcl_directives:
            return ScheduledKernel(self.base, self.records).report(*args, **kwargs)
        return super().report(*args, **kwargs)

    def export(self, path: Any, *args: Any, directives: str = "inline", **kwargs: Any) -> Any:
        """As Kernel.export; `directives="tcl"` writes the schedule's directives as directives.tcl (sourced
        by run_hls.tcl) instead of pragmas in the C++."""
        if directives not in ("inline", "tcl"):
            raise HLSError(f"export(directives={directives!r}): 'inline' (pragmas in the C++) or 'tcl' "
                           "(a directives.tcl)")
        if directives == "tcl" and not self.tcl_directives:
            return ScheduledKernel(self.base, self.records, True).export(path, *args, **kwargs)
        return super().export(path, *args, **kwargs)


class _SourceKernel(Kernel):
    """A sub-kernel a schedule's source records change (`dataflow("sub")`): the callee as its caller's
    rewritten namespace calls it, so the C++, the checks and the Python-mode run read the rewrite."""

    def __init__(self, base: Kernel, plan: SourcePlan) -> None:
        super().__init__(base.__hls_kernel__, base.flow, base.is_task)
        self.__hls_enclosing__ = dict(base.__hls_enclosing__)
        self.__hls_params__ = dict(base.__hls_params__)
        self.__name__ = base.__name__
        self.plan = plan

    def rewrite_source(self, src: Any) -> None:
        rewrite_source(src, self.plan, lambda callee: _SourceKernel(callee, self.plan))
