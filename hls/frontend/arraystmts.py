"""Whole-array statements: `C[:, :] = A + B[None, :]`, `B[1:-1] = ...`, `y = W @ x`, `return x * w + b`.

Each becomes an ordinary loop nest, written as Python statements and lowered by the ordinary rules
(no second execution model): one loop per result dimension, named after the statement's target and
the dimension (`C_i`, `C_j`; `hls.label("C")` before the statement sets the stem), its body one scalar
statement storing the element (hls.frontend.arrayexpr builds it), reductions as inner loops. The same
statements are the golden model's (the `Expand` record), so Python mode runs exactly what the IR
holds. Directives written before the statement apply to its innermost generated loop.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from hls.errors import UnsupportedError
from hls.frontend.arrayexpr import LETTERS, Elements, at
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family
from hls.frontend.conversions import Call, Expand, Part
from hls.frontend.names import Names
from hls.frontend.pragmas import Pragmas
from hls.frontend.results import Results
from hls.frontend.source import MISSING, call_target
from hls.frontend.state import Var
from hls.ir import AllocOp, ForOp, ReturnOp
from hls.ir.labels import fresh_label
from hls.ir.shapes import Shape, ShapeMismatch, broadcast_map
from hls.lang.directives import DIRECTIVES, LOOP_DIRECTIVES
from hls.types import ArrayType, ScalarType


class ArrayStatements(Family):
    """Slice assignments, new array locals and array returns of array expressions."""

    def __init__(self, ctx: BuildContext, pragmas: Pragmas, names: Names, arrays: Arrays, results: Results,
                 elements: Elements) -> None:
        super().__init__(ctx)
        self.pragmas = pragmas
        self.names = names
        self.arrays = arrays
        self.results = results
        self.elements = elements  # the element expressions (hls.frontend.arrayexpr), made by the builder
        self.pending: list[ast.Call] = []  # directives written before the next array statement
        self.first_stores: dict[int, tuple[str, Shape, ast.Constant]] = {}  # new locals: their one store
        self.reserved: set[str] = set()

    # ---- which statements are array statements ---------------------------------------------------

    def is_view(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Subscript) and self.elements.shape(node) is not None

    def is_array_assign(self, node: ast.Assign) -> bool:
        if len(node.targets) != 1:
            return False
        target = node.targets[0]
        if self.is_view(target):
            return True
        if not isinstance(target, ast.Name):
            return False
        if target.id in self.ctx.env and self.elements.is_view_of_name(node.value):
            return False  # `a = b` of two arrays: the scalar rules' error
        return self.elements.shape(node.value) is not None

    def is_array_return(self, node: ast.Return) -> bool:
        ret = self.ctx.func.return_type
        return isinstance(ret, ArrayType) and node.value is not None and not isinstance(node.value, ast.Name)

    def is_array_statement(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Assign):
            return self.is_array_assign(node)
        if isinstance(node, ast.AugAssign):
            return self.is_view(node.target)
        return isinstance(node, ast.Return) and self.is_array_return(node)

    def defer_directive(self, node: ast.Expr, following: ast.AST | None) -> bool:
        """A loop directive or hls.label just before an array statement waits for its loops (True)."""
        call = node.value
        target = call_target(call.func, self.ctx.src)
        name = getattr(target, "__name__", None)
        if target is MISSING or DIRECTIVES.get(name) is not target or (name not in LOOP_DIRECTIVES
                                                                       and name != "label"):
            return False
        if following is None or not self.is_array_statement(following):
            return False
        self.pending.append(call)
        return True

    # ---- the statements ----------------------------------------------------------------------------

    def lower_assign(self, node: ast.Assign | ast.AugAssign) -> None:
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        if isinstance(target, ast.Name):
            self.new_local(node, target)
            return
        shape = self.elements.shape(target)
        self.check_fits(node.value, shape)
        self.start(self.stem(target))
        idx, store = self.store_target(target, shape)
        body: list[ast.stmt] = []
        source = self.hoist(node.value)
        value = self.elements.element(source, self.elements.broadcast_index(source, shape, idx), body)
        if isinstance(node, ast.AugAssign):
            value = at(ast.BinOp(self.elements.element(target, idx, body), node.op, value), node)
        body.append(at(ast.Assign([store], value), node))
        self.check_alias(store, body, node.value)
        self.emit_nest(node, idx, body, [])

    def store_target(self, target: ast.AST, shape: Shape) -> tuple[list[ast.expr], ast.expr]:
        idx = [ast.Name(self.loop_name(size), ast.Load()) for size in shape]
        store = self.elements.element(target, idx, [])
        store.ctx = ast.Store()
        return idx, store

    def new_local(self, node: ast.Assign, target: ast.Name) -> None:
        """`y = <array expression>`: a new local array of the expression's shape and element type (the
        declared result type when `y` is what the kernel returns)."""
        shape = self.elements.shape(node.value)
        if self.elements.is_view_of_name(node.value):
            raise self.ctx.error(f"{ast.unparse(node.value)} is a view in numpy (writes through {target.id!r} would "
                                 f"change the array): use it where it is needed, or copy it into a local, "
                                 f"{target.id} = hls.zeros({shape}, T); {target.id}[...] = ...", node.value,
                                 UnsupportedError)
        if target.id in self.ctx.env:
            raise self.ctx.error(f"{target.id!r} is already defined; store into it with {target.id}[...] = ... "
                                 "(a new name makes a new array)", target, UnsupportedError)
        if target.id == self.ctx.result_name:
            ret: ArrayType = self.ctx.func.return_type
            if ret.shape != shape:
                raise self.ctx.error(f"{target.id!r} is returned as {ret} (shape {ret.shape}) but has shape "
                                     f"{shape} here", target)
            self.results.bind_result_array(target, ret, zero=False)
            self.start(self.stem(target))
            idx, store = self.store_target(ast.copy_location(ast.Name(target.id, ast.Load()), target), shape)
            body: list[ast.stmt] = []
            body.append(at(ast.Assign([store], self.elements.element(self.hoist(node.value), idx, body)), node))
            self.emit_nest(node, idx, body, [self.declaration(target.id, shape, ret.elem, node)])
            return
        self.start(self.stem(target))
        idx = [ast.Name(self.loop_name(size), ast.Load()) for size in shape]
        body = []
        value = self.elements.element(self.hoist(node.value), idx, body)
        index = idx[0] if len(idx) == 1 else ast.Tuple(copy.deepcopy(idx), ast.Load())
        store = at(ast.Assign([ast.Subscript(ast.Name(target.id, ast.Load()), index, ast.Store())], value), node)
        body.append(store)
        placeholder = at(ast.Constant(0), node)
        self.first_stores[id(store)] = (target.id, shape, placeholder)
        decl = at(ast.Assign([ast.Name(target.id, ast.Store())], placeholder), node)
        alloc = self.emit_nest(node, idx, body, [decl])
        self.ctx.env[target.id] = Var(alloc.result, alloc.result.type, is_array=True)

    def is_first_store(self, node: ast.Assign) -> bool:
        return id(node) in self.first_stores

    def first_store(self, node: ast.Assign) -> None:
        """The one store a new local's nest makes: the local takes the element's type."""
        name, shape, placeholder = self.first_stores[id(node)]
        value = self.ctx.expr(node.value)
        if not isinstance(value.type, ScalarType):
            raise self.ctx.error(f"an element of {name!r} would be a {value.type}", node.value)
        elem = self.names.inferred_type(value, node.value)
        t = ArrayType(elem, shape)
        alloc = AllocOp(t, name, self.ctx.loc)
        alloc.attrs["filled_by_call"] = True  # the nest writes every element: no zero fill
        alloc.attrs["filled_by_nest"] = True
        self.created = alloc
        indices = [self.arrays.index_value(i, size, "index", "{}") for i, size in zip(self.index_nodes(node), shape,
                                                                                      strict=True)]
        self.arrays.store_value(alloc.result, indices, value)
        self.ctx.conversions.add(placeholder, Call("rt.zeros", (shape, elem)))

    @staticmethod
    def index_nodes(node: ast.Assign) -> list[ast.expr]:
        index = node.targets[0].slice
        return list(index.elts) if isinstance(index, ast.Tuple) else [index]

    def lower_return(self, node: ast.Return) -> None:
        """`return <array expression>`: the elements stored into the result port, converted to its type."""
        ret: ArrayType = self.ctx.func.return_type
        name = self.ctx.result_name
        self.check_fits(node.value, ret.shape)
        self.ctx.env[name] = Var(self.ctx.func.args[-1], ret, is_array=True)
        self.start(name)
        idx, store = self.store_target(at(ast.Name(name, ast.Load()), node), ret.shape)
        body: list[ast.stmt] = []
        source = self.hoist(node.value)
        value = self.elements.element(source, self.elements.broadcast_index(source, ret.shape, idx), body)
        body.append(at(ast.Assign([store], value), node))
        returned = at(ast.Return(ast.Name(name, ast.Load())), node)
        self.ctx.conversions.add(returned, Call("rt.array_result", (Part(""),)))
        self.emit_nest(node, idx, body, [self.declaration(name, ret.shape, ret.elem, node)], [returned])
        self.ctx.emit(ReturnOp([], self.ctx.loc))

    def hoist(self, value: ast.AST) -> ast.AST:
        """`value` with each one-value reduction in it (`x.max()`, `v @ w`) computed once, before the nest."""
        if not any(self.elements.is_scalar_reduction(n) for n in ast.walk(value)):
            return value
        return Reductions(self.elements, self.hoisted).visit(copy.deepcopy(value))

    def check_alias(self, store: ast.Subscript, body: list[ast.stmt], value: ast.AST) -> None:
        """numpy computes the right side before storing: the nest may read the target only at the element
        it writes (`x[:] = x * 2`), never another one (`A[1:] = A[:-1]`)."""
        name = store.value.id
        reads = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Subscript)
                 and isinstance(n.value, ast.Name) and n.value.id == name and n is not store]
        same = ast.dump(store.slice)
        for read in reads:
            if ast.dump(read.slice) != same or read not in list(ast.walk(body[-1].value)):
                raise self.ctx.error(f"the right side reads {name!r} at other elements than the ones this statement "
                                     "writes; numpy would read the old values: compute into a new array first",
                                     value, UnsupportedError)

    def declaration(self, name: str, shape: Shape, elem: ScalarType, node: ast.AST) -> ast.stmt:
        """The golden model's `name = zeros(shape, elem)` (the IR's array exists already)."""
        placeholder = at(ast.Constant(0), node)
        self.ctx.conversions.add(placeholder, Call("rt.zeros", (shape, elem)))
        return at(ast.Assign([ast.Name(name, ast.Store())], placeholder), node)

    def check_fits(self, value: ast.AST, shape: Shape) -> None:
        own = self.elements.shape(value)
        if own is None:
            return
        try:
            broadcast_map(own, shape)
        except ShapeMismatch:
            raise self.ctx.error(f"cannot assign an array of shape {own} to a target of shape {shape}",
                                 value) from None

    def has_reduction(self, node: ast.stmt) -> bool:
        """A scalar statement whose value sums or contracts arrays (`s = x.sum()`, `acc += a @ b`)."""
        value = getattr(node, "value", None)
        return value is not None and any(self.elements.is_scalar_reduction(n) for n in ast.walk(value))

    def lower_scalar(self, node: ast.stmt) -> None:
        """The reductions' loops first, then the statement reading their accumulators."""
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        self.start(self.stem(target) if target is not None else "result")
        pre: list[ast.stmt] = []
        stmt = copy.copy(node)
        stmt.value = Reductions(self.elements, pre).visit(copy.deepcopy(node.value))
        self.ctx.conversions.add(node, Expand((*pre, stmt)))
        block = self.ctx.block
        count = len(block.ops)
        for each in pre:
            self.ctx.visit(each)
        mark_nests(block.ops[count:])
        self.name_loops(block.ops[count:])
        self.apply_pending(block.ops[count:])
        self.ctx.visit(stmt)

    # ---- the loop nest -------------------------------------------------------------------------------

    def stem(self, target: ast.AST) -> str:
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        return target.id if isinstance(target, ast.Name) else "array"

    def start(self, stem: str) -> None:
        """A new statement: loops are named `<stem>_<letter>` (hls.label before it sets the stem)."""
        labels = [c for c in self.pending if call_target(c.func, self.ctx.src) is DIRECTIVES["label"]]
        if labels:
            name = self.pragmas.bind_directive("label", labels[-1])["name"]
            if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
                raise self.ctx.error(f"hls.label needs a C identifier, got {name!r}", labels[-1])
            stem = name
        self.stem_name, self.dims = stem, 0
        self.labels: dict[str, str] = {}
        self.created: AllocOp | None = None
        self.hoisted: list[ast.stmt] = []
        self.elements.fresh = lambda: self.loop_name(None)
        self.elements.fresh_acc = lambda suffix="acc": self.unique(f"{self.stem_name}_{suffix}")

    def unique(self, base: str) -> str:
        taken = self.ctx.kernel_names | set(self.ctx.env) | self.ctx.loop_locals | self.reserved
        name = base if base not in taken else fresh_label(set(taken), base)
        self.reserved.add(name)
        return name

    def loop_name(self, size: int | None) -> str:
        """The next generated loop: its label and loop variable, `<stem>_<letter>`."""
        letter = LETTERS[self.dims] if self.dims < len(LETTERS) else f"d{self.dims}"
        self.dims += 1
        label = fresh_label({*self.ctx.labels, *self.labels.values()}, f"{self.stem_name}_{letter}")
        iv = self.unique(label)
        self.labels[iv] = label
        if size is not None:
            self.elements.bounds[iv] = size
        return iv

    def emit_nest(self, node: ast.stmt, idx: list[ast.expr], body: list[ast.stmt], before: list[ast.stmt],
                  after: list[ast.stmt] = ()) -> AllocOp | None:
        """Lower the nest (and record it as the golden model's statements), then name its loops and
        give its innermost loop the directives written before the statement."""
        nest = self.elements.loops([i.id for i in idx], body, node) if idx else body
        stmts = nest if isinstance(nest, list) else [nest]
        stmts = [*self.hoisted, *stmts]
        self.ctx.conversions.add(node, Expand((*before, *stmts, *after)))
        block = self.ctx.block
        count = len(block.ops)
        for stmt in stmts:
            self.ctx.visit(stmt)
        made = block.ops[count:]
        mark_nests(made)
        if self.created is not None:
            block.insert(count, self.created)
        self.name_loops(made)
        self.apply_pending(made)
        return self.created

    def name_loops(self, ops: list[Any]) -> None:
        for op in ops:
            for inner in op.walk():
                if isinstance(inner, ForOp) and inner.iv.name in self.labels:
                    self.ctx.labels.discard(inner.label)
                    inner.attrs["label"] = self.labels[inner.iv.name]
                    self.ctx.labels.add(inner.label)

    def apply_pending(self, ops: list[Any]) -> None:
        pending, self.pending = self.pending, []
        loops = [inner for op in ops for inner in op.walk() if isinstance(inner, ForOp)
                 and inner.iv.name in self.labels]
        innermost = max(loops, key=depth, default=None)
        for call in pending:
            name = call_target(call.func, self.ctx.src).__name__
            if name == "label":
                continue
            if innermost is None:
                raise self.ctx.error(f"hls.{name}() before a statement that makes no loop", call)
            saved = self.ctx.loc
            self.ctx.loc = self.ctx.src.loc(call)
            try:
                with self.ctx.in_loop(innermost):
                    self.pragmas.apply_directive(name, call)
            finally:
                self.ctx.loc = saved


def mark_nests(ops: list[Any]) -> None:
    """The loops an array statement made: the MLIR export may write them as linalg.generic."""
    for op in ops:
        if isinstance(op, ForOp):
            op.attrs["array_nest"] = True


class Reductions(ast.NodeTransformer):
    """Each scalar-valued reduction in an expression replaced by its accumulator (its loops go to `pre`)."""

    def __init__(self, elements: Elements, pre: list[ast.stmt]) -> None:
        self.elements = elements
        self.pre = pre

    def visit(self, node: ast.AST) -> Any:
        if self.elements.is_scalar_reduction(node):
            return at(self.elements.element_of(node, [], self.pre), node)
        return super().visit(node)


def depth(op: Any) -> int:
    n = 0
    while op is not None:
        op = op.parent_op()
        n += 1
    return n

