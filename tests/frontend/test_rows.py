"""Rows of n-D arrays handed to sub-kernels and dataflow processes (issue 25): `row_sum(M[i])`,
`pe(buf[r], buf[r + 1])`. The C++ passes `M[i]`, a pointer to the row; in a dataflow region each
compile-time row is a channel of its own. Golden == csim == an independent numpy reference."""

import numpy as np
import pytest

import hls

R, C = 3, 8
N = 8
STAGES = 3  # log2(N)
P = 4


@hls.kernel
def row_sum(r: hls.int32[C]) -> hls.int32:
    s = hls.int32(0)
    for j in range(C):
        s += r[j]
    return s


@hls.kernel
def scale_row(r: hls.int32[C], out: hls.int32[C], f: hls.int32):
    for j in range(C):
        out[j] = r[j] * f


@hls.kernel
def rows_of_matrix(M: hls.int32[R, C], sums: hls.int32[R], O: hls.int32[R, C]):
    for i in range(R):
        sums[i] = row_sum(M[i])
        scale_row(M[i], O[i], i + 1)


@hls.kernel
def rows_by_iteration(M: hls.int32[R, C]) -> hls.int32:
    total = hls.int32(0)
    for row in M:
        total += row_sum(row)
    return total


@hls.kernel
def plane_rows(T: hls.int32[2, R, C], out: hls.int32[2, R]):
    for p in range(2):
        for i in range(R):
            out[p, i] = row_sum(T[p, i])


@hls.kernel
def copy_row(a: hls.int32[N], b: hls.int32[N]):
    for i in range(N):
        b[i] = a[i]


@hls.kernel
def merge_pass(src: hls.int32[N], dst: hls.int32[N], width: hls.int32):
    for lo in range(0, N, 2 * width):
        mid = min(lo + width, N)
        hi = min(lo + 2 * width, N)
        i = mid - width
        j = mid
        for k in range(lo, hi):
            if j >= hi or (i < mid and src[i] <= src[j]):
                dst[k] = src[i]
                i += 1
            else:
                dst[k] = src[j]
                j += 1


@hls.kernel
def merge_sort(a: hls.int32[N], out: hls.int32[N]):
    """The Vitis merge-sort shape: one process per stage, each reading one row of `temp` and writing the next."""
    hls.dataflow()
    temp = hls.zeros((STAGES + 1, N), hls.int32)
    copy_row(a, temp[0])
    for stage in range(STAGES):
        hls.unroll()
        merge_pass(temp[stage], temp[stage + 1], 1 << stage)
    copy_row(temp[STAGES], out)


@hls.kernel
def pe(src: hls.int32[N], dst: hls.int32[N], w: hls.int32):
    for i in range(N):
        dst[i] = src[i] * w + i


@hls.kernel
def pe_chain(a: hls.int32[N], out: hls.int32[N]):
    """A chain of processing elements joined by the rows of one buffer."""
    hls.dataflow()
    buf = hls.zeros((P + 1, N), hls.int32)
    copy_row(a, buf[0])
    for p in range(P):
        hls.unroll()
        pe(buf[p], buf[p + 1], p + 2)
    copy_row(buf[P], out)


def _plain(kernel):
    return kernel.__hls_kernel__


def test_rows_to_sub_kernels_agree_with_numpy():
    M = (np.arange(R * C, dtype=np.int32).reshape(R, C) * 37) % 101 - 50
    got = []
    for run in (rows_of_matrix, rows_of_matrix.csim):
        sums, O = np.zeros(R, np.int32), np.zeros((R, C), np.int32)
        run(M, sums, O)
        got.append((sums.tolist(), O.tolist()))
    want = (M.astype(np.int64).sum(axis=1).tolist(), (M.astype(np.int64) * np.arange(1, R + 1)[:, None]).tolist())
    assert got[0] == got[1] == want
    cpp = rows_of_matrix.cpp
    assert "row_sum(M[i])" in cpp and "scale_row(M[i], O[i], i + 1)" in cpp


def test_row_local_of_a_for_loop_is_passed_as_a_row():
    M = np.arange(R * C, dtype=np.int32).reshape(R, C) - 7
    assert rows_by_iteration(M) == rows_by_iteration.csim(M) == int(M.astype(np.int64).sum())


def test_rows_of_a_3d_array():
    T = np.arange(2 * R * C, dtype=np.int32).reshape(2, R, C) * 3 - 20
    golden, native = np.zeros((2, R), np.int32), np.zeros((2, R), np.int32)
    plane_rows(T, golden)
    plane_rows.csim(T, native)
    assert golden.tolist() == native.tolist() == T.astype(np.int64).sum(axis=2).tolist()
    assert "row_sum(T[p][i])" in plane_rows.cpp


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_merge_sort_through_rows_of_a_dataflow_buffer(seed):
    a = np.random.default_rng(seed).integers(-100, 100, N).astype(np.int32)
    golden, native = np.zeros(N, np.int32), np.zeros(N, np.int32)
    merge_sort(a, golden)
    merge_sort.csim(a, native)
    assert golden.tolist() == native.tolist() == sorted(a.tolist())
    cpp = merge_sort.cpp
    assert "merge_pass(temp[0], temp[1], 1);" in cpp and "merge_pass(temp[2], temp[3], 4);" in cpp
    # each row is its own channel: a process waits only for the writer of the row it reads
    assert 'hls_region.after("merge_pass_1", {"merge_pass"});' in cpp


def test_pe_chain_through_rows():
    a = np.arange(N, dtype=np.int32) - 3
    golden, native = np.zeros(N, np.int32), np.zeros(N, np.int32)
    pe_chain(a, golden)
    pe_chain.csim(a, native)
    want = a.astype(np.int64)
    for p in range(P):
        want = want * (p + 2) + np.arange(N)
    assert golden.tolist() == native.tolist() == want.tolist()
    report = pe_chain.report().to_dict()
    assert report["latency"]["max"] is not None


def test_report_sees_the_callees_accesses_through_the_row():
    text = str(rows_of_matrix.report())
    assert "(M)" in text  # the reads of r in row_sum are reads of M's bundle


def _kernel_from(tmp_path, body: list[str]):
    source = "\n".join(["import hls", f"N = {N}", *body, ""])
    path = tmp_path / "hls_rows_bad.py"
    path.write_text(source)
    namespace: dict = {}
    exec(compile(source, str(path), "exec"), namespace)
    return namespace


def _error_at(tmp_path, body: list[str], line: int, words: str) -> None:
    k = _kernel_from(tmp_path, body)["k"]
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert f"hls_rows_bad.py:{line}:" in str(info.value) and words in str(info.value)


SINK = ["@hls.kernel", "def sink(a: hls.int32[N], b: hls.int32[N]):", "    for i in range(N):",
        "        b[i] = a[i]"]


def test_run_time_row_index_into_a_dataflow_process_is_an_error(tmp_path):
    _error_at(tmp_path, [*SINK, "@hls.kernel", "def k(a: hls.int32[N], out: hls.int32[N], r: hls.int32):",
                         "    hls.dataflow()", "    buf = hls.zeros((2, N), hls.int32)", "    sink(a, buf[r])",
                         "    sink(buf[1], out)"], 11, "compile-time constant")


def test_two_processes_writing_one_row_is_an_error(tmp_path):
    _error_at(tmp_path, [*SINK, "@hls.kernel", "def k(a: hls.int32[N], out: hls.int32[N]):",
                         "    hls.dataflow()", "    buf = hls.zeros((2, N), hls.int32)", "    sink(a, buf[0])",
                         "    sink(a, buf[0])", "    sink(buf[0], out)"], 12, "written by two processes")


def test_whole_array_and_its_row_written_by_two_processes_is_an_error(tmp_path):
    body = ["@hls.kernel", "def fill(m: hls.int32[2, N]):", "    for i in range(N):", "        m[1, i] = i"]
    _error_at(tmp_path, [*SINK, *body, "@hls.kernel", "def k(a: hls.int32[N], out: hls.int32[N]):",
                         "    hls.dataflow()", "    buf = hls.zeros((2, N), hls.int32)", "    sink(a, buf[0])",
                         "    fill(buf)", "    sink(buf[1], out)"], 16, "written by two processes")


def test_row_of_a_1d_array_is_an_error(tmp_path):
    _error_at(tmp_path, [*SINK, "@hls.kernel", "def k(a: hls.int32[N], out: hls.int32[N]):",
                         "    sink(a[0], out)"], 9, "must be int32[8]")


def test_row_of_the_wrong_shape_is_an_error(tmp_path):
    _error_at(tmp_path, [*SINK, "@hls.kernel", "def k(m: hls.int32[2, 4], out: hls.int32[N]):",
                         "    sink(m[0], out)"], 9, "must be int32[8]")


def test_row_index_out_of_bounds_is_an_error(tmp_path):
    _error_at(tmp_path, [*SINK, "@hls.kernel", "def k(m: hls.int32[2, N], out: hls.int32[N]):",
                         "    sink(m[2], out)"], 9, "out of bounds")


@hls.kernel
def fill_row(r: hls.int32[N], v: hls.int32):
    for i in range(N):
        r[i] = v * i


@hls.kernel
def fill_both(m: hls.int32[2, N]):
    fill_row(m[0], 2)
    fill_row(m[1], 3)


@hls.kernel
def nested_rows(out: hls.int32[N]):
    hls.dataflow()
    buf = hls.zeros((2, N), hls.int32)
    fill_both(buf)
    copy_row(buf[1], out)


def test_rows_a_process_hands_on_are_writes_of_its_array():
    golden, native = np.zeros(N, np.int32), np.zeros(N, np.int32)
    nested_rows(golden)
    nested_rows.csim(native)
    assert golden.tolist() == native.tolist() == [3 * i for i in range(N)]
    assert 'hls_region.after("copy_row", {"fill_both"});' in nested_rows.cpp


def test_mlir_refuses_a_row_at_its_line():
    with pytest.raises(hls.UnsupportedError) as info:
        _ = rows_of_matrix.mlir
    assert "test_rows.py:" in str(info.value) and "row" in str(info.value)
