"""Kernel shapes public HLS projects write (issue 25): a butterfly network, bitonic sort, a radix-2
DIF FFT, merge sort through the rows of a buffer, a chain of processing elements and a systolic
matrix-vector product. Each: golden == csim, and both against an independent numpy/CPython reference."""

import numpy as np
import pytest

import hls

N = 16
LOG = 4
P = 4

ANGLES = -2.0 * np.pi * np.arange(N // 2) / N
TW_RE = np.cos(ANGLES).astype(np.float32)
TW_IM = np.sin(ANGLES).astype(np.float32)
BITREV = np.array([int(f"{i:0{LOG}b}"[::-1], 2) for i in range(N)], dtype=np.int32)


@hls.kernel
def bitonic_sort(a: hls.int32[N]):
    """Batcher's bitonic network: the block size doubles, the compare distance halves, both variables."""
    for s in range(1, LOG + 1):
        size = 1 << s
        for t in range(s - 1, -1, -1):
            dist = 1 << t
            for i in range(N):
                partner = i ^ dist
                if partner > i:
                    x = a[i]
                    y = a[partner]
                    up = (i & size) == 0
                    if (x > y) == up:
                        a[i] = y
                        a[partner] = x


@hls.kernel
def dif_fft(re: hls.float32[N], im: hls.float32[N], out_re: hls.float32[N], out_im: hls.float32[N]):
    """Radix-2 decimation in frequency, in place, then the bit-reversed reorder (Kastner et al.'s shape)."""
    for s in range(LOG):
        span = N >> (s + 1)
        for base in range(0, N, 2 * span):
            for j in range(span):
                k = base + j
                ar = re[k]
                ai = im[k]
                br = re[k + span]
                bi = im[k + span]
                re[k] = ar + br
                im[k] = ai + bi
                dr = ar - br
                di = ai - bi
                w = j << s
                re[k + span] = dr * TW_RE[w] - di * TW_IM[w]
                im[k + span] = dr * TW_IM[w] + di * TW_RE[w]
    for i in range(N):
        out_re[i] = re[BITREV[i]]
        out_im[i] = im[BITREV[i]]


@hls.kernel
def feed(x: hls.int32[N], s: hls.stream[hls.int32]):
    for i in range(N):
        s.write(x[i])


@hls.kernel
def mv_pe(xin: hls.stream[hls.int32], xout: hls.stream[hls.int32], w: hls.int32[N], y: hls.int64[1]):
    """One systolic cell: multiplies its row of W with x as x streams by, and passes x on."""
    acc = hls.int64(0)
    for i in range(N):
        v = xin.read()
        acc += w[i] * v
        xout.write(v)
    y[0] = acc


@hls.kernel
def drain(s: hls.stream[hls.int32]):
    for _ in range(N):
        s.read()


@hls.kernel
def systolic_mv(W: hls.int32[P, N], x: hls.int32[N], Y: hls.int64[P, 1]):
    hls.dataflow()
    s = [hls.stream(hls.int32, depth=2) for _ in range(P + 1)]
    feed(x, s[0])
    for p in range(P):
        mv_pe(s[p], s[p + 1], W[p], Y[p])
    drain(s[P])


def _plain(kernel):
    return kernel.__hls_kernel__


@pytest.mark.parametrize("seed", [0, 7, 25])
def test_bitonic_sort(seed):
    a = np.random.default_rng(seed).integers(-1000, 1000, N).astype(np.int32)
    golden, native, plain = a.copy(), a.copy(), a.tolist()
    bitonic_sort(golden)
    bitonic_sort.csim(native)
    _plain(bitonic_sort)(plain)
    assert golden.tolist() == native.tolist() == plain == sorted(a.tolist())


@pytest.mark.parametrize("seed", [0, 3])
def test_dif_fft_against_numpy(seed):
    rng = np.random.default_rng(seed)
    re = rng.standard_normal(N).astype(np.float32)
    im = rng.standard_normal(N).astype(np.float32)
    runs = []
    for run in (dif_fft, dif_fft.csim):
        outs = [np.zeros(N, np.float32), np.zeros(N, np.float32)]
        run(re.copy(), im.copy(), *outs)
        runs.append(outs)
    (gr, gi), (cr, ci) = runs
    assert gr.tobytes() == cr.tobytes() and gi.tobytes() == ci.tobytes()  # float32, no FMA: bit-exact
    want = np.fft.fft(re.astype(np.float64) + 1j * im.astype(np.float64))
    np.testing.assert_allclose(gr, want.real, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gi, want.imag, rtol=1e-4, atol=1e-4)


def test_systolic_matrix_vector_product():
    rng = np.random.default_rng(5)
    W = rng.integers(-50, 50, (P, N)).astype(np.int32)
    x = rng.integers(-50, 50, N).astype(np.int32)
    golden, native = np.zeros((P, 1), np.int64), np.zeros((P, 1), np.int64)
    systolic_mv(W, x, golden)
    systolic_mv.csim(W, x, native)
    want = [[sum(int(w) * int(v) for w, v in zip(row, x, strict=True))] for row in W.tolist()]
    assert golden.tolist() == native.tolist() == want
    assert "mv_pe(s[0], s[1], W[0], Y[0]);" in systolic_mv.cpp
