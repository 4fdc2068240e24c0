"""split, tile, reorder and fuse through hls.customize: IR changes the C++, the estimate and csim all
see, verified against the original kernel's golden model; illegal uses are errors at the call."""

from __future__ import annotations

import pytest

import hls
from hls.passes.dependence import DependenceError
from hls.passes.loopnest import TransformError
from tests.customize.test_customize import agrees
from tests.kernels import customize_kernels as ck


def test_split_divides_or_adds_a_tail():
    exact = hls.customize(ck.small_mm).split("ROW", 4).build()
    cpp = exact.cpp
    assert "ROW_outer: for (int32_t i_outer = 0; i_outer < 3; i_outer++)" in cpp
    assert "ROW_inner: for (int32_t i_inner = 0; i_inner < 4; i_inner++)" in cpp
    assert "i_outer * 4 + i_inner" in cpp
    agrees(ck.small_mm, exact)
    tail = hls.customize(ck.small_mm).split("k", 4, tail=True).build()
    assert "loop_k_tail: for (int32_t k_1 = 8; k_1 < 10; k_1++)" in tail.cpp  # the carried acc goes on through it
    agrees(ck.small_mm, tail)
    labels = [loop.label for loop in tail.report().loops]
    assert labels == ["ROW_COL"] or "ROW" in labels[0]  # the estimate reads the transformed IR
    with pytest.raises(TransformError, match=r"test_transforms.py:\d+:\d+: split: factor 4 does not divide the "
                                             r"trip count 10 of loop_k; pass tail=True"):
        hls.customize(ck.small_mm).split("k", 4)
    with pytest.raises(TransformError, match="the factor must be an integer from 1 to the trip count 12"):
        hls.customize(ck.small_mm).split("ROW", 13)


def test_split_tail_of_a_nest_gets_fresh_labels():
    built = hls.customize(ck.small_mm).split("ROW", 5, tail=True).build()
    assert "COL_tail: for" in built.cpp and "loop_k_tail: for" in built.cpp  # no duplicate C++ label
    agrees(ck.small_mm, built)


def test_split_names_are_stable_for_later_primitives():
    s = hls.customize(ck.small_mm).split("k", 5).pipeline("k_inner").unroll("loop_k_inner")
    cpp = s.build().cpp
    inner = cpp[cpp.index("loop_k_inner:"):]
    assert inner.index("#pragma HLS pipeline") < inner.index("}")
    assert "#pragma HLS unroll" in inner
    agrees(ck.small_mm, s.build())


def test_tile_splits_and_interchanges():
    built = hls.customize(ck.small_mm).tile(["ROW", "COL"], [4, 2]).build()
    order = [built.cpp.index(label + ":") for label in ("ROW_outer", "COL_outer", "ROW_inner", "COL_inner")]
    assert order == sorted(order)
    agrees(ck.small_mm, built)
    by_path = hls.customize(ck.small_mm).tile(["small_mm/ROW", "small_mm/ROW/COL"], [4, 2]).build()
    assert by_path.cpp == built.cpp  # a path through the loop being split still names the inner one
    with pytest.raises(hls.HLSError, match="give one factor per loop"):
        hls.customize(ck.small_mm).tile(["ROW", "COL"], [4])
    with pytest.raises(TransformError, match="name the loops of one nest, outermost first"):
        hls.customize(ck.small_mm).tile(["COL", "ROW"], [2, 4])


def test_reorder_interchanges_legal_nests():
    built = hls.customize(ck.small_mm).reorder("COL", "ROW").build()
    assert built.cpp.index("COL: for") < built.cpp.index("ROW: for")
    agrees(ck.small_mm, built)
    sweep = hls.customize(ck.column_sweep).reorder("j", "i").build()  # the dependence (1, 0) stays positive
    assert sweep.cpp.index("for (int32_t j") < sweep.cpp.index("for (int32_t i")
    agrees(ck.column_sweep, sweep)


def test_reorder_checks_the_accesses_of_inner_loops():
    built = hls.customize(ck.accumulate_in_place).reorder("j", "i").build()
    agrees(ck.accumulate_in_place, built)
    with pytest.raises(DependenceError, match="would change the result"):
        hls.customize(ck.wavefront_inner).reorder("j", "i")


def test_reorder_refuses_dependences_and_imperfect_nests():
    with pytest.raises(DependenceError, match=r"test_transforms.py:\d+:\d+: reorder\(loop_j, loop_i\) would change "
                                              "the result"):
        hls.customize(ck.wavefront).reorder("j", "i")
    with pytest.raises(TransformError, match=r"the nest is not perfect: the body of COL does more than run loop_k"):
        hls.customize(ck.small_mm).reorder("k", "COL")
    with pytest.raises(TransformError, match="carries a value"):
        hls.customize(ck.row_sums).split("j", 4).reorder("j_inner", "j_outer")
    with pytest.raises(TransformError, match="the nest is not perfect: the body of COL does more than run loop_k"):
        hls.customize(ck.small_mm).reorder("k", "ROW")  # COL between them keeps its place: ROW, COL, k -> k, COL, ROW
    with pytest.raises(TransformError, match="is not directly inside"):
        hls.customize(ck.two_passes).reorder("SHIFT", "SCALE")  # two loops of no one nest


def test_fuse_same_bounds_without_violated_dependence():
    built = hls.customize(ck.two_passes).fuse("SCALE", "SHIFT").build()
    assert "SCALE_SHIFT: for" in built.cpp and "    SHIFT:" not in built.cpp
    agrees(ck.two_passes, built)
    with pytest.raises(DependenceError, match=r"fuse\(SCALE, SHIFT\) would change the result"):
        hls.customize(ck.two_passes_ahead).fuse("SCALE", "SHIFT")
    with pytest.raises(TransformError, match="fused loops need the same bounds"):
        hls.customize(ck.small_mm).split("k", 5).fuse("ROW", "COL")
    with pytest.raises(TransformError, match="must follow SHIFT"):
        hls.customize(ck.two_passes).fuse("SHIFT", "SCALE")


def test_transformations_compose_with_directives_and_explain():
    s = (hls.customize(ck.small_mm).split("k", 5).reorder("COL", "ROW").pipeline("loop_k_outer", ii=1)
         .unroll("loop_k_inner"))
    agrees(ck.small_mm, s.build())
    text = s.explain()
    lines = text.splitlines()
    assert "reorder('COL', 'ROW')" in text and "pipeline('loop_k_outer', ii=1)" in text
    assert any("(as written)" in line for line in lines)
    row = {line.split("|")[2].strip(): line for line in lines if line.count("|") > 8}
    assert "small_mm/COL_ROW new" in row["reorder('COL', 'ROW')"] and "ROW_COL gone" in row["reorder('COL', 'ROW')"]
    assert "small_mm/loop_k_outer new" in row["pipeline('loop_k_outer', ii=1)"]
