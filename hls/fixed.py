"""Bit-exact ap_fixed / ap_ufixed assignment: quantization, then overflow, vectorized in numpy.

The golden model must store exactly the bits g++ C-simulation stores, so this module follows the
Xilinx ap_types header (`ap_fixed_base.h`: the `double` constructor and `operator=` from a wider
`ap_fixed_base`), not the prose of UG1399. A value x assigned to `ap_fixed<W, I, Q, O, N>` with
F = W - I fraction bits becomes the raw W-bit mantissa m (value m * 2**-F):

1. T = floor(x * 2**F); the dropped fraction gives qb (the half-lsb bit) and r (any bit below it).
2. Q = T + inc, where inc depends on the quantization mode, qb, r, the sign of x and T's lsb.
3. If O is AP_WRAP with N == 0, m is Q wrapped to W bits; otherwise an out-of-range Q (or, for
   AP_SAT_SYM into a signed type, Q == min) is fixed up by the overflow mode.

Header behaviour that the documentation does not tell (each verified with g++ against the real
header; tests/golden/test_fixed_exhaustive.py pins the values):

- A subnormal double is decoded as if its exponent field were a normal one: the hidden bit is
  set and the exponent is -1023, so d = k * 2**-1074 converts as (2**52 + k) * 2**-1075. Only
  types with more than ~1020 fraction bits can see it; to_raw reproduces it.
- AP_WRAP with N > 0 into an *unsigned* type sets the N top bits to one on underflow as well as on
  overflow (a negative value does not saturate towards zero).
- AP_WRAP_SM uses the first deleted bit above the MSB of the truncated (pre-rounding) value, so
  N == 0 flips the whole word when that bit differs from the new MSB; N == 1 flips it when the
  sign differs from the new MSB; N > 1 flips it when bit W - N equals the sign, then forces the
  N top bits to sign, not-sign, ..., not-sign.
- AP_SAT_SYM on a one-bit signed type keeps the minimum (-lsb), since min | 1 == min there.
- ap_ufixed with AP_WRAP_SM makes the header print an error and exit(1) at construction; to_raw
  raises TypeError instead of modelling a program that cannot run.
- NaN and infinities are not rejected by the header (NaN only warns; inf converts as 2**1024);
  to_raw raises ValueError for them.
- operator= reads the half-lsb bit of the source without a bounds check, so assigning a fixed
  value whose every bit lies below half an lsb of the target, with any rounding mode, fails an
  ap_private assertion and aborts C-simulation (unless built with -DNDEBUG). A Fraction carries
  no source width, so to_raw returns what the header computes without the assertion, and the
  backend widens such sources before converting (hls/backend/cpp/expr.py, fixed_source).
- AP_SAT_SYM underflow of a type wider than 64 bits prints "Bitsize mismach" to stderr (the
  result is right).
- The header skips the overflow logic when the two types' ranges say no overflow can happen. That
  static test never hides a real overflow (checked case by case, and by the tests), so to_raw
  looks only at the rounded value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

import numpy as np


class FixedFormat(Protocol):
    """What these routines read of a fixed-point type (hls.types.FixedType has it all): the module works on
    raw mantissas of a format and stays below the type system, which calls it to convert values."""

    @property
    def width(self) -> int: ...
    @property
    def signed(self) -> bool: ...
    @property
    def quant(self) -> str: ...
    @property
    def overflow(self) -> str: ...
    @property
    def sat_bits(self) -> int: ...
    @property
    def frac_bits(self) -> int: ...
    @property
    def raw_min(self) -> int: ...
    @property
    def raw_max(self) -> int: ...


INT64_MAX_WIDTH = 62  # widths up to this keep raw values in int64 with room for one carry
_DOUBLE_MAN = 52
_DOUBLE_BIAS_LSB = 1075  # exponent bias + mantissa bits: value = man * 2**(biased_exp - 1075)
_BIG_SHIFT = 10  # |man| >= 2**52, so a left shift of 10 or more gives |T| >= 2**62


def to_raw(x: Any, t: FixedFormat) -> Any:
    """The raw mantissa that assigning x to t stores, as C++ would.

    float64 arrays and numpy float scalars return an int64 array (object array of Python ints for
    widths above 62); Python ints and Fractions (exact wider fixed values, any denominator)
    return a Python int.
    """
    _check_type(t)
    if isinstance(x, (bool, int, np.integer)):
        return _exact_raw(int(x), 1, t)
    if isinstance(x, Fraction):
        return _exact_raw(x.numerator, x.denominator, t)
    arr = np.asarray(x)
    if arr.dtype == np.bool_ or np.issubdtype(arr.dtype, np.integer):
        flat = [_exact_raw(int(v), 1, t) for v in arr.ravel()]
        return _pack(flat, arr.shape, t)
    if not np.issubdtype(arr.dtype, np.floating):
        raise TypeError(f"cannot convert {arr.dtype} values to {t}")
    doubles = np.asarray(arr, dtype=np.float64, order="C")  # keeps 0-d shapes, unlike ascontiguousarray
    if not np.all(np.isfinite(doubles)):
        raise ValueError(f"cannot convert NaN or infinity to {t}")
    if t.width <= INT64_MAX_WIDTH:
        return _float_raw(doubles, t)
    flat = [_exact_raw(*_header_double(float(v)), t) for v in doubles.ravel()]
    return _pack(flat, doubles.shape, t)


def from_raw(m: Any, t: FixedFormat) -> np.ndarray:
    """Raw mantissas to float64 values; exact while the width fits a double's 53 bits."""
    raw = np.asarray(m)
    if raw.dtype == object:
        flat = [float(to_fraction(int(v), t)) for v in raw.ravel()]
        return np.array(flat, dtype=np.float64).reshape(raw.shape)
    return np.ldexp(raw.astype(np.float64), -t.frac_bits)


def to_fraction(m: int, t: FixedFormat) -> Fraction:
    """The exact value of one raw mantissa (Python mode keeps fixed-point values exact)."""
    frac = t.frac_bits
    return Fraction(int(m), 1 << frac) if frac >= 0 else Fraction(int(m) << -frac)


# --------------------------------------------------------------------------------------------------
# the two front halves: floor, half-lsb bit and sticky bits, from a double or an exact rational


def _check_type(t: FixedFormat) -> None:
    """Reject the one parameter combination the header refuses at run time."""
    if not t.signed and t.overflow == "AP_WRAP_SM":
        raise TypeError(f"{t}: ap_ufixed cannot use AP_WRAP_SM (the ap_fixed header exits)")


def _header_double(value: float) -> tuple[int, int]:
    """(numerator, denominator) of a double as the header decodes it (subnormal quirk included)."""
    bits = int(np.float64(value).view(np.uint64))
    if bits & ~(1 << 63) == 0:
        return 0, 1
    biased = (bits >> _DOUBLE_MAN) & 0x7FF
    man = (bits & ((1 << _DOUBLE_MAN) - 1)) | (1 << _DOUBLE_MAN)
    if bits >> 63:
        man = -man
    shift = biased - _DOUBLE_BIAS_LSB
    return (man << shift, 1) if shift >= 0 else (man, 1 << -shift)


def _exact_raw(num: int, den: int, t: FixedFormat) -> int:
    """Assignment of the exact value num / den (den > 0): Python ints all the way."""
    frac = t.frac_bits
    scaled_num, scaled_den = (num << frac, den) if frac >= 0 else (num, den << -frac)
    trunc, rem = divmod(scaled_num, scaled_den)
    # one-element arrays, not 0-d ones: numpy turns 0-d results into scalars and loses the dtype
    qb = np.array([2 * rem >= scaled_den])
    sticky = np.array([rem != 0 and 2 * rem != scaled_den])
    neg = np.array([num < 0])
    inc = int(_increment(t.quant, qb, sticky, neg, np.array([trunc & 1 == 1]))[0])
    q = trunc + inc
    over, under = _range_flags(q, t)
    words = np.array([trunc, q], dtype=object)
    out = _overflow(words[:1], words[1:], np.array([over]), np.array([under]), np.array([q < 0]), t)
    return int(out[0])


def _float_raw(x: np.ndarray, t: FixedFormat) -> np.ndarray:
    """Vectorized assignment of doubles for widths <= 62, decoding the IEEE bits like the header."""
    bits = x.view(np.uint64)
    zero = (bits << np.uint64(1)) == 0
    neg = ((bits >> np.uint64(63)) != 0) & ~zero
    biased = ((bits >> np.uint64(_DOUBLE_MAN)) & np.uint64(0x7FF)).astype(np.int64)
    man = ((bits & np.uint64((1 << _DOUBLE_MAN) - 1)) | np.uint64(1 << _DOUBLE_MAN)).astype(np.int64)
    man = np.where(zero, 0, np.where(neg, -man, man))
    shift = biased - _DOUBLE_BIAS_LSB + t.frac_bits  # x * 2**F == man * 2**shift

    drop = np.clip(-shift, 1, 60)  # |man| < 2**53: dropping 54+ bits leaves 0 or -1 and the sign
    right = shift < 0
    trunc_right = man >> drop
    qb = right & (((man >> (drop - 1)) & 1) != 0)
    sticky = right & ((man & ((np.int64(1) << (drop - 1)) - 1)) != 0)
    lift = np.clip(shift, 0, 63).astype(np.uint64)
    trunc_left = np.where(shift >= 64, np.uint64(0), man.astype(np.uint64) << lift).view(np.int64)
    trunc = np.where(right, trunc_right, trunc_left)  # exact unless big; then only mod 2**64

    inc = _increment(t.quant, qb, sticky, neg, (trunc & 1) != 0)
    q = trunc + inc.astype(np.int64)
    big = shift >= _BIG_SHIFT
    over, under = _range_flags(q, t)
    over = np.where(big, man > 0, over)
    under = np.where(big, man < 0, under)
    return _overflow(trunc, q, over, under, np.where(big, man < 0, q < 0), t)


# --------------------------------------------------------------------------------------------------
# the shared back half, on int64 arrays or object arrays of Python ints alike


def _increment(quant: str, qb: Any, sticky: Any, neg: Any, odd: Any) -> Any:
    """ap_fixed_base::quantization_adjust: whether to add one lsb to the floor."""
    if quant == "AP_TRN":
        return qb & False
    if quant == "AP_RND":
        return qb
    if quant == "AP_RND_ZERO":
        return qb & (neg | sticky)
    if quant == "AP_RND_MIN_INF":
        return qb & sticky
    if quant == "AP_RND_INF":
        return qb & (~neg | sticky)
    if quant == "AP_RND_CONV":
        return qb & (odd | sticky)
    if quant == "AP_TRN_ZERO":
        return neg & (qb | sticky)
    raise KeyError(quant)


def _range_flags(q: Any, t: FixedFormat) -> tuple[Any, Any]:
    """Overflow and underflow of the rounded value, as the header's deleted-bit tests decide."""
    sym = t.overflow == "AP_SAT_SYM" and t.signed  # the header also maps min itself to -max
    return q > t.raw_max, (q <= t.raw_min) if sym else (q < t.raw_min)


def _overflow(trunc: Any, q: Any, over: Any, under: Any, neg: Any, t: FixedFormat) -> Any:
    """ap_fixed_base::overflow_adjust on the W-bit word, then the word read back as a raw value."""
    width, sat = t.width, t.sat_bits
    mask = (1 << width) - 1
    msb = 1 << (width - 1)
    top = ((1 << sat) - 1) << (width - sat)  # the N saturation bits W-N .. W-1
    word = q & mask
    if t.overflow == "AP_WRAP" and sat == 0:
        return _signed(word, t)
    zero = word & 0  # constants as zero + c keep the dtype (int64, or object for wide words)
    if t.overflow == "AP_SAT_ZERO":
        fixed = zero
    elif t.overflow == "AP_WRAP" and t.signed:
        fixed = (word & ~top) | np.where(neg, zero + msb, zero + (top ^ msb))
    elif t.overflow == "AP_WRAP":
        fixed = word | top  # unsigned: ones on underflow too
    elif t.overflow == "AP_WRAP_SM":
        fixed = _wrap_sign_magnitude(trunc, word, neg, t)
    elif t.signed:
        low = msb | 1 if t.overflow == "AP_SAT_SYM" else msb
        fixed = np.where(over, zero + (msb - 1), zero + low)
    else:
        fixed = np.where(over, zero + mask, zero)
    return _signed(np.where(over | under, fixed, word), t)


def _wrap_sign_magnitude(trunc: Any, word: Any, neg: Any, t: FixedFormat) -> Any:
    """AP_WRAP_SM: complement the word by the header's rule, then force the saturation bits."""
    width, sat = t.width, t.sat_bits
    mask = (1 << width) - 1
    msb = 1 << (width - 1)
    new_msb = (word >> (width - 1)) & 1
    zero = word & 0
    if sat == 0:
        deleted = (trunc >> width) & 1  # first bit above the MSB, before rounding
        return np.where(deleted != new_msb, ~word & mask, word)
    if sat == 1:
        flipped = np.where(neg != (new_msb != 0), ~word & mask, word)
        return (flipped & ~msb) | np.where(neg, zero + msb, zero)
    top = ((1 << sat) - 1) << (width - sat)
    low_sat = ((word >> (width - sat)) & 1) != 0
    flipped = np.where(low_sat == neg, ~word & mask, word)
    return (flipped & ~top) | np.where(neg, zero + msb, zero + (top ^ msb))


def _signed(word: Any, t: FixedFormat) -> Any:
    """A W-bit word as the raw value: two's complement for ap_fixed, plain for ap_ufixed."""
    if not t.signed:
        return word
    return np.where(word >= 1 << (t.width - 1), word - (1 << t.width), word)


def _pack(flat: list[int], shape: tuple[int, ...], t: FixedFormat) -> np.ndarray:
    """Python-int results back into an array of the dtype to_raw promises for t."""
    dtype = np.int64 if t.width <= INT64_MAX_WIDTH else object
    out = np.empty(len(flat), dtype=dtype)
    out[:] = flat
    return out.reshape(shape)
