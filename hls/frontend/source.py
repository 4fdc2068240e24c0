"""Getting a kernel's source and resolving the names it uses, without executing kernel code."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import inspect
import operator
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any

from hls.errors import HLSTypeError, Loc, UnsupportedError


@dataclass
class KernelSource:
    """The parsed function with what it closes over. Lines in `tree` are the file's own lines."""

    func: Any
    file: str
    tree: ast.FunctionDef
    text: str
    namespace: dict[str, Any] = field(default_factory=dict)
    annotations: dict[str, Any] = field(default_factory=dict)  # argument/return annotations Python evaluated
    enclosing: dict[str, Any] = field(default_factory=dict)  # the enclosing function's names (factories)
    name: str = ""  # the Function's name: the def's, or the one the user set, made unique in its module
    is_task: bool = False  # @hls.task: the body is one iteration of a process that runs forever

    def __post_init__(self) -> None:
        self.name = self.name or self.tree.name

    def loc(self, node: ast.AST) -> Loc:
        return Loc(self.file, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                   getattr(node, "end_col_offset", None) if getattr(node, "end_lineno", None) ==
                   getattr(node, "lineno", None) else None)


def enclosing_names(func: Any, depth: int = 12) -> dict[str, Any]:
    """The enclosing function's names as they are now (call this when the decorator runs).

    Python resolves a kernel's free names in the enclosing function first; names used only in
    annotations are not closure cells, so they are read from the frame that executed the `def`
    (found by its code object holding the function's code), then the closure cells are added.
    Module-level kernels have no enclosing names: their globals are read when first compiled.
    """
    names: dict[str, Any] = {}
    frame = sys._getframe(1)
    for _ in range(depth):
        if frame is None:
            break
        if func.__code__ in frame.f_code.co_consts:
            if frame.f_locals is not frame.f_globals:
                names.update(frame.f_locals)
            break
        frame = frame.f_back
    del frame
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or (), strict=True):
        try:
            names[name] = cell.cell_contents
        except ValueError:  # a cell not assigned yet
            pass
    return names


def with_late_cells(func: Any, names: dict[str, Any]) -> dict[str, Any]:
    """`names` plus the closure cells assigned since the decorator ran: a helper kernel defined after
    its caller in the same factory, which Python resolves when the caller runs. A name the snapshot
    already holds keeps its value then."""
    late = {}
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or (), strict=True):
        if name not in names:
            try:
                late[name] = cell.cell_contents
            except ValueError:  # still not assigned
                pass
    return {**names, **late} if late else names


def parse_kernel(func: Any, enclosing: dict[str, Any] | None = None) -> KernelSource:
    file = inspect.getsourcefile(func) or inspect.getfile(func)
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError) as exc:
        raise UnsupportedError(f"cannot read the source of {func.__name__!r}: {exc}; kernels must be "
                               "defined in a file") from None
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = len(lines[0]) - len(lines[0].lstrip())
    try:
        tree = ast.parse(dedented)
    except SyntaxError as exc:  # the file changed since it was imported, or the source is not a whole def
        line = first + (exc.lineno or 1) - 1
        raise UnsupportedError(f"the kernel source does not parse: {exc.msg}",
                               Loc(file, line, (exc.offset or 1) - 1 + indent)) from None
    ast.increment_lineno(tree, first - 1)
    for node in ast.walk(tree):
        if hasattr(node, "col_offset"):
            node.col_offset += indent
            if getattr(node, "end_col_offset", None) is not None:
                node.end_col_offset += indent
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise UnsupportedError("a kernel must be a plain `def` function (not async, not a lambda)",
                               Loc(file, getattr(fdef, "lineno", first), getattr(fdef, "col_offset", indent)))
    enclosing = enclosing_names(func) if enclosing is None else with_late_cells(func, enclosing)
    annotations = {name: value for name, value in getattr(func, "__annotations__", {}).items()
                   if not isinstance(value, str)}  # strings (PEP 563) are evaluated from the namespace
    return KernelSource(func, file, fdef, text, {**func.__globals__, **enclosing}, annotations, enclosing)


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
# the only functions a compile-time expression may call: pure builtins (user code never runs here)
PURE_BUILTINS = (min, max, abs, int, float, bool, round, len)
_NUMBER = (int, float, bool)

_MISSING = object()


def static_eval(node: ast.AST, src: KernelSource, what: str = "expression") -> Any:
    """Evaluate a compile-time expression: names, attributes, subscripts, constants, arithmetic,
    comparisons, `and`/`or`/`not`, conditional expressions and calls of pure builtins (`max(II, 1)`).

    Used for annotations, directive options, shapes and compile-time `if`; never calls user functions.
    """
    loc = src.loc(node)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = src.namespace.get(node.id, _MISSING)
        if value is _MISSING:
            value = getattr(builtins, node.id, _MISSING)
        if value is _MISSING:
            raise HLSTypeError(f"unknown name {node.id!r} in {what}", loc)
        return value
    if isinstance(node, ast.Attribute):
        base = static_eval(node.value, src, what)
        try:
            return getattr(base, node.attr)
        except AttributeError:
            raise HLSTypeError(f"{_dotted(node)!r} does not exist", loc) from None
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(static_eval(e, src, what) for e in node.elts)
    if isinstance(node, ast.Subscript):
        base = static_eval(node.value, src, what)
        index = static_eval(node.slice, src, what)
        if isinstance(base, type) and dataclasses.is_dataclass(base) and not hasattr(base, "__hls_struct__"):
            raise HLSTypeError(not_a_type(base, what), loc)
        try:
            return base[index]
        except (TypeError, KeyError, IndexError, ValueError) as exc:
            raise HLSTypeError(f"{what} is not valid: {getattr(exc, 'message', exc)}", loc) from None
    evaluate = _OPERATIONS.get(type(node))
    if evaluate is None:
        raise UnsupportedError(f"{what} must be a compile-time constant", loc)
    try:
        return evaluate(node, src, what)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
        raise HLSTypeError(f"{what} is not valid: {getattr(exc, 'message', exc)}", loc) from None


def not_a_type(value: Any, what: str) -> str:
    """Why a dataclass (or other class) cannot annotate a kernel value, and what to write instead."""
    name = getattr(value, "__name__", repr(value))
    if isinstance(value, type) and dataclasses.is_dataclass(value):
        return (f"{what}: {name} is a dataclass, not an hls type; decorate it with @hls.struct (fields of hls "
                "types, e.g. `r: hls.uint8`) or pass each field as its own argument or array")
    return f"{what}: {value!r} is not an hls type (e.g. hls.int16, hls.float32[8, 8])"


def _numbers(values: list[Any], what: str, loc: Loc) -> list[Any]:
    if not all(isinstance(v, _NUMBER) for v in values):
        raise HLSTypeError(f"{what} must be built from numbers, got {', '.join(repr(v) for v in values)}", loc)
    return values


def _binop(node: ast.BinOp, src: KernelSource, what: str) -> Any:
    if type(node.op) not in _BINOPS:
        raise UnsupportedError(f"{what} must be a compile-time constant", src.loc(node))
    left, right = _numbers([static_eval(node.left, src, what), static_eval(node.right, src, what)], what,
                           src.loc(node))
    if isinstance(node.op, ast.Pow) and isinstance(right, int) and right > 4096:
        raise HLSTypeError(f"{what}: exponent {right} is too large", src.loc(node))
    return _BINOPS[type(node.op)](left, right)


def _unary(node: ast.UnaryOp, src: KernelSource, what: str) -> Any:
    value = static_eval(node.operand, src, what)
    if not isinstance(node.op, ast.Not):
        _numbers([value], what, src.loc(node))
    return _UNARY[type(node.op)](value)


def _compare(node: ast.Compare, src: KernelSource, what: str) -> bool:
    left = static_eval(node.left, src, what)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = static_eval(right_node, src, what)
        if not _COMPARE[type(op)](left, right):
            return False
        left = right
    return True


def _boolop(node: ast.BoolOp, src: KernelSource, what: str) -> Any:
    result: Any = None
    for value_node in node.values:  # short-circuit as Python does
        result = static_eval(value_node, src, what)
        if bool(result) == isinstance(node.op, ast.Or):
            return result
    return result


def _ifexp(node: ast.IfExp, src: KernelSource, what: str) -> Any:
    chosen = node.body if static_eval(node.test, src, what) else node.orelse
    return static_eval(chosen, src, what)


def _call(node: ast.Call, src: KernelSource, what: str) -> Any:
    func = static_eval(node.func, src, what)
    if not any(func is f for f in PURE_BUILTINS) or node.keywords:
        raise UnsupportedError(f"{what}: only {', '.join(f.__name__ for f in PURE_BUILTINS)} can be called in a "
                               "compile-time expression", src.loc(node))
    return func(*(static_eval(a, src, what) for a in node.args))


_OPERATIONS = {ast.BinOp: _binop, ast.UnaryOp: _unary, ast.Compare: _compare, ast.BoolOp: _boolop,
               ast.IfExp: _ifexp, ast.Call: _call}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return "<expr>"


def subscript_chain(node: ast.AST) -> tuple[ast.AST, list[ast.AST]]:
    """`A[i, j]` or `A[i][j]` -> (A, [i, j]): the subscripted base and every index node in order."""
    index_nodes: list[ast.AST] = []
    while isinstance(node, ast.Subscript):
        sl = node.slice
        index_nodes[:0] = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        node = node.value
    return node, index_nodes


def try_static(node: ast.AST, src: KernelSource) -> Any:
    """Resolve a Name/Attribute chain to a Python object, or _MISSING when it is not global."""
    if isinstance(node, ast.Name):
        value = src.namespace.get(node.id, _MISSING)
        return getattr(builtins, node.id, _MISSING) if value is _MISSING else value
    if isinstance(node, ast.Attribute):
        base = try_static(node.value, src)
        if base is _MISSING:
            return _MISSING
        return getattr(base, node.attr, _MISSING)
    return _MISSING


def call_target(node: ast.AST, src: KernelSource) -> Any:
    """What a call calls: a name or attribute chain, or a subscript of one (`hls.ap_fixed[16, 6](x)`,
    `ADDERS[2](a)`); _MISSING when it is not known at compile time."""
    target = try_static(node, src)
    if target is _MISSING and isinstance(node, ast.Subscript):
        target = static_eval(node, src, "the called function")
    return target


MISSING = _MISSING
