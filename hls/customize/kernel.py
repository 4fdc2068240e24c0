"""The kernel a schedule builds, and the one step both it and the schedule's checks run: a record applied
to an IR module."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from hls.customize.directives import apply_directive, check_partitioned_calls
from hls.customize.records import TRANSFORMS, Record
from hls.customize.source import SOURCE_OPS, SourcePlan, plan_of, resolve_source_record, rewrite_source
from hls.customize.tcl import directive_line, directive_options, record_tcl, schedule_tcl
from hls.customize.transforms import apply_transform
from hls.errors import HLSError
from hls.frontend.build import build_module
from hls.ir import DirectiveOp, Module, verify_module
from hls.kernel import Kernel
from hls.lang.directives import LOOP_FIELDS, Directive
from hls.schedule import Report


def apply_record(module: Module, record: Record) -> Directive | None:
    """One record's IR change (a directive field or op, or a loop transformation), then verify; returns the
    directive object a directive record placed. A source record (dataflow, inline, stream depth:
    hls/customize/source.py) is only checked here: the frontend applied it."""
    directive = None
    if record.op in SOURCE_OPS:
        resolve_source_record(module, record)
        return None
    if record.op in TRANSFORMS:
        apply_transform(module, record.op, record.targets, record.opts, record.loc)
    else:
        directive = apply_directive(module, record)
    verify_module(module)
    return directive


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


# What an export with directives="tcl" keeps in the C++ besides the transformations: a dataflow region and
# a FIFO's depth change what Python mode and the C++ simulation run (the region's processes run as threads,
# its FIFOs bounded by their depth), so the golden vectors and `make csim` of the project need them there;
# the C++ names every top port's protocol (the flow's default otherwise), and a Tcl interface on a port a
# pragma already names is a conflict Vitis refuses or resolves by ignoring one (UG1399 "Adding Pragmas and
# Directives"; VITIS_FACTS.md: the pragma beats Tcl), so a scheduled interface replaces the default there.
KEPT_IN_CPP = ("dataflow", "stream", "interface")


def directives_file(kernel: Kernel, records: Iterable[Record]) -> str:
    """The directives of `records` as a directives.tcl, each located in the IR the earlier records made
    (`to_tcl`: the schedule as data, for `from_tcl` after the same transformations)."""
    records = list(records)
    module, lines = fresh_module(kernel, ()), []
    for record in records:
        if record.op not in TRANSFORMS:
            lines.append(record_tcl(module, record))
        apply_record(module, record)
    return schedule_tcl(records, lines)


def take_out_directives(module: Module, records: list[Record]) -> list[str]:
    """Apply every record, then take the directives Vitis is to read from directives.tcl back out of the IR,
    as `set_directive_*` lines located where the transformations left them: a split loop's pipeline on its
    inner loop and its tail, a fused loop's on the fused one, a partition on every port it followed into.
    The C++ then has no pragma of theirs (nor the kernel's own that one replaced) for a Tcl line to conflict
    with, and no line names a loop the C++ no longer has."""
    placed: dict[int, tuple[int, Directive]] = {}
    lines: list[tuple[int, int, str]] = []
    for index, record in enumerate(records):
        directive = apply_record(module, record)
        if record.op in TRANSFORMS or record.op in KEPT_IN_CPP:
            continue
        if directive is None:  # inline: a function's statement, named as the record names it
            lines.append((index, len(lines), record_tcl(module, record)))
        else:
            placed[id(directive)] = (index, directive)
    check_partitioned_calls(module)

    def take(directive: Directive, where: list[str]) -> None:
        index, _ = placed[id(directive)]
        lines.append((index, len(lines), directive_line(directive.name, directive_options(directive), where)))

    for func in module.functions.values():
        if id(func.attrs.get("pipeline")) in placed:
            take(func.attrs["pipeline"], [f'"{func.name}"'])
            func.attrs["pipeline"] = None
        for op in list(func.walk()):
            for key in LOOP_FIELDS.values() if op.is_loop else ():
                if id(op.attrs.get(key)) in placed:
                    take(op.attrs[key], [f'"{func.name}/{op.label}"'])
                    op.attrs[key] = None
            if isinstance(op, DirectiveOp) and id(op.directive) in placed:
                take(op.directive, [f'"{func.name}"', op.target.name])
                op.parent.remove(op)
    verify_module(module)
    return [line for _, _, line in sorted(lines)]


class ScheduledKernel(Kernel):
    """A kernel with a schedule applied: the original's source, names and golden model; the C++,
    estimate and csim of its IR with the schedule's records applied (hls/compilation.py calls
    `rewrite_ir` between the frontend and the passes). With `tcl_directives`, its C++ carries the loop
    transformations (and KEPT_IN_CPP) only, its export a directives.tcl with the other directives, its
    estimate the whole schedule."""

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
        records = [r for r in self.records if r.op in SOURCE_OPS and (not self.tcl_directives or r.op in KEPT_IN_CPP)]
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
        if self.tcl_directives:
            take_out_directives(module, list(self.records))
        else:
            for record in self.records:
                apply_record(module, record)
            check_partitioned_calls(module)
        self.source_plan.check_applied()

    @property
    def directives_tcl(self) -> str | None:  # type: ignore[override]
        """The export's directives.tcl: the lines `take_out_directives` takes out of this kernel's C++."""
        if not self.tcl_directives:
            return None
        module, _, _ = build_module(self)
        return schedule_tcl(list(self.records), take_out_directives(module, list(self.records)), KEPT_IN_CPP)

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
