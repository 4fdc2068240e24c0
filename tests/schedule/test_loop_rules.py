"""Vitis's loop and memory rules (docs/oplib.md section 9) on kernels of our own, not the calibration cases."""

import numpy as np

from hls.schedule import schedule_module
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
