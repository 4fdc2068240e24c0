"""hls.rotl / hls.rotr: the operator added by following docs/architecture.md's checklist. Python mode ==
csim on fixed and random inputs, the C++ uses ap_int's own rotates, constants fold, bad input is
refused at the user's line, and the facts of every op kind are complete."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import hls
from hls.backend.cpp.expr import BIN_C
from hls.frontend.tables import BINOPS, CMPOPS, MATH_NAMES, UNOPS
from hls.golden import bits
from hls.ir.kinds import BINARY, COMPARE, MATH, OpKind, kinds
from hls.passes.evaluate import ARITH
from hls.types import IntType
from tests.kernels import rotate_kernels as rk

SOURCE = Path(rk.__file__).read_text().splitlines()


def rotl_reference(x: int, n: int, width: int) -> int:
    """Rotation spelled as a string of bits: the leftmost n bits move to the right end."""
    text = format(x, f"0{width}b")
    return int(text[n:] + text[:n], 2)


def test_python_rotate_matches_the_bit_string_definition():
    for width in (1, 7, 8, 64, 100):
        t = IntType(width, False)
        for x in (0, 1, (1 << width) - 1, 0x5A5A5A5A5A5A5A5A5A5A5A5A5 % (1 << width)):
            for n in range(width):
                assert bits.rotl(x, n, t) == rotl_reference(x, n, width)
                assert bits.rotr(x, n, t) == rotl_reference(x, (width - n) % width, width)


def test_golden_equals_csim_on_narrow_and_wide_values():
    rng = np.random.default_rng(5)
    for _ in range(3):
        a = rng.integers(0, 256, 8, dtype=np.uint8)
        n = rng.integers(0, 256, 8, dtype=np.uint8)
        rk.rotates.verify(a, n, np.zeros(8, np.uint8), np.zeros(8, np.uint64))
    a = np.array([0x81, 1, 0, 0xFF, 0x40, 2, 3, 4], np.uint8)
    n = np.arange(8, dtype=np.uint8)
    out, wide = np.zeros(8, np.uint8), np.zeros(8, np.uint64)
    rk.rotates(a, n, out, wide)
    pairs = [(int(x), int(k)) for x, k in zip(a, n, strict=True)]
    assert out.tolist() == [rotl_reference(x, k, 8) ^ rotl_reference(x, 5, 8) for x, k in pairs]
    w = [x << 90 | k for x, k in pairs]
    t = IntType(100, False)
    r = [bits.rotr(v, k, t) ^ bits.rotl(v, 97, t) for v, (_, k) in zip(w, pairs, strict=True)]
    assert wide.tolist() == [(x >> 36 ^ x) % (1 << 64) for x in r]


def test_cpp_uses_ap_int_rotates_and_constants_fold():
    cpp = rk.rotates.cpp
    assert ".lrotate(" in cpp and ".rrotate(3)" in cpp and "ap_uint<100>(w).lrotate(97)" in cpp
    assert "lrotate" not in rk.rotate_constants.cpp  # folded: 7 + 193 * 256 + 131 * 65536
    assert rk.rotate_constants() == rk.rotate_constants.csim() == 7 + 193 * 256 + 131 * 65536
    assert "HLS_BIT_INDEX(n, 16, " in rk.rotate_by.cpp  # a count not proven in range is checked in csim
    assert rk.rotate_by(0x8001, 1) == rk.rotate_by.csim(0x8001, 1) == 3
    assert rk.rotates.report().resources.lut > 0


def test_count_out_of_range_is_flagged_in_python_mode_and_csim():
    with pytest.raises(hls.SimulationError, match="rotate count 17 outside 0..15") as python:
        rk.rotate_by(1, 17)
    with pytest.raises(hls.SimulationError, match="rotate count out of range for a 16-bit value") as csim:
        rk.rotate_by.csim(1, -1)
    assert (csim.value.loc.file, csim.value.loc.line) == (python.value.loc.file, python.value.loc.line)


@pytest.mark.parametrize("name, message, token", [
    ("count_too_large", "rotate count 8 is outside 0..7 for uint8", "8)"),
    ("signed_value", "hls.rotr() rotates unsigned integers, not int8", "y,"),
    ("missing_count", "hls.rotr(x, n) takes a value and a rotate count", "hls.rotr"),
    ("float_count", "the rotate count must be an integer, not float32", "f)"),
])
def test_bad_rotates_point_at_the_line(name, message, token):
    line = next(i for i, text in enumerate(SOURCE, 1) if re.search(rf"# E {name}\b", text))
    with pytest.raises(hls.HLSTypeError) as info:
        _ = getattr(rk, name).cpp
    text = str(info.value)
    assert message in text
    assert text.startswith(f"{rk.__file__}:{line}:{SOURCE[line - 1].index(token) + 1}: ")


def test_rotate_outside_a_kernel_says_where_it_works():
    with pytest.raises(hls.UnsupportedError, match="inside an @hls.kernel"):
        hls.rotl(3, 1)


def test_every_kind_has_the_facts_its_op_class_needs():
    """The derived tables cover every kind: nothing an operator needs is left out of its enum entry."""
    assert set(BINOPS.values()) | set(CMPOPS.values()) | set(UNOPS.values()) <= set(OpKind)
    assert MATH_NAMES == {str(k) for k in kinds(MATH)}
    for kind in kinds(BINARY):
        assert kind.cost is not None, kind
        assert kind in ARITH or kind.typed or kind.fold is None or not kind.exact_on
        if kind.cpp and kind.prec != "primary" and kind not in kinds(MATH):
            assert BIN_C[kind] == (kind.cpp, kind.prec)
    for kind in kinds(COMPARE):
        assert OpKind(kind.inverse).inverse == kind and kind.mlir_pred and kind.py in CMPOPS


def test_numpy_golden_model_runs_rotates_per_lane(monkeypatch):
    """The whole-array golden model takes rotates (through the kind's fold, per lane) and agrees with the
    statement-by-statement model, errors included."""
    assert rk.rotates.vector_plan.supported
    rng = np.random.default_rng(9)
    a, n = rng.integers(0, 256, 8, dtype=np.uint8), rng.integers(0, 256, 8, dtype=np.uint8)
    outputs = {}
    for mode in ("numpy", "python"):
        monkeypatch.setenv("HLS_GOLDEN", mode)
        out, wide = np.zeros(8, np.uint8), np.zeros(8, np.uint64)
        rk.rotates(a, n, out, wide)
        outputs[mode] = (out.tolist(), wide.tolist())
        with pytest.raises(hls.SimulationError, match="rotate count 16 outside 0..15"):
            rk.rotate_by(1, 16)
    assert outputs["numpy"] == outputs["python"]
