"""Directive records applied to an IR module: the same IR fields and ops the inline statements make.

A loop directive sets the loop's typed field (`ForOp.pipeline`, ...), a pipeline on a function the
function's; an array directive is an `hls.directive` op placed where the inline statement would stand
(after the kernel's leading directives for an argument, after the declaration for a local); dataflow,
inline and FIFO depths are applied to the source instead (hls/customize/source.py). So a schedule and
the same directives written inline give the same IR, hence the same C++ and estimate. The options are
checked by the frontend's own checks (hls/frontend/pragmas.py), located at the schedule's call. A
partition follows its array into every sub-kernel the array is passed to, so the callee's port is split
the same way.
"""

from __future__ import annotations

import inspect
from typing import Any

from hls.customize.names import resolve_function, resolve_loop, resolve_storage
from hls.customize.records import Record, ScheduleError
from hls.errors import HLSTypeError, Loc
from hls.frontend.pragmas import CHECKS, Pragmas
from hls.ir import AllocOp, BlockArg, CallOp, DirectiveOp, Function, Module, Value, WhileOp
from hls.lang.directives import DIRECTIVE_TYPES, DIRECTIVES, LOOP_DIRECTIVES, LOOP_FIELDS, Directive, Partition
from hls.types import ArrayType, StreamType


class _CheckContext:
    """What the frontend's option checks read from their build context: the location, `error`, and the
    loop the directive goes on (`loops`, innermost last: the unroll size check reads it)."""

    def __init__(self, loc: Loc | None, loop: Any = None) -> None:
        self.loc = loc
        self.loops = [] if loop is None else [loop]

    def error(self, message: str, node: Any = None, cls: type = HLSTypeError) -> Exception:
        return cls(message.replace("hls.", "", 1), self.loc)


def checked_directive(record: Record, var: Value | None, loop: Any = None) -> Any:
    """The directive dataclass of a record, its options checked as the inline statement's are."""
    params = inspect.signature(DIRECTIVES[record.op]).parameters
    options = {name: p.default for name, p in params.items() if p.default is not inspect.Parameter.empty}
    options.update(record.opts)
    if var is not None:
        options["var"] = var
    check = CHECKS.get(record.op)
    if check is not None:
        getattr(Pragmas(_CheckContext(record.loc, loop), None), check)(options)  # type: ignore[arg-type]
    options.pop("var", None)
    return DIRECTIVE_TYPES[record.op](**options)


def apply_directive(module: Module, record: Record) -> Directive:
    """Apply one directive record to `module`; returns the directive object it placed (the IR holds that
    object itself wherever a later transformation moves or copies it)."""
    target = record.targets[0] if record.targets else None
    if record.op in LOOP_DIRECTIVES:
        return _loop_directive(module, record, target)
    else:
        if record.op == "interface":
            _refuse_scalar_port(module, target, record.loc)
        func, value = resolve_storage(module, target, record.loc)
        if not isinstance(value.type, ArrayType):
            raise ScheduleError(f"{record.op} needs an array, and {target!r} is a {value.type}", record.loc)
        if record.op == "interface" and not (isinstance(value, BlockArg) and value.block is func.body.block):
            raise ScheduleError(f"interface applies to kernel arguments only, and {target!r} is a local array",
                                record.loc)
        directive = checked_directive(record, value)
        _place(func, value, DirectiveOp(directive, value, record.loc))
        if isinstance(directive, Partition):
            _follow_calls(module, func, value, directive, record.loc)
        return directive


def _refuse_scalar_port(module: Module, target: Any, loc: Loc | None) -> None:
    """`set_directive_interface -mode s_axilite "top" n` (a scalar) or `... return`, as Vitis users write them:
    hls.interface sets array and stream ports only (the flow sets the scalar and return ports), so say that
    rather than that there is no array `n`."""
    if not isinstance(target, str):
        return
    parts = target.split("/")
    func = module.functions.get(parts[0]) if len(parts) == 2 else module.top_function
    if func is None:
        return
    name = parts[-1]
    scalar = name == "return" or any(arg.name == name and not isinstance(arg.type, (ArrayType, StreamType))
                                     for arg in func.args)
    if scalar:
        what = "the return port" if name == "return" else f"scalar argument {name!r}"
        raise ScheduleError(f"interface: {what} of {func.name!r} keeps the protocol the kernel's flow gives it"
                            "; hls.interface sets the ports of array and stream arguments only", loc)


def _loop_directive(module: Module, record: Record, target: Any) -> Directive:
    if record.op == "pipeline" and (target is None or target in module.functions):
        func = resolve_function(module, target, record.loc)
        func.attrs["pipeline"] = checked_directive(record, None)
        return func.attrs["pipeline"]
    ref = resolve_loop(module, target, record.loc)
    directive = checked_directive(record, None, ref.op)
    if record.op == "unroll" and isinstance(ref.op, WhileOp) and not directive.off:
        raise ScheduleError(f"unroll: {ref.path} is a while loop, which cannot be unrolled", record.loc)
    ref.op.attrs[LOOP_FIELDS[record.op]] = directive  # a later directive replaces an earlier one
    return directive


def _insert_leading(func: Function, op: DirectiveOp) -> None:
    """After the directive ops a kernel body starts with: where the inline statements would stand."""
    block = func.body.block
    index = 0
    while index < len(block.ops) and isinstance(block.ops[index], DirectiveOp):
        index += 1
    block.insert(index, op)


def _place(func: Function, value: Value, op: DirectiveOp) -> None:
    if isinstance(value, BlockArg):
        _insert_leading(func, op)
        return
    alloc: AllocOp = value.op  # type: ignore[attr-defined]
    block = alloc.parent
    index = block.ops.index(alloc) + 1
    while index < len(block.ops) and isinstance(block.ops[index], DirectiveOp) and block.ops[index].target is value:
        index += 1
    block.insert(index, op)


def _follow_calls(module: Module, func: Function, value: Value, directive: Partition, loc: Loc | None) -> None:
    """The same partition on the port of every sub-kernel `value` is passed to, and on from there."""
    for call in [op for op in func.walk() if isinstance(op, CallOp) and value in op.operands]:
        callee = module.functions[call.callee]
        for index, operand in enumerate(call.operands):
            if operand is not value:
                continue
            port = callee.args[index]
            present = [op.directive for op in callee.walk()
                       if isinstance(op, DirectiveOp) and op.target is port and isinstance(op.directive, Partition)]
            if directive in present:
                continue
            followed = DirectiveOp(directive, port, loc)
            followed.attrs["followed"] = f"{func.name}/{value.name} -> {callee.name}/{port.name}"  # a report note
            _insert_leading(callee, followed)
            _follow_calls(module, callee, port, directive, loc)


def _partitions(func: Function, value: Value) -> list[Partition]:
    return sorted((op.directive for op in func.walk() if isinstance(op, DirectiveOp) and op.target is value
                   and isinstance(op.directive, Partition)), key=repr)


def _spelled(partitions: list[Partition]) -> str:
    return "; ".join(" ".join(f"{k}={v}" for k, v in p.options().items() if v is not None) for p in partitions) \
        or "not partitioned"


def check_partitioned_calls(module: Module) -> None:
    """Every call of a sub-kernel a partition followed an array into passes that port an array partitioned
    the same way: Vitis partitions a function's argument once, for all its callers."""
    calls = [(func, op) for func in module.functions.values() for op in func.walk() if isinstance(op, CallOp)]
    for callee in module.functions.values():
        for op in [op for op in callee.walk() if isinstance(op, DirectiveOp) and "followed" in op.attrs]:
            index = callee.args.index(op.target)
            sites = [(func, call, _partitions(func, call.operands[index])) for func, call in calls
                     if call.callee == callee.name]
            bad = next((site for site in sites if site[2] != sites[0][2]), None)
            if bad is not None:
                (gf, gc, want), (bf, bc, got) = sites[0], bad
                port = f"{callee.name}/{op.target.name}"
                raise ScheduleError(
                    f"array_partition: {callee.name} is called at {gc.loc} with {gf.name}/{gc.operands[index].name} "
                    f"({_spelled(want)}) and at {bc.loc} with {bf.name}/{bc.operands[index].name} ({_spelled(got)}); "
                    f"Vitis partitions the argument {port} once for every caller, so partition both arrays alike "
                    f"or call a separate sub-kernel from each site", op.loc)
