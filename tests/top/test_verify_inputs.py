"""verify() on several input sets (edge values among them), scaled random draws, and branch coverage."""

import warnings
from pathlib import Path

import numpy as np
import pytest

import hls
from hls.types import FixedType, FloatType, IntType
from hls.verification import EDGES, Coverage, edge_scalar, trial_kinds
from tests.kernels import verify_kernels as vk

LINES = Path(vk.__file__).read_text().splitlines()


def line_of(text: str) -> int:
    return next(n for n, t in enumerate(LINES, 1) if text in t)


def test_default_verify_catches_a_mismatch_on_one_branch_only():
    """The golden model differs from csim only when `c` is False: the first draw (seed 2) has c True,
    so one input set passes, and the default sets (an edge set has c False) catch it."""
    fake = lambda c, x: x + 1 if c else x + 3  # noqa: E731 - a golden model wrong on the else side
    assert bool(vk.one_sided.random_inputs(2)[0]) is True
    assert vk.one_sided.verify(seed=2, trials=1, golden=fake)["trials"] == ["random"]
    with pytest.raises(hls.VerificationError, match=r"return value: golden .* but csim .*on the edge .* inputs"):
        vk.one_sided.verify(seed=2, golden=fake)


def test_coverage_names_the_arm_no_input_set_took():
    result = vk.branchy.verify(seed=0)
    cov = result.coverage
    assert result["coverage"] is cov and isinstance(cov, Coverage)
    assert cov.total == 6  # conditional (then, else), if (then, else), while (body, exit)
    assert cov.missed() == [f"if at verify_kernels.py:{line_of('x == 12345')} (then)"]
    assert str(cov) == f"branch coverage: 5/6 arms; never taken: if at verify_kernels.py:{line_of('x == 12345')} (then)"
    assert "over 8 input sets; branch coverage: 5/6 arms" in result.summary()
    given = vk.branchy.verify(True, 12345, np.full(8, 9, np.int16), np.zeros(8, np.int32))
    assert given["trials"] == ["given"]
    assert given.coverage.missed() == [f"conditional at verify_kernels.py:{line_of('a[i] + 1 if')} (then)",
                                       f"if at verify_kernels.py:{line_of('x == 12345')} (else)",
                                       f"while at verify_kernels.py:{line_of('while n')} (body)",
                                       f"while at verify_kernels.py:{line_of('while n')} (exit)"]


def test_trials_sets_the_count_and_the_first_set_is_the_seed_draw():
    assert trial_kinds(1) == ["random"]
    assert trial_kinds(8) == ["random", *(f"edge {e}" for e in EDGES), "random", "random", "random"]
    result = vk.one_sided.verify(seed=5, trials=3)
    assert result["trials"] == ["random", "edge max", "random"]
    assert result["inputs"] == vk.one_sided.random_inputs(5)
    with pytest.raises(hls.HLSError, match="at least one"):
        vk.one_sided.verify(trials=0)


def test_random_draws_fit_and_a_real_overflow_is_still_reported():
    with warnings.catch_warnings():
        warnings.simplefilter("error", hls.OverflowWarning)  # full-range int16 products wrap int16
        result = vk.products.verify(seed=0, strict_overflow=True)
    assert result["overflows"] == {}
    assert "random (1/2 of the bits)" in result["trials"]
    assert f"verify_kernels.py:{line_of('a[i] * b[i]')}" in next(iter(result["edge_overflows"]))
    with pytest.warns(hls.OverflowWarning, match="does not fit int8"):
        wrapped = vk.always_wraps.verify(seed=0)
    assert wrapped["trials"][0] == "random (1 bit)"
    with pytest.raises(hls.OverflowReport):
        vk.always_wraps.verify(seed=0, strict_overflow=True)


def test_edge_values_of_each_kind():
    i8, u8 = IntType(8, True), IntType(8, False)
    assert [edge_scalar(i8, e) for e in ("max", "min", "0", "-1")] == [127, -128, 0, -1]
    assert [edge_scalar(u8, e) for e in ("max", "min", "0", "-1")] == [255, 0, 0, 1]
    fx = FixedType(8, 4)
    assert [edge_scalar(fx, e) for e in ("max", "min", "-1")] == [7.9375, -8.0, -1.0]
    assert edge_scalar(FixedType(8, 4, overflow="AP_SAT_SYM"), "min") == -7.9375
    assert [edge_scalar(FloatType(32), e) for e in ("max", "min")] == [1.0, -1.0]
    assert edge_scalar(hls.bool_, "min") is False and edge_scalar(hls.bool_, "max") is True


def test_a_set_whose_golden_run_would_loop_for_ever_is_skipped():
    """`while n > 100000: n = n - 1` runs 2**31 times at n's max: that set stops at its time budget."""
    from tests.kernels import control_kernels as ck

    result = ck.never_entered.verify(seed=1)
    assert result["trials"][0] == "random" and "edge max" not in result["trials"]
    assert any(s.startswith("edge max: stopped") for s in result["skipped"])
