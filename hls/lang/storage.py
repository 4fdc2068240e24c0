"""The public names of kernel-local storage: `hls.zeros`, `hls.static` and `hls.stream`.

The frontend recognises these calls by the identity of the objects defined here and compiles them
(an on-chip array, a C++ `static` local, an `hls::stream`). What a call does when the golden model
runs it in Python mode is the golden runtime's: hls/golden/runtime.py and hls/golden/streams.py hand
their implementations to `provide` when imported (`import hls` imports them). So the DSL sits below
both the frontend and the runtime, and the frontend never imports the runtime.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hls.types import ScalarType, StreamType, stream_element, struct_type_of

_IMPLEMENTATIONS: dict[str, Callable[..., Any]] = {}


def provide(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the Python-mode implementation of the public name `name` (a decorator)."""
    def register(implementation: Callable[..., Any]) -> Callable[..., Any]:
        _IMPLEMENTATIONS[name] = implementation
        return implementation
    return register


def implementation(name: str) -> Callable[..., Any]:
    """The Python-mode implementation `provide` registered for `name`."""
    try:
        return _IMPLEMENTATIONS[name]
    except KeyError:
        raise RuntimeError(f"hls.{name} has no Python-mode implementation: import hls first") from None


def zeros(shape: Any, dtype: ScalarType | type) -> Any:
    """A local array, zero-initialised (hardware: an on-chip memory)."""
    return implementation("zeros")(shape, dtype)


def static(initial: Any) -> Any:
    """`x = hls.static(hls.int32(0))`: a kernel local that keeps its value from one call to the next.

    Only meaningful inside a kernel (the frontend compiles it to a C++ `static` local and the golden
    model keeps it on the kernel); called directly it returns `initial`.
    """
    return initial


class _StreamFactory:
    """`hls.stream[T]` annotates a FIFO parameter; `hls.stream(T, depth=N)` declares a local FIFO
    (in Python mode, a bounded runtime FIFO; in the C++, an hls::stream with a depth pragma)."""

    def __call__(self, elem: ScalarType, depth: int = 2) -> Any:
        elem = stream_element(struct_type_of(elem) or elem)
        if elem is None or isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise TypeError("hls.stream(T, depth=N) takes a scalar hls type, a struct or a 1-D array type, and a "
                            "positive integer depth")
        return implementation("stream")(elem, depth)

    def __repr__(self) -> str:
        return "hls.stream"

    def __getitem__(self, params: Any) -> StreamType:
        params = params if isinstance(params, tuple) else (params,)
        elem = stream_element(struct_type_of(params[0]) or params[0])
        depth = params[1] if len(params) > 1 else 2
        if elem is None or not isinstance(depth, int) or depth < 1:
            raise TypeError("stream takes [T] or [T, depth], T a scalar type, a struct or a 1-D array type")
        return StreamType(elem, depth)


stream = _StreamFactory()
