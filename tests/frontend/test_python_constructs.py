"""Issue 11: the first spelling a Python programmer reaches for compiles, and golden == csim."""

from __future__ import annotations

import numpy as np
import pytest

import hls
from tests.kernels import construct_kernels as ck


def test_compile_time_if_and_directive_expressions():
    off = ck.make_pipelined(0, 1)
    body = off.cpp.split("{", 1)[1]
    assert body.count("#pragma HLS pipeline off") == 1 and "II=" not in body
    assert "* 2" in body and "+ 1" not in body
    two = ck.make_pipelined(2, 0)
    body = two.cpp.split("{", 1)[1]
    assert body.count("#pragma HLS pipeline II=2") == 1 and "pipeline off" not in body and "+ 1" in body
    for k in (off, two):
        k.verify(seed=2)


def test_untaken_branch_is_never_compiled():
    assert ck.chooses(4) == ck.chooses.csim(4) == 5
    assert "undefined_name" not in ck.chooses.cpp


def test_fibonacci_with_tuple_swap():
    assert [ck.fib(n) for n in (0, 1, 2, 10, 45)] == [0, 1, 1, 55, 1134903170]
    assert ck.fib.csim(45) == 1134903170
    ck.fib.verify(seed=1)


def test_element_swaps_read_before_writing():
    a = np.arange(8, dtype=np.int16)
    b = a.copy()
    ck.swaps(a)
    ck.swaps.csim(b)
    assert a.tolist() == b.tolist() == list(range(7, -1, -1))


def test_chained_assignment_converts_per_target():
    assert ck.chained(100) == 44 + 300  # p: int8(300) == 44, q: int16 300
    assert ck.chained.csim(100) == 344
    with pytest.warns(hls.OverflowWarning, match="300 does not fit int8"):
        ck.chained.verify(100)


@pytest.mark.parametrize("f,g,u", [(-3.5, -2.7, 7.875), (-0.25, 2.9, 0.125), (15.96875, -0.0, 3.5), (-16.0, 1e9, 0.0)])
def test_int_truncates_toward_zero(f, g, u):
    golden = np.zeros(3, dtype=np.int32)
    csim = golden.copy()
    ck.truncations(f, np.float32(g), u, golden)
    ck.truncations.csim(f, np.float32(g), u, csim)
    assert golden.tolist() == csim.tolist() == [int(f), int(np.float32(g)), int(u) + int(f)]


def test_int_of_float_out_of_range_is_an_error_in_python_mode():
    with pytest.raises(hls.SimulationError, match=r"2\*\*63"):
        ck.truncations(0.0, np.float32(1e19), 0.0, np.zeros(3, dtype=np.int32))


def test_iteration_over_arrays_enumerate_zip():
    ck.iterate.verify(seed=5)
    a = np.arange(1, 9, dtype=np.int16)
    b = np.arange(10, 16, dtype=np.int16)
    m = np.arange(12, dtype=np.int8).reshape(3, 4)
    out = np.zeros(4, dtype=np.int32)
    expected = int(a.sum()) + sum(i * int(v) for i, v in enumerate(b)) \
        + sum(int(x) - int(y) for x, y in zip(a, b, strict=False)) \
        + sum(k * (int(c) + int(d)) for k, (c, d) in enumerate(zip(b, a, strict=False))) + 1 + 4
    assert ck.iterate(a, b, m, out) == expected
    assert out.tolist() == m.sum(axis=0).tolist()
    cpp = ck.iterate.cpp
    assert "loop_v_i:" in cpp and "m[row_i][j]" in cpp


def test_tuple_loop_is_unrolled_with_constant_values():
    ck.tuple_loop.verify(seed=3)
    a = np.arange(3, 11, dtype=np.int16)
    assert ck.tuple_loop(a, np.float32(3.0)) == 1 * 3 + 5 + 4 * 3 + 1 + 4
    assert "for (" not in ck.tuple_loop.cpp.split("{", 1)[1]  # no loop left: three copies of the body


def test_float32_maths_bit_exact_with_csim():
    x = np.random.default_rng(0).standard_normal(256).astype(np.float32)
    golden, csim = np.zeros(256, np.float32), np.zeros(256, np.float32)
    ck.recursive_filter(x, golden)
    ck.recursive_filter.csim(x, csim)
    assert np.isfinite(golden).all()
    assert golden.view(np.uint32).tolist() == csim.view(np.uint32).tolist()


def test_print_in_python_mode_and_csim_alike(capfd):
    args = (np.array([1, -2, 3, 4], np.int16), np.float32(0.1), 1.25, 200)
    assert ck.traced(*args) == 6
    golden = capfd.readouterr().out
    assert ck.traced.csim(*args) == 6
    csim = capfd.readouterr().out
    assert golden == csim
    assert golden.startswith("i = 0 s: 1 True;\ni = 1 s: -1 False;\n")
    assert f"|{2**97 + 2**96 + 2**93}|-{2**97 + 2**96 + 2**93}|200|" in golden
    assert golden.endswith('|100% "done"\t|2.5|7\n')
    cpp = ck.traced.cpp
    assert cpp.count("#ifndef __SYNTHESIS__\n") >= 2 and "std::printf(" in cpp  # synthesis never sees it


def test_specialize_rebinds_compile_time_names():
    big = ck.total.specialize(N=16, ELEM=hls.int8)
    assert big.__name__ == "total_16_int8"
    data = np.arange(-8, 8, dtype=np.int8)
    assert big(data) == big.csim(data) == int(data.sum())
    assert "int8_t a[16]" in big.cpp and "II=2" in big.cpp
    assert ck.total(np.arange(8, dtype=np.int16)) == 28  # the original is unchanged
    ck.two_totals.verify(seed=4)
    names = list(ck.two_totals.compile().module.functions)
    assert sorted(names) == ["total", "total_16_int8", "two_totals"]
    with pytest.raises(hls.HLSError, match="does not use 'M'"):
        ck.total.specialize(M=3)


def test_rom_iteration_and_fresh_arrays_in_tuple_loops():
    """Fuzz regressions: enumerate over a module-level numpy array; hls.zeros inside a tuple loop."""
    a = np.array([1, 2, 3, 4, 5], dtype=np.int16)
    c = [3, -1, 4, 1, -5]
    expected = sum(k * x for k, x in zip(c, [1, 2, 3, 4, 5], strict=True)) + (sum(c) - 15) + 10 + 20
    assert ck.rom_and_fresh_arrays(a) == ck.rom_and_fresh_arrays.csim(a) == expected
    ck.rom_and_fresh_arrays.verify(seed=9)


@pytest.mark.parametrize("name", ["fib", "swaps", "chained", "truncations", "iterate", "tuple_loop", "traced",
                                  "rom_and_fresh_arrays", "two_totals"])
def test_constructs_export_mlir_that_xdsl_verifies(name):
    from tests.mlir_support import parse

    kernel = getattr(ck, name)
    module = parse(kernel.mlir)
    assert any(op.name == "func.func" for op in module.walk())
    if name == "traced":
        assert "printf" not in kernel.mlir  # print() is csim-only


def test_float32_maths_bit_exact_on_the_numpy_golden_path():
    """The whole-array golden model calls the same C functions per element as the scalar one."""
    kernel = ck.elementwise_maths
    assert kernel.golden_model == "numpy", kernel.vector_plan.reason
    x = np.random.default_rng(1).standard_normal(256).astype(np.float32)
    golden, csim = np.zeros(256, np.float32), np.zeros(256, np.float32)
    kernel(x, golden)
    kernel.csim(x, csim)
    assert golden.view(np.uint32).tolist() == csim.view(np.uint32).tolist()
