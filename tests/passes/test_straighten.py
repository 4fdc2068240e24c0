"""The scheduler's view of the IR: regions straightened by ordinary passes on copies, and the module the
C++ comes from left as it was."""

import pytest

from hls.frontend.build import build_module
from hls.ir import LOOPS, CallOp, ConstantOp, ForOp, LoadOp, RomOp, print_module, verify_module
from hls.passes import run_passes
from hls.passes.inline import InlineCallsPass
from hls.passes.romfold import FoldRomLoadsPass
from hls.passes.straighten import NotUnrollable, extract, straighten
from hls.schedule import schedule_module
from tests.kernels import schedule_kernels as sk
from tests.kernels import straighten_kernels as kk


def compiled(kernel):
    module, _, _ = build_module(kernel)
    return run_passes(module, verify_each=True)


def pipelined_copy(module):
    loop = next(op for op in module.top_function.walk() if isinstance(op, ForOp))
    region, _ = extract([loop], "region")
    return region, region.top_function.body.block.ops[-2]


@pytest.mark.parametrize("kernel", [kk.taps, sk.shift_fir, sk.inner_unrolled, kk.triangle])
def test_schedule_leaves_the_module_and_its_cpp_alone(kernel):
    module = kernel.compile().module
    text, cpp = print_module(module), kernel.cpp
    uses = {id(v): len(v.uses) for f in module.functions.values() for op in f.walk() for v in op.results}
    schedule_module(module)
    assert print_module(module) == text
    assert kernel.cpp == cpp
    assert uses == {id(v): len(v.uses) for f in module.functions.values() for op in f.walk() for v in op.results}


def test_pipelined_iteration_is_straightened_and_verified():
    """Calls inlined, the inner loop unrolled, COEF[j] folded (COEF[1] == 0 folds the product away)."""
    module = compiled(kk.taps)
    region, loop = pipelined_copy(module)
    straighten(region, module, loop)
    body = list(loop.body.ops)
    assert not any(isinstance(op, (*LOOPS, CallOp)) for op in body)
    loads = [op for op in body if isinstance(op, LoadOp)]
    assert not any(isinstance(op.memref.op, RomOp) for op in loads if hasattr(op.memref, "op"))
    assert len(loads) == 3  # a[0], a[2], a[3]: a[1] * 0 is gone


def test_inner_bounds_from_outer_copies_unroll():
    module = compiled(kk.triangle)
    region, loop = pipelined_copy(module)
    straighten(region, module, loop)
    # range(j + 1) for j = 0..3: 1 + 2 + 3 + 4 loads (loads are never merged by CSE; the graph reuses them)
    assert sum(isinstance(op, LoadOp) for op in loop.body.ops) == 10
    assert not any(isinstance(op, LOOPS) for op in loop.body.ops)


@pytest.mark.parametrize(("kernel", "words"), [(kk.variable_inner, "loop by_n has variable bounds"),
                                               (kk.while_inner, "while loop")])
def test_what_cannot_be_unrolled_is_named_and_not_pipelined(kernel, words):
    module = compiled(kernel)
    region, loop = pipelined_copy(module)
    with pytest.raises(NotUnrollable, match=words):
        straighten(region, module, loop)
    notes = [note for lp in schedule_module(kernel.compile().module).loops for note in lp.notes]
    assert any(note.startswith("not pipelined: ") and words in note for note in notes)


def test_inline_and_rom_folding_passes_on_a_module():
    module = compiled(kk.taps)
    InlineCallsPass().apply(module)
    verify_module(module)
    assert not any(isinstance(op, CallOp) for op in module.top_function.walk())
    FoldRomLoadsPass().apply(module)  # indices are not constants before unrolling: the loads stay
    verify_module(module)
    assert any(isinstance(getattr(op.memref, "op", None), RomOp) for op in module.top_function.walk()
               if isinstance(op, LoadOp))
    region, loop = pipelined_copy(module)
    straighten(region, module, loop)
    assert any(isinstance(op, ConstantOp) and op.value == 7 for op in region.top_function.walk())


def test_a_static_inlined_twice_is_one_array():
    """counter() is called twice and inlined twice: its static `n` is one register either way."""
    from tests.kernels import results_kernels as rk

    rows = [row for row in rk.uses_counter.report().breakdown if row.op.startswith("memory n ")]
    assert len(rows) == 1 and rows[0].resources.ff == 4  # uint4


def test_tally_counts_a_storage_whose_id_was_freed_before():
    """Storages of copied regions are short-lived; a new one may reuse a counted one's id."""
    import gc

    from hls.schedule.memory import local_storage
    from hls.schedule.resources import ResourceTally
    from hls.types import ArrayType, IntType

    tally = ResourceTally()
    made = 0
    for _ in range(50):
        storage = local_storage("buf", ArrayType(IntType(8, True), (4,)), {}, None)
        tally.add_memory("m", storage)
        made += 1
        del storage
        gc.collect()
    assert sum(1 for row in tally.rows() if row.op.startswith("memory buf")) == 1  # one row, counted 50 times
    assert next(row for row in tally.rows() if row.op.startswith("memory buf")).resources.lut == 50 * 8 * 1


def test_an_unrolled_region_beyond_the_operator_limit_is_refused_before_it_is_built():
    from hls.errors import HLSError

    with pytest.raises(HLSError, match="more than 300000 operators in one schedule region"):
        kk.huge_inner.report()
