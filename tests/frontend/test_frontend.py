"""Each construct: the golden model and the C++ agree (verify) on chosen and random inputs."""

import numpy as np
import pytest

import hls
from tests.kernels import frontend_kernels as fk

RNG = np.random.default_rng(11)


def test_branches_with_elif():
    a = RNG.integers(-300, 300, 32).astype(np.int32)
    a[:3] = [101, -101, 5]
    out = np.zeros(32, np.int32)
    fk.branches.verify(a, out)
    fk.branches(a, out)
    assert out[:3].tolist() == [100, -100, 10]
    assert "} else {" in fk.branches.cpp


def test_logic_and_chained_comparisons():
    a = RNG.integers(-50, 150, 32).astype(np.int16)
    b = RNG.integers(-2, 3, 32).astype(np.int16)
    fk.logic.verify(a, b, np.zeros(32, np.bool_))


def test_ternary_min_max_abs_mixed_types():
    fk.ternary_minmax.verify()


def test_math_functions_float32_overloads():
    x = RNG.uniform(-2, 2, 16).astype(np.float32)
    fk.math_funcs.verify(x, np.zeros(16, np.float32), np.zeros(16, np.float64), rtol=1e-5, atol=1e-5)
    cpp = fk.math_funcs.cpp
    assert "std::sqrt(" in cpp and "double" in cpp
    assert "0.5f" in cpp.replace("5.0e-1f", "0.5f")


def test_argument_bounds_and_negative_steps():
    a = np.zeros(64, np.int32)
    fk.bounds_and_steps.verify(a, 50, 4)
    fk.bounds_and_steps(a, 50, 4)
    assert a[4] == 4 and a[7] == 7 and a[5] == 0
    assert "j -= 2" in fk.bounds_and_steps.cpp


def test_augmented_assignment_wraps_to_the_local_type():
    fk.augmented.verify()


def test_values_carried_through_if_inside_loop():
    a = RNG.integers(-1000, 1000, 32).astype(np.int32)
    result = fk.nested_if_in_loop_carry.verify(a)
    assert result["return"] == fk.nested_if_in_loop_carry(a)


def test_verify_names_the_first_mismatch():
    def wrong_golden(a, out):
        out[:] = 0
        out[3] = 1

    a = np.arange(32, dtype=np.int32)
    with pytest.raises(hls.VerificationError) as info:
        fk.branches.verify(a, np.zeros(32, np.int32), golden=wrong_golden)
    assert "out[1]" in str(info.value) and "golden 0 but csim 2" in str(info.value)


def test_csim_rejects_bad_arguments_before_native_code():
    a = np.zeros(32, np.int32)
    with pytest.raises(hls.SimulationError, match="takes 2 arguments"):
        fk.branches.csim(a)
    with pytest.raises(hls.SimulationError, match="shape"):
        fk.branches.csim(np.zeros(31, np.int32), a)
    with pytest.raises(hls.SimulationError, match="dtype"):
        fk.branches.csim(np.zeros(32, np.int64), a)
    with pytest.raises(hls.SimulationError, match="C-contiguous"):
        fk.branches.csim(np.zeros(64, np.int32)[::2], a)
    ro = np.zeros(32, np.int32)
    ro.flags.writeable = False
    with pytest.raises(hls.SimulationError, match="read-only"):
        fk.branches.csim(a, ro)


def test_data_dependent_index_checked_in_csim_only():
    cpp = fk.gather.cpp
    assert "table[HLS_INDEX(idx[i], 16, " in cpp  # the last argument: the site (the kernel line) of the check
    assert "table[idx[i] & 15] = " in cpp  # proven in range: no check
    assert "#define HLS_INDEX(i, n, site) (i)" in cpp  # synthesis sees the plain index
    good = np.arange(8, dtype=np.int32)
    fk.gather.verify(np.arange(16, dtype=np.int32), good, np.zeros(8, np.int32))
    bad = good.copy()
    bad[5] = 16
    with pytest.raises(hls.SimulationError, match="table: index out of bounds for dimension 0 of size 16") as csim:
        fk.gather.csim(np.arange(16, dtype=np.int32), bad, np.zeros(8, np.int32))
    with pytest.raises(hls.SimulationError, match="index 16 out of bounds") as info:
        fk.gather(np.arange(16, dtype=np.int32), bad, np.zeros(8, np.int32))
    assert_at_kernel_line(info.value, "table[idx[i]]")
    assert csim.value.loc.line == info.value.loc.line  # csim names the line Python mode names
    bad[5] = -1  # Python would wrap around; the hardware would not
    with pytest.raises(hls.SimulationError, match="index -1"):
        fk.gather(np.arange(16, dtype=np.int32), bad, np.zeros(8, np.int32))


def assert_at_kernel_line(err: hls.HLSError, fragment: str) -> None:
    """Python-mode errors name the kernel's file and line, with the failing expression under a caret."""
    assert err.loc is not None and err.loc.file == fk.__file__, err
    assert fragment in err.loc.source_line(), err
    assert str(err).startswith(f"{fk.__file__}:{err.loc.line}:") and "^" in str(err)


def test_division_by_zero_does_not_crash_csim():
    a = np.arange(8, dtype=np.int32)
    b = np.ones(8, dtype=np.int32)
    b[3] = 0
    with pytest.raises(hls.SimulationError, match="in csim: division by zero") as csim:
        fk.divide.csim(a, b, np.zeros(8, np.int32))
    with pytest.raises(hls.SimulationError, match="by zero") as info:
        fk.divide(a, b, np.zeros(8, np.int32))
    assert_at_kernel_line(info.value, "//")
    assert_at_kernel_line(csim.value, "//")


def test_narrow_values_out_of_range_rejected(examples):
    x = np.full((1, 4, 8, 8), 300, dtype=np.int16)  # 300 does not fit int9
    args = (x, np.ones(4, np.int8), np.zeros(4, np.int8), np.zeros((1, 4, 8, 8), np.int16))
    with pytest.raises(hls.SimulationError, match="do not fit int9"):
        examples["batchnorm"].KERNEL.csim(*args)


def test_fully_unrolled_long_reduction_emits_bounded_expressions():
    cpp = fk.long_reduction.cpp
    assert "#pragma HLS unroll" in cpp  # the C++ keeps the loop with its pragma (issue 21) ...
    module = fk.long_reduction.compile().module  # ... the IR the estimate reads is unrolled
    assert not any(type(op).__name__ == "ForOp" for f in module.functions.values() for op in f.walk())
    assert max(line.count("a[") for line in cpp.splitlines()) <= 8
    fk.long_reduction.verify(rtol=0, atol=0)  # same summation order: bit-exact
