"""Sums rebuilt as balanced trees on the scheduler's straightened copies (hls.passes.reassociate), and the
DSP48 multiply-accumulate timing the trees meet (docs/oplib.md section 5)."""

from hls.frontend.build import build_module
from hls.ir import BinaryOp, ForOp, verify_module
from hls.passes import run_passes
from hls.passes.dce import EliminateDeadCodePass
from hls.passes.reassociate import ReassociateSumsPass
from hls.passes.straighten import extract, straighten
from tests.kernels import reassociate_kernels as rk


def straightened(kernel, pipelined_loop=False):
    module, _, _ = build_module(kernel)
    run_passes(module, verify_each=True)
    func = module.top_function
    loop = next((op for op in func.walk() if isinstance(op, ForOp)), None) if pipelined_loop else None
    ops = [loop] if loop is not None else [op for op in func.body.block.ops if op.name != "hls.return"]
    region, _ = extract(ops, "region")
    keep = region.top_function.body.block.ops[-2] if loop is not None else None
    straighten(region, module, keep)
    return region, keep


def add_depth(value) -> int:
    """Adds on the longest path from a leaf to `value`, looking through casts."""
    op = getattr(value, "op", None)
    if op is None or not op.operands or op.name not in ("hls.binary", "hls.cast"):
        return 0
    below = max(add_depth(v) for v in op.operands)
    return below + (1 if isinstance(op, BinaryOp) and op.kind == "add" else 0)


def returned(region):
    return region.top_function.body.block.ops[-1].operands[0]


def test_fixed_point_sum_of_eight_products_is_a_tree_of_depth_three():
    region, _ = straightened(rk.dot8)
    verify_module(region)
    assert add_depth(returned(region)) == 3  # the C++ order is a chain of 8 adds


def test_float_sum_keeps_the_users_order():
    region, _ = straightened(rk.dot8_float)
    assert add_depth(returned(region)) >= 7


def test_carried_accumulator_meets_one_adder_at_the_root():
    region, loop = straightened(rk.mac4, pipelined_loop=True)
    verify_module(region)
    carried = loop.carried[0]
    users = list(carried.uses)
    while len(users) == 1 and users[0].name == "hls.cast":
        users = list(users[0].result.uses)
    (root,) = users
    other = next(v for v in root.operands if v is not carried and not (getattr(v, "op", None) is not None
                                                                       and carried in v.op.operands))
    assert isinstance(root, BinaryOp) and root.kind == "add"
    assert add_depth(other) == 2  # the four products in a balanced tree of their own


def test_pass_is_idempotent():
    region, _ = straightened(rk.dot8)
    before = add_depth(returned(region))
    ReassociateSumsPass().apply(region)
    EliminateDeadCodePass().apply(region)
    verify_module(region)
    assert add_depth(returned(region)) == before


# ---- DSP48 multiply-accumulate timing (docs/oplib.md section 5) ---------------------------------------

K7, VU9P = "xc7k160t-fbg676-2", "xcvu9p-flga2104-2-i"


def estimate(kernel, part):
    return kernel.report(clock_ns=4.0, part=part, flow="vivado", pipeline_loops=0).to_dict()


def test_dsp_accumulator_keeps_ii_1():
    """ELEN226 inner_product solution2 on xc7k160t-2 at 4 ns: the MAC's P register is the accumulator,
    II 1 and depth 5 (load, load data + multiply, multiply, post-adder, result) in Vitis's schedule."""
    (loop,) = estimate(rk.mac_loop, K7)["loops"]
    assert (loop["ii"], loop["depth"]) == (1, 5)


def test_two_products_meet_in_a_post_adder_one_state_later_on_7_series():
    """ELEN226 inner_product solution3's schedule: a lone multiply in states 1-4, its result in the other
    product's post-adder in states 5-6 on xc7k160t-2 (depth 6, latency 5); xcvu9p feeds it a state
    earlier."""
    k7, vu9p = estimate(rk.two_products, K7), estimate(rk.two_products, VU9P)
    assert k7["latency"]["max"] == 5
    assert vu9p["latency"]["max"] == 4
    assert k7["resources"]["dsp"] == vu9p["resources"]["dsp"] == 2
