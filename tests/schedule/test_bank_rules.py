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


# ---- M3: throughput-driven cyclic partitioning; R14: divider address logic --------------------------------

TAPS = 128


@hls.kernel
def delay_by_two(x: hls.int32, y: hls.int32[TAPS]):
    """The wes237c delay line unrolled by hand: two reads and two writes of `taps` an iteration."""
    taps = hls.zeros((TAPS,), hls.int32)
    for i in range(TAPS):
        taps[i] = i
    for i in range(TAPS - 1, 1, -2):
        hls.label("Delay")
        taps[i] = taps[i - 1]
        taps[i - 1] = taps[i - 2]
    taps[1] = taps[0]
    taps[0] = x
    for i in range(TAPS):
        y[i] = taps[i]


@hls.kernel
def delay_by_one(x: hls.int32) -> hls.int32:
    """One read and one write an iteration: the two ports suffice, no partition."""
    taps = hls.zeros((TAPS,), hls.int32)
    for i in range(TAPS - 1, 0, -1):
        hls.label("Delay")
        taps[i] = taps[i - 1]
    taps[0] = x
    return taps[0] - taps[TAPS - 1]


FACTOR = 3  # rebound by specialize()


@hls.kernel
def mac_banks(x: hls.int32[TAPS]) -> hls.int32:
    taps = hls.zeros((TAPS,), hls.int32)
    hls.array_partition(taps, "cyclic", factor=FACTOR)
    for i in range(TAPS):
        taps[i] = x[i]
    acc = hls.int32(0)
    for i in range(TAPS - 1, -1, -1):
        hls.label("Mac")
        acc += taps[i] * 5
    return acc


mac_cyclic3 = mac_banks
mac_cyclic4 = mac_banks.specialize(FACTOR=4)

HALF = 20  # a block partition of 2 banks of 10 words: bank = index / 10


@hls.kernel
def halves_rolled(x: hls.int32[HALF], y: hls.int32[HALF]):
    hls.interface(x, "ap_memory")
    hls.array_partition(x, "block", factor=2)  # a RAM port in two banks, as ELEN226's A and B
    for i in range(HALF):
        hls.label("Halves")
        y[i] = x[i] * 3


@hls.kernel
def halves_flat(x: hls.int32[HALF], y: hls.int32[4]):
    hls.interface(x, "ap_memory")
    hls.array_partition(x, "block", factor=2)
    for k in range(4):
        hls.label("Rows")
        for i in range(HALF):
            hls.label("Cols")
            hls.pipeline()
            y[k] += x[i] * k


def _storage(kernel, name):
    from hls.schedule.memory import function_storages
    func = kernel.compile().module.top_function
    (found,) = [s for v, s in function_storages(func, True, flow="vivado", pipeline_loops=64).items()
                if s.name == name]
    return found


def test_golden_of_the_partition_kernels_is_plain_python():
    y = np.zeros(TAPS, dtype=np.int32)
    delay_by_two(-7, y)
    assert list(y) == [-7, 0, *range(1, TAPS - 1)]
    assert delay_by_one(-7) == -7
    x = np.arange(TAPS, dtype=np.int32) - 40
    assert mac_cyclic3(x) == mac_cyclic4(x) == int(x.sum()) * 5
    y = np.zeros(HALF, dtype=np.int32)
    halves_rolled(np.arange(HALF, dtype=np.int32), y)
    assert list(y) == [3 * v for v in range(HALF)]
    y = np.zeros(4, dtype=np.int32)
    halves_flat(np.arange(HALF, dtype=np.int32), y)
    assert list(y) == [k * sum(range(HALF)) for k in range(4)]


def test_an_array_a_pipelined_loop_reads_past_its_ports_is_split_cyclically():
    """M3: `-throughput_driven auto` (UG1399 config_array_partition, the default) partitions a local array a
    pipelined loop accesses more often than its ports allow: taps[i], [i - 1], [i - 2] (two reads, two writes
    on a 2-port RAM) span 3 offsets, so 3 cyclic banks of 43 words, each access its own bank, II 1 (wes237c
    fir128 q5_c: `shift_reg` in 3 banks of 43 words, Tapped_Delayed_Line 64 cycles for 63 iterations). One
    read and one write an iteration fit the two ports: no partition."""
    split = _storage(delay_by_two, "taps")
    assert [(s.banks, s.cyclic, s.block) for s in split.splits] == [(3, True, 43)]
    assert loop(report(delay_by_two, pipeline_loops=64), "Delay").ii == 1
    assert _storage(delay_by_one, "taps").banks == 1
    assert loop(report(delay_by_one, pipeline_loops=64), "Delay").ii == 1


def test_a_moving_index_into_banks_no_power_of_two_apart_goes_through_a_divider():
    """R14: with 3 cyclic banks the bank and the address of taps[i] are i mod 3 and i / 3, one divide core of
    the index's 7 bits: width + 4 stages as Vitis names them (`urem_5ns_5ns_5_9_1` in ELEN226 loop_perfect
    solution4), so 10 cycles more than the same loop over 4 banks (a mask and a shift): the wes237c fir128
    q5_c Multiply_Accumulate is 10 cycles deeper than over one RAM. A block index whose quotient is 0 or 1
    (a counter below twice the block) is a compare and a subtract: no divider (ELEN226 loop_perfect
    solution5, iteration latency 1); in a flattened nest Vitis knows only the inner counter's bits and the
    urem core is back (solution4: `urem_5ns_5ns_5_9_1`, iteration latency 17)."""
    three, four = (loop(report(k, part="xc7z020clg400-1", clock_ns=10.0), "Mac") for k in (mac_cyclic3, mac_cyclic4))
    assert three.ii == four.ii == 1
    assert three.depth - four.depth == 7 + 3
    rolled = report(halves_rolled, pipeline_loops=64, flow="vivado")
    assert not [row for row in rolled.breakdown if row.op == "div"]
    flat = report(halves_flat, pipeline_loops=64, flow="vivado")
    assert "flattened nest of 2 loops" in loop(flat, "Rows_Cols").notes
    (div,) = [row for row in flat.breakdown if row.op == "div"]
    assert div.count == 1


# ---- R14b: the bank index of a loop a partial unroll leaves with a remainder is 64 bits wide ------------------

WALK, WALK_BANKS = 100, 3  # rebound by specialize()


@hls.kernel
def walk(x: hls.int32[WALK + 1], y: hls.int32[WALK + 1]):
    """buf[i] = buf[i + 1] + 1 unrolled by 2 over cyclic banks: each copy's bank moves every iteration."""
    buf = hls.zeros((WALK + 1,), hls.int32)
    hls.array_partition(buf, "cyclic", factor=WALK_BANKS)
    for i in range(WALK + 1):
        buf[i] = x[i]
    for i in range(WALK):
        hls.label("Walk")
        hls.unroll(factor=2)
        buf[i] = buf[i + 1] + 1
    for i in range(WALK + 1):
        y[i] = buf[i]


walk_even = walk  # 100 trips: 50 iterations of two copies, nothing left over
walk_odd = walk.specialize(WALK=99)  # 49 iterations and one copy left over
walk_even4 = walk.specialize(WALK_BANKS=4)
walk_odd4 = walk.specialize(WALK=99, WALK_BANKS=4)


def test_golden_of_the_walk_kernels_is_plain_python():
    for kernel, trip in ((walk_even, 100), (walk_odd, 99), (walk_even4, 100), (walk_odd4, 99)):
        x = (np.arange(trip + 1, dtype=np.int64) * 37 % 101 - 50).astype(np.int32)
        y = np.zeros(trip + 1, dtype=np.int32)
        kernel(x.copy(), y)
        assert list(y) == [*(int(v) + 1 for v in x[1:]), int(x[-1])], kernel.__name__


def test_a_partial_unroll_with_a_remainder_divides_a_64_bit_index():
    """R14b: unrolled by 2, a loop of 99 trips leaves one iteration over, and Vitis divides the bank index at
    the 64 bits of LLVM's getelementptr instead of the counter's 7: Math140Instructor/wes237c Shift_Loop (127
    trips, unroll 2, cyclic 3) builds `urem_64ns_3ns_2_68_1` and reaches depth 70, where its Accum loops (64
    trips, unroll 2, same banks) build `urem_7ns_3ns_2_11_1` / `urem_8ns_3ns_2_12_1` and depth 14 / 15. So the
    odd loop is 64 - 7 stages deeper than the even one (68 - 11 between the two cores), at the same II; with 4
    banks (a mask, no divider) the remainder changes nothing (wes237c fir128 cyclic4 + unroll 2: 134 / 130)."""
    opts = {"part": "xc7z020clg400-1", "clock_ns": 10.0}
    odd, even = (loop(report(k, **opts), "Walk") for k in (walk_odd, walk_even))
    assert odd.ii == even.ii
    assert odd.depth - even.depth == 64 - 7
    odd4, even4 = (loop(report(k, **opts), "Walk") for k in (walk_odd4, walk_even4))
    assert odd4.depth == even4.depth
    assert odd4.depth < even.depth
