"""Python mode of hls.split / hls.merge (hls/lang/channels.py): one step of the distributing or
collecting process per call; the region runs the call again and again as a task.

The next output (or input) to serve is kept on the process, so every run starts at index 0, as a
freshly declared channel does in csim (hls/sim/include/hls_np_channel.h runs the same algorithm).
Round robin serves 0, 1, ..., N-1, 0, ... and blocks on the one whose turn it is. Load balance serves
the first, from the one after the last served, that can take an item (has room / holds an item) and,
when none can, waits until any can: the choice follows this model's one interleaving, where RTL's
follows timing.
"""

from __future__ import annotations

from typing import Any

from hls.golden.streams import Stream, _current, wait_any
from hls.lang.storage import provide


def _turn(count: int) -> int:
    return getattr(_current(), "channel_next", 0) % count


def _served(index: int, count: int) -> None:
    _current().channel_next = (index + 1) % count


@provide("split.round_robin")
def split_round_robin(inp: Stream, outs: list[Stream]) -> None:
    k = _turn(len(outs))
    outs[k].write(inp.read())
    _served(k, len(outs))


@provide("split.load_balance")
def split_load_balance(inp: Stream, outs: list[Stream]) -> None:
    value = inp.read()
    k = _first(outs, lambda s: not s.full(), "full")
    outs[k].write(value)
    _served(k, len(outs))


@provide("merge.round_robin")
def merge_round_robin(ins: list[Stream], out: Stream) -> None:
    k = _turn(len(ins))
    out.write(ins[k].read())
    _served(k, len(ins))


@provide("merge.load_balance")
def merge_load_balance(ins: list[Stream], out: Stream) -> None:
    k = _first(ins, lambda s: bool(s.items), "empty")
    out.write(ins[k].read())
    _served(k, len(ins))


def _first(streams: list[Stream], can: Any, why: str) -> int:
    """The first stream, from the one whose turn it is, that `can` serve now; waits while none can."""
    _current().by_arrival = True
    start = _turn(len(streams))
    order = [(start + j) % len(streams) for j in range(len(streams))]
    while True:
        for k in order:
            if can(streams[k]):
                return k
        wait_any([streams[k] for k in order], why)
