"""`hls.stream_of_blocks`, `hls.write_lock`, `hls.read_lock`: a FIFO of whole arrays between two
processes of a dataflow region (UG1399 "HLS Stream of Blocks Library", `hls::stream_of_blocks<T[N]>`).

`buf = hls.stream_of_blocks(hls.int32[16], depth=2)` declares it; the producer process fills one block
in `with hls.write_lock(buf) as b: b[i] = ...` and the consumer reads one in
`with hls.read_lock(buf) as b: ... b[i]`. Leaving the `with` releases the block, as the C++ lock's
destructor does at the end of its scope. `depth` counts every block, the producer's and the
consumer's included (UG1399), so with the default 2 the producer can fill one block while the consumer
reads the one before. The frontend compiles the declaration and the `with` (hls/frontend/blocks.py);
what they do in Python mode is the golden runtime's (hls/golden/streams.py registers it).
"""

from __future__ import annotations

from typing import Any

from hls.lang.storage import implementation
from hls.types import ArrayType, BlocksType, ScalarType


def blocks_type(block: Any, depth: Any = 2) -> BlocksType:
    """The type of a FIFO of `block` arrays (an hls array type such as hls.int32[16]) of `depth` blocks."""
    if not isinstance(block, ArrayType) or not isinstance(block.elem, ScalarType) \
            or isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise TypeError("hls.stream_of_blocks(T[N], depth=D) takes an array type of scalars (hls.int32[16]) and "
                        "a positive integer depth")
    return BlocksType(block.elem, depth, block)


class _BlocksFactory:
    """`hls.stream_of_blocks(T[N], depth=D)` declares one; `hls.stream_of_blocks[T[N]]` annotates a
    parameter of a process (C++ `hls::stream_of_blocks<T[N]> &`)."""

    def __call__(self, block: ArrayType, depth: int = 2) -> Any:
        return implementation("stream_of_blocks")(blocks_type(block, depth))

    def __getitem__(self, params: Any) -> BlocksType:
        params = params if isinstance(params, tuple) else (params,)
        return blocks_type(*params)

    def __repr__(self) -> str:
        return "hls.stream_of_blocks"


stream_of_blocks = _BlocksFactory()


def write_lock(buf: Any) -> Any:
    """`with hls.write_lock(buf) as b:` waits for a free block of `buf`, hands it over as `b` and, at
    the end of the `with`, passes it on to the consumer."""
    return implementation("write_lock")(buf)


def read_lock(buf: Any) -> Any:
    """`with hls.read_lock(buf) as b:` waits for the next filled block of `buf`, hands it over as `b`
    (read only) and, at the end of the `with`, frees it for the producer."""
    return implementation("read_lock")(buf)
