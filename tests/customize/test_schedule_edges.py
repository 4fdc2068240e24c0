"""Every primitive on every loop (and ordered loop pair) of edge kernels: nests that never run or run
once, empty bodies, stepped and negative ranges. Each use is either a clean HLSError located at the
schedule's call, or a kernel whose csim equals the original's golden model on random inputs."""

from __future__ import annotations

import inspect
import itertools
import json
import re

import pytest

import hls
from hls.customize.names import loop_refs
from hls.frontend.build import build_module
from tests.customize.test_customize import agrees
from tests.kernels import schedule_edge_kernels as ek
from tests.kernels import schedule_spelling_kernels as sk
from tests.kernels import stream_kernels

EDGE_KERNELS = ["zero_outer", "zero_inner", "one_trip", "empty_bodies", "stepped", "negative", "carried",
                "zero_siblings", "region_nest", "with_while",
                "indirect"]


def _loops(kernel) -> list[str]:
    module, _, _ = build_module(kernel)
    return [ref.path for func in module.functions.values() for ref in loop_refs(func)]


def _arrays(kernel) -> list[str]:
    return [name for name, value in inspect.signature(kernel.__hls_kernel__).parameters.items()]


def _uses(kernel) -> list[tuple[str, tuple, dict]]:
    """(primitive, arguments, options) for every loop, every ordered pair of loops and every array."""
    loops = _loops(kernel)
    uses: list[tuple[str, tuple, dict]] = []
    for loop in loops:
        uses += [("pipeline", (loop,), {}), ("pipeline", (loop,), {"ii": 2}), ("unroll", (loop,), {}),
                 ("unroll", (loop,), {"factor": 2}), ("loop_tripcount", (loop,), {"min": 0, "max": 4}),
                 ("loop_flatten", (loop,), {}), ("split", (loop, 1), {}), ("split", (loop, 2), {}),
                 ("split", (loop, 2), {"tail": True}), ("split", (loop, 3), {"tail": True}),
                 ("tile", ([loop], [2]), {})]
    for first, second in itertools.permutations(loops, 2):
        uses += [("reorder", (first, second), {}), ("fuse", (first, second), {}),
                 ("tile", ([first, second], [2, 2]), {})]
    for array in _arrays(kernel):
        uses += [("array_partition", (array, "cyclic", 2), {}), ("array_partition", (array,), {}),
                 ("bind_storage", (array, "ram_2p"), {})]
    return uses + [("dataflow", (), {}), ("inline", (), {})]


def _simulated(cpp: str) -> str:
    """The C++ g++ compiles for csim: HLS pragmas are no-ops there, so two schedules differing only in them
    simulate alike."""
    return re.sub(r"^\s*#pragma HLS.*$", "", cpp, flags=re.MULTILINE)


@pytest.mark.parametrize("name", EDGE_KERNELS)
def test_every_primitive_on_every_loop_is_clean(name):
    kernel = getattr(ek, name)
    checked: set[str] = set()
    counts = {"error": 0, "built": 0}
    for op, args, options in _uses(kernel):
        schedule = hls.customize(kernel)
        line = inspect.currentframe().f_lineno + 2
        try:
            built = getattr(schedule, op)(*args, **options).build()
        except hls.HLSError as exc:
            at_call = exc.loc is not None and (exc.loc.file, exc.loc.line) == (__file__, line)
            # a dataflow region's check is the inline statement's: at the kernel line, noting the call
            at_statement = op == "dataflow" and exc.loc is not None and exc.loc.file == ek.__file__ \
                and bool(exc.notes) and f" at {__file__}:{line}:" in exc.notes[-1]
            assert at_call or at_statement, f"{op}{args}: {exc}"
            counts["error"] += 1
            continue
        key = _simulated(built.cpp)
        if key not in checked:
            checked.add(key)
            agrees(kernel, built)
        counts["built"] += 1
        again = hls.Schedule.from_json(kernel, schedule.to_json()).build()
        assert again.cpp == built.cpp
    assert counts["built"] > 0


def test_misuses_are_clean_errors():
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: fuse: .*named twice|"
                                           r"test_schedule_edges.py:\d+:\d+: fuse: a loop cannot be fused with itself"):
        hls.customize(ek.zero_outer).fuse("i0", "i0")
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: tile: give a list of loops, got 'i0'"):
        hls.customize(ek.zero_outer).tile("i0", [2])
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: tile: give one factor per loop"):
        hls.customize(ek.zero_outer).tile(["i0"], 2)
    text = json.dumps({"kernel": "zero_outer", "schedule": [{"op": "split", "targets": ["i0"], "options": {}}]})
    with pytest.raises(hls.HLSError, match=r"schedule JSON, record 1: split\(\): missing a required argument: "
                                           "'factor'"):
        hls.Schedule.from_json(ek.zero_outer, text)
    text = json.dumps({"kernel": "zero_outer", "schedule": [{"op": "fuse", "targets": ["i0"]}]})
    with pytest.raises(hls.HLSError, match=r"schedule JSON, record 1: fuse\(\): missing a required argument"):
        hls.Schedule.from_json(ek.zero_outer, text)


def test_zero_trip_nests_transform():
    """The fuzz crash: a nest that never runs has no accesses to order, and splits into counters that
    still hold their step."""
    for schedule in (hls.customize(ek.zero_outer).reorder("j1", "i1"), hls.customize(ek.zero_outer).split("i1", 1),
                     hls.customize(ek.zero_outer).tile(["i1", "j1"], [1, 2]),
                     hls.customize(ek.zero_siblings).fuse("p", "r"),
                     hls.customize(ek.zero_siblings).split("p", 1, tail=True)):
        built = schedule.build()
        agrees(schedule.kernel, built)
    later = hls.customize(ek.zero_outer).split("i1", 1).pipeline("loop_i1_inner")  # the split's loops are named
    assert "loop_i1" not in later.build().cpp  # and the passes drop a loop that never runs, as unscheduled


def test_fusing_two_processes_of_a_dataflow_region_is_an_error():
    """Fuzz seed 2400000030: dataflow() then fuse of its two process loops deadlocked in csim (the region's
    processes and channels are fixed where the frontend read them)."""
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: fuse: loop_i and loop_k are processes "
                                           "of a dataflow region"):
        hls.customize(ek.region_nest).fuse("i", "k")
    with pytest.raises(hls.HLSError, match="fuse: loop_i and loop_j are processes of a dataflow region"):
        hls.customize(sk.region_plain).dataflow().fuse("i", "j")  # the campaign's spelling
    schedule = hls.customize(ek.region_nest).split("i", 2).reorder("i_inner", "i_outer")
    agrees(ek.region_nest, schedule.build())  # a transformation inside one process keeps the region


def test_a_tail_split_of_a_process_loop_is_an_error():
    """Fuzz seed 2313000651: a tail loop is a second process of the region writing the same arrays, which
    the region's checks (read from the source) never saw; csim raced where the golden model did not."""
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: split: loop_i is a process of a "
                                           "dataflow region"):
        hls.customize(ek.region_nest).split("i", 3, tail=True)


def test_dataflow_of_a_process_of_a_region_is_an_error():
    """Fuzz seed 2313000259: a schedule's dataflow(f) on a sub-kernel the caller's region runs as a process
    gave a Python-mode run unlike the kernel's; the inline hls.dataflow() in f is asked for."""
    with pytest.raises(hls.HLSError, match=r"test_schedule_edges.py:\d+:\d+: dataflow\('produce'\): "
                                           "'produce' is process"):
        hls.customize(stream_kernels.chain).dataflow("produce")
