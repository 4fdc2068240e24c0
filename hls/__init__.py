"""hls: typed Python kernels -> Vitis HLS C++, with a bit-exact golden model and g++ C-simulation."""

from __future__ import annotations

from hls.customize import Schedule, customize
from hls.errors import (
    CompileError,
    DeadlockError,
    DirectiveWarning,
    HLSError,
    HLSTypeError,
    OverflowReport,
    OverflowWarning,
    SimulationError,
    UnsupportedError,
    VerificationError,
)
from hls.explore.result import Exploration
from hls.explore.run import explore
from hls.golden import channels as _golden_channels  # noqa: F401 - provides hls.split / hls.merge in Python mode
from hls.golden import structs as _golden_structs  # noqa: F401 - provides @hls.struct's Python-mode classes
from hls.golden.streams import Stream
from hls.kernel import Kernel, kernel, strict_overflow, task
from hls.lang.arrays import matmul
from hls.lang.axis import axis
from hls.lang.bits import bitcast, concat
from hls.lang.bits import leading_zeros_of as leading_zeros
from hls.lang.bits import rotl_of as rotl
from hls.lang.bits import rotr_of as rotr
from hls.lang.blocks import read_lock, stream_of_blocks, write_lock
from hls.lang.channels import merge, split
from hls.lang.directives import (
    aggregate,
    array_partition,
    bind_storage,
    dataflow,
    disaggregate,
    inline,
    interface,
    label,
    loop_flatten,
    loop_merge,
    loop_tripcount,
    pipeline,
    unroll,
)
from hls.lang.storage import static, stream, zeros
from hls.lang.structs import struct
from hls.report.csynth_xml import load_report
from hls.report.report import Report
from hls.system import System
from hls.types import alias as _alias
from hls.types import (
    ap_fixed,
    ap_int,
    ap_ufixed,
    ap_uint,
    bool_,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)

__version__ = "0.1.0"

__all__ = [
    "CompileError", "DeadlockError", "DirectiveWarning", "Exploration", "HLSError", "HLSTypeError", "Kernel",
    "OverflowReport", "OverflowWarning", "Report", "SimulationError", "Stream", "System", "UnsupportedError",
    "VerificationError",
    "ap_fixed", "ap_int", "ap_ufixed", "ap_uint", "array_partition", "axis", "bind_storage", "bitcast", "bool_",
    "concat",
    "dataflow", "explore", "float32", "float64", "inline", "int8", "int16", "int32", "int64", "interface", "kernel",
    "label", "leading_zeros", "load_report", "loop_flatten", "loop_merge", "loop_tripcount", "merge", "pipeline",
    "rotl", "rotr", "split", "static",
    "stream", "strict_overflow", "task", "uint8", "uint16", "uint32", "uint64", "unroll", "zeros",
]
__all__ += ["aggregate", "disaggregate", "struct", "matmul"]
__all__ += ["Schedule", "customize"]
__all__ += ["read_lock", "stream_of_blocks", "write_lock"]


def __getattr__(name: str):
    """`hls.int9`, `hls.uint12`, ...: integer types of any width by name."""
    t = _alias(name)
    if t is None:
        raise AttributeError(f"module 'hls' has no attribute {name!r}")
    return t
