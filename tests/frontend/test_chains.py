"""Issue 25: dataflow structures ports carry: a list of FIFOs (C++ `hls::stream<T> s[P]` with its depth
pragma) joining processes in a loop unrolled when the design is built, streams declared before
hls.dataflow(), hls.interface(x, "axis") on a stream argument. Python mode == csim, the region timed."""

import numpy as np
import pytest

import hls
from tests.frontend.test_streams import kernel_from
from tests.kernels import chain_kernels as ck


def test_systolic_chain_python_and_csim_agree():
    a = np.arange(ck.N, dtype=np.int32) * 5 - 9
    g, c = np.zeros(ck.N, np.int32), np.zeros(ck.N, np.int32)
    ck.systolic(a, g)
    ck.systolic.csim(a, c)
    want = a.copy()
    for p in range(ck.P):
        want = want * 2 + p
    assert list(g) == list(c) == list(want)


def test_systolic_chain_cpp_is_a_stream_array():
    cpp = ck.systolic.cpp
    assert "hls::stream<int32_t> s[4];" in cpp and "#pragma HLS stream variable=s depth=2" in cpp
    assert [f"pe(s[{p}], s[{p + 1}], {p});" in cpp for p in range(ck.P)] == [True] * ck.P
    assert cpp[cpp.index("void systolic("):].count("HLS_PROCESS_BEGIN") == ck.P + 2


def test_systolic_chain_is_timed_and_sized():
    report = ck.systolic.report()
    assert [p.name for p in report.dataflow.processes] == ["load", "pe", "pe_1", "pe_2", "store"]
    assert report.dataflow.deadlock is None
    sequential = sum(n.latency_max for n in report.nodes if n.name in ("load", "pe", "store"))
    assert report.latency_max < sequential
    assert set(ck.systolic.size_fifos()) == {f"s[{k}]" for k in range(ck.P + 1)}


def test_streams_before_dataflow_and_unrolled_pairs():
    a = np.arange(ck.N, dtype=np.int32)
    outs = [np.zeros(ck.N // 2, np.int32) for _ in range(4)]
    ck.diamond(a, outs[0], outs[1])
    ck.diamond.csim(a, outs[2], outs[3])
    assert list(outs[0]) == list(outs[2]) == list(a[0::2])
    assert list(outs[1]) == list(outs[3]) == list(a[1::2] + 100)
    cpp = ck.diamond.cpp
    assert cpp.index("hls::stream<int32_t> lanes[2];") < cpp.index("#pragma HLS dataflow")


def test_axis_interface_on_stream_arguments():
    x = hls.Stream(hls.int16, list(range(-4, 4)))
    y = hls.Stream(hls.int16)
    ck.axis_gain(x, y, 3)
    x2, y2 = hls.Stream(hls.int16, list(range(-4, 4))), hls.Stream(hls.int16)
    ck.axis_gain.csim(x2, y2, 3)
    assert list(np.asarray(y)) == list(np.asarray(y2)) == [3 * v for v in range(-4, 4)]
    cpp = ck.axis_gain.cpp
    assert cpp.count("#pragma HLS interface mode=axis port=x") == 1
    assert cpp.count("#pragma HLS interface mode=axis port=y") == 1


@pytest.mark.parametrize("body, message, line", [
    ("""
    @hls.kernel
    def bad_index(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        s = [hls.stream(hls.int32, depth=2) for _ in range(2)]
        hls.dataflow()
        produce(a, s[n])
        consume(s[1], b)
    """, "index streams of 's' with a compile-time integer", 8),
    ("""
    @hls.kernel
    def out_of_range(a: hls.int32[N], b: hls.int32[N]):
        s = [hls.stream(hls.int32, depth=2) for _ in range(2)]
        hls.dataflow()
        produce(a, s[0])
        consume(s[2], b)
    """, "stream index 2 is out of range for 's' (2 streams)", 9),
    ("""
    @hls.kernel
    def variable_count(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        s = [hls.stream(hls.int32, depth=2) for _ in range(n)]
        hls.dataflow()
        produce(a, s[0])
        consume(s[0], b)
    """, "a list of streams is [hls.stream(T, depth=N) for _ in range(P)]", 6),
    ("""
    @hls.kernel
    def scalar_first(a: hls.int32[N], b: hls.int32[N]):
        k = 3
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        produce(a, s)
        consume(s, b)
    """, "before hls.dataflow() a dataflow kernel holds only directives and the stream and array declarations", 6),
    ("""
    @hls.kernel
    def variable_chain(a: hls.int32[N], b: hls.int32[N], n: hls.int32):
        s = [hls.stream(hls.int32, depth=2) for _ in range(3)]
        hls.dataflow()
        produce(a, s[0])
        for p in range(n):
            hls.unroll()
            relay(s[p], s[p + 1])
        consume(s[2], b)
    """, "a loop of processes is unrolled when the design is built: its range needs compile-time bounds", 9),
    ("""
    @hls.kernel
    def twice_consumed(a: hls.int32[N], b: hls.int32[N]):
        s = [hls.stream(hls.int32, depth=2) for _ in range(2)]
        hls.dataflow()
        produce(a, s[0])
        for p in range(2):
            consume(s[0], b)
    """, "FIFO 's[0]' has more than one consumer in the dataflow region: 'consume' and 'consume_1'", 10),
    ("""
    @hls.kernel
    def wrong_mode(x: hls.stream[hls.int32], y: hls.stream[hls.int32]):
        hls.interface(x, "m_axi")
        for i in range(N):
            y.write(x.read())
    """, "hls.interface on a stream argument: mode 'm_axi' is for arrays and scalars; a stream is a axis or "
         "ap_fifo port", 6),
    ("""
    @hls.kernel
    def local_axis(a: hls.int32[N], b: hls.int32[N]):
        hls.dataflow()
        s = hls.stream(hls.int32, depth=2)
        hls.interface(s, "axis")
        produce(a, s)
        consume(s, b)
    """, "hls.interface applies to kernel arguments only", 8),
])
def test_bad_chains(tmp_path, body, message, line):
    name = body.split("def ")[1].split("(")[0]
    source = body + """
    @hls.kernel
    def relay(x: hls.stream[hls.int32], y: hls.stream[hls.int32]):
        for i in range(N):
            y.write(x.read())
    """
    k = kernel_from(tmp_path, source, name)
    with pytest.raises(hls.HLSError) as info:
        k.compile()
    assert message in info.value.message, info.value.message
    assert info.value.loc.line == line
