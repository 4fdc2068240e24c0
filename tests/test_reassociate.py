"""Sums rebuilt as balanced trees on the scheduler's straightened copies (hls.passes.reassociate)."""

from hls.frontend.build import build_module
from hls.ir import BinaryOp, ForOp, verify_module
from hls.passes import run_passes
from hls.passes.dce import EliminateDeadCodePass
from hls.passes.reassociate import ReassociateSumsPass
from hls.passes.straighten import extract, straighten
from tests import reassociate_kernels as rk


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
