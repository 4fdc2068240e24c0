"""Python-mode streams and dataflow regions: processes run as hardware runs them.

Each process of a region is a thread, but only one runs at a time: it holds the baton until it
blocks (a read on an empty FIFO, a write on a full one, or a wait for the processes it comes after)
or finishes; the baton then goes to the next process in program order that can move. So a run is
deterministic (the same interleaving every time, whatever the OS does with threads), every FIFO holds
at most its depth, and when no process can move the region is deadlocked: `hls.DeadlockError` lists
every blocked process with its FIFO and line. Nested regions (a process calling a dataflow sub-kernel)
add their processes to the same scheduler; the calling process waits for them.

Each process also records its trace: its FIFO accesses in program order and the loop iterations
around them, from which hls.schedule.dataflow times the region without running Python again.
"""

from __future__ import annotations

import collections
import sys
import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from hls.errors import DeadlockError, Loc, SimulationError
from hls.golden.runtime import GOLDEN_CODES, ArrayView, cast
from hls.lang.storage import provide
from hls.types import (
    BlocksType,
    FixedType,
    ScalarType,
    StreamType,
    StructType,
    is_block,
    stream_element,
    struct_type_of,
)


def _caller_loc() -> Loc | None:
    """The innermost kernel line on the current stack (the blocked or failing stream access)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code in GOLDEN_CODES or code.co_name.startswith("__hls_process_"):
            line, end_line, col, end_col = frame.f_lineno, None, 0, None
            if hasattr(code, "co_positions"):  # Python 3.11+: the column of the stream call
                line, end_line, col, end_col = list(code.co_positions())[frame.f_lasti // 2]
            return Loc(code.co_filename, line or frame.f_lineno, col or 0, end_col if end_line == line else None)
        frame = frame.f_back
    return None


def _where(loc: Loc | None) -> str:
    return f"{loc.file}:{loc.line}" if loc is not None else "?"


class Stream:
    """A FIFO of `elem` values. `hls.Stream(T, values)` is a top-level argument (unbounded; an input
    holds `values`, an output collects what the kernel writes); `hls.stream(T, depth=N)` inside a
    kernel makes a local FIFO of at most `depth` items."""

    def __init__(self, elem: ScalarType, values: Any = None, depth: int | None = None, name: str = "stream"):
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise TypeError(f"stream depth must be a positive integer, got {depth!r}")
        elem = stream_element(struct_type_of(elem) or elem)
        if elem is None:
            raise TypeError(f"hls.Stream takes a scalar hls type, an @hls.struct class or a 1-D array type, got "
                            f"{elem!r}")
        self.elem = elem
        self.depth = depth
        self.name = name
        self.items: collections.deque = collections.deque()
        self.reads = 0
        if values is not None:  # kept as given: a kernel's boundary checks and converts them (its codec)
            for value in values if isinstance(elem, StructType) else np.asarray(values).reshape(-1).tolist():
                self.items.append(elem.convert(value) if getattr(value, "__hls_struct_type__", None) else value)

    @classmethod
    def packets(cls, packet: Any, data: Any, **fields: Any) -> Stream:
        """An input stream of AXI-stream packets (`hls.axis[T]`) carrying `data` in order, with `last`
        set on the final packet unless given. Any other field (keep, strb, user, id, dest) is one value
        for every packet or one per packet; omitted ones take the packet type's defaults. Read a
        stream's fields back as arrays with `np.asarray(s)["data"]`, `np.asarray(s)["last"]`."""
        t = struct_type_of(packet)
        if t is None or t.field("data") is None or t.field("last") is None:
            raise TypeError(f"Stream.packets takes a packet class such as hls.axis[hls.int32], got {packet!r}")
        values = np.asarray(data, dtype=object).reshape(-1)
        columns = {"data": values, "last": np.arange(len(values)) == len(values) - 1}
        for name, value in fields.items():
            if t.field(name) is None or name == "data":
                raise TypeError(f"{t} has no field {name!r} to set{t.missing_hint(name)}" if name != "data" else
                                "give the data as Stream.packets' second argument")
            try:
                columns[name] = np.broadcast_to(np.asarray(value, dtype=object), values.shape)
            except ValueError:
                raise TypeError(f"field {name!r}: give one value or {len(values)} values (one per packet), got "
                                f"shape {np.shape(value)}") from None
        # mappings of the given field values: the kernel's boundary checks them (a packet would wrap)
        return cls(packet, [{n: c[i] for n, c in columns.items()} for i in range(len(values))])

    # ---- the kernel-side methods ----------------------------------------------------------------

    def read(self) -> Any:
        while not self.items:
            self._wait("empty")
        self.reads += 1
        _record(self, False)
        return self.items.popleft()

    def item(self, value: Any) -> Any:
        """`value` as the FIFO holds it: converted to the element type; for a FIFO of arrays a copy of the
        array written (the writer may change its array afterwards, the item keeps what was written)."""
        if not is_block(self.elem):
            return cast(self.elem, value)
        shape = self.elem.field("data").shape
        if not isinstance(value, ArrayView) or value.shape != shape:
            raise TypeError(f"{self.name} is a FIFO of {self.elem.field('data')} arrays; got {type(value).__name__}")
        return ArrayView(np.array(value.data, copy=True), value.elem, name=self.name)

    def write(self, value: Any) -> None:
        converted = self.item(value)
        while self.full():
            self._wait("full")
        _record(self, True)
        self.items.append(converted)

    def empty(self) -> bool:
        return not self.items

    def full(self) -> bool:
        return self.depth is not None and not UNBOUNDED[0] and len(self.items) >= self.depth

    def read_nb(self) -> tuple[bool, Any]:
        if not self.items:
            if is_block(self.elem):
                data = self.elem.field("data")
                return False, ArrayView(np.zeros(data.shape, data.elem.storage_dtype), data.elem, name=self.name)
            return False, self.elem.zero() if isinstance(self.elem, StructType) else self.elem.convert(0)
        return True, self.read()

    def write_nb(self, value: Any) -> bool:
        if self.full():
            return False
        self.write(value)
        return True

    def _wait(self, why: str) -> None:
        process = _current()
        loc = _caller_loc()
        if process is None or (why == "empty" and self.depth is None and not process.task):
            what = "top-level input stream" if self.depth is None else "stream"
            raise SimulationError(f"read from the empty {what} {self.name!r}: no process is left to write it"
                                  if why == "empty" else f"write to the full stream {self.name!r} outside a "
                                  "dataflow region: no process can read it", loc)
        process.scheduler.block(process, Blocked(self, why, loc))

    # ---- the Python side ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.items)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        items = [self.settled(v) for v in self.items]
        if isinstance(self.elem, StructType):
            return self.elem.to_storage(items)
        values = [float(v) if isinstance(self.elem, FixedType) else v for v in items]
        array = np.asarray(values, dtype=self.elem.storage_dtype) if values else \
            np.zeros(0, dtype=self.elem.storage_dtype)
        return array.astype(dtype) if dtype is not None else array

    def settled(self, item: Any) -> Any:
        """An item as the element type holds it, for Python-side views of a stream no kernel has
        checked yet (`hls.Stream(T, values)` keeps the values as given; a struct given field by field
        is built, and wraps, as its constructor does)."""
        if isinstance(item, dict):
            return self.elem.cls(**item)
        return self.elem.convert(item)

    def copy(self) -> Stream:
        twin = Stream(self.elem, depth=self.depth, name=self.name)
        twin.items.extend(self.items)
        return twin

    def __repr__(self) -> str:
        depth = f", depth={self.depth}" if self.depth is not None else ""
        return f"Stream({self.name}: {self.elem}{depth}, {len(self.items)} items)"


def wait_any(streams: list[Stream], why: str) -> None:
    """Block the current process until one of `streams` holds an item (`why` "empty") or has room ("full")."""
    process = _current()
    if process is None:
        raise SimulationError("hls.split / hls.merge outside a dataflow region", _caller_loc())
    process.scheduler.block(process, Blocked(streams[0], why, _caller_loc(), others=list(streams[1:])))


def local_stream(t: StreamType, name: str) -> Stream:
    """What `hls.stream(T, depth=N)` becomes in the golden model: a FIFO of the IR's type `t` (its
    element and depth, as the frontend decided them), named after its variable, prefixed by the
    processes of enclosing regions that declared it (`inner/q`)."""
    process = _current()
    prefix = process.scope if process is not None else ""
    return Stream(t.elem, depth=t.depth, name=prefix + name)


def local_stream_list(t: StreamType, name: str, count: int) -> list[Stream]:
    """`[hls.stream(T, depth=N) for _ in range(P)]` in the golden model: P FIFOs named `s[k]`."""
    return [local_stream(t, f"{name}[{k}]") for k in range(count)]


class BlockStream(Stream):
    """`hls.stream_of_blocks(T[N], depth=D)` in Python mode: `items` are the blocks the producer has
    released and the consumer not yet acquired, `held` the ones the consumer holds. A write lock waits
    while those two make `depth` (UG1399: the depth counts the producer's block too), a read lock while
    no block is released. The trace sees two FIFOs of `depth`: this one, written at the write lock's
    release and read at the read lock's acquire (when a block's data moves), and `slots` (`buf.held`),
    written at the write lock's acquire and read at the read lock's release (the blocks taken), so the
    timed simulation waits where the locks wait."""

    def __init__(self, t: BlocksType, name: str):
        super().__init__(t.elem, depth=t.depth, name=name)
        self.block = t.block
        self.held = 0
        self.slots = Stream(t.elem, depth=t.depth, name=f"{name}.held")

    def full(self) -> bool:
        return not UNBOUNDED[0] and len(self.items) + self.held >= self.depth


class BlockLock:
    """The `with hls.write_lock(buf) as b:` / `with hls.read_lock(buf) as b:` of Python mode."""

    def __init__(self, buf: BlockStream, write: bool):
        if not isinstance(buf, BlockStream):
            raise TypeError(f"hls.{'write' if write else 'read'}_lock takes a hls.stream_of_blocks, got {buf!r}")
        self.buf, self.write, self.view = buf, write, None

    def __enter__(self) -> ArrayView:
        buf = self.buf
        if self.write:
            while buf.full():
                buf._wait("full")
            _record(buf.slots, True)
            self.view = ArrayView(np.zeros(buf.block.shape, dtype=buf.elem.storage_dtype), buf.elem, name=buf.name)
            return self.view
        while not buf.items:
            buf._wait("empty")
        buf.held += 1
        buf.reads += 1
        _record(buf, False)
        self.view = buf.items.popleft()
        return ArrayView(self.view.data, buf.elem, readonly=True, name=buf.name)

    def __exit__(self, kind: Any, *rest: Any) -> bool:
        if kind is None and self.write:
            _record(self.buf, True)
            self.buf.items.append(self.view)
        elif kind is None:
            _record(self.buf.slots, False)
            self.buf.held -= 1
        return False


def local_blocks(t: BlocksType, name: str) -> BlockStream:
    """What `hls.stream_of_blocks(T[N], depth=D)` becomes in the golden model, named as local_stream names a FIFO."""
    process = _current()
    return BlockStream(t, (process.scope if process is not None else "") + name)


provide("stream_of_blocks")(lambda t: BlockStream(t, "stream_of_blocks"))
provide("write_lock")(lambda buf: BlockLock(buf, True))
provide("read_lock")(lambda buf: BlockLock(buf, False))


@provide("stream")
def new_stream(elem: ScalarType | StructType, depth: int) -> Stream:
    """`hls.stream(T, depth=N)` in Python mode (hls/lang/storage.py checks the arguments)."""
    return Stream(elem, depth=depth, name="stream")


# ---- the scheduler --------------------------------------------------------------------------------


@dataclass
class Blocked:
    stream: Stream | None  # None: waiting for other processes to finish
    why: str  # "empty", "full" or "after"
    loc: Loc | None
    waits_for: list[Process] = field(default_factory=list)
    others: list[Stream] = field(default_factory=list)  # a load-balancing split/merge: any of these will do

    def ready(self) -> bool:
        if self.stream is None:  # a nested region (or a hand-off) ends when its processes are done, its tasks idle
            return all(p.done or p.idle() for p in self.waits_for)
        streams = [self.stream, *self.others]
        return any(s.items for s in streams) if self.why == "empty" else any(not s.full() for s in streams)


class Abort(BaseException):
    """Unwinds a blocked process when the region ends in an error (never seen by users)."""


class Process:
    def __init__(self, scheduler: Scheduler, name: str, body: Any, scope: str, task: str = ""):
        self.scheduler = scheduler
        self.task = task  # a task's callee: it runs forever; waiting on an empty input is its idle state
        self.name = name
        self.body = body
        self.scope = scope
        self.resume = threading.Semaphore(0)
        self.blocked: Blocked | None = None
        self.done = False
        self.started = False
        self.aborting = False
        self.error: BaseException | None = None
        self.events: list[tuple] = []
        self.after: list[str] = []
        self.by_arrival = False  # a load-balance channel: where an item goes follows this run's interleaving
        self.thread = threading.Thread(target=self.main, name=f"hls-process-{name}", daemon=True)

    def idle(self) -> bool:
        """A task waiting on an empty input: what it does for ever once no data comes (not a deadlock)."""
        return bool(self.task) and self.blocked is not None and self.blocked.why == "empty" \
            and not self.blocked.ready()

    def main(self) -> None:
        _LOCAL.process = self
        self.resume.acquire()
        try:
            if not self.aborting:
                self.body()
        except Abort:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the scheduler's thread
            self.error = exc
        finally:
            self.done = True
            self.scheduler.baton.release()


class Scheduler:
    """One per outermost region: runs its processes (and nested regions' ones) one at a time."""

    def __init__(self) -> None:
        self.processes: list[Process] = []
        self.baton = threading.Semaphore(0)
        self.trace: dict[str, list[tuple]] = {}

    def block(self, process: Process, blocked: Blocked) -> None:
        process.blocked = blocked
        self.baton.release()
        process.resume.acquire()
        process.blocked = None
        if process.aborting:
            raise Abort

    def run(self, waiter: Process | None, group: list[Process]) -> None:
        """Start `group`; return when all of it is done. `waiter` (a process, for a nested region)
        blocks meanwhile; the outermost call drives the baton itself."""
        self.processes.extend(group)
        for process in group:
            process.thread.start()
        if waiter is not None:
            self.block(waiter, Blocked(None, "after", None, list(group)))
            return
        try:
            self.drive()
        finally:
            for process in self.processes:
                if not process.done:
                    process.aborting = True
                    process.resume.release()
                    process.thread.join()

    def drive(self) -> None:
        turn = 0
        while True:
            failed = next((p for p in self.processes if p.error is not None), None)
            if failed is not None:
                raise failed.error.with_traceback(failed.error.__traceback__)
            live = [p for p in self.processes if not p.done]
            if not live:
                return
            order = self.processes[turn:] + self.processes[:turn]
            chosen = next((p for p in order if not p.done and (p.blocked is None or p.blocked.ready())), None)
            if chosen is None and all(p.idle() for p in live):
                return  # every process left is a task waiting for input: the region's normal end
            if chosen is None:
                stuck = next((p for p in live if p.blocked is not None and not p.idle()), live[0])
                raise DeadlockError(deadlock_message(live), stuck.blocked.loc if stuck.blocked else None)
            turn = self.processes.index(chosen)
            chosen.started = True
            chosen.resume.release()
            self.baton.acquire()


def deadlock_message(live: list[Process]) -> str:
    lines = ["deadlock: no process of the dataflow region can move"]
    for process in live:
        blocked = process.blocked
        if blocked is None or blocked.stream is None:
            continue
        action = "reads the empty" if blocked.why == "empty" else "writes the full"
        depth = f" (depth {blocked.stream.depth})" if blocked.stream.depth is not None else ""
        idle = " (a task waiting for its next item)" if process.idle() else ""
        lines.append(f"  process {process.name!r} {action} FIFO {blocked.stream.name!r}{depth} at "
                     f"{_where(blocked.loc)}{idle}")
    if all(p.blocked is not None and p.blocked.why == "empty" for p in live):  # no FIFO is full: no depth helps
        lines.append("every process waits on an empty FIFO: a consumer reads more items than its producers write")
    else:
        lines.append("a FIFO too shallow for the data a process must write before another reads it deadlocks; "
                     "k.size_fifos() (a System: system.fifo_depths()) gives the depths that do not")
    return "\n".join(lines)


_LOCAL = threading.local()


def _current() -> Process | None:
    return getattr(_LOCAL, "process", None)


def run_dataflow(processes: list[tuple[str, Any, tuple[str, ...]]], local_streams: list[Stream]) -> None:
    """Run a region: `processes` are (name, body, names of the processes it comes after[, the callee
    when it is a task]) in program order. A process that reads an array another process writes starts
    when that one is done (the ping-pong buffer hand-off). Data left in a local FIFO at the end is an error."""
    parent = _current()
    scheduler = parent.scheduler if parent is not None else Scheduler()
    scope = parent.scope if parent is not None else ""
    group: list[Process] = []
    for name, body, after, *task in processes:
        waits = [p for p in group if p.name in after]
        callee = task[0] if task else ""
        process = Process(scheduler, scope + name, _after(waits, task_loop(callee, body) if callee else body),
                          f"{scope}{name}/", callee)
        process.after = [p.name for p in waits]
        group.append(process)
    scheduler.run(parent, group)
    if parent is None:
        TRACES.append(scheduler)
    for stream in (s for item in local_streams for s in (item if isinstance(item, list) else [item])):
        if stream.items:
            raise SimulationError(f"{len(stream.items)} item{'s' * (len(stream.items) != 1)} left in FIFO "
                                  f"{stream.name!r} when the dataflow region ended: its consumer reads fewer "
                                  "than its producer writes")


def task_loop(callee: str, body: Any) -> Any:
    """A task's process: its body again and again (hls::task), its iterations recorded as a loop keyed
    ("task", callee) for the timed simulation; the iteration it idles in (no access yet) is dropped."""
    key = ("task", callee)

    def forever() -> None:
        process = _current()
        loop_enter(key)
        try:
            while True:
                loop_iter(key)
                body()
        finally:
            if process.events and process.events[-1] == (TraceEvent.LOOP_ITER, key):
                process.events.pop()
            loop_exit(key)

    return forever


def run_task(name: str, body: Any) -> None:
    """A free-running top kernel (@hls.task called from Python): its body as the one task of a region,
    until it waits on an empty input stream."""
    run_dataflow([(name, body, (), name)], [])


def _after(waits: list[Process], body: Any) -> Any:
    if not waits:
        return body

    def wrapped() -> None:
        process = _current()
        if not all(p.done for p in waits):
            process.scheduler.block(process, Blocked(None, "after", None, waits))
        body()

    return wrapped


UNBOUNDED = [False]  # while recording a trace for timing: local FIFOs never fill (the trace is the same)
TRACES: list[Scheduler] = []  # the last runs' schedulers, read by Kernel to keep the trace (then cleared)


# ---- trace recording ------------------------------------------------------------------------------


def _record(stream: Stream, write: bool) -> None:
    process = _current()
    if process is not None:
        frame = sys._getframe(2)
        while frame.f_code.co_filename == __file__:
            frame = frame.f_back
        process.events.append((TraceEvent.ACCESS, stream, write, frame.f_lineno))


class TraceEvent(str, Enum):
    """The kind of one event a dataflow process records for the estimate (`RawProcess.events`,
    hls/schedule/dataflow.py): a FIFO access, or a loop's entry, iteration and exit."""

    ACCESS = "A"
    LOOP_ENTER = "L"
    LOOP_ITER = "I"
    LOOP_EXIT = "X"


def loop_enter(key: tuple[str, int]) -> None:
    process = _current()
    if process is not None:
        process.events.append((TraceEvent.LOOP_ENTER, key))


def loop_iter(key: tuple[str, int]) -> None:
    process = _current()
    if process is not None:
        process.events.append((TraceEvent.LOOP_ITER, key))


def loop_exit(key: tuple[str, int]) -> None:
    process = _current()
    if process is not None:
        process.events.append((TraceEvent.LOOP_EXIT, key))
