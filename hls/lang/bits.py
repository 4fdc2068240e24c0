"""The bit intrinsics' public names (`hls.concat`, `hls.leading_zeros`, `hls.bitcast`, `hls.rotl`,
`hls.rotr`) and the width facts their typing rules read.

The frontend recognises a call of an intrinsic by the identity of these functions (`INTRINSICS`) and
lowers it; called outside a kernel they raise, since only a kernel knows its arguments' widths. What
each computes is defined once in hls/golden/bits.py (Python mode and constant folding).
"""

from __future__ import annotations

from typing import Any

from hls.errors import UnsupportedError
from hls.types import IntType, ScalarType


def width_of(t: ScalarType) -> int:
    """How many bits a value of `t` occupies in hardware."""
    return t.bit_width


def count_type(width: int) -> IntType:
    """The type of a bit count or a leading-zero count of a `width`-bit value (0..width)."""
    return IntType(width.bit_length(), False)


# --------------------------------------------------------------------------------------------------
# public intrinsics: the frontend lowers calls to these; they need the argument types of a kernel


def _kernel_only(name: str) -> Any:
    return UnsupportedError(f"hls.{name}() works on typed kernel values: call it inside an @hls.kernel function, "
                            "where every argument's width is known")


def concat(*values: Any) -> Any:
    """Concatenate bit vectors, the first most significant (a kernel intrinsic)."""
    raise _kernel_only("concat")


def leading_zeros_of(value: Any) -> Any:
    """Count the zeros above the highest set bit (a kernel intrinsic)."""
    raise _kernel_only("leading_zeros")


def bitcast(value: Any, target: ScalarType) -> Any:
    """Reinterpret the bits of `value` as `target`, of the same width (a kernel intrinsic)."""
    raise _kernel_only("bitcast")


def rotl_of(value: Any, count: Any) -> Any:
    """Rotate an unsigned integer left by `count` (0..width-1) bits (a kernel intrinsic)."""
    raise _kernel_only("rotl")


def rotr_of(value: Any, count: Any) -> Any:
    """Rotate an unsigned integer right by `count` (0..width-1) bits (a kernel intrinsic)."""
    raise _kernel_only("rotr")


leading_zeros_of.__name__ = "leading_zeros"
rotl_of.__name__, rotr_of.__name__ = "rotl", "rotr"
INTRINSICS = {concat: "concat", leading_zeros_of: "leading_zeros", bitcast: "bitcast", rotl_of: "rotl",
              rotr_of: "rotr"}
