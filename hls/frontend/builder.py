"""The frontend visitor: one `visit_<AstClass>` per supported Python construct, producing typed IR.

`visit()` is the only place that sets the current location, so every error points at the node.
Alongside the IR it records, per AST node, what the golden model (hls.frontend.golden) must do to
mean exactly what the C++ does (casts at assignments, typed float literals, ...).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from hls.errors import HLSError, HLSTypeError, Loc, UnsupportedError
from hls.frontend import results
from hls.frontend.lower import Lowering, float64
from hls.frontend.scan import assigned_names
from hls.frontend.source import MISSING, KernelSource, call_target, static_eval, try_static
from hls.frontend.tables import BINOPS, BOOLOPS, CMPOPS, UNOPS, UNSUPPORTED
from hls.ir import (
    AllocOp,
    Block,
    ConstantOp,
    ForOp,
    Function,
    LoadOp,
    Module,
    ReturnOp,
    RomOp,
    StoreOp,
    Value,
)
from hls.ir.core import Op
from hls.types import (
    ArrayType,
    BoolType,
    FixedType,
    FloatType,
    HLSType,
    IntType,
    ScalarType,
    StreamType,
)


@dataclass(frozen=True)
class ArrayShape:
    """What a compile-time expression sees of a kernel array: `a.shape`, `a.ndim`, `len(a)`."""

    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __len__(self) -> int:
        return self.shape[0]


@dataclass
class Var:
    value: Value
    type: HLSType
    is_array: bool = False
    is_iv: bool = False
    cell: bool = False  # a scalar static: `value` is its one-element memory
    prefix: tuple[Value, ...] = ()  # a row of a parent array (`for row in a`): the indices already taken


@dataclass
class GoldenInfo:
    """What the golden model needs to know about AST nodes (keyed by id(node))."""

    assign_types: dict[int, ScalarType] = field(default_factory=dict)
    float_literals: dict[int, FloatType] = field(default_factory=dict)
    int_true_div: set[int] = field(default_factory=set)
    var_shl: dict[int, IntType] = field(default_factory=dict)
    math_calls: dict[int, tuple[str, FloatType]] = field(default_factory=dict)
    value_types: dict[int, ScalarType] = field(default_factory=dict)
    arg_casts: dict[int, IntType] = field(default_factory=dict)  # int(x): the call becomes a conversion of x
    prints: dict[int, tuple] = field(default_factory=dict)  # print(): (type or None per argument, sep, end)
    fixed_div: dict[int, FixedType] = field(default_factory=dict)  # results Python would leave untyped
    int_to_float: dict[int, FloatType] = field(default_factory=dict)  # ints the C++ casts to a float
    return_type: HLSType | None = None
    unpack_types: dict[int, list[ScalarType]] = field(default_factory=dict)  # tuple returns and unpacking
    array_views: dict[int, ScalarType] = field(default_factory=dict)  # sub-kernel calls returning arrays
    statics: dict[int, str] = field(default_factory=dict)  # `x = hls.static(...)` statements
    array_return: ArrayType | None = None
    callees: list[Any] = field(default_factory=list)  # kernels called (their state resets with ours)
    bit_nodes: dict[int, tuple] = field(default_factory=dict)  # bit access: (hls.bits function, its constants)
    arg_types: list[HLSType] = field(default_factory=list)
    arg_names: list[str] = field(default_factory=list)
    captured_arrays: dict[str, ArrayType] = field(default_factory=dict)
    traced: bool = False  # the kernel touches streams: its loops mark iterations in the dataflow trace
    stream_names: dict[int, str] = field(default_factory=dict)  # hls.stream(T) calls: the declared name
    processes: list[tuple] = field(default_factory=list)  # dataflow region: (id(stmt), name, names it waits for)


def is_kernel(obj: Any) -> bool:
    return getattr(obj, "__hls_kernel__", None) is not None


class FunctionBuilder(ast.NodeVisitor):
    """Builds one Function from one kernel's AST."""

    def __init__(self, src: KernelSource, module: Module, compiling: tuple[Any, ...]):
        self.src = src
        self.module = module
        self.compiling = compiling
        self.loc: Loc | None = src.loc(src.tree)
        self.block: Block | None = None
        self.env: dict[str, Var] = {}
        self.loops: list[ForOp] = []
        self.labels: set[str] = set()
        self.user_labels: set[str] = set()
        self.label_slot: ast.stmt | None = None  # the statement where hls.label may name the innermost loop
        self.loop_locals: set[str] = set()
        self.roms: dict[str, Value] = {}
        self.info = GoldenInfo()
        self.lower = Lowering(self.emit)
        self.func: Function | None = None
        self.result_name: str | None = None  # the local an array-returning kernel returns
        self.early_return = False  # a `return` before the end: results go through hls.frontend.control
        # every name the kernel binds (Python makes them local throughout the function) ...
        self.kernel_names = {a.arg for a in src.tree.args.args} | assigned_names(src.tree.body)
        self.consts: dict[str, Any] = {}  # ... except these, bound to compile-time values (tuple loops)

    # ---- infrastructure ----------------------------------------------------------------------

    def emit(self, op: Op) -> Value | None:
        self.block.append(op)
        return op.results[0] if len(op.results) == 1 else None

    def visit(self, node: ast.AST) -> Any:
        saved = self.loc
        if hasattr(node, "lineno"):
            self.loc = self.src.loc(node)
        try:
            return super().visit(node)
        except HLSError:
            raise
        except RecursionError:
            raise UnsupportedError("expression nested too deeply", self.loc) from None
        except Exception as exc:  # a bug in the compiler must still point at the user's line
            raise UnsupportedError(f"internal compiler error on this construct ({type(exc).__name__}: {exc}); "
                                   "please report it", self.loc) from exc
        finally:
            self.loc = saved

    def generic_visit(self, node: ast.AST) -> Any:
        message = UNSUPPORTED.get(type(node), f"Python construct `{type(node).__name__}` is not supported "
                                                "in kernels")
        raise UnsupportedError(message, self.loc)

    def error(self, message: str, node: ast.AST | None = None, cls: type[HLSError] = HLSTypeError) -> HLSError:
        return cls(message, self.src.loc(node) if node is not None else self.loc)

    # ---- the function --------------------------------------------------------------------------

    def build(self) -> Function:
        tree = self.src.tree
        self.check_signature(tree.args)
        types, names = [], []
        for arg in tree.args.args:
            if arg.annotation is None:
                raise self.error(f"argument {arg.arg!r} needs a type annotation, e.g. `{arg.arg}: hls.int32` "
                                 "or `hls.float32[64]`", arg)
            types.append(self.annotation(arg.annotation, f"argument {arg.arg!r}", allow_array=True,
                                         resolved=self.src.annotations.get(arg.arg, MISSING)))
            names.append(arg.arg)
        ret = None
        if tree.returns is not None and not (isinstance(tree.returns, ast.Constant) and tree.returns.value is None):
            ret = results.return_annotation(self, tree.returns, self.src.annotations.get("return", MISSING))
        self.info.arg_types, self.info.arg_names, self.info.return_type = list(types), list(names), ret
        if isinstance(ret, ArrayType):  # the returned local is an output argument (hls.frontend.results)
            self.result_name = results.returned_array_name(self, tree)
            types, names = [*types, ret], [*names, self.result_name]
        self.func = Function(self.src.name, types, names, ret, self.src.loc(tree))
        self.info.traced = any(isinstance(t, StreamType) for t in types)
        if self.result_name is not None:
            self.func.attrs["result_array"] = self.result_name
        self.block = self.func.body.block
        for arg, t, name in zip(self.func.args, types, names, strict=True):
            if name != self.result_name:
                self.env[name] = Var(arg, t, is_array=isinstance(t, ArrayType))
        body = tree.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        from hls.frontend import control
        from hls.frontend.dataflow import build_region, region_start

        if ret is not None and not control.always_returns(body):
            raise self.error(f"kernel declares a return type {ret} but does not end with `return`", tree)
        region = region_start(self, body)
        if region is not None:
            build_region(self, body, region)
        elif control.has_early_return(body):
            results.refuse_early_return(self, ret, body)
            control.start_function(self)
            self.visit_body(body)
            self.emit(ReturnOp([self.env[control.RESULT].value] if ret is not None else [], self.loc))
            return self.func
        else:
            for stmt in body:
                self.visit(stmt)
        if not (self.block.ops and isinstance(self.block.ops[-1], ReturnOp)):
            self.emit(ReturnOp([], self.loc))
        return self.func

    def check_signature(self, args: ast.arguments) -> None:
        if args.vararg or args.kwarg:
            node = args.vararg or args.kwarg
            raise self.error("`*args`/`**kwargs` are not supported: every argument needs a fixed type", node,
                             UnsupportedError)
        if args.kwonlyargs or args.posonlyargs:
            raise self.error("keyword-only and positional-only arguments are not supported", self.src.tree,
                             UnsupportedError)
        if args.defaults:
            raise self.error("default argument values are not supported", args.defaults[0], UnsupportedError)

    def annotation(self, node: ast.AST, what: str, allow_array: bool, resolved: Any = MISSING) -> HLSType:
        """The hls type an annotation names; `resolved` is the value Python itself evaluated, if any."""
        value = resolved
        if value is MISSING:
            try:
                value = static_eval(node, self.src, f"the annotation of {what}")
            except UnsupportedError as exc:
                raise HLSTypeError(exc.message, exc.loc) from None
        if value in (int, float, bool):
            raise self.error(f"{what}: Python `{value.__name__}` has no fixed width; use an hls type such as "
                             "hls.int32, hls.float32 or hls.bool_", node)
        if isinstance(value, ScalarType) or (allow_array and isinstance(value, (ArrayType, StreamType))):
            return value
        from hls.frontend.source import not_a_type

        raise self.error(not_a_type(value, what), node)

    def compile_time(self, node: ast.AST, what: str = "expression") -> Any:
        """`node`'s value if it is a compile-time constant (names of the module or the enclosing
        function, constants, pure builtins, array shapes), else MISSING."""
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and child.id in self.kernel_names and child.id not in self.consts \
                    and not (child.id in self.env and self.env[child.id].is_array and not self.env[child.id].cell):
                return MISSING
        try:
            return self.static(node, what)
        except HLSError:
            return MISSING

    def static(self, node: ast.AST, what: str) -> Any:
        """static_eval where kernel arrays show their shape (`a.shape[0]`, `a.ndim`, `len(a)`) and
        tuple-loop variables their value; kernel variables are not compile-time constants."""
        overlay = {name: ArrayShape(var.type.shape) for name, var in self.env.items() if var.is_array and not var.cell}
        for child in ast.walk(node):
            if isinstance(child, ast.Name) and child.id in self.kernel_names and child.id not in overlay \
                    and child.id not in self.consts:
                raise self.error(f"{child.id!r} is a kernel variable, not a compile-time constant, in {what}", child)
        src = replace(self.src, namespace={**self.src.namespace, **overlay, **self.consts})
        return static_eval(node, src, what)

    # ---- statements ----------------------------------------------------------------------------

    def visit_body(self, stmts: list[ast.stmt]) -> None:
        from hls.frontend.control import lower_body

        lower_body(self, stmts)

    def visit_While(self, node: ast.While) -> None:
        from hls.frontend.control import lower_while

        lower_while(self, node)

    def visit_Break(self, node: ast.Break) -> None:
        from hls.frontend.control import BREAK, lower_break

        lower_break(self, node, BREAK)

    def visit_Continue(self, node: ast.Continue) -> None:
        from hls.frontend.control import CONTINUE, lower_break

        lower_break(self, node, CONTINUE)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Call):
            target = call_target(call.func, self.src)
            from hls.directives import DIRECTIVES

            if target is not MISSING and DIRECTIVES.get(getattr(target, "__name__", None)) is target:
                from hls.frontend.pragmas import apply_directive

                apply_directive(self, target.__name__, call)
                return
            if is_kernel(target):
                self.call_kernel(target, call, want_result=False)
                return
            from hls.frontend import streams

            if streams.stream_method(self, call) is not None:
                streams.lower_method(self, call, statement=True)
                return
            if target is print:
                from hls.frontend.calls import lower_print

                lower_print(self, call)
                return
            self.expr(call)  # unsupported calls raise their own, more specific error
        if isinstance(call, ast.Constant) and isinstance(call.value, str):
            return  # a string used as a comment
        if not isinstance(call, ast.Call):
            self.visit(call)  # unsupported expressions (yield, await, ...) raise their own error
        raise self.error("this expression statement has no effect in hardware; only directive and "
                         "sub-kernel calls may stand alone", node, UnsupportedError)

    def visit_Return(self, node: ast.Return) -> None:
        ret = self.func.return_type
        if node.value is None:
            if ret is not None:
                raise self.error(f"kernel must return a {ret}", node)
            if self.early_return:
                from hls.frontend.control import lower_return

                lower_return(self, None)
                return
            self.emit(ReturnOp([], self.loc))
            return
        if ret is None:
            raise self.error("kernel returns a value but has no return annotation (e.g. `-> hls.int32`)", node)
        if results.lower_return(self, node):
            return
        value = self.lower.assign(self.expr(node.value), ret, self.loc, "return value")
        if self.early_return:
            from hls.frontend.control import lower_return

            lower_return(self, value)
            return
        self.emit(ReturnOp([value], self.loc))

    def visit_Assign(self, node: ast.Assign) -> None:
        from hls.frontend import streams

        if len(node.targets) == 1 and results.is_static_call(self, node.value):
            results.bind_static(self, node)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.is_zeros_call(node.value):
            self.bind_local_array(node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and streams.is_stream_decl(self,
                                                                                                     node.value):
            streams.bind_local_stream(self, node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and results.returns_array(self, node.value):
            results.assign_array_call(self, node.targets[0], node.value)
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and results.is_kernel_call(self, node.value):
            results.lower_unpack(self, node)  # `q, r = divmod_k(a, b)`
            return
        if len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)):
            if streams.unpack_read_nb(self, node.targets[0], node.value):
                return
            self.unpack(node.targets[0], node.value)
            return
        value = self.expr(node.value)  # `a = b = x`: x once, then each target converts it to its own type
        for target in node.targets:
            self.assign_target(target, value, node if len(node.targets) == 1 else target)

    def unpack(self, target: ast.Tuple | ast.List, value_node: ast.AST) -> None:
        """`a, b = b, a + b`: every value on the right first, then the assignments, left to right."""
        if not isinstance(value_node, (ast.Tuple, ast.List)):
            raise self.error("tuple unpacking needs a tuple of values on the right, e.g. `a, b = b, a + b`",
                             value_node, UnsupportedError)
        if len(target.elts) != len(value_node.elts) or any(isinstance(e, ast.Starred)
                                                            for e in (*target.elts, *value_node.elts)):
            raise self.error(f"cannot unpack {len(value_node.elts)} values into {len(target.elts)} names",
                             target, HLSTypeError)
        values = [self.expr(v) for v in value_node.elts]
        for element, value in zip(target.elts, values, strict=True):
            self.assign_target(element, value, element)

    def assign_target(self, target: ast.AST, value: Value, key: ast.AST) -> None:
        """One target of an assignment; `key` is the node Python mode converts at (statement or target)."""
        if isinstance(target, ast.Subscript):
            from hls.frontend.bits import is_bit_access, store_bits

            if not is_bit_access(self, target):
                self.store(target, value)
            elif isinstance(key, ast.Assign):
                store_bits(self, target, value, key)
            else:
                raise self.error("assign bits in a statement of their own (`x[0:4] = v`), not in unpacking or "
                                 "chained assignment", target, UnsupportedError)
        elif isinstance(target, ast.Name):
            self.assign_name(target, value, None, key)
        else:
            raise self.error("only variables and array elements can be assigned", target, UnsupportedError)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.error("annotated assignment needs a plain variable", node.target, UnsupportedError)
        declared = self.annotation(node.annotation, f"variable {node.target.id!r}", allow_array=False)
        if node.value is None:
            raise self.error(f"variable {node.target.id!r} needs an initial value", node, UnsupportedError)
        existing = self.env.get(node.target.id)
        if existing is not None and existing.type != declared:
            raise self.error(f"{node.target.id!r} is already a {existing.type}; it cannot be redeclared as "
                             f"{declared}", node)
        self.assign_name(node.target, self.expr(node.value), declared, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        kind = BINOPS.get(type(node.op))
        if kind is None:
            raise self.error("unsupported augmented operator", node, UnsupportedError)
        if isinstance(node.target, ast.Subscript):
            from hls.frontend.bits import is_bit_access

            if is_bit_access(self, node.target):
                from hls.frontend.bits import augment_bits

                augment_bits(self, node, kind)
                return
            memref, indices = self.access(node.target)
            old = self.emit(LoadOp(memref, indices, self.loc))
            self.store_value(memref, indices, self.augmented(kind, old, node.value, node))
            return
        if not isinstance(node.target, ast.Name):
            raise self.error("only variables and array elements can be updated", node.target, UnsupportedError)
        current = self.read_name(node.target)
        self.assign_name(node.target, self.augmented(kind, current, node.value, node), None, node)

    def augmented(self, kind: str, current: Value, value_node: ast.AST, node: ast.AugAssign) -> Value:
        value = self.expr(value_node)
        result = self.lower.binary(kind, current, value, self.loc)
        if kind == "shl" and not isinstance(getattr(value, "op", None), ConstantOp):
            self.info.var_shl[id(node)] = result.type  # `x <<= n` wraps in the shift, as `x = x << n`
        self.note_literals(value_node, (value_node, value), result)  # `x32 *= 0.1` multiplies by 0.1f
        if kind in ("add", "sub", "mul", "div"):
            self.note_int_to_float(result.type, (value_node, value))
        return result

    def adopt_literals(self, target: Any, *pairs: tuple[ast.AST, Value]) -> None:
        """Float literals among `pairs` take `target`'s precision in Python mode, as the lowering gave
        them in C++ (`x32 == 0.1` compares with 0.1f; a float64 0.1 would never equal a float32)."""
        if isinstance(target, FloatType):
            for child, value in pairs:
                if id(child) in self.info.float_literals and isinstance(value.type, FloatType):
                    self.info.float_literals[id(child)] = target

    def note_int_to_float(self, target: Any, *pairs: tuple[ast.AST, Value]) -> None:
        """Ints meeting a float are cast to it by the C++; Python mode converts them the same way
        (left to numpy, a wide Python int is rounded to float64 first, then to float32 again)."""
        if isinstance(target, FloatType):
            for child, value in pairs:
                if isinstance(value.type, (IntType, BoolType)):
                    self.info.int_to_float[id(child)] = target

    def assign_name(self, target: ast.Name, value: Value, declared: ScalarType | None, node: ast.AST) -> None:
        name = target.id
        var = self.env.get(name)
        if var is not None and var.cell:
            results.write_cell(self, var.value, value, name)
            self.info.assign_types[id(node)] = var.type
            return
        if var is not None and var.is_iv:
            raise self.error(f"assignment to the loop variable {name!r}; use another variable", target,
                             UnsupportedError)
        if var is not None and var.is_array:
            raise self.error(f"{name!r} is an array; assign its elements, e.g. {name}[i] = ...", target,
                             UnsupportedError)
        if isinstance(value.type, StreamType):
            raise self.error("streams cannot be assigned to variables; use the stream itself", node,
                             UnsupportedError)
        if not isinstance(value.type, ScalarType):
            raise self.error(f"arrays cannot be assigned to variables; index {name!r} instead", node,
                             UnsupportedError)
        vtype = declared or (var.type if var is not None else self.inferred_type(value, node))
        value = self.lower.assign(value, vtype, self.loc, f"assignment to {name!r}")
        value.name = value.name if getattr(value, "op", None) is None else name
        self.env[name] = Var(value, vtype)
        self.info.assign_types[id(node)] = vtype

    def inferred_type(self, value: Value, node: ast.AST) -> ScalarType:
        """A local's type when nothing declares it: bare literals default to int32 / float64 as in C."""
        op = getattr(value, "op", None)
        if isinstance(op, ConstantOp) and self.lower.is_weak(value):
            if isinstance(value.type, IntType):
                return IntType(32, True) if -(2**31) <= op.value < 2**31 else IntType(64, True)
            return float64
        return value.type

    # ---- arrays --------------------------------------------------------------------------------

    def is_zeros_call(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        from hls.runtime import zeros

        return try_static(node.func, self.src) is zeros

    def bind_local_array(self, target: ast.Name, call: ast.Call) -> None:
        if target.id in self.env:
            raise self.error(f"{target.id!r} is already defined; local arrays cannot be rebound", target,
                             UnsupportedError)
        t = self.local_array_type(call)
        if target.id == self.result_name:
            results.bind_result_array(self, target, t, zero=True)
            return
        value = self.emit(AllocOp(t, target.id, self.loc))
        self.env[target.id] = Var(value, t, is_array=True)

    def local_array_type(self, call: ast.Call) -> ArrayType:
        """The type `hls.zeros(shape, type)` creates (shape and type compile-time constants)."""
        if len(call.args) != 2 or call.keywords:
            raise self.error("use hls.zeros(shape, type), e.g. hls.zeros((64, 64), hls.float32)", call)
        for node in ast.walk(call.args[0]):
            if isinstance(node, ast.Name) and node.id in self.env:
                raise self.error(f"array shape must be compile-time constants; {node.id!r} is a kernel variable "
                                 "(use a module-level constant or the largest size)", node)
        shape = self.static(call.args[0], "array shape")
        shape = shape if isinstance(shape, tuple) else (shape,)
        if not shape or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape):
            raise self.error(f"array shape must be positive integer constants, got {shape!r}", call.args[0])
        elem = self.annotation(call.args[1], "array element", allow_array=False)
        return ArrayType(elem, tuple(shape))

    def access(self, node: ast.Subscript) -> tuple[Value, list[Value]]:
        """`A[i, j]` or `A[i][j]` -> (memref, index values), checking rank and constant bounds."""
        index_nodes: list[ast.AST] = []
        base: ast.AST = node
        while isinstance(base, ast.Subscript):
            sl = base.slice
            index_nodes[:0] = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            base = base.value
        alias = self.env.get(base.id) if isinstance(base, ast.Name) else None
        prefix = list(alias.prefix) if alias is not None else []
        memref = alias.value if prefix else self.expr(base)
        if not isinstance(memref.type, ArrayType):
            raise self.error(f"{memref.type} value is not an array and cannot be indexed", base)
        shape = memref.type.shape
        if len(prefix) + len(index_nodes) != len(shape):
            raise self.error(f"array of shape {shape[len(prefix):]} indexed with {len(index_nodes)} indices; index "
                             "every dimension", node)
        indices = prefix
        for dim, (size, index_node) in enumerate(zip(shape[len(prefix):], index_nodes, strict=True)):
            index = self.expr(index_node)
            if not isinstance(index.type, (IntType, BoolType)):
                raise self.error(f"array index must be an integer, got {index.type}", index_node)
            op = getattr(index, "op", None)
            if isinstance(op, ConstantOp) and not 0 <= int(op.value) < size:
                raise self.error(f"index {op.value} is out of bounds for dimension {dim} of size {size}",
                                 index_node)
            indices.append(self.lower.as_int(index, self.loc))
        return memref, indices

    def store(self, target: ast.Subscript, value: Value) -> None:
        memref, indices = self.access(target)
        self.store_value(memref, indices, value)

    def store_value(self, memref: Value, indices: list[Value], value: Value) -> None:
        if isinstance(getattr(memref, "op", None), RomOp):
            raise self.error("module-level constant arrays are read-only in kernels", None)
        value = self.lower.assign(value, memref.type.elem, self.loc, "array store")
        self.emit(StoreOp(value, memref, indices, self.loc))

    def visit_Attribute(self, node: ast.Attribute) -> Value:
        """`a.shape[0]`, `a.ndim`, `math.pi`, `cfg.N`: compile-time numbers read as constants."""
        return self.static_number(node)

    def static_number(self, node: ast.AST) -> Value:
        value = self.static(node, "expression")
        if isinstance(value, (bool, int, float, np.number, np.bool_)):
            return self.constant_value(value, node)
        raise self.error(f"{ast.unparse(node)!r} is a {type(value).__name__}, not a number a kernel can use", node,
                         UnsupportedError)

    def visit_Subscript(self, node: ast.Subscript) -> Value:
        if isinstance(node.value, ast.Attribute):  # `a.shape[1]`: a compile-time number, not a memory read
            return self.static_number(node)
        from hls.frontend.bits import is_bit_access, read_bits

        if is_bit_access(self, node):
            return read_bits(self, node)
        memref, indices = self.access(node)
        return self.emit(LoadOp(memref, indices, self.loc))

    # ---- names and constants -------------------------------------------------------------------

    def read_name(self, node: ast.Name) -> Value:
        var = self.env.get(node.id)
        if var is None:
            if node.id in self.loop_locals:
                raise self.error(f"{node.id!r} is only defined inside a loop or branch; define it before",
                                 node)
            raise self.error(f"unknown variable {node.id!r}", node)
        return results.read_cell(self, var.value) if var.cell else var.value

    def visit_Name(self, node: ast.Name) -> Value:
        if node.id in self.env and self.env[node.id].prefix:
            raise self.error(f"{node.id!r} is a row of an array; index it (`{node.id}[j]`) or pass the whole "
                             "array", node, UnsupportedError)
        if node.id in self.env or node.id in self.loop_locals:
            return self.read_name(node)
        return self.captured(node)

    def visit_Constant(self, node: ast.Constant) -> Value:
        if isinstance(node.value, (str, bytes)) or node.value is None or node.value is Ellipsis:
            raise self.error(f"{type(node.value).__name__} values are not supported in kernels", node,
                             UnsupportedError)
        if isinstance(node.value, complex):
            raise self.error("complex numbers are not supported", node, UnsupportedError)
        return self.constant_value(node.value, node)

    # ---- expressions ---------------------------------------------------------------------------

    def expr(self, node: ast.AST) -> Value:
        value = self.visit(node)
        if not isinstance(value, Value):
            raise self.error("this expression has no value", node, UnsupportedError)
        return value

    def visit_BinOp(self, node: ast.BinOp) -> Value:
        kind = BINOPS.get(type(node.op))
        if kind is None:
            raise self.error(f"operator {type(node.op).__name__} is not supported", node, UnsupportedError)
        lhs, rhs = self.expr(node.left), self.expr(node.right)
        result = self.lower.binary(kind, lhs, rhs, self.loc)
        self.note_literals(node, (node.left, lhs), (node.right, rhs), result)
        if kind in ("add", "sub", "mul", "div"):
            self.note_int_to_float(result.type, (node.left, lhs), (node.right, rhs))
        if kind == "div" and isinstance(lhs.type, (IntType, BoolType)) and isinstance(rhs.type, (IntType, BoolType)):
            self.info.int_true_div.add(id(node))
        if kind == "div" and isinstance(result.type, FixedType):
            self.info.fixed_div[id(node)] = result.type
        if kind == "shl" and not isinstance(getattr(rhs, "op", None), ConstantOp):
            self.info.var_shl[id(node)] = result.type
        return result

    def note_literals(self, node: ast.AST, *pairs: tuple[ast.AST, Value]) -> None:
        """Float literals take the precision the lowering gave them (0.5 beside float32 is 0.5f)."""
        result = pairs[-1] if isinstance(pairs[-1], Value) else None
        for item in pairs:
            if isinstance(item, Value):
                continue
            child, value = item
            if id(child) in self.info.float_literals and isinstance(value.type, FloatType):
                self.info.float_literals[id(child)] = self.adopted_float(value, result)

    def adopted_float(self, literal: Value, result: Value | None) -> FloatType:
        for user in literal.uses:
            if user.results and isinstance(user.results[0].type, FloatType):
                return user.results[0].type
        if result is not None and isinstance(result.type, FloatType):
            return result.type
        return literal.type

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Value:
        if isinstance(node.op, ast.UAdd):
            return self.expr(node.operand)
        operand = node.operand
        if isinstance(node.op, ast.USub) and isinstance(operand, ast.Constant) \
                and isinstance(operand.value, (int, float)) and not isinstance(operand.value, bool):
            return self.constant_value(-operand.value, node)
        return self.lower.unary(UNOPS[type(node.op)], self.expr(operand), self.loc)

    def visit_Compare(self, node: ast.Compare) -> Value:
        left, left_node = self.expr(node.left), node.left
        result = None
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            kind = CMPOPS.get(type(op))
            if kind is None:
                raise self.error(f"comparison {type(op).__name__} is not supported in kernels", node,
                                 UnsupportedError)
            right = self.expr(right_node)
            cmp = self.lower.compare(kind, left, right, self.loc)
            if isinstance(left.type, FloatType) or isinstance(right.type, FloatType):
                target = self.lower.float_target(left, right)  # what both sides are compared in
                self.adopt_literals(target, (left_node, left), (right_node, right))
                self.note_int_to_float(target, (left_node, left), (right_node, right))
            result = cmp if result is None else self.lower.logic("land", result, cmp, self.loc)
            left, left_node = right, right_node
        return result

    def visit_BoolOp(self, node: ast.BoolOp) -> Value:
        kind = BOOLOPS[type(node.op)]
        values = [self.expr(v) for v in node.values]
        for value_node, value in zip(node.values, values, strict=True):
            if not isinstance(value.type, BoolType):
                raise self.error("`and`/`or` operands must be conditions (e.g. x != 0): on numbers Python "
                                 "returns one of the operands, not a bool", value_node)
        result = values[0]
        for value in values[1:]:
            result = self.lower.logic(kind, result, value, self.loc)
        return result

    def visit_IfExp(self, node: ast.IfExp) -> Value:
        decided = self.compile_time(node.test)
        if decided is not MISSING:  # `a if MODE == 1 else b`: only the chosen side is hardware
            return self.expr(node.body if decided else node.orelse)
        cond = self.condition(node.test)
        a, b = self.expr(node.body), self.expr(node.orelse)
        result = self.lower.select(cond, a, b, self.loc)
        self.adopt_literals(result.type, (node.body, a), (node.orelse, b))
        self.note_int_to_float(result.type, (node.body, a), (node.orelse, b))
        return result

    def condition(self, node: ast.AST) -> Value:
        if isinstance(node, ast.BoolOp):
            kind = BOOLOPS[type(node.op)]
            values = [self.condition(v) for v in node.values]
            result = values[0]
            for value in values[1:]:
                result = self.lower.logic(kind, result, value, self.loc)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.lower.unary("not", self.condition(node.operand), self.loc)
        return self.lower.truth(self.expr(node), self.src.loc(node))

    def visit_Call(self, node: ast.Call) -> Value:
        from hls.frontend.calls import lower_call

        return lower_call(self, node)

    # ---- sub-kernels ---------------------------------------------------------------------------

    def visit_If(self, node: ast.If) -> None:
        from hls.frontend.branches import lower_if

        lower_if(self, node)

    def captured(self, node: ast.Name) -> Value:
        from hls.frontend.captures import captured

        return captured(self, node)

    def constant_value(self, value: Any, node: ast.AST) -> Value:
        from hls.frontend.captures import constant_value

        return constant_value(self, value, node)

    def call_kernel(self, kernel: Any, node: ast.Call, want_result: bool, tuple_ok: bool = False,
                    out: Value | None = None) -> Value | list[Value] | None:
        from hls.frontend.calls import call_kernel

        return call_kernel(self, kernel, node, want_result, tuple_ok, out)

    def callee(self, kernel: Any, node: ast.Call) -> Function:
        from hls.frontend.calls import callee_function

        return callee_function(self, kernel, node)

    def visit_For(self, node: ast.For) -> None:
        from hls.frontend.iterables import lower_iteration

        lower_iteration(self, node)

    def unique_label(self, iv_name: str) -> str:
        base = "loop_" + (iv_name.strip("_") or "i")
        label, n = base, 1
        while label in self.labels:
            label, n = f"{base}_{n}", n + 1
        self.labels.add(label)
        return label

    def new_loop(self, lb: Value, ub: Value, step: Value, inits: list[Value], names: list[str],
                 iv_name: str, iv_type: IntType) -> ForOp:
        loop = ForOp(lb, ub, step, inits, iv_type, iv_name, names, self.loc)
        loop.attrs["label"] = self.unique_label(iv_name)
        return loop
