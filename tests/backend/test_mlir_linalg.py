"""k.mlir of whole-array statements (issue 22): element-wise nests are `linalg.generic` on memref
operands (indexing maps, parallel iterators, the arith body with its exact casts), verified by xdsl
and run in its interpreter equal to the golden model; other nests keep the scf form, by name."""

import re

import pytest

from tests.backend.test_mlir import assert_interpreter_matches_golden
from tests.conftest import ROOT, load_example
from tests.kernels import array_kernels as K
from tests.mlir_support import parse


def generics(module):
    return [op for op in module.walk() if op.name == "linalg.generic"]


def test_seed_batchnorm_is_one_linalg_generic_over_the_seed_memref():
    kernel = load_example(ROOT / "examples" / "batchnorm_array.py").KERNEL
    text = kernel.mlir
    module = parse(text)  # xdsl parses and verifies it (shapes against the indexing maps included)
    [generic] = generics(module)
    types = [str(v.type) for v in generic.operands]
    assert types == ["memref<1x3x224x224xi9>", "memref<3xi8>", "memref<3xi8>", "memref<1x3x224x224xi9>"]
    assert "affine_map<(d0, d1, d2, d3) -> (d1)>" in text  # weight and bias broadcast: one per channel
    assert text.count('"parallel"') == 4
    body = [op.name for op in generic.body.walk()]
    assert body[-1] == "linalg.yield"
    assert {"arith.trunci", "arith.extsi", "arith.muli", "arith.addi"} <= set(body)
    assert 'hls.loops = ["bn_i", "bn_j", "bn_k", "bn_l"]' in text and "hls.pipeline = {ii = 1" in text
    assert "scf.for" not in text
    # the seed's shape: the result is a memref.alloc the function returns (the C++ keeps its output port)
    assert "-> (memref<1x3x224x224xi9>)" in text and "%result = memref.alloc() : memref<1x3x224x224xi9>" in text
    assert "func.return %result : memref<1x3x224x224xi9>" in text
    assert "ap_int<9> result[1][3][224][224])" in kernel.cpp  # the Vitis port stays an argument


@pytest.mark.parametrize("name", ["ew_arith", "ew_bits", "ew_logic", "ew_funcs", "transposes", "casts"])
def test_elementwise_kernels_are_generics_that_run_like_golden(name):
    kernel = getattr(K, name)
    module = parse(kernel.mlir)
    assert generics(module), kernel.mlir
    assert_interpreter_matches_golden(kernel, seed=3)


def test_reductions_and_offset_views_keep_named_scf_loops():
    text = K.contractions.mlir
    parse(text)
    assert "linalg.generic" not in text
    for label in ("M_i", "M_j", "M_k"):
        assert re.search(rf'hls.label = "{label}"', text), label
    views = K.views.mlir  # B[1:-1] = ...: no operand states the range of the loop as a whole dimension
    parse(views)
    assert 'hls.label = "B_i"' in views
    assert_interpreter_matches_golden(K.views, seed=4)
