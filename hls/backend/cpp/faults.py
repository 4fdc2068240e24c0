"""csim faults: the checks C simulation makes where C++ is undefined and Python mode raises.

Each check in the C++ (`HLS_INDEX(i, n, site)`, `HLS_DIVISOR(b, site)`, `HLS_BIT_INDEX`,
`HLS_SHIFT_COUNT`, `HLS_FLOAT_TO_INT`, `HLS_FINITE`, `HLS_RANGE_STEP`; kernel.cpp.j2 defines them, and under
`__SYNTHESIS__` each is its value) names a site: the number of a `FaultSite`, which says what failed
and at which line of the Python kernel. The first failing check of a call stores `kind + 16 * site` in
`hls_csim_fault` (later ones are ignored: Python mode stops at the first), the bridge returns it and
hls/sim/csim.py raises `hls.SimulationError` at the site's line, as Python mode raises there.

The expression rules (expr.py, expr_bits.py, emit.py) ask for a site with `site(kind, what, loc)`
while `emit_module` collects them (`collecting()`); the sites reach csim as `CppDesign.fault_sites`.
Outside a collection (an expression built on its own) the site is 0: csim then names only the kind.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from hls.errors import Loc

# fault kinds; 3 and 4 are the stream faults of hls/sim/include/hls_csim.h (a deadlock, an empty FIFO)
DIVISION, INDEX, BIT_INDEX, SHIFT_COUNT, FLOAT_TO_INT, RANGE_STEP = 1, 2, 5, 6, 7, 8
KIND_TEXT = {DIVISION: "divided by zero", INDEX: "indexed an array out of bounds",
             BIT_INDEX: "read or wrote a bit beyond a value's width", SHIFT_COUNT: "shifted by a negative count",
             FLOAT_TO_INT: "converted a float the target type cannot hold", RANGE_STEP: "ran a range() of step 0"}
KIND_BITS = 16  # fault = kind + KIND_BITS * site


@dataclass(frozen=True)
class FaultSite:
    """One csim check: its kind, what a failure means (the error's text) and the kernel line."""

    kind: int
    what: str
    loc: Loc | None


class Sites:
    """The sites of one emitted module, numbered from 1 (equal sites share a number)."""

    def __init__(self) -> None:
        self.sites: list[FaultSite] = []
        self.numbers: dict[FaultSite, int] = {}

    def add(self, site: FaultSite) -> int:
        if site not in self.numbers:
            self.sites.append(site)
            self.numbers[site] = len(self.sites)
        return self.numbers[site]

    def describe(self, fault: int) -> tuple[str, Loc | None]:
        """The text and kernel line of a fault code the bridge returned."""
        kind, number = fault % KIND_BITS, fault // KIND_BITS
        if 1 <= number <= len(self.sites):
            site = self.sites[number - 1]
            return site.what, site.loc
        return KIND_TEXT.get(kind, f"faulted ({fault})"), None


_ACTIVE: ContextVar[Sites | None] = ContextVar("hls_fault_sites", default=None)


def site(kind: int, what: str, loc: Loc | None) -> int:
    """The number of a check's site in the module being emitted (0 outside `collecting`)."""
    sites = _ACTIVE.get()
    return sites.add(FaultSite(kind, what, loc)) if sites is not None else 0


@contextmanager
def collecting() -> Iterator[Sites]:
    """Collect the sites of the checks emitted inside the block."""
    sites = Sites()
    token = _ACTIVE.set(sites)
    try:
        yield sites
    finally:
        _ACTIVE.reset(token)
