"""The golden model: the user's own statements, with the conversions the C++ performs made explicit.

The frontend records, per AST node, a `Conversion` record where Python would not compute what the
hardware computes (hls.frontend.conversions). This module applies those records, knowing only the
record kinds and the shapes of Python's statements, never which construct made them, and compiles
the function again against the user's file name, so tracebacks still point at the user's lines.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from hls.frontend.conversions import (
    BitStore,
    Call,
    Cast,
    CastEach,
    Convert,
    Expand,
    KernelFacts,
    Literal,
    Part,
    ProcessLoop,
    ProcessRecord,
    RegionRecord,
    Static,
)
from hls.frontend.source import KernelSource
from hls.golden import bits, runtime, streams

MODULES = {"rt": "__hls_rt", "bits": "__hls_bits", "st": "__hls_st"}  # Call.helper prefix -> namespace name


def part(node: ast.AST, path: str) -> Any:
    """`path` of `node`: "" is the node, "args.0" an argument, "args.*" all of them (a list)."""
    for step in path.split(".") if path else ():
        node = node if step == "*" else node[int(step)] if step.isdigit() else getattr(node, step)
    return node


class GoldenRewriter(ast.NodeTransformer):
    def __init__(self, facts: KernelFacts, file: str):
        self.records = facts.conversions.copy()  # this rewrite adds records for the nodes it makes
        self.traced = facts.traced
        self.file = file
        self.consts: dict[str, Any] = {}

    def const(self, value: Any, node: ast.AST) -> ast.Name:
        name = f"__hls_k{len(self.consts)}"
        self.consts[name] = value
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)

    def helper(self, name: str, args: list[ast.expr], node: ast.AST) -> ast.Call:
        module, func = name.split(".")
        func = ast.Attribute(value=ast.Name(id=MODULES[module], ctx=ast.Load()), attr=func, ctx=ast.Load())
        return ast.copy_location(ast.Call(func=func, args=args, keywords=[]), node)

    def call(self, record: Call, subject: ast.AST, node: ast.AST) -> ast.Call:
        """`record` applied to `subject` (the converted node, or the statement whose value it converts)."""
        args: list[ast.expr] = []
        for arg in record.args:
            if not isinstance(arg, Part):
                args.append(self.const(arg, node))
            elif arg.path.endswith("*"):
                args.extend(part(subject, arg.path))
            else:
                args.append(part(subject, arg.path))
        return self.helper(record.helper, args, node)

    def site(self, node: ast.AST) -> str:
        return f"{self.file}:{getattr(node, 'lineno', 0)}"

    def cast(self, helper: str, types: Any, value: ast.expr, node: ast.AST) -> ast.Call:
        """`value` converted to `types` as the C++ assignment at `node` converts it (wraps reported there)."""
        return self.helper(helper, [self.const(types, node), value, self.const(self.site(node), node)], node)

    def converted(self, value: ast.expr, key: ast.AST) -> ast.expr:
        """`value` as the statement (or assignment target) `key` converts it; unchanged without records."""
        for record in self.records.at(key):
            if isinstance(record, Cast):
                value = self.cast("rt.cast", record.type, value, key)
            elif isinstance(record, CastEach):
                value = self.cast("rt.cast_each", list(record.types), value, key)
            elif isinstance(record, Call):
                value = self.call(record, value, key)
        return value

    # ---- expressions ---------------------------------------------------------------------------

    def visit(self, node: ast.AST) -> Any:
        expand = self.records.get(node, Expand) if isinstance(node, ast.stmt) else None
        if expand is not None:  # the statements it stands for, each rewritten as the user's own
            out: list[ast.stmt] = []
            for stmt in expand.body:
                new = self.visit(stmt)
                out.extend(new if isinstance(new, list) else [new])
            return out
        new = super().visit(node)
        if isinstance(node, ast.expr):
            for record in self.records.at(node):
                new = self.expression(record, new, node)
        return new

    def expression(self, record: Any, new: ast.expr, node: ast.expr) -> ast.expr:
        if isinstance(record, Literal):
            return self.const(record.type.convert(record.value), node)
        if isinstance(record, Convert):  # an int the C++ casts to a float: converted as exactly (hls.types)
            return self.helper("rt.convert", [self.const(record.type, node), new], node)
        if isinstance(record, Call):
            return self.call(record, new, node)
        return new

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        # numpy scalars compare to np.bool_, whose arithmetic is not bool's (np.True_ + np.True_ is
        # True, not 2; -np.True_ raises); the hardware's comparison result is a bool (uint1)
        self.generic_visit(node)
        return self.helper("rt.boolean", [node], node)

    # ---- statements ----------------------------------------------------------------------------

    def visit_Assign(self, node: ast.Assign) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        static = self.records.get(node, Static)
        if static is not None:  # declared once per kernel object, kept across calls (runtime.State)
            make = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                 defaults=[]), body=node.value.args[0])
            declare = ast.Attribute(value=ast.Name(id="__hls_state", ctx=ast.Load()), attr="declare", ctx=ast.Load())
            call = ast.Call(func=declare, args=[ast.Constant(value=static.name), make], keywords=[])
            return ast.copy_location(ast.Expr(value=call), node)
        store = self.records.get(node, BitStore)
        if store is not None:  # `x[lo:hi] = v` -> `x = set_slice(x, lo, hi, v, T)` (or `B[i] = ...`)
            target = copy.deepcopy(node.targets[0].value)
            target.ctx = ast.Store()
            return ast.copy_location(ast.Assign(targets=[target], value=self.call(store.call, node, node)), node)
        if len(node.targets) > 1:  # `a = b = x`: x once, each target converted to its own type
            temp = ast.copy_location(ast.Name(id="__hls_chain", ctx=ast.Store()), node)
            statements: list[ast.stmt] = [ast.copy_location(ast.Assign(targets=[temp], value=node.value), node)]
            for each in node.targets:
                value = self.converted(ast.copy_location(ast.Name(id="__hls_chain", ctx=ast.Load()), node), each)
                statements.append(ast.copy_location(ast.Assign(targets=[each], value=value), node))
            return statements
        target = node.targets[0]
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)):
            node.value.elts = [self.converted(v, t) for v, t in zip(node.value.elts, target.elts, strict=True)]
            return node
        node.value = self.converted(node.value, node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(ast.Assign(targets=[node.target], value=self.converted(node.value, node)), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        """`t op= v` stays as it is unless converted; then it is `t = t op v`, its records applied to that."""
        store = self.records.get(node, BitStore)
        if store is not None:  # `x[lo:hi] op= v` -> `x[lo:hi] = x[lo:hi] op v`, then as a bit store
            target = node.target
            read = ast.copy_location(ast.Subscript(value=copy.deepcopy(target.value), slice=copy.deepcopy(target.slice),
                                                   ctx=ast.Load()), target)
            combined = ast.copy_location(ast.BinOp(left=read, op=node.op, right=node.value), node)
            assign = ast.copy_location(ast.Assign(targets=[target], value=combined), node)
            self.records.add(read, store.read)
            self.records.add(assign, store)
            return self.visit(assign)
        cast, combine = self.records.get(node, Cast), self.records.get(node, Call)
        self.generic_visit(node)
        if (cast is None and combine is None) or not isinstance(node.target, (ast.Name, ast.Subscript)):
            return node
        if isinstance(node.target, ast.Subscript) and combine is None:
            return node
        load = ast.copy_location(type(node.target)(**{**vars(node.target), "ctx": ast.Load()}), node.target)
        combined = ast.copy_location(ast.BinOp(left=load, op=node.op, right=node.value), node)
        if combine is not None:  # e.g. a variable-count shift wraps to its type, as in `x = x << n`
            combined = self.call(combine, combined, node)
        value = combined if cast is None else self.cast("rt.cast", cast.type, combined, node)
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if node.value is not None:
            node.value = self.converted(node.value, node)
        return node

    # ---- the function, loops and dataflow processes --------------------------------------------

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.decorator_list = []
        node.returns = None
        for arg in node.args.args:
            arg.annotation = None
        region = self.records.get(node, RegionRecord)
        if region is not None:
            node.body = self.dataflow_body(node.body, region)
        self.generic_visit(node)
        return node

    def dataflow_body(self, body: list[ast.stmt], region: RegionRecord) -> list[ast.stmt]:
        """Each process statement becomes a nested function; the region ends in one
        `run_dataflow` call that runs them concurrently (hls.golden.streams)."""
        out: list[ast.stmt] = []
        entries = []
        for stmt in body:
            process = self.records.get(stmt, ProcessRecord)
            loop = self.records.get(stmt, ProcessLoop)
            if loop is not None:
                entries += self.process_loop(stmt, loop, out)
                continue
            if process is None:
                out.append(stmt)
                continue
            fname = f"__hls_process_{len(out)}"
            out.append(ast.copy_location(ast.FunctionDef(name=fname, args=_params(), body=[stmt], decorator_list=[],
                                                         returns=None), stmt))
            entries.append(ast.Tuple(elts=[ast.Constant(process.name), ast.Name(fname, ast.Load()),
                                           ast.Constant(process.after), ast.Constant(process.task)], ctx=ast.Load()))
        fifos = [ast.Name(name, ast.Load()) for name in region.streams]
        call = ast.Call(func=ast.Attribute(ast.Name("__hls_st", ast.Load()), "run_dataflow", ast.Load()),
                        args=[ast.List(entries, ast.Load()), ast.List(fifos, ast.Load())], keywords=[])
        run = ast.copy_location(ast.Expr(call), body[-1])
        if isinstance(out[-1], ast.Return):
            out.insert(len(out) - 1, run)
        else:
            out.append(run)
        return out

    def process_loop(self, stmt: ast.For, loop: ProcessLoop, out: list[ast.stmt]) -> list[ast.expr]:
        """A loop of processes unrolled when the design was built: one function per call of its body, taking
        the loop variable, and one process per (value, call), the value bound by a default argument."""
        funcs = {}
        for index in sorted({entry[1] for entry in loop.entries}):
            funcs[index] = fname = f"__hls_process_{len(out)}"
            out.append(ast.copy_location(ast.FunctionDef(name=fname, args=_params(loop.var), body=[stmt.body[index]],
                                                         decorator_list=[], returns=None), stmt))
        entries = []
        for value, index, name, after in loop.entries:
            call = ast.Call(ast.Name(funcs[index], ast.Load()), [ast.Name("__hls_v", ast.Load())], [])
            bound = ast.Lambda(args=_params("__hls_v", ast.Constant(value)), body=call)
            entries.append(ast.Tuple(elts=[ast.Constant(name), bound, ast.Constant(after)], ctx=ast.Load()))
        return entries

    def stream_hook(self, name: str, node: ast.AST) -> ast.Expr:
        key = ast.Tuple([ast.Constant(self.file), ast.Constant(node.lineno)], ast.Load())
        func = ast.Attribute(ast.Name("__hls_st", ast.Load()), name, ast.Load())
        return ast.copy_location(ast.Expr(ast.Call(func, [key], [])), node)

    def visit_For(self, node: ast.For) -> ast.AST | list[ast.stmt]:
        """In kernels with streams, loops tell the trace where each iteration starts (for timing)."""
        self.generic_visit(node)
        if not self.traced:
            return node
        node.body.insert(0, self.stream_hook("loop_iter", node))
        return [self.stream_hook("loop_enter", node), node, self.stream_hook("loop_exit", node)]


def _params(name: str | None = None, default: ast.expr | None = None) -> ast.arguments:
    """No parameters, or one (with its default)."""
    args = [ast.arg(name)] if name else []
    defaults = [default] if default else []
    return ast.arguments(posonlyargs=[], args=args, kwonlyargs=[], kw_defaults=[], defaults=defaults)


class StaticNames(ast.NodeTransformer):
    """Every use of a static local reads and writes the kernel's state object instead."""

    def __init__(self, names: set[str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.names:
            return node
        state = ast.copy_location(ast.Name(id="__hls_state", ctx=ast.Load()), node)
        return ast.copy_location(ast.Attribute(value=state, attr=node.id, ctx=node.ctx), node)


def make_golden(src: KernelSource, facts: KernelFacts, state: runtime.State | None = None) -> Callable[..., Any]:
    """Compile the rewritten kernel; captured numpy arrays are seen through read-only typed views."""
    tree = src.tree  # the records are keyed by the builder's own nodes, so the rewrite must see the same tree
    rewriter = GoldenRewriter(facts, src.file)
    fdef = rewriter.visit(tree)
    statics = {record.name for _, record in facts.conversions.of_kind(Static)}
    if statics:
        fdef = StaticNames(statics).visit(fdef)
    module = ast.Module(body=[fdef], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace = dict(src.namespace)
    for name, value in src.namespace.items():
        if isinstance(value, (np.integer, np.bool_)):
            # the frontend reads a captured numpy integer as an exact constant (as a literal);
            # numpy's own fixed-width scalar arithmetic would wrap, raise or add bools like `or`
            namespace[name] = value.item()
    for name, t in facts.captured_arrays.items():
        namespace[name] = runtime.ArrayView(np.asarray(src.namespace[name]), t.elem, readonly=True, name=name)
    namespace.update(rewriter.consts)
    namespace["__hls_rt"] = runtime
    namespace["__hls_st"] = streams
    namespace["__hls_state"] = state if state is not None else runtime.State()
    namespace["__hls_bits"] = bits
    code = compile(module, src.file, "exec")
    exec(code, namespace)  # noqa: S102 - the user's own kernel, rewritten
    golden = namespace[fdef.name]
    runtime.GOLDEN_CODES.add(golden.__code__)
    for const in golden.__code__.co_consts:  # the processes of a dataflow region (nested functions)
        if hasattr(const, "co_code") and const.co_name.startswith("__hls_process_"):
            runtime.GOLDEN_CODES.add(const)
    return golden
