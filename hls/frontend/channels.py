"""Feedback between the processes of a dataflow region: a channel read by a process earlier in call
order than the process that writes it.

UG1399 "Modeling Feedback in Dataflow Regions": a ping-pong (PIPO) buffer flows only forward in the
call sequence, so a local array read before a later process writes it is refused (a kernel argument
read by one process and written by a later one is an input read at the start and an output written
at the end, as UG1399 recommends). Through a FIFO the
feedback is possible under two rules of the same section: the reader must not block on the FIFO
before the writer has produced anything (it tests `empty()` or reads with `read_nb()`), and the FIFO
must hold what the writer produces in one invocation (under ap_ctrl_chain the writer finishes before
the reader can run again; a smaller depth needs a free-running region).
"""

from __future__ import annotations

import ast
from typing import Any

from hls.errors import HLSTypeError
from hls.frontend.base import BuildContext
from hls.ir import BlockArg, Value
from hls.ir.usage import Usage
from hls.types import StreamType

RULE = 'UG1399 "Modeling Feedback in Dataflow Regions"'


def check_feedback(ctx: BuildContext, stmt: ast.stmt, name: str, used: Usage,
                   later: list[tuple[Any, ...]], later_used: list[Usage],
                   writers: dict[Value, str]) -> None:
    """Refuse a channel process `name` reads that only a later process writes, unless it is a FIFO
    kept by UG1399's feedback rules."""
    for (_, writer, *_), theirs in zip(later, later_used, strict=True):
        for array in sorted(used.array_reads & theirs.array_writes, key=lambda v: v.name or ""):
            if array not in writers and array not in used.array_writes and not isinstance(array, BlockArg):
                raise ctx.error(f"process {name!r} reads array {array.name!r} before process {writer!r} writes it: "
                                f"a ping-pong buffer flows only forward in call order ({RULE}); call {writer!r} "
                                "first, or pass the data back through a FIFO read with read_nb()", stmt, HLSTypeError)
        for stream in used.reads.keys() & theirs.writes.keys():
            check_backward_fifo(ctx, stmt, name, writer, stream, used, theirs.writes[stream])


def check_backward_fifo(ctx: BuildContext, stmt: ast.stmt, reader: str, writer: str, stream: Value, used: Usage,
                        written: int | None) -> None:
    """A FIFO from a later process back to an earlier one: non-blocking reads, depth for one invocation."""
    what = f"FIFO {stream.name!r} goes back from process {writer!r} to the earlier process {reader!r}"
    if stream in used.blocking_reads:
        raise ctx.error(f"{what}, which reads it with read(): in a feedback loop the reader must not block before "
                        f"the writer has run ({RULE}); test it with empty() or read it with read_nb(), or reorder "
                        "the processes so the data flows forward", stmt, HLSTypeError)
    depth = stream.type.depth if isinstance(stream.type, StreamType) else None
    if written is not None and depth is not None and depth < written:
        raise ctx.error(f"{what} with depth {depth}, but {writer!r} writes {written} items in one run: a feedback "
                        f"FIFO holds everything its writer produces before the reader runs again ({RULE}); declare "
                        f"it with depth={written}", stmt, HLSTypeError)
