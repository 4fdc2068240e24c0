"""Issue 25: fixed point next to float constants (converted to the other operand's type, docs/semantics.md),
and the Vitis spellings ports carry: x.range(hi, lo), x.bitcast(T), integral float literals stored into
integers, a plain @dataclass where @hls.struct is meant. Each golden == csim, plus its bad inputs."""

import textwrap

import numpy as np
import pytest

import hls
from hls.golden.bits import get_slice
from tests.frontend.test_streams import load_example
from tests.kernels import spelling_kernels as sp


def _fixed(t, values):
    return [t.convert(float(v)) for v in values]


def test_python_float_constant_takes_the_fixed_operands_type():
    grad = np.array(_fixed(sp.F16, [1.5, -2.25, 7.0, -7.5, 0.01, 3.0, -0.5, 0.0]), np.float64)
    w = np.array(_fixed(sp.F16, [0.25, 1.0, -3.0, 2.5, 0.0, -1.25, 5.0, 7.9]), np.float64)
    g, c = w.copy(), w.copy()
    sp.sgd_step(grad.copy(), g)
    sp.sgd_step.csim(grad.copy(), c)
    assert list(g) == list(c)
    step = sp.F16.convert(sp.STEP)  # 0.01 in ap_fixed<16, 4>: 40/4096
    assert float(step) == 40 / 4096
    want = []
    for gi, wi in zip(_fixed(sp.F16, grad), _fixed(sp.F16, w), strict=True):
        x = sp.F16.convert(wi - step * gi)
        x = sp.F16.convert(x + sp.F16.convert(0.3))
        want.append(float(sp.F16.convert(x * sp.F16.convert(sp.GAIN))))
    assert list(g) == want
    assert "ap_fixed<16, 4>(0.009765625)" in sp.sgd_step.cpp
    sp.sgd_step.verify()


def test_float_rom_meeting_fixed_point_is_stored_as_that_type():
    for sigma in (0.0, 1.0, -0.75, 3.5):
        g, c = np.zeros(sp.N), np.zeros(sp.N)
        sp.rotate_phase(sigma, g)
        sp.rotate_phase.csim(sigma, c)
        want = [float(sp.F16.convert(sp.F16.convert(sigma) * p)) for p in _fixed(sp.F16, sp.PHASE)]
        assert list(g) == list(c) == want
    assert "static const ap_fixed<16, 4> PHASE[8]" in sp.rotate_phase.cpp


def test_rounding_saturating_type_converts_the_constant_by_its_modes():
    sp.windowed.verify()
    assert "static const ap_fixed<12, 3, AP_RND, AP_SAT, 0> WINDOW[8]" in sp.windowed.cpp


@pytest.mark.parametrize("x, y", [(0xDEADBEEF, -2), (0x12345678, 300), (0, 0), (0xFFFFFFFF, -32768)])
def test_inclusive_range_method(x, y):
    got = sp.fields(x, y)
    assert got == sp.fields.csim(x, y)
    want = (get_slice(x, 4, 12, hls.uint32) + (get_slice(y, 8, 16, hls.int16) << 8) + (x & 1) + (x >> 31))
    assert got == want
    assert "x).range(11, 4)" in sp.fields.cpp


@pytest.mark.parametrize("x, y", [(0x3F800000, 0x4000000000000000), (0xC0490FDB, 0)])
def test_bitcast_method_with_a_target(x, y):
    got = sp.as_float(x, y)
    assert got == sp.as_float.csim(x, y)
    want = float(np.array([x], np.uint32).view(np.float32)[0]) * 2 + float(np.array([y], np.uint64).view(np.float64)[0])
    assert got == want


def test_integral_float_literals_stored_into_integers():
    C, D = np.ones((4, 4), np.int32), np.zeros(4, np.uint8)
    C2, D2 = C.copy(), D.copy()
    assert sp.clear(C, D, 3) == sp.clear.csim(C2, D2, 3) == 3
    assert (C == C2).all() and (D == D2).all() and list(D) == [255] * 4
    assert C[3, 3] == -7 and C[0, 0] == 0
    assert "C[i][j] = 0;" in sp.clear.cpp


def test_plain_dataclass_is_taken_as_the_struct_meant():
    result = sp.sample_energy.verify()
    assert result["compared"] == ["return"]
    assert hls.types.struct_type_of(sp.Sample) is not None


def _compile(tmp_path, source, name="k"):
    path = tmp_path / f"bad_{name}.py"
    path.write_text("import numpy as np\nimport hls\nN = 8\nPHASE = np.arange(8) * 0.5\n" + textwrap.dedent(source))
    with pytest.raises(hls.HLSError) as info:
        getattr(load_example(path), name).compile()
    return info.value


@pytest.mark.parametrize("source, message, line", [
    ("""
    @hls.kernel
    def k(x: hls.ap_fixed[16, 4], y: hls.float32) -> hls.ap_fixed[16, 4]:
        return x * y
    """, "mixing fixed point (fixed16_4, float32) with floats needs an explicit conversion", 8),
    ("""
    @hls.kernel
    def k(x: hls.uint32) -> hls.uint8:
        return x.range(4, 11)
    """, "x.range(4, 11) needs 0 <= lo <= hi < 32", 8),
    ("""
    @hls.kernel
    def k(x: hls.uint32) -> hls.uint8:
        return x.range(40, 33)
    """, "needs 0 <= lo <= hi < 32", 8),
    ("""
    @hls.kernel
    def k(x: hls.uint32, n: hls.int32) -> hls.uint8:
        return x.range(n, 0)
    """, "x.range(hi, lo) bounds must be compile-time integers", 8),
    ("""
    @hls.kernel
    def k(x: hls.float32) -> hls.uint8:
        return x.range(7, 0)
    """, "bit access needs an integer or fixed-point value, got float32", 8),
    ("""
    @hls.kernel
    def k(x: hls.uint16) -> hls.float32:
        return x.bitcast(hls.float32)
    """, "bitcast keeps the width: uint16 has 16 bits, float32 has 32", 8),
    ("""
    @hls.kernel
    def k(x: hls.uint32) -> hls.float32:
        return x.bitcast(3)
    """, "x.bitcast(T) needs an hls scalar type", 8),
    ("""
    @hls.kernel
    def k(a: hls.uint8[N]):
        for i in range(N):
            a[i] = 256.0
    """, "implicit conversion from float64 to uint8 would truncate", 9),
    ("""
    @hls.kernel
    def k(a: hls.int8[N]):
        for i in range(N):
            a[i] = 0.5
    """, "implicit conversion from float64 to int8 would truncate", 9),
])
def test_bad_spellings(tmp_path, source, message, line):
    err = _compile(tmp_path, source)
    assert message in err.message, err.message
    assert err.loc.line == line
