"""Traits of op classes that carry typed fields: the directive fields of loops, the dataflow process an
op is, the struct field of an access. They read `attrs` (where cloning, CSE and the printer see every
attribute alike), so that no stage reads `op.attrs[...]` for them (docs/architecture.md, "How to add an op")."""

from __future__ import annotations

from typing import Any, ClassVar

from hls.ir.core import Op
from hls.lang.directives import LOOP_FIELDS, LoopFlatten, Pipeline, TripCount, Unroll


class ArrayAccess:
    """What loads and stores share: the struct field they reach and whether they are a further part of
    one whole-struct word."""

    attrs: dict[str, Any]

    @property
    def field(self) -> str | None:
        return self.attrs.get("field")

    @property
    def word_part(self) -> bool:
        """A further field of a whole-struct access: it travels in the same aggregated word."""
        return bool(self.attrs.get("word_part"))


class DataflowProcess:
    """Trait of the ops that can be one process of a dataflow region (a loop, a call, an `if` of
    processes): the frontend names the process, and `process_after` lists the processes whose array
    writes it waits for. Kept in attrs, like the directive fields, so the printer shows them."""

    attrs: dict[str, Any]

    @property
    def process(self) -> str | None:
        return self.attrs.get("process")

    @property
    def process_after(self) -> tuple[str, ...]:
        return tuple(self.attrs.get("after") or ())


def process_of(op: Op) -> str | None:
    """The dataflow process `op` is, or None (also for ops that can never be one)."""
    return op.process if isinstance(op, DataflowProcess) else None


class LoopDirectives:
    """A loop's directive fields (None where the user wrote none); kept in attrs so that cloning, CSE
    and the printer treat them like every other attribute."""

    attrs: dict[str, Any]
    is_loop: ClassVar[bool] = True

    @property
    def label(self) -> str | None:
        """The C++ label and the report's row name."""
        return self.attrs.get("label")

    @property
    def exit(self) -> bool:
        """An early exit (`break`, `return` inside): see `has_exit`."""
        return bool(self.attrs.get("exit"))

    def directive_fields(self) -> dict[str, Any]:
        """The loop's directives that are set, by field name, in `directives.LOOP_FIELDS` order."""
        return {f: self.attrs[f] for f in LOOP_FIELDS.values() if self.attrs.get(f) is not None}

    @property
    def pipeline(self) -> Pipeline | None:
        return self.attrs.get("pipeline")

    @property
    def unroll(self) -> Unroll | None:
        return self.attrs.get("unroll")

    @property
    def tripcount(self) -> TripCount | None:
        return self.attrs.get("tripcount")

    @property
    def loop_flatten(self) -> LoopFlatten | None:
        return self.attrs.get("loop_flatten")

    @property
    def unrolled(self) -> int | None:
        """The factor hls.passes.unroll replicated the body by (the report's note), or None."""
        return self.attrs.get("unrolled")

    @property
    def unroll_leftover(self) -> int:
        """Iterations a partial unroll left after the loop (its factor does not divide the trip count)."""
        return self.attrs.get("unroll_leftover", 0)
