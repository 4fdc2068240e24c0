"""`@hls.task` kernels: a body that runs forever on streams (UG1399 `hls::task`), checked at the line.

A task's arguments are streams only: it is started once and then runs whenever data is in its input
FIFOs, so it has no call to take an array or a scalar from, and no return value to give back (UG1399
"HLS Task Library": tasks with only streaming I/O; the stable scalars and m_axi pointers of "Support
of Scalars/Memory Interfaces in DTLP" are not modelled here). In a dataflow region a call of a task
is one process, instantiated once; anywhere else (in a loop, a branch, a plain body) a task call is
refused, since nothing would ever return from it.
"""

from __future__ import annotations

import ast

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext
from hls.ir import CallOp, Function, Op, StreamReadOp
from hls.types import HLSType, StreamType


def check_task_signature(ctx: BuildContext, tree: ast.FunctionDef, types: list[HLSType],
                         ret: HLSType | None) -> None:
    """Every argument a stream, no result, no dataflow region of its own."""
    for arg, t in zip(tree.args.args, types, strict=False):
        if not isinstance(t, StreamType):
            raise ctx.error(f"task {ctx.src.name!r}: argument {arg.arg!r} is {t}; a task's arguments are streams "
                            "(hls.stream[T]): it runs forever on the data they carry and is never called again to "
                            "take an array or a scalar (use @hls.kernel for a process with memory arguments)",
                            arg.annotation or arg, HLSTypeError)
    if ret is not None:
        raise ctx.error(f"task {ctx.src.name!r} returns {ret}: a task never returns; write results to an output "
                        "stream", tree.returns or tree, HLSTypeError)


def refuse_task_region(ctx: BuildContext, stmt: ast.stmt) -> None:
    raise ctx.error(f"task {ctx.src.name!r} holds a dataflow region: a task body is one iteration of a process "
                    "that runs forever; make it a kernel that instantiates tasks instead", stmt, UnsupportedError)


def refuse_task_call(ctx: BuildContext, name: str, node: ast.AST) -> None:
    raise ctx.error(f"task {name!r} called outside a dataflow region: a task runs forever, so it can only be "
                    "instantiated as one process of a hls.dataflow() region (a statement of its own, not in a "
                    "loop or a branch)", node, UnsupportedError)


def refuse_nested_tasks(ctx: BuildContext, stmt: ast.stmt, ops: list[Op]) -> None:
    """A process that calls a kernel whose own region instantiates tasks: refused (Python mode and csim
    end tasks only with the outermost region, where idling on empty inputs is the normal end)."""
    for op in (inner for top in ops for inner in top.walk()):
        callee = ctx.module.functions.get(op.callee) if isinstance(op, CallOp) else None
        if callee is not None and not op.attrs.get("task") \
                and any(isinstance(o, CallOp) and o.attrs.get("task") for o in callee.walk()):
            raise ctx.error(f"{op.callee!r} instantiates tasks in its dataflow region and is called from a process "
                            "of another region: tasks are supported in the outermost region only; instantiate "
                            "them here instead", stmt, UnsupportedError)


def check_task_reads(ctx: BuildContext, func: Function) -> None:
    """A task must block on a read somewhere: one that never does never idles (Python mode and csim
    would spin for ever, hardware would run without input)."""
    seen: set[str] = set()

    def reads(f: Function) -> bool:
        for op in f.walk():
            if isinstance(op, StreamReadOp):
                return True
            if isinstance(op, CallOp) and op.callee not in seen and op.callee in ctx.module.functions:
                seen.add(op.callee)
                if reads(ctx.module.functions[op.callee]):
                    return True
        return False

    if not reads(func):
        raise ctx.error(f"task {ctx.src.name!r} never blocks on a read (s.read()): a task runs its body again "
                        "whenever an input holds data, so it must wait on one; without a blocking read it would "
                        "never idle", ctx.src.tree, UnsupportedError)
