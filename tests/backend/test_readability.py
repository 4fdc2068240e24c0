"""C++ that keeps the shape of the Python (issue 21, item 1): loops under hls.unroll() stay loops, locals
keep their names, typed ROMs, the readability goals on every example, and five hand-written Vitis
versions the generated C++ is compared with (the diff is printed)."""

from __future__ import annotations

import difflib
import importlib.util
import re
import sys

import numpy as np
import pytest

import hls
from hls.ir import ForOp
from tests.conftest import ROOT
from tests.kernels import readability_kernels as rk

FIXTURES = ROOT / "tests" / "fixtures" / "vitis"


def bench_module(name: str):
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(f"readability_under_test_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


readability = bench_module("readability")

# What keeps an example from a goal today, and why; the test fails when one of these stops being true,
# so the lists only shrink (both empty since struct locals keep their names and packets are one call).
# A whole-array statement (issue 22) is one Python statement for a whole loop nest: its C++ is the nest
# (a loop header per dimension, one statement per element operation), so its ratio is not the scalar
# goal's; each nest's lines are checked in tests/frontend/test_array_exprs.py.
WHOLE_ARRAY = "one whole-array statement is a named loop nest in the C++ by design (issue 22)"
RATIO_EXCEPTIONS: dict[str, str] = {"batchnorm_array": WHOLE_ARRAY, "dense_relu": WHOLE_ARRAY,
                                    "softmax_array": WHOLE_ARRAY, "stencil3": WHOLE_ARRAY}
RENAMED_EXCEPTIONS: dict[str, list[str]] = {}


@pytest.fixture(scope="module")
def measured():
    bench = bench_module("bench_readability")
    return {r.kernel: r for r in bench.measurements()}


def test_readability_goals_on_every_example(measured):
    print("\n" + bench_module("bench_readability").text_table(list(measured.values())))
    assert len(measured) >= 20
    for name, r in measured.items():
        assert r.longest_line <= 120, (name, r.longest_line)
        assert (r.statements_ratio <= 1.5) != (name in RATIO_EXCEPTIONS), (name, r.statements_ratio)
        assert r.renamed == RENAMED_EXCEPTIONS.get(name, []), (name, r.renamed)
    assert sum(r.casts for r in measured.values()) / sum(r.cpp_statements for r in measured.values()) < 0.3


def generated_function(kernel, name: str) -> list[str]:
    """The lines of function `name` in the kernel's C++, signature to closing brace."""
    lines = kernel.cpp.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^\S.*\b{name}\(", line))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return lines[start:end + 1]


def normalized(lines: list[str]) -> list[str]:
    """One entry per statement, pragma or brace, without indentation, comments or blank lines: the
    comparison is of code, not of its layout (a statement wrapped over two lines is one entry)."""
    out: list[str] = []
    code = ""
    for line in (line.strip() for line in lines):
        if line.startswith("#"):
            out += split_statements(code) + [line]
            code = ""
        elif line and not line.startswith("//"):
            code += " " + line
    return [re.sub(r"\s+", " ", part).strip() for part in out + split_statements(code) if part.strip()]


def split_statements(code: str) -> list[str]:
    """`code` cut after each `;`, `{` and `}` outside parentheses (a for header stays whole)."""
    parts, depth, start = [], 0, 0
    for k, char in enumerate(code):
        depth += (char == "(") - (char == ")")
        if depth == 0 and char in ";{}":
            parts.append(code[start:k + 1])
            start = k + 1
    return parts + [code[start:]]


CASES = [("dot", "dot"), ("fir", "fir"), ("histogram", "histogram"), ("gemm", "gemm"), ("conv2d", "conv2d"),
         ("fir_fixed", "fir4")]


@pytest.mark.parametrize("fixture, function", CASES, ids=[c[0] for c in CASES])
def test_generated_cpp_next_to_the_hand_written_version(examples, fixture, function):
    kernel = rk.fir4 if fixture == "fir_fixed" else examples[fixture].KERNEL
    written = (FIXTURES / f"{fixture}.cpp").read_text().splitlines()
    declared = int(re.search(r"// differences: (\d+)", "\n".join(written)).group(1))
    mine, theirs = normalized(generated_function(kernel, function)), normalized(written)
    diff = list(difflib.unified_diff(theirs, mine, "hand-written", "generated", lineterm="", n=1))
    print(f"\n{fixture}: {'no difference' if not diff else chr(10).join(diff)}")
    changed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
    assert changed == declared, f"{fixture}: {changed} hand-written lines differ, the fixture says {declared}"


def test_a_loop_under_unroll_stays_a_loop_with_its_pragma():
    cpp = rk.fir4.cpp
    assert re.search(r"loop_t: for \(int32_t t = 0; t < 4; t\+\+\) \{\n\s+#pragma HLS unroll\n", cpp)
    assert "loop_k: for (int32_t k = 3; k > 0; k--)" in cpp
    assert "#pragma HLS unroll factor=2" in rk.typed_rom.cpp
    assert "acc += shift[t] * TAPS[t];" in cpp and "acc_1" not in cpp
    # the estimate reads the straightened module, which the C++ never sees
    compiled = rk.fir4.compile()
    labels = [op.attrs.get("label") for op in compiled.module.functions["fir4"].walk() if isinstance(op, ForOp)]
    assert "loop_t" not in labels and compiled.cpp_module is not None
    assert [loop.label for loop in rk.fir4.report().loops] == ["loop_n"]
    assert rk.fir4.verify(seed=1)["compared"] == ["x", "y"]


def test_locals_keep_their_names():
    cpp = rk.swap.cpp
    for name in ("lo", "hi", "sw"):
        assert re.search(rf"\buint\d+_t {name} = ", cpp), cpp
    assert rk.swap.verify()["compared"] == ["return"]
    assert rk.swap(0x12345678) == 0x56781234 == rk.swap.csim(0x12345678)


@pytest.mark.parametrize("kernel", [rk.keeps_old_value, rk.branch_reassign, rk.loop_reads_before_write],
                         ids=lambda k: k.__name__)
def test_reassignment_reuses_the_variable_only_where_that_is_right(kernel):
    cpp = kernel.cpp
    assert not re.search(r"\b(v|prev|total)_\d\b", cpp), cpp
    for seed in range(3):
        assert kernel.verify(seed=seed)["compared"]  # bit-exact with the golden model
    if kernel is rk.keeps_old_value:  # t is read after x changes: two variables
        assert re.search(r"int32_t t = ", cpp) and re.search(r"int32_t x = ", cpp)
    if kernel is rk.branch_reassign:
        assert cpp.count("int32_t v = ") == 1 and "} else {" in cpp


def test_a_typed_rom_is_declared_in_its_type():
    cpp = rk.typed_rom.cpp
    assert "static const ap_fixed<16, 2> TYPED[4] = {" in cpp and "static const uint8_t LUT[4] = {" in cpp
    assert "0.0999755859375" in cpp  # the value ap_fixed<16, 2> holds for 0.1, computed once in Python
    assert rk.TYPED.data.tolist() == [float(hls.ap_fixed[16, 2](v)) for v in (0.1, -0.2, 0.3, 0.7)]
    assert rk.typed_rom.verify(seed=2)["compared"] == ["x", "y"]
    x = np.array([hls.ap_fixed[16, 2](v / 8) for v in range(8)], dtype=np.float64)
    y, y_csim = np.zeros(8), np.zeros(8)
    rk.typed_rom(x, y)
    rk.typed_rom.csim(x, y_csim)
    assert y.tolist() == y_csim.tolist() and y.any()


def test_a_float_table_read_as_one_fixed_type_is_declared_in_it():
    cpp = rk.fir4.cpp
    assert "static const ap_fixed<16, 2> TAPS[4] = {" in cpp and "double" not in cpp.split("void fir4")[1]


@pytest.mark.parametrize("values, message", [(np.zeros(3), "needs values of shape (4,)"),
                                             ([[1, 2], [3, 4]], "needs values of shape (4,)")])
def test_a_typed_rom_of_the_wrong_shape_is_an_error_at_its_line(values, message):
    with pytest.raises(hls.HLSTypeError, match=re.escape(message)) as info:
        hls.ap_fixed[16, 2][4](values)
    assert info.value.loc is not None and info.value.loc.file == __file__


def test_no_generated_line_is_longer_than_120(examples):
    for name, module in examples.items():
        k = getattr(module, "KERNEL", None)
        if k is not None:
            assert max(len(line) for line in k.cpp.splitlines()) <= 120, name
            assert max(len(line) for line in k.header.splitlines()) <= 120, name


def test_a_struct_local_keeps_its_name_and_reads_its_fields():
    """`cur = p[i]` on a struct is `Sample cur = p[i];` and `cur.re`, a FIFO read `Packet p = s.read();`
    (no unnamed `v, v_1`); a keyword-built struct is one call, a struct local written whole is itself."""
    cpp = rk.struct_reads.cpp
    assert "Sample cur = p[i];" in cpp and "cur.re * cur.im" in cpp, cpp
    assert "out.write(make_Sample(cur.im, cur.re, " in cpp
    assert not re.search(r"\bv(_\d+)?\b", cpp.split("struct_reads(")[-1]), cpp
    for seed in range(3):
        assert rk.struct_reads.verify(seed=seed)["compared"] == ["p", "q", "out", "return"]
    r = readability.measure(rk.struct_reads)
    assert r.renamed == [] and r.statements_ratio <= 1.5, r

    cpp = rk.packet_copy.cpp
    assert "hls::axis<int16_t, 4, 0, 0> pkt = inp.read();" in cpp and "out.write(pkt);" in cpp, cpp
    assert "make_" not in cpp.split("out.write(pkt);")[0]  # forwarded whole, not rebuilt
    assert rk.packet_copy.verify(seed=1)["compared"] == ["inp", "out"]
