"""hls.golden.bits against the real ap_int header: every slice and slice assignment of ap_int<W> and
ap_uint<W> for W = 1..70, every single bit (read and write), reverse and countLeadingZeros, and
concatenations where every width 1..70 is the first and the second operand once (a three-way one for
every fifth width): each concatenation instantiates the header's concat templates, the costly part
of the build, so pairs are not enumerated.

One C++ program (two translation units compiled in parallel) runs the header's own `range()`,
`operator[]`, `reverse()`, `countLeadingZeros()` and `(a, b)` on the same bit patterns the Python
side evaluates with hls.golden.bits; each printed result is compared with the Python value.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hls.golden import bits
from hls.types import FixedType, IntType

WIDTHS = range(1, 71)
SEED = 20261130

PRELUDE = r"""#include <ap_fixed.h>
#include <cstdio>
#include <cstdint>
#include <type_traits>

template <int W> static ap_uint<W> load(const uint64_t* w) {
    ap_uint<W> x = 0;
    for (int j = 0; j * 64 < W; ++j) x.range(j * 64 + 63 < W - 1 ? j * 64 + 63 : W - 1, j * 64) = w[j];
    return x;
}
template <int W> static void put(const ap_uint<W>& x) {
    for (int j = 0; j * 64 < W; ++j)
        printf("%llx ", (unsigned long long)x.range(j * 64 + 63 < W - 1 ? j * 64 + 63 : W - 1, j * 64).to_uint64());
    printf("\n");
}
template <int W, bool S> static void check(const uint64_t* v, const uint64_t* other) {
    typedef typename std::conditional<S, ap_int<W>, ap_uint<W> >::type T;
    T x = load<W>(v);
    ap_uint<W> o = load<W>(other);
    for (int lo = 0; lo < W; ++lo)
        for (int hi = lo + 1; hi <= W; ++hi) {
            ap_uint<W> r = x.range(hi - 1, lo);
            put<W>(r);
            T y = x;
            y.range(hi - 1, lo) = o;
            put<W>(ap_uint<W>(y));
        }
    for (int i = 0; i < W; ++i) {
        T y = x;
        y[i] = !x[i];
        printf("%d ", bool(x[i]) ? 1 : 0);
        put<W>(ap_uint<W>(y));
    }
    ap_uint<W> r = ap_uint<W>(x);
    r.reverse();
    put<W>(r);
    printf("%d\n", ap_uint<W>(x).countLeadingZeros());
    ap_fixed<W, 3> f;
    f.range(W - 1, 0) = ap_uint<W>(x);
    for (int lo = 0; lo < W; ++lo) put<W>(ap_uint<W>(f.range(W - 1, lo)));
}
template <int W, int W2> static void cat(const uint64_t* v, const uint64_t* other) {
    ap_int<W> x = load<W>(v);
    ap_uint<W2> y = load<W2>(other);
    ap_uint<W + W2> c = (ap_uint<W>(x), ap_uint<W2>(y));
    put<W + W2>(c);
}
template <int W> static void cat3(const uint64_t* v, const uint64_t* other) {
    ap_uint<W + 6> c = (ap_uint<W>(load<W>(v)), ap_uint<1>(other[0] & 1), ap_uint<5>(load<5>(other)));
    put<W + 6>(c);
}
"""


def header_dir() -> Path:
    location = importlib.metadata.distribution("hls4ml").locate_file("hls4ml/templates/vivado/ap_types")
    return Path(str(location))


def patterns(width: int, rng: random.Random) -> list[int]:
    """A random pattern, one with the sign bit set and alternating bits below it, and all ones."""
    mask = (1 << width) - 1
    return [rng.getrandbits(width), (1 << (width - 1)) | (0x5555555555555555555 & (mask >> 1)), mask]


def words(value: int) -> str:
    return "{" + ", ".join(f"0x{value >> (64 * j) & (2**64 - 1):x}ULL" for j in range(3)) + "}"


def build_cases(rng: random.Random) -> tuple[list[list[str]], list[tuple]]:
    """C++ calls (split in two units) and, in the same order, what each prints in Python terms."""
    calls: list[list[str]] = [[], []]
    expected: list[tuple] = []
    for width in WIDTHS:
        unit = calls[width % 2]
        for signed in (True, False):
            for value in patterns(width, rng):
                other = rng.getrandbits(width)
                unit.append(f"{{ const uint64_t v[] = {words(value)}, o[] = {words(other)}; "
                            f"check<{width}, {'true' if signed else 'false'}>(v, o); }}")
                expected.append(("check", width, signed, value, other))
        second = width * 37 % 70 + 1  # 37 is prime to 70: every width is a second operand once
        value, other = rng.getrandbits(width), rng.getrandbits(second)
        unit.append(f"{{ const uint64_t v[] = {words(value)}, o[] = {words(other)}; cat<{width}, {second}>(v, o); }}")
        expected.append(("cat", width, second, value, other))
        if width % 5 == 0:
            value, other = rng.getrandbits(width), rng.getrandbits(6)
            unit.append(f"{{ const uint64_t v[] = {words(value)}, o[] = {words(other)}; cat3<{width}>(v, o); }}")
            expected.append(("cat3", width, value, other))
    return calls, expected


def python_lines(case: tuple) -> list[tuple]:
    """The lines the C++ prints for one case, computed by hls.golden.bits: ("hex", value) for bit patterns,
    ("dec", n) for a count, ("bit", b, pattern) for a bit read and the pattern with it flipped."""
    if case[0] == "cat":
        _, width, second, value, other = case
        t = IntType(width, True)
        return [("hex", bits.concat_values((t, IntType(second, False)), bits.from_bits(value, t), other))]
    if case[0] == "cat3":
        _, width, value, other = case
        types = (IntType(width, False), IntType(1, False), IntType(5, False))
        return [("hex", bits.concat_values(types, value, other & 1, other & 31))]
    _, width, signed, value, other = case
    t = IntType(width, signed)
    x = bits.from_bits(value, t)
    out: list = []
    for lo in range(width):
        for hi in range(lo + 1, width + 1):
            out.append(("hex", bits.get_slice(x, lo, hi, t)))
            out.append(("hex", bits.raw_bits(bits.set_slice(x, lo, hi, other, t), t)))
    for i in range(width):
        bit = bits.get_bit(x, i, t)
        out.append(("bit", int(bit), bits.raw_bits(bits.set_bit(x, i, not bit, t), t)))
    out.append(("hex", bits.reverse(x, t)))
    out.append(("dec", bits.leading_zeros(x, t)))
    f = FixedType(width, 3, True)
    fx = bits.from_bits(value, f)
    out += [("hex", bits.get_slice(fx, lo, width, f)) for lo in range(width)]
    return out


@pytest.fixture(scope="module")
def header_output(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    if shutil.which("g++") is None:
        pytest.skip("g++ not available")
    calls, _ = build_cases(random.Random(SEED))
    exe = compiled(calls, tmp_path_factory.mktemp("bits_exhaustive"))
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.splitlines()


def compiled(calls: list[list[str]], workdir: Path) -> Path:
    """The program, built once per source text (cached: the header's concat templates are slow to build)."""
    from hls.sim.cache import cache_root

    digest = hashlib.sha256(repr((PRELUDE, calls, str(header_dir()))).encode()).hexdigest()[:16]
    cached = cache_root() / f"test-bits-exhaustive-{digest}"
    if cached.exists():
        return cached
    sources = []
    for index, unit in enumerate(calls):
        path = workdir / f"unit{index}.cpp"
        path.write_text(PRELUDE + f"void run{index}() {{\n" + "\n".join(unit) + "\n}\n")
        sources.append(path)
    main = workdir / "main.cpp"
    main.write_text("void run0();\nvoid run1();\nint main() { run0(); run1(); return 0; }\n")
    flags = ["g++", "-std=c++14", "-O0", f"-I{header_dir()}"]

    def compile_one(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*flags, "-c", str(path), "-o", str(path.with_suffix(".o"))], capture_output=True,
                              text=True)

    with ThreadPoolExecutor(max_workers=3) as pool:
        for result in pool.map(compile_one, [*sources, main]):
            assert result.returncode == 0, result.stderr[-4000:]
    exe = workdir / "bits_check"
    link = subprocess.run([*flags, *(str(p.with_suffix(".o")) for p in [*sources, main]), "-o", str(exe)],
                          capture_output=True, text=True)
    assert link.returncode == 0, link.stderr[-4000:]
    shutil.copy(exe, cached.with_suffix(".tmp"))
    os.replace(cached.with_suffix(".tmp"), cached)
    return cached


def hex_words(text: str) -> int:
    return sum(int(p, 16) << (64 * j) for j, p in enumerate(text.split()))


def test_slices_bits_and_concatenation_match_header(header_output: list[str]) -> None:
    _, expected = build_cases(random.Random(SEED))
    order = [case for unit_index in (0, 1) for case in expected
             if (case[1] % 2) == unit_index]  # the program runs unit 0's calls, then unit 1's
    lines = iter(header_output)
    compared, mismatches = 0, []
    for case in order:
        for want in python_lines(case):
            line = next(lines)
            if want[0] == "bit":
                bit_text, rest = line.split(" ", 1)
                got: tuple = ("bit", int(bit_text), hex_words(rest))
            else:
                got = (want[0], int(line) if want[0] == "dec" else hex_words(line))
            compared += 1
            if got != want and len(mismatches) < 10:
                mismatches.append(f"{case[:3]}: python {want!r} header {got!r}")
    assert next(lines, None) is None, "the header printed more results than expected"
    assert not mismatches, "\n".join(mismatches)
    assert compared > 500_000  # every (lo, hi) of every width and signedness was compared
