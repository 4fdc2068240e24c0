"""Quotient and remainder in one kernel: a tuple return becomes two reference outputs in C++."""

import hls


@hls.kernel
def divmod_k(a: hls.int18, b: hls.uint13) -> tuple[hls.int18, hls.uint13]:
    d = b | 1  # never zero: an odd divisor
    q = a // d  # Python floors; the C++ corrects its truncating division
    r = a % d  # takes the divisor's sign, so it is never negative here
    return q, r


@hls.kernel
def digits(n: hls.uint32, out: hls.uint8[10]) -> hls.uint8:
    """Decimal digits of n, least significant first, through the sub-kernel; returns how many."""
    count = hls.uint8(0)
    rest = hls.int18(0)
    for i in range(10):
        rest = hls.int18(n % 100000) if i == 0 else rest
        q, r = divmod_k(rest, 10)
        out[i] = hls.uint8(r)
        rest = q
        count += 1 if q != 0 or r != 0 else 0
    return count


KERNEL = divmod_k
