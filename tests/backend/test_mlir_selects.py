"""`x if c else y` in k.mlir: a side that loads is computed inside an `scf.if` (hls/backend/mlir/selects.py),
so the side not taken is never read; xdsl's interpreter faults on an out-of-bounds load, which the
golden model (Python's lazy conditional) and the C++ ternary never make."""

import hls
from tests.backend.test_mlir import assert_interpreter_matches_golden
from tests.mlir_support import parse


@hls.kernel
def joined(A: hls.int16[4], B: hls.int8[4], C: hls.int16[8]):
    for i in range(8):  # A[i] is out of range for i >= 4, B[i - 4] for i < 4
        C[i] = A[i] if i < 4 else B[i - 4]


@hls.kernel
def three_way(A: hls.int8[3], B: hls.int8[2], D: hls.int8[2], s: hls.int8, C: hls.int16[7]):
    for i in range(7):  # nested: each load only in its own branch; the pure side stays a select
        C[i] = A[i] if i < 3 else (B[i - 3] if i < 5 else D[i - 5] + s)


@hls.kernel
def pure_pick(a: hls.int8, b: hls.int8, c: hls.bool_) -> hls.int16:
    return a * 2 if c else b - 1


def loads_in_branches(text: str) -> list[str]:
    """The memref.load lines that sit inside an scf.if region."""
    found, depth = [], 0
    for line in text.splitlines():
        if "scf.if" in line:
            depth += 1
        elif depth and line.strip() == "}":
            depth -= 1
        elif depth and "memref.load" in line:
            found.append(line.strip())
    return found


def test_a_loading_side_is_read_only_where_it_is_taken():
    text = joined.mlir
    parse(text)
    assert text.count("scf.if") == 1 and "arith.select" not in text
    assert len(loads_in_branches(text)) == 2  # A[i] in the then-branch, B[i - 4] in the else-branch
    assert_interpreter_matches_golden(joined, seed=1)  # reading A[4..7] would fault in the interpreter
    assert_interpreter_matches_golden(joined, seed=2)


def test_nested_conditionals_guard_each_load():
    text = three_way.mlir
    parse(text)
    assert text.count("scf.if") == 2
    assert len(loads_in_branches(text)) == 3
    for seed in range(3):
        assert_interpreter_matches_golden(three_way, seed=seed)


def test_pure_sides_stay_a_select():
    text = pure_pick.mlir
    parse(text)
    assert "arith.select" in text and "scf.if" not in text
    assert_interpreter_matches_golden(pure_pick, seed=1)
