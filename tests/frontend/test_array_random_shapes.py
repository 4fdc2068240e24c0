"""Array operators on seeded random broadcast-compatible shapes (issue 22): for each of three shape
sets, one kernel holds every operator (element-wise arithmetic, bitwise, shifts, comparisons, where,
maximum/minimum/abs, casts, reductions and means with axis/keepdims, contractions, transpose, slices, reshape,
concatenate), each stored into its own output; golden == csim == a reference written here with numpy
on object arrays of Python ints (exact), wrapped only where a declared type wraps (a narrow output, a
variable `<<`, a declared accumulator), floats in float32 in the kernel's operation order. And bad
shapes: each an HLSTypeError naming both shapes at the line."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hls.errors import HLSTypeError
from tests.array_reference import exact, seq_matmul, seq_sum, wrap
from tests.conftest import load_example
from tests.error_marks import assert_error_at_marker

SEEDS = (3, 11, 29)
F32 = np.float32


def random_shapes(seed: int) -> dict[str, Any]:
    """A result shape S and operands broadcast to it, matmul and concatenation partners, an axis."""
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    S = tuple(int(n) for n in rng.integers(2, 5, rank))

    def small(shape: tuple[int, ...]) -> tuple[int, ...]:  # drop leading dims, set some to 1
        kept = shape[int(rng.integers(0, len(shape))):]
        return tuple(1 if rng.random() < 0.35 else n for n in kept)

    batch = tuple(int(n) for n in rng.integers(2, 4, int(rng.integers(0, 2))))
    n, k, m = (int(x) for x in rng.integers(2, 5, 3))
    m2_batch = tuple(1 if rng.random() < 0.5 else b for b in batch) if batch and rng.random() < 0.6 else ()
    ax = int(rng.integers(0, rank))
    q = list(S)
    q[ax] = int(rng.integers(1, 4))
    return {"S": S, "Sb": small(S), "Sc": small(S), "M1": (*batch, n, k), "M2": (*m2_batch, k, m), "v": (k,),
            "W": (S[-1], int(rng.integers(2, 4))), "Q": tuple(q), "ax": ax, "keep": bool(rng.random() < 0.5),
            "perm": tuple(int(p) for p in rng.permutation(rank)), "F2": (n, k), "F3": (k, m)}


@dataclass
class Op:
    """One output: the statement's right side, the output's element type and the reference value."""

    name: str
    expr: str
    out: str  # the hls element type of the output array
    ref: Any  # the expected value (its shape is the output's)
    target: str = ""  # a slice written on the output ("" : the whole of it)

    def __post_init__(self) -> None:
        if np.ndim(self.ref) == 0:  # one value (a reduction of every axis): stored into a 1-element output
            self.ref, self.target = np.array([self.ref]).reshape(1), "[0]"


def int_ops(P: dict[str, Any], v: dict[str, Any]) -> list[Op]:
    """The integer operators; `v` holds the inputs as exact object arrays (and s, a Python int)."""
    a, b, c, s, m1, m2, vv, w, q = (v[x] for x in ("a", "b", "c", "s", "m1", "m2", "vv", "w", "q"))
    rank, ax, keep = len(P["S"]), P["ax"], P["keep"]
    first = "::-1" + ", ::2" * (rank - 1)
    sl = tuple([slice(None, None, -1)] + [slice(None, None, 2)] * (rank - 1))
    half = np.zeros(P["S"], dtype=object)
    half[::2] = a[::2] * 3 + 1

    def acc16(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # hls.matmul(acc=int16): each partial sum wraps
        total = np.zeros(np.broadcast_shapes(x[..., :1].shape, y[..., :1, :].shape), dtype=object)
        for kk in range(x.shape[-1]):
            total = wrap(total + x[..., :, kk:kk + 1] * y[..., kk:kk + 1, :], 16).astype(object)
        return total

    return [
        Op("add", "a + b", "int64", a + b),
        Op("sub", "b - c", "int64", b - c),
        Op("mul_wraps", "a * b", "int16", wrap(a * b, 16)),
        Op("scalar", "a * s + 3", "int64", a * s + 3),
        Op("floordiv", "b // (c | 1)", "int64", b // (c | 1)),
        Op("mod", "b % (c | 1) - a % 7", "int64", b % (c | 1) - a % 7),
        Op("pow", "a ** 2 - b", "int64", a ** 2 - b),
        Op("neg", "-a - -b", "int64", -a + b),
        Op("and", "a & b", "int64", a & b),
        Op("or", "b | c", "int64", b | c),
        Op("xor", "a ^ c", "int64", a ^ c),
        Op("invert", "~b + ~c", "int64", ~b + (255 - c)),  # ~ of a uint8 flips its 8 bits (ap_uint's)
        Op("shl_const", "a << 3", "int64", a << 3),
        Op("shr_const", "b >> 2", "int64", b >> 2),
        Op("shl_var", "b << (c & 3)", "int64", wrap(b * 2 ** (c & 3), 16)),  # a variable count keeps b's int16
        Op("shr_var", "a >> (c & 7)", "int64", a >> (c & 7)),
        Op("lt", "a < b", "bool_", (a < b).astype(bool)),
        Op("eq", "(a == c) | (b != s)", "bool_", ((a == c) | (b != s)).astype(bool)),
        Op("logic", "((a > 0) & (b < 0)) | ~(c == 3)", "bool_", (((a > 0) & (b < 0)) | ~(c == 3).astype(bool))),
        Op("where", "np.where(a > b, a, b - 1)", "int64", np.where((a > b).astype(bool), a, b - 1)),
        Op("maximum", "np.maximum(a, b) + np.minimum(b, c)", "int64", np.maximum(a, b) + np.minimum(b, c)),
        Op("abs", "np.abs(a) + abs(b)", "int64", abs(a) + abs(b)),
        Op("cast_int8", "hls.int8(b)", "int8", wrap(b, 8)),
        Op("cast_uint4", "hls.uint4(a) + hls.int8(b * 3)", "int64", wrap(a, 4, False) + wrap(b * 3, 8)),
        Op("sum_axis", f"a.sum(axis={ax}, keepdims={keep}) + 1", "int64", a.sum(axis=ax, keepdims=keep) + 1),
        Op("max_axis", f"np.max(b * a, axis={ax - rank})", "int64", (b * a).max(axis=ax)),
        Op("min_tuple", f"a.min(axis={tuple(range(rank))[::2]}, keepdims=True)", "int64",
           a.min(axis=tuple(range(rank))[::2], keepdims=True)),
        Op("mean", f"a.mean(axis={ax}) + np.mean(b)", "float64", a.sum(axis=ax) / P["S"][ax] + b.sum() / b.size),
        Op("sum_all", "a.sum() + np.max(b)", "int64", a.sum() + b.max()),
        Op("matmul", "m1 @ m2", "int64", m1 @ m2),
        Op("matvec", "np.matmul(m1, vv) + 1", "int64", m1 @ vv + 1),
        Op("vecmat", "vv @ m2", "int64", vv @ m2),
        Op("acc16", "hls.matmul(m1, m2, acc=hls.int16)", "int64", acc16(m1, m2)),
        Op("dot", "np.dot(a, w)", "int64", np.dot(a, w)),
        Op("transpose", f"np.transpose(a, {P['perm']}) * 2", "int64", np.transpose(a, P["perm"]) * 2),
        Op("t", "a.T + 1", "int64", a.T + 1),
        Op("slices", f"a[{first}] * 2", "int64", a[sl] * 2),
        Op("neg_bounds", "a[-2:] - a[:2]", "int64", a[-2:] - a[:2]),
        Op("slice_target", "a[::2] * 3 + 1", "int64", half, "[::2]"),
        Op("reshape", "a.reshape(-1) + q.reshape((-1,))[:1]", "int64", a.reshape(-1) + q.reshape(-1)[:1]),
        Op("outer", "vv[:, None] * vv[None, :]", "int64", vv[:, None] * vv[None, :]),
        Op("concat", f"np.concatenate((a, q), axis={ax})", "int64", np.concatenate((a, q), axis=ax)),
        Op("concat_neg", f"np.concatenate([q, a * 2, q], axis={ax - rank}) - 1", "int64",
           np.concatenate([q, a * 2, q], axis=ax) - 1),
        Op("stack", f"np.stack((a, a * 2), axis={ax - rank - 1}) + np.stack([a, a], {ax})", "int64",
           np.stack((a, a * 2), axis=ax) + np.stack([a, a], ax)),
        Op("hstack", "np.hstack((a, a[::-1]))", "int64", np.hstack((a, a[::-1]))),
        Op("vstack", "np.vstack((a, a * 3))", "int64", np.vstack((a, a * 3))),
    ]


def float_ops(P: dict[str, Any], v: dict[str, Any]) -> list[Op]:
    f, g, a, c, f2, f3 = (v[x] for x in ("f", "g", "a_int", "c_int", "f2", "f3"))
    ax = P["ax"]
    return [
        Op("fadd", "f * 2.0 + g", "float32", f * F32(2) + g),
        Op("fdiv", "f / (g * g + 1.0)", "float32", f / (g * g + F32(1))),
        Op("fmax", "np.maximum(f, g) - np.minimum(f, 0.5)", "float32", np.maximum(f, g) - np.minimum(f, F32(0.5))),
        Op("fsqrt", "np.sqrt(np.abs(f))", "float32", np.sqrt(np.abs(f))),
        Op("fwhere", "np.where(f > g, f, g * 0.5)", "float32", np.where(f > g, f, g * F32(0.5))),
        Op("int_float", "a * f", "float32", a.astype(F32) * f),
        Op("truediv", "a / (c | 1)", "float64", a.astype(np.float64) / (c | 1).astype(np.float64)),
        Op("to_int", "hls.int16(f * 100.0)", "int16", np.trunc(f * F32(100)).astype(np.int64).astype(np.int16)),
        Op("fsum", f"f.sum(axis={ax})", "float32", seq_sum(f, ax)),
        Op("fmean", f"f.mean(axis={ax}, keepdims=True)", "float32", seq_sum(f, ax, True) / F32(f.shape[ax])),
        Op("fmatmul", "f2 @ f3", "float32", seq_matmul(f2, f3)),
        Op("fcmp", "f >= g", "bool_", f >= g),
    ]


def annotation(elem: str, shape: tuple[int, ...]) -> str:
    return f"hls.{elem}[{', '.join(map(str, shape))}]" if shape else f"hls.{elem}"


def kernel_text(name: str, inputs: list[tuple[str, str, tuple[int, ...]]], ops: list[Op]) -> str:
    """A kernel storing each op into its own output `o_<name>`."""
    params = [f"{n}: {annotation(t, s)}" for n, t, s in inputs]
    params += [f"o_{op.name}: {annotation(op.out, np.shape(op.ref))}" for op in ops]
    body = []
    for op in ops:
        target = op.target or "[" + ", ".join([":"] * len(np.shape(op.ref))) + "]"
        body.append(f"    o_{op.name}{target} = {op.expr}")
    return f"@hls.kernel\ndef {name}({', '.join(params)}):\n" + "\n".join(body) + "\n"


NP = {"int8": np.int8, "int16": np.int16, "uint8": np.uint8, "int64": np.int64, "bool_": np.bool_,
      "float32": np.float32, "float64": np.float64}


@dataclass
class Case:
    seed: int
    module: Any
    int_args: list[np.ndarray]
    float_args: list[np.ndarray]
    int_ops: list[Op]
    float_ops: list[Op]


def build_case(seed: int, folder: Path) -> Case:
    P = random_shapes(seed)
    rng = np.random.default_rng(seed + 1000)
    ints8 = ("a", "m1", "m2", "vv", "w")
    shape_of = {"a": "S", "b": "Sb", "c": "Sc", "m1": "M1", "m2": "M2", "vv": "v", "w": "W", "q": "Q"}
    raw = {k: rng.integers(-128, 128, P[shape_of[k]]).astype(np.int8) for k in ints8}
    raw["b"], raw["q"] = (rng.integers(-3000, 3000, P[shape_of[k]]).astype(np.int16) for k in ("b", "q"))
    raw["c"], raw["s"] = rng.integers(0, 256, P["Sc"]).astype(np.uint8), np.int8(rng.integers(-128, 128))
    raw["a"].flat[0] = -128  # abs and negation of the minimum stay exact
    types = {"a": "int8", "b": "int16", "c": "uint8", "s": "int8", "m1": "int8", "m2": "int8", "vv": "int8",
             "w": "int8", "q": "int16"}
    ints = int_ops(P, {k: exact(x) if k != "s" else int(x) for k, x in raw.items()})
    fl = {"f": rng.uniform(-4, 4, P["S"]).astype(F32), "g": rng.uniform(-4, 4, P["Sb"]).astype(F32),
          "a_int": raw["a"], "c_int": raw["c"], "f2": rng.uniform(-2, 2, P["F2"]).astype(F32),
          "f3": rng.uniform(-2, 2, P["F3"]).astype(F32)}
    floats = float_ops(P, fl)
    int_inputs = [(k, types[k], () if k == "s" else raw[k].shape) for k in raw]
    float_inputs = [("f", "float32", P["S"]), ("g", "float32", P["Sb"]), ("a", "int8", P["S"]),
                    ("c", "uint8", P["Sc"]), ("f2", "float32", P["F2"]), ("f3", "float32", P["F3"])]
    text = "import numpy as np\n\nimport hls\n\n\n" + kernel_text("int_ops", int_inputs, ints) + "\n\n" + \
        kernel_text("float_ops", float_inputs, floats)
    path = folder / f"random_shapes_{seed}.py"
    path.write_text(text)
    float_args = [fl["f"], fl["g"], raw["a"], raw["c"], fl["f2"], fl["f3"]]
    return Case(seed, load_example(path), list(raw.values()), float_args, ints, floats)


@pytest.fixture(scope="module", params=SEEDS)
def case(request, tmp_path_factory) -> Case:
    return build_case(request.param, tmp_path_factory.mktemp(f"shapes{request.param}"))


def outputs(ops: list[Op]) -> list[np.ndarray]:
    return [np.zeros(np.shape(op.ref), NP[op.out]) for op in ops]


def check(kernel: Any, args: list[Any], ops: list[Op], monkeypatch: pytest.MonkeyPatch) -> None:
    """Both golden models (numpy's whole-array one and Python's statement by statement), csim and the
    reference agree on every output."""
    runs = {}
    for mode in ("numpy", "python"):
        monkeypatch.setenv("HLS_GOLDEN", mode)
        runs[mode] = outputs(ops)
        kernel(*args, *runs[mode])
    monkeypatch.delenv("HLS_GOLDEN")
    runs["csim"] = outputs(ops)
    kernel.csim(*args, *runs["csim"])
    for n, op in enumerate(ops):
        expect = np.asarray(op.ref).astype(NP[op.out]) if op.out.startswith("float") or op.out == "bool_" else \
            wrap(op.ref, 64) if op.out == "int64" else np.asarray(op.ref).astype(np.int64)
        for mode, got in runs.items():
            np.testing.assert_array_equal(got[n], np.asarray(expect).astype(got[n].dtype),
                                          err_msg=f"{op.name} ({mode}): {op.expr}")


def test_integer_operators_on_random_shapes(case: Case, monkeypatch: pytest.MonkeyPatch):
    check(case.module.int_ops, case.int_args, case.int_ops, monkeypatch)


def test_float_operators_on_random_shapes(case: Case, monkeypatch: pytest.MonkeyPatch):
    check(case.module.float_ops, case.float_args, case.float_ops, monkeypatch)


# ---- bad shapes ---------------------------------------------------------------------------------------

BAD = [  # (statement, {argument: shape}, target shape, the two shapes the message names)
    ("C[:, :] = a + b", {"a": (4, 3), "b": (4,)}, (4, 3), "(4, 3) and (4,)"),
    ("C[:, :, :] = a - b", {"a": (2, 3, 4), "b": (3, 3)}, (2, 3, 4), "(2, 3, 4) and (3, 3)"),
    ("C[:] = a * b", {"a": (5,), "b": (4,)}, (5,), "(5,) and (4,)"),
    ("C[:, :] = a < b", {"a": (2, 2), "b": (3,)}, (2, 2), "(2, 2) and (3,)"),
    ("C[:, :, :] = a & b", {"a": (3, 1, 2), "b": (4, 3)}, (3, 4, 2), "(3, 1, 2) and (4, 3)"),
    ("C[:] = np.maximum(a, b)", {"a": (6,), "b": (7,)}, (6,), "(6,) and (7,)"),
    ("C[:, :] = np.where(a > 0, a, b)", {"a": (3, 4), "b": (4, 3)}, (3, 4), "(3, 4) and (4, 3)"),
    ("C[:, :] = a << b", {"a": (2, 5), "b": (2,)}, (2, 5), "(2, 5) and (2,)"),
    ("C[:] = abs(a) + b[::2]", {"a": (4,), "b": (4,)}, (4,), "(4,) and (2,)"),
    ("C[:, :] = a + b.T", {"a": (3, 4), "b": (3, 4)}, (3, 4), "(3, 4) and (4, 3)"),
    ("C[:, :] = a @ b", {"a": (3, 4), "b": (5, 6)}, (3, 6), "(3, 4) and (5, 6)"),
    ("C[:, :, :] = np.matmul(a, b)", {"a": (2, 3, 4), "b": (2, 5, 6)}, (2, 3, 6), "(2, 3, 4) and (2, 5, 6)"),
    ("C[:, :, :] = a @ b", {"a": (2, 3, 4), "b": (3, 4, 5)}, (2, 3, 5), "(2, 3, 4) and (3, 4, 5)"),
    ("C[:] = hls.matmul(a, b, acc=hls.int32)", {"a": (4,), "b": (5, 2)}, (2,), "(4,) and (5, 2)"),
    ("C[:, :] = np.dot(a, b)", {"a": (2, 3, 4), "b": (5,)}, (2, 3), "(2, 3, 4) and (5,)"),
    ("C[:, :] = a", {"a": (4, 3)}, (3, 4), "(4, 3) to a target of shape (3, 4)"),
    ("C[1:] = a", {"a": (5,)}, (5,), "(5,) to a target of shape (4,)"),
    ("C[:] += a", {"a": (4,)}, (3,), "(4,) to a target of shape (3,)"),
    ("C[::2] = a", {"a": (4,)}, (6,), "(4,) to a target of shape (3,)"),
    ("C[:, :] = a.sum(axis=1)", {"a": (3, 4)}, (3, 4), "(3,) to a target of shape (3, 4)"),
    ("C[:, :] = np.concatenate((a, b))", {"a": (3, 4), "b": (3, 5)}, (6, 4), "(3, 4) and (3, 5)"),
    ("C[:] = np.concatenate((a, b))", {"a": (3,), "b": (3, 1)}, (6,), "(3,) and (3, 1)"),
    ("C[:, :] = np.concatenate([a, b], axis=1)", {"a": (3, 4), "b": (2, 4)}, (3, 8), "(3, 4) and (2, 4)"),
    ("C[:, :] = a.reshape(5, 2)", {"a": (3, 4)}, (5, 2), "(3, 4) (size 12) to (5, 2)"),
    ("return a + b", {"a": (4,), "b": (1,)}, None, "(4,) to a target of shape (3,)"),
    ("y = a * 2\n    return y", {"a": (4,)}, None, "(shape (3,)) but has shape (4,)"),
]


def bad_text() -> str:
    out = ["import numpy as np", "", "import hls", ""]
    for n, (stmt, args, target, _) in enumerate(BAD):
        params = [f"{name}: {annotation('int16', shape)}" for name, shape in args.items()]
        ret = " -> hls.int32[3]"
        if target is not None:
            params.append(f"C: {annotation('int32', target)}")
            ret = ""
        lines = stmt.split("\n")
        lines[0] += f"  # E bad{n}"  # (a returned local: the error is at its assignment)
        out += ["", f"@hls.kernel\ndef bad{n}({', '.join(params)}){ret}:", *("    " + ln.strip() for ln in lines)]
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def bad_module(tmp_path_factory):
    path = tmp_path_factory.mktemp("bad_shapes") / "bad_shapes.py"
    path.write_text(textwrap.dedent(bad_text()))
    return load_example(path)


@pytest.mark.parametrize("n", range(len(BAD)))
def test_bad_shapes_name_both_at_the_line(bad_module, n):
    assert_error_at_marker(bad_module, f"bad{n}", HLSTypeError, BAD[n][3])
