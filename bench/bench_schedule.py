"""How scheduling time grows with the size of a fully unrolled kernel (a benchmark, not a test).

Builds straight-line IR directly (the frontend is not the thing measured): a kernel that reads a
1024-word local buffer at constant indices, multiplies and accumulates in float and int, and writes
results back, i.e. what unrolling a loop nest produces. Every fifth op is a load or a store, so the
list scheduler also works against the buffer's two ports. Rows give the time per op at 10k and 100k
ops against the 1k case's time per op (ratio 1.0 = linear growth).

    .venv/bin/python bench/bench_schedule.py [sizes...]     (a table; `bench/run.py` calls run())
"""

from __future__ import annotations

import statistics
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


def per_op_seconds(size: int, reps: int) -> tuple[float, int]:
    """Median seconds per op of schedule_module on a kernel of `size` ops, and its latency."""
    module = build(size)
    times = []
    for _ in range(reps):
        start = time.thread_time()  # CPU time: steady on a shared machine
        report = schedule_module(module)
        times.append(time.thread_time() - start)
    return statistics.median(times) / size, report.latency_max


def run(quick: bool = False) -> list[dict]:
    from benchlib import row

    base, _ = per_op_seconds(1_000, 5)
    rows = []
    for size in (10_000,) if quick else (10_000, 100_000):
        per_op, latency = per_op_seconds(size, 3 if size <= 10_000 else 1)
        rows.append(row(f"schedule {size // 1000}k ops, time per op", per_op * 1e6, base * 1e6, "us/op",
                        f"straight-line unrolled kernel, latency {latency} cycles, thread CPU time; "
                        "baseline = 1k ops' time per op (ratio 1.0 = linear)"))
    return rows


def main(sizes: list[int]) -> None:
    base = None
    print(f"{'ops':>8} {'seconds':>9} {'us/op':>8} {'ratio per op vs 1k':>19} {'latency':>9}")
    for size in sizes:
        per_op, latency = per_op_seconds(size, 1)
        base = base or per_op
        print(f"{size:>8} {per_op * size:>9.3f} {per_op * 1e6:>8.2f} {per_op / base:>19.2f} {latency:>9}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1_000, 10_000, 100_000])
