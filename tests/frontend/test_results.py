"""Tuple returns, array results and state between calls (issue 11 items 5-7): golden == csim, the C++
shape, export + make csim, reset semantics and the schedule on static memories."""

import numpy as np

from tests.conftest import ROOT, load_example
from tests.kernels import results_kernels as rk


def test_tuple_return_python_csim_and_cpp():
    k = rk.divmod_typing
    assert k(-100, 6) == (-100 // 7, -100 % 7) == k.csim(-100, 6)
    assert isinstance(k(1, 2), tuple)
    assert k.verify(seed=3)["compared"] == ["return[0]", "return[1]"]
    cpp = k.cpp
    assert "void divmod_typing(int16_t a, uint8_t b, int16_t &ret_0, uint8_t &ret_1)" in cpp
    assert "#pragma HLS interface mode=s_axilite port=ret_0" in cpp


def test_tuple_of_three_with_fixed_point():
    a = np.array([5, -7, 3], dtype=np.int8)
    assert rk.minmax3(a) == rk.minmax3.csim(a) == (-7, 5, 0.5)
    assert "int8_t &lo_out, int8_t &hi_out, ap_fixed<8, 4> &ret_2)" in rk.minmax3.cpp


def test_unpacking_a_sub_kernel_tuple_into_locals_and_array_elements():
    a = np.array([40, -3, 9], dtype=np.int8)
    out = np.zeros(4, dtype=np.int16)
    rk.sums_via_tuple(a, out)
    d = (-3 & 127) | 1
    assert out.tolist() == [4000 // d, 4000 % d, -3, 2]
    rk.sums_via_tuple.verify(a, np.zeros(4, dtype=np.int16))
    rk.sums_via_tuple.verify(seed=5)
    assert "divmod_typing(" in rk.sums_via_tuple.cpp


def test_array_result_is_a_new_array_in_python_and_csim():
    x = np.arange(6, dtype=np.int16).reshape(2, 3) * 40 - 100
    g1, g2, c = rk.scale(x, 5), rk.scale(x, 5), rk.scale.csim(x, 5)
    assert g1 is not g2 and g1.dtype == c.dtype == np.int16 and g1.shape == (2, 3)
    assert np.array_equal(g1, c)
    expected = [[(v * 5 >> 3) for v in row] for row in x.tolist()]
    assert g1.tolist() == expected
    assert rk.scale.verify(seed=2)["compared"] == ["x", "return"]
    cpp = rk.scale.cpp
    assert "void scale(ap_int<9> x[2][3], int8_t s, ap_int<9> y[2][3])" in cpp
    assert "#pragma HLS interface mode=m_axi port=y bundle=gmem1 offset=slave depth=6" in cpp
    assert "loop_z" not in cpp  # every element is written: the zero-fill is dropped


def test_sub_kernel_array_results_chain():
    x = np.array([[1, 2, 3], [-4, 5, -6]], dtype=np.int16) * 30
    assert np.array_equal(rk.scale_twice(x), rk.scale(rk.scale(x, 3), -2))
    rk.scale_twice.verify(seed=4)
    cpp = rk.scale_twice.cpp
    assert "ap_int<9> t[2][3];  // written by the call below" in cpp
    assert "scale(x, 3, t);" in cpp and "scale(t, -2, z);" in cpp


def test_partly_written_array_result_keeps_its_zeros():
    x = np.arange(8, dtype=np.float32) + 1
    y = rk.first_half(x)
    assert y.tolist() == [0.5, 1.0, 1.5, 2.0, 0, 0, 0, 0]
    assert np.array_equal(rk.first_half.csim(x), y)
    assert "y[z] = 0.0f;" in rk.first_half.cpp


def test_static_state_persists_and_resets_in_python_and_csim():
    k = rk.running
    k.reset()
    xs = [3, 4, -8, 1, 0, 7]
    golden = [k(x) for x in xs]
    csim = [k.csim(x) for x in xs]
    total, seen, expected = -5, [0] * 4, []
    for x in xs:
        total += x
        seen[x & 3] += 1
        expected.append(total * 10 + seen[0])
    assert golden == csim == expected
    k.reset()
    assert [k(x) for x in xs] == golden and [k.csim(x) for x in xs] == golden
    cpp = k.cpp
    assert "static int32_t total = -5;" in cpp and "static uint8_t seen[4] = {};" in cpp


def test_verify_resets_state_first():
    k = rk.running
    for x in (1, 2, 3):
        k(x)
    result = k.verify(7)
    assert result["return"] == (-5 + 7) * 10 + 0
    assert k(0) == k.csim(0)  # both continue from the same state after verify


def test_csim_state_is_private_to_each_kernel_object():
    import hls

    a = hls.kernel(rk.running.__wrapped__)
    b = hls.kernel(rk.running.__wrapped__)
    assert a.cpp == b.cpp
    a.csim(10)
    assert b.csim(1) == (-5 + 1) * 10  # b does not see a's total


def test_sub_kernel_state_resets_with_the_caller():
    k = rk.uses_counter
    k.reset()
    out = np.zeros(2, dtype=np.uint8)
    k(out)
    assert out.tolist() == [1, 2]
    out_c = np.zeros(2, dtype=np.uint8)
    k.csim(out_c)
    assert out_c.tolist() == [1, 2]
    k(out)
    assert out.tolist() == [3, 4]
    k.reset()
    k(out)
    assert out.tolist() == [1, 2]
    assert "static ap_uint<4> n = 0;" in k.cpp


def test_fir_static_example_sample_by_sample():
    mod = load_example(ROOT / "examples" / "fir_static.py")
    k = mod.KERNEL
    xs = np.random.default_rng(11).integers(-3000, 3000, 64)
    golden = [k(int(v)) for v in xs]
    csim = [k.csim(int(v)) for v in xs]
    reference = np.convolve(xs, mod.TAPS.astype(np.int64))[:64].tolist()
    assert golden == csim == reference
    k.reset()
    assert [k(int(v)) for v in xs] == golden
    assert [k.csim(int(v)) for v in xs] == golden
    assert "static int16_t shift_reg[11] = {};" in k.cpp


def test_static_memories_in_the_schedule():
    report = load_example(ROOT / "examples" / "fir_static.py").KERNEL.report()
    assert "memory shift_reg (regs, 11 banks)" in str(report)
    text = str(rk.running.report())
    assert "seen" in text and report.to_dict()["latency"]["min"] > 0


def test_cpp_compiles_warning_free(tmp_path):
    from tests.top.test_examples import compile_warning_free

    for k in (rk.sums_via_tuple, rk.scale_twice, rk.running, rk.uses_counter, rk.first_half, rk.smoother):
        compile_warning_free(k.compile().design, tmp_path)


def test_float_and_fixed_statics_in_a_tuple_result():
    k = rk.smoother
    k.reset()
    inputs = [(0.5, 0.25), (-1.0, 3.5), (2.0, -7.75), (0.125, 1.0)]
    golden = [k(np.float32(x), q) for x, q in inputs]
    csim = [k.csim(np.float32(x), q) for x, q in inputs]
    assert golden == csim
    assert golden[0] == (np.float32(0.25) * np.float32(0.75) + np.float32(0.5) * np.float32(0.25), -1.25)
    assert "static float avg = 0.25f;" in k.cpp and "static ap_fixed<12, 4> level = ap_fixed<12, 4>(-1.5);" in k.cpp
