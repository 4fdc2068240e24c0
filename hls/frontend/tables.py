"""Operator tables and the messages for Python constructs kernels cannot contain."""

import ast

import numpy as np

from hls.ir.kinds import BINARY, COMPARE, LOGIC, MATH, UNARY, by_python, kinds

BINOPS = by_python(BINARY)
CMPOPS = by_python(COMPARE)
UNOPS = by_python(UNARY)
BOOLOPS = by_python(LOGIC)
MATH_NAMES = {str(k) for k in kinds(MATH)}
# numpy's spellings of the math functions that compute what math's do on one value (np.floor/ceil return
# floats where math's return ints, so they are not here); on arrays they apply element by element
NUMPY_MATH = {getattr(np, name): name for name in ("exp", "log", "sqrt", "tanh", "sin", "cos", "fabs")}

UNSUPPORTED = {
    ast.Try: "`try` has no hardware meaning; kernels cannot raise or catch exceptions",
    ast.Lambda: "lambdas are not supported; write a separate @hls.kernel function",
    ast.ListComp: "list comprehensions are not supported; use hls.zeros and a for loop",
    ast.SetComp: "set comprehensions are not supported in kernels",
    ast.DictComp: "dict comprehensions are not supported in kernels",
    ast.GeneratorExp: "generator expressions are not supported; use a for loop",
    ast.Yield: "generators (`yield`) are not supported in kernels",
    ast.YieldFrom: "generators (`yield from`) are not supported in kernels",
    ast.Await: "`await` is not supported in kernels",
    ast.AsyncFor: "`async for` is not supported in kernels",
    ast.AsyncWith: "`async with` is not supported in kernels",
    ast.AsyncFunctionDef: "async functions are not supported in kernels",
    ast.Global: "`global` is not supported: kernels cannot write module state; pass an array argument",
    ast.Nonlocal: "`nonlocal` is not supported: kernels cannot write enclosing state",
    ast.FunctionDef: "nested functions are not supported; define another @hls.kernel at module level",
    ast.ClassDef: "classes are not supported in kernels",
    ast.Dict: "dict values are not supported in kernels; use arrays",
    ast.List: "list values are not supported in kernels; use hls.zeros or a module-level numpy array",
    ast.Set: "set values are not supported in kernels",
    ast.JoinedStr: "strings are not supported in kernels",
    ast.Delete: "`del` is not supported in kernels",
    ast.Raise: "`raise` is not supported in kernels",
    ast.Assert: "`assert` is not supported in kernels",
    ast.Import: "imports inside kernels are not supported; import at module level",
    ast.ImportFrom: "imports inside kernels are not supported; import at module level",
    ast.Starred: "`*` unpacking is not supported in kernels",
    ast.NamedExpr: "`:=` is not supported in kernels",
    ast.Slice: "slices are not supported; index every dimension with a scalar",
}
