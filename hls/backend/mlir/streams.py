"""Streams in the MLIR export. No upstream dialect has a FIFO, so a stream is a `memref<?xT>` (its
storage) and every FIFO operation is a call of an external function declared once per element type:
`func.call @hls_stream_read_i16(%s) : (memref<?xi16>) -> i16`, likewise write, empty, full, read_nb
and write_nb. A local FIFO is `memref.alloca` of its depth with an `hls.stream` attribute. The
meaning (blocking, depth, dataflow concurrency) lives in those names and attributes, as directives do.
"""

from __future__ import annotations

from hls.backend.mlir.builder import Builder, Emitter, mlir_type, unsupported
from hls.ir import Module
from hls.ir.stream_ops import BLOCK_OPS, STREAM_OPS, STREAM_WRITES, StreamOp
from hls.types import BoolType, StreamType


def stream_type(t: StreamType) -> str:
    return mlir_type(t)


def _signature(kind: str, t: StreamType) -> tuple[list[str], list[str]]:
    """(argument types, result types) of the external function for one FIFO operation."""
    s, e = stream_type(t), mlir_type(t.elem)
    return {"read": ([s], [e]), "write": ([s, e], []), "empty": ([s], ["i1"]), "full": ([s], ["i1"]),
            "read_nb": ([s], ["i1", e]), "write_nb": ([s, e], ["i1"])}[kind]


def _name(kind: str, t: StreamType) -> str:
    return f"hls_stream_{kind}_{mlir_type(t.elem)}"


def declarations(b: Builder, module: Module) -> None:
    """`func.func private @hls_stream_<op>_<type>(...)` for every FIFO operation the design uses."""
    seen: set[str] = set()
    for func in module.functions.values():
        for op in func.walk():
            if isinstance(op, BLOCK_OPS):
                raise unsupported(op, "a stream of blocks: its locks hand a whole array over, which the stream "
                                  "calls of this export do not spell")
            if isinstance(op, STREAM_OPS) and not isinstance(op, StreamOp):
                kind, t = op.method, op.stream.type
                name = _name(kind, t)
                if name not in seen:
                    seen.add(name)
                    args, results = _signature(kind, t)
                    result = f" -> ({', '.join(results)})" if results else ""
                    b.line(f"func.func private @{name}({', '.join(args)}){result}")


def stream_op(e: Emitter, op) -> None:
    b = e.b
    if isinstance(op, StreamOp):
        t = op.result.type
        depth = b.index_const(t.depth)
        e.values[id(op.result)] = b.op(f"memref.alloca({depth})", "", stream_type(t), op.result.name,
                                       {"hls.stream": {"depth": t.depth}})
        return
    kind, t = op.method, op.stream.type
    args, results = _signature(kind, t)
    operands = [e.operand(op.stream)] + ([e.operand(op.value)] if isinstance(op, STREAM_WRITES) else [])
    call = f"func.call @{_name(kind, t)}({', '.join(operands)})"
    types = f" : ({', '.join(args)}) -> ({', '.join(results)})"
    if not results:
        b.line(call, types)
        return
    names = [b.fresh(r.name or ("ok" if isinstance(r.type, BoolType) else "item")) for r in op.results]
    b.line(f"{', '.join(names)} = {call}", types)
    for r, n in zip(op.results, names, strict=True):
        e.values[id(r)] = n
