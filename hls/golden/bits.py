"""Bit-level operations on Python-mode values: the one definition shared by the golden model, constant
folding and the public kernel intrinsics (`hls.concat`, `hls.leading_zeros`, `hls.bitcast`; their public
names are in hls/lang/bits.py).

A value's bits are its two's-complement pattern in its type's width: the raw mantissa for fixed point,
the IEEE-754 encoding for floats. Bit 0 is the least significant; slices follow Python's convention
(`x[lo:hi]` holds bits lo..hi-1) and are unsigned, as `ap_int::range` reads them.
"""

from __future__ import annotations

import struct
from fractions import Fraction
from typing import Any

import numpy as np

from hls.lang.bits import width_of
from hls.types import BoolType, FixedType, FloatType, ScalarType, wrap_int


def raw_bits(value: Any, t: ScalarType) -> int:
    """The unsigned bit pattern of a Python-mode value of type `t`."""
    width = width_of(t)
    if isinstance(t, FloatType):
        fmt, ufmt = ("<f", "<I") if t.bits == 32 else ("<d", "<Q")
        return struct.unpack(ufmt, struct.pack(fmt, float(value)))[0]
    if isinstance(t, FixedType):
        scaled = Fraction(value) / t.lsb
        if scaled.denominator != 1:
            raise ValueError(f"{value} is not a value of {t}")
        return int(scaled) & ((1 << width) - 1)
    return int(value) & ((1 << width) - 1)


def from_bits(bits: int, t: ScalarType) -> Any:
    """The Python-mode value of type `t` whose bit pattern is `bits` (taken modulo the width)."""
    width = width_of(t)
    bits &= (1 << width) - 1
    if isinstance(t, FloatType):
        fmt, ufmt = ("<f", "<I") if t.bits == 32 else ("<d", "<Q")
        return t.storage_dtype.type(struct.unpack(fmt, struct.pack(ufmt, bits))[0])
    if isinstance(t, BoolType):
        return bool(bits)
    if isinstance(t, FixedType):
        return wrap_int(bits, width, t.signed) * t.lsb
    return wrap_int(bits, width, t.signed)  # type: ignore[attr-defined]


def check_index(index: Any, width: int, what: str = "bit index") -> int:
    """A bit position in 0..width-1 (Python mode checks what csim checks; C++ has no negative indices)."""
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        raise IndexError(f"{what} {index!r} is not an integer")
    if not 0 <= int(index) < width:
        raise IndexError(f"{what} {int(index)} is out of range for a {width}-bit value (0..{width - 1})")
    return int(index)


def get_bit(value: Any, index: Any, t: ScalarType) -> bool:
    """`x[i]`."""
    return bool(raw_bits(value, t) >> check_index(index, width_of(t)) & 1)


def set_bit(value: Any, index: Any, bit: Any, t: ScalarType) -> Any:
    """`x[i] = b`: the value of `t` with bit i replaced by the lowest bit of b."""
    i = check_index(index, width_of(t))
    bits = raw_bits(value, t) & ~(1 << i) | (int(bit) & 1) << i
    return from_bits(bits, t)


def get_slice(value: Any, lo: int, hi: int, t: ScalarType) -> int:
    """`x[lo:hi]`: bits lo..hi-1 as an unsigned integer."""
    return raw_bits(value, t) >> lo & ((1 << (hi - lo)) - 1)


def set_slice(value: Any, lo: int, hi: int, new: Any, t: ScalarType) -> Any:
    """`x[lo:hi] = v`: bits lo..hi-1 replaced by the low hi - lo bits of v."""
    mask = ((1 << (hi - lo)) - 1) << lo
    bits = raw_bits(value, t) & ~mask | (int(new) << lo) & mask
    return from_bits(bits, t)


def concat_values(types: tuple[ScalarType, ...], *values: Any) -> int:
    """`hls.concat(a, b, ...)`: the first argument in the most significant bits."""
    result = 0
    for t, value in zip(types, values, strict=True):
        result = result << width_of(t) | raw_bits(value, t)
    return result


def bit_count(value: Any, t: ScalarType) -> int:
    """`x.bit_count()`: set bits of the two's-complement pattern (Python's int.bit_count counts |x|)."""
    return bin(raw_bits(value, t)).count("1")


def leading_zeros(value: Any, t: ScalarType) -> int:
    """`hls.leading_zeros(x)`: zeros above the highest set bit (the width for 0)."""
    return width_of(t) - raw_bits(value, t).bit_length()


def reverse(value: Any, t: ScalarType) -> int:
    """`x.reverse()`: the bit pattern mirrored (bit 0 becomes the top bit), unsigned."""
    width = width_of(t)
    return int(format(raw_bits(value, t), f"0{width}b")[::-1], 2)


def rotate(value: Any, count: Any, t: ScalarType, left: bool) -> int:
    """`hls.rotl(x, n)` / `hls.rotr(x, n)` on an unsigned integer: bits leaving one end enter at the other.
    The count must lie in 0..width-1, as ap_int's lrotate/rrotate assert."""
    width = width_of(t)
    count = int(count)
    if not 0 <= count < width:
        raise ValueError(f"rotate count {count} outside 0..{width - 1}")
    pattern = raw_bits(value, t)
    shift = count if left else (width - count) % width
    return ((pattern << shift) | (pattern >> (width - shift))) & ((1 << width) - 1)


def rotl(value: Any, count: Any, t: ScalarType) -> int:
    return rotate(value, count, t, True)


def rotr(value: Any, count: Any, t: ScalarType) -> int:
    return rotate(value, count, t, False)


def fixed_shift(value: Any, count: Any, t: FixedType, left: bool) -> Any:
    """ap_fixed `x << n` / `x >> n` in Python mode: the raw bits shifted in the same type (ap_fixed_base.h:
    `r.V = V >> sh`), wrapping on the left; a negative count raises as an integer shift does."""
    count = int(count)
    if count < 0:
        raise ValueError("negative shift count")
    bits = wrap_int(raw_bits(value, t), t.width, t.signed)  # signed: an arithmetic right shift
    return from_bits(bits << count if left else bits >> count, t)


def bitcast_value(value: Any, source: ScalarType, target: ScalarType) -> Any:
    """Same-width reinterpretation: the bits of `value` read as a `target`."""
    return from_bits(raw_bits(value, source), target)
