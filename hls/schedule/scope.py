"""What a region scheduler is given: the Scope of the region and the design-wide state (`Design`) it adds its
resources and notes to. The pipelined-loop rules (loops.py) take these; the design scheduler (design.py)
provides them and calls those rules, so loops.py never imports design.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from hls.ir import Module, Value
from hls.schedule.memory import Storage
from hls.schedule.oplib import OpLib
from hls.schedule.resources import ResourceTally


@dataclass(frozen=True)
class Scope:
    """Where a region sits: its arrays, the value ranges of enclosing induction variables, the module
    its resources belong to, the function it is in and how deep it is nested among the loops."""

    storages: dict[Value, Storage]
    ranges: dict[Value, tuple[int, int]]
    module: str
    function: str
    level: int


class Design(Protocol):
    """The design-wide state of schedule.design.DesignScheduler that the region rules read and add to."""

    module: Module
    lib: OpLib
    period: int  # the usable clock period in ps
    tally: ResourceTally
    notes: list[str]
