"""The builder's shared context (state, location tracking, errors, compile-time evaluation, dispatch)
and the base of the construct families.

Each construct family (one module per kind of construct: expressions, arrays, structs, ...) is a
`Family`: an object given, at construction, this context and the lower families it calls, so its
collaborators are its constructor's parameters. The families are ordered (docs/architecture.md, "The
frontend"); a family calls only earlier ones, and where a rule needs a later one (a struct argument of a
sub-kernel call, a struct written to a FIFO) it receives that rule as a callback. `BuildContext.visit`
is the only way down into an arbitrary node: it dispatches to the `visit_<AstClass>` rule a family
registered (hls.frontend.builder fills the table), never by name through `self`.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hls.errors import HLSError, HLSTypeError, Loc, UnsupportedError
from hls.frontend.conversions import KernelFacts
from hls.frontend.lower import Lowering
from hls.frontend.packets import check_packet_use
from hls.frontend.scan import assigned_names
from hls.frontend.source import MISSING, KernelSource, not_a_type, static_eval
from hls.frontend.state import ArrayShape, BuildState, local_name
from hls.frontend.tables import UNSUPPORTED
from hls.ir import ForOp, Function, Module, Value
from hls.ir.core import Op
from hls.ir.labels import fresh_label
from hls.types import ArrayType, HLSType, IntType, ScalarType, StreamType, StructType, struct_type_of


def is_kernel(obj: Any) -> bool:
    return getattr(obj, "__hls_kernel__", None) is not None


@functools.cache
def rule_classes(family: type) -> tuple[str, ...]:
    """The AST classes a family has a `visit_<AstClass>` rule for (once per class, not per build)."""
    return tuple(name[len("visit_"):] for name in dir(family)
                 if name.startswith("visit_") and isinstance(getattr(ast, name[len("visit_"):], None), type))


class BuildContext(BuildState):
    """What every family of one function's build shares: the state, the location, the errors, compile-time
    evaluation, and the table of `visit_<AstClass>` rules the families registered (`rules`)."""

    def __init__(self, src: KernelSource, module: Module, compiling: tuple[Any, ...],
                 built: dict[Any, Function] | None = None):
        super().__init__({a.arg for a in src.tree.args.args} | assigned_names(src.tree.body))
        self.src = src
        self.module = module
        self.compiling = compiling
        self.built = built if built is not None else {}  # kernel object -> its Function in `module`
        self.loc: Loc | None = src.loc(src.tree)
        self.facts = KernelFacts()
        self.conversions = self.facts.conversions
        self.lower = Lowering(self.emit)
        self.func: Function | None = None
        self.result_name: str | None = None  # the local an array-returning kernel returns
        self.early_return = False  # a `return` before the end: results go through the control flags
        self.rules: dict[str, Callable[[Any], Any]] = {}  # AST class name -> the family's visit_ method
        self.task_site: ast.AST | None = None  # the region statement whose call may instantiate a task
        self.released_blocks: set[str] = set()  # blocks whose lock's `with` has ended (hls.write_lock / read_lock)

    def register(self, family: Family) -> None:
        """Dispatch the family's `visit_<AstClass>` methods; one rule per AST class."""
        for ast_class in rule_classes(type(family)):
            if ast_class in self.rules:
                raise AssertionError(f"two families lower ast.{ast_class}")
            self.rules[ast_class] = getattr(family, "visit_" + ast_class)

    def emit(self, op: Op) -> Value | None:
        self.block.append(op)
        return op.results[0] if len(op.results) == 1 else None

    def visit(self, node: ast.AST) -> Any:
        saved = self.loc
        if hasattr(node, "lineno"):
            self.loc = self.src.loc(node)
        try:
            return self.rules.get(type(node).__name__, self.generic_visit)(node)
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

    def expr(self, node: ast.AST) -> Value:
        value = self.visit(node)
        if not isinstance(value, Value):
            raise self.error("this expression has no value", node, UnsupportedError)
        return value

    # ---- compile-time values -------------------------------------------------------------------

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
            return check_packet_use(self, value, what, node)
        if struct_type_of(value) is not None:
            return check_packet_use(self, struct_type_of(value), what, node)
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

    # ---- loops ---------------------------------------------------------------------------------

    def unique_label(self, iv_name: str) -> str:
        return fresh_label(self.labels, "loop_" + (iv_name.strip("_") or "i"))

    def new_loop(self, lb: Value, ub: Value, step: Value, inits: list[Value], names: list[str],
                 iv_name: str, iv_type: IntType) -> ForOp:
        loop = ForOp(lb, ub, step, inits, iv_type, iv_name, names, self.loc)
        loop.attrs["label"] = self.unique_label(iv_name)
        return loop

    # ---- struct locals (hls.frontend.structs): queries every family that reads a name asks -----------

    def is_struct_local(self, name: str) -> bool:
        t = self.struct_locals.get(name)
        return t is not None and local_name(name, t.fields[0][0]) in self.env

    def struct_not_a_value(self, t: StructType, node: ast.AST) -> HLSTypeError:
        fields = ", ".join(n for n, _ in t.fields[:3])
        return self.error(f"{ast.unparse(node)!r} is a {t} struct, which has no arithmetic or comparison; use its "
                          f"fields ({fields}, ...) or assign, store, pass or return it whole", node)


class Family:
    """A construct family: lowers one kind of construct with the shared context and the collaborators
    (earlier families, callbacks) its constructor takes."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx
