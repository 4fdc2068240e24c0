"""The directives a schedule applies to a kernel's source, not its IR: `dataflow(f)`, `inline(f)` and
`stream(fifo, depth)`.

A dataflow region is more than a pragma: the frontend checks its processes and FIFOs statement by
statement, Python mode runs its processes concurrently, the estimate times it from their trace, and a
FIFO's depth bounds both. So these records are applied where the inline statements would be read: the
kernel's parsed source gets the `hls.dataflow()` / `hls.inline()` statement at the top of the function
body (after a docstring), or the `depth=` of the FIFO's `hls.stream(...)` declaration, before the
frontend reads it (hls/frontend/kernels.kernel_source calls `rewrite_source`). A record on a callee
swaps, in its caller's namespace, the callee for a kernel carrying the same rewrite, so its C++, its
Python-mode run and its checks are those of the inline spelling too. Everything downstream is then the
inline statements' own: the same C++, estimate, report and legality errors.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from hls.customize.names import resolve_function, resolve_storage
from hls.customize.records import Record, ScheduleError
from hls.errors import HLSError
from hls.frontend.source import call_target
from hls.ir import CallOp, Module, StreamOp
from hls.ir.traits import process_of
from hls.lang.directives import dataflow, inline
from hls.types import StreamType

SOURCE_OPS = ("dataflow", "inline", "stream")
_STATEMENTS = {"dataflow": ("__hls_schedule_dataflow", dataflow), "inline": ("__hls_schedule_inline", inline)}


@dataclass
class SourcePlan:
    """The source records resolved to the functions they change: {function name: [(record, local name)]};
    `wrappers` keeps one rewritten kernel per callee, so every caller calls the same one."""

    edits: dict[str, list[tuple[Record, str | None]]] = field(default_factory=dict)
    wrappers: dict[int, Any] = field(default_factory=dict)
    applied: set[str] = field(default_factory=set)

    def check_applied(self) -> None:
        """Every function with edits was read through the rewrite: a callee reached by another spelling
        than its plain name (a renamed specialisation) would silently miss its directive."""
        for name, edits in self.edits.items():
            if name not in self.applied:
                record = edits[0][0]
                raise ScheduleError(f"{record}: sub-kernel {name!r} is not called by that name from its caller's "
                                    "source, so the schedule cannot give it the statement; write it inline there",
                                    record.loc)


def resolve_source_record(module: Module, record: Record) -> tuple[str, str | None]:
    """The function a source record changes and, for `stream`, the FIFO; its options checked at the call."""
    target = record.targets[0] if record.targets else None
    if record.op != "stream":
        from hls.customize.directives import checked_directive  # the inline statement's own option checks

        checked_directive(record, None)
        name = resolve_function(module, target, record.loc).name
        if record.op == "dataflow":
            _refuse_nested_region(module, name, record)
        return name, None
    func, value = resolve_storage(module, target, record.loc)
    depth = record.opts.get("depth")
    if not isinstance(value.type, StreamType) or not isinstance(getattr(value, "op", None), StreamOp):
        raise ScheduleError(f"stream sets the depth of a local FIFO (hls.stream), and {target!r} is not one",
                            record.loc)
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise ScheduleError(f"stream depth must be a positive integer, got {depth!r}", record.loc)
    return func.name, value.name


def _refuse_nested_region(module: Module, name: str, record: Record) -> None:
    """A schedule does not make a region of a function that is itself a process of a region: the rewritten
    callee's nested region ran apart from its caller's in Python mode (fuzz seed 2313000259), so the inline
    spelling, which does, is asked for instead."""
    for func in module.functions.values():
        for op in func.walk():
            if isinstance(op, CallOp) and op.callee == name and process_of(op) is not None:
                raise ScheduleError(f"{record}: {name!r} is process {process_of(op)!r} of the dataflow region of "
                                    f"{func.name!r}; a schedule does not nest a region in a process: write "
                                    f"hls.dataflow() at the top of {name!r} instead", record.loc)


def plan_of(module: Module, records: list[Record]) -> SourcePlan:
    plan = SourcePlan()
    for record in records:
        name, local = resolve_source_record(module, record)
        plan.edits.setdefault(name, []).append((record, local))
    return plan


def rewrite_source(src: Any, plan: SourcePlan, wrap: Any) -> None:
    """Apply the plan's edits of `src`'s function to its tree; swap its callees that have edits for the
    kernels `wrap(kernel)` makes."""
    if src.name in plan.edits:
        plan.applied.add(src.name)
    for record, local in plan.edits.get(src.name, []):
        if record.op == "stream":
            _set_depth(src, local, record.opts["depth"], record)
        else:
            _insert_statement(src, record)
    for name, value in list(src.namespace.items()):
        if getattr(value, "__hls_kernel__", None) is not None and getattr(value, "__name__", None) in plan.edits \
                and value.__name__ != src.name:
            key = id(value)
            if key not in plan.wrappers:
                plan.wrappers[key] = wrap(value)
            src.namespace[name] = plan.wrappers[key]


def _insert_statement(src: Any, record: Record) -> None:
    """`hls.dataflow()` / `hls.inline(...)` at the top of the body; where the kernel already has one, a
    dataflow stays as written and an inline takes the schedule's options (a later directive wins)."""
    name, function = _STATEMENTS[record.op]
    src.namespace[name] = function
    body = src.tree.body
    keywords = [ast.keyword(key, ast.Constant(value)) for key, value in record.options]
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and call_target(stmt.value.func, src) is function:
            stmt.value.keywords = [ast.copy_location(k, stmt.value) for k in keywords] \
                if record.op == "inline" else stmt.value.keywords
            for node in ast.walk(stmt):
                if not hasattr(node, "lineno"):
                    ast.copy_location(node, stmt)
            return
    start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str) else 0
    stmt = ast.Expr(ast.Call(ast.Name(name, ast.Load()), [], keywords))
    where = body[start] if start < len(body) else src.tree
    for node in ast.walk(stmt):
        ast.copy_location(node, where)
    body.insert(start, stmt)


def _set_depth(src: Any, fifo: str | None, depth: int, record: Record) -> None:
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == fifo and isinstance(node.value, ast.Call):
            call = node.value
            call.keywords = [k for k in call.keywords if k.arg != "depth"]
            call.args = call.args[:1]  # hls.stream(T, depth): the depth may be positional
            value = ast.copy_location(ast.Constant(depth), call)
            call.keywords.append(ast.keyword("depth", value))
            return
    raise ScheduleError(f"stream: the declaration of FIFO {fifo!r} (s = hls.stream(T, depth=...)) is not a plain "
                        "assignment the schedule can change", record.loc)


def located_at_call(exc: HLSError, record: Record) -> HLSError:
    """A frontend error a source record caused: the inline statement's own error, with a note naming the
    schedule's call."""
    if record.loc is None:
        return exc
    try:
        again = type(exc)(exc.message, exc.loc, (*exc.notes, f"applied by the schedule's {record} at {record.loc}"))
    except TypeError:  # an error class with its own constructor: keep it as raised
        return exc
    return again
