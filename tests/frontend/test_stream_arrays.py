"""FIFOs of small arrays (issue 25): `hls.stream[hls.int32[4]]` parameters, `hls.stream(hls.int32[4],
depth=2)` locals; a process writes and reads whole arrays. The C++ FIFO carries `struct int32_x4 {
int32_t data[4]; }`. Golden == csim == an independent numpy reference."""

import numpy as np
import pytest

import hls

N = 4
M = 6


@hls.kernel
def produce(a: hls.int32[M, N], s: hls.stream[hls.int32[N]]):
    for i in range(M):
        s.write(a[i])


@hls.kernel
def reverse_scale(s: hls.stream[hls.int32[N]], t: hls.stream[hls.int32[N]]):
    for i in range(M):
        v = s.read()
        w = hls.zeros((N,), hls.int32)
        for j in range(N):
            w[j] = v[N - 1 - j] * 2 + i
        t.write(w)


@hls.kernel
def consume(t: hls.stream[hls.int32[N]], out: hls.int32[M, N]):
    for i in range(M):
        v = t.read()
        for j in range(N):
            out[i, j] = v[j]


@hls.kernel
def blocks(a: hls.int32[M, N], out: hls.int32[M, N]):
    hls.dataflow()
    s = hls.stream(hls.int32[N], depth=2)
    t = hls.stream(hls.int32[N], depth=2)
    produce(a, s)
    reverse_scale(s, t)
    consume(t, out)


@hls.kernel
def rewrite(s: hls.stream[hls.int9[3]]):
    """The writer changes its array after each write: a FIFO item keeps what was written."""
    buf = hls.zeros((3,), hls.int9)
    for i in range(M):
        buf[i % 3] = i * 50
        s.write(buf)


@hls.kernel
def total(s: hls.stream[hls.int9[3]], out: hls.int32[M]):
    for i in range(M):
        v = s.read()
        out[i] = v[0] + v[1] + v[2]


@hls.kernel
def narrow_blocks(out: hls.int32[M]):
    hls.dataflow()
    s = hls.stream(hls.int9[3], depth=M)
    rewrite(s)
    total(s, out)


def test_processes_write_and_read_whole_arrays():
    a = (np.arange(M * N, dtype=np.int32).reshape(M, N) * 7) % 23 - 11
    golden, native = np.zeros((M, N), np.int32), np.zeros((M, N), np.int32)
    blocks(a, golden)
    blocks.csim(a, native)
    want = a[:, ::-1].astype(np.int64) * 2 + np.arange(M)[:, None]
    assert golden.tolist() == native.tolist() == want.tolist()
    design = blocks.compile().design
    assert "int32_t data[4];" in design.header and "hls::stream<int32_x4>" in blocks.cpp


def test_an_item_keeps_what_was_written():
    golden, native = np.zeros(M, np.int32), np.zeros(M, np.int32)
    narrow_blocks(golden)
    narrow_blocks.csim(native)
    buf, want = [0, 0, 0], []
    for i in range(M):
        buf[i % 3] = ((i * 50 + 256) % 512) - 256  # int9 wraps as the store does
        want.append(sum(buf))
    assert golden.tolist() == native.tolist() == want


def test_fifo_of_arrays_in_the_report():
    text = str(blocks.report())
    assert "128" in text.split("FIFO")[1]  # a 4 x int32 item is one 128-bit word


def _kernel(tmp_path, body: list[str]):
    source = "\n".join(["import hls", *body, ""])
    path = tmp_path / "hls_blocks_bad.py"
    path.write_text(source)
    namespace: dict = {}
    exec(compile(source, str(path), "exec"), namespace)
    return namespace["k"]


def test_writing_an_array_of_another_shape_is_an_error(tmp_path):
    k = _kernel(tmp_path, ["@hls.kernel", "def k(a: hls.int32[8], s: hls.stream[hls.int32[4]]):",
                           "    s.write(a)"])
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert "hls_blocks_bad.py:4:" in str(info.value) and "int32[4]" in str(info.value)


def test_a_fifo_of_2d_arrays_is_an_error(tmp_path):
    k = _kernel(tmp_path, ["@hls.kernel", "def k(a: hls.int32[8]):", "    s = hls.stream(hls.int32[2, 2], depth=2)"])
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert "hls_blocks_bad.py:4:" in str(info.value) and "1-D array" in str(info.value)


def test_a_fifo_of_arrays_as_a_top_level_port_is_a_clean_error():
    s = hls.Stream(hls.int32[N], [np.arange(N)])
    with pytest.raises(hls.HLSError) as info:
        consume.csim(s, np.zeros((M, N), np.int32))
    assert "FIFO of arrays" in str(info.value)
    with pytest.raises(hls.HLSError) as info:
        consume(s, np.zeros((M, N), np.int32))
    assert "FIFO of arrays" in str(info.value)
