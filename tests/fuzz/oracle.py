"""No-overflow kernels and a third oracle: the undecorated function run by plain CPython.

Why: golden == csim says nothing when both are wrong in the same way (a local typed by its first
value, a literal `1` that is two bits wide). These kernels are built so that no declared value can
wrap: parameters are at most 64 bits, every result is stored in an `int64` slot (or returned as
`hls.int64`) and the generator bounds every value below 2**62 (trip counts <= 16, shift counts
<= 31, products of at most 62 bits); undeclared locals carry no declared type, so the language
says they hold what Python would hold. So golden, csim and CPython (the function without its
decorator, on Python ints and lists, with `hls` replaced by plain-Python stand-ins) must agree on
every input set, the edge values of the declared types among them.

The branches (`BRANCHES`; `--branches` in tests/fuzz/campaign.py picks some) are the patterns a
reader writes and the old typing rules miscompiled: locals first assigned in branches with
different types, bare literals meeting wider values, loop accumulations, `~` and shifts on
unsigned values and literals, mixed-signedness comparisons and joins, and boundary arithmetic on
scalar parameters (every kernel is also run with its scalars at their min and max), and
whole-array statements (issue 22: broadcasting, views, reductions, contractions), which CPython runs
as numpy itself on object arrays of Python ints (exact, so numpy with no width is the reference).
"""

from __future__ import annotations

import random
import re
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

BRANCHES = ("join", "literal", "accumulate", "unsigned", "mixed", "boundary")  # the default set
KNOWN_BRANCHES = (*BRANCHES, "array")  # `array` on request (--branches array): the default set's seeds stay
KNOWN_CLASSES = ("cpython:golden=csim", "cpython:golden", "cpython:csim", "cpython:all-differ")  # mismatch kinds
WIDTHS = (1, 3, 7, 8, 13, 16, 17, 31, 32, 33, 40, 48, 63, 64)
SIZES = (4, 8, 16)


@dataclass
class Param:
    name: str
    width: int
    signed: bool
    shape: tuple[int, ...] = ()
    bool_: bool = False

    @property
    def spell(self) -> str:
        base = "hls.bool_" if self.bool_ else f"hls.{'' if self.signed else 'u'}int{self.width}"
        return base + (f"[{', '.join(map(str, self.shape))}]" if self.shape else "")

    @property
    def bits(self) -> int:
        """Magnitude bits of the value (sign excluded)."""
        return 1 if self.bool_ else self.width - (1 if self.signed else 0)


@dataclass
class OracleGen:
    seed: int
    branches: Sequence[str]
    rng: random.Random = field(init=False)
    params: list[Param] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)  # one expression per out slot
    counter: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(f"oracle-{self.seed}")

    def pick(self, seq: Sequence[Any]) -> Any:
        return seq[self.rng.randrange(len(seq))]

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def param(self, signed: bool | None = None, max_bits: int = 63, shape: tuple[int, ...] = (),
              widths: Sequence[int] = WIDTHS) -> Param:
        """A new parameter whose magnitude fits `max_bits` bits (out slots are int64)."""
        signed = self.rng.random() < 0.5 if signed is None else signed
        options = [w for w in widths if w - signed <= max_bits and (w > 1 or not signed)]
        p = Param(self.fresh("s" if not shape else "a"), self.pick(options), signed, shape)
        self.params.append(p)
        return p

    def flag(self) -> str:
        """A condition: a bool parameter or a comparison of a new one with a small literal."""
        if self.rng.random() < 0.5:
            p = Param(self.fresh("c"), 1, False, bool_=True)
            self.params.append(p)
            return p.name
        p = self.param(max_bits=40)
        return f"{p.name} {self.pick(('>', '>=', '<', '=='))} {self.pick((0, 1, 5, -3) if p.signed else (0, 1, 5))}"

    def out(self, expr: str) -> None:
        self.results.append(expr)

    # ---- the branches ----------------------------------------------------------------------------

    def join(self) -> None:
        """A local first assigned in branches with different types (issue 19's first snippet)."""
        t = self.fresh("t")
        roll = self.rng.random()
        if roll < 0.35:
            x = self.param()
            arms = [f"{t} = {self.pick((0, 1, -1, 7))}", f"{t} = {x.name}"]
            self.rng.shuffle(arms)
            self.lines += [f"    if {self.flag()}:", f"        {arms[0]}", "    else:", f"        {arms[1]}"]
        elif roll < 0.6:
            x = self.param(signed=True, max_bits=62)
            self.lines += [f"    if {x.name} >= 0:", f"        {t} = {x.name}", "    else:", f"        {t} = -{x.name}"]
        elif roll < 0.8:
            u, s = self.param(signed=False, max_bits=40), self.param(signed=True, max_bits=40)
            self.lines += [f"    if {self.flag()}:", f"        {t} = {u.name}", f"    elif {self.flag()}:",
                           f"        {t} = {s.name}", "    else:", f"        {t} = {self.pick((0, -5, 100))}"]
        else:
            x = self.param(max_bits=62)
            self.lines += [f"    {t} = {self.pick((0, 1))}", f"    if {self.flag()}:", f"        {t} = {x.name}"]
        self.out(t)

    def literal(self) -> None:
        """A bare literal meeting wider values: `m = 0`, then `m = v` for v of a wider type."""
        n = self.pick(SIZES)
        a = self.param(signed=self.rng.random() < 0.3, shape=(n,), max_bits=63, widths=(8, 16, 32, 33, 48, 63, 64))
        m, i = self.fresh("m"), self.fresh("i")
        form = self.pick(("if", "max", "min"))
        self.lines.append(f"    {m} = {self.pick((0, 1)) if form != 'min' else self.pick((0, -1, 1000))}")
        self.lines.append(f"    for {i} in range({n}):")
        if form == "if":
            self.lines += [f"        if {a.name}[{i}] > {m}:", f"            {m} = {a.name}[{i}]"]
        else:
            self.lines.append(f"        {m} = {form}({m}, {a.name}[{i}])")
        self.out(m)

    def accumulate(self) -> None:
        """`s = 0; s = s + v` over a known trip count (or a while loop: the rules may ask for a declaration)."""
        n = self.pick(SIZES)
        a = self.param(shape=(n,), max_bits=40, widths=(8, 16, 17, 31, 32, 33, 40))
        s, i = self.fresh("acc"), self.fresh("i")
        start = self.pick(("0", "0", "hls.int64(0)", "1"))
        step = self.pick((f"{s} + {a.name}[{i}]", f"{s} - {a.name}[{i}]", f"{s} + 3 * {a.name}[{i}]"))
        roll = self.rng.random()
        self.lines.append(f"    {s} = {start}")
        if roll < 0.15:
            self.lines += [f"    {i} = 0", f"    while {i} < {n}:", f"        {s} = {step}", f"        {i} += 1"]
        elif roll < 0.5:
            self.lines += [f"    for {i} in range({n}):", f"        {s} += {step.split(' ', 2)[2]}"
                           if step.startswith(f"{s} + ") else f"        {s} = {step}"]
        else:
            self.lines += [f"    for {i} in range({n}):", f"        {s} = {step}"]
        self.out(s)

    def unsigned(self) -> None:
        """`1 << n`, masks `x & ((1 << n) - 1)`, `~` and shifts on unsigned values and literals."""
        n = Param(self.fresh("n"), self.pick((3, 4, 5)), False)
        self.params.append(n)
        roll = self.rng.random()
        if roll < 0.3:
            self.out(f"1 << {n.name}")
        elif roll < 0.55:
            x = self.param(max_bits=40)
            self.out(f"{x.name} & ((1 << {n.name}) - 1)")
        elif roll < 0.8:
            u = self.param(signed=False, max_bits=40)
            k = self.rng.randint(1, u.width)
            inverted = f"~{u.name}" if self.rng.random() < 0.5 else f"~({u.name} ^ {self.rng.randint(0, 9)})"
            self.out(f"({inverted}) & {(1 << k) - 1}")
        else:
            u = self.param(signed=False, max_bits=40)
            self.out(self.pick((f"{u.name} >> {n.name}", f"({u.name} >> {n.name}) << 2", f"{u.name} << 3",
                                f"({u.name} >> 1) + (1 << {n.name})")))

    def mixed(self) -> None:
        """Mixed-signedness comparisons and joins: exact in Python, a classic C trap."""
        u, s = self.param(signed=False, max_bits=40), self.param(signed=True, max_bits=40)
        roll = self.rng.random()
        if roll < 0.4:
            self.out(f"1 if {u.name} {self.pick(('<', '<=', '>', '>=', '==', '!='))} {s.name} else 0")
        elif roll < 0.6:
            self.out(f"{self.pick(('max', 'min'))}({u.name}, {s.name})")
        elif roll < 0.8:
            t = self.fresh("t")
            self.lines.append(f"    {t} = {u.name} if {self.flag()} else {s.name}")
            self.out(t)
        else:
            self.out(f"{u.name} - {s.name}")

    def boundary(self) -> None:
        """Arithmetic that leaves the parameter's own range at its min or max."""
        x = self.param(max_bits=60)
        self.out(self.pick((f"{x.name} + 1", f"-{x.name}", f"abs({x.name})", f"{x.name} - 1", f"{x.name} * 2",
                            f"{x.name} // {self.pick((-3, 7, 2))}", f"{x.name} % {self.pick((-3, 7, 16))}")))

    def array(self) -> None:
        """Whole-array statements: element-wise chains with broadcasting and views, new array locals,
        reductions, contractions (np.dot above 2-D too) and concatenations (magnitudes below 2**24, so
        every product and sum stays exact)."""
        n, m = self.pick(SIZES), self.pick((2, 3, 4))
        small = (8, 13, 16, 17, 24)
        a, b = (self.param(shape=(n,), max_bits=24, widths=small).name for _ in range(2))
        roll = self.rng.random()
        if roll < 0.3:
            t = self.fresh("t")
            self.lines.append(f"    {t} = " + self.pick((f"{a} + {b} * 3", f"{a} - {b}[::-1]",
                                                         f"np.maximum({a}, {b}) - np.minimum({a}, 0)",
                                                         f"np.where({a} > {b}, {a}, -{b})", f"np.abs({a} - {b})")))
            self.out(f"{t}.{self.pick(('sum', 'max', 'min'))}()")
        elif roll < 0.55:
            M = self.param(shape=(m, n), max_bits=24, widths=small).name
            c = self.param(shape=(m,), max_bits=24, widths=small).name
            self.out(self.pick((f"({M} @ {a}).sum()", f"({M} * {b}[None, :]).sum(axis=1).max()",
                                f"({M}.T @ {c}).min()", f"np.sum({M} - {c}[:, None] + {a}, axis=0).sum()",
                                f"{M}.max(axis=1, keepdims=True).sum()",
                                f"np.concatenate(({M}, {c}[:, None]), axis=-1).sum(axis=1).min()",
                                f"np.concatenate([{M}[:1, ::-1], {M} - 1], axis=0).max(axis=0).sum()")))
        elif roll < 0.65:  # np.dot above 2-D: a's last axis against b's second-to-last
            T = self.param(shape=(2, m, n), max_bits=24, widths=small).name
            M = self.param(shape=(m, n), max_bits=24, widths=small).name
            self.out(self.pick((f"np.dot({T}, {a}).sum()", f"np.dot({T}, {M}.T).max()",
                                f"np.dot({a}, np.transpose({T}, (0, 2, 1))).min()")))
        else:
            self.out(self.pick((f"{a} @ {b}", f"({a} * {b}).sum()", f"{a}[::2].sum() - {a}[1::2].sum()",
                                f"np.dot({a}, {b}) - {a}.min()", f"({a}[1:] - {a}[:-1]).max()",
                                f"np.concatenate(({a}, {b}[::-1], {a}[:1])).max() - np.concatenate([{b}, {a}]).sum()")))

    def unit_parts(self) -> tuple[str, list[tuple[str, str]]]:
        for _ in range(self.rng.randint(1, 4)):
            getattr(self, self.pick(list(self.branches)))()
        name = f"o_{self.seed}"
        *stored, last = self.results
        body = self.lines + [f"    out[{k}] = {e}" for k, e in enumerate(stored)] + [f"    return {last}"]
        args = [(p.name, p.spell) for p in self.params] + [("out", f"hls.int64[{max(len(stored), 1)}]")]
        sig = ", ".join(f"{n}: {t}" for n, t in args)
        return f"@hls.kernel\ndef {name}({sig}) -> hls.int64:\n" + "\n".join(body) + "\n", args


def oracle_unit(seed: int, branches: Sequence[str] = BRANCHES) -> Any:
    """The no-overflow unit for `seed` (deterministic), using only `branches`."""
    from tests.fuzz.generator import Unit

    bad = sorted(set(branches) - set(KNOWN_BRANCHES))
    if bad or not branches:
        raise ValueError(f"unknown oracle branches {bad}; choose from {', '.join(KNOWN_BRANCHES)}")
    source, args = OracleGen(seed, tuple(branches)).unit_parts()
    return Unit(seed, f"o_{seed}", source, args, "hls.int64", False, oracle=True)


# ---- the CPython side ----------------------------------------------------------------------------


class PlainHLS:
    """`hls` for the undecorated function: a type call checks that the value fits (no wrap is allowed
    in these kernels) and returns the Python value; directives do nothing; `hls.zeros` is a list."""

    def __getattr__(self, name: str) -> Any:
        m = re.fullmatch(r"(u?)int(\d+)", name)
        if m:
            return plain_int(int(m.group(2)), not m.group(1))
        if name == "bool_":
            return bool
        if name == "zeros":
            return lambda shape, t=None: [0] * (shape[0] if isinstance(shape, tuple) else shape)
        return lambda *a, **k: None


def plain_int(width: int, signed: bool) -> Callable[[Any], int]:
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)

    def make(value: Any = 0) -> int:
        value = int(value)
        if not lo <= value <= hi:
            raise OverflowError(f"{value} does not fit {'' if signed else 'u'}int{width}")
        return value
    return make


def plain_function(func: Any) -> Any:
    """The kernel's own function, its `hls` replaced by PlainHLS (its other globals as they are)."""
    namespace = dict(func.__globals__)
    namespace["hls"] = PlainHLS()
    return types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)


def python_value(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return [python_value(v) for v in value.tolist()] if value.dtype == object else value.tolist()
    return value.item() if isinstance(value, np.generic) else value


# ---- the three-way check -------------------------------------------------------------------------


def input_sets(kernel: Any, seed: int) -> list[tuple[str, list[Any]]]:
    """verify()'s first draw, every scalar at its min, at its max, then mixes of edges and draws."""
    from hls.types import ArrayType
    from hls.verification import edge_value

    compiled = kernel.compile()
    sets = [("random", kernel.random_inputs(seed))]
    for which in ("min", "max"):
        sets.append((which, [edge_value(t, v, which) if not isinstance(t, ArrayType) or n != "out" else v
                             for n, t, v in zip(compiled.arg_names, compiled.arg_types,
                                                kernel.random_inputs([seed, 1]), strict=True)]))
    rng = random.Random(seed)
    for k in range(3):
        mixed = []
        for n, t, v in zip(compiled.arg_names, compiled.arg_types, kernel.random_inputs([seed, 2 + k]), strict=True):
            if isinstance(t, ArrayType):
                edges = [edge_value(t.elem, 0, w) for w in ("min", "max", "0", "-1")]
                v = v if n == "out" else np.array([rng.choice([*edges, x]) for x in v.ravel().tolist()],
                                                  dtype=v.dtype).reshape(v.shape)
            else:
                v = rng.choice([edge_value(t, v, w) for w in ("min", "max", "0", "-1")] + [v])
            mixed.append(v)
        sets.append((f"mixed {k}", mixed))
    return sets


def run_three(kernel: Any, inputs: list[Any]) -> tuple[list[Any], list[Any], list[Any], dict[str, Any]]:
    """(golden, csim, CPython) results: each array argument after the call, then the return value."""
    copies = [[v.copy() if isinstance(v, np.ndarray) else v for v in inputs] for _ in range(2)]
    kernel.reset()
    ret, wraps = kernel.run_recording_overflows(kernel, copies[0])
    golden = [python_value(v) for v in copies[0] if isinstance(v, np.ndarray)] + [python_value(ret)]
    kernel.reset()
    ret = kernel.csim(*copies[1])
    csim = [python_value(v) for v in copies[1] if isinstance(v, np.ndarray)] + [python_value(ret)]
    # arrays as numpy object arrays of Python ints: indexing reads ints as a list does, and array
    # expressions are numpy's own with no width (the exact reference of the array branch)
    plain = [np.array(python_value(v), dtype=object) if isinstance(v, np.ndarray) else python_value(v)
             for v in inputs]
    try:
        ret = plain_function(kernel.__hls_kernel__)(*plain)
    except Exception as exc:  # noqa: BLE001 - the generator's promise broke: a crash of its own kind
        raise OracleError(f"CPython raised {type(exc).__name__}: {exc}") from None
    cpython = [v.tolist() for v in plain if isinstance(v, np.ndarray)] + [ret]
    return golden, csim, cpython, wraps


class OracleError(Exception):
    """The undecorated function failed (a generator bug: these kernels are plain Python)."""


def classify_three(golden: list[Any], csim: list[Any], cpython: list[Any]) -> str | None:
    """The mismatch class, or None when all three agree."""
    if golden == csim == cpython:
        return None
    if golden == csim:
        return "cpython:golden=csim"  # both wrong the same way
    if csim == cpython:
        return "cpython:golden"
    if golden == cpython:
        return "cpython:csim"  # the classic golden != csim
    return "cpython:all-differ"


def first_difference(names: list[str], golden: list[Any], csim: list[Any], cpython: list[Any]) -> str:
    for name, g, c, p in zip(names, golden, csim, cpython, strict=True):
        for index, (gv, cv, pv) in enumerate(zip(*(v if isinstance(v, list) else [v] for v in (g, c, p)),
                                                   strict=True)):
            if not gv == cv == pv:
                where = f"{name}[{index}]" if isinstance(g, list) else name
                return f"{where}: golden {gv}, csim {cv}, CPython {pv}"
    return "no difference"


def check_oracle(kernel: Any, seed: int) -> dict[str, str]:
    """The worker's verdict for a no-overflow kernel: golden, csim and CPython on every input set."""
    from tests.fuzz.worker import classify, precheck, verdict

    failed = precheck(kernel, seed)
    if failed is not None:
        return failed
    compiled = kernel.compile()
    names = [n for n, t in zip(compiled.arg_names, compiled.arg_types, strict=True) if hasattr(t, "shape")]
    for label, inputs in input_sets(kernel, seed):
        try:
            golden, csim, cpython, wraps = run_three(kernel, inputs)
        except OracleError as exc:
            return verdict("crash", "cpython:raised", str(exc))
        except Exception as exc:  # noqa: BLE001
            return classify(exc, "oracle")
        kind = classify_three(golden, csim, cpython)
        if kind is not None:
            shown = ", ".join(f"{n}={python_value(v)!r}" for n, v in zip(compiled.arg_names, inputs, strict=True)
                              if n != "out")
            where = "; ".join(f"{s.rsplit('/', 1)[-1]}: {b} became {a} ({t})" for s, (t, b, a) in wraps.items())
            diff = first_difference([*names, "return"], golden, csim, cpython)
            text = f"{kind}: {diff} on the {label} inputs ({shown})"
            return verdict("mismatch", kind, text + (f"; the golden model wrapped: {where}" if where else ""))
    return verdict("pass")
