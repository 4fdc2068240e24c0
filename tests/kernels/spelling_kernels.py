"""Issue 25's Vitis spellings and fixed point next to float constants (tests/frontend/test_spellings.py)."""

from dataclasses import dataclass

import numpy as np

import hls

N = 8
STEP = 0.01
GAIN = 1.5
PHASE = np.array([0.5, -0.25, 0.125, 0.7071, 3.3, -1e-3, 7.99, -7.2])
WINDOW = np.array([0.1, 0.35, 0.5, 0.35, 0.1, 0.0, -0.05, 0.0], dtype=np.float32)
F16 = hls.ap_fixed[16, 4]
RND = hls.ap_fixed[12, 3, "AP_RND", "AP_SAT"]


@hls.kernel
def sgd_step(grad: F16[N], w: F16[N]):
    """`w - STEP * grad` with STEP a Python float: STEP converts to grad's type (F16)."""
    for i in range(N):
        w[i] = w[i] - STEP * grad[i]
        w[i] += 0.3
        w[i] *= GAIN


@hls.kernel
def rotate_phase(sigma: F16, out: F16[N]):
    """`sigma * PHASE[j]` with PHASE a numpy float ROM: stored as F16 (its one use type)."""
    for j in range(N):
        out[j] = sigma * PHASE[j]


@hls.kernel
def windowed(x: RND[N], out: RND[N]):
    """A float32 ROM and a literal beside a rounding, saturating type: converted by its modes."""
    for i in range(N):
        out[i] = WINDOW[i] * x[i] + 0.0625


@hls.kernel
def fields(x: hls.ap_uint[32], y: hls.int16) -> hls.uint32:
    """Vitis's inclusive x.range(hi, lo) on an ap_uint and a signed value; x.range() is every bit."""
    a = x.range(11, 4)
    b = y.range(15, 8)
    c = x.range()
    return a + (b << 8) + (c & 1) + x.range(31, 31)


@hls.kernel
def as_float(x: hls.uint32, y: hls.ap_uint[64]) -> hls.float64:
    """x.bitcast(T), the method spelling of hls.bitcast(x, T)."""
    return x.bitcast(hls.float32) * 2 + y.bitcast(hls.float64)


@hls.kernel
def clear(C: hls.int32[4, 4], D: hls.uint8[4], n: hls.int32) -> hls.int16:
    """Integral float literals stored into integer arrays and a declared int local."""
    x: hls.int16 = 3.0
    for i in range(4):
        D[i] = 255.0
        for j in range(4):
            C[i, j] = 0.0
            if i + j > n:
                C[i, j] = -7.0
    return x


@dataclass
class Sample:
    """A plain dataclass with hls-typed fields where @hls.struct is meant."""
    x: hls.int16
    gain: hls.uint8
    taps: hls.int8[2]


@hls.kernel
def sample_energy(p: Sample, k: hls.int16) -> hls.int32:
    s = hls.int32(0)
    for i in range(2):
        s += p.taps[i] * p.gain
    r = Sample(p.x + k, p.gain)
    return s + r.x + r.gain
