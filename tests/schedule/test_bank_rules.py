"""L4 and R13 of docs/oplib.md section 9 on kernels of our own (not the calibration cases): false dependences
on moving banks in a partially unrolled loop, and registers shared by a sequential module's stretches."""

import inspect

import numpy as np

import hls
from hls.schedule import schedule_module

N = 64


def report(kernel, **options):
    return schedule_module(kernel.compile().module, **options)


def loop(r, label):
    (found,) = [lp for lp in r.loops if lp.label == label]
    return found


def line_of(kernel, text):
    """The file line of the first source line of `kernel` containing `text`."""
    lines, first = inspect.getsourcelines(kernel.__wrapped__ if hasattr(kernel, "__wrapped__") else kernel.func)
    return first + next(k for k, line in enumerate(lines) if text in line)


SIZE, BANKS, UNROLL = N, 4, 2  # compile-time names of `shift`, rebound by specialize()


@hls.kernel
def shift(x: hls.int32[SIZE], y: hls.int32[SIZE]):
    buf = hls.zeros((SIZE,), hls.int32)
    hls.array_partition(buf, "cyclic", factor=BANKS)
    for i in range(SIZE):
        buf[i] = x[i]
    for i in range(SIZE - 1, 0, -1):
        hls.label("Shift")
        hls.unroll(factor=UNROLL)
        buf[i] = buf[i - 1]  # the moving-bank store
    for i in range(SIZE):
        y[i] = buf[i]


shift_cyclic4 = shift
shift_cyclic2 = shift.specialize(BANKS=2)
shift_cyclic4_rolled = shift.specialize(UNROLL=1)
shift_complete = shift.specialize(SIZE=8, BANKS=8)  # one bank per element: registers


@hls.kernel
def pairs_cyclic8(x: hls.int32[N], y: hls.int32[N]):
    buf = hls.zeros((N,), hls.int32)
    hls.array_partition(buf, "cyclic", factor=8)
    for i in range(N):
        buf[i] = x[i]
    for i in range(N // 2):
        hls.label("Pairs")
        hls.unroll(factor=2)
        buf[2 * i + 1] = buf[2 * i] + 1
    for i in range(N):
        y[i] = buf[i]


@hls.kernel
def lanes_cyclic8(x: hls.int32[N], y: hls.int32[N]):
    buf = hls.zeros((N,), hls.int32)
    hls.array_partition(buf, "cyclic", factor=8)
    for i in range(N):
        buf[i] = x[i]
    for j in range(4):
        hls.label("Lanes")
        hls.pipeline(off=True)
        for i in range(14):
            hls.label("Lane")
            hls.unroll(factor=2)
            buf[4 * i + j] = buf[4 * i + j + 4] + 1
    for i in range(N):
        y[i] = buf[i]


def _lanes(x):
    buf = [int(v) for v in x]
    for j in range(4):
        for i in range(14):
            buf[4 * i + j] = buf[4 * i + j + 4] + 1
    return buf


def _shifted(x):
    return np.concatenate([x[:1], x[:-1]])


def test_golden_of_the_bank_kernels_is_plain_python():
    """The kernels compute what they say (golden against numpy), whatever the schedule makes of them."""
    x = (np.arange(N, dtype=np.int64) * 7919 % 1000 - 500).astype(np.int32)
    for kernel in (shift_cyclic4, shift_cyclic2, shift_cyclic4_rolled):
        y = np.zeros(N, dtype=np.int32)
        kernel(x.copy(), y)
        assert list(y) == list(_shifted(x)), kernel.__name__
    y = np.zeros(8, dtype=np.int32)
    shift_complete(x[:8].copy(), y)
    assert list(y) == list(_shifted(x[:8]))
    y = np.zeros(N, dtype=np.int32)
    pairs_cyclic8(x.copy(), y)
    want = x.astype(np.int64).copy()
    want[1::2] = want[0::2] + 1
    assert list(y) == list(want)
    y = np.zeros(N, dtype=np.int32)
    lanes_cyclic8(x.copy(), y)
    assert list(y) == _lanes(x)


def test_a_moving_bank_under_a_partial_unroll_is_a_false_dependence():
    """L4: buf[i] = buf[i - 1] unrolled by 2 over 4 cyclic banks: each copy's bank alternates between two
    banks from one iteration to the next, so the store of one iteration and the load of the next cannot be
    told apart: II 2 (wes237c FIR-128 cyclic4 + unroll 2, Tapped_Delayed_Line: 64 iterations in 130 cycles).
    The report says so and names the store's line."""
    r = report(shift_cyclic4, pipeline_loops=64)
    shift = loop(r, "Shift")
    assert shift.ii == 2, shift.limiter
    assert shift.trip_max == (N - 1) // 2
    assert shift.latency_max == (shift.trip_max - 1) * 2 + shift.depth - 1  # the model's pipeline latency at II 2
    assert shift.limiter.startswith("false dependence between iterations on `buf`"), shift.limiter
    assert "UG1399" in shift.limiter and "II 2, 1 without it" in shift.limiter
    assert shift.limiter_line == line_of(shift_cyclic4, "the moving-bank store")
    assert shift.limiter.endswith(f"test_bank_rules.py:{shift.limiter_line}")


def test_banks_fixed_per_copy_rolled_loops_registers_and_disjoint_banks_keep_ii_1():
    """L4's conditions, each missing once: with 2 cyclic banks each unrolled copy keeps its bank (II 1, wes237c
    cyclic2 + unroll 2: 140 cycles); without the partial unroll the bank moves but Vitis keeps II 1 (wes237c
    cyclic2 without unroll: 267); a complete partition is registers, no RAM (complete + unroll 2: 139); and
    with 8 cyclic banks the store's banks {1, 5}, {3, 7} never meet the loads' {0, 4}, {2, 6}; an outer
    counter picks the banks of buf[4 * i + j] (j and j + 4 of 8) at run time, but they stay put through the
    inner loop."""
    for kernel, label in ((shift_cyclic2, "Shift"), (shift_cyclic4_rolled, "Shift"), (shift_complete, "Shift"),
                          (pairs_cyclic8, "Pairs"), (lanes_cyclic8, "Lane")):
        lp = loop(report(kernel, pipeline_loops=64), label)
        assert lp.ii == 1, (kernel.__name__, lp.limiter)
        assert lp.limiter is None


def _kernel_with(copies: int):
    """A kernel whose body is `copies` sequential loops of the same straight body (different constants)."""
    @hls.kernel
    def one(x: hls.float32[N], y: hls.float32[N]):
        for i in range(N):
            hls.pipeline(off=True)
            y[i] = x[i] * 3.0 + x[N - 1 - i] * 5.0

    @hls.kernel
    def four(x: hls.float32[N], y: hls.float32[N]):
        for i in range(N):
            hls.pipeline(off=True)
            y[i] = x[i] * 3.0 + x[N - 1 - i] * 5.0
        for i in range(N):
            hls.pipeline(off=True)
            y[i] = y[i] * 7.0 + x[N - 1 - i] * 11.0
        for i in range(N):
            hls.pipeline(off=True)
            y[i] = y[i] * 13.0 + x[N - 1 - i] * 17.0
        for i in range(N):
            hls.pipeline(off=True)
            y[i] = y[i] * 19.0 + x[N - 1 - i] * 23.0

    return one if copies == 1 else four


def _registers(r):
    return sum(row.resources.ff for row in r.breakdown if row.op.startswith("registers"))


def test_sequential_stretches_of_one_module_share_their_registers():
    """R13: four sequential loops of the same shape run in different FSM states of one module; their values
    never live at once, so the module's registers are those of one stretch, not four times as many (the
    level2fast DFT-256 unroll16 Register table: `reg_*` registers shared by 16 copies of the inner loop). The
    report's note says so and names the line where the largest stretch starts (the first loop's body)."""
    one, four = (report(_kernel_with(n), pipeline_loops=0) for n in (1, 4))
    assert _registers(one) > 0
    assert _registers(four) == _registers(one)
    (row,) = [row for row in four.breakdown if row.op == "registers (shared by its sequential stretches)"]
    assert row.resources.ff == _registers(one)
    (note,) = [n for n in four.notes if n.startswith("registers of `four`")]
    line = line_of(_kernel_with(4), "y[i] = x[i] * 3.0")
    assert "sequential stretches run in different states and share one set" in note
    assert f"from test_bank_rules.py:{line} ({_registers(one)} FF," in note, note
    assert not [n for n in one.notes if n.startswith("registers of")]  # one stretch with registers: nothing shared
    x = np.linspace(-1.0, 1.0, N).astype(np.float32)
    y = np.zeros(N, dtype=np.float32)
    _kernel_with(4)(x, y)
    want = x * np.float32(3.0) + x[::-1] * np.float32(5.0)
    for a, b in ((7.0, 11.0), (13.0, 17.0), (19.0, 23.0)):
        want = want * np.float32(a) + x[::-1] * np.float32(b)
    assert np.array_equal(y, want.astype(np.float32))
