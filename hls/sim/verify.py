"""Golden vs csim comparison and random inputs drawn from the declared types."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from hls.errors import VerificationError
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, ScalarType, StructType


def random_value(t: ScalarType | ArrayType | StructType, rng: np.random.Generator) -> Any:
    """Inputs spanning each type: full range for integers and fixed point, [-1, 1) for floats; a
    struct field by field (a structured array, or one instance)."""
    shape = t.shape if isinstance(t, ArrayType) else ()
    elem = t.elem if isinstance(t, ArrayType) else t
    if isinstance(elem, StructType):
        records = np.zeros(shape or (1,), elem.storage_dtype)
        for member, ft in elem.fields:
            inner = ft.shape if isinstance(ft, ArrayType) else ()
            records[member] = random_value(getattr(ft, "elem", ft)[(*records.shape, *inner)], rng)
        return records if shape else elem.convert(records[0])
    if isinstance(elem, BoolType):
        values = rng.integers(0, 2, size=shape).astype(np.bool_)
    elif isinstance(elem, IntType):
        if elem.width <= 63:
            values = rng.integers(elem.min, elem.max, size=shape, endpoint=True, dtype=np.int64)
        else:
            # two 32-bit halves: every bit pattern of 64 bits, odd values included
            high, low = (rng.integers(0, 2**32, size=shape, dtype=np.int64).astype(np.uint64) for _ in range(2))
            values = elem.convert((high << np.uint64(32)) | low)
        values = np.asarray(values).astype(elem.storage_dtype)
    elif isinstance(elem, FixedType):
        # AP_SAT_SYM saturates the most negative code to -max, so no assignment can produce it
        low = elem.raw_min + (1 if elem.signed and elem.overflow == "AP_SAT_SYM" and elem.width > 1 else 0)
        raw = rng.integers(low, elem.raw_max, size=shape, endpoint=True, dtype=np.int64)
        values = raw.astype(np.float64) * float(elem.lsb)
    elif isinstance(elem, FloatType):
        values = rng.uniform(-1.0, 1.0, size=shape).astype(elem.storage_dtype)
    else:
        raise TypeError(elem)
    if shape:
        return np.ascontiguousarray(values)
    item = values.item() if isinstance(values, np.ndarray) else values
    if isinstance(elem, FloatType):
        return elem.storage_dtype.type(item)
    if isinstance(elem, FixedType):
        return Fraction(item)
    return item


def compare(name: str, elem: ScalarType | StructType, golden: Any, actual: Any, rtol: float, atol: float) -> None:
    """Exact for integers, bools and fixed point; floats within rtol/atol; structs field by field.
    Names the first mismatch."""
    if isinstance(elem, StructType):
        g, a = (np.asarray(v) if isinstance(v, np.ndarray) or hasattr(v, "__array__") else elem.to_storage([v])
                for v in (golden, actual))
        for member, ft in elem.fields:
            compare(f"{name}.{member}", getattr(ft, "elem", ft), g[member], a[member], rtol, atol)
        return
    g = np.asarray(golden)
    a = np.asarray(actual)
    if g.shape != a.shape:
        raise VerificationError(f"{name}: golden shape {g.shape} but csim shape {a.shape}")
    if isinstance(elem, FloatType):
        with np.errstate(all="ignore"):
            bad = ~np.isclose(a.astype(np.float64), g.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    else:
        bad = g != a
    if np.any(bad):
        index = tuple(int(i) for i in np.argwhere(bad)[0]) if g.ndim else ()
        count = int(np.count_nonzero(bad))
        where = f"{name}[{', '.join(map(str, index))}]" if index else name
        gv, av = (g[index], a[index]) if index else (golden, actual)
        raise VerificationError(f"{where}: golden {_show(gv)} but csim {_show(av)} ({count} of {bad.size} "
                                f"element{'s' if bad.size != 1 else ''} differ; {elem})")


def _show(value: Any) -> str:
    if isinstance(value, (np.floating, float)):
        return repr(float(value))
    if isinstance(value, Fraction):
        return f"{float(value)!r}"
    return repr(value.item() if isinstance(value, np.generic) else value)
