"""Bit access in kernels: `x[i]`, `x[lo:hi]`, their assignment, `hls.concat`, `x.bit_count()`,
`x.reverse()`, `hls.leading_zeros(x)` and `x.bitcast()` / `hls.bitcast(x, T)`.

A subscript is bit access when it slices, or when what it indexes is a scalar: a scalar variable or
expression, or an array element (`A[i][3]` on a 1-D `A`, `B[i][0:2]`). The golden model calls the
functions of hls.golden.bits at the same nodes (recorded as Conversion records). `visit_Subscript`, the rule
for every subscript read, lives here, the lowest family that knows all four readings of `x[...]`: an
element of a struct's array field, a compile-time shape, bits, an array element.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from hls.errors import HLSTypeError, UnsupportedError
from hls.frontend.arrays import Arrays
from hls.frontend.base import BuildContext, Family
from hls.frontend.conversions import BitStore, Call, Part
from hls.frontend.expressions import Expressions
from hls.frontend.names import Names
from hls.frontend.source import MISSING, subscript_chain
from hls.frontend.structs import Structs
from hls.ir import BinaryOp, ConstantOp, LoadOp, StoreOp, Value
from hls.ir.bitops import BitcastOp, BitGetOp, BitSetOp, BitUnaryOp, ConcatOp, SliceOp, SliceSetOp
from hls.ir.kinds import OpKind
from hls.lang import bits
from hls.types import BoolType, FixedType, FloatType, IntType, ScalarType, TypedConstant

METHODS = {"bit_count": "popcount", "reverse": "reverse"}


def slice_read(t: ScalarType, lo: int, hi: int) -> Call:
    """How Python mode reads `x[lo:hi]` of a `t`."""
    return Call("bits.get_slice", (Part("value"), lo, hi, t))


def bit_read(t: ScalarType) -> Call:
    """How Python mode reads `x[i]` of a `t`."""
    return Call("bits.get_bit", (Part("value"), Part("slice"), t))


def default_bitcast_target(t: ScalarType) -> ScalarType | None:
    """What `x.bitcast()` gives: a float's encoding as uint32/uint64, a fixed value's raw integer."""
    if isinstance(t, FloatType):
        return IntType(t.bits, False)
    if isinstance(t, FixedType):
        return IntType(t.width, t.signed)
    return None


class Bits(Family):
    """Bit access, concatenation, bit counts and reinterpretation."""

    def __init__(self, ctx: BuildContext, names: Names, exprs: Expressions, arrays: Arrays, structs: Structs) -> None:
        super().__init__(ctx)
        self.names = names
        self.exprs = exprs
        self.arrays = arrays
        self.structs = structs

    def array_rank(self, base: ast.AST) -> int | None:
        """How many indices the array named by `base` takes; None when `base` is not an array."""
        if not isinstance(base, ast.Name):
            return None
        var = self.ctx.env.get(base.id)
        if var is not None:
            return len(var.type.shape) if var.is_array else None
        if base.id in self.ctx.kernel_names:
            return None
        value = self.ctx.compile_time(base)
        return value.ndim if isinstance(value, (np.ndarray, TypedConstant)) else None

    def is_bit_access(self, node: ast.Subscript) -> bool:
        """True when `node` subscripts a scalar (or slices anything): the base's type decides."""
        if isinstance(node.slice, ast.Slice):
            return True
        if isinstance(node.slice, ast.Tuple):
            return False  # `a[i, j]` indexes an array (its rank is checked there)
        base, index_nodes = subscript_chain(node)
        count = len(index_nodes)
        if isinstance(base, ast.Attribute):  # bits of a scalar struct field (`p.r[0:4]`), not `a.shape[0]`
            t = self.structs.struct_type_of_node(base.value)
            return t is not None and not hasattr(t.field(base.attr), "shape")
        rank = self.array_rank(base)
        return rank is None or count > rank

    def bits_operand(self, value: Value, node: ast.AST) -> Value:
        """An integer or fixed-point value whose bits are read (a bool is a uint1)."""
        if isinstance(value.type, BoolType):
            return self.ctx.lower.as_int(value, self.ctx.loc)
        if not isinstance(value.type, (IntType, FixedType)):
            hint = "; reinterpret it first with x.bitcast()" if isinstance(value.type, FloatType) else ""
            raise self.ctx.error(f"bit access needs an integer or fixed-point value, got {value.type}{hint}", node)
        return value

    def slice_bounds(self, sl: ast.Slice, width: int) -> tuple[int, int]:
        """Constant `lo`, `hi` of `x[lo:hi]`, checked against the value's width."""
        if sl.step is not None:
            raise self.ctx.error("bit slices take no step", sl.step, UnsupportedError)
        bounds = []
        for part, default in ((sl.lower, 0), (sl.upper, width)):
            value = default if part is None else self.ctx.compile_time(part)
            if value is MISSING or isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise self.ctx.error("bit slice bounds must be compile-time integers (the slice's width is its type)",
                                     part, UnsupportedError)
            bounds.append(int(value))
        lo, hi = bounds
        if lo < 0 or hi < 0:
            raise self.ctx.error("bit positions count from 0 (the least significant bit); negative positions are not "
                                 "supported", sl)
        if hi <= lo:
            raise self.ctx.error(f"bit slice [{lo}:{hi}] is empty: the upper bound must exceed the lower (x[lo:hi] "
                                 "holds bits lo..hi-1)", sl)
        if hi > width:
            raise self.ctx.error(f"bit slice [{lo}:{hi}] is out of range for a {width}-bit value (bits 0..{width - 1})",
                                 sl)
        return lo, hi

    def bit_index(self, node: ast.AST, width: int) -> Value:
        """The position of `x[i]`: constants are checked here, variables by csim."""
        return self.arrays.index_value(node, width, "bit index",
                                f"bit index {{}} is out of range for a {width}-bit value (bits 0..{width - 1})")

    def read_bits(self, node: ast.Subscript) -> Value:
        """`x[i]` (a bool) or `x[lo:hi]` (an ap_uint[hi - lo])."""
        value = self.bits_operand(self.ctx.expr(node.value), node.value)
        t, width = value.type, value.type.width
        if isinstance(node.slice, ast.Slice):
            lo, hi = self.slice_bounds(node.slice, width)
            self.ctx.conversions.add(node, slice_read(t, lo, hi))
            return self.ctx.emit(SliceOp(value, lo, hi, self.ctx.loc))
        index = self.bit_index(node.slice, width)
        self.ctx.conversions.add(node, bit_read(t))
        return self.ctx.emit(BitGetOp(value, index, self.ctx.loc))

    def store_bits(self, target: ast.Subscript, new: Value, key: ast.AST) -> None:
        """`x[i] = v`, `x[lo:hi] = v`, `B[i][0:2] = v`: the variable or element gets its bits replaced."""
        base = target.value
        if isinstance(base, ast.Name):
            current = self.names.read_name(base)
        elif isinstance(base, ast.Attribute):
            current = self.ctx.expr(base)  # a struct field
        elif isinstance(base, ast.Subscript) and not self.is_bit_access(base):
            memref, indices = self.arrays.access(base)
            current = self.ctx.emit(LoadOp(memref, indices, self.ctx.loc))
        else:
            raise self.ctx.error("bits can be assigned in a variable or an array element", target, UnsupportedError)
        current_bits = self.bits_operand(current, base)
        if current_bits is not current:
            raise self.ctx.error("assign a bool as a whole, not its bit", target, UnsupportedError)
        t, width = current.type, current.type.width
        if not isinstance(new.type, (IntType, BoolType)):
            raise self.ctx.error(f"bits take integer values; got {new.type} (reinterpret it with .bitcast() or slice "
                                 "it)", target)
        if isinstance(target.slice, ast.Slice):
            lo, hi = self.slice_bounds(target.slice, width)
            part = self.ctx.lower.cast(self.ctx.lower.as_int(new, self.ctx.loc), IntType(hi - lo, False), self.ctx.loc,
                                       explicit=True)
            result = self.ctx.emit(SliceSetOp(current, part, lo, hi, self.ctx.loc))
            store = Call("bits.set_slice", (Part("targets.0.value"), lo, hi, Part("value"), t))
            self.ctx.conversions.add(key, BitStore(store, slice_read(t, lo, hi)))
        else:
            index = self.bit_index(target.slice, width)
            bit = new if isinstance(new.type, BoolType) else \
                self.ctx.lower.cast(self.ctx.lower.cast(new, IntType(1, False), self.ctx.loc, explicit=True),
                                    BoolType(), self.ctx.loc)
            result = self.ctx.emit(BitSetOp(current, index, bit, self.ctx.loc))
            store = Call("bits.set_bit", (Part("targets.0.value"), Part("targets.0.slice"), Part("value"), t))
            self.ctx.conversions.add(key, BitStore(store, bit_read(t)))
        if isinstance(base, ast.Name):
            self.names.assign_name(base, result, None, key)
        elif isinstance(base, ast.Attribute):
            self.structs.store_field(base, result)
        else:
            self.ctx.emit(StoreOp(result, memref, indices, self.ctx.loc))

    def augment_bits(self, node: ast.AugAssign, kind: str) -> None:
        """`x[lo:hi] ^= v`: the bits read, combined exactly, and stored back (wrapped to the slice)."""
        read = ast.copy_location(ast.Subscript(value=node.target.value, slice=node.target.slice, ctx=ast.Load()),
                                 node.target)
        current = self.read_bits(read)
        self.ctx.conversions.pop(read, Call)  # the golden model builds its own read (BitStore.read)
        self.store_bits(node.target, self.exprs.augmented(kind, current, node.value, node), node)

    def method_call(self, node: ast.Call) -> Value | None:
        """`x.bit_count()`, `x.reverse()`, `x.bitcast()`, `x.bitcast(T)`, `x.range(hi, lo)` on a kernel value;
        None when `node` is no such call."""
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in (*METHODS, "bitcast", "range"):
            return None
        if isinstance(func.value, ast.Name) and func.value.id not in self.ctx.kernel_names:
            return None  # a module's function (`np.bitcast`?), not a method of a kernel value
        if func.attr == "range":
            return self.range_method(node)
        if node.keywords or node.args and func.attr != "bitcast" or len(node.args) > 1:
            raise self.ctx.error(f".{func.attr}() takes no arguments" if func.attr != "bitcast" else
                                 ".bitcast() takes at most the target type, e.g. x.bitcast(hls.float32)", node)
        value = self.ctx.expr(func.value)
        if func.attr == "bitcast":
            target = self.ctx.compile_time(node.args[0]) if node.args else None
            if node.args and not isinstance(target, ScalarType):
                raise self.ctx.error("x.bitcast(T) needs an hls scalar type, e.g. hls.float32", node.args[0])
            return self.lower_bitcast(node, value, target, Part("func.value"))
        value = self.bits_operand(value, func.value)
        self.ctx.conversions.add(node, Call(f"bits.{func.attr}", (Part("func.value"), value.type)))
        return self.ctx.emit(BitUnaryOp(METHODS[func.attr], value, self.ctx.loc))

    def range_method(self, node: ast.Call) -> Value:
        """Vitis's `x.range(hi, lo)`: bits lo..hi, both included (the Python slice `x[lo:hi + 1]`), unsigned;
        `x.range()` is every bit."""
        if node.keywords or len(node.args) not in (0, 2):
            raise self.ctx.error("x.range(hi, lo) takes the highest and the lowest bit, both included (Vitis's "
                                 "ap_int range)", node)
        value = self.bits_operand(self.ctx.expr(node.func.value), node.func.value)
        width = value.type.width
        bounds = []
        for arg in node.args:
            known = self.ctx.compile_time(arg)
            if known is MISSING or isinstance(known, bool) or not isinstance(known, (int, np.integer)):
                raise self.ctx.error("x.range(hi, lo) bounds must be compile-time integers (the width is its type)",
                                     arg, UnsupportedError)
            bounds.append(int(known))
        hi, lo = bounds or (width - 1, 0)
        if not 0 <= lo <= hi < width:
            raise self.ctx.error(f"x.range({hi}, {lo}) needs 0 <= lo <= hi < {width} for a {width}-bit value (Vitis's "
                                 "range is inclusive: x.range(hi, lo) is the slice x[lo:hi + 1]; a reversed range is "
                                 "not supported)", node)
        self.ctx.conversions.add(node, Call("bits.get_slice", (Part("func.value"), lo, hi + 1, value.type)))
        return self.ctx.emit(SliceOp(value, lo, hi + 1, self.ctx.loc))

    def lower_bitcast(self, node: ast.Call, value: Value, target: Any, value_part: Part | None = None) -> Value:
        source = value.type
        if isinstance(source, BoolType):
            value, source = self.ctx.lower.as_int(value, self.ctx.loc), IntType(1, False)
        if target is None:
            target = default_bitcast_target(source)
            if target is None:
                raise self.ctx.error(f"x.bitcast() of an integer ({source}) is ambiguous: name the target, e.g. "
                                     "hls.bitcast(x, hls.float32)", node)
        if not isinstance(source, (IntType, FixedType, FloatType)) or not isinstance(target, (IntType, FixedType,
                                                                                               FloatType)):
            raise self.ctx.error(f"bitcast reinterprets integers, fixed point and floats, not {source} -> {target}",
                                 node)
        if bits.width_of(source) != bits.width_of(target):
            raise self.ctx.error(f"bitcast keeps the width: {source} has {bits.width_of(source)} bits, {target} has "
                                 f"{bits.width_of(target)}; slice or convert first", node)
        value_part = value_part or Part("args.0")  # hls.bitcast(x, T); x.bitcast() passes its own
        self.ctx.conversions.add(node, Call("bits.bitcast_value", (value_part, source, target)))
        return self.ctx.emit(BitcastOp(value, target, self.ctx.loc))

    def lower_rotate(self, kind: OpKind, node: ast.Call) -> Value:
        """`hls.rotl(x, n)` / `hls.rotr(x, n)`: x an unsigned integer, n in 0..width-1 (a constant n is checked
        here, a variable one in Python mode and csim, as ap_int's lrotate asserts)."""
        if len(node.args) != 2:
            raise self.ctx.error(f"hls.{kind}(x, n) takes a value and a rotate count", node)
        value, count = self.ctx.expr(node.args[0]), self.ctx.expr(node.args[1])
        if not (isinstance(value.type, IntType) and not value.type.signed):
            raise self.ctx.error(f"hls.{kind}() rotates unsigned integers, not {value.type}; convert first, e.g. "
                                 f"hls.ap_uint[W](x)", node.args[0])
        if not isinstance(count.type, (IntType, BoolType)):
            raise self.ctx.error(f"the rotate count must be an integer, not {count.type}", node.args[1])
        width = value.type.width
        known = count.op.value if isinstance(getattr(count, "op", None), ConstantOp) else None
        if known is not None and not 0 <= known < width:
            raise self.ctx.error(f"rotate count {known} is outside 0..{width - 1} for {value.type}", node.args[1])
        self.ctx.conversions.add(node, Call(f"bits.{kind}", (Part("args.0"), Part("args.1"), value.type)))
        return self.ctx.emit(BinaryOp(kind, value, count, value.type, self.ctx.loc))

    def intrinsic_call(self, name: str, node: ast.Call) -> Value:
        """`hls.concat(a, b, ...)`, `hls.leading_zeros(x)`, `hls.bitcast(x, T)`."""
        if node.keywords:
            raise self.ctx.error(f"hls.{name}() takes positional arguments only", node, UnsupportedError)
        if name == "concat":
            if not node.args:
                raise self.ctx.error("hls.concat() needs at least one value", node)
            values = [self.bits_operand(self.ctx.expr(arg), arg) for arg in node.args]
            self.ctx.conversions.add(node, Call("bits.concat_values", (tuple(v.type for v in values), Part("args.*"))))
            return self.ctx.emit(ConcatOp(values, self.ctx.loc))
        if name in (OpKind.ROTL, OpKind.ROTR):
            return self.lower_rotate(OpKind(name), node)
        if name == "leading_zeros":
            if len(node.args) != 1:
                raise self.ctx.error("hls.leading_zeros() takes one value", node)
            value = self.bits_operand(self.ctx.expr(node.args[0]), node.args[0])
            self.ctx.conversions.add(node, Call("bits.leading_zeros", (Part("args.0"), value.type)))
            return self.ctx.emit(BitUnaryOp("clz", value, self.ctx.loc))
        if len(node.args) != 2:
            raise self.ctx.error("hls.bitcast(x, T) takes a value and a type", node)
        target = self.ctx.compile_time(node.args[1])
        if not isinstance(target, ScalarType):
            raise HLSTypeError("hls.bitcast's second argument must be an hls scalar type, e.g. hls.float32",
                               self.ctx.src.loc(node.args[1]))
        return self.lower_bitcast(node, self.ctx.expr(node.args[0]), target)

    def visit_Subscript(self, node: ast.Subscript) -> Value:
        found = self.structs.field_access(node)
        if found is not None:  # `p.taps[j]`, `back[i].taps[j]`
            return self.ctx.emit(LoadOp(found[0], found[1], self.ctx.loc, field=found[2]))
        if isinstance(node.value, ast.Attribute) and self.structs.struct_type_of_node(node.value.value) is None:
            return self.exprs.static_number(node)  # `a.shape[1]`: a compile-time number, not a memory read
        if self.is_bit_access(node):
            return self.read_bits(node)
        if self.structs.struct_type_of_node(node) is not None:
            raise self.ctx.struct_not_a_value(self.structs.struct_type_of_node(node), node)
        memref, indices = self.arrays.access(node)
        return self.ctx.emit(LoadOp(memref, indices, self.ctx.loc))
