"""The two Vitis HLS flows and the interface each gives a top-level argument by default.

One place for a fact every stage needs (C++ pragmas, the estimate, the export): UG1399 "Default
Interfaces for Vivado IP Flow" / "... for Vitis Kernel Flow" (VITIS_FACTS.md section 1, flow_target):
- vitis: arrays m_axi (one bundle each here) with their address in s_axilite, scalars and the block
  control in s_axilite;
- vivado (the Vivado IP flow): arrays ap_memory, scalars ap_none, block control ap_ctrl_hs.
"""

from __future__ import annotations

from typing import Any

from hls.errors import HLSError
from hls.lang.directives import Interface

FLOWS = ("vitis", "vivado")
BLOCK_CONTROL = {"vitis": "s_axilite", "vivado": "ap_ctrl_hs"}


def check_flow(flow: Any) -> str:
    if flow not in FLOWS:
        raise HLSError(f"flow must be one of {', '.join(repr(f) for f in FLOWS)}, got {flow!r}")
    return flow


def default_interface(flow: str, is_array: bool, bundle_index: int, size: int = 0) -> Interface:
    """The interface options of an argument the user gave no hls.interface directive."""
    if flow == "vivado":
        return Interface(mode="ap_memory" if is_array else "ap_none")
    if is_array:
        return Interface(mode="m_axi", bundle=f"gmem{bundle_index}", offset="slave", depth=size)
    return Interface(mode="s_axilite")
