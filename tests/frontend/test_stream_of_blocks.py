"""hls.stream_of_blocks with hls.write_lock / hls.read_lock (UG1399 "HLS Stream of Blocks Library"):
golden == csim == plain numpy, the depth counting the held blocks (a deadlock and a normal end in both
models), Vitis's C++ spelling, the estimate, and the refused shapes at their lines."""

import numpy as np
import pytest

import hls
from tests.both_models import assert_deadlocks_in_both, outputs_in_both
from tests.error_marks import assert_error_at_marker
from tests.kernels import block_kernels as bk

SIZE = bk.M * bk.N


def reverse_pairs_expected(a: np.ndarray) -> list[int]:
    """Each block is a[k*N:(k+1)*N] * 3 reversed; the consumer adds each item to the next (cyclically)."""
    blocks = (a.astype(np.int64).reshape(bk.M, bk.N) * 3)[:, ::-1]
    return (blocks + np.roll(blocks, -1, axis=1)).reshape(-1).tolist()


def loops_expected(a: np.ndarray) -> list[int]:
    """Block k holds a[k*N + i] - k (int16 wrap); the consumer's running sum reads it back to front."""
    blocks = (a.astype(np.int64).reshape(bk.M, bk.N) - np.arange(bk.M)[:, None] + 2**15) % 2**16 - 2**15
    return np.cumsum(blocks[:, ::-1], axis=1).reshape(-1).tolist()


@pytest.mark.parametrize("seed", [0, 1])
def test_sub_kernel_processes_golden_csim_and_numpy_agree(seed):
    a = np.random.default_rng(seed).integers(-2**20, 2**20, SIZE).astype(np.int32)
    golden, native = outputs_in_both(bk.reverse_pairs, a, SIZE, np.int32)
    assert golden == native == reverse_pairs_expected(a)


def test_loop_processes_with_depth_three_golden_csim_and_numpy_agree():
    a = np.random.default_rng(2).integers(-2**15, 2**15, SIZE).astype(np.int16)
    golden, native = outputs_in_both(bk.loops, a, SIZE, np.int32)
    assert golden == native == loops_expected(a)


def test_two_dimensional_fixed_point_blocks_golden_csim_and_numpy_agree():
    raw = np.random.default_rng(3).integers(-2**11, 2**11, bk.M * bk.R * bk.C)
    a = raw / 2**8  # exact ap_fixed<12, 4> values (8 fraction bits)
    golden, native = np.zeros(a.size), np.zeros(a.size)
    bk.tiles(a, golden)
    bk.tiles.csim(a, native)
    # tile k holds a[k*R*C + j*R + i] at (i, j); read row by row, doubled: exact in ap_fixed<16, 6>
    expected = (a.reshape(bk.M, bk.C, bk.R).transpose(0, 2, 1) * 2).reshape(-1)
    assert golden.tolist() == native.tolist() == expected.tolist()
    assert "hls::stream_of_blocks<ap_fixed<12, 4>[2][4]> buf;" in bk.tiles.cpp
    assert "t[i][j]" in bk.tiles.cpp


def test_a_task_consuming_blocks_idles_at_the_normal_end_in_both_models():
    a = np.random.default_rng(4).integers(-1000, 1000, SIZE).astype(np.int32)
    golden, native = outputs_in_both(bk.task_consumer, a, SIZE, np.int32)
    blocks = (a.astype(np.int64).reshape(bk.M, bk.N) * 3)[:, ::-1]
    assert golden == native == (blocks - blocks[:, :1]).reshape(-1).tolist()
    cpp = bk.task_consumer.cpp
    assert "hls_thread_local hls::stream_of_blocks<int32_t[8]> buf;" in cpp
    assert "hls_thread_local hls::task unpack_task(unpack, buf, s);" in cpp
    assert bk.task_consumer.report().dataflow.deadlock is None


def test_a_block_passed_to_a_sub_kernel_in_a_pipelined_loop():
    a = np.random.default_rng(5).integers(-10**6, 10**6, SIZE).astype(np.int32)
    golden, native = outputs_in_both(bk.pipelined, a, SIZE, np.int32)
    blocks = a.astype(np.int64).reshape(bk.M, bk.N) * np.arange(1, bk.M + 1)[:, None]
    assert golden == native == blocks[:, ::-1].reshape(-1).tolist()
    assert "scale(b, k + 1);" in bk.pipelined.cpp
    assert bk.pipelined.report().dataflow.deadlock is None


def test_depth_counts_held_blocks_a_deadlock_in_both_models():
    """The producer releases M blocks before the consumer takes one: depth 2 (and M - 1) cannot hold them."""
    a = np.arange(SIZE, dtype=np.int32)
    for kernel, depth in ((bk.full_of_blocks, 2), (bk.one_short, bk.M - 1)):
        assert_deadlocks_in_both(kernel, lambda: (a, np.zeros(SIZE, np.int32)),
                                 [f"process 'ahead' writes the full FIFO 'buf' (depth {depth})",
                                  "process 'behind' reads the empty FIFO 's'"])


def test_depth_m_ends_normally_in_both_models():
    a = np.arange(SIZE, dtype=np.int32) * 5 - 40
    golden, native = outputs_in_both(bk.deep_enough, a, SIZE, np.int32)
    assert golden == native == (a.astype(np.int64) + 1).tolist()


def test_cpp_spells_vitis_stream_of_blocks_and_scoped_locks():
    cpp = bk.reverse_pairs.cpp
    assert '#include "hls_streamofblocks.h"' in cpp
    assert "hls::stream_of_blocks<int32_t[8]> buf;" in cpp
    assert "static void fill(int32_t a[32], hls::stream_of_blocks<int32_t[8]> &buf)" in cpp
    assert "{\n            hls::write_lock<int32_t[8]> b(buf);\n" in cpp
    assert "hls::read_lock<int32_t[8]> b(buf);" in cpp
    assert "hls::stream_of_blocks<int16_t[8], 3> buf;" in bk.loops.cpp
    assert "hls::stream_of_blocks<int32_t[8], 4> &buf" in bk.deep_enough.cpp


def test_timed_simulation_waits_where_the_locks_wait():
    """The trace's two FIFOs of a stream of blocks: `buf` (data, release -> acquire) and `buf.held` (the
    blocks taken, acquire -> release); sizing the latter finds the depth Python mode and csim need."""
    rows = {p.name: p for p in bk.deep_enough.report().dataflow.processes}
    assert {"ahead", "behind"} <= set(rows)
    sized = bk.deep_enough.size_fifos()
    assert sized["buf.held"] == bk.M  # M - 1 deadlocks (test above), M ends normally
    assert sized["buf"] <= sized["buf.held"]
    for kernel in (bk.full_of_blocks, bk.one_short):
        assert "ahead waits on buf.held (full)" in kernel.report().dataflow.deadlock
    assert bk.deep_enough.report().dataflow.deadlock is None


@pytest.mark.parametrize("name, exc, fragment", [
    ("two_writers", hls.HLSTypeError, "more than one producer"),
    ("lock_in_region", hls.UnsupportedError, "is no process"),
    ("escaping", hls.UnsupportedError, "released at the end of its `with`"),
    ("wrong_rank", hls.HLSTypeError, "indexed with 2 indices"),
    ("write_in_read_lock", hls.UnsupportedError, "taken with hls.read_lock: it is read only"),
    ("varying_shape", hls.HLSTypeError, "unknown name 'n'"),
    ("no_region", hls.UnsupportedError, "declare it in a kernel whose body starts with hls.dataflow()"),
    ("nested_locks", hls.UnsupportedError, "no nested acquire"),
])
def test_refused_shapes_at_their_line(name, exc, fragment):
    assert_error_at_marker(bk, name, exc, fragment)


def test_a_stream_of_blocks_is_no_top_level_port():
    with pytest.raises(hls.HLSError, match="is no port of a top kernel"):
        bk.fill.csim(np.zeros(SIZE, np.int32), None)


def test_mlir_export_refuses_it_at_the_lock():
    with pytest.raises(hls.UnsupportedError, match="stream of blocks"):
        bk.reverse_pairs.mlir()


def test_exported_kernel_passes_make_csim(tmp_path):
    from tests.project.test_export import make

    project = bk.reverse_pairs.export(tmp_path / "reverse_pairs")
    assert (project / "csim_include" / "hls_streamofblocks.h").is_file()
    run = make(project, "csim")
    assert run.returncode == 0 and "PASS:" in run.stdout, run.stdout + run.stderr
