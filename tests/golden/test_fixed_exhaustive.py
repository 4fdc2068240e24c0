"""hls.fixed against the real ap_fixed header, bit for bit.

One C++ program (one conversion function per configuration, split over a few translation units
compiled in parallel) is built once for this module. It converts dense grids of doubles, and raw
values of wider ap_fixed types, to every configuration; each result is compared with to_raw.
The documented examples of UG1399 are checked as plain asserts at the end.
"""

from __future__ import annotations

import importlib.metadata
import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from hls import fixed
from hls.types import OVERFLOW_MODES, QUANT_MODES, FixedType

MASK64 = (1 << 64) - 1
SEED = 20240613

# (W, I): ordinary, I <= 0, I == W, I > W, one-bit and two-bit words
SHAPES = [(8, 4), (6, 0), (5, -3), (4, 4), (5, 9), (3, 2), (1, 1), (7, 7), (2, -1), (10, 3),
          (6, 8), (1, 0), (9, -2), (4, 1)]
SPECIAL_TARGETS = [
    FixedType(64, 32, True, "AP_TRN", "AP_WRAP"),
    FixedType(63, 10, True, "AP_RND", "AP_SAT"),
    FixedType(62, 62, True, "AP_RND_CONV", "AP_SAT_SYM"),
    FixedType(62, -3, False, "AP_RND_INF", "AP_WRAP", 5),
    FixedType(61, 20, True, "AP_RND_ZERO", "AP_WRAP_SM"),
    FixedType(100, 40, True, "AP_RND_INF", "AP_WRAP_SM", 3),
    FixedType(70, 75, False, "AP_RND", "AP_SAT"),
    FixedType(200, 100, True, "AP_RND_CONV", "AP_WRAP", 2),
    FixedType(54, 2, True, "AP_RND_CONV", "AP_SAT_ZERO"),
    FixedType(53, 1, True, "AP_TRN_ZERO", "AP_WRAP"),
    FixedType(12, -1066, True, "AP_RND", "AP_SAT"),  # lsb 2**-1078: subnormal doubles matter
    FixedType(8, -1070, True, "AP_TRN_ZERO", "AP_WRAP_SM"),
    FixedType(8, -1100, False, "AP_RND_INF", "AP_SAT"),
    FixedType(8, 1000, True, "AP_RND", "AP_WRAP"),
    FixedType(10, 1030, True, "AP_RND_MIN_INF", "AP_SAT"),
    FixedType(16, -20, True, "AP_RND_CONV", "AP_WRAP", 2),
]
# sources of the fixed-to-fixed assignments: narrow ones are enumerated exhaustively
SOURCES = [FixedType(10, 4), FixedType(9, 2, False), FixedType(10, -2), FixedType(10, 13, False),
           FixedType(8, 8), FixedType(32, 12), FixedType(64, 20), FixedType(40, -5, False)]
FIXED_SHAPES = [(6, 2), (5, -1), (4, 7), (6, 6), (8, 4), (3, 1), (1, 1), (7, 0)]


@dataclass(frozen=True)
class Case:
    """One conversion the C++ program performs: a double (source None) or a wider fixed value."""

    target: FixedType
    source: FixedType | None = None

    @property
    def words(self) -> int:
        return (self.target.width + 63) // 64

    def __str__(self) -> str:
        return f"{self.source or 'double'}->{self.target}"


def mode_combos() -> list[tuple[str, str, bool]]:
    """Every (quantization, overflow, signedness) the header accepts."""
    return [(q, o, s) for s in (True, False) for o in OVERFLOW_MODES for q in QUANT_MODES
            if s or o != "AP_WRAP_SM"]


def double_cases() -> list[Case]:
    """All 7 x 5 modes, both signs, two shapes each (the second with N > 0); wide and extreme types."""
    targets = []
    for i, (quant, over, signed) in enumerate(mode_combos()):
        width, int_bits = SHAPES[i % len(SHAPES)]
        targets.append(FixedType(width, int_bits, signed, quant, over))
        width, int_bits = SHAPES[(i + 7) % len(SHAPES)]
        counts = (1, 2, 3, width - 1, width) if over.startswith("AP_WRAP") else (1, width)
        sat = min(max(counts[i % len(counts)], 1), width)
        targets.append(FixedType(width, int_bits, signed, quant, over, sat))
    return [Case(t) for t in targets + SPECIAL_TARGETS]


def fixed_cases() -> list[Case]:
    """Every mode from rotating sources and shapes, plus ap_fixed<32,12> into <8,4> (21 modes)."""
    cases = []
    for i, (quant, over, signed) in enumerate(mode_combos()):
        width, int_bits = FIXED_SHAPES[i % len(FIXED_SHAPES)]
        sat = min((0, 0, 1, 2, width)[i % 5], width) if over != "AP_SAT" else 0
        target = FixedType(width, int_bits, signed, quant, over, sat)
        rotated = SOURCES[i % len(SOURCES):] + SOURCES[:i % len(SOURCES)]
        cases.append(Case(target, next(src for src in rotated if not header_asserts(src, target))))
    for i, quant in enumerate(QUANT_MODES):
        for over in (OVERFLOW_MODES * 2)[i % 5:i % 5 + 3]:
            cases.append(Case(FixedType(8, 4, True, quant, over), FixedType(32, 12)))
    return cases


def header_asserts(src: FixedType, dst: FixedType) -> bool:
    """operator= reads the half-lsb bit unguarded: ap_private asserts (abort) when it lies above
    the source's MSB, i.e. the whole source is below half an lsb of a rounding target."""
    rounds = dst.quant != "AP_TRN" and not (dst.quant == "AP_TRN_ZERO" and not src.signed)
    return rounds and src.frac_bits - dst.frac_bits > src.width


DOUBLE_CASES = double_cases()
FIXED_CASES = fixed_cases()


# --------------------------------------------------------------------------------------------------
# inputs


def double_inputs(t: FixedType, rng: np.random.Generator) -> np.ndarray:
    """Quarter-lsb grid (ties), min/max/wrap edges, every binade around the range, random values."""
    frac = t.frac_bits
    span = min(1 << (t.width + 1), 512)
    units = [np.arange(-4 * span, 4 * span + 1) / 4.0]
    offsets = np.arange(-8, 9) / 8.0
    for edge in (t.raw_min, t.raw_max, t.raw_max + 1, t.raw_min - 1, 1 << t.width, 3 << t.width,
                 1 << (t.width - 1), (1 << t.width) - 1):
        units += [float(edge) + offsets, -float(edge) + offsets]
    with np.errstate(over="ignore"):
        grid = np.ldexp(np.concatenate(units), -frac)
        near = np.concatenate([np.nextafter(grid, np.inf), np.nextafter(grid, -np.inf)])
    low, high = max(-1074, -frac - 70), min(1023, t.int_bits + 70)
    exps = np.arange(low, high + 1)
    binades = np.concatenate([np.ldexp(1.0, exps), np.ldexp(1.5, exps - 1), np.ldexp(1 - 2.0**-53, exps),
                              np.ldexp(rng.uniform(0.5, 1.0, exps.size), exps)])
    wide = rng.uniform(-16, 16, 2000) * np.ldexp(1.0, min(max(t.int_bits, -1070), 1010))
    subnormal = np.ldexp(rng.integers(1, 1 << 52, 50).astype(np.float64), -1074)
    specials = np.array([0.0, -0.0, 5e-324, 2.2250738585072014e-308, np.finfo(np.float64).max])
    values = np.concatenate([grid, near, binades, -binades, wide, subnormal, -subnormal, specials,
                             -specials])
    values = values[np.isfinite(values)]
    if t.width > fixed.INT64_MAX_WIDTH:  # Python-int path: keep it quick
        values = rng.choice(values, size=min(values.size, 3000), replace=False)
    return values


def source_raws(case: Case, rng: random.Random) -> list[int]:
    """Every raw value of a narrow source; else edges, random magnitudes and ties of the target."""
    src, dst = case.source, case.target
    assert src is not None
    if src.width <= 12:
        return list(range(src.raw_min, src.raw_max + 1))
    raws = {src.raw_min, src.raw_max, 0, 1, -1 if src.signed else 2}
    for _ in range(700):
        value = rng.getrandbits(rng.randint(0, src.width))
        raws.add(-value if src.signed and rng.random() < 0.5 else value)
    drop = src.frac_bits - dst.frac_bits  # source bits below the target's lsb
    if drop >= 2:
        for edge in (0, dst.raw_min, dst.raw_max, dst.raw_max + 1, 1 << dst.width):
            for quarter in range(-12, 13):
                raws.add((4 * edge + quarter) << (drop - 2))
                raws.add((-4 * edge + quarter) << (drop - 2))
    return sorted(r for r in raws if src.raw_min <= r <= src.raw_max)


# --------------------------------------------------------------------------------------------------
# the C++ program


def header_dir() -> Path:
    """The ap_types headers shipped in the hls4ml wheel (located without importing hls4ml)."""
    location = importlib.metadata.distribution("hls4ml").locate_file("hls4ml/templates/vivado/ap_types")
    return Path(str(location))


def cpp_type(t: FixedType) -> str:
    kind = "ap_fixed" if t.signed else "ap_ufixed"
    return f"{kind}<{t.width}, {t.int_bits}, {t.quant}, {t.overflow}, {t.sat_bits}>"


UNIT_PRELUDE = """#include <ap_fixed.h>
#include <stdint.h>
#include <string.h>

template <int W, typename T>
static void store(const T& x, uint64_t* out) {
  ap_uint<W> bits = x.range(W - 1, 0);
  for (int j = 0; j * 64 < W; ++j) {
    int hi = j * 64 + 63 < W - 1 ? j * 64 + 63 : W - 1;
    out[j] = bits.range(hi, j * 64).to_uint64();
  }
}
"""

MAIN_SOURCE = """#include <stdint.h>
#include <stdio.h>
#include <vector>

typedef void (*conv_fn)(const uint64_t*, uint64_t*, size_t);
%(decls)s
static const conv_fn table[] = {%(table)s};
static const unsigned words[] = {%(words)s};

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  FILE* in = fopen(argv[1], "rb");
  FILE* out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  uint64_t head[2];
  while (fread(head, 8, 2, in) == 2) {
    std::vector<uint64_t> src(head[1] + 1), dst(head[1] * words[head[0]] + 1);
    if (fread(src.data(), 8, head[1], in) != head[1]) return 3;
    table[head[0]](src.data(), dst.data(), head[1]);
    fwrite(dst.data(), 8, head[1] * words[head[0]], out);
  }
  return fclose(out) == 0 ? 0 : 4;
}
"""


def conv_function(index: int, case: Case) -> str:
    """One conversion loop: double or raw source bits in, raw target words out."""
    dst = cpp_type(case.target)
    if case.source is None:
        body = f"double d; memcpy(&d, in + k, 8); {dst} x(d);"
    else:
        body = f"{cpp_type(case.source)} s; s.setBits(in[k]); {dst} x(s);"
    store = f"store<{case.target.width}>(x, out + k * {case.words});"
    return (f"void conv_{index}(const uint64_t* in, uint64_t* out, size_t n) {{\n"
            f"  for (size_t k = 0; k < n; ++k) {{ {body} {store} }}\n"
            "}\n")


def build_program(cases: list[Case], workdir: Path) -> Path:
    """Write and compile the program: translation units in parallel, then one link."""
    units = max(2, min(os.cpu_count() or 2, 8))
    sources = [workdir / f"unit{u}.cpp" for u in range(units)]
    for u, path in enumerate(sources):
        functions = (conv_function(i, c) for i, c in enumerate(cases) if i % units == u)
        path.write_text(UNIT_PRELUDE + "".join(functions))
    decls = "".join(f"void conv_{i}(const uint64_t*, uint64_t*, size_t);\n" for i in range(len(cases)))
    main = workdir / "main.cpp"
    main.write_text(MAIN_SOURCE % {"decls": decls, "table": ", ".join(f"conv_{i}" for i in range(len(cases))),
                                   "words": ", ".join(str(c.words) for c in cases)})
    flags = ["g++", "-std=c++14", "-O1", f"-I{header_dir()}"]

    def compile_one(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*flags, "-c", str(path), "-o", str(path.with_suffix(".o"))],
                              capture_output=True, text=True)

    with ThreadPoolExecutor(max_workers=units + 1) as pool:
        results = list(pool.map(compile_one, [*sources, main]))
    for result in results:
        assert result.returncode == 0, result.stderr[-4000:]
    exe = workdir / "ap_fixed_convert"
    link = subprocess.run([*flags, *(str(p.with_suffix(".o")) for p in [*sources, main]), "-o", str(exe)],
                          capture_output=True, text=True)
    assert link.returncode == 0, link.stderr[-4000:]
    return exe


def run_program(exe: Path, workdir: Path, batches: list[tuple[int, np.ndarray]],
                cases: list[Case]) -> list[np.ndarray]:
    """Feed (case index, uint64 inputs) batches; return each batch's output words, shape (n, words)."""
    chunks = []
    for index, data in batches:
        chunks += [np.array([index, data.size], dtype=np.uint64), data.astype(np.uint64)]
    (workdir / "in.bin").write_bytes(np.concatenate(chunks).tobytes())
    result = subprocess.run([str(exe), str(workdir / "in.bin"), str(workdir / "out.bin")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-4000:]
    flat = np.frombuffer((workdir / "out.bin").read_bytes(), dtype=np.uint64)
    outputs, pos = [], 0
    for index, data in batches:
        words = cases[index].words
        outputs.append(flat[pos:pos + data.size * words].reshape(data.size, words))
        pos += data.size * words
    assert pos == flat.size
    return outputs


@dataclass
class HeaderRun:
    """Inputs given to the header and the words it stored, per case."""

    double_inputs: dict[Case, np.ndarray]
    double_words: dict[Case, np.ndarray]
    fixed_inputs: dict[Case, list[int]]
    fixed_words: dict[Case, np.ndarray]


@pytest.fixture(scope="module")
def header(tmp_path_factory: pytest.TempPathFactory) -> HeaderRun:
    """Compile the program once, run every case through it in one process."""
    if shutil.which("g++") is None:
        pytest.skip("g++ not available")
    workdir = tmp_path_factory.mktemp("ap_fixed")
    cases = DOUBLE_CASES + FIXED_CASES
    exe = build_program(cases, workdir)
    rng, pyrng = np.random.default_rng(SEED), random.Random(SEED)
    doubles = {c: double_inputs(c.target, rng) for c in DOUBLE_CASES}
    raws = {c: source_raws(c, pyrng) for c in FIXED_CASES}
    batches = [(i, doubles[c].view(np.uint64)) for i, c in enumerate(DOUBLE_CASES)]
    offset = len(DOUBLE_CASES)
    for i, c in enumerate(FIXED_CASES):
        bits = [r & ((1 << c.source.width) - 1) for r in raws[c]]  # type: ignore[union-attr]
        batches.append((offset + i, np.array(bits, dtype=np.uint64)))
    outputs = run_program(exe, workdir, batches, cases)
    return HeaderRun(doubles, dict(zip(DOUBLE_CASES, outputs[:offset], strict=True)),
                     raws, dict(zip(FIXED_CASES, outputs[offset:], strict=True)))


def raw_words(raw: np.ndarray, t: FixedType) -> np.ndarray:
    """Raw mantissas as the header's W-bit words, split in 64-bit pieces like the C++ side."""
    mask = (1 << t.width) - 1
    if raw.dtype != object:
        return (raw & mask).astype(np.uint64).reshape(-1, 1)
    words = (t.width + 63) // 64
    bits = [int(v) & mask for v in raw.ravel()]
    return np.array([[(b >> (64 * j)) & MASK64 for j in range(words)] for b in bits], dtype=np.uint64)


def mismatch_report(inputs: list, expected: np.ndarray, got: np.ndarray) -> str:
    bad = np.flatnonzero(np.any(expected != got, axis=1))
    lines = [f"{inputs[i]!r}: to_raw {expected[i].tolist()} header {got[i].tolist()}" for i in bad[:10]]
    return f"{bad.size} of {len(inputs)} differ:\n" + "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# 1. doubles


@pytest.mark.parametrize("case", DOUBLE_CASES, ids=str)
def test_double_matches_header(header: HeaderRun, case: Case) -> None:
    values = header.double_inputs[case]
    raw = fixed.to_raw(values, case.target)
    assert raw.dtype == (np.int64 if case.target.width <= fixed.INT64_MAX_WIDTH else object)
    expected, got = raw_words(raw, case.target), header.double_words[case]
    assert np.array_equal(expected, got), mismatch_report(values.tolist(), expected, got)


def test_case_list_covers_every_mode() -> None:
    """The configurations above really span what the task needs (guards later edits)."""
    targets = [c.target for c in DOUBLE_CASES]
    assert {(t.quant, t.overflow, t.signed) for t in targets} == set(mode_combos())
    assert {(t.quant, t.overflow, t.signed) for t in (c.target for c in FIXED_CASES)} == set(mode_combos())
    assert any(t.int_bits <= 0 for t in targets) and any(t.int_bits > t.width for t in targets)
    assert any(t.int_bits == t.width for t in targets)
    for over in OVERFLOW_MODES:
        assert any(t.overflow == over and t.sat_bits > 0 for t in targets)


# --------------------------------------------------------------------------------------------------
# 2. exact rationals: wider fixed values, and agreement with the double path


@pytest.mark.parametrize("case", FIXED_CASES, ids=str)
def test_wider_fixed_matches_header(header: HeaderRun, case: Case) -> None:
    src = case.source
    assert src is not None
    inputs = header.fixed_inputs[case]
    raw = np.array([fixed.to_raw(fixed.to_fraction(r, src), case.target) for r in inputs], dtype=object)
    expected, got = raw_words(raw, case.target), header.fixed_words[case]
    assert np.array_equal(expected, got), mismatch_report([fixed.to_fraction(r, src) for r in inputs],
                                                         expected, got)


@pytest.mark.parametrize("case", DOUBLE_CASES[::3], ids=str)
def test_fraction_equals_double(header: HeaderRun, case: Case) -> None:
    """Exact path == double path on doubles (subnormals excluded: the header misreads them)."""
    values = header.double_inputs[case]
    values = values[(values == 0) | (np.abs(values) >= np.finfo(np.float64).tiny)][::7]
    from_float = fixed.to_raw(values, case.target)
    from_fraction = [fixed.to_raw(Fraction(float(v)), case.target) for v in values]
    assert all(isinstance(r, int) for r in from_fraction)
    assert [int(r) for r in from_float] == from_fraction


def test_non_double_rationals() -> None:
    """Values no double holds: thirds, huge ints, and ties of fine binary fractions."""
    t = FixedType(8, 4, True, "AP_RND_CONV", "AP_SAT")
    assert fixed.to_raw(Fraction(1, 3), t) == 5  # 0.333.. -> 5/16 = 0.3125
    assert fixed.to_raw(Fraction(-1, 3), t) == -5
    assert fixed.to_raw(Fraction(17, 32), t) == 8  # tie 8.5/16 -> even
    assert fixed.to_raw(Fraction(19, 32), t) == 10  # tie 9.5/16 -> even
    assert fixed.to_raw(10**30, t) == 127 and fixed.to_raw(-(10**30), t) == -128
    assert fixed.to_raw(10**30 + 3, FixedType(4, 4)) == (10**30 + 3 + 8) % 16 - 8


# --------------------------------------------------------------------------------------------------
# 3. documented values (UG1399 and PITFALLS.md rows 10-12) and the API contract


def value(x: float, t: FixedType) -> float:
    return float(fixed.from_raw(fixed.to_raw(np.float64(x), t), t))


@pytest.mark.parametrize(("quant", "pos", "neg"), [("AP_RND", 1.5, -1.0), ("AP_RND_ZERO", 1.0, -1.0),
                                                   ("AP_RND_MIN_INF", 1.0, -1.5)])
def test_documented_quantization(quant: str, pos: float, neg: float) -> None:
    t = FixedType(3, 2, True, quant, "AP_SAT")
    assert value(1.25, t) == pos and value(-1.25, t) == neg
    assert fixed.to_fraction(fixed.to_raw(Fraction(5, 4), t), t) == Fraction(pos)


def test_documented_overflow() -> None:
    sat = FixedType(4, 4, True, "AP_RND", "AP_SAT")
    assert value(19, sat) == 7 and value(-19, sat) == -8
    zero = FixedType(4, 4, True, "AP_RND", "AP_SAT_ZERO")
    assert value(19, zero) == 0 and value(-19, zero) == 0
    assert value(-19, FixedType(4, 4, True, "AP_RND", "AP_SAT_SYM")) == -7
    assert value(9.0, FixedType(8, 4)) == -7
    assert value(9.0, FixedType(8, 4, True, "AP_TRN", "AP_SAT")) == 7.9375
    assert value(-1.99, FixedType(8, 4)) == -2.0
    assert value(7.5 * 7.5, FixedType(8, 4)) == -7.75


def test_header_quirks() -> None:
    """Header behaviour the docs do not describe (hls.fixed docstring), pinned as plain values."""
    tiny = FixedType(12, -1066, True, "AP_RND", "AP_SAT")  # lsb 2**-1078
    assert fixed.to_raw(Fraction(2**-1074), tiny) == 16  # the true value: 16 lsb
    assert fixed.to_raw(np.float64(2**-1074), tiny) == 2047  # read as ~2**-1023: saturates
    assert fixed.to_raw(-12, FixedType(4, 4, False, "AP_TRN", "AP_WRAP", 2)) == 12  # top bits set
    assert fixed.to_raw(-5, FixedType(1, 1, True, "AP_TRN", "AP_SAT_SYM")) == -1  # min kept
    assert fixed.to_raw(Fraction(-1, 1 << 12), FixedType(4, 7, True, "AP_RND_MIN_INF", "AP_SAT")) == 0


def test_api_contract() -> None:
    t = FixedType(8, 4)
    grid = np.arange(-6.0, 6.0, 0.25).reshape(4, -1)
    raw = fixed.to_raw(grid, t)
    assert raw.shape == grid.shape and raw.dtype == np.int64
    assert np.array_equal(fixed.from_raw(raw, t), grid)
    assert fixed.to_raw(np.float64(1.5), t).dtype == np.int64
    assert fixed.to_raw(np.array([1.5], dtype=np.float32), t).tolist() == [24]
    assert type(fixed.to_raw(Fraction(3, 2), t)) is int and type(fixed.to_raw(3, t)) is int
    assert fixed.to_fraction(-24, t) == Fraction(-3, 2)
    wide = FixedType(80, 70)
    assert fixed.to_raw(np.array([1.0, -0.5]), wide).tolist() == [1 << 10, -(1 << 9)]
    assert fixed.from_raw(np.array([1 << 10], dtype=object), wide).tolist() == [1.0]
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError):
            fixed.to_raw(np.array([0.0, bad]), t)
    with pytest.raises(TypeError):
        fixed.to_raw(np.array([1.0]), FixedType(8, 4, False, "AP_TRN", "AP_WRAP_SM"))
