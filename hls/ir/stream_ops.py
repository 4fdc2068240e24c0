"""Stream (FIFO) ops. None is pure: a read consumes an item and a status check sees the other
process's progress, so DCE and CSE must keep every one of them, in order."""

from __future__ import annotations

from typing import ClassVar

from hls.errors import Loc
from hls.ir.core import KindOp, Op, Value
from hls.types import BlocksType, BoolType, ScalarType, StreamType

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


class BlocksOp(StreamOp):
    """A local FIFO of blocks: `buf = hls.stream_of_blocks(T[N], depth=D)` (a StreamOp, so what holds
    for a region's FIFO holds for it; the C++ spells it hls::stream_of_blocks<T[N]>)."""

    name = "hls.stream_of_blocks"

    def verify(self) -> None:
        if not isinstance(self.result.type, BlocksType) or self.result.type.depth < 1:
            raise self.fail("a stream of blocks needs a blocks type with a positive depth")


class BlockLockOp(FifoOp):
    """The start of a `with hls.write_lock(buf) as b:` (or read_lock): waits for a block and gives it as
    its result, an array the body loads from (and, for a write lock, stores into) until the
    BlockReleaseOp that ends the `with`."""

    def __init__(self, stream: Value, name: str | None = None, loc: Loc | None = None):
        block = stream.type.block if isinstance(stream.type, BlocksType) else stream.type
        super().__init__([stream], [block], loc=loc, result_names=[name])

    @property
    def origin(self) -> object:
        """Which lock of the unoptimised kernel this is a copy of (the scheduler's copies, as StreamOp.origin)."""
        return self.attrs.get("origin")

    def verify(self) -> None:
        if not isinstance(self.stream.type, BlocksType) or self.result.type != self.stream.type.block:
            raise self.fail(f"locks a block of {self.stream.type}")


class WriteLockOp(BlockLockOp):
    """hls::write_lock: waits while `depth` blocks are taken, gives a free block to fill."""

    name = "hls.write_lock"
    method = "write_lock"
    is_fifo_write = True


class ReadLockOp(BlockLockOp):
    """hls::read_lock: waits while no block is released, gives the oldest one to read."""

    name = "hls.read_lock"
    method = "read_lock"


class BlockReleaseOp(FifoOp):
    """The end of a lock's `with` (the C++ lock's destructor): the block goes to the other side."""

    name = "hls.release"
    method = "release"

    def __init__(self, lock: Value, stream: Value, loc: Loc | None = None):
        super().__init__([lock, stream], [], loc=loc)

    @property
    def lock(self) -> BlockLockOp:
        return self.operands[0].op

    def verify(self) -> None:
        super().verify()
        if not isinstance(getattr(self.operands[0], "op", None), BlockLockOp):
            raise self.fail("releases a value that is not a block lock")


STREAM_ACCESSES = (StreamReadOp, StreamWriteOp, StreamReadNbOp, StreamWriteNbOp, WriteLockOp, ReadLockOp)
STREAM_WRITES = (StreamWriteOp, StreamWriteNbOp, WriteLockOp)
BLOCK_OPS = (BlocksOp, WriteLockOp, ReadLockOp, BlockReleaseOp)
# every op on a FIFO, the declaration included
STREAM_OPS = (StreamOp, *STREAM_ACCESSES, StreamStatusOp, BlockReleaseOp)
