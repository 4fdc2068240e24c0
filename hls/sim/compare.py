"""Golden against csim: every output of one call compared by its type's rule (the codec's)."""

from __future__ import annotations

from typing import Any

from hls.backend.codec import codec_for
from hls.types import ArrayType, StreamType, TupleType


def compare_outputs(names: list[str], types: list[Any], golden_args: list[Any], csim_args: list[Any],
                    return_type: Any, expected: Any, actual: Any, rtol: float, atol: float) -> list[str]:
    """Compare each array or stream argument after the call (a stream: what it holds) and the return
    value(s); the names compared, in order. hls.VerificationError names the first mismatch."""
    compared = []
    for name, t, g, c in zip(names, types, golden_args, csim_args, strict=True):
        if isinstance(t, (ArrayType, StreamType)):
            codec_for(t.elem).compare(name, g, c, rtol, atol)
            compared.append(name)
    return compared + compare_results(return_type, expected, actual, rtol, atol)


def compare_results(t: Any, expected: Any, actual: Any, rtol: float, atol: float) -> list[str]:
    """The returned value(s): one scalar, each element of a tuple, or a returned array."""
    if t is None:
        return []
    if isinstance(t, TupleType):
        for i, elem in enumerate(t.elems):
            codec_for(elem).compare(f"return value {i}", expected[i], actual[i], rtol, atol)
        return [f"return[{i}]" for i in range(len(t.elems))]
    codec_for(t.elem if isinstance(t, ArrayType) else t).compare("return value", expected, actual, rtol, atol)
    return ["return"]
