"""Passes: golden IR per pass (kernel in, printed IR out, verified after the pass), the semantics of
folding, csim still matching the golden model through the whole pipeline, and the verifier rejecting
broken IR."""

from fractions import Fraction

import numpy as np
import pytest

from hls.frontend.build import build_module
from hls.ir import (
    BinaryOp,
    CastOp,
    ConstantOp,
    ForOp,
    Function,
    IfOp,
    MathOp,
    Module,
    ReturnOp,
    StoreOp,
    VerifyError,
    YieldOp,
    print_module,
    verify_module,
)
from hls.passes import (
    EliminateCommonSubexpressionsPass,
    EliminateDeadCodePass,
    FoldConstantsPass,
    UnrollLoopsPass,
    default_pipeline,
    run_passes,
)
from hls.passes.clone import clone_op
from hls.passes.evaluate import NotFoldable, fold
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType
from tests.kernels import kernels_passes as kp

int32 = IntType(32, True)


def after(kernel, *passes) -> str:
    module, _, _ = build_module(kernel)
    verify_module(module)
    run_passes(module, list(passes), verify_each=True)
    return print_module(module)


def ir(text: str) -> str:
    """Expected IR written indented in the test: strip the common margin."""
    lines = [line for line in text.splitlines() if line.strip()]
    margin = min(len(line) - len(line.lstrip()) for line in lines)
    return "\n".join(line[margin:] for line in lines) + "\n"


# ---- golden IR: folding ------------------------------------------------------------------------


def test_fold_integer_arithmetic():
    assert after(kp.fold_arith, FoldConstantsPass()) == ir("""
        func @fold_arith(%a: int32) -> int32 {
          %v = hls.const 3 : int3
          %v_1 = hls.const 4 : int4
          %v_2 = hls.const 12 : int7
          %v_3 = hls.const 1 : int2
          %k = hls.const 13 : int8
          %v_4 = hls.binary {kind="add"} %a, %k : int33
          %v_5 = hls.cast %v_4 : int32
          hls.return %v_5
        }
    """)


def test_fold_floats_in_their_own_precision():
    # float32(0.1) * float32(3.0) rounds to float32 0.3 (0.30000001192...), not the float64 product
    assert after(kp.fold_float, FoldConstantsPass()) == ir("""
        func @fold_float(%a: float32) -> float32 {
          %v = hls.const 0.1 : float64
          %v_1 = hls.const 0.10000000149011612 : float32
          %v_2 = hls.const 3.0 : float64
          %v_3 = hls.const 3.0 : float32
          %v_4 = hls.const 0.30000001192092896 : float32
          %v_5 = hls.binary {kind="add"} %a, %v_4 : float32
          hls.return %v_5
        }
    """)


def test_fold_constant_branches_and_identities():
    # `if a * 0 == 0` (constant once a * 0 folds) inlines the then-branch; a*1+0 is a (through
    # widening casts that collapse); `y if a * 0 != 0 else y * 0` is the constant 0
    # (y holds every value assigned to it: the join of int16, int19 and int17 is int19, issue 19)
    assert after(kp.fold_branch, FoldConstantsPass()) == ir("""
        func @fold_branch(%a: int16) -> int16 {
          %v = hls.const 0 : int1
          %v_1 = hls.const 0 : int17
          %v_2 = hls.const 0 : int1
          %v_3 = hls.const true : bool_
          %v_4 = hls.const 1 : int2
          %v_5 = hls.cast %a : int18
          %v_6 = hls.const 0 : int1
          %y = hls.cast %a : int19
          %v_7 = hls.const 0 : int1
          %v_8 = hls.const 0 : int17
          %v_9 = hls.const 0 : int1
          %v_10 = hls.const false : bool_
          %v_11 = hls.const 0 : int1
          %v_12 = hls.const 0 : int20
          %v_13 = hls.cast %a : int20
          %v_14 = hls.const 0 : int16
          hls.return %v_14
        }
    """)


def test_fold_keeps_division_by_zero_and_wraps_explicit_casts():
    assert after(kp.fold_keeps, FoldConstantsPass()) == ir("""
        func @fold_keeps(%a: int8) -> int64 {
          %v = hls.const 200 : int9
          %wrapped = hls.const -56 : int8
          %v_1 = hls.const 1 : int2
          %one = hls.const 1 : int32
          %v_2 = hls.const 7 : int4
          %v_3 = hls.const 0 : int33
          %v_4 = hls.binary {kind="floordiv"} %v_2, %v_3 : int5
          %v_5 = hls.binary {kind="add"} %v_4, %wrapped : int9
          %v_6 = hls.const 3 : int3
          %v_7 = hls.binary {kind="shl"} %a, %v_6 : int11
          %v_8 = hls.binary {kind="add"} %v_5, %v_7 : int12
          %v_9 = hls.const -2.7 : float64
          %v_10 = hls.const -2 : int32
          %v_11 = hls.binary {kind="add"} %v_8, %v_10 : int33
          %v_12 = hls.cast %v_11 : int64
          hls.return %v_12
        }
    """)


def test_whole_pipeline_folds_a_dead_branch_to_a_constant():
    assert after(kp.fold_branch, *default_pipeline()) == ir("""
        func @fold_branch(%a: int16) -> int16 {
          %v = hls.const 0 : int16
          hls.return %v
        }
    """)


# ---- golden IR: CSE and DCE --------------------------------------------------------------------


def test_cse_merges_index_arithmetic_but_not_loads():
    # constants hoisted and merged; the three `i + 1` become one, visible in the inner loop too
    assert after(kp.cse_index, EliminateCommonSubexpressionsPass()) == ir("""
        func @cse_index(%a: int32[16], %b: int32[16]) {
          %v = hls.const 15 : int5
          %v_1 = hls.const 0 : int1
          %v_2 = hls.const 1 : int2
          %v_3 = hls.const 2 : int3
          hls.for %i in range(%v_1, %v, %v_2) {label="loop_i"} {
            %v_4 = hls.binary {kind="add"} %i, %v_2 : int6
            %v_5 = hls.load %a, %v_4 : int32
            %v_6 = hls.load %a, %v_4 : int32
            %v_7 = hls.binary {kind="mul"} %v_6, %v_3 : int35
            %v_8 = hls.binary {kind="add"} %v_5, %v_7 : int36
            %v_9 = hls.cast %v_8 : int32
            hls.store %v_9, %b, %i
            hls.for %j in range(%v_1, %v_3, %v_2) {label="loop_j"} {
              %v_10 = hls.load %b, %v_4 : int32
              %v_11 = hls.binary {kind="add"} %v_10, %j : int33
              %v_12 = hls.cast %v_11 : int32
              hls.store %v_12, %b, %v_4
              hls.yield
            }
            hls.yield
          }
          hls.return
        }
    """)


def test_dce_removes_dead_values_carried_values_branches_and_loops():
    # `unused`, `tmp` and the empty `if` go; `count` only feeds itself; `for j in range(0)` never runs
    assert after(kp.dce_dead, EliminateDeadCodePass()) == ir("""
        func @dce_dead(%a: int16[8]) -> int32 {
          %v = hls.const 0 : int1
          %acc = hls.cast {explicit=true} %v : int32
          %v_1 = hls.const 8 : int5
          %v_2 = hls.const 0 : int1
          %v_3 = hls.const 1 : int2
          %acc_1 = hls.for %i in range(%v_2, %v_1, %v_3) iter_args(%acc_2 = %acc) {label="loop_i"} {
            %v_4 = hls.load %a, %i : int16
            %v_5 = hls.binary {kind="add"} %acc_2, %v_4 : int33
            %acc_3 = hls.cast %v_5 : int32
            hls.yield %acc_3
          }
          hls.return %acc_1
        }
    """)


# ---- golden IR: unrolling ----------------------------------------------------------------------


def test_full_unroll_threads_the_carried_value():
    assert after(kp.unroll_full, UnrollLoopsPass()) == ir("""
        func @unroll_full(%a: int16[4]) -> int32 {
          %v = hls.const 0 : int1
          %acc = hls.cast {explicit=true} %v : int32
          %v_1 = hls.const 4 : int4
          %v_2 = hls.const 0 : int1
          %v_3 = hls.const 1 : int2
          %i = hls.const 0 : int4
          %v_4 = hls.load %a, %i : int16
          %v_5 = hls.binary {kind="add"} %acc, %v_4 : int33
          %acc_1 = hls.cast %v_5 : int32
          %i_1 = hls.const 1 : int4
          %v_6 = hls.load %a, %i_1 : int16
          %v_7 = hls.binary {kind="add"} %acc_1, %v_6 : int33
          %acc_2 = hls.cast %v_7 : int32
          %i_2 = hls.const 2 : int4
          %v_8 = hls.load %a, %i_2 : int16
          %v_9 = hls.binary {kind="add"} %acc_2, %v_8 : int33
          %acc_3 = hls.cast %v_9 : int32
          %i_3 = hls.const 3 : int4
          %v_10 = hls.load %a, %i_3 : int16
          %v_11 = hls.binary {kind="add"} %acc_3, %v_10 : int33
          %acc_4 = hls.cast %v_11 : int32
          hls.return %acc_4
        }
    """)


def test_partial_unroll_with_an_epilogue():
    # 5 iterations by 2: a loop over 0, 2 whose body reads i and i + 1, then iteration 4 after it
    assert after(kp.unroll_small, UnrollLoopsPass()) == ir("""
        func @unroll_small(%a: int8[5]) -> int16 {
          %v = hls.const 0 : int1
          %acc = hls.cast {explicit=true} %v : int16
          %v_1 = hls.const 5 : int4
          %v_2 = hls.const 0 : int1
          %v_3 = hls.const 1 : int2
          %v_4 = hls.const 4 : int4
          %v_5 = hls.const 2 : int3
          %acc_1 = hls.for %i in range(%v_2, %v_4, %v_5) iter_args(%acc_2 = %acc) {label="loop_i", unrolled=2, unroll_leftover=1} {
            %v_6 = hls.load %a, %i : int8
            %v_7 = hls.binary {kind="add"} %acc_2, %v_6 : int17
            %acc_3 = hls.cast %v_7 : int16
            %v_8 = hls.const 1 : int2
            %v_9 = hls.binary {kind="add"} %i, %v_8 : int5
            %i_1 = hls.cast %v_9 : int4
            %v_10 = hls.load %a, %i_1 : int8
            %v_11 = hls.binary {kind="add"} %acc_3, %v_10 : int17
            %acc_4 = hls.cast %v_11 : int16
            hls.yield %acc_4
          }
          %i_2 = hls.const 4 : int4
          %v_12 = hls.load %a, %i_2 : int8
          %v_13 = hls.binary {kind="add"} %acc_1, %v_12 : int17
          %acc_5 = hls.cast %v_13 : int16
          hls.return %acc_5
        }
    """)  # noqa: E501 - one IR line with its attributes


def test_unroll_clones_inner_loops_with_fresh_labels():
    text = after(kp.unroll_nested, UnrollLoopsPass())
    assert [line.strip() for line in text.splitlines() if "hls.for" in line] == [
        '%s_1 = hls.for %j in range(%v_5, %v_4, %v_6) iter_args(%s_2 = %s) {label="loop_j_u0"} {',
        '%s_5 = hls.for %j_1 in range(%v_11, %v_10, %v_12) iter_args(%s_6 = %s_4) {label="loop_j_u1"} {',
        '%s_9 = hls.for %j_2 in range(%v_17, %v_16, %v_18) iter_args(%s_10 = %s_8) {label="loop_j_u2"} {',
    ]
    assert "%v_7 = hls.load %a, %i, %j : int16" in text and "%v_19 = hls.load %a, %i_2, %j_2 : int16" in text


def test_unroll_leaves_variable_bounds_to_vitis():
    module, _, _ = build_module(kp.unroll_var)
    before = print_module(module)
    run_passes(module, [UnrollLoopsPass()], verify_each=True)
    assert print_module(module) == before
    assert "#pragma HLS unroll factor=2" in kp.unroll_var.cpp


def test_unroll_of_a_triangle_unrolls_inner_bounds_computed_from_the_outer_iv():
    text = after(kp.unroll_triangle, *default_pipeline())
    assert "hls.for" not in text and text.count("hls.store") == 10


# ---- folding semantics -------------------------------------------------------------------------


def _op(kind: str, a, b, ta, tb, result):
    lhs, rhs = ConstantOp(a, ta), ConstantOp(b, tb)
    return BinaryOp(kind, lhs.result, rhs.result, result), [a, b]


@pytest.mark.parametrize("kind, a, b, expected", [
    ("floordiv", -7, 2, -4), ("mod", -7, 2, 1), ("mod", 7, -3, -2), ("shr", -100, 2, -25),
    ("min", 3, -5, -5), ("xor", -1, 5, -6),
])
def test_integer_folds_follow_python(kind, a, b, expected):
    op, args = _op(kind, a, b, IntType(8, True), IntType(8, True), IntType(16, True))
    assert fold(op, args) == expected


def test_variable_shift_wraps_to_its_type_and_others_must_fit():
    op, args = _op("shl", 100, 3, IntType(8, True), IntType(4, True), IntType(8, True))
    assert fold(op, args) == 32  # the golden model's shl(): int8(800)
    op, args = _op("add", 100, 100, IntType(8, True), IntType(8, True), IntType(8, True))
    with pytest.raises(VerifyError, match="does not fit int8"):
        fold(op, args)


@pytest.mark.parametrize("kind, a, b", [("floordiv", 1, 0), ("mod", 1, 0), ("shl", 1, -1), ("shr", 1, -2)])
def test_no_fold_where_python_raises(kind, a, b):
    op, args = _op(kind, a, b, IntType(8, True), IntType(8, True), IntType(16, True))
    with pytest.raises(NotFoldable):
        fold(op, args)


def test_float_folds_round_once_and_skip_unspellable_results():
    f32 = FloatType(32)
    op, args = _op("add", 16777216.0, 1.0, f32, f32, f32)
    assert fold(op, args) == 16777216.0  # float32 has no 16777217
    for a, b, kind in ((1.0, 0.0, "div"), (3e38, 3e38, "add"), (-1.0, 0.0, "mul")):  # inf, inf, -0.0
        op, args = _op(kind, a, b, f32, f32, f32)
        with pytest.raises(NotFoldable):
            fold(op, args)


def test_only_correctly_rounded_math_folds():
    f32 = FloatType(32)
    two = ConstantOp(2.0, f32)
    assert fold(MathOp("sqrt", [two.result], f32), [2.0]) == float(np.sqrt(np.float32(2.0)))
    for func in ("exp", "sin", "log"):  # libm results differ between platforms
        with pytest.raises(NotFoldable):
            fold(MathOp(func, [two.result], f32), [2.0])


def test_casts_fold_with_assignment_semantics():
    src = ConstantOp(-2.75, FloatType(64))
    assert fold(CastOp(src.result, IntType(8, True)), [-2.75]) == -2  # toward zero
    big = ConstantOp(300, IntType(10, True))
    assert fold(CastOp(big.result, IntType(8, True)), [300]) == 44
    fixed = FixedType(8, 4)
    assert fold(CastOp(src.result, fixed), [-2.75]) == Fraction(-11, 4)
    assert fold(CastOp(big.result, BoolType()), [300]) is True


# ---- clone utility and DCE details -------------------------------------------------------------


def test_clone_op_deep_copies_nested_regions():
    module, _, _ = build_module(kp.unroll_down)
    func = module.top_function
    loop = next(op for op in func.body.block.ops if isinstance(op, ForOp))
    copy = clone_op(loop, {})
    inner = [op for op in copy.walk() if op is not copy]
    originals = set(map(id, (op for op in loop.walk() if op is not loop)))
    assert inner and not originals & set(map(id, inner))
    nested_if = next(op for op in inner if isinstance(op, IfOp))
    assert nested_if.operands[0].op.parent is copy.body  # reads the copy's compare, not the original's
    assert all(v.owner_block is not loop.body for op in inner for v in op.operands)


def test_pipeline_is_idempotent():
    module, _, _ = build_module(kp.const_if)
    run_passes(module, verify_each=True)
    once = print_module(module)
    run_passes(module, verify_each=True)
    assert print_module(module) == once


# ---- csim through the whole pipeline -----------------------------------------------------------


@pytest.mark.parametrize("kernel", [kp.unroll_full, kp.unroll_partial, kp.unroll_nested, kp.unroll_triangle,
                                    kp.unroll_down, kp.const_if, kp.fir4, kp.fold_branch, kp.dce_dead],
                         ids=lambda k: k.__name__)
def test_csim_matches_golden_after_the_passes(kernel):
    kernel.verify(seed=1)


def test_partial_unroll_results_are_exact():
    a = np.arange(10, dtype=np.int16) * 7 - 20
    b = np.zeros(10, dtype=np.int32)
    assert kp.unroll_partial.csim(a, b) == int(a.sum())
    assert b.tolist() == (a + np.arange(10)).tolist()


# ---- the verifier rejects broken IR ------------------------------------------------------------


def _loop_module(carried: bool) -> tuple[Module, Function, ForOp]:
    module = Module("f")
    func = Function("f", [ArrayType(int32, (4,))], ["a"], None)
    block = func.body.block
    consts = [block.append(ConstantOp(v, IntType(4, True))).result for v in (0, 4, 1)]
    init = [block.append(ConstantOp(0, int32)).result] if carried else []
    loop = ForOp(*consts, init, IntType(4, True), "i", ["s"] if carried else [])
    block.append(loop)
    module.add(func)
    return module, func, loop


def test_verifier_rejects_a_use_outside_the_defining_region():
    module, func, loop = _loop_module(carried=False)
    inner = loop.body.append(CastOp(loop.iv, int32))
    loop.body.append(YieldOp([]))
    func.body.block.append(StoreOp(inner.result, func.args[0], [loop.lb]))
    func.body.block.append(ReturnOp([]))
    with pytest.raises(VerifyError, match="outside its scope"):
        verify_module(module)


def test_verifier_rejects_a_yield_of_the_wrong_arity():
    module, func, loop = _loop_module(carried=True)
    loop.body.append(YieldOp([]))
    func.body.block.append(ReturnOp([]))
    with pytest.raises(VerifyError, match="yield of every carried value"):
        verify_module(module)


def test_verifier_rejects_a_store_of_the_wrong_type():
    module, func, loop = _loop_module(carried=False)
    loop.body.append(StoreOp(loop.iv, func.args[0], [loop.iv]))
    loop.body.append(YieldOp([]))
    func.body.block.append(ReturnOp([]))
    with pytest.raises(VerifyError, match="stored int4 into int32"):
        verify_module(module)
