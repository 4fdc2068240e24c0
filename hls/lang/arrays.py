"""Whole-array operations with no numpy spelling: `hls.matmul(A, B, acc=T)`, a contraction whose sums
accumulate in a declared type (hls.frontend.arrayexpr lowers it; numpy's `@` sums exactly)."""

from __future__ import annotations

from typing import Any

from hls.errors import HLSError


def matmul(a: Any, b: Any, acc: Any = None) -> Any:
    """`a @ b` (numpy's matmul shapes) with every partial sum held in `acc` (an hls scalar type) in a kernel."""
    raise HLSError("hls.matmul is used inside an @hls.kernel function; outside, use numpy's a @ b")
