"""Operator kinds as data: one `OpKind` member per operator, carrying every fact a stage needs about it.

The frontend reads the Python operator (`py`), folding and the golden model read `fold`, the C++
backend reads `cpp`/`prec`, the MLIR backend its `mlir_*` spellings, the estimate `cost` and
`float_core`, CSE `commutative`, the folder `identity_*`/`absorbing`/`inverse`. Every table keyed by
operator kinds elsewhere is derived from this one (see docs/architecture.md, "How to add an operator").
`OpKind` is a str enum: a member equals, hashes and prints as its name (`OpKind.ADD == "add"`), so the
printed IR and every cache key stay what they were.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

import numpy as np

from hls.golden import bits
from hls.types import TypeFamily

BINARY, COMPARE, UNARY, LOGIC, MATH = "binary", "compare", "unary", "logic", "math"


def _min(a: Any, b: Any) -> Any:
    return b if b < a else a  # Python's min(a, b) and the C++ hls_min helper (NaN order included)


def _max(a: Any, b: Any) -> Any:
    return b if a < b else a


def _land(a: Any, b: Any) -> bool:
    return bool(a) and bool(b)


def _lor(a: Any, b: Any) -> bool:
    return bool(a) or bool(b)


@dataclass(frozen=True)
class Facts:
    """What one operator is. `fold` computes it on exact Python values (ints, Fractions, numpy floats);
    with `typed` it also receives the result type (rotates need the width). `exact_on` names the type
    families (`hls.types.TypeFamily`) on which `fold` is the golden model's result."""

    groups: frozenset[str]
    py: type[ast.AST] | None = None
    cpp: str | None = None
    prec: str | None = None
    cpp_unsigned: str | None = None
    commutative: bool = False
    identity_rhs: int | None = None
    identity_lhs: int | None = None
    absorbing: int | None = None
    fold: Callable[..., Any] | None = None
    typed: bool = False
    exact_on: frozenset[TypeFamily] = frozenset()
    zero_divisor_raises: bool = False
    inverse: str | None = None
    cost: str | None = None
    float_core: str | None = None
    mlir_int: tuple[str, str] | None = None
    mlir_float: str | None = None
    mlir_fixed: bool = False
    mlir_pred: tuple[str, str, str] | None = None
    mlir_math: str | None = None


def _f(*groups: str, exact_on: tuple[TypeFamily, ...] = (), **facts: Any) -> Facts:
    return Facts(frozenset(groups), exact_on=frozenset(exact_on), **facts)


_NUM = (TypeFamily.INT, TypeFamily.FIXED, TypeFamily.FLOAT)
_BITWISE = (TypeFamily.INT, TypeFamily.BOOL)


class OpKind(str, Enum):
    """Every operator kind of BinaryOp, CompareOp, UnaryOp, LogicOp and MathOp (pow is both). `cpp` is the
    C++ operator token, or with prec "primary" the function, helper template or method that computes it
    (`cpp_unsigned`: the helper for unsigned operands where it differs)."""

    groups: frozenset[str]
    py: type[ast.AST] | None
    cpp: str | None
    prec: str | None
    cpp_unsigned: str | None
    commutative: bool
    identity_rhs: int | None
    identity_lhs: int | None
    absorbing: int | None
    fold: Callable[..., Any] | None
    typed: bool
    exact_on: frozenset[TypeFamily]
    zero_divisor_raises: bool
    inverse: str | None
    cost: str | None
    float_core: str | None
    mlir_int: tuple[str, str] | None
    mlir_float: str | None
    mlir_fixed: bool
    mlir_pred: tuple[str, str, str] | None
    mlir_math: str | None

    __str__ = str.__str__  # prints as its name, as enum.StrEnum (3.11) does; this runs on 3.10 too
    __format__ = str.__format__

    def __new__(cls, value: str, facts: Facts) -> OpKind:
        member = str.__new__(cls, value)
        member._value_ = value
        for f in fields(facts):
            setattr(member, f.name, getattr(facts, f.name))
        return member

    # ---- binary arithmetic ----
    ADD = "add", _f(BINARY, py=ast.Add, cpp="+", prec="add", commutative=True, identity_rhs=0, identity_lhs=0,
                    fold=operator.add, exact_on=_NUM, cost="adder", float_core="add",
                    mlir_int=("arith.addi", "arith.addi"), mlir_float="arith.addf", mlir_fixed=True)
    SUB = "sub", _f(BINARY, py=ast.Sub, cpp="-", prec="add", identity_rhs=0, fold=operator.sub, exact_on=_NUM,
                    cost="adder", float_core="sub", mlir_int=("arith.subi", "arith.subi"), mlir_float="arith.subf",
                    mlir_fixed=True)
    MUL = "mul", _f(BINARY, py=ast.Mult, cpp="*", prec="mul", commutative=True, identity_rhs=1, identity_lhs=1,
                    absorbing=0, fold=operator.mul, exact_on=_NUM, cost="multiplier", float_core="mul",
                    mlir_int=("arith.muli", "arith.muli"), mlir_float="arith.mulf", mlir_fixed=True)
    DIV = "div", _f(BINARY, py=ast.Div, cpp="/", prec="mul", fold=operator.truediv, exact_on=(TypeFamily.FLOAT,),
                    zero_divisor_raises=True, cost="divider", float_core="div", mlir_float="arith.divf")
    FLOORDIV = "floordiv", _f(BINARY, py=ast.FloorDiv, cpp="hls_floordiv", prec="primary", cpp_unsigned="hls_div",
                              fold=operator.floordiv, exact_on=(TypeFamily.INT,),
                              zero_divisor_raises=True, cost="divider",
                              mlir_int=("arith.floordivsi", "arith.divui"))
    MOD = "mod", _f(BINARY, py=ast.Mod, cpp="hls_floormod", prec="primary", cpp_unsigned="hls_mod", fold=operator.mod,
                    exact_on=(TypeFamily.INT,), zero_divisor_raises=True, cost="divider",
                    mlir_int=("arith.remsi", "arith.remui"))
    AND = "and", _f(BINARY, py=ast.BitAnd, cpp="&", prec="band", commutative=True, absorbing=0,
                    fold=operator.and_, exact_on=_BITWISE, cost="logic", mlir_int=("arith.andi", "arith.andi"))
    OR = "or", _f(BINARY, py=ast.BitOr, cpp="|", prec="bor", commutative=True, identity_rhs=0, identity_lhs=0,
                  fold=operator.or_, exact_on=_BITWISE, cost="logic", mlir_int=("arith.ori", "arith.ori"))
    XOR = "xor", _f(BINARY, py=ast.BitXor, cpp="^", prec="xor", commutative=True, identity_rhs=0, identity_lhs=0,
                    fold=operator.xor, exact_on=_BITWISE, cost="logic", mlir_int=("arith.xori", "arith.xori"))
    SHL = "shl", _f(BINARY, py=ast.LShift, cpp="<<", prec="shift", identity_rhs=0, fold=operator.lshift,
                    exact_on=(TypeFamily.INT,), cost="shifter", mlir_int=("arith.shli", "arith.shli"))
    SHR = "shr", _f(BINARY, py=ast.RShift, cpp=">>", prec="shift", identity_rhs=0, fold=operator.rshift,
                    exact_on=(TypeFamily.INT,), cost="shifter", mlir_int=("arith.shrsi", "arith.shrui"))
    ROTL = "rotl", _f(BINARY, cpp="lrotate", prec="primary", identity_rhs=0, fold=bits.rotl, typed=True,
                      cost="shifter")
    ROTR = "rotr", _f(BINARY, cpp="rrotate", prec="primary", identity_rhs=0, fold=bits.rotr, typed=True,
                      cost="shifter")
    MIN = "min", _f(BINARY, cpp="hls_min", prec="primary", commutative=True, fold=_min, exact_on=_NUM, cost="minmax",
                    mlir_int=("arith.minsi", "arith.minui"))
    MAX = "max", _f(BINARY, cpp="hls_max", prec="primary", commutative=True, fold=_max, exact_on=_NUM, cost="minmax",
                    mlir_int=("arith.maxsi", "arith.maxui"))
    POW = "pow", _f(BINARY, MATH, py=ast.Pow, cpp="std::pow", cost="pow", float_core="pow", mlir_math="math.powf")

    # ---- comparisons (mlir_pred: signed, unsigned, float predicate; `!=` is true on NaN) ----
    LT = "lt", _f(COMPARE, py=ast.Lt, cpp="<", prec="rel", fold=operator.lt, inverse="ge", cost="comparator",
                  mlir_pred=("slt", "ult", "olt"))
    LE = "le", _f(COMPARE, py=ast.LtE, cpp="<=", prec="rel", fold=operator.le, inverse="gt", cost="comparator",
                  mlir_pred=("sle", "ule", "ole"))
    GT = "gt", _f(COMPARE, py=ast.Gt, cpp=">", prec="rel", fold=operator.gt, inverse="le", cost="comparator",
                  mlir_pred=("sgt", "ugt", "ogt"))
    GE = "ge", _f(COMPARE, py=ast.GtE, cpp=">=", prec="rel", fold=operator.ge, inverse="lt", cost="comparator",
                  mlir_pred=("sge", "uge", "oge"))
    EQ = "eq", _f(COMPARE, py=ast.Eq, cpp="==", prec="eq", commutative=True, fold=operator.eq, inverse="ne",
                  cost="comparator", mlir_pred=("eq", "eq", "oeq"))
    NE = "ne", _f(COMPARE, py=ast.NotEq, cpp="!=", prec="eq", commutative=True, fold=operator.ne, inverse="eq",
                  cost="comparator", mlir_pred=("ne", "ne", "une"))

    # ---- unary ----
    NEG = "neg", _f(UNARY, py=ast.USub, cpp="-", prec="unary", fold=operator.neg, cost="adder",
                    mlir_float="arith.negf")
    INVERT = "invert", _f(UNARY, py=ast.Invert, cpp="~", prec="unary", fold=operator.invert, cost="logic")
    NOT = "not", _f(UNARY, py=ast.Not, cpp="!", prec="unary", fold=operator.not_, cost="logic")
    ABS = "abs", _f(UNARY, cpp="hls_abs", prec="primary", fold=abs, cost="abs", mlir_float="math.absf")

    # ---- short-circuit-free boolean logic ----
    LAND = "land", _f(LOGIC, py=ast.And, cpp="&&", prec="land", commutative=True, fold=_land, cost="logic",
                      mlir_int=("arith.andi", "arith.andi"))
    LOR = "lor", _f(LOGIC, py=ast.Or, cpp="||", prec="lor", commutative=True, fold=_lor, cost="logic",
                    mlir_int=("arith.ori", "arith.ori"))

    # ---- math library functions (cpp: the <cmath> overload; fold only where correctly rounded) ----
    SQRT = "sqrt", _f(MATH, cpp="std::sqrt", fold=np.sqrt, float_core="sqrt", mlir_math="math.sqrt")
    EXP = "exp", _f(MATH, cpp="std::exp", float_core="exp", mlir_math="math.exp")
    LOG = "log", _f(MATH, cpp="std::log", float_core="log", mlir_math="math.log")
    SIN = "sin", _f(MATH, cpp="std::sin", float_core="sin", mlir_math="math.sin")
    COS = "cos", _f(MATH, cpp="std::cos", float_core="cos", mlir_math="math.cos")
    TANH = "tanh", _f(MATH, cpp="std::tanh", float_core="tanh", mlir_math="math.tanh")
    FLOOR = "floor", _f(MATH, cpp="std::floor", fold=np.floor, float_core="floor", mlir_math="math.floor")
    CEIL = "ceil", _f(MATH, cpp="std::ceil", fold=np.ceil, float_core="floor", mlir_math="math.ceil")
    FABS = "fabs", _f(MATH, cpp="std::fabs", fold=np.fabs, mlir_math="math.absf")


def kinds(group: str) -> tuple[OpKind, ...]:
    """The kinds an op class accepts, in declaration order."""
    return tuple(k for k in OpKind if group in k.groups)


def by_python(group: str) -> dict[type[ast.AST], OpKind]:
    """Python AST operator class -> kind, for the frontend's operator tables."""
    return {k.py: k for k in kinds(group) if k.py is not None}
