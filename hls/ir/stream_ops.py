"""Stream (FIFO) ops. None is pure: a read consumes an item and a status check sees the other
process's progress, so DCE and CSE must keep every one of them, in order."""

from __future__ import annotations

from typing import ClassVar

from hls.errors import Loc
from hls.ir.core import KindOp, Op, Value
from hls.types import BoolType, ScalarType, StreamType

STATUS_KINDS = ("empty", "full")
STREAM_METHODS = ("read", "write", *STATUS_KINDS, "read_nb", "write_nb")  # as hls::stream and hls.Stream spell them


def _stream(op: Op, value: Value) -> None:
    if not isinstance(value.type, StreamType):
        raise op.fail(f"expects a stream, got {value.type}")


class StreamOp(Op):
    """A local FIFO of a dataflow region: `s = hls.stream(T, depth=N)`."""

    name = "hls.stream"

    def __init__(self, type: StreamType, name: str | None = None, loc: Loc | None = None):
        super().__init__([], [type], loc=loc, result_names=[name])

    @property
    def origin(self) -> object:
        """Which FIFO of the unoptimised kernel this is a copy of (set by the scheduler's copies, as for arrays)."""
        return self.attrs.get("origin")

    def verify(self) -> None:
        if not isinstance(self.result.type, StreamType) or self.result.type.depth < 1:
            raise self.fail("a local stream needs a stream type with a positive depth")


class FifoOp(Op):
    """An operation on an existing FIFO (always the last operand); `method` is its hls::stream method."""

    method: ClassVar[str]
    is_fifo_access = True

    @property
    def stream(self) -> Value:
        return self.operands[-1]

    def verify(self) -> None:
        _stream(self, self.stream)


class _FifoRead(FifoOp):
    """A read: its last result is the item, of the stream's element type."""

    def __init__(self, stream: Value, flags: list[BoolType], loc: Loc | None, names: list[str | None]):
        elem = stream.type.elem if isinstance(stream.type, StreamType) else stream.type
        super().__init__([stream], [*flags, elem], loc=loc, result_names=names)

    def verify(self) -> None:
        super().verify()
        if self.results[-1].type != self.stream.type.elem:
            raise self.fail(f"reads {self.results[-1].type} from {self.stream.type}")


class _FifoWrite(FifoOp):
    """A write of a value already converted to the element type."""

    is_fifo_write = True

    def __init__(self, value: Value, stream: Value, results: list[BoolType], loc: Loc | None):
        super().__init__([value, stream], results, loc=loc)

    @property
    def value(self) -> Value:
        return self.operands[0]

    def verify(self) -> None:
        super().verify()
        if self.value.type != self.stream.type.elem:
            raise self.fail(f"writes {self.value.type} into {self.stream.type}")


class StreamReadOp(_FifoRead):
    """Blocking read: waits while the FIFO is empty."""

    name = "hls.stream_read"
    method = "read"

    def __init__(self, stream: Value, loc: Loc | None = None):
        super().__init__(stream, [], loc, [None])


class StreamWriteOp(_FifoWrite):
    """Blocking write: waits while the FIFO is full."""

    name = "hls.stream_write"
    method = "write"

    def __init__(self, value: Value, stream: Value, loc: Loc | None = None):
        super().__init__(value, stream, [], loc)


class StreamStatusOp(FifoOp, KindOp):
    """`s.empty()` / `s.full()`: never blocks."""

    name = "hls.stream_status"
    kinds = STATUS_KINDS
    kind_word = "status"

    def __init__(self, kind: str, stream: Value, loc: Loc | None = None):
        super().__init__([stream], [BoolType()], attrs={"kind": kind}, loc=loc)

    @property
    def method(self) -> str:  # type: ignore[override]
        return self.kind

    def verify(self) -> None:
        FifoOp.verify(self)
        KindOp.verify(self)


class StreamReadNbOp(_FifoRead):
    """Non-blocking read: results (ok, value); the value is the element type's zero when not ok."""

    name = "hls.stream_read_nb"
    method = "read_nb"

    def __init__(self, stream: Value, loc: Loc | None = None, names: tuple[str | None, str | None] = (None, None)):
        super().__init__(stream, [BoolType()], loc, list(names))


class StreamWriteNbOp(_FifoWrite):
    """Non-blocking write: result ok (False when the FIFO was full and nothing was written)."""

    name = "hls.stream_write_nb"
    method = "write_nb"

    def __init__(self, value: Value, stream: Value, loc: Loc | None = None):
        super().__init__(value, stream, [BoolType()], loc)

    def verify(self) -> None:
        super().verify()
        if not isinstance(self.value.type, ScalarType):
            raise self.fail(f"writes {self.value.type} into {self.stream.type}")


STREAM_ACCESSES = (StreamReadOp, StreamWriteOp, StreamReadNbOp, StreamWriteNbOp)
STREAM_WRITES = (StreamWriteOp, StreamWriteNbOp)
STREAM_OPS = (StreamOp, *STREAM_ACCESSES, StreamStatusOp)  # every op on a FIFO, the declaration included
