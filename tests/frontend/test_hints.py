"""Every spelling a message suggests exists: the hints of the error corpus and of overflow warnings are
evaluated against `hls`, and values in messages read as decimals, not fractions."""

from __future__ import annotations

import inspect
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest

import hls
from hls.wording import decimal, type_expr
from tests.kernels import bad_axis_kernels, bad_kernels, bad_struct_kernels

HINT = re.compile(r"\bhls\.[A-Za-z_]\w*")
PLACEHOLDER = re.compile(r"\b[A-Z]{1,2}\b|\.\.\.")  # T, N, TI, ... stand for a type or a number in a template


def hints(text: str) -> list[str]:
    """Each `hls.name` with its balanced `[...]` subscripts (nested ones included)."""
    out = []
    for match in HINT.finditer(text):
        end = match.end()
        while end < len(text) and text[end] == "[":
            depth, k = 0, end
            while k < len(text):
                depth += {"[": 1, "]": -1}.get(text[k], 0)
                k += 1
                if depth == 0:
                    break
            if depth:
                break
            end = k
        out.append(text[match.start():end])
    return out


def messages_of_corpus() -> list[str]:
    out = []
    for module in (bad_kernels, bad_struct_kernels, bad_axis_kernels):
        for _, k in inspect.getmembers(module, lambda o: isinstance(o, hls.Kernel)):
            try:
                k.compile()
            except hls.HLSError as exc:
                out.append(exc.message)
    return out


def check_spellings(message: str) -> int:
    """Evaluate each `hls.<name>[...]` of `message`; a template's placeholders only check the name."""
    found = 0
    suggested = re.sub(r"'[^'\n]*'", "", message)  # a quoted name is what the user wrote, not a hint
    for hint in hints(suggested):
        found += 1
        base = hint.split("[", 1)[0]
        assert hasattr(hls, base.removeprefix("hls.")), f"{hint!r} does not exist (in {message!r})"
        if not PLACEHOLDER.search(hint.removeprefix(base)):
            try:
                eval(hint, {"hls": hls})  # noqa: S307 - the library's own message text
            except Exception as exc:  # noqa: BLE001 - any failure is the finding
                raise AssertionError(f"{hint!r} from {message!r} does not evaluate: {exc}") from None
    return found


def test_every_hint_of_the_error_corpus_exists():
    messages = messages_of_corpus()
    assert len(messages) >= 60
    assert sum(check_spellings(m) for m in messages) >= 10  # the corpus does suggest spellings


@hls.kernel
def gain(x: hls.ap_fixed[16, 2][8], y: hls.ap_fixed[16, 2][8]):
    for i in range(8):
        y[i] = x[i] * 3  # overflows for |x| > 2/3


@hls.kernel
def mixes_fixed_and_float(x: hls.ap_fixed[16, 2], f: hls.float32) -> hls.ap_fixed[16, 2]:
    return x * f  # a float variable (a float constant converts to x's type: docs/semantics.md)


def test_overflow_warning_names_a_real_type_and_decimal_values():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # given inputs (verify's random draws are scaled until nothing wraps): 1.25 * 3 passes 2
        gain.verify(np.array([1.25, -1.5, 0.5, 1.75, -0.25, 0.0, 1.0, -1.875]), np.zeros(8))
    texts = [str(w.message) for w in caught if issubclass(w.category, hls.OverflowWarning)]
    assert texts, "the kernel overflows ap_fixed<16, 2> on these inputs"
    for text in texts:
        assert check_spellings(text) == 1 and "hls.ap_fixed[16, 2](...)" in text
        assert not re.search(r"-?\d+/\d+", text), text  # no fractions
        before = float(text.split(": ", 1)[1].split(" ", 1)[0])
        assert abs(before) > 2 and before * 4 == int(before * 4) or len(str(before)) > 4


def test_fixed_float_mix_suggests_a_fixed_point_conversion():
    with pytest.raises(hls.HLSTypeError) as info:
        mixes_fixed_and_float.compile()
    assert "hls.ap_fixed[16, 2](x)" in info.value.message
    assert "TAPS = hls.ap_fixed[16, 2][N](values)" in info.value.message  # the typed ROM spelling
    assert check_spellings(info.value.message) >= 3
    table = eval("hls.ap_fixed[16, 2][4]", {"hls": hls})([0.5, 0.25, -1, 1.5])  # noqa: S307 - it exists
    assert table.data.tolist() == [0.5, 0.25, -1.0, 1.5]


@pytest.mark.parametrize("t", [hls.ap_fixed[16, 2], hls.ap_ufixed[12, 4, "AP_RND", "AP_SAT"],
                               hls.ap_fixed[8, 3, "AP_RND_CONV", "AP_SAT_SYM", 2], hls.int9, hls.uint64,
                               hls.bool_, hls.float32, hls.int16[4, 2], hls.ap_fixed[10, 1][3]])
def test_type_expr_round_trips(t):
    assert eval(type_expr(t), {"hls": hls}) == t  # noqa: S307


def test_decimal():
    assert decimal(Fraction(127, 64)) == "1.984375"
    assert decimal(Fraction(-33815779, 16777216)) == repr(-33815779 / 16777216)
    assert Fraction(float(decimal(Fraction(-33815779, 16777216)))) == Fraction(-33815779, 16777216)  # reads back
    assert decimal(Fraction(1, 3)).startswith("~0.3333") and "1/3" in decimal(Fraction(1, 3))
    assert decimal(12) == "12" and decimal(np.int64(-5)) == "-5"
    wide = Fraction(2**54 + 1, 2)  # more bits than a double holds: the exact decimal
    assert Fraction(decimal(wide)) == wide
