"""Vitis's loop and memory rules (docs/oplib.md section 9) on kernels of our own, not the calibration cases."""

import numpy as np

from hls.schedule import oplib, schedule_module
from tests.kernels import loop_rule_kernels as lk


def report(kernel, **options):
    return schedule_module(kernel.compile().module, **options)


def test_innermost_loops_are_pipelined_whatever_their_trip_count():
    """L1: an 11-trip loop and a loop of variable trip count are pipelined; pipeline_loops=0 turns it off."""
    for kernel in (lk.short_loop, lk.variable_loop):
        (loop,) = report(kernel).loops
        assert loop.pipelined == "auto" and loop.ii == 1, (kernel.__name__, loop.limiter)
        (off,) = report(kernel, pipeline_loops=0).loops
        assert off.pipelined == "no" and off.ii is None
    (loop,) = report(lk.variable_loop).loops
    assert (loop.trip_min, loop.trip_max) == (1, 100) and loop.latency_max == 99 + loop.depth - 1


def test_a_fully_unrolled_inner_loop_leaves_its_parent_innermost():
    (loop,) = report(lk.unrolled_inner).loops
    assert loop.pipelined == "auto" and loop.ii == 1 and loop.trip_max == 128


def test_a_nest_with_bounds_invariant_in_it_flattens_a_triangle_does_not():
    """L2: `for i in range(n): for j in range(n)` flattens (trip n*n from the tripcounts); `range(i)` does not."""
    (flat,) = report(lk.square_nest).loops
    assert flat.label == "loop_i_loop_j" and flat.pipelined == "auto" and flat.trip_max == 32 * 32
    loops = report(lk.triangle).loops
    assert [lp.label for lp in loops] == ["loop_i", "loop_j"]
    assert loops[0].pipelined == "no" and loops[1].pipelined == "auto"


def test_a_counter_updated_by_a_constant_is_affine():
    """L3: `j += 1` from 256 indexes the upper half of block-partitioned arrays: no dependence between
    y[j] and y[i] and one bank each, II 1; golden and the model's view agree on the values."""
    (loop,) = report(lk.counter_index).loops
    assert loop.ii == 1, loop.limiter
    x = np.arange(512, dtype=np.int32)
    y = np.zeros(512, dtype=np.int32)
    lk.counter_index(x, y)
    assert list(y[:256]) == list(x[:256] - x[256:]) and list(y[256:]) == list(x[:256] + x[256:])


def test_rom_rows_named_by_constants_are_separate_roms():
    """M1: four reads of four rows in one iteration: four ROMs of two ports each, II 1 (one ROM would be 2)."""
    r = report(lk.row_reads)
    (loop,) = r.loops
    assert loop.ii == 1, loop.limiter


def test_a_product_kept_at_32_bits_binds_three_dsps():
    """R1: int32 = a * b of two 32-bit words: 3 DSP tiles (the fourth partial product is past bit 32)."""
    assert report(lk.narrow_product).resources.dsp == 3


def test_multiplies_on_both_sides_of_an_if_share_one_unit():
    """Only one branch of an if-converted if runs in an iteration: its multiplies bind one DSP unit,
    whose operands are multiplexed (wes237c fir11: 2 DSP48s for the two branches' products)."""
    r = report(lk.branch_products)
    (loop,) = r.loops
    assert loop.ii == 1
    assert r.resources.dsp == report(lk.one_product).resources.dsp


def test_small_banks_of_a_partitioned_array_are_lutram():
    """R4: 256 floats in 16 cyclic banks: 16 words x 32 bits a bank, each a LUTRAM (no BRAM)."""
    r = report(lk.banked_buffer)
    assert r.resources.bram18k == 0 and r.resources.lut > 16 * 32


def _ops(r, name):
    return sum(row.count or 0 for row in r.breakdown if row.op == name)


def test_an_fadd_and_an_fsub_of_different_states_share_one_faddfsub():
    """R5: a sequential loop's add then subtract run in different states: one faddfsub core (2 DSP48),
    not an fadd and an fsub (4)."""
    r = report(lk.add_then_sub, part="xc7z020clg400-1", clock_ns=10.0)
    assert r.resources.dsp == 2 and _ops(r, "faddfsub") == 1


def test_a_sequential_fsm_feeds_core_instances_from_registers():
    """S1: load -> fmul -> fadd -> store in a sequential loop: a state for the load, one register state
    before each core (loaded value, product), the cores' latencies, a state for the store."""
    options = {"part": "xc7z020clg400-1", "clock_ns": 10.0}
    (loop,) = report(lk.scale_and_add, **options).loops
    fmul, fadd = (oplib.latency(core, **options) for core in ("fmul", "fadd"))
    assert loop.latency_max // loop.trip_max == 1 + 1 + fmul + 1 + fadd + 1


def test_a_product_truncated_to_a_byte_is_a_lut_multiplier():
    """R1: uint8(a * b) needs the low 8 bits of a and b only: an 8 x 8 fabric multiplier, no DSP48."""
    assert report(lk.low_byte_product).resources.dsp == 0


def test_float_identities_fold_and_others_do_not():
    """R6: x * 1.0, x - 0.0, x / 1.0 are exact identities LLVM folds: no core; x * 0.5 keeps its fmul.
    A table entry read at a constant index before the loop is that constant inside it (C1)."""
    assert report(lk.float_identities).resources.dsp == 0
    assert report(lk.times_table_one).resources.dsp == 0
    assert report(lk.times_table_half).resources.dsp == oplib.CORE_AREA["fmul"][0]


def test_a_value_carried_through_an_if_reaches_its_core_from_a_register():
    """S1: `acc += x` carries the fadd's own output register (II = fadd latency); `acc = acc +/- x` under
    an if carries the select behind the cores, registered once more before the next faddfsub (aubaez
    CORDIC: II 6 with a 4-cycle faddfsub)."""
    options = {"part": "xc7z020clg400-1", "clock_ns": 10.0}
    fadd = oplib.latency("fadd", **options)
    (plain,) = report(lk.plain_sum, **options).loops
    (signed,) = report(lk.signed_sum, **options).loops
    assert plain.ii == fadd and signed.ii == fadd + 2, (plain.ii, signed.ii)


def test_a_lutram_bank_has_one_read_port_a_bram_two():
    """R7: buf[i] + buf[31 - i] from 32 words (1 Kbit, LUTRAM, RAM_AUTO_1R1W) takes II 2; from 1024 words
    (BRAM, both ports) II 1 (rhsuanwang mmult ijk: 32 reads of one LUTRAM bank an iteration, II 32)."""
    assert [lp.ii for lp in report(lk.two_reads_small).loops] == [1, 2]
    assert [lp.ii for lp in report(lk.two_reads_large).loops] == [1, 1]


def test_a_pipeline_gives_each_integer_multiply_its_own_dsp():
    """R8: four 16-bit products at II 4 bind four DSP48s, not one shared over the four slots (ELEN226
    loop_perfect solution6 at II 5: 4 DSP; rhsuanwang mmult ijk at II 32: 96 DSP for 32 products)."""
    r = report(lk.four_products_ii4)
    (loop,) = r.loops
    assert loop.ii == 4 and r.resources.dsp == 4


def test_adding_a_constant_above_the_counters_bits_is_wiring():
    """R9: with i < 128, i + 128, i + 256, i + 384 set bits i never has (LLVM `or disjoint`): no adder;
    i + 1, i + 2, i + 3 carry into i's bits and stay adders (Stepaka lab5's Expression tables)."""
    def adders(kernel):
        return sum(row.count or 0 for row in report(kernel).breakdown if row.op == "add" and row.count)
    assert adders(lk.shifted_sums) - adders(lk.quarter_sums) == 3
