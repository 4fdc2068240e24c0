"""Directive statements. In Python mode they do nothing; the frontend turns them into pragmas.

Each function's signature is the option set the frontend accepts (checked by binding the call). The
bound options become one of the frozen dataclasses below, which the IR holds: loop directives as typed
fields of loops (`ForOp.pipeline`, ...) and of functions (a function-level pipeline), array and function
directives as `hls.directive` ops. The dataclass fields are the statement's keyword options.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

PARTITION_TYPES = ("cyclic", "block", "complete")
STORAGE_TYPES = ("fifo", "ram_1p", "ram_1wnr", "ram_2p", "ram_s2p", "ram_t2p", "rom_1p", "rom_2p", "rom_np")
STORAGE_IMPLS = ("bram", "bram_ecc", "lutram", "uram", "uram_ecc", "srl", "memory", "auto")
INTERFACE_MODES = ("ap_none", "ap_vld", "ap_ack", "ap_hs", "ap_ovld", "ap_stable", "ap_memory", "bram",
                   "ap_fifo", "m_axi", "s_axilite", "axis")
LOOP_DIRECTIVES = ("pipeline", "unroll", "loop_tripcount", "loop_flatten")
AGGREGATE_COMPACT = ("bit", "byte", "none", "auto")


def label(name: str) -> None:
    """Name the enclosing loop (the C++ label, the report row); the first statement of the loop body."""


def pipeline(ii: int | None = None, off: bool = False, rewind: bool = False, style: str | None = None) -> None:
    """Pipeline the enclosing loop (or the function when written at function level)."""


def unroll(factor: int | None = None, off: bool = False, skip_exit_check: bool = False) -> None:
    """Unroll the enclosing loop fully, or by `factor`."""


def loop_tripcount(min: int, max: int, avg: int | None = None) -> None:  # noqa: A002
    """Trip-count bounds for reports when the loop bound is not a constant."""


def loop_flatten(off: bool = False) -> None:
    """Flatten the nest this innermost loop closes (Vitis's default), or prevent it with off=True."""


def array_partition(var: Any, type: str = "complete", factor: int | None = None, dim: int = 1) -> None:  # noqa: A002
    """Split an array into banks so more elements are reachable per cycle."""


def bind_storage(var: Any, type: str, impl: str | None = None, latency: int | None = None) -> None:  # noqa: A002
    """Choose the memory primitive of a local array."""


def interface(var: Any, mode: str, bundle: str | None = None, offset: str | None = None,
              depth: int | None = None, latency: int | None = None,
              max_read_burst_length: int | None = None, max_write_burst_length: int | None = None,
              storage_type: str | None = None) -> None:
    """Set the port protocol of a top-level argument (storage_type: the RAM an ap_memory port drives)."""


def aggregate(var: Any, compact: str | None = None) -> None:
    """Pack a struct argument or array of structs into one wide word per struct (UG1399 aggregate)."""


def disaggregate(var: Any) -> None:
    """Split a struct argument or array of structs into one port or memory per field (UG1399)."""


def dataflow() -> None:
    """Task-level pipelining of the function's loops and calls."""


def inline(off: bool = False, recursive: bool = False) -> None:
    """Inline this function into its callers (or never, with off=True)."""


def loop_merge(force: bool = False) -> None:
    """Merge the consecutive loops of this function or loop body into one (UG1399 loop_merge); `force`
    merges even when a shared array makes the merge change what the loops compute (the user vouches)."""


@dataclass(frozen=True)
class Directive:
    """One directive's options. `name` is its hls.<name>() statement and its pragma's keyword."""

    name: ClassVar[str]

    def options(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Pipeline(Directive):
    name: ClassVar[str] = "pipeline"
    ii: int | None = None
    off: bool = False
    rewind: bool = False
    style: str | None = None


@dataclass(frozen=True)
class Unroll(Directive):
    name: ClassVar[str] = "unroll"
    factor: int | None = None
    off: bool = False
    skip_exit_check: bool = False


@dataclass(frozen=True)
class TripCount(Directive):
    name: ClassVar[str] = "loop_tripcount"
    min: int = 0
    max: int = 0
    avg: int | None = None


@dataclass(frozen=True)
class LoopFlatten(Directive):
    name: ClassVar[str] = "loop_flatten"
    off: bool = False


@dataclass(frozen=True)
class Partition(Directive):
    name: ClassVar[str] = "array_partition"
    type: str = "complete"
    factor: int | None = None
    dim: int = 1


@dataclass(frozen=True)
class BindStorage(Directive):
    name: ClassVar[str] = "bind_storage"
    type: str = "ram_2p"
    impl: str | None = None
    latency: int | None = None


@dataclass(frozen=True)
class Interface(Directive):
    name: ClassVar[str] = "interface"
    mode: str = "m_axi"
    bundle: str | None = None
    offset: str | None = None
    depth: int | None = None
    latency: int | None = None
    max_read_burst_length: int | None = None
    max_write_burst_length: int | None = None
    storage_type: str | None = None


@dataclass(frozen=True)
class Dataflow(Directive):
    name: ClassVar[str] = "dataflow"


@dataclass(frozen=True)
class Inline(Directive):
    name: ClassVar[str] = "inline"
    off: bool = False
    recursive: bool = False


@dataclass(frozen=True)
class LoopMerge(Directive):
    name: ClassVar[str] = "loop_merge"
    force: bool = False


@dataclass(frozen=True)
class Aggregate(Directive):
    name: ClassVar[str] = "aggregate"
    compact: str | None = None


@dataclass(frozen=True)
class Disaggregate(Directive):
    name: ClassVar[str] = "disaggregate"


DIRECTIVE_TYPES: dict[str, type[Directive]] = {cls.name: cls for cls in (
    Pipeline, Unroll, TripCount, LoopFlatten, Partition, BindStorage, Interface, Dataflow, Inline, Aggregate,
    Disaggregate, LoopMerge)}
# the attribute of a loop that holds each loop directive
LOOP_FIELDS = {"pipeline": "pipeline", "unroll": "unroll", "loop_tripcount": "tripcount",
               "loop_flatten": "loop_flatten"}

DIRECTIVES = {f.__name__: f for f in (label, pipeline, unroll, loop_tripcount, loop_flatten, array_partition,
                                       bind_storage, interface, dataflow, inline, aggregate, disaggregate,
                                       loop_merge)}
