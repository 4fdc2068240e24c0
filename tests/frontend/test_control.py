"""while, break, continue and return anywhere: golden == csim, the IR, the verifier, the C++ and the
schedule report (issue 11, item 4)."""

import re
import subprocess
import textwrap

import numpy as np
import pytest

import hls
from hls.ir import ConstantOp, ForOp, Function, Module, WhileOp, YieldOp, print_module, verify_module
from hls.ir.core import VerifyError
from hls.ir.ops import ReturnOp
from hls.sim.toolchain import ap_include_dir, compiler
from hls.types import BoolType, IntType
from tests.kernels import control_kernels as ck

KERNELS = sorted(n for n in dir(ck) if isinstance(getattr(ck, n), hls.Kernel))
I32 = IntType(32, True)
BOOL = BoolType()


@pytest.mark.parametrize("name", KERNELS)
def test_golden_matches_csim(name):
    assert getattr(ck, name).verify(seed=1)["compared"]


def both(kernel, *args):
    """Python mode and csim on copies of the same inputs: (golden, csim), arrays included."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    golden = kernel(*args)
    sim = kernel.csim(*copies)
    assert golden == sim
    for a, b in zip(args, copies, strict=True):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)
    return golden


def test_search_with_break_finds_the_first_index_or_minus_one():
    a = np.array([5, 3, 9, 3] + [0] * 28, dtype=np.int16)
    assert both(ck.find_first, a, 3) == 1
    assert both(ck.find_first, a, 7) == -1
    assert both(ck.find_return, a, 9) == 2
    assert both(ck.find_return, a, -4) == -1
    assert both(ck.uses_sub, a, 9) == 3 and both(ck.uses_sub, a, 8) == 0


def test_return_from_nested_loops():
    a = np.arange(16, dtype=np.int8).reshape(4, 4)
    assert both(ck.find_2d, a, 9) == 9 and both(ck.find_2d, a, 20) == -1
    a[3, 3] = 2
    assert both(ck.find_2d, a, 2) == 2  # the first match, not the last


def test_an_exit_that_can_never_happen_is_folded_away():
    assert "exit=" not in ck.exit_folds_away.ir and "break" not in ck.exit_folds_away.cpp
    assert loop_trips(ck.exit_folds_away) == [("loop_i", 8, 8)]


def test_while_with_data_dependent_exit():
    assert both(ck.collatz, 27) == 111  # the classic long trajectory
    assert both(ck.collatz, 1) == 0 and both(ck.collatz, 0) == 0
    assert both(ck.gcd, 48, 18) == 6 and both(ck.gcd, 0, 7) == 7 and both(ck.gcd, 9, 0) == 9
    a = np.arange(16, dtype=np.int16) * 2
    assert both(ck.bounded_scan, a, 10) == 5
    assert both(ck.bounded_scan, a, 11) == 16  # the `and` stops before a[16] is read


def test_continue_skips_elements():
    a = np.array([1, -2, 3, 2000, 5] + [0] * 27, dtype=np.int16)
    assert both(ck.sum_skipping, a) == 9


def test_while_with_break_and_continue():
    a = np.array([4, 0, 6, -2000, 100] + [1] * 11, dtype=np.int16)
    assert both(ck.while_break_continue, a) == 10


def test_early_return_inside_if_and_loop():
    assert both(ck.magnitude, -7) == 7 and both(ck.magnitude, 7) == 14
    a = np.array([1, 2, -3, 4] + [5] * 12, dtype=np.int16)
    b = np.full(16, 9, dtype=np.int16)
    both(ck.copy_until_negative, a, b)
    assert b.tolist() == [1, 2] + [0] * 14  # the stores after the return never happen


def test_break_in_inner_loop_only():
    a = np.ones((4, 8), dtype=np.int8)
    a[0, 3] = 0
    a[2, 0] = 0
    out = np.zeros(4, dtype=np.int32)
    both(ck.row_lengths, a, out)
    assert out.tolist() == [3, 8, 0, 8]
    a[1, 5] = -1
    both(ck.unrolled_outer, a, out)
    assert out.tolist() == [8, 6, 8, 8]


def test_side_effects_before_a_break_are_kept_and_after_it_dropped():
    a = np.arange(8, dtype=np.int16) + 10
    b = np.zeros(8, dtype=np.int16)
    both(ck.store_after_break, a, b)
    assert b.tolist() == [1, 0, 0, 0, 0, 12, 11, 10]
    s = np.arange(32, dtype=np.int16)
    assert both(ck.partial_unroll_break, s) == sum(range(7))


def test_ir_of_a_break_and_a_while_loop():
    expected = """
        func @counted_while(%a: int16[8]) -> int32 {
          %i = hls.const 1 : int32
          %s = hls.const 0 : int32
          %v = hls.const 7 : int4
          %v_1 = hls.const 2 : int3
          %i_1, %s_1 = hls.while iter_args(%i_2 = %i, %s_2 = %s) {label="loop_while"} {
            %v_2 = hls.cmp {kind="le"} %i_2, %v : bool_
            hls.yield %v_2
          } do (%i_3, %s_3) {
            %v_3 = hls.load %a, %i_3 : int16
            %v_4 = hls.binary {kind="add"} %s_3, %v_3 : int33
            %s_4 = hls.cast %v_4 : int32
            %v_5 = hls.binary {kind="add"} %i_3, %v_1 : int33
            %i_4 = hls.cast %v_5 : int32
            hls.yield %i_4, %s_4
          }
          hls.return %s_1
        }
    """
    assert ck.counted_while.ir.strip() == textwrap.dedent(expected).strip()
    ir = ck.find_first.ir
    assert '{label="loop_i", exit=true}' in ir
    assert "%break.flag = hls.cmp" in ir and "hls.yield %found_3, %break.flag" in ir


def _while(cond_type=BOOL, exit_flag: bool = False, yield_flag: bool = False) -> Module:
    func = Function("k", [I32], ["n"], None)
    n = func.args[0]
    loop = WhileOp([n], ["n"], None)
    if exit_flag:
        loop.attrs["exit"] = True
    func.body.block.append(loop)
    const = loop.cond.append(ConstantOp(True if isinstance(cond_type, BoolType) else 1, cond_type)).result
    loop.cond.append(YieldOp([const]))
    extra = [loop.body.append(ConstantOp(False, BoolType())).result] if yield_flag else []
    loop.body.append(YieldOp([loop.body.args[0], *extra]))
    func.body.block.append(ReturnOp([]))
    module = Module("k")
    module.add(func)
    return module


def test_verifier_accepts_a_well_formed_while():
    verify_module(_while())
    verify_module(_while(exit_flag=True, yield_flag=True))
    text = print_module(_while())
    assert "%n_1 = hls.while iter_args(%n_2 = %n) {" in text and "} do (%n_3) {" in text


@pytest.mark.parametrize("kwargs,fragment", [
    ({"cond_type": I32}, "condition region must yield one bool"),
    ({"exit_flag": True}, "and the exit flag"),
    ({"yield_flag": True}, "body must end in a yield of every carried value"),
])
def test_verifier_rejects_malformed_loops(kwargs, fragment):
    with pytest.raises(VerifyError, match=fragment):
        verify_module(_while(**kwargs))


def test_verifier_rejects_a_for_exit_flag_that_is_not_bool():
    func = Function("k", [I32], ["n"], None)
    block = func.body.block
    zero, one = (block.append(ConstantOp(v, I32)).result for v in (0, 1))
    loop = ForOp(zero, one, one, [], I32, "i", [])
    loop.attrs["exit"] = True
    loop.body.append(YieldOp([zero]))
    block.append(loop)
    block.append(ReturnOp([]))
    module = Module("k")
    module.add(func)
    with pytest.raises(VerifyError, match="exit flag must be bool"):
        verify_module(module)


def body_of(cpp: str, name: str) -> str:
    return cpp[cpp.index(f" {name}("):]


def test_cpp_shape():
    cpp = body_of(ck.find_return.cpp, "find_return")
    loop = cpp[cpp.index("loop_i: for"):]
    assert loop.splitlines()[1].strip() == "#pragma HLS pipeline II=1"  # still the loop's first line
    assert "if (v) break;" in loop or "if (return_flag" in loop
    assert "break;" in loop and "return " not in loop.split("}\n")[0]
    scan = body_of(ck.bounded_scan.cpp, "bounded_scan")
    assert re.search(r"loop_while: while \(i < 16 && a\[HLS_INDEX\(i, 16, \d+\)\] != key\) \{", scan)
    trips = body_of(ck.collatz.cpp, "collatz")
    assert "#pragma HLS loop_tripcount min=0 max=350" in trips
    partial = body_of(ck.partial_unroll_break.cpp, "partial_unroll_break")
    assert "#pragma HLS unroll factor=4" in partial and "break;" in partial
    unrolled = body_of(ck.unrolled_outer.cpp, "unrolled_outer")
    # the outer loop stays a loop with its pragma (issue 21); the estimate unrolls its own copy
    assert unrolled.count("break;") == 1 and re.search(r"loop_i: for .*\{\n\s+#pragma HLS unroll\n", unrolled)
    assert "loop_i" not in [loop.label for loop in ck.unrolled_outer.report().loops]


def test_generated_cpp_compiles_warning_free(tmp_path):
    files = []
    for name in KERNELS:
        design = getattr(ck, name).compile().design
        folder = tmp_path / name
        folder.mkdir()
        for file, text in design.sources.items():
            (folder / file).write_text(text)
        files.append(str(folder / f"{design.top}.cpp"))
    argv = [*compiler(), "-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-fsyntax-only",
            "-isystem", str(ap_include_dir()), *files]
    result = subprocess.run(argv, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def loop_trips(kernel) -> list[tuple]:
    return [(loop.label, loop.trip_min, loop.trip_max) for loop in kernel.report().loops]


def test_report_trip_counts():
    assert loop_trips(ck.collatz) == [("loop_while", 0, 350)]  # from loop_tripcount
    assert loop_trips(ck.find_first) == [("loop_i", 1, 32)]  # break: the first iteration always runs
    assert loop_trips(ck.counted_while) == [("loop_while", 4, 4)]  # i = 1, 3, 5, 7: proven from the counter
    assert loop_trips(ck.bounded_scan) == [("loop_while", 0, 16)]  # `and` may stop it sooner
    assert loop_trips(ck.while_break_continue) == [("loop_while", 0, 16)]
    assert loop_trips(ck.never_entered) == [("loop_while", 0, 4)]


def test_report_pipelined_loop_with_break():
    report = ck.find_return.report()
    (loop,) = report.loops
    assert loop.pipelined == "yes" and loop.ii == 1
    assert (loop.trip_min, loop.trip_max) == (1, 32)
    assert loop.latency_min < loop.latency_max


def test_report_pipelined_break_keeps_ii_1_with_stores_after_the_exit_decision():
    (loop,) = ck.copy_until_large.report().loops
    assert loop.pipelined == "yes" and loop.ii == 1 and (loop.trip_min, loop.trip_max) == (1, 64)
    assert any("exit decision" in note for note in loop.notes)


def test_report_while_without_tripcount_says_so():
    report = ck.log2_floor.report()
    assert [(lp.trip_min, lp.trip_max) for lp in report.loops] == [(None, None)]
    assert any("loop_while" in note and "no known trip count" in note for note in report.notes)
    assert report.latency_max is None
    assert [(lp.trip_min, lp.trip_max) for lp in ck.gcd.report().loops] == [(1, 65535)]
    assert both(ck.log2_floor, 1 << 20) == 20 and both(ck.log2_floor, 0) == 0


ORIGINAL = """import hls


@hls.kernel
def k(a: hls.int32[8]):
    for i in range(8):
        a[i] = 0
        break
"""


def _edited_kernel(tmp_path, edited: str):
    """A kernel whose file changed after import: Python never compiled the edited text (an import would
    have stopped at its SyntaxError), but the frontend reads it."""
    import importlib.util

    path = tmp_path / "edited.py"
    path.write_text(ORIGINAL)
    spec = importlib.util.spec_from_file_location("edited_kernel_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path.write_text(edited)
    return module.k, str(path)


def test_break_outside_a_loop_is_an_hls_error(tmp_path):
    kernel, path = _edited_kernel(tmp_path, ORIGINAL.replace("        break", "    a[0] = 1\n    break"))
    with pytest.raises(hls.UnsupportedError, match="`break` outside a loop") as info:
        kernel.compile()
    assert (info.value.loc.file, info.value.loc.line, info.value.loc.col) == (path, 9, 4)


def test_source_that_does_not_parse_is_an_hls_error(tmp_path):
    kernel, path = _edited_kernel(tmp_path, ORIGINAL.replace("range(8):", "range(8)"))
    with pytest.raises(hls.HLSError, match="does not parse") as info:
        kernel.compile()
    assert str(info.value).startswith(f"{path}:6:")


def test_numpy_golden_model_leaves_early_exits_to_python_mode():
    """A loop with `break` has no fixed set of iterations to run as whole arrays."""
    plan = ck.store_after_break.vector_plan
    assert not plan.supported and "break" in plan.reason
    assert ck.counted_while.vector_plan.reason == "hls.while is not modelled in numpy"
