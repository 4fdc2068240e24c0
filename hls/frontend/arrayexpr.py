"""Array expressions as element expressions: the shape of a numpy-style expression (`A + B[None, :]`,
`x.T`, `A[1:-1]`, `W @ x`, `x.sum(axis=1)`) and the scalar Python expression computing one element of it
at given loop indices, so the statement lowers through the ordinary scalar rules (hls.frontend.arraystmts).

Broadcasting indexes the small operand (a size-1 dimension reads index 0), views shift and stride the
indices, a chain of element-wise operators becomes one scalar expression (no temporary per operator),
and a reduction or contraction becomes an accumulator and a loop (`acc = 0`, `acc = acc + a * b`) written
before the element's use, typed as the same hand-written loop would be. The shape rules are
hls.ir.shapes'.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from enum import Enum
from typing import Any

import numpy as np

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.base import BuildContext, Family
from hls.frontend.source import MISSING, call_target, try_static
from hls.frontend.tables import NUMPY_MATH
from hls.ir import shapes
from hls.ir.shapes import Shape, ShapeMismatch
from hls.lang.arrays import matmul as hls_matmul
from hls.types import ArrayType, BoolType, ScalarType, TypedConstant

ELEMENTWISE = {np.maximum: "max", np.minimum: "min", np.fmax: "max", np.fmin: "min"}
ABS = (np.abs, np.absolute, abs)


class Reduce(Enum):
    """What a reduction combines: a sum (a mean divides it by the count) or the builtin max/min."""

    SUM = "sum"
    MEAN = "mean"
    MAX = "max"
    MIN = "min"


REDUCE = {np.sum: Reduce.SUM, np.max: Reduce.MAX, np.min: Reduce.MIN, np.amax: Reduce.MAX, np.amin: Reduce.MIN,
          np.mean: Reduce.MEAN}
REDUCE_METHODS = tuple(r.value for r in Reduce)  # x.sum(), x.mean(), x.max(), x.min()
CONTRACT = (np.matmul, np.dot)
JOINS = (np.concatenate, np.hstack, np.vstack, np.stack)
LETTERS = "ijklmnpqrstuvwxyzabcdefgh"


def at(node: ast.AST, like: ast.AST) -> Any:
    """`node` placed at `like`'s source position (errors and tracebacks point at the user's text)."""
    for child in ast.walk(node):
        ast.copy_location(child, like) if not hasattr(child, "lineno") else None
    return ast.copy_location(node, like)


def index_expr(start: int, step: int, iv: ast.expr) -> ast.expr:
    """`start + step * iv`, written without the parts that are 0 or 1; an `iv` that is itself an offset
    index (`C_i - 6` of a concatenation, `2 + C_i` of a view of a view) folds into one offset."""
    inner = constant_offset(iv) if step == 1 else None
    if inner is not None:
        base, shift = inner
        total = start + shift
        if total == 0:
            return copy.deepcopy(base)
        return ast.BinOp(copy.deepcopy(base), ast.Add() if total > 0 else ast.Sub(), ast.Constant(abs(total)))
    scaled = iv if abs(step) == 1 else ast.BinOp(ast.Constant(abs(step)), ast.Mult(), copy.deepcopy(iv))
    if start == 0 and step > 0:
        return scaled
    return ast.BinOp(ast.Constant(start), ast.Add() if step > 0 else ast.Sub(), scaled)


def constant_offset(node: ast.expr) -> tuple[ast.expr, int] | None:
    """`x + c`, `c + x` or `x - c` (c an int literal) as (x, ±c); None for any other index."""
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Add, ast.Sub)):
        return None
    is_int = lambda n: isinstance(n, ast.Constant) and type(n.value) is int  # noqa: E731
    if is_int(node.right):
        return node.left, node.right.value if isinstance(node.op, ast.Add) else -node.right.value
    if is_int(node.left) and isinstance(node.op, ast.Add):
        return node.right, node.left.value
    return None


class Elements(Family):
    """Shapes and element expressions of one kernel's array expressions; `fresh` names the loops a
    reduction adds (shared with the statement's own loops)."""

    def __init__(self, ctx: BuildContext) -> None:
        super().__init__(ctx)
        self.fresh: Callable[[], str] = lambda: "r"  # a reduction loop's name (set per statement)
        self.fresh_acc: Callable[..., str] = lambda suffix="acc": suffix  # a local's name (an accumulator's)
        self.bounds: dict[str, int] = {}

    def error(self, exc: ShapeMismatch, node: ast.AST) -> HLSTypeError:
        return self.ctx.error(str(exc), node)

    # ---- shapes ------------------------------------------------------------------------------------

    def leaf_type(self, node: ast.AST) -> tuple[Shape, Any] | None:
        """The shape and element type (None: a numpy array's, decided by its capture) of the array a
        name stands for: a kernel array (argument or local) or a module-level constant."""
        if not isinstance(node, ast.Name):
            return None
        var = self.ctx.env.get(node.id)
        if var is not None:
            ok = isinstance(var.type, ArrayType) and var.is_array and not var.cell and not var.prefix
            return (var.type.shape, var.type.elem) if ok else None
        if node.id in self.ctx.kernel_names:
            return None
        value = try_static(node, self.ctx.src)
        if isinstance(value, TypedConstant):
            return value.type.shape, value.type.elem
        if isinstance(value, np.ndarray) and value.ndim:
            return value.shape, None
        return None

    def shape(self, node: ast.AST) -> Shape | None:
        """The numpy shape of `node`, or None for a scalar expression."""
        try:
            return self.shape_of(node)
        except ShapeMismatch as exc:
            raise self.error(exc, node) from None

    def shape_of(self, node: ast.AST) -> Shape | None:
        if isinstance(node, ast.Name):
            t = self.leaf_type(node)
            return t[0] if t is not None else None
        if isinstance(node, ast.Attribute) and node.attr == "T":
            inner = self.shape(node.value)
            return inner[::-1] if inner is not None else None
        if isinstance(node, ast.Subscript):
            return self.view_shape(node)
        if isinstance(node, ast.BinOp):
            left, right = self.shape(node.left), self.shape(node.right)
            if isinstance(node.op, ast.MatMult):
                self.need_arrays("@", (node.left, left), (node.right, right))
                return shapes.matmul(left, right).shape or None
            return self.joint(left, right)
        if isinstance(node, ast.UnaryOp):
            return self.shape(node.operand)
        if isinstance(node, ast.Compare):
            found = [self.shape(n) for n in (node.left, *node.comparators)]
            if len(node.ops) > 1 and any(s is not None for s in found):
                raise self.ctx.error("a chained comparison of arrays has no numpy meaning; combine two "
                                     "comparisons with &", node, UnsupportedError)
            return self.joint(*found)
        if isinstance(node, ast.Call):
            return self.call_shape(node)
        return None

    @staticmethod
    def joint(*found: Shape | None) -> Shape | None:
        arrays = [s for s in found if s is not None]
        return shapes.broadcast(*arrays) if arrays else None

    def is_view_of_name(self, node: ast.AST) -> bool:
        """`A`, `A.T`, `A[1:]`, `np.transpose(A)`: numpy gives a view of A, not a new array."""
        while True:
            if isinstance(node, ast.Name):
                return self.leaf_type(node) is not None
            if isinstance(node, (ast.Subscript, ast.Attribute)):
                node = node.value
            elif isinstance(node, ast.Call) and self.target(node) is np.transpose and node.args:
                node = node.args[0]
            elif isinstance(node, ast.Call) and self.target(node) == "reshape":
                node = node.func.value
            else:
                return False

    def view_items(self, node: ast.Subscript) -> list[Any]:
        """The index items of a view: ("slice", SliceDim), ("new",), ("at", node) per base dimension."""
        base = self.shape(node.value)
        raw = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        items: list[Any] = []
        dim = 0
        for item in raw:
            if isinstance(item, ast.Constant) and item.value is None:
                items.append(("new",))
                continue
            if dim >= len(base):
                raise self.ctx.error(f"array of shape {base} indexed with too many indices", node)
            if isinstance(item, ast.Slice):
                bounds = [None if b is None else self.ctx.static(b, "a slice bound") for b in
                          (item.lower, item.upper, item.step)]
                if not all(b is None or (isinstance(b, int) and not isinstance(b, bool)) for b in bounds):
                    raise self.ctx.error("slice bounds must be integer constants", item)
                items.append(("slice", shapes.slice_dim(base[dim], *bounds)))
            else:
                items.append(("at", item, base[dim]))
            dim += 1
        items += [("slice", shapes.slice_dim(size, None, None, None)) for size in base[dim:]]
        return items

    def view_shape(self, node: ast.Subscript) -> Shape | None:
        """A view needs a written slice or None (`A[i, :]`, `w[None, :]`); integer indices alone read an
        element, and their count is the element access's to check (`A[i]` of a matrix stays an error)."""
        base = self.shape(node.value)
        if base is None:
            return None
        raw = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        written = [i for i in raw if isinstance(i, ast.Slice) or (isinstance(i, ast.Constant) and i.value is None)]
        if not written or len(raw) - len(written) + sum(isinstance(i, ast.Slice) for i in written) > len(base):
            return None
        items = self.view_items(node)
        if all(item[0] == "at" for item in items):
            return None  # every dimension indexed: one element
        return tuple(1 if item[0] == "new" else item[1].length for item in items if item[0] != "at")

    def call_shape(self, node: ast.Call) -> Shape | None:
        target = self.target(node)
        if target is MISSING:
            return None
        args = [self.shape(a) for a in node.args]
        if target in REDUCE or self.method(node) in REDUCE_METHODS:
            source = args[0] if target in REDUCE else self.shape(node.func.value)
            axes, keep = self.reduce_options(node, len(source) if source is not None else 0)
            return None if source is None else (shapes.reduced_shape(source, axes, keep) or None)
        if target in CONTRACT or target is hls_matmul:
            if len(args) != 2:
                raise self.ctx.error(f"{ast.unparse(node.func)} takes two arrays", node)
            if target is np.dot and None in args:
                return self.joint(*args)  # np.dot with a scalar multiplies
            self.need_arrays(ast.unparse(node.func), *zip(node.args, args, strict=True))
            return self.contract_rule(target)(args[0], args[1]).shape or None
        if target in JOINS:
            return self.concat_parts(node)[1]
        if target == "reshape":
            return shapes.reshaped(self.shape(node.func.value), self.new_shape(node))
        if target is np.transpose:
            inner = args[0] if args else None
            if inner is None:
                return None
            perm = shapes.transpose_axes(len(inner), self.axes_option(node))
            return tuple(inner[a] for a in perm)
        if target in ELEMENTWISE or target in ABS or target in NUMPY_MATH or target is np.where \
                or isinstance(target, ScalarType):
            return self.joint(*args)
        return None

    def need_arrays(self, what: str, *operands: tuple[ast.AST, Shape | None]) -> None:
        """A contraction's operands are arrays: a scalar one is an error at it, and `x[0]` of a matrix (an
        element in this project: every dimension is indexed or sliced) says how to write the row."""
        for node, shape in operands:
            if shape is not None:
                continue
            base = self.shape(node.value) if isinstance(node, ast.Subscript) else None
            if base is not None:
                raw = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                view = ast.unparse(node)[:-1] + ", :" * (len(base) - len(raw)) + "]"
                raise self.ctx.error(f"{what} needs arrays: {ast.unparse(node)} indexes {len(raw)} of the "
                                     f"{len(base)} dimensions of an array of shape {base}, which is one element "
                                     f"here; write the rest as slices for the view, {view}", node)
            raise self.ctx.error(f"{what} needs arrays on both sides; {ast.unparse(node)} is a scalar "
                                 "(multiply with *)", node)

    @staticmethod
    def contract_rule(target: Any) -> Callable[[Shape, Shape], shapes.Contraction]:
        """np.dot sums over a's last and b's second-to-last dimension; `@`, np.matmul and hls.matmul
        broadcast leading (batch) dimensions."""
        return shapes.dot if target is np.dot else shapes.matmul

    def concat_parts(self, node: ast.Call) -> tuple[list[ast.expr], Shape, int]:
        """`np.concatenate((a, b, ...), axis=k)` and the joins numpy spells with it (`np.hstack`,
        `np.vstack`, `np.stack`): the operands (as views with the added axis where numpy adds one), the
        result shape and the axis along which they follow each other."""
        target = self.target(node)
        name = ast.unparse(node.func)
        takes_axis = target in (np.concatenate, np.stack)
        for kw in node.keywords:
            if kw.arg != "axis" or not takes_axis:
                raise self.ctx.error(f"{name} takes the arrays{' and axis=' if takes_axis else ''} only", kw.value,
                                     UnsupportedError)
        if len(node.args) not in (1, 1 + takes_axis) or not isinstance(node.args[0], (ast.Tuple, ast.List)):
            raise self.ctx.error(f"{name} takes a tuple or list of arrays written in place, {name}((a, b))", node,
                                 UnsupportedError)
        axis = self.keyword(node, "axis", 1, 0) if takes_axis else 0
        if axis is None:
            raise self.ctx.error(f"{name}(..., axis=None) flattens its operands; write that out: "
                                 f"{name}((a.reshape(-1), b.reshape(-1)))", node, UnsupportedError)
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise self.ctx.error(f"axis= of {name} must be an integer constant, got {axis!r}", node)
        parts = list(node.args[0].elts)
        found = [self.shape(p) for p in parts]
        for part, shape in zip(parts, found, strict=True):
            if shape is None:
                raise self.ctx.error(f"{name} needs arrays; {ast.unparse(part)} is a scalar "
                                     "(zero-dimensional arrays cannot be concatenated)", part)
        try:
            if target is np.stack:  # a new axis of size 1 on each, then joined along it
                if any(f != found[0] for f in found):
                    raise ShapeMismatch(f"np.stack of {' and '.join(map(str, found))}: every array must have "
                                        "the same shape")
                if not -len(found[0]) - 1 <= axis <= len(found[0]):
                    raise ShapeMismatch(f"axis {axis} is out of range for the {len(found[0]) + 1} dimensions "
                                        "of the stack")
                axis += len(found[0]) + 1 if axis < 0 else 0
                parts = [self.new_axis(p, axis) for p in parts]
            elif target is np.vstack:  # vectors become rows
                parts = [self.new_axis(p, 0) if len(f) == 1 else p for p, f in zip(parts, found, strict=True)]
            elif target is np.hstack:  # vectors follow each other; arrays join along their columns
                axis = 0 if len(found[0]) == 1 else 1
            shape, axis = shapes.concatenate([self.shape(p) for p in parts], axis, name)
        except ShapeMismatch as exc:
            raise self.error(exc, node) from None
        return parts, shape, axis

    @staticmethod
    def new_axis(part: ast.expr, axis: int) -> ast.expr:
        """`part[:, ..., None]`: the view with a size-1 dimension inserted before dimension `axis`."""
        items = [*(ast.Slice() for _ in range(axis)), ast.Constant(None)]
        return at(ast.Subscript(copy.deepcopy(part), ast.Tuple(items, ast.Load()), ast.Load()), part)

    def concat_element(self, node: ast.Call, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        """One element of a concatenation: an if/elif chain on the index along the axis, each branch
        reading only the operand that holds the element (at the index less the sizes before it), into a
        local whose type is the join of the operands' (no select, which would read every operand)."""
        parts, _, axis = self.concat_parts(node)
        parts = [p for p in parts if self.shape(p)[axis]]  # an empty operand holds no element
        name = self.fresh_acc("cat")
        position = idx[axis]
        chain: list[ast.stmt] = []
        offset = 0
        branches: list[tuple[ast.expr | None, list[ast.stmt]]] = []
        for n, part in enumerate(parts):
            size = self.shape(part)[axis]
            shifted = [*idx[:axis], ast.BinOp(copy.deepcopy(position), ast.Sub(), ast.Constant(offset)) if offset
                       else copy.deepcopy(position),
                       *idx[axis + 1:]]
            body: list[ast.stmt] = []
            value = self.element(part, shifted, body)
            body.append(at(ast.Assign([ast.Name(name, ast.Store())], value), part))
            offset += size
            last = n == len(parts) - 1
            test = None if last else ast.Compare(copy.deepcopy(position), [ast.Lt()], [ast.Constant(offset)])
            branches.append((test, body))
        for test, body in reversed(branches):
            chain = body if test is None else [ast.If(test, body, chain)]
        pre.extend(at(stmt, node) for stmt in chain)
        return ast.Name(name, ast.Load())

    def target(self, node: ast.Call) -> Any:
        method = self.method(node)
        if method is not None:
            return method
        return call_target(node.func, self.ctx.src)

    def method(self, node: ast.Call) -> str | None:
        """`x.sum(...)` or `x.reshape(...)` on an array: the method's name."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in (*REDUCE_METHODS, "reshape") \
                and self.shape(func.value) is not None:
            return func.attr
        return None

    def new_shape(self, node: ast.Call) -> tuple[int, ...]:
        if node.keywords:
            raise self.ctx.error("reshape takes the new shape only", node, UnsupportedError)
        values = [self.ctx.static(a, "the new shape") for a in node.args]
        new = tuple(values[0]) if len(values) == 1 and isinstance(values[0], tuple) else tuple(values)
        if not new or not all(isinstance(n, int) and not isinstance(n, bool) for n in new):
            raise self.ctx.error(f"reshape needs integer constants, got {new!r}", node)
        return new

    def reshape_element(self, node: ast.Call, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        """Row-major: the flat position of `idx` in the new shape, split into the old shape's indices."""
        source = node.func.value
        old, new = self.shape(source), self.shape(node)
        flat: ast.expr | None = None
        for i, stride in zip(idx, shapes.strides(new), strict=True):
            term = copy.deepcopy(i) if stride == 1 else ast.BinOp(copy.deepcopy(i), ast.Mult(), ast.Constant(stride))
            flat = term if flat is None else ast.BinOp(flat, ast.Add(), term)
        base = []
        for size, stride in zip(old, shapes.strides(old), strict=True):
            part = flat if stride == 1 else ast.BinOp(copy.deepcopy(flat), ast.FloorDiv(), ast.Constant(stride))
            base.append(part if stride * size == shapes.strides(old)[0] * old[0] else
                        ast.BinOp(copy.deepcopy(part), ast.Mod(), ast.Constant(size)))
        return self.element(source, base, pre)

    def keyword(self, node: ast.Call, name: str, position: int, default: Any) -> Any:
        for kw in node.keywords:
            if kw.arg == name:
                return self.ctx.static(kw.value, f"the {name}= of {ast.unparse(node.func)}")
        if len(node.args) > position:
            return self.ctx.static(node.args[position], f"the {name} of {ast.unparse(node.func)}")
        return default

    def reduce_options(self, node: ast.Call, rank: int) -> tuple[tuple[int, ...], bool]:
        first = 0 if self.method(node) is not None else 1
        for kw in node.keywords:
            if kw.arg not in ("axis", "keepdims"):
                raise self.ctx.error(f"{ast.unparse(node.func)} takes axis= and keepdims= only", kw.value,
                                     UnsupportedError)
        axis = self.keyword(node, "axis", first, None)
        keep = self.keyword(node, "keepdims", first + 1, False)
        if not (axis is None or isinstance(axis, int) or (isinstance(axis, tuple)
                                                          and all(isinstance(a, int) for a in axis))):
            raise self.ctx.error(f"axis= must be None, an integer or a tuple of integers, got {axis!r}", node)
        return shapes.reduce_axes(rank, axis), bool(keep)

    def axes_option(self, node: ast.Call) -> tuple[int, ...] | None:
        axes = self.keyword(node, "axes", 1, None)
        return tuple(axes) if axes is not None else None

    def is_scalar_reduction(self, node: ast.AST) -> bool:
        """A sum, max, min or contraction of arrays whose result is one value (`x.sum()`, `a @ b` of vectors)."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            operands = (node.left, node.right)
        elif isinstance(node, ast.Call):
            target = self.target(node)
            if target in REDUCE_METHODS:
                operands = (node.func.value,)
            elif target in REDUCE or target in CONTRACT or target is hls_matmul:
                operands = tuple(node.args)
            else:
                return False
        else:
            return False
        return self.shape(node) is None and all(self.shape(n) is not None for n in operands)

    # ---- element expressions -----------------------------------------------------------------------

    def broadcast_index(self, node: ast.AST, result: Shape, idx: list[ast.expr]) -> list[ast.expr]:
        """The indices of `node`'s element that the result element at `idx` reads."""
        own = self.shape(node)
        if own is None:
            return []
        try:
            dims = shapes.broadcast_map(own, result)
        except ShapeMismatch as exc:
            raise self.error(exc, node) from None
        return [ast.Constant(0) if d is None else copy.deepcopy(idx[d]) for d in dims]

    def element(self, node: ast.AST, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        """The scalar expression of `node`'s element at `idx` (one index per dimension of its shape);
        statements it needs first (reduction loops) are appended to `pre`."""
        if self.shape(node) is None:
            return copy.deepcopy(node)
        return at(self.element_of(node, idx, pre), node)

    def element_of(self, node: ast.AST, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        if isinstance(node, ast.Name):
            index = idx[0] if len(idx) == 1 else ast.Tuple(idx, ast.Load())
            return ast.Subscript(ast.Name(node.id, ast.Load()), index, ast.Load())
        if isinstance(node, ast.Attribute):
            return self.element(node.value, idx[::-1], pre)
        if isinstance(node, ast.Subscript):
            return self.view_element(node, idx, pre)
        result = self.shape(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return self.contraction(node, node.left, node.right, idx, pre, None)
        if isinstance(node, ast.BinOp):
            return ast.BinOp(self.element(node.left, self.broadcast_index(node.left, result, idx), pre), node.op,
                             self.element(node.right, self.broadcast_index(node.right, result, idx), pre))
        if isinstance(node, ast.UnaryOp):
            operand = self.element(node.operand, idx, pre)
            if isinstance(node.op, ast.Not):
                raise self.ctx.error("`not` of an array has no numpy meaning; use ~ on a bool array", node,
                                     UnsupportedError)
            invert = isinstance(node.op, ast.Invert) and self.is_bool(node.operand)
            return ast.UnaryOp(ast.Not() if invert else node.op, operand)
        if isinstance(node, ast.Compare):
            sides = [self.element(n, self.broadcast_index(n, result, idx), pre) for n in (node.left, *node.comparators)]
            return ast.Compare(sides[0], node.ops, sides[1:])
        return self.call_element(node, idx, pre)

    def view_element(self, node: ast.Subscript, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        base_idx: list[ast.expr] = []
        position = 0
        for item in self.view_items(node):
            if item[0] == "new":
                position += 1
            elif item[0] == "slice":
                base_idx.append(index_expr(item[1].start, item[1].step, idx[position]))
                position += 1
            else:
                fixed = self.ctx.compile_time(item[1])
                if isinstance(fixed, int) and not isinstance(fixed, bool) and -item[2] <= fixed < 0:
                    base_idx.append(ast.Constant(fixed + item[2]))  # A[-1, :]: numpy counts from the end
                else:
                    base_idx.append(copy.deepcopy(item[1]))
        return self.element(node.value, base_idx, pre)

    def call_element(self, node: ast.Call, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        target = self.target(node)
        result = self.shape(node)
        if target == "reshape":
            return self.reshape_element(node, idx, pre)
        if target in REDUCE or target in REDUCE_METHODS:
            return self.reduction(node, Reduce(target) if isinstance(target, str) else REDUCE[target], idx, pre)
        if target in CONTRACT or target is hls_matmul:
            acc = next((kw.value for kw in node.keywords if kw.arg == "acc"), None)
            if target is not hls_matmul and node.keywords:
                raise self.ctx.error(f"{ast.unparse(node.func)} takes two arrays and no keywords", node,
                                     UnsupportedError)
            if self.shape(node.args[0]) is None or self.shape(node.args[1]) is None:
                return ast.BinOp(self.element(node.args[0], self.broadcast_index(node.args[0], result, idx), pre),
                                 ast.Mult(),
                                 self.element(node.args[1], self.broadcast_index(node.args[1], result, idx), pre))
            return self.contraction(node, node.args[0], node.args[1], idx, pre, acc, self.contract_rule(target))
        if target in JOINS:
            return self.concat_element(node, idx, pre)
        if target is np.transpose:
            perm = shapes.transpose_axes(len(result), self.axes_option(node))
            inner = [ast.Constant(0)] * len(perm)
            for k, axis in enumerate(perm):
                inner[axis] = idx[k]
            return self.element(node.args[0], inner, pre)
        if node.keywords:
            raise self.ctx.error(f"{ast.unparse(node.func)} of arrays takes no keywords", node, UnsupportedError)
        args = [self.element(a, self.broadcast_index(a, result, idx), pre) for a in node.args]
        if target is np.where:
            if len(args) != 3:
                raise self.ctx.error("np.where takes a condition and two values", node)
            return ast.IfExp(args[0], args[1], args[2])
        if target in ELEMENTWISE:
            return ast.Call(ast.Name(ELEMENTWISE[target], ast.Load()), args, [])
        if target in ABS:
            return ast.Call(ast.Name("abs", ast.Load()), args, [])
        return ast.Call(copy.deepcopy(node.func), args, [])  # a type conversion or a math function

    def is_bool(self, node: ast.AST) -> bool:
        """Whether `node`'s elements are bools (so `~` is numpy's logical not, not Python's -x - 1)."""
        if isinstance(node, ast.Compare):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self.is_bool(node.left) and self.is_bool(node.right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return self.is_bool(node.operand)
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        t = self.leaf_type(node)
        return t is not None and isinstance(t[1], BoolType)

    # ---- reductions and contractions ----------------------------------------------------------------

    def loops(self, ivs: list[str], body: list[ast.stmt], like: ast.AST) -> ast.For:
        """`for iv in range(n): ...` nested over `ivs` (outermost first) around `body`."""
        for iv in reversed(ivs):
            rng = ast.Call(ast.Name("range", ast.Load()), [ast.Constant(self.bounds[iv])], [])
            body = [ast.For(ast.Name(iv, ast.Store()), rng, body, [])]
        return at(body[0], like)

    def accumulate(self, acc: str, init: ast.expr, ivs: list[str], step: ast.expr, pre: list[ast.stmt],
                   inner: list[ast.stmt], like: ast.AST) -> ast.expr:
        update = ast.Assign([ast.Name(acc, ast.Store())], step)
        pre.append(at(ast.Assign([ast.Name(acc, ast.Store())], init), like))
        pre.append(self.loops(ivs, [*inner, at(update, like)], like))
        return ast.Name(acc, ast.Load())

    def reduction(self, node: ast.Call, combine: Reduce, idx: list[ast.expr], pre: list[ast.stmt]) -> ast.expr:
        source = node.func.value if isinstance(self.target(node), str) else node.args[0]
        shape = self.shape(source)
        axes, keep = self.reduce_options(node, len(shape))
        ivs, full, zero, position = [], [], [], 0
        for dim, size in enumerate(shape):
            if dim in axes:
                iv = self.fresh()
                self.bounds[iv] = size
                ivs.append(iv)
                full.append(ast.Name(iv, ast.Load()))
                zero.append(ast.Constant(0))
                position += keep
            else:
                full.append(idx[position])
                zero.append(idx[position])
                position += 1
        acc = self.fresh_acc()
        inner: list[ast.stmt] = []
        value = self.element(source, full, inner)
        if combine in (Reduce.SUM, Reduce.MEAN):
            total = self.accumulate(acc, ast.Constant(0), ivs,
                                    ast.BinOp(ast.Name(acc, ast.Load()), ast.Add(), value), pre, inner, node)
            count = 1
            for iv in ivs:
                count *= self.bounds[iv]
            # numpy's mean: the sum over the count (an int sum is exact, then divided in float64 as `/`
            # divides ints; a float sum keeps its precision)
            return total if combine is Reduce.SUM else ast.BinOp(total, ast.Div(), ast.Constant(count))
        init = self.element(source, zero, pre)
        step = ast.Call(ast.Name(combine.value, ast.Load()), [ast.Name(acc, ast.Load()), value], [])
        return self.accumulate(acc, init, ivs, step, pre, inner, node)

    def contraction(self, node: ast.AST, left: ast.AST, right: ast.AST, idx: list[ast.expr], pre: list[ast.stmt],
                    acc_type: ast.AST | None,
                    rule: Callable[[Shape, Shape], shapes.Contraction] = shapes.matmul) -> ast.expr:
        try:
            c = rule(self.shape(left), self.shape(right))
        except ShapeMismatch as exc:
            raise self.error(exc, node) from None
        iv = self.fresh()
        self.bounds[iv] = c.length
        k = ast.Name(iv, ast.Load())
        pick = lambda dims: [copy.deepcopy(k) if d == -1 else ast.Constant(0) if d is None  # noqa: E731
                             else copy.deepcopy(idx[d]) for d in dims]
        inner: list[ast.stmt] = []
        product = ast.BinOp(self.element(left, pick(c.left), inner), ast.Mult(),
                            self.element(right, pick(c.right), inner))
        acc = self.fresh_acc()
        init: ast.expr = ast.Constant(0)
        if acc_type is not None:
            init = ast.Call(copy.deepcopy(acc_type), [ast.Constant(0)], [])  # declares the accumulator's type
        step = ast.BinOp(ast.Name(acc, ast.Load()), ast.Add(), product)
        return self.accumulate(acc, init, [iv], step, pre, inner, node)
