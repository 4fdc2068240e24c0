"""Bit access in kernels: `x[i]`, `x[lo:hi]`, their assignment, `hls.concat`, `x.bit_count()`,
`x.reverse()`, `hls.leading_zeros(x)` and `x.bitcast()` / `hls.bitcast(x, T)`.

A subscript is bit access when it slices, or when what it indexes is a scalar: a scalar variable or
expression, or an array element (`A[i][3]` on a 1-D `A`, `B[i][0:2]`). The golden model calls the
functions of hls.bits at the same nodes (recorded in GoldenInfo.bit_nodes).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import numpy as np

from hls import bits
from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.source import MISSING
from hls.ir import BinaryOp, ConstantOp, LoadOp, StoreOp, Value
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.kinds import OpKind
from hls.types import BoolType, FixedType, FloatType, IntType, ScalarType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

METHODS = {"bit_count": "popcount", "reverse": "reverse"}


def array_rank(b: FunctionBuilder, base: ast.AST) -> int | None:
    """How many indices the array named by `base` takes; None when `base` is not an array."""
    if not isinstance(base, ast.Name):
        return None
    var = b.env.get(base.id)
    if var is not None:
        return len(var.type.shape) if var.is_array else None
    if base.id in b.kernel_names:
        return None
    value = b.compile_time(base)
    return value.ndim if isinstance(value, np.ndarray) else None


def is_bit_access(b: FunctionBuilder, node: ast.Subscript) -> bool:
    """True when `node` subscripts a scalar (or slices anything): the base's type decides."""
    if isinstance(node.slice, ast.Slice):
        return True
    if isinstance(node.slice, ast.Tuple):
        return False  # `a[i, j]` indexes an array (its rank is checked there)
    count, base = 0, node
    while isinstance(base, ast.Subscript):
        count += len(base.slice.elts) if isinstance(base.slice, ast.Tuple) else 1
        base = base.value
    if isinstance(base, ast.Attribute):
        return False  # `a.shape[0]` and friends
    rank = array_rank(b, base)
    return rank is None or count > rank


def bits_operand(b: FunctionBuilder, value: Value, node: ast.AST) -> Value:
    """An integer or fixed-point value whose bits are read (a bool is a uint1)."""
    if isinstance(value.type, BoolType):
        return b.lower.as_int(value, b.loc)
    if not isinstance(value.type, (IntType, FixedType)):
        hint = "; reinterpret it first with x.bitcast()" if isinstance(value.type, FloatType) else ""
        raise b.error(f"bit access needs an integer or fixed-point value, got {value.type}{hint}", node)
    return value


def slice_bounds(b: FunctionBuilder, sl: ast.Slice, width: int) -> tuple[int, int]:
    """Constant `lo`, `hi` of `x[lo:hi]`, checked against the value's width."""
    if sl.step is not None:
        raise b.error("bit slices take no step", sl.step, UnsupportedError)
    bounds = []
    for part, default in ((sl.lower, 0), (sl.upper, width)):
        value = default if part is None else b.compile_time(part)
        if value is MISSING or isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise b.error("bit slice bounds must be compile-time integers (the slice's width is its type)",
                          part, UnsupportedError)
        bounds.append(int(value))
    lo, hi = bounds
    if lo < 0 or hi < 0:
        raise b.error("bit positions count from 0 (the least significant bit); negative positions are not "
                      "supported", sl)
    if hi <= lo:
        raise b.error(f"bit slice [{lo}:{hi}] is empty: the upper bound must exceed the lower (x[lo:hi] holds "
                      "bits lo..hi-1)", sl)
    if hi > width:
        raise b.error(f"bit slice [{lo}:{hi}] is out of range for a {width}-bit value (bits 0..{width - 1})", sl)
    return lo, hi


def bit_index(b: FunctionBuilder, node: ast.AST, width: int) -> Value:
    """The position of `x[i]`: constants are checked here, variables by csim."""
    index = b.expr(node)
    if not isinstance(index.type, (IntType, BoolType)):
        raise b.error(f"bit index must be an integer, got {index.type}", node)
    op = getattr(index, "op", None)
    if isinstance(op, ConstantOp) and not 0 <= int(op.value) < width:
        raise b.error(f"bit index {op.value} is out of range for a {width}-bit value (bits 0..{width - 1})", node)
    return b.lower.as_int(index, b.loc)


def read_bits(b: FunctionBuilder, node: ast.Subscript) -> Value:
    """`x[i]` (a bool) or `x[lo:hi]` (an ap_uint[hi - lo])."""
    value = bits_operand(b, b.expr(node.value), node.value)
    t, width = value.type, value.type.width
    if isinstance(node.slice, ast.Slice):
        lo, hi = slice_bounds(b, node.slice, width)
        b.info.bit_nodes[id(node)] = ("get_slice", t, lo, hi)
        return b.emit(SliceOp(value, lo, hi, b.loc))
    index = bit_index(b, node.slice, width)
    b.info.bit_nodes[id(node)] = ("get_bit", t)
    return b.emit(BitGetOp(value, index, b.loc))


def store_bits(b: FunctionBuilder, target: ast.Subscript, new: Value, key: ast.AST) -> None:
    """`x[i] = v`, `x[lo:hi] = v`, `B[i][0:2] = v`: the variable or element gets its bits replaced."""
    base = target.value
    if isinstance(base, ast.Name):
        current = b.read_name(base)
    elif isinstance(base, ast.Subscript) and not is_bit_access(b, base):
        memref, indices = b.access(base)
        current = b.emit(LoadOp(memref, indices, b.loc))
    else:
        raise b.error("bits can be assigned in a variable or an array element", target, UnsupportedError)
    current_bits = bits_operand(b, current, base)
    if current_bits is not current:
        raise b.error("assign a bool as a whole, not its bit", target, UnsupportedError)
    t, width = current.type, current.type.width
    if not isinstance(new.type, (IntType, BoolType)):
        raise b.error(f"bits take integer values; got {new.type} (reinterpret it with .bitcast() or slice it)",
                      target)
    if isinstance(target.slice, ast.Slice):
        lo, hi = slice_bounds(b, target.slice, width)
        part = b.lower.cast(b.lower.as_int(new, b.loc), IntType(hi - lo, False), b.loc, explicit=True)
        result = b.emit(SliceSetOp(current, part, lo, hi, b.loc))
        b.info.bit_nodes[id(key)] = ("set_slice", t, lo, hi)
    else:
        index = bit_index(b, target.slice, width)
        bit = new if isinstance(new.type, BoolType) else \
            b.lower.cast(b.lower.cast(new, IntType(1, False), b.loc, explicit=True), BoolType(), b.loc)
        result = b.emit(BitSetOp(current, index, bit, b.loc))
        b.info.bit_nodes[id(key)] = ("set_bit", t)
    if isinstance(base, ast.Name):
        b.assign_name(base, result, None, key)
    else:
        b.emit(StoreOp(result, memref, indices, b.loc))


def augment_bits(b: FunctionBuilder, node: ast.AugAssign, kind: str) -> None:
    """`x[lo:hi] ^= v`: the bits read, combined exactly, and stored back (wrapped to the slice)."""
    read = ast.copy_location(ast.Subscript(value=node.target.value, slice=node.target.slice, ctx=ast.Load()),
                             node.target)
    current = read_bits(b, read)
    b.info.bit_nodes.pop(id(read))  # the golden model builds its own read (GoldenRewriter.bit_augment)
    store_bits(b, node.target, b.augmented(kind, current, node.value, node), node)


def method_call(b: FunctionBuilder, node: ast.Call) -> Value | None:
    """`x.bit_count()`, `x.reverse()`, `x.bitcast()` on a kernel value; None when `node` is no such call."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in (*METHODS, "bitcast"):
        return None
    if isinstance(func.value, ast.Name) and func.value.id not in b.kernel_names:
        return None  # a module's function (`np.bitcast`?), not a method of a kernel value
    if node.args or node.keywords:
        raise b.error(f".{func.attr}() takes no arguments", node)
    value = b.expr(func.value)
    if func.attr == "bitcast":
        return lower_bitcast(b, node, value, None)
    value = bits_operand(b, value, func.value)
    b.info.bit_nodes[id(node)] = ("method", func.attr, value.type)
    return b.emit(BitUnaryOp(METHODS[func.attr], value, b.loc))


def default_bitcast_target(t: ScalarType) -> ScalarType | None:
    """What `x.bitcast()` gives: a float's encoding as uint32/uint64, a fixed value's raw integer."""
    if isinstance(t, FloatType):
        return IntType(t.bits, False)
    if isinstance(t, FixedType):
        return IntType(t.width, t.signed)
    return None


def lower_bitcast(b: FunctionBuilder, node: ast.Call, value: Value, target: Any) -> Value:
    source = value.type
    if isinstance(source, BoolType):
        value, source = b.lower.as_int(value, b.loc), IntType(1, False)
    if target is None:
        target = default_bitcast_target(source)
        if target is None:
            raise b.error(f"x.bitcast() of an integer ({source}) is ambiguous: name the target, e.g. "
                          "hls.bitcast(x, hls.float32)", node)
    if not isinstance(source, (IntType, FixedType, FloatType)) or not isinstance(target, (IntType, FixedType,
                                                                                           FloatType)):
        raise b.error(f"bitcast reinterprets integers, fixed point and floats, not {source} -> {target}", node)
    if bits.width_of(source) != bits.width_of(target):
        raise b.error(f"bitcast keeps the width: {source} has {bits.width_of(source)} bits, {target} has "
                      f"{bits.width_of(target)}; slice or convert first", node)
    b.info.bit_nodes[id(node)] = ("bitcast", source, target)
    return b.emit(BitcastOp(value, target, b.loc))


def lower_rotate(b: FunctionBuilder, kind: OpKind, node: ast.Call) -> Value:
    """`hls.rotl(x, n)` / `hls.rotr(x, n)`: x an unsigned integer, n in 0..width-1 (a constant n is checked
    here, a variable one in Python mode and csim, as ap_int's lrotate asserts)."""
    if len(node.args) != 2:
        raise b.error(f"hls.{kind}(x, n) takes a value and a rotate count", node)
    value, count = b.expr(node.args[0]), b.expr(node.args[1])
    if not (isinstance(value.type, IntType) and not value.type.signed):
        raise b.error(f"hls.{kind}() rotates unsigned integers, not {value.type}; convert first, e.g. "
                      f"hls.ap_uint[W](x)", node.args[0])
    if not isinstance(count.type, (IntType, BoolType)):
        raise b.error(f"the rotate count must be an integer, not {count.type}", node.args[1])
    width = value.type.width
    known = count.op.value if isinstance(getattr(count, "op", None), ConstantOp) else None
    if known is not None and not 0 <= known < width:
        raise b.error(f"rotate count {known} is outside 0..{width - 1} for {value.type}", node.args[1])
    b.info.bit_nodes[id(node)] = (str(kind), value.type)
    return b.emit(BinaryOp(kind, value, count, value.type, b.loc))


def intrinsic_call(b: FunctionBuilder, name: str, node: ast.Call) -> Value:
    """`hls.concat(a, b, ...)`, `hls.leading_zeros(x)`, `hls.bitcast(x, T)`."""
    if node.keywords:
        raise b.error(f"hls.{name}() takes positional arguments only", node, UnsupportedError)
    if name == "concat":
        if not node.args:
            raise b.error("hls.concat() needs at least one value", node)
        values = [bits_operand(b, b.expr(arg), arg) for arg in node.args]
        b.info.bit_nodes[id(node)] = ("concat", tuple(v.type for v in values))
        return b.emit(ConcatOp(values, b.loc))
    if name in (OpKind.ROTL, OpKind.ROTR):
        return lower_rotate(b, OpKind(name), node)
    if name == "leading_zeros":
        if len(node.args) != 1:
            raise b.error("hls.leading_zeros() takes one value", node)
        value = bits_operand(b, b.expr(node.args[0]), node.args[0])
        b.info.bit_nodes[id(node)] = ("leading_zeros", value.type)
        return b.emit(BitUnaryOp("clz", value, b.loc))
    if len(node.args) != 2:
        raise b.error("hls.bitcast(x, T) takes a value and a type", node)
    target = b.compile_time(node.args[1])
    if not isinstance(target, ScalarType):
        raise HLSTypeError("hls.bitcast's second argument must be an hls scalar type, e.g. hls.float32",
                           b.src.loc(node.args[1]))
    return lower_bitcast(b, node, b.expr(node.args[0]), target)
