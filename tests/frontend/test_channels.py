"""hls.split / hls.merge (UG1399 split/merge channels): golden == csim (and == plain Python for round
robin), load balance deterministic in both models, the normal end and a deadlock, the C++ objects,
the timed simulation, and the refused shapes at their lines."""

import numpy as np
import pytest

import hls
from tests.both_models import assert_deadlocks_in_both, outputs_in_both
from tests.error_marks import assert_error_at_marker
from tests.kernels import channel_kernels as ck


def farm_expected(a):
    workers = (lambda v: v + 1000, lambda v: v * 2, lambda v: -v)
    return [workers[i % 3](v) for i, v in enumerate(a.tolist())]


@pytest.mark.parametrize("seed", [0, 1])
def test_round_robin_farm_golden_csim_and_plain_python_agree(seed):
    a = np.random.default_rng(seed).integers(-500, 500, ck.N).astype(np.int32)
    golden, native = outputs_in_both(ck.farm, a, ck.N, np.int32)
    assert golden == native == farm_expected(a)


@pytest.mark.parametrize("seed", [2, 3])
def test_split_and_merge_of_list_elements_agree_with_plain_python(seed):
    """`hls.split.round_robin(r[1], ...)` / `hls.merge...(..., q[0])`: the object's member takes the list
    element's place, the processes around it read and write that member."""
    a = np.random.default_rng(seed).integers(-500, 500, ck.N).astype(np.int32)
    golden, native = outputs_in_both(ck.listed_farm, a, ck.N, np.int32)
    expected = [v + 1000 if i % 2 == 0 else -v for i, v in enumerate(a.tolist())]
    assert golden == native == expected
    cpp = ck.listed_farm.cpp
    assert "hls::split::round_robin<int32_t, 2>" in cpp and "relay(r[0], split_r_1.in);" in cpp


def test_an_argument_updated_in_place_downstream_of_its_reader_through_a_farm():
    """load reads `a`, store overwrites it, a split/merge farm between them: the store is fed by the load, so
    the region is accepted (an unordered in-place update is refused: test_scoping)."""
    golden, native = np.arange(ck.N, dtype=np.int32), np.arange(ck.N, dtype=np.int32)
    ck.in_place_farm(golden)
    ck.in_place_farm.csim(native)
    assert golden.tolist() == native.tolist() == [v + 1000 if v % 2 == 0 else -v for v in range(ck.N)]


def test_load_balance_is_deterministic_and_the_same_in_both_models():
    a = np.arange(ck.N, dtype=np.int32) * 7 - 30
    runs = []
    for run in (ck.balanced, ck.balanced, ck.balanced.csim, ck.balanced.csim):
        b = np.zeros(ck.N, np.int32)
        run(a, b)
        runs.append(b.tolist())
    assert runs[0] == runs[1] == runs[2] == runs[3]
    # every item went through one of the two workers, each worker's items in order
    plus = [v - 1000 for v in runs[0] if v >= 900]
    twice = [v // 2 for v in runs[0] if v < 900]
    assert sorted(plus + twice) == sorted(a.tolist())
    assert plus == sorted(plus) and twice == sorted(twice) and plus and twice


def test_streaming_split_ends_when_its_input_is_empty():
    outs = []
    for run in (ck.scatter, ck.scatter.csim):
        y0, y1 = hls.Stream(hls.int32), hls.Stream(hls.int32)
        run(hls.Stream(hls.int32, [1, 2, 3, 4, 5]), y0, y1)
        outs.append((np.asarray(y0).tolist(), np.asarray(y1).tolist()))
    assert outs[0] == outs[1] == ([2002, 2006, 2010], [-1002, -1004])


def test_an_unbalanced_merge_deadlocks_in_both_models():
    a = np.arange(ck.N, dtype=np.int32)
    assert_deadlocks_in_both(ck.unbalanced_merge, lambda: (a, np.zeros(ck.N, np.int32)),
                             ["process 'store' reads the empty FIFO 'out'",
                              "process 'merge_out' reads the empty FIFO 'r1'"])


def test_cpp_declares_vitis_split_and_merge_objects_and_uses_their_members():
    cpp = ck.farm.cpp
    assert '#include "hls_np_channel.h"' in cpp
    assert "hls_thread_local hls::split::round_robin<int32_t, 3> split_s;" in cpp
    assert "hls_thread_local hls::merge::round_robin<int32_t, 3> merge_out;" in cpp
    assert "load(a, split_s.in);" in cpp and "store(merge_out.out, b);" in cpp
    assert "hls_thread_local hls::task twice_task(twice, split_s.out[1], merge_out.in[1]);" in cpp
    assert "hls_split_round_robin" not in cpp  # the bodiless IR function is not written
    assert "hls::split::load_balance<int32_t, 2>" in ck.balanced.cpp
    assert "hls::merge::load_balance<int32_t, 2>" in ck.balanced.cpp


def test_timed_simulation_has_split_and_merge_as_small_processes():
    rows = {p.name: p for p in ck.farm.report().dataflow.processes}
    assert {"split_s", "merge_out"} <= set(rows)
    assert rows["split_s"].end >= ck.N and rows["merge_out"].end >= ck.N  # one item per iteration at most
    assert set(ck.farm.size_fifos()) == {"s", "w0", "w1", "w2", "r0", "r1", "r2", "out"}


@pytest.mark.parametrize("name, exc, fragment", [
    ("split_of_argument", hls.UnsupportedError, "is a kernel argument"),
    ("split_one_output", hls.UnsupportedError, "at least two outputs"),
    ("split_mixed_types", hls.HLSTypeError, "carries one type"),
    ("split_into_merge", hls.UnsupportedError, "already belongs to a split or merge"),
    ("merge_duplicate", hls.UnsupportedError, "already belongs to a split or merge"),
    ("split_two_readers", hls.HLSTypeError, "more than one producer"),
    ("listed_duplicate", hls.UnsupportedError, "'r[1]' already belongs to a split or merge"),
])
def test_refused_channel_shapes_at_their_line(name, exc, fragment):
    assert_error_at_marker(ck, name, exc, fragment)


def test_exported_farm_passes_make_csim(tmp_path):
    from tests.project.test_export import make

    project = ck.farm.export(tmp_path / "farm")
    assert (project / "csim_include" / "hls_np_channel.h").is_file()
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
