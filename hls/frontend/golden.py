"""The golden model: the user's own statements, with the conversions the C++ performs made explicit.

The frontend records, per AST node, where the hardware converts (assignments to typed locals,
returns, typed float literals, integer true division, variable left shifts, math overloads). This
module rewrites exactly those nodes into calls of hls.runtime helpers and compiles the function
again against the user's file name, so tracebacks still point at the user's lines.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from hls import bits, runtime, streams
from hls.frontend.builder import GoldenInfo
from hls.frontend.source import KernelSource


class GoldenRewriter(ast.NodeTransformer):
    def __init__(self, info: GoldenInfo, file: str):
        self.info = info
        self.file = file
        self.consts: dict[str, Any] = {}
        self.made: dict[int, tuple[ast.AST, tuple]] = {}  # bit-access nodes this rewrite creates, by id

    def bit_entry(self, node: ast.AST) -> tuple | None:
        """What hls.bits function replaces `node` (recorded by the frontend, or made by this rewrite)."""
        made = self.made.get(id(node))
        return made[1] if made is not None and made[0] is node else self.info.bit_nodes.get(id(node))

    def const(self, value: Any, node: ast.AST) -> ast.Name:
        name = f"__hls_k{len(self.consts)}"
        self.consts[name] = value
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)

    def helper(self, name: str, args: list[ast.expr], node: ast.AST) -> ast.Call:
        func = ast.Attribute(value=ast.Name(id="__hls_rt", ctx=ast.Load()), attr=name, ctx=ast.Load())
        return ast.copy_location(ast.Call(func=func, args=args, keywords=[]), node)

    def cast(self, value: ast.expr, t: Any, node: ast.AST) -> ast.Call:
        site = f"{self.file}:{getattr(node, 'lineno', 0)}"
        return self.helper("cast", [self.const(t, node), value, self.const(site, node)], node)

    def visit(self, node: ast.AST) -> Any:
        key = id(node)
        new = super().visit(node)
        t = self.info.int_to_float.get(key)
        if t is not None:  # an int the C++ casts to a float: convert it as exactly (hls.types)
            return self.helper("convert", [self.const(t, node), new], node)
        return new

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.decorator_list = []
        node.returns = None
        for arg in node.args.args:
            arg.annotation = None
        if self.info.processes and not node.name.startswith("__hls_process_"):
            node.body = self.dataflow_body(node.body)
        self.generic_visit(node)
        return node

    def dataflow_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Each process statement becomes a nested function; the region ends in one
        `run_dataflow` call that runs them concurrently (hls.streams)."""
        processes = {key: (name, after) for key, name, after in self.info.processes}
        out: list[ast.stmt] = []
        entries = []
        for stmt in body:
            if id(stmt) not in processes:
                out.append(stmt)
                continue
            name, after = processes[id(stmt)]
            fname = f"__hls_process_{len(entries)}"
            args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
            out.append(ast.copy_location(ast.FunctionDef(name=fname, args=args, body=[stmt], decorator_list=[],
                                                         returns=None), stmt))
            entries.append(ast.Tuple(elts=[ast.Constant(name), ast.Name(fname, ast.Load()),
                                           ast.Constant(tuple(after))], ctx=ast.Load()))
        streams = [ast.Name(name, ast.Load()) for name in self.info.stream_names.values()]
        call = ast.Call(func=ast.Attribute(ast.Name("__hls_st", ast.Load()), "run_dataflow", ast.Load()),
                        args=[ast.List(entries, ast.Load()), ast.List(streams, ast.Load())], keywords=[])
        last = body[-1]
        run = ast.copy_location(ast.Expr(call), last)
        if isinstance(out[-1], ast.Return):
            out.insert(len(out) - 1, run)
        else:
            out.append(run)
        return out

    def stream_hook(self, name: str, node: ast.AST) -> ast.Expr:
        key = ast.Tuple([ast.Constant(self.file), ast.Constant(node.lineno)], ast.Load())
        func = ast.Attribute(ast.Name("__hls_st", ast.Load()), name, ast.Load())
        return ast.copy_location(ast.Expr(ast.Call(func, [key], [])), node)

    def visit_For(self, node: ast.For) -> ast.AST | list[ast.stmt]:
        """In kernels with streams, loops tell the trace where each iteration starts (for timing)."""
        self.generic_visit(node)
        if not self.info.traced:
            return node
        node.body.insert(0, self.stream_hook("loop_iter", node))
        return [self.stream_hook("loop_enter", node), node, self.stream_hook("loop_exit", node)]

    def bits(self, name: str, args: list[ast.expr], node: ast.AST) -> ast.Call:
        func = ast.Attribute(value=ast.Name(id="__hls_bits", ctx=ast.Load()), attr=name, ctx=ast.Load())
        return ast.copy_location(ast.Call(func=func, args=args, keywords=[]), node)

    def bit_store(self, node: ast.Assign, entry: tuple) -> ast.Assign:
        """`x[lo:hi] = v` -> `x = set_slice(x, lo, hi, v, T)` (and `B[i] = ...` for an element)."""
        target = node.targets[0]
        base = target.value
        store = copy.deepcopy(base)
        store.ctx = ast.Store()
        if entry[0] == "set_slice":
            args = [base, self.const(entry[2], node), self.const(entry[3], node)]
        else:
            args = [base, target.slice]
        value = self.bits(entry[0], [*args, node.value, self.const(entry[1], node)], node)
        return ast.copy_location(ast.Assign(targets=[store], value=value), node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        entry = self.bit_entry(node)
        self.generic_visit(node)
        if entry is None:
            return node
        if entry[0] == "get_slice":
            return self.bits("get_slice", [node.value, *(self.const(c, node) for c in entry[2:]),
                                           self.const(entry[1], node)], node)
        return self.bits("get_bit", [node.value, node.slice, self.const(entry[1], node)], node)

    def bit_call(self, node: ast.Call, entry: tuple) -> ast.Call:
        kind = entry[0]
        if kind == "method":
            name = {"bit_count": "bit_count", "reverse": "reverse"}[entry[1]]
            return self.bits(name, [node.func.value, self.const(entry[2], node)], node)
        if kind == "bitcast":
            value = node.args[0] if node.args else node.func.value
            return self.bits("bitcast_value", [value, self.const(entry[1], node), self.const(entry[2], node)],
                             node)
        if kind == "concat":
            return self.bits("concat_values", [self.const(entry[1], node), *node.args], node)
        if kind in ("rotl", "rotr"):
            return self.bits(kind, [*node.args, self.const(entry[1], node)], node)
        return self.bits("leading_zeros", [node.args[0], self.const(entry[1], node)], node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST | list[ast.stmt]:
        name = self.info.statics.get(id(node))
        if name is not None:  # declared once per kernel object, kept across calls (runtime.State)
            self.generic_visit(node)
            make = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                 defaults=[]), body=node.value.args[0])
            declare = ast.Attribute(value=ast.Name(id="__hls_state", ctx=ast.Load()), attr="declare", ctx=ast.Load())
            call = ast.Call(func=declare, args=[ast.Constant(value=name), make], keywords=[])
            return ast.copy_location(ast.Expr(value=call), node)
        types = self.info.unpack_types.get(id(node))
        elem = self.info.array_views.get(id(node.value))
        if types is not None or elem is not None:  # a sub-kernel's tuple or array result
            self.generic_visit(node)
            if types is not None:
                node.value = self.cast_each(node.value, types, node)
            else:
                node.value = self.helper("array_view", [node.value, self.const(elem, node)], node)
            return node
        self.generic_visit(node)
        entry = self.bit_entry(node)
        if entry is not None:
            return self.bit_store(node, entry)
        target = node.targets[0]
        if len(node.targets) > 1:  # `a = b = x`: x once, each target converted to its own type
            temp = ast.copy_location(ast.Name(id="__hls_chain", ctx=ast.Store()), node)
            statements: list[ast.stmt] = [ast.copy_location(ast.Assign(targets=[temp], value=node.value), node)]
            for each in node.targets:
                value = self.assigned(ast.copy_location(ast.Name(id="__hls_chain", ctx=ast.Load()), node), each)
                statements.append(ast.copy_location(ast.Assign(targets=[each], value=value), node))
            return statements
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)):
            node.value.elts = [self.assigned(v, t) for v, t in zip(node.value.elts, target.elts, strict=True)]
            return node
        node.value = self.assigned(node.value, node)
        return node

    def assigned(self, value: ast.expr, key: ast.AST) -> ast.expr:
        """`value` converted as the assignment recorded at `key` converts it (or unchanged)."""
        t = self.info.assign_types.get(id(key))
        return self.cast(value, t, key) if t is not None else value

    def cast_each(self, value: ast.expr, types: list[Any], node: ast.AST) -> ast.Call:
        site = f"{self.file}:{getattr(node, 'lineno', 0)}"
        return self.helper("cast_each", [self.const(types, node), value, self.const(site, node)], node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        t = self.info.assign_types.get(id(node))
        self.generic_visit(node)
        value = self.cast(node.value, t, node) if t is not None else node.value
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        entry = self.bit_entry(node)
        if entry is not None:  # `x[lo:hi] op= v` -> `x[lo:hi] = x[lo:hi] op v`, then as a bit store
            target = node.target
            read = ast.copy_location(ast.Subscript(value=copy.deepcopy(target.value), slice=copy.deepcopy(target.slice),
                                                   ctx=ast.Load()), target)
            getter = ("get_slice", *entry[1:]) if entry[0] == "set_slice" else ("get_bit", entry[1])
            combined = ast.copy_location(ast.BinOp(left=read, op=node.op, right=node.value), node)
            assign = ast.copy_location(ast.Assign(targets=[target], value=combined), node)
            self.made[id(read)], self.made[id(assign)] = (read, getter), (assign, entry)  # the nodes stay alive
            return self.visit(assign)
        t = self.info.assign_types.get(id(node))
        shl_type = self.info.var_shl.get(id(node))
        self.generic_visit(node)
        if (t is None and shl_type is None) or not isinstance(node.target, (ast.Name, ast.Subscript)):
            return node
        if isinstance(node.target, ast.Subscript) and shl_type is None:
            return node
        load = ast.copy_location(type(node.target)(**{**vars(node.target), "ctx": ast.Load()}), node.target)
        combined = ast.copy_location(ast.BinOp(left=load, op=node.op, right=node.value), node)
        if shl_type is not None:  # a variable-count shift wraps to its type, as in `x = x << n`
            combined = self.helper("shl", [load, node.value, self.const(shl_type, node)], node)
        value = self.cast(combined, t, node) if t is not None else combined
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        types = self.info.unpack_types.get(id(node))
        self.generic_visit(node)
        if node.value is None or self.info.return_type is None:
            return node
        if types is not None:
            node.value = self.cast_each(node.value, types, node)
        elif self.info.array_return is not None:
            node.value = self.helper("array_result", [node.value], node)
        else:
            node.value = self.cast(node.value, self.info.return_type, node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        t = self.info.float_literals.get(id(node))
        return self.const(t.convert(node.value), node) if t is not None else node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        t = self.info.float_literals.get(id(node))
        if t is not None:  # a negative float literal folded by the frontend
            return self.const(t.convert(-node.operand.value), node)
        self.generic_visit(node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        # numpy scalars compare to np.bool_, whose arithmetic is not bool's (np.True_ + np.True_ is
        # True, not 2; -np.True_ raises); the hardware's comparison result is a bool (uint1)
        self.generic_visit(node)
        return self.helper("boolean", [node], node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        key = id(node)
        self.generic_visit(node)
        if key in self.info.int_true_div:
            return self.helper("truediv", [node.left, node.right], node)
        fixed = self.info.fixed_div.get(key)
        if fixed is not None:
            return self.helper("fixed_div", [node.left, node.right, self.const(fixed, node)], node)
        shl_type = self.info.var_shl.get(key)
        if shl_type is not None:
            return self.helper("shl", [node.left, node.right, self.const(shl_type, node)], node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        key = id(node)
        self.generic_visit(node)
        name = self.info.stream_names.get(key)
        if name is not None:  # hls.stream(T, depth=N): a FIFO that knows its name
            given = [kw.value for kw in node.keywords if kw.arg == "depth"] + node.args[1:]
            depth = given[0] if given else ast.Constant(2)
            func = ast.Attribute(ast.Name("__hls_st", ast.Load()), "local_stream", ast.Load())
            return ast.copy_location(ast.Call(func, [node.args[0], depth, ast.Constant(name)], []), node)
        entry = self.bit_entry(node)
        if entry is not None:
            return self.bit_call(node, entry)
        printed = self.info.prints.get(key)
        if printed is not None:  # formatted exactly as the C++ printf does
            types, sep, end = printed
            return self.helper("kernel_print", [self.const(types, node), self.const(sep, node), self.const(end, node),
                                                *node.args], node)
        t = self.info.arg_casts.get(key)
        if t is not None:  # int(x): Python truncates toward zero, as the C++ conversion does
            return self.helper("convert", [self.const(t, node), node.args[0]], node)
        entry = self.info.math_calls.get(key)
        if entry is not None:
            name, t = entry
            args = [ast.Constant(value=name), self.const(t, node), *node.args]
            return self.helper("math_call", args, node)
        t = self.info.value_types.get(key)
        if t is not None:
            return self.helper("convert", [self.const(t, node), node], node)
        return node


class StaticNames(ast.NodeTransformer):
    """Every use of a static local reads and writes the kernel's state object instead."""

    def __init__(self, names: set[str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id not in self.names:
            return node
        state = ast.copy_location(ast.Name(id="__hls_state", ctx=ast.Load()), node)
        return ast.copy_location(ast.Attribute(value=state, attr=node.id, ctx=node.ctx), node)


def make_golden(src: KernelSource, info: GoldenInfo, state: runtime.State | None = None) -> Callable[..., Any]:
    """Compile the rewritten kernel; captured numpy arrays are seen through read-only typed views."""
    tree = src.tree  # the rewriter keys on the ids the builder recorded, so it must see the same nodes
    rewriter = GoldenRewriter(info, src.file)
    fdef = rewriter.visit(tree)
    if info.statics:
        fdef = StaticNames(set(info.statics.values())).visit(fdef)
    module = ast.Module(body=[fdef], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace = dict(src.namespace)
    for name, value in src.namespace.items():
        if isinstance(value, (np.integer, np.bool_)):
            # the frontend reads a captured numpy integer as an exact constant (as a literal);
            # numpy's own fixed-width scalar arithmetic would wrap, raise or add bools like `or`
            namespace[name] = value.item()
    for name, t in info.captured_arrays.items():
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

