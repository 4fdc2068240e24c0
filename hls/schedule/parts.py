"""FPGA parts: family, fabric and speed grade from the part name, and the usable clock period.

Operator latencies depend on how fast the fabric is, not on the board. The scheduler therefore
reduces a part name to two numbers: the fabric's delay factor (UltraScale+ = 1.0) and the speed
grade's. docs/oplib.md shows where each factor comes from; factors marked *inferred* there are fits
or assumptions, not measurements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hls.defaults import CLOCK_UNCERTAINTY
from hls.errors import HLSError

# Delay of the same logic relative to UltraScale+ at speed grade -2. 7-series: fadd takes 4 cycles at
# 10 ns on xc7z020-1 and 6 at 3.333 ns on xcu250-2L (docs/oplib.md), 4*10 / (6*3.333) = 2.0 at grade -1,
# 1.74 once the -1 grade factor is taken out. UltraScale (non-plus) and Versal: inferred, no observation.
FABRIC_FACTORS = {"usplus": 1.0, "us": 1.15, "7series": 1.74, "versal": 1.0}
# Speed grades: inferred (about 15% per grade step, the order of the gaps between grade columns of the
# AC switching tables in the AMD data sheets); -2, -2L, -2E and an unknown grade count as 1.0. The low-voltage
# letters (L, LV, LE, MP, HP) are not modelled: a part counts as its digit (no report on such a part yet).
GRADE_FACTORS = {"1": 1.15, "2": 1.0, "3": 0.9}

# (prefix, family, fabric), first match wins; the 'p' suffix tells UltraScale+ from UltraScale. Sources of
# the prefixes (AMD product tables and data sheets; docs/oplib.md "Parts"):
# - Kria K26 / K24 SOMs carry a Zynq UltraScale+ MPSoC (DS987 K26 data sheet, DS984 K24): `xck26-sfvc784-2LV-c`.
# - Versal (DS950 overview): AI Core `xcvc`, AI Edge `xcve`, Prime `xcvm`, Premium `xcvp`, HBM `xcvh`, and the
#   Alveo V80's `xcv80`; every `xcv` that is not `xcvu` (Virtex UltraScale/UltraScale+).
# - Alveo U50/U200/U250/U280/U55C `xcu`, Artix UltraScale+ `xcau`, Spartan UltraScale+ `xcsu` (DS930):
#   UltraScale+ fabric. Spartan UltraScale+ has no UltraRAM, so it is its own family name.
_FAMILIES = (
    ("xc7z", "zynq-7000", "7series"),
    ("xa7z", "zynq-7000", "7series"),
    ("xc7", "7-series", "7series"),
    ("xa7", "7-series", "7series"),
    ("xczu", "zynq-ultrascale+", "usplus"),
    ("xck26", "zynq-ultrascale+", "usplus"),
    ("xck24", "zynq-ultrascale+", "usplus"),
    ("xazu", "zynq-ultrascale+", "usplus"),
    ("xqzu", "zynq-ultrascale+", "usplus"),
    ("xcu", "ultrascale+", "usplus"),
    ("xcvu", "ultrascale", "us"),
    ("xcku", "ultrascale", "us"),
    ("xcau", "ultrascale+", "usplus"),
    ("xcsu", "spartan-ultrascale+", "usplus"),
    ("xcv", "versal", "versal"),
)
FAMILIES = tuple(sorted({family for _, family, _ in _FAMILIES}))
_PLUS_DEVICE = re.compile(r"^xc(vu|ku)\d+p")
# the speed grade digit after the package: `-2`, `-2L-e`, `-2LV-c` (Kria), `-2MP-e-S` (Versal)
_GRADE = re.compile(r"-(\d)[a-z]*(?:-[a-z]+)*$")


@dataclass(frozen=True)
class FpgaPart:
    """What the scheduler needs to know about a part: family, fabric and speed grade."""

    name: str
    family: str
    fabric: str
    grade: str | None

    @property
    def delay_factor(self) -> float:
        """How much slower than UltraScale+ -2 the logic is (1.0 = as fast)."""
        return FABRIC_FACTORS[self.fabric] * GRADE_FACTORS.get(self.grade or "2", 1.0)


def detect_part(name: str) -> FpgaPart:
    """Family by name prefix (xc7z -> Zynq-7000, xc7 -> 7-series, xczu/xck26/xck24 -> Zynq UltraScale+,
    xcu/xcvu/xcku/xcau/xcsu -> UltraScale(+), xcv -> Versal); the speed grade from the suffix (`-2L-e` -> 2)."""
    lowered = name.strip().lower()
    for prefix, family, fabric in _FAMILIES:
        if lowered.startswith(prefix):
            if fabric == "us" and _PLUS_DEVICE.match(lowered):
                family, fabric = "ultrascale+", "usplus"
            grade = _GRADE.search(lowered)
            return FpgaPart(name, family, fabric, grade.group(1) if grade else None)
    known = ", ".join(sorted({p for p, _, _ in _FAMILIES}))
    raise HLSError(f"unknown FPGA part {name!r}: expected an AMD part name starting with one of {known}")


def usable_period_ns(clock_ns: float, uncertainty: float = CLOCK_UNCERTAINTY) -> float:
    """The part of the clock period logic may use: Vitis reserves `uncertainty` of it for routing."""
    if clock_ns <= 0:
        raise HLSError(f"clock period must be positive, got {clock_ns} ns")
    return clock_ns * (1.0 - uncertainty)
