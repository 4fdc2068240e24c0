"""The value-range analysis is sound: every value a kernel computes lies inside its range."""

import itertools

from hls.ir import BinaryOp, ConstantOp, Function, Module
from hls.ir.ranges import value_range
from hls.types import IntType


def build(kind: str, a_range: tuple[int, int], b_range: tuple[int, int]):
    """An op over two selected values, with each operand's range known to the analysis."""
    func = Function("f", [IntType(8, True), IntType(8, True)], ["a", "b"], None)
    a, b = func.args
    op = BinaryOp(kind, a, b, IntType(32, True))
    func.body.block.append(op)
    Module("f").add(func)
    return op.result, {a: a_range, b: b_range}


def test_binary_ranges_contain_every_result():
    ranges = [(-7, -2), (-3, 4), (0, 5), (2, 9)]
    counts = [(0, 3), (1, 4)]
    for kind, fn in (("add", int.__add__), ("sub", int.__sub__), ("mul", int.__mul__), ("min", min),
                     ("max", max)):
        for ra, rb in itertools.product(ranges, ranges):
            value, known = build(kind, ra, rb)
            lo, hi = value_range(value, known, use_types=False)
            for x, y in itertools.product(range(ra[0], ra[1] + 1), range(rb[0], rb[1] + 1)):
                assert lo <= fn(x, y) <= hi, (kind, ra, rb, x, y)
    for ra, rb in itertools.product(ranges, counts):
        value, known = build("shr", ra, rb)
        lo, hi = value_range(value, known, use_types=False)
        for x, y in itertools.product(range(ra[0], ra[1] + 1), range(rb[0], rb[1] + 1)):
            assert lo <= x >> y <= hi, ("shr", ra, rb, x, y)


def test_constants_and_unknowns():
    assert value_range(ConstantOp(5, IntType(4, True)).result) == (5, 5)
    func = Function("g", [IntType(6, False)], ["n"], None)
    assert value_range(func.args[0]) == (0, 63)
    assert value_range(func.args[0], use_types=False) is None
