"""`hls.split` and `hls.merge`: one stream distributed to N, N collected into one (UG1399 "HLS
Split/Merge Library", `hls::split::round_robin<T, N>`, `hls::merge::load_balance<T, N>`, ...).

In a dataflow region, `hls.split.round_robin(s, [w0, w1, w2])` is a process that sends the items of
`s` to w0, w1, w2, w0, ... and `hls.merge.round_robin([r0, r1], out)` one that takes them from r0,
r1, r0, ... into `out`. The load_balance forms send each item to the first output with room (and take
from the first input holding one), starting after the last one served: in RTL that depends on timing
(UG1399: "Load balancing can lead to non-deterministic results"); Python mode and csim decide it by
their one deterministic interleaving. The frontend compiles the statement (hls/frontend/tasks.py);
what it does in Python mode is the golden runtime's (hls/golden/channels.py registers it).
"""

from __future__ import annotations

from typing import Any

from hls.lang.storage import implementation

POLICIES = ("round_robin", "load_balance")


class Channel:
    """One of hls.split.round_robin, hls.split.load_balance, hls.merge.round_robin, hls.merge.load_balance."""

    def __init__(self, kind: str, policy: str):
        self.kind = kind  # "split" or "merge"
        self.policy = policy
        self.__name__ = policy

    def __call__(self, *args: Any) -> None:
        implementation(f"{self.kind}.{self.policy}")(*args)

    def __repr__(self) -> str:
        return f"hls.{self.kind}.{self.policy}"


class _Family:
    def __init__(self, kind: str):
        self.round_robin = Channel(kind, "round_robin")
        self.load_balance = Channel(kind, "load_balance")
        self.kind = kind

    def __repr__(self) -> str:
        return f"hls.{self.kind}"


split = _Family("split")
merge = _Family("merge")
