"""Sums of integer and ap_fixed terms rebuilt as balanced trees, as Vitis balances expressions.

UG1399 "Optimizing Logic Expressions" (config_compile / EXPRESSION_BALANCE): Vitis balances chains of
integer operations by default, so `acc += a[i] * b[i]` unrolled eight times becomes a tree of depth 3,
not a chain of 8 adders (ELEN226 inner_product solution3's verbose schedule report: the eight products
are added pairwise, then in a tree). Floating-point adds are not reassociated (the result would
change; Vitis does it only with `config_compile -unsafe_math_optimizations`), so only IntType and
FixedType sums are touched.

A sum tree is a root add (or a wrapping cast over one) and, below it, adds and wrapping casts with
one use each and the same binary point; its leaves are everything else. Two's-complement adds are
exact modulo 2^w, so the tree may be rebuilt in the root's type when no cast inside it is narrower
than the root; a constant 0 leaf (the `acc = 0` before an unrolled accumulation) is dropped. A leaf
carried from the previous iteration of a loop goes to the root, so the
loop-carried path keeps one adder (ELEN226 inner_product solution5: the accumulator meets one adder,
II 1). The old chain is left dead for DCE.

Used only on the scheduler's straightened copies (hls.passes.straighten): the C++ keeps the user's
order of operations and the golden model is untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from hls.ir import BinaryOp, CastOp, ConstantOp, Module, Value
from hls.ir.core import Block, BlockArg, Op
from hls.ir.kinds import OpKind
from hls.passes.clone import set_ops
from hls.types import FixedType, IntType

MIN_LEAVES = 3  # two adds at least: a single add has nothing to rebalance


def _frac(t: object) -> int:
    return t.frac_bits if isinstance(t, FixedType) else 0


def _width(t: object) -> int:
    return t.width


def _sum_node(op: Op | None, frac: int) -> bool:
    """An add, or a cast that keeps the low bits (same binary point, wrapping or widening)."""
    if isinstance(op, BinaryOp):
        t = op.result.type
        return op.kind == OpKind.ADD and isinstance(t, (IntType, FixedType)) and _frac(t) == frac
    if isinstance(op, CastOp):
        src, dst = op.operands[0].type, op.result.type
        return isinstance(src, (IntType, FixedType)) and isinstance(dst, (IntType, FixedType)) \
            and _frac(src) == frac and _frac(dst) == frac \
            and (_width(dst) >= _width(src) or getattr(dst, "overflow", "AP_WRAP") == "AP_WRAP")
    return False


def _interior(value: Value, block: Block, frac: int) -> bool:
    op = getattr(value, "op", None)
    return len(value.uses) == 1 and op is not None and op.parent is block and _sum_node(op, frac)


def _leaves(root: Op, block: Block) -> tuple[list[Value], int, int]:
    """The leaves of the sum under `root` in program order, its number of adds, and the narrowest
    width a cast inside it keeps."""
    frac = _frac(root.result.type)
    leaves, adds, narrowest = [], 0, _width(root.result.type)
    stack: list[Value | Op] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, Op):
            if isinstance(item, BinaryOp):
                adds += 1
            else:
                narrowest = min(narrowest, _width(item.result.type))
            stack.extend(reversed(item.operands))
        elif _interior(item, block, frac):
            stack.append(item.op)
        else:
            leaves.append(item)
    return leaves, adds, narrowest


def _carried(value: Value) -> bool:
    """A loop's block argument: the value the previous iteration left (or the induction variable)."""
    owner = getattr(getattr(value, "block", None), "parent", None)
    return isinstance(value, BlockArg) and owner is not None and owner.parent is not None \
        and owner.parent.name in ("hls.for", "hls.while")


def _build(values: list[Value], root: Op, out: list[Op]) -> Value:
    """A balanced tree of adds over `values` in the root's type; new ops appended to `out`."""
    if len(values) == 1:
        return values[0]
    mid = (len(values) + 1) // 2
    left, right = _build(values[:mid], root, out), _build(values[mid:], root, out)
    add = BinaryOp("add", left, right, root.result.type, root.loc)
    out.append(add)
    return add.result


@dataclass(frozen=True)
class ReassociateSumsPass:
    name: str = "reassociate-sums"

    def apply(self, module: Module) -> None:
        for func in module.functions.values():
            for op in list(func.walk()):
                for region in op.regions:
                    self._block(region.block)
            self._block(func.body.block)

    def _block(self, block: Block) -> None:
        ops, changed = [], False
        for op in block.ops:
            rebuilt = self._rebuild(op, block)
            if rebuilt:
                ops.extend(rebuilt)
                changed = True
            ops.append(op)
        if changed:
            set_ops(block, ops)

    def _rebuild(self, op: Op, block: Block) -> list[Op]:
        """New ops computing `op`'s sum as a balanced tree (its uses moved to the new root), or []."""
        if not isinstance(op, (BinaryOp, CastOp)) or not _sum_node(op, _frac(op.result.type)):
            return []
        frac = _frac(op.result.type)
        users = op.result.uses
        if len(users) == 1 and users[0].parent is block and _sum_node(users[0], frac):
            return []  # inside a larger sum: rebuilt with it
        leaves, adds, narrowest = _leaves(op, block)
        if adds < 2 or len(leaves) < MIN_LEAVES or narrowest < _width(op.result.type):
            return []
        out: list[Op] = []
        early, late = [], []
        zeros = [v for v in leaves if isinstance(getattr(v, "op", None), ConstantOp) and v.op.value == 0]
        for leaf in [v for v in leaves if v not in zeros] or zeros[:1]:  # x + 0 is x, as LLVM folds it
            (late if _carried(leaf) else early).append(self._typed(leaf, op, out))
        value = _build(early, op, out) if early else late.pop(0)
        for carried in late:
            out.append(BinaryOp("add", value, carried, op.result.type, op.loc))
            value = out[-1].result
        op.result.replace_all_uses_with(value)
        return out

    @staticmethod
    def _typed(leaf: Value, root: Op, out: list[Op]) -> Value:
        """The leaf in the root's type (a wrapping cast: a wire)."""
        if leaf.type == root.result.type:
            return leaf
        out.append(CastOp(leaf, root.result.type, root.loc))
        return out[-1].result
