"""Where AXI-stream packets (`hls.axis[...]`, hls/lang/axis.py) may appear in a kernel.

A packet is a struct, so reading, building and copying one is the struct code's work
(hls/frontend/structs.py). What is particular is where it may go: a packet is one beat of an
AXI4-Stream, so it travels in streams (`hls.stream[hls.axis[T]]` parameters and local
`hls.stream(hls.axis[T], depth=N)` FIFOs) and lives in locals between a read and a write. As a plain
argument, a result or an array element it would be an ordinary record, with none of the TLAST/TKEEP
signals it is for: those uses are errors at the line, naming the stream form.
"""

from __future__ import annotations

import ast
from typing import Any

from hls.errors import UnsupportedError
from hls.lang.axis import AxisType
from hls.types import ArrayType
from hls.wording import type_expr


def check_packet_use(b: Any, t: Any, what: str, node: ast.AST) -> Any:
    """`t` unchanged when a packet type is allowed where `what` names; else an error at `node` (`b`, the
    function builder, makes it; no import of it here, as hls.frontend.base imports this module)."""
    if isinstance(t, ArrayType) and isinstance(t.elem, AxisType) or what == "array element" and isinstance(t, AxisType):
        packet = t.elem if isinstance(t, ArrayType) else t
        raise b.error(f"{what}: arrays of AXI-stream packets ({packet}) are not supported; a packet travels in a "
                      f"stream (hls.stream[{type_expr(packet)}]), or keep its data in an array of "
                      f"{type_expr(packet.data)}", node, UnsupportedError)
    if isinstance(t, AxisType) and (what.startswith("argument") or "return type" in what):
        raise b.error(f"{what}: an AXI-stream packet ({t}) is one beat of a stream; annotate the stream "
                      f"(hls.stream[hls.axis[...]]) and read or write packets on it, or use an @hls.struct for a "
                      "plain record", node, UnsupportedError)
    return t
