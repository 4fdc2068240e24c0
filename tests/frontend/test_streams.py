"""Streams and dataflow regions: Python mode, csim, deadlocks, static checks, top-level streams."""

import textwrap
import time

import numpy as np
import pytest

import hls
from tests.conftest import load_example
from tests.kernels import stream_kernels as sk


def run_both(kernel, *args):
    golden = [a.copy() for a in args]
    native = [a.copy() for a in args]
    kernel(*golden)
    kernel.csim(*native)
    return golden, native


def test_chain_python_and_csim_agree():
    a = np.arange(sk.N, dtype=np.int32) * 3
    golden, native = run_both(sk.chain, a, np.zeros(sk.N, dtype=np.int32))
    assert list(golden[1]) == list(a) and list(native[1]) == list(a)


def test_cpp_has_stream_types_depth_pragmas_and_canonical_region():
    cpp = sk.chain.cpp
    assert "void produce(int32_t a[8], hls::stream<int32_t> &s)" in cpp
    assert 'hls::stream<int32_t> s("s");' in cpp
    assert "#pragma HLS stream variable=s depth=2" in cpp
    assert "#pragma HLS dataflow" in cpp
    assert "#define HLS_PROCESS_BEGIN(region, name)\n" in cpp  # vanishes for synthesis
    assert '#include "hls_stream.h"' in sk.chain.header


def test_top_level_streams_are_axis_ports_and_carry_values():
    cpp = sk.passthrough.cpp
    assert "#pragma HLS interface mode=axis port=x" in cpp and "#pragma HLS interface mode=axis port=y" in cpp
    x, y = hls.Stream(hls.int16, [1, -2, 3, 4]), hls.Stream(hls.int16)
    sk.passthrough(x, y, 3)
    assert list(np.asarray(y)) == [1, -2, 3] and len(x) == 1 and list(np.asarray(x)) == [4]
    x2, y2 = hls.Stream(hls.int16, [1, -2, 3, 4]), hls.Stream(hls.int16)
    sk.passthrough.csim(x2, y2, 3)
    assert list(np.asarray(y2)) == [1, -2, 3] and list(np.asarray(x2)) == [4]


def test_verify_compares_output_streams_and_leftovers():
    result = sk.passthrough.verify(hls.Stream(hls.int16, [5, 6, 7]), hls.Stream(hls.int16), 2)
    assert result["compared"] == ["x", "y"]
    assert list(np.asarray(result["outputs"][1])) == [5, 6]


def test_empty_top_level_input_is_an_error_at_the_read():
    with pytest.raises(hls.SimulationError, match="empty top-level input stream 'x'") as info:
        sk.passthrough(hls.Stream(hls.int16, [1]), hls.Stream(hls.int16), 2)
    assert info.value.loc.line == sk.passthrough.__hls_kernel__.__code__.co_firstlineno + 3
    with pytest.raises(hls.SimulationError, match="empty stream 'x'"):
        sk.passthrough.csim(hls.Stream(hls.int16, [1]), hls.Stream(hls.int16), 2)


def test_nonblocking_methods_agree():
    for values in ([1, 2, 3], list(range(8))):
        outs = []
        for run in (sk.nonblocking, sk.nonblocking.csim):
            x, y, got = hls.Stream(hls.int8, values), hls.Stream(hls.int8), np.zeros(1, dtype=np.int32)
            run(x, y, got)
            outs.append((int(got[0]), list(np.asarray(y))))
        assert outs[0] == outs[1]
        assert outs[0][1] == [2 * v for v in values]
        assert outs[0][0] == len(values) + 1000


def test_loops_are_processes_and_ping_pong_buffers():
    a = np.linspace(-1, 1, sk.N).astype(np.float32)
    golden, native = run_both(sk.loops_as_processes, a, np.zeros(sk.N, dtype=np.float32))
    assert np.array_equal(golden[1], a * np.float32(0.5) + 1) and np.array_equal(golden[1], native[1])
    a = np.arange(sk.N, dtype=np.int32)
    golden, native = run_both(sk.pingpong, a, np.zeros(sk.N, dtype=np.int32))
    assert list(golden[1]) == list(a[::-1] + 1) and list(native[1]) == list(golden[1])


def test_data_left_in_a_local_fifo_is_an_error():
    with pytest.raises(hls.SimulationError, match="4 items left in FIFO 's'"):
        sk.leftover(np.arange(sk.N, dtype=np.int32), np.zeros(sk.N, dtype=np.int32))


def test_fork_join_deadlock_names_three_blocked_lines_quickly():
    example = load_example(__import__("tests.conftest", fromlist=["ROOT"]).ROOT / "examples" / "fork_join.py")
    k = example.fork_join
    k.compile()
    x, y = np.arange(example.N, dtype=np.int16), np.zeros(example.N, dtype=np.int32)
    start = time.perf_counter()
    with pytest.raises(hls.DeadlockError) as info:
        k(x, y)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0
    text = str(info.value)
    source = open(example.__file__).read().splitlines()
    lines = {n + 1 for n, line in enumerate(source) if line.strip() in ("bypass.write(x[i])", "acc += samples.read()",
                                                                        "s = result.read()")}
    assert len(lines) == 3
    for line in lines:
        assert f"fork_join.py:{line}" in text
    assert "'fork' writes the full FIFO 'bypass' (depth 2)" in text
    assert "'total' reads the empty FIFO 'a'" in text and "'join' reads the empty FIFO 't'" in text
    with pytest.raises(hls.DeadlockError, match="'fork' writes the full FIFO 'bypass'"):
        k.csim(x, y)


def kernel_from(tmp_path, source, name):
    path = tmp_path / f"k_{name}.py"
    path.write_text("import hls\nfrom tests.kernels.stream_kernels import *\n" + textwrap.dedent(source))
    return getattr(load_example(path), name)


@pytest.mark.parametrize("body, message, line", [
    ("""
    @hls.kernel
    def two_producers(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        produce(a, s)
        produce(a, s)
        consume(s, b)
    """, "FIFO 's' has more than one producer in the dataflow region: 'produce' and 'produce_1'", 9),
    ("""
    @hls.kernel
    def same_process(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        for i in range(N):
            s.write(a[i])
            b[i] = s.read()
    """, "process 'loop_i' both reads and writes FIFO 's'", 8),
    ("""
    @hls.kernel
    def unbalanced(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s1 = hls.stream(hls.int32, depth=2)
        produce(a, s1)
        for i in range(N + 1):
            b[i % N] = s1.read()
    """, "produce writes 8 items to s1, loop_i reads 9", 9),
    ("""
    @hls.kernel
    def stream_for_array(a: hls.int32[N], b: hls.int32[N]):
        s = hls.stream(hls.int32, depth=2)
        produce(s, s)
    """, "argument 'a' of 'produce' expects int32[8]; got a stream", 7),
    ("""
    @hls.kernel
    def array_for_stream(a: hls.int32[N], b: hls.int32[N]):
        produce(a, b)
    """, "argument 's' of 'produce' is a stream of int32; got an array", 6),
    ("""
    @hls.kernel
    def statement_in_region(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        x = a[0] + 1
        b[0] = x
    """, "a dataflow region holds stream and array declarations, loops and sub-kernel calls only", 7),
])
def test_static_checks_point_at_the_line(tmp_path, body, message, line):
    name = body.split("def ")[1].split("(")[0]
    k = kernel_from(tmp_path, body, name)
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert message in info.value.message
    assert info.value.loc.line == line


def test_stream_declared_in_loop_and_bad_method_are_rejected(tmp_path):
    k = kernel_from(tmp_path, """
    @hls.kernel
    def bad_method(x: hls.stream[hls.int32]):
        x.peek()
    """, "bad_method")
    with pytest.raises(hls.UnsupportedError, match="streams have no method 'peek'"):
        k.compile()


def test_ir_prints_stream_ops_and_passes_keep_them():
    ir = sk.nonblocking.ir
    for op in ("hls.stream_read_nb", "hls.stream_write_nb", "hls.stream_status"):
        assert op in ir
    assert "hls.stream_read" in sk.chain.ir and "hls.stream_write" in sk.chain.ir


def test_nested_region_runs_inside_a_process():
    a = np.arange(sk.N, dtype=np.int32)
    golden, native = run_both(sk.outer_region, a, np.zeros(sk.N, dtype=np.int32))
    assert list(golden[1]) == [(v + 1) * 2 for v in a] and list(native[1]) == list(golden[1])
    trace = sk.outer_region.dataflow_trace()
    assert {f.name for f in trace.fifos} == {"s", "t", "inner_region/q"}
    assert [p.name for p in trace.processes][:3] == ["produce", "inner_region", "consume"]


def test_fixed_narrow_and_bool_streams_cross_the_boundary():
    values = [1.5, -2.25, 0.0, 3.0]
    result = sk.odd_types.verify(hls.Stream(hls.ap_fixed[16, 6], values), hls.Stream(hls.uint12),
                                 hls.Stream(hls.bool_))
    y, z = result["outputs"][1], result["outputs"][2]
    assert list(np.asarray(y)) == [12, (-18) % 4096, 0, 24] and list(np.asarray(z)) == [False, True, False, False]


def test_stream_argument_checks():
    with pytest.raises(hls.SimulationError, match="is a stream of int16"):
        sk.passthrough(np.zeros(3, dtype=np.int16), hls.Stream(hls.int16), 1)
    with pytest.raises(hls.SimulationError, match="is a stream of int16"):
        sk.passthrough.csim(hls.Stream(hls.int8, [1]), hls.Stream(hls.int16), 1)
    with pytest.raises(TypeError, match="positive integer depth"):
        hls.stream(hls.int8, depth=0)


def test_own_stream_header_comes_first_unless_vitis(monkeypatch, tmp_path):
    from hls.sim import toolchain

    monkeypatch.delenv("XILINX_HLS", raising=False)
    dirs = toolchain.include_dirs()
    assert dirs[0] == toolchain.own_include_dir() and (dirs[0] / "hls_stream.h").is_file()
    assert "HLS_PROJECT_OWN_STREAM" in (dirs[0] / "hls_stream.h").read_text()
    fake = tmp_path / "vitis"
    (fake / "include").mkdir(parents=True)
    (fake / "include" / "ap_int.h").write_text("")
    monkeypatch.setenv("XILINX_HLS", str(fake))
    assert toolchain.include_dirs() == [fake / "include", toolchain.own_include_dir()]


def test_verifier_rejects_mistyped_stream_ops():
    from hls.ir import ConstantOp, StreamOp, StreamWriteOp, VerifyError
    from hls.types import StreamType

    fifo = StreamOp(StreamType(hls.int8, 2), "s")
    value = ConstantOp(3, hls.int16)
    with pytest.raises(VerifyError, match="writes int16 into"):
        StreamWriteOp(value.result, fifo.result).verify()
    with pytest.raises(VerifyError, match="expects a stream"):
        StreamWriteOp(value.result, value.result).verify()


def test_ping_pong_reader_waits_for_its_writer_in_csim_too():
    a = np.arange(sk.N, dtype=np.int32)
    zeros = np.zeros(sk.N, dtype=np.int32)
    golden, native = run_both(sk.pingpong_with_fifo, a, zeros, zeros)
    assert list(golden[1]) == [2 * (sk.N - 1 - j) for j in range(sk.N)] and list(golden[2]) == list(a)
    assert list(native[1]) == list(golden[1]) and list(native[2]) == list(a)
    assert 'hls_region.after("loop_j", {"fill_and_send"});' in sk.pingpong_with_fifo.cpp


def test_stream_declaration_forms(tmp_path):
    k = kernel_from(tmp_path, """
    @hls.kernel
    def forms(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s = hls.stream(hls.int32, 3)
        produce(a, s)
        consume(s, b)
    """, "forms")
    assert "#pragma HLS stream variable=s depth=3" in k.cpp
    assert k.dataflow_trace().fifos[0].depth == 3
    bad = kernel_from(tmp_path, """
    @hls.kernel
    def bad_depth(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=0)
        produce(a, s)
        consume(s, b)
    """, "bad_depth")
    with pytest.raises(hls.HLSTypeError, match="stream depth must be a positive integer constant"):
        bad.compile()


def test_errors_in_loop_processes_point_at_their_line():
    """Loop processes are nested functions in Python mode: their blocked lines are still found."""
    a = np.arange(sk.N, dtype=np.int32)
    with pytest.raises(hls.DeadlockError) as info:
        sk.same_depth_deadlock(a, np.zeros(sk.N, dtype=np.int32))
    source = open(sk.__file__).read().splitlines()
    lines = [n + 1 for n, text in enumerate(source) if text.strip() in ("s.write(a[i])", "b[j] = t.read() + s.read()")]
    write_line, read_line = lines[-2], lines[-1]
    assert f"'loop_r' writes the full FIFO 's' (depth 2) at {sk.__file__}:{write_line}" in str(info.value)
    assert f"'loop_j' reads the empty FIFO 't' (depth 2) at {sk.__file__}:{read_line}" in str(info.value)
    assert info.value.loc.line == write_line and info.value.loc.col > 0


def test_a_dropped_read_survives_the_passes_and_compiles_warning_free(tmp_path):
    import subprocess

    from hls.sim.toolchain import ap_include_dir, compiler, own_include_dir

    assert sk.skip_first.ir.count("hls.stream_read") == 2
    assert "    x.read();\n" in sk.skip_first.cpp
    x, y = hls.Stream(hls.int16, [9, 1, 2, 3]), hls.Stream(hls.int16)
    sk.skip_first.csim(x, y)
    assert list(np.asarray(y)) == [1, 2, 3]
    design = sk.skip_first.compile().design
    for name, text in design.sources.items():
        (tmp_path / name).write_text(text)
    argv = [*compiler(), "-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-I",
            str(own_include_dir()), "-isystem", str(ap_include_dir()), "-c", str(tmp_path / f"{design.top}.cpp"),
            "-o", str(tmp_path / "k.o")]
    run = subprocess.run(argv, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
