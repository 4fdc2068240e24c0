"""range() steps that are variables (issue 25): `range(0, N, 2 * span)` in a loop over `span`, a step
given at run time of either sign; golden == csim == plain CPython running the undecorated function."""

import inspect

import numpy as np
import pytest

import hls

N = 16
LOG = 4


@hls.kernel
def strided_sums(a: hls.int32[N], out: hls.int32[N]):
    for s in range(LOG):
        span = 1 << s
        for i in range(0, N, 2 * span):
            out[i] += a[i + span] - a[i] + s


@hls.kernel
def butterflies(x: hls.int32[N]):
    """An in-place radix-2 butterfly network: the span doubles, the stride is a variable."""
    for s in range(LOG):
        span = 1 << s
        for base in range(0, N, 2 * span):
            for j in range(span):
                top = x[base + j]
                bottom = x[base + j + span]
                x[base + j] = top + bottom
                x[base + j + span] = top - bottom


@hls.kernel
def stepped(a: hls.int32[N], out: hls.int32[N], lo: hls.int32, hi: hls.int32, step: hls.int32):
    k = hls.int32(0)
    for i in range(lo, hi, step):
        out[k] = a[i] * (k + 1)
        k += 1


@hls.kernel
def downward(a: hls.int32[N], out: hls.int32[N]):
    for s in range(1, 4):
        for i in range(N - 1, -1, -s):
            out[i] += a[i] * s


@hls.kernel
def bounded_trips(a: hls.int32[N], out: hls.int32[N]):
    for s in range(1, 4):
        for i in range(0, N, s):
            out[i] += a[i]


def _plain(kernel):
    """The undecorated function: plain CPython semantics, lists in and out."""
    return kernel.__hls_kernel__


def _three(kernel, arrays, *scalars):
    """The kernel's arrays after golden, csim and plain CPython on copies of `arrays`: all equal."""
    golden = [a.copy() for a in arrays]
    native = [a.copy() for a in arrays]
    plain = [a.tolist() for a in arrays]
    kernel(*golden, *scalars)
    kernel.csim(*native, *scalars)
    _plain(kernel)(*plain, *scalars)
    for g, c, p in zip(golden, native, plain, strict=True):
        assert g.tolist() == c.tolist() == p
    return golden


def test_stride_that_doubles():
    a = (np.arange(N, dtype=np.int32) * 7919) % 1000 - 500
    _three(strided_sums, [a, np.zeros(N, np.int32)])
    assert "i += step" in strided_sums.cpp or "i += 2 * span" in strided_sums.cpp


def test_butterfly_network_is_a_walsh_hadamard_transform():
    x = np.random.default_rng(25).integers(-1000, 1000, N).astype(np.int32)
    out = _three(butterflies, [x])[0]
    h = np.array([[1]])
    while len(h) < N:
        h = np.block([[h, h], [h, -h]])
    assert out.tolist() == (h @ x.astype(np.int64)).tolist()


@pytest.mark.parametrize(("lo", "hi", "step"), [(0, N, 3), (N - 1, -1, -2), (N - 1, 2, -5), (3, 3, 1),
                                                  (5, 0, 2), (0, N, N + 7), (2, 9, -1)])
def test_step_given_at_run_time_either_sign(lo, hi, step):
    a = np.arange(N, dtype=np.int32) * 3 - 11
    _three(stepped, [a, np.zeros(N, np.int32)], lo, hi, step)


def test_negative_variable_step():
    a = np.arange(N, dtype=np.int32) - 4
    _three(downward, [a, np.zeros(N, np.int32)])
    assert "i > -1" in downward.cpp


def test_zero_step_at_run_time_raises_at_the_line_in_both_models():
    a = np.zeros(N, np.int32)
    lines, first = inspect.getsourcelines(stepped.__hls_kernel__)
    line = first + next(n for n, text in enumerate(lines) if "range(lo, hi, step)" in text)
    for run in (stepped, stepped.csim):
        with pytest.raises(hls.SimulationError) as info:
            run(a, np.zeros(N, np.int32), 0, N, 0)
        assert f":{line}" in str(info.value)
        assert "zero" in str(info.value)
    assert "HLS_RANGE_STEP(step, " in stepped.cpp


def test_zero_step_at_compile_time_is_an_error_at_the_line(tmp_path):
    source = "\n".join(["import hls", "ZERO = 0", "@hls.kernel", "def k(a: hls.int32[8]):",
                        "    for i in range(0, 8, ZERO):", "        a[i] = 1", ""])
    namespace: dict = {}
    path = tmp_path / "hls_zero_step_kernel.py"
    path.write_text(source)
    exec(compile(source, str(path), "exec"), namespace)
    with pytest.raises(hls.HLSError) as info:
        namespace["k"].compile()
    assert "hls_zero_step_kernel.py:5:" in str(info.value) and "step is zero" in str(info.value)


def test_estimate_bounds_trips_from_the_step_range():
    report = bounded_trips.report().to_dict()
    inner = [lp for lp in report["loops"] if lp["trip"]["max"] == N]
    assert inner and inner[0]["trip"] == {"min": len(range(0, N, 3)), "max": N}
    assert report["latency"]["max"] is not None


def test_estimate_asks_for_a_tripcount_when_the_step_may_be_zero():
    text = str(stepped.report())
    assert "loop_tripcount" in text
