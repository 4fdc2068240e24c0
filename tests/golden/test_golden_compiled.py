"""The compiled golden model (hls/golden/jit.py, run by numba) against the element-by-element one, bit
for bit: every example, every test kernel and fuzz kernel it accepts, and the cases where its own
machinery could drift from Python mode (errors at the line, wraps beyond 64 bits, float32, libm)."""

from __future__ import annotations

import importlib
import math
import warnings

import numpy as np
import pytest

import hls
from hls.errors import HLSError, OverflowWarning, SimulationError
from hls.golden import jitrun
from hls.kernel import Kernel
from tests.conftest import EXAMPLES, load_example
from tests.golden.test_golden_numpy import FUZZ_SEEDS, load_units
from tests.golden_diff import disagreement, golden_mode, run_in_mode, same

pytest.importorskip("numba")

SEEDS = (0, 1)
KERNEL_MODULES = ("semantics_kernels", "control_kernels", "frontend_kernels", "kernels_passes", "results_kernels",
                  "reassociate_kernels", "schedule_kernels", "straighten_kernels", "naming_kernels",
                  "construct_kernels", "rotate_kernels", "bits_kernels")


def assert_agree(kernel: Kernel, inputs: list) -> None:
    problem = disagreement(kernel, inputs, "compiled")
    assert problem is None, f"{kernel.__name__}: {problem}"


@pytest.fixture(scope="module")
def example_kernels():
    return {p.stem: load_example(p).KERNEL for p in EXAMPLES}


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES])
def test_examples_bit_exact(example_kernels, name):
    kernel = example_kernels[name]
    program = kernel.compiled_golden.program
    if not program.supported:
        pytest.skip(program.reason)
    for seed in SEEDS:
        assert_agree(kernel, kernel.random_inputs(seed))


def test_which_examples_compile(example_kernels):
    """Loop-carried code, bit access and early exits qualify; streams, statics, structs, fixed point and
    float bit casts stay in Python mode."""
    supported = {n for n, k in example_kernels.items() if k.compiled_golden.program.supported}
    assert {"fir", "gemm", "conv2d", "saxpy", "vadd", "subkernel", "crc32", "bit_reverse", "search"} <= supported
    assert not supported & {"fir_static", "fir_stream", "matvec_fixed", "float_unpack", "rgb565"}, supported


def kernels_of(name: str) -> list[tuple[str, Kernel]]:
    try:
        module = importlib.import_module(f"tests.kernels.{name}")
    except Exception:  # noqa: BLE001 - a module that does not import has no kernels to offer
        return []
    return [(f"{name}.{attr}", k) for attr, k in sorted(vars(module).items()) if isinstance(k, Kernel)]


def test_test_kernels_bit_exact():
    """Every kernel of the tests' kernel modules that the compiled model accepts and that takes random inputs."""
    checked = 0
    for module in KERNEL_MODULES:
        for label, kernel in kernels_of(module):
            try:
                program = kernel.compiled_golden.program
                inputs = kernel.random_inputs(0)
            except Exception:  # noqa: BLE001 - kernels that are meant to be rejected
                continue
            if not program.supported:
                continue
            checked += 1
            problem = disagreement(kernel, inputs, "compiled")
            assert problem is None, f"{label}: {problem}"
    assert checked >= 40, checked


def test_fuzz_kernels_bit_exact(tmp_path):
    supported = 0
    for unit, kernel in load_units(tmp_path, FUZZ_SEEDS):
        if not kernel.compiled_golden.program.supported:
            continue
        supported += 1
        assert_agree(kernel, kernel.random_inputs(unit.seed))
    # the generator writes fixed point into most kernels, which stays in Python mode (12 of 150 qualified
    # when this was written); the bound guards against the model silently refusing more
    assert supported >= 8, supported


N = 4096


@hls.kernel
def sum_squares(x: hls.int32[N]) -> hls.int64:
    s: hls.int64 = 0
    for i in range(N):
        s += x[i] * x[i] + 3
    return s


@hls.kernel
def iir(x: hls.float32[N], y: hls.float32[N]):
    p: hls.float32 = 0.0
    for i in range(N):
        p = 0.9 * p + x[i]
        y[i] = p


@hls.kernel
def wraps(x: hls.int16[8], y: hls.int8[8]) -> hls.uint4:
    acc: hls.uint4 = 0
    for i in range(8):
        y[i] = x[i] * 3
        acc += x[i]
    return acc


@hls.kernel
def divides(a: hls.int16[4], b: hls.int16[4], out: hls.int16[4]):
    for i in range(4):
        out[i] = a[i] // b[i]


@hls.kernel
def indexes(a: hls.int16[4], idx: hls.int8[4], out: hls.int16[4]):
    for i in range(4):
        out[i] = a[idx[i]]


@hls.kernel
def softplus(x: hls.float32[16], y: hls.float32[16], z: hls.float64[16]):
    for i in range(16):
        y[i] = math.log(1.0 + math.exp(x[i])) + math.sqrt(math.fabs(x[i]))
        z[i] = math.tanh(hls.float64(x[i])) + math.pow(hls.float64(x[i]), 2.5)


def test_math_calls_the_c_library():
    x = np.random.default_rng(2).standard_normal(16).astype(np.float32) * 4
    assert softplus.compiled_golden.program.supported, softplus.compiled_golden.program.reason
    assert_agree(softplus, [x, np.zeros(16, np.float32), np.zeros(16, np.float64)])


def test_loop_carried_kernels_take_the_compiled_model():
    with golden_mode("auto"):
        assert sum_squares.golden_model == "python"  # 4096 iterations: not worth numba's first compile
    with golden_mode("compiled"):
        assert sum_squares.golden_model == "compiled" and iir.golden_model == "compiled"
    rng = np.random.default_rng(3)
    assert_agree(sum_squares, [rng.integers(-2**31, 2**31, N).astype(np.int32)])
    assert_agree(iir, [rng.standard_normal(N).astype(np.float32), np.zeros(N, np.float32)])


def test_float32_is_not_promoted():
    """0.9 * p with p float32 is 0.9f * p (the C++'s literal), in float32 all along: bits equal Python mode's."""
    x = np.random.default_rng(1).standard_normal(N).astype(np.float32)
    y = np.zeros(N, np.float32)
    with golden_mode("compiled"):
        iir(x, y)
    p, expected = np.float32(0), np.zeros(N, np.float32)
    for i in range(N):
        p = np.float32(np.float32(0.9) * p + x[i])
        expected[i] = p
    assert same(y, expected)
    wide = np.zeros(N, np.float64)  # the same recursion in float64 differs: the test can tell
    for i in range(1, N):
        wide[i] = 0.9 * wide[i - 1] + float(x[i])
    assert not same(y, wide.astype(np.float32))


def test_wide_sum_reports_its_wrap_as_python_mode():
    """s + (x*x + 3) is an int66 sum: int64 holds it modulo 2**64 only; the reported wrap (before, after)
    must still be Python mode's exact one (the model gives way to Python mode when it is not exact)."""
    big = np.full(N, 2**31 - 1, dtype=np.int32)
    ret, _, events = run_in_mode(sum_squares, [big], "compiled")
    assert same(ret, run_in_mode(sum_squares, [big], "python")[0])
    assert len(events) == 1 and next(iter(events.values()))[1] > 2**63 - 1
    small = np.arange(N, dtype=np.int32)
    with golden_mode("compiled"):
        assert sum_squares(small) == sum(i * i + 3 for i in range(N))


def test_wraps_and_warnings_match():
    x = np.array([100, -100, 7, 50, 1, 2, 3, 4], dtype=np.int16)
    assert_agree(wraps, [x, np.zeros(8, np.int8)])
    for mode in ("compiled", "python"):
        with golden_mode(mode), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            wraps.verify(x, np.zeros(8, np.int8))
        messages = sorted(str(w.message) for w in caught if issubclass(w.category, OverflowWarning))
        if mode == "compiled":
            compiled_messages = messages
    assert compiled_messages == messages and len(messages) == 2


@pytest.mark.parametrize("kernel, args", [
    (divides, [np.array([1, 2, 3, 4], np.int16), np.array([1, 0, 1, 1], np.int16), np.zeros(4, np.int16)]),
    (indexes, [np.arange(4, dtype=np.int16), np.array([0, 1, 9, 2], np.int8), np.zeros(4, np.int16)]),
    (indexes, [np.arange(4, dtype=np.int16), np.array([0, -1, 1, 2], np.int8), np.zeros(4, np.int16)]),
])
def test_errors_are_python_modes_at_the_line(kernel, args):
    errors = []
    for mode in ("compiled", "python"):
        out = args[-1].copy()
        with golden_mode(mode), pytest.raises(SimulationError) as info:
            kernel(*args[:-1], out)
        errors.append((str(info.value), info.value.loc, out.tobytes()))  # as far as Python mode got
    assert errors[0] == errors[1] and errors[0][1] is not None


def test_compiled_module_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("HLS_CACHE_DIR", str(tmp_path))
    kernel = Kernel(wraps.__hls_kernel__)
    with golden_mode("compiled"):
        kernel(np.arange(8, dtype=np.int16), np.zeros(8, np.int8))
    files = list((tmp_path / "golden").rglob("hls_golden_*.py"))
    assert len(files) == 1 and "def k_wraps" in files[0].read_text()
    assert kernel.compiled_golden.first_call_seconds is not None


def test_without_numba(monkeypatch):
    monkeypatch.setattr(jitrun, "available", lambda: False)
    kernel = Kernel(iir.__hls_kernel__)
    with golden_mode("auto"):
        assert kernel.golden_model == "python"
    with golden_mode("compiled"), pytest.raises(HLSError, match="numba"):
        kernel.golden_model  # noqa: B018


def test_unsupported_kernels_fall_back(example_kernels):
    kernel = example_kernels["fir_static"]
    assert "static" in kernel.compiled_golden.program.reason
    with golden_mode("compiled"):
        assert kernel.golden_model == "python"


@hls.kernel
def clamp_with_count(n: hls.uint64, a: hls.float64[3]):
    """A uint64 scalar the loops never read (fuzz seed 31337000084): the compiled model takes it anyway."""
    w: hls.int32 = 0
    while w < 2:
        w += 1
        a[2 - w] = min(max(a[w], -10000.0), 10000.0)


@pytest.mark.parametrize("n", [5, 2**63 - 1, 2**63, 2**64 - 1])
def test_a_uint64_scalar_beyond_int64_runs(n):
    """int64 cannot carry 2**63 and up: the compiled model hands that call to Python mode (it raised an
    OverflowError outside its own error handling)."""
    a = np.array([1.5, -2e5, 3.25])
    with golden_mode("compiled"):
        golden = a.copy()
        clamp_with_count(n, golden)
    native = a.copy()
    clamp_with_count.csim(n, native)
    plain = a.copy()
    clamp_with_count.__wrapped__(n, plain)
    assert same(golden, native) and same(golden, plain) and golden.tolist() == [3.25, -10000.0, 3.25]
