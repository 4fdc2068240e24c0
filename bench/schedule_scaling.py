"""How scheduling time grows with the size of a fully unrolled kernel (a benchmark, not a test).

Builds straight-line IR directly (the frontend is not the thing measured): a kernel that reads a
1024-word local buffer at constant indices, multiplies and accumulates in float and int, and writes
results back, i.e. what unrolling a loop nest produces. Every fifth op is a load or a store, so the
list scheduler also works against the buffer's two ports. Prints ops, seconds and the time per op
relative to the 1k case (1.0 = linear).

    .venv/bin/python bench/schedule_scaling.py [sizes...]
"""

from __future__ import annotations

import sys
import time

from hls.errors import Loc
from hls.ir import AllocOp, BinaryOp, ConstantOp, Function, LoadOp, Module, ReturnOp, StoreOp
from hls.schedule import schedule_module
from hls.types import ArrayType, IntType, float32, int32

WORDS = 1024
LOC = Loc("bench.py", 1)


def build(ops: int) -> Module:
    """A kernel of about `ops` operators: per group of 10, 2 loads, 1 store and 7 arithmetic ops."""
    func = Function(f"bench_{ops}", [], [], None, LOC)
    block = func.body.block
    buf = block.append(AllocOp(ArrayType(float32, (WORDS,)), "buf", LOC)).result
    index_type = IntType(12, True)
    indices = [block.append(ConstantOp(i, index_type, LOC)).result for i in range(WORDS)]
    one = block.append(ConstantOp(1, int32, LOC)).result
    acc = block.append(ConstantOp(0.0, float32, LOC)).result
    count = block.append(ConstantOp(0, int32, LOC)).result
    for group in range(ops // 10):
        a = block.append(LoadOp(buf, [indices[(3 * group) % WORDS]], LOC)).result
        b = block.append(LoadOp(buf, [indices[(3 * group + 1) % WORDS]], LOC)).result
        product = block.append(BinaryOp("mul", a, b, float32, LOC)).result
        acc = block.append(BinaryOp("add", acc, product, float32, LOC)).result
        total = block.append(BinaryOp("add", a, acc, float32, LOC)).result
        count = block.append(BinaryOp("add", count, one, IntType(33, True), LOC)).result
        count = block.append(BinaryOp("and", count, count, IntType(33, True), LOC)).result
        shifted = block.append(BinaryOp("xor", count, count, IntType(33, True), LOC)).result
        count = block.append(BinaryOp("or", shifted, shifted, int32, LOC)).result
        block.append(StoreOp(total, buf, [indices[(3 * group + 2) % WORDS]], LOC))
    block.append(ReturnOp([], LOC))
    module = Module(func.name)
    module.add(func)
    return module


def main(sizes: list[int]) -> None:
    base = None
    print(f"{'ops':>8} {'seconds':>9} {'us/op':>8} {'ratio per op vs 1k':>19} {'latency':>9}")
    for size in sizes:
        module = build(size)
        start = time.perf_counter()
        report = schedule_module(module)
        seconds = time.perf_counter() - start
        per_op = seconds / size
        base = base or per_op
        print(f"{size:>8} {seconds:>9.3f} {per_op * 1e6:>8.2f} {per_op / base:>19.2f} {report.latency_max:>9}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1_000, 10_000, 100_000])
