"""Stream (FIFO) ops. None is pure: a read consumes an item and a status check sees the other
process's progress, so DCE and CSE must keep every one of them, in order."""

from __future__ import annotations

from hls.errors import Loc
from hls.ir.core import Op, Value
from hls.types import BoolType, ScalarType, StreamType

STATUS_KINDS = ("empty", "full")


def _stream(op: Op, value: Value) -> None:
    if not isinstance(value.type, StreamType):
        raise op.fail(f"expects a stream, got {value.type}")


class StreamOp(Op):
    """A local FIFO of a dataflow region: `s = hls.stream(T, depth=N)`."""

    name = "hls.stream"

    def __init__(self, type: StreamType, name: str | None = None, loc: Loc | None = None):
        super().__init__([], [type], loc=loc, result_names=[name])

    def verify(self) -> None:
        if not isinstance(self.result.type, StreamType) or self.result.type.depth < 1:
            raise self.fail("a local stream needs a stream type with a positive depth")


class StreamReadOp(Op):
    """Blocking read: waits while the FIFO is empty."""

    name = "hls.stream_read"

    def __init__(self, stream: Value, loc: Loc | None = None):
        elem = stream.type.elem if isinstance(stream.type, StreamType) else stream.type
        super().__init__([stream], [elem], loc=loc)

    @property
    def stream(self) -> Value:
        return self.operands[0]

    def verify(self) -> None:
        _stream(self, self.stream)
        if self.result.type != self.stream.type.elem:
            raise self.fail(f"reads {self.result.type} from {self.stream.type}")


class StreamWriteOp(Op):
    """Blocking write of a value already converted to the element type: waits while the FIFO is full."""

    name = "hls.stream_write"

    def __init__(self, value: Value, stream: Value, loc: Loc | None = None):
        super().__init__([value, stream], [], loc=loc)

    @property
    def value(self) -> Value:
        return self.operands[0]

    @property
    def stream(self) -> Value:
        return self.operands[1]

    def verify(self) -> None:
        _stream(self, self.stream)
        if self.value.type != self.stream.type.elem:
            raise self.fail(f"writes {self.value.type} into {self.stream.type}")


class StreamStatusOp(Op):
    """`s.empty()` / `s.full()`: never blocks."""

    name = "hls.stream_status"

    def __init__(self, kind: str, stream: Value, loc: Loc | None = None):
        super().__init__([stream], [BoolType()], attrs={"kind": kind}, loc=loc)

    @property
    def kind(self) -> str:
        return self.attrs["kind"]

    @property
    def stream(self) -> Value:
        return self.operands[0]

    def verify(self) -> None:
        _stream(self, self.stream)
        if self.kind not in STATUS_KINDS:
            raise self.fail(f"unknown status {self.kind!r}")


class StreamReadNbOp(Op):
    """Non-blocking read: results (ok, value); the value is the element type's zero when not ok."""

    name = "hls.stream_read_nb"

    def __init__(self, stream: Value, loc: Loc | None = None, names: tuple[str | None, str | None] = (None, None)):
        elem = stream.type.elem if isinstance(stream.type, StreamType) else stream.type
        super().__init__([stream], [BoolType(), elem], loc=loc, result_names=list(names))

    @property
    def stream(self) -> Value:
        return self.operands[0]

    def verify(self) -> None:
        _stream(self, self.stream)
        if self.results[1].type != self.stream.type.elem:
            raise self.fail(f"reads {self.results[1].type} from {self.stream.type}")


class StreamWriteNbOp(Op):
    """Non-blocking write: result ok (False when the FIFO was full and nothing was written)."""

    name = "hls.stream_write_nb"

    def __init__(self, value: Value, stream: Value, loc: Loc | None = None):
        super().__init__([value, stream], [BoolType()], loc=loc)

    @property
    def value(self) -> Value:
        return self.operands[0]

    @property
    def stream(self) -> Value:
        return self.operands[1]

    def verify(self) -> None:
        _stream(self, self.stream)
        if not isinstance(self.value.type, ScalarType) or self.value.type != self.stream.type.elem:
            raise self.fail(f"writes {self.value.type} into {self.stream.type}")


STREAM_ACCESSES = (StreamReadOp, StreamWriteOp, StreamReadNbOp, StreamWriteNbOp)
STREAM_WRITES = (StreamWriteOp, StreamWriteNbOp)
STREAM_OPS = (StreamOp, *STREAM_ACCESSES, StreamStatusOp)  # every op on a FIFO, the declaration included
