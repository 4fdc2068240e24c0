"""k.mlir of whole-array statements (issue 22): element-wise nests are `linalg.generic` on memref
operands (indexing maps, parallel iterators, the arith body with its exact casts), verified by xdsl
and run in its interpreter equal to the golden model; other nests keep the scf form, by name."""

import re
import subprocess

import numpy as np
import pytest

import hls
import hls.backend.mlir.emit as emit
from tests.backend.test_mlir import NO_MLIR_OPT, TO_LLVM, assert_interpreter_matches_golden, mlir_opt
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


def test_nests_that_are_not_affine_keep_named_scf_loops():
    both = K.reductions.mlir  # two accumulators per element (min + sum)
    parse(both)
    for label in ("both_i", "both_j", "both_k", "both_l"):
        assert f'hls.label = "{label}"' in both, label
    assert 'hls.loops = ["both' not in both
    views = K.views.mlir  # B[1:-1] = ...: no operand states the range of the loop as a whole dimension
    parse(views)
    assert 'hls.label = "B_i"' in views
    assert_interpreter_matches_golden(K.views, seed=4)
    reshapes = K.reshapes.mlir  # z[:] = x.reshape(-1) * ...: indices by // and %
    parse(reshapes)
    assert "arith.floordivsi" in reshapes or "arith.divui" in reshapes or "arith.remsi" in reshapes
    assert 'hls.label = "z_i"' in reshapes
    assert_interpreter_matches_golden(K.reshapes, seed=4)


# ---- reductions and contractions (hls/backend/mlir/reductions.py) ---------------------------------------


@hls.kernel
def float_reductions(x: hls.float32[3, 5], w: hls.float32[5, 2], s: hls.float32[3], m: hls.float32[3, 2],
                     top: hls.float32[1, 5]):
    s[:] = x.sum(axis=1)
    m[:, :] = x @ w
    top[:, :] = x.max(axis=0, keepdims=True)


@hls.kernel
def fixed_dense(W: hls.ap_fixed[8, 3][4, 6], x: hls.ap_fixed[8, 3][6]) -> hls.ap_fixed[12, 6][4]:
    return hls.matmul(W, x, acc=hls.ap_fixed[16, 8])


@hls.kernel
def augmented_matmul(A: hls.int8[3, 4], B: hls.int8[4, 2], C: hls.int32[3, 2]):
    C[:, :] += A @ B  # the final generic reads C at its own element


@hls.kernel
def axis_tuples(x: hls.int8[2, 3, 4], s: hls.int16[1, 3, 1], t: hls.int16[4]):
    s[:, :, :] = x.sum(axis=(0, 2), keepdims=True)  # reduction loops that are not the last dimensions
    t[:] = np.sum(x, axis=(0, 1))


@hls.kernel
def weighted(x: hls.int8[3, 4], w: hls.int8[4], y: hls.int32[3]):
    y[:] = (x * w[None, :]).sum(axis=1) // 4  # a broadcast product summed, then floor-divided


@hls.kernel
def centered(x: hls.int8[6]) -> hls.int16[6]:
    return x - x.max()  # a scalar reduction hoisted before an element-wise nest


@hls.kernel
def float_min(x: hls.float32[4, 3]) -> hls.float32[3]:
    return x.min(axis=0)


REDUCING = {"reductions": ["rows", "cols", "result", "result"], "contractions": ["M", "Av", "wB", "result"],
            "batched": ["C"],
            "narrow_acc": ["result"], "augmented_matmul": ["C"], "axis_tuples": ["s", "t"],
            "weighted": ["y"], "centered": ["result"], "float_min": ["result"],
            "matmul_array": ["C"], "directed": ["mm"]}


def scf_form(kernel):
    """The kernel's MLIR with every nest as scf loops (what the generics replace)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(emit, "generic_of", lambda op: None)
        patch.setattr(emit, "reduction_of", lambda op: None)
        return emit.emit_mlir(kernel.compile().module)


def iterators(generic):
    return [str(a.data) for a in generic.iterator_types.data]


@pytest.mark.parametrize("name", sorted(REDUCING))
def test_reductions_are_reduction_generics_that_run_like_golden(name):
    kernel = getattr(K, name, None) or globals()[name]
    module = parse(kernel.mlir)  # xdsl verifies the maps against the shapes
    assert "scf.for" not in kernel.mlir or name == "reductions"  # its `both` keeps the loops
    reducing = [g for g in generics(module) if "reduction" in str(g.iterator_types)]
    assert len(reducing) == len(REDUCING[name]), kernel.mlir
    for generic, target in zip(reducing, REDUCING[name], strict=True):  # the generated loops keep their names
        names = [a.data for a in generic.attributes["hls.loops"].data]
        assert all(re.fullmatch(rf"{target}_[a-z]", n) for n in names), names
        reduced = iterators(generic).count("reduction")
        for n in names[-reduced:]:  # the reduction loops are the scf form's carried loops, by name
            assert f'hls.label = "{n}"' in scf_form(kernel), n
    assert_interpreter_matches_golden(kernel, seed=5)
    assert_interpreter_matches_golden(kernel, seed=6)


def test_matmul_accumulates_in_its_target_with_the_loop_body():
    text = K.contractions.mlir  # M[:, :] = A @ B, int8 x int8 summed in int32 (the target's type)
    module = parse(text)
    init, update = generics(module)[:2]
    assert iterators(update) == ["parallel", "parallel", "reduction"]
    assert "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, " \
           "affine_map<(d0, d1, d2) -> (d0, d1)>]" in text
    assert [str(v.type) for v in update.operands] == ["memref<3x5xi8>", "memref<5x4xi8>", "memref<3x4xi32>"]
    assert init.operands[0] is update.operands[2]  # M is zeroed, then accumulated into: no buffer
    body = [op.name for op in update.body.walk()]
    assert body == ["arith.extsi", "arith.extsi", "arith.muli", "arith.extsi", "arith.extsi", "arith.addi",
                    "arith.trunci", "linalg.yield"]  # i8*i8 in i16, acc + product in i33, wrapped to i32
    assert 'hls.loops = ["M_i", "M_j", "M_k"]' in text and text.count("memref.alloca") == 1  # return v @ v's
    directed = K.directed.mlir
    assert 'hls.loops = ["mm_i", "mm_j", "mm_k"], hls.pipeline = {ii = 1 : i64}' in directed


def test_an_exact_sum_goes_through_an_accumulator_buffer():
    text = K.matmul_array.mlir  # int16 @ int16 without acc=: exact in i35, then sign-extended into int64 C
    parse(text)
    assert "%C_acc = memref.alloca() : memref<8x8xi35>" in text and "arith.extsi %C_acc_2 : i35 to i64" in text
    assert 'hls.loops = ["C_i", "C_j", "C_k"]' in text and "scf.for" not in text


def test_a_converted_sum_goes_through_an_accumulator_buffer():
    text = K.reductions.mlir
    assert "%rows_acc = memref.alloca() : memref<4xi32>" in text  # int8 summed in int32, stored as int16
    assert "arith.trunci %rows_acc_2 : i32 to i16" in text


def test_a_reduction_to_a_scalar_accumulates_in_a_one_element_buffer():
    text = K.contractions.mlir  # return v @ v
    assert "%result_acc = memref.alloca() : memref<1xi32>" in text
    assert 'iterator_types = ["reduction"]} ins(%v : memref<5xi8>) outs(%result_acc : memref<1xi32>) ' \
           'attrs = {hls.loops = ["result_i"]}' in text
    assert 'hls.loops = ["result_k", "result_l"]' in K.reductions.mlir  # np.min(x): two reduction loops


@pytest.mark.parametrize("kernel", [float_reductions, fixed_dense], ids=["float32", "ap_fixed"])
def test_float_and_fixed_reductions(kernel):
    module = parse(kernel.mlir)
    assert any("reduction" in str(g.iterator_types) for g in generics(module)), kernel.mlir
    assert_interpreter_matches_golden(kernel, seed=7)


@pytest.mark.skipif(mlir_opt() is None, reason=NO_MLIR_OPT)
@pytest.mark.parametrize("name", [*sorted(REDUCING), "float_reductions", "fixed_dense", "ew_arith", "transposes"])
def test_mlir_opt_verifies_the_generics_and_lowers_them_to_llvm(name):
    """MLIR's own linalg verifier (shapes against maps, block arguments, iterator kinds) and its lowering."""
    kernel = getattr(K, name, None) or globals()[name]
    verified = subprocess.run([mlir_opt()], input=kernel.mlir, capture_output=True, text=True)
    assert verified.returncode == 0, verified.stderr
    lowered = subprocess.run([mlir_opt(), *TO_LLVM], input=kernel.mlir, capture_output=True, text=True)
    assert lowered.returncode == 0, lowered.stderr
