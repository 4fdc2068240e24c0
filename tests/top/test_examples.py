"""Every example: golden == csim, and the generated C++ compiles cleanly with -Wall -Werror."""

import subprocess

import numpy as np
import pytest

from hls.sim.toolchain import ap_include_dir, compiler, own_include_dir
from tests.conftest import EXAMPLES, load_example

NAMES = [p.stem for p in EXAMPLES]


@pytest.mark.parametrize("name", NAMES)
def test_example_verifies(examples, name):
    kernel = examples[name].KERNEL
    result = kernel.verify(seed=1)
    assert result["compared"]


@pytest.mark.parametrize("name", NAMES)
def test_example_cpp_compiles_warning_free(examples, name, tmp_path):
    compile_warning_free(examples[name].KERNEL.compile().design, tmp_path)


def compile_warning_free(design, tmp_path) -> None:
    for file, text in design.sources.items():
        (tmp_path / file).write_text(text)
    cpp = tmp_path / f"{design.top}.cpp"
    # -isystem: warnings inside the ap_types headers themselves are not ours to fix
    argv = [*compiler(), "-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas",
            "-I", str(own_include_dir()), "-isystem", str(ap_include_dir()),
            "-c", str(cpp), "-o", str(tmp_path / "k.o")]
    result = subprocess.run(argv, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_conv2d_int8_products_overflow_8_bits(examples):
    """The products need 15 bits: an int8 golden model (numpy's own promotion) would be wrong."""
    k = examples["conv2d"].KERNEL
    img = np.full((18, 18), -128, dtype=np.int8)
    w = np.full((3, 3), -128, dtype=np.int8)
    out = np.zeros((16, 16), dtype=np.int32)
    k.verify(img, w, out)
    k(img, w, out)
    assert out[0, 0] == 9 * 128 * 128


def test_batchnorm_wraps_in_8_bits(examples):
    k = examples["batchnorm"].KERNEL
    x = np.full((1, 4, 8, 8), 200, dtype=np.int16)  # int9 values; truncating to int8 gives -56
    scale = np.array([3, 1, -1, 2], dtype=np.int8)
    bias = np.array([100, 0, 5, -7], dtype=np.int8)
    y = np.zeros_like(x)
    k.verify(x, scale, bias, y)
    k(x, scale, bias, y)
    expected = [((-56 * 3) % 256 - 256 * (((-56 * 3) % 256) > 127) + 100)]
    t = -56
    for c, (s, b) in enumerate(zip(scale, bias, strict=True)):
        m = (t * int(s) + 128) % 256 - 128
        v = (m + int(b) + 128) % 256 - 128
        assert y[0, c, 0, 0] == v, (c, y[0, c, 0, 0], v)
    assert expected  # the first channel wraps twice: -168 -> 88, 88 + 100 = 188 -> -68
    assert y[0, 0, 0, 0] == -68


def test_histogram_counts(examples):
    k = examples["histogram"].KERNEL
    data = np.arange(512, dtype=np.int64).astype(np.uint8)
    hist = np.zeros(16, dtype=np.int32)
    k.csim(data, hist)
    assert hist.tolist() == [32] * 16


def test_fir_matches_numpy_convolution(examples):
    mod = examples["fir"]
    x = np.random.default_rng(3).uniform(-1, 1, 256).astype(np.float32)
    y = np.zeros(256, dtype=np.float32)
    mod.KERNEL.csim(x, y)
    ref = np.convolve(x.astype(np.float64), mod.TAPS.astype(np.float64))[:256]
    assert np.allclose(y, ref, atol=1e-5)


def test_example_modules_load_standalone():
    for path in EXAMPLES:
        assert hasattr(load_example(path), "KERNEL"), path.name


def test_crc32_matches_zlib(examples):
    import zlib

    data = np.random.default_rng(3).integers(0, 256, 256).astype(np.uint8)
    k = examples["crc32"].KERNEL
    assert k(data) == k.csim(data) == zlib.crc32(data.tobytes())


def test_bit_reverse_permutes_like_an_fft_index(examples):
    x = np.arange(256, dtype=np.int32) * 3
    y = np.zeros(256, np.int32)
    examples["bit_reverse"].KERNEL.csim(x, y)
    assert [y[int(f"{i:08b}"[::-1], 2)] for i in range(256)] == x.tolist()


def test_popcount_histogram_counts_set_bits(examples):
    words = np.random.default_rng(4).integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    words[:3] = [0, 0xFFFFFFFF, 1]
    hist = np.zeros(33, np.int32)
    examples["popcount_histogram"].KERNEL.csim(words, hist)
    assert hist.tolist() == np.bincount([bin(int(w)).count("1") for w in words], minlength=33).tolist()


def test_float_unpack_fields(examples):
    x = np.array([1.0, -2.5, 0.0, -0.0, np.inf, 1e-45, 3.4e38, np.nan] * 8, np.float32)
    sign, exponent, mantissa = np.zeros(64, np.bool_), np.zeros(64, np.uint8), np.zeros(64, np.uint32)
    examples["float_unpack"].KERNEL.csim(x, sign, exponent, mantissa)
    raw = x.view(np.uint32)
    assert sign.tolist() == (raw >> 31 == 1).tolist()
    assert exponent.tolist() == (raw >> 23 & 0xFF).tolist()
    assert mantissa.tolist() == (raw & 0x7FFFFF).tolist()


def test_rgb565_round_trip_and_channel_expansion(examples):
    mod = examples["rgb565"]
    src = np.random.default_rng(5).integers(0, 1 << 16, mod.N, dtype=np.int64).astype(np.uint16)
    src[:2] = [0xFFFF, 0x0000]
    pixels = np.zeros(mod.N, mod.Pixel.dtype)
    dst = np.zeros(mod.N, np.uint16)
    mod.KERNEL.csim(src, pixels, dst)
    assert dst.tolist() == src.tolist()
    r5, g6, b5 = src >> 11, (src >> 5) & 63, src & 31
    assert pixels["r"].tolist() == ((r5 << 3) | (r5 >> 2)).tolist()
    assert pixels["g"].tolist() == ((g6 << 2) | (g6 >> 4)).tolist()
    assert pixels["b"].tolist() == ((b5 << 3) | (b5 >> 2)).tolist()
    assert pixels[0].tolist() == (255, 255, 255)
    golden = np.zeros_like(pixels)
    mod.KERNEL(src, golden, np.zeros_like(dst))
    assert golden.tolist() == pixels.tolist()
