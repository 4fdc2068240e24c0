"""Seeded random kernels for differential testing: the golden model (Python mode) against csim.

Why a generator of our own rather than random Python: every failure must mean a bug, so kernels
stay inside the accepted language (docs/semantics.md) and inside the region where the golden model
is defined: no division or modulo by zero (divisors are guarded), no negative or huge shift counts
(counts are masked), no float-to-int conversion beyond 2**63 and no inf or NaN (float magnitudes
are tracked and clamped), no index out of bounds (affine indices are fitted to the loop ranges,
data-dependent ones are masked). Lossy implicit conversions, which the frontend rejects by design,
get explicit type calls. To keep float comparisons exact, values that went through a libm function
(exp, log, sin, cos, tanh, pow: numpy and glibc may differ in the last bit) are "tainted" and never
reach a conversion, a comparison or floor/ceil; kernels that use libm at all are compared with a
tolerance, all others bit-exactly.

Everything else is random: widths (odd and native, 1..64 at the boundary, wider inside), signedness,
fixed-point formats and modes, operators, loop shapes, directives and sub-kernels, so that the
bit-exactness rows of PITFALLS.md are exercised. Each expression carries a conservative model of its
type (kind, width, integer bits, float bound) computed here, independently of hls.types, so the
generator does not inherit the compiler's own mistakes.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tests.fuzz import control

T = TypeVar("T")

INT_WIDTHS = (1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 24, 31, 32, 33, 40, 47, 48, 53, 63, 64)
WIDE_INT_WIDTHS = (65, 72, 96, 127, 128)
FIXED_FORMATS = ((8, 4), (16, 6), (12, 4), (10, -2), (10, 0), (6, 8), (18, 18), (24, 2), (32, 16), (5, 1),
                 (40, 12), (53, 20), (3, 3), (1, 1), (20, 24), (9, -3), (48, 47))
WIDE_FIXED_FORMATS = ((64, 32), (80, 40), (70, -4))
QUANT_MODES = ("AP_RND", "AP_RND_ZERO", "AP_RND_MIN_INF", "AP_RND_INF", "AP_RND_CONV", "AP_TRN", "AP_TRN_ZERO")
OVERFLOW_MODES = ("AP_SAT", "AP_SAT_ZERO", "AP_SAT_SYM", "AP_WRAP", "AP_WRAP_SM")
SHAPES = ((1,), (2,), (3,), (4,), (5,), (7,), (8,), (11,), (16,), (2, 2), (2, 3), (3, 4), (4, 4), (2, 8),
          (4, 2), (2, 2, 2), (2, 3, 2))
FLOAT_LITERALS = (0.5, -1.25, 3.0, 0.1, 0.001, 2500.0, -0.75, 16777217.0, 1.0, 0.0, 0.3333333333333333, -2.0,
                  1e-08, 123.456, 0.2, 7.0)

VAR_BOUND = 1e4  # every plain float write is clamped to this magnitude
FLOAT_ADDS = 50_000  # executed float `+=`/`-=` per function, so that reads stay below READ_BOUND
READ_BOUND = 1e9  # >= VAR_BOUND * (1 + FLOAT_ADDS): what any float variable or element may hold
FLOAT_LIMIT = 1e30  # no float expression may exceed this: float32 overflows at 3.4e38 (then inf, NaN)
INT_SAFE = 1e18  # float -> int conversions are defined below 2**63; clamp beyond this
MAX_WIDTH = 480  # integer and fixed-point expressions stay well below the 1024-bit type limit
MAX_TRIP = 256  # product of the trip counts of one loop nest
MAX_ITERS = 1200  # loop-body executions per kernel, so Python mode stays fast
HELPER_ITERS = 48  # per helper call (helpers may be called inside loops)
KINDS = ("int", "bool", "fixed", "float")


# --------------------------------------------------------------------------------------------------
# the generator's own model of types and values


@dataclass(frozen=True)
class Ty:
    """A declared scalar type, as written in the kernel (the spelling is part of what is tested)."""

    kind: str
    width: int = 1
    signed: bool = False
    ibits: int = 0
    quant: str = "AP_TRN"
    overflow: str = "AP_WRAP"
    sat: int = 0
    alias: bool = field(default=True, compare=False)

    @property
    def spell(self) -> str:
        if self.kind == "bool":
            return "hls.bool_"
        if self.kind == "float":
            return f"hls.float{self.width}"
        if self.kind == "int":
            prefix = "" if self.signed else "u"
            if self.width in (8, 16, 32, 64) or self.alias:
                return f"hls.{prefix}int{self.width}"
            return f"hls.ap_{prefix}int[{self.width}]"
        base = "hls.ap_fixed" if self.signed else "hls.ap_ufixed"
        params = [str(self.width), str(self.ibits)]
        if (self.quant, self.overflow, self.sat) != ("AP_TRN", "AP_WRAP", 0):
            params.append(f'"{self.quant}"')
            if (self.overflow, self.sat) != ("AP_WRAP", 0):
                params.append(f'"{self.overflow}"')
                if self.sat:
                    params.append(str(self.sat))
        return f"{base}[{', '.join(params)}]"


@dataclass(frozen=True)
class Ex:
    """A generated expression: its text and a conservative model of its value."""

    text: str
    kind: str
    width: int = 1  # int: bits of the exact value; fixed: W; float: 32 or 64
    ibits: int = 0  # fixed point: integer bits
    bound: float = 0.0  # float: |value| <= bound
    taint: bool = False  # went through libm (last-bit differences between numpy and glibc)
    atom: bool = False  # needs no parentheses as an operand
    weak: bool = False  # a bare literal (its type adapts to its use; a local gets int32/float64)

    def p(self) -> str:
        return self.text if self.atom else f"({self.text})"


@dataclass
class Var:
    """A name the kernel can use: argument, local, loop variable, local array, module constant or ROM."""

    name: str
    ty: Ty
    role: str  # "scalar", "param", "iv", "array", "rom", "const"
    shape: tuple[int, ...] = ()
    values: tuple[int, ...] = ()  # loop variable: every value it may take
    taintable: bool = False  # may hold a libm result (so reading it gives a tainted value)
    const: object = None
    depth: int = -1  # an undeclared local: the loop depth it was made at (-1: declared)


@dataclass
class Fn:
    """Generation state of one function (the kernel or a helper)."""

    name: str
    helper: bool
    scopes: list[dict[str, Var]] = field(default_factory=lambda: [{}])
    loops: list[Var] = field(default_factory=list)
    trip: int = 1
    iters: int = 0
    float_adds: int = 0
    max_iters: int = MAX_ITERS
    counters: dict[str, int] = field(default_factory=dict)
    local_arrays: int = 0
    exits: list[str] = field(default_factory=list)  # per enclosing loop: "all", "continue" or "none"
    ret: Ty | None = None  # the kernel's result type (early returns need it)
    early_ok: bool = True  # early returns allowed (not with a tuple or an array result)

    def fresh(self, prefix: str) -> str:
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return f"{prefix}{n}"

    def visible(self) -> list[Var]:
        return [v for scope in self.scopes for v in scope.values()]

    def declare(self, var: Var) -> None:
        self.scopes[-1][var.name] = var


@dataclass
class Helper:
    name: str
    params: list[Var]
    ret: Ty | None
    taint: bool
    rets: tuple[Ty, ...] = ()  # a tuple return (then `ret` is None)
    result: Var | None = None  # an array result (then `ret` is None)


@dataclass
class Unit:
    """One generated kernel with its helpers and module constants (text without the imports)."""

    seed: int
    kernel: str
    source: str
    args: list[tuple[str, str]]  # (name, annotation text) of the kernel's parameters
    ret: str | None  # the return annotation text
    tolerant: bool  # uses libm: floats are compared with a tolerance
    ret_elems: tuple[str, ...] = ()  # a tuple return: each element's annotation text
    ret_shape: tuple[int, ...] = ()  # an array result: its shape (`ret` is the array annotation)
    oracle: bool = False  # a no-overflow kernel, also checked against CPython (tests/fuzz/oracle.py)
    schedule: bool = False  # checked through a random legal hls.customize schedule (tests/fuzz/schedules.py)


HEADER = "import math\n\nimport numpy as np\n\nimport hls\n"


def module_text(units: Sequence[Unit], top: str | None = None) -> str:
    """A complete Python module holding the units (and an optional batch top kernel)."""
    parts = [HEADER, *(u.source for u in units)]
    if top:
        parts.append(top)
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def batch_top(units: Sequence[Unit], name: str = "fuzz_batch") -> str:
    """A top kernel calling every unit's kernel, so one C++ compile checks many kernels.

    Each member's parameters become the top's (prefixed `m<k>_`), and a returned value is stored in
    a one-element array `m<k>_ret`, so a mismatch message names the member it comes from.
    """
    params, body = [], []
    for m, unit in enumerate(units):
        names = [f"m{m}_{a}" for a, _ in unit.args]
        params += [f"{n}: {t}" for n, (_, t) in zip(names, unit.args, strict=True)]
        call = f"{unit.kernel}({', '.join(names)})"
        if unit.ret_elems:  # unpacked, then each element stored in its own one-element array
            outs = [f"m{m}_r{i}" for i in range(len(unit.ret_elems))]
            params += [f"m{m}_ret{i}: {t}[1]" for i, t in enumerate(unit.ret_elems)]
            body.append(f"    {', '.join(outs)}, = {call}")
            body += [f"    m{m}_ret{i}[0] = {o}" for i, o in enumerate(outs)]
        elif unit.ret_shape:  # received into a local array, then copied out element by element
            params.append(f"m{m}_ret: {unit.ret}")
            body.append(f"    m{m}_res = {call}")
            ivs = [f"m{m}_i{d}" for d in range(len(unit.ret_shape))]
            body += ["    " * (d + 1) + f"for {iv} in range({n}):"
                     for d, (iv, n) in enumerate(zip(ivs, unit.ret_shape, strict=True))]
            body.append("    " * (len(ivs) + 1) + f"m{m}_ret[{', '.join(ivs)}] = m{m}_res[{', '.join(ivs)}]")
        elif unit.ret is not None:
            params.append(f"m{m}_ret: {unit.ret}[1]")
            body.append(f"    m{m}_ret[0] = {call}")
        else:
            body.append(f"    {call}")
    return f"@hls.kernel\ndef {name}({', '.join(params)}):\n" + "\n".join(body) + "\n"


def generate(seed: int) -> Unit:
    """The unit for `seed` (deterministic: the same seed gives the same text)."""
    return Generator(seed).unit()


# --------------------------------------------------------------------------------------------------


def bits_of(value: int) -> int:
    return (value.bit_length() if value >= 0 else (-value - 1).bit_length()) + 1


def fixed_shape(e: Ex) -> tuple[int, int]:
    """(W, I) of an operand seen as fixed point (ints are ap_fixed<W, W>, bool ap_ufixed<1, 1>)."""
    if e.kind == "fixed":
        return e.width, e.ibits
    return e.width, e.width


def float_bound(e: Ex) -> float:
    if e.kind == "float":
        return e.bound
    if e.kind == "bool":
        return 1.0
    if e.kind == "int":
        return 2.0 ** min(e.width, 1000)
    return 2.0 ** min(max(e.ibits, 0), 1000)


class Generator:
    """Builds one unit; every random choice comes from `self.rng`, seeded once."""

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.libm = self.rng.random() < 0.3
        self.big = self.rng.random() < 0.35  # a larger kernel: more statements, deeper expressions
        self.used_libm = False
        self.module_lines: list[str] = []
        self.module_vars: list[Var] = []
        self.helpers: list[Helper] = []
        self.helper_sources: list[str] = []
        self.fn = Fn(f"k_{seed}", helper=False)
        # whether to use the tuple/array result branches: a stream of its own, so that kernels not
        # taking them are the same as before the branches existed
        self.results_rng = random.Random(f"results-{seed}")
        self.shift_rng = random.Random(f"fixed-shift-{seed}")

    # ---- random helpers ------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq: Sequence[T]) -> T:
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, options: Sequence[tuple[float, T]]) -> T:
        total = sum(w for w, _ in options)
        x = self.rng.random() * total
        for w, item in options:
            x -= w
            if x < 0:
                return item
        return options[-1][1]

    # ---- types ---------------------------------------------------------------------------------

    def int_ty(self, wide: bool = False) -> Ty:
        width = self.pick(WIDE_INT_WIDTHS if wide else INT_WIDTHS)
        return Ty("int", width, self.chance(0.6), alias=self.chance(0.7))

    def fixed_ty(self, wide: bool = False) -> Ty:
        width, ibits = self.pick(WIDE_FIXED_FORMATS if wide else FIXED_FORMATS)
        signed = self.chance(0.7)
        if self.chance(0.5):
            return Ty("fixed", width, signed, ibits)
        quant, overflow = self.pick(QUANT_MODES), self.pick(OVERFLOW_MODES)
        if not signed and overflow == "AP_WRAP_SM":
            overflow = "AP_WRAP"  # the ap_fixed header exits for ap_ufixed with AP_WRAP_SM
        sat = 0
        if overflow in ("AP_WRAP", "AP_WRAP_SM") and self.chance(0.3):
            sat = self.rng.randint(1, min(width, 3))
        return Ty("fixed", width, signed, ibits, quant, overflow, sat)

    def scalar_ty(self, boundary: bool = True, kind: str | None = None) -> Ty:
        """A declared type; `boundary` keeps it able to cross the csim boundary (ints <= 64 bits,
        fixed point <= 53 bits)."""
        kind = kind or self.weighted([(4, "int"), (2, "fixed"), (2, "float"), (1, "bool")])
        wide = not boundary and self.chance(0.15)
        if kind == "int":
            return self.int_ty(wide)
        if kind == "fixed":
            return self.fixed_ty(wide)
        if kind == "float":
            return Ty("float", self.pick((32, 64)), True)
        return Ty("bool")

    # ---- module-level names (captured constants and ROMs) ---------------------------------------

    def module_name(self, prefix: str) -> str:
        return f"{prefix}_{self.seed}_{len(self.module_vars)}"

    def new_const(self, kind: str) -> Var:
        name = self.module_name("K")
        if kind == "int":
            value = self.pick((3, -7, 100, 255, -128, 1 << 20, (1 << 40) + 3, -(1 << 33), (1 << 63) + 5))
            # numpy scalars too: Python mode must not let numpy's fixed-width arithmetic decide
            fits = [d for d, lo, hi in (("int8", -128, 127), ("int64", -(1 << 63), (1 << 63) - 1),
                                        ("uint64", 0, (1 << 64) - 1), ("uint16", 0, 65535)) if lo <= value <= hi]
            text = str(value) if self.chance(0.5) else f"np.{self.pick(fits)}({value})"
            var = Var(name, Ty("int", bits_of(value), True), "const", const=value)
        elif kind == "bool":
            value = self.chance(0.5)
            text = str(value) if self.chance(0.5) else f"np.bool_({value})"
            var = Var(name, Ty("bool"), "const", const=value)
        else:
            value = self.pick((0.75, -2.5, 0.1, 1000.0, 1e-05))
            if self.chance(0.4):
                text = f"np.float32({value!r})"
                var = Var(name, Ty("float", 32, True), "const", const=value)
            else:
                text = repr(value)
                var = Var(name, Ty("float", 64, True), "const", const=value)
        self.module_lines.append(f"{name} = {text}")
        self.module_vars.append(var)
        return var

    def new_rom(self, kind: str) -> Var:
        name = self.module_name("R")
        size = self.pick((3, 4, 8, 16))
        if kind == "int":
            dtype = self.pick(("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"))
            signed = not dtype.startswith("u")
            width = int(dtype.lstrip("uint"))
            lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
            values = [self.pick((lo, hi, 0, 1, -1 if signed else 2, self.rng.randint(lo, hi))) for _ in range(size)]
            ty = Ty("int", width, signed)
        elif kind == "bool":
            dtype, values, ty = "bool", [self.chance(0.5) for _ in range(size)], Ty("bool")
        else:
            dtype = self.pick(("float32", "float64"))
            values = [round(self.rng.uniform(-4, 4), 3) for _ in range(size)]
            ty = Ty("float", int(dtype[5:]), True)
        self.module_lines.append(f"{name} = np.array({values!r}, dtype=np.{dtype})")
        var = Var(name, ty, "rom", shape=(size,))
        self.module_vars.append(var)
        return var

    # ---- reading names -------------------------------------------------------------------------

    def value_ex(self, ty: Ty, text: str, taint: bool = False, atom: bool = True) -> Ex:
        if ty.kind == "float":
            return Ex(text, "float", ty.width, bound=READ_BOUND, taint=taint, atom=atom)
        if ty.kind == "fixed":
            return Ex(text, "fixed", ty.width, ty.ibits, atom=atom)
        if ty.kind == "int":
            return Ex(text, "int", ty.width + (0 if ty.signed else 1), atom=atom)
        return Ex(text, "bool", 1, atom=atom)

    def read(self, var: Var) -> Ex:
        if var.role in ("array", "rom"):
            return self.value_ex(var.ty, var.name + self.subscript(var.shape), var.taintable)
        if var.role == "iv":
            values = var.values or (0,)
            return Ex(var.name, "int", max(bits_of(min(values)), bits_of(max(values))), atom=True)
        if var.role == "const":
            if var.ty.kind == "float":
                return Ex(var.name, "float", var.ty.width, bound=abs(float(var.const)), atom=True)
            return self.value_ex(var.ty, var.name)
        return self.value_ex(var.ty, var.name, var.taintable)

    def readable(self, kind: str, taint_ok: bool) -> list[tuple[float, Var]]:
        out = []
        for var in [*self.module_vars, *self.fn.visible()]:
            if var.ty.kind != kind or (var.taintable and not taint_ok):
                continue
            weight = {"iv": 4.0, "scalar": 3.0, "param": 2.0, "array": 3.0, "rom": 1.0, "const": 0.5}[var.role]
            out.append((weight, var))
        return out

    # ---- literals ------------------------------------------------------------------------------

    def int_literal(self) -> Ex:
        roll = self.rng.random()
        if roll < 0.6:
            value = self.rng.randint(-8, 20)
        elif roll < 0.85:
            value = (1 << self.rng.randint(1, 64)) + self.pick((-1, 0, 1))
            value = -value if self.chance(0.3) else value
        elif roll < 0.91:
            value = self.rng.randint(-(1 << 63), (1 << 63) - 1)
        elif roll < 0.95:  # just above a float32 midpoint, beyond float64's precision: one rounding only
            k = self.rng.randint(54, 63)
            value = ((1 << k) + (1 << (k - 24)) + self.pick((1, 3))) * self.pick((1, -1))
        else:
            value = self.rng.randint(1 << 64, 1 << 90) * self.pick((1, -1))
        return Ex(str(value), "int", bits_of(value), atom=value >= 0, weak=True)

    def float_literal(self) -> Ex:
        value = self.pick(FLOAT_LITERALS)
        return Ex(repr(value), "float", 64, bound=abs(value), atom=value >= 0, weak=True)

    def literal(self, kind: str) -> Ex:
        if kind == "int":
            return self.int_literal()
        if kind == "bool":
            return Ex(self.pick(("True", "False")), "bool", 1, atom=True)
        if kind == "float":
            return self.float_literal()
        ty = self.fixed_ty(wide=self.chance(0.1))
        inner = self.float_literal() if self.chance(0.6) else self.int_literal()
        return Ex(f"{ty.spell}({inner.text})", "fixed", ty.width, ty.ibits, atom=True)

    # ---- expressions ---------------------------------------------------------------------------

    def leaf(self, kind: str, taint_ok: bool) -> Ex:
        roll = self.rng.random()
        if kind in ("int", "float", "bool") and roll < 0.04:
            return self.read(self.new_rom(kind) if self.chance(0.5) else self.new_const(kind))
        options = self.readable(kind, taint_ok)
        if options and roll < 0.8:
            return self.read(self.weighted(options))
        return self.literal(kind)

    def ex(self, kind: str, depth: int, taint_ok: bool = False) -> Ex:
        """An expression of `kind`; `taint_ok` allows libm results in it."""
        if depth <= 0 or self.chance(0.12 if self.big else 0.2):
            return self.leaf(kind, taint_ok)
        productions = PRODUCTIONS[kind]
        if kind == "float" and taint_ok and self.libm and self.chance(0.3):
            e = self.float_libm(depth - 1, taint_ok)
            if e is not None and self.fits(e):
                return e
        for _ in range(8):
            method = self.weighted(productions)
            e = method(self, depth - 1, taint_ok)
            if e is not None and self.fits(e):
                return e
        return self.leaf(kind, taint_ok)

    def any_ex(self, depth: int, taint_ok: bool = False, kinds: Sequence[str] = KINDS) -> Ex:
        weights = {"int": 4, "bool": 1, "fixed": 2, "float": 10 if taint_ok else 2}  # libm only lives in floats
        return self.ex(self.weighted([(weights[k], k) for k in kinds]), depth, taint_ok)

    def fits(self, e: Ex) -> bool:
        if e.kind == "int":
            return e.width <= MAX_WIDTH
        if e.kind == "fixed":
            return e.width <= MAX_WIDTH and abs(e.ibits) <= MAX_WIDTH and abs(e.width - e.ibits) <= MAX_WIDTH
        if e.kind == "float":
            return e.bound <= FLOAT_LIMIT
        return True

    def int_operand(self, depth: int) -> Ex:
        return self.ex("bool" if self.chance(0.1) else "int", depth)

    def small(self, kind: str) -> Ex:
        """A cheap operand, for text that appears twice (divisor guards)."""
        return self.ex(kind, self.rng.randint(0, 1))

    # int productions

    def int_arith(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.int_operand(depth), self.int_operand(depth)
        op = self.pick(("+", "-", "*", "+", "-"))
        width = a.width + b.width if op == "*" else max(a.width, b.width) + 2
        return Ex(f"{a.p()} {op} {b.p()}", "int", width)

    def int_divmod(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.int_operand(depth)
        op = self.pick(("//", "%"))
        if self.chance(0.4):
            d = self.pick((-3, -1, 2, 3, 7, 16, -128, 1000))
            divisor = Ex(str(d), "int", bits_of(d), atom=d > 0)
        else:
            d = self.small("int")
            alt = self.pick((1, -1, 3, -7))
            divisor = Ex(f"{d.p()} if {d.p()} != 0 else {alt}", "int", max(d.width, 4))
        width = a.width + 1 if op == "//" else divisor.width
        return Ex(f"{a.p()} {op} {divisor.p()}", "int", width)

    def int_bitwise(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.int_operand(depth), self.int_operand(depth)
        if a.kind == b.kind == "bool":
            return None
        return Ex(f"{a.p()} {self.pick(('&', '|', '^'))} {b.p()}", "int", max(a.width, b.width) + 1)

    def shift_count(self) -> Ex:
        n = self.small("int")
        mask = self.pick((3, 7, 15, 31, 63))
        if self.chance(0.7):
            return Ex(f"{n.p()} & {mask}", "int", 7)
        return Ex(f"{n.p()} % {mask + 1}", "int", 7)

    def int_shift(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.int_operand(depth)
        if self.chance(0.5):
            if self.chance(0.5):
                n = self.rng.randint(0, 24)
                return Ex(f"{a.p()} << {n}", "int", a.width + n)
            return Ex(f"{a.p()} >> {self.rng.randint(0, a.width + 2)}", "int", a.width)
        op = self.pick(("<<", ">>"))
        return Ex(f"{a.p()} {op} ({self.shift_count().text})", "int", a.width)

    def int_unary(self, depth: int, taint_ok: bool) -> Ex | None:
        roll = self.rng.random()
        if roll < 0.35:
            a = self.ex("int", depth)
            return Ex(f"~{a.p()}", "int", a.width + 1)
        a = self.int_operand(depth)
        if roll < 0.7:
            return Ex(f"-{a.p()}", "int", a.width + 1)
        return Ex(f"abs({a.text})", "int", a.width + 1, atom=True)

    def int_minmax(self, depth: int, taint_ok: bool) -> Ex | None:
        args = [self.int_operand(depth) for _ in range(self.pick((2, 2, 3)))]
        fn = self.pick(("min", "max"))
        return Ex(f"{fn}({', '.join(a.text for a in args)})", "int", max(a.width for a in args) + 1, atom=True)

    def int_pow(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.int_operand(depth)
        n = self.pick((0, 1, 2, 2, 3))
        return Ex(f"{a.p()} ** {n}", "int", max(a.width * n, 2))

    def select(self, kind: str, depth: int, taint_ok: bool) -> Ex | None:
        cond = self.condition(depth)
        a, b = self.ex(kind, depth, taint_ok), self.ex(kind, depth, taint_ok)
        if kind == "fixed" and self.chance(0.3):
            b = self.ex("int", depth)
        if kind == "float" and self.chance(0.3):
            b = self.floatable(self.ex("int", depth))
            if cond.text in ("True", "False") and b.kind != "float":
                # a constant condition is decided at compile time: the value has the taken branch's type
                b = Ex(f"hls.float64({b.text})", "float", 64, bound=float_bound(b), atom=True)
        width = self.float_width(a, b) if kind == "float" else max(a.width, b.width) + 1
        ibits = max(fixed_shape(a)[1], fixed_shape(b)[1]) + 1
        bound = max(float_bound(a), float_bound(b))
        return Ex(f"{a.p()} if {cond.p()} else {b.p()}", kind, width, ibits, bound, a.taint or b.taint)

    def cast(self, kind: str, depth: int, taint_ok: bool) -> Ex | None:
        """An explicit type call on a value of any kind (lossy conversions are allowed here)."""
        ty = self.scalar_ty(boundary=False, kind=kind)
        e = self.any_ex(depth, taint_ok=taint_ok and kind == "float")
        if e.kind == "float" and kind in ("int", "bool", "fixed"):
            e = self.clamp(e, INT_SAFE) if kind == "int" and e.bound > INT_SAFE else e
        if kind == "float":
            e = self.floatable(e)
            if ty.width == 32 and self.chance(0.2):
                return Ex(f"float({e.text})", "float", 64, bound=float_bound(e), taint=e.taint, atom=True)
            return Ex(f"{ty.spell}({e.text})", "float", ty.width, bound=float_bound(e), taint=e.taint, atom=True)
        if kind == "bool" and self.chance(0.3):
            return Ex(f"bool({e.text})", "bool", 1, atom=True)
        return self.value_ex(ty, f"{ty.spell}({e.text})")

    def call(self, kind: str, depth: int, taint_ok: bool) -> Ex | None:
        made = self.call_helper(kind, depth, taint_ok)
        return made[0] if made is not None else None

    def call_helper(self, kind: str, depth: int, taint_ok: bool) -> tuple[Ex, Helper] | None:
        """A call of a scalar helper returning `kind` (made on demand; the kernel only, not helpers)."""
        if self.fn.helper:
            return None
        options = [h for h in self.helpers if h.ret is not None and h.ret.kind == kind and (taint_ok or not h.taint)]
        if not options or (len(self.helpers) < 4 and self.chance(0.3)):
            if len(self.helpers) >= 4:
                return None
            helper = self.scalar_helper(kind, taint_ok)
        else:
            helper = self.pick(options)
        args = [self.coerce(self.any_ex(depth), p.ty, READ_BOUND) for p in helper.params]
        assert helper.ret is not None
        return self.value_ex(helper.ret, f"{helper.name}({', '.join(args)})", helper.taint), helper

    # bool productions

    def compare(self, depth: int, taint_ok: bool) -> Ex | None:
        family = self.pick((("int", "int"), ("int", "bool"), ("bool", "bool"), ("fixed", "fixed"),
                            ("fixed", "int"), ("float", "float"), ("float", "int"), ("fixed", "bool"),
                            ("int", "int")))
        count = 3 if self.chance(0.3) else 2
        parts = [self.ex(self.pick(family), depth) for _ in range(count)]
        parts = [self.floatable(p) if "float" in family else p for p in parts]
        text = parts[0].p()
        for part in parts[1:]:
            text += f" {self.pick(('<', '<=', '>', '>=', '==', '!='))} {part.p()}"
        return Ex(text, "bool", 1)

    def logic(self, depth: int, taint_ok: bool) -> Ex | None:
        if self.chance(0.3):
            a = self.any_ex(depth)
            return Ex(f"not {a.p()}", "bool", 1)
        args = [self.ex("bool", depth) for _ in range(self.pick((2, 2, 3)))]
        op = self.pick((" and ", " or "))
        return Ex(op.join(a.p() for a in args), "bool", 1)

    def bool_bitwise(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.ex("bool", depth), self.ex("bool", depth)
        return Ex(f"{a.p()} {self.pick(('&', '|', '^'))} {b.p()}", "bool", 1)

    # fixed-point productions

    def fixed_operand(self, depth: int) -> Ex:
        return self.ex(self.weighted([(5, "fixed"), (2, "int"), (0.3, "bool")]), depth)

    def fixed_arith(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.ex("fixed", depth), self.fixed_operand(depth)
        if self.chance(0.5):
            a, b = b, a
        (wa, ia), (wb, ib) = fixed_shape(a), fixed_shape(b)
        op = self.pick(("+", "-", "*"))
        if op == "*":
            width, ibits = wa + wb, ia + ib
        else:
            ibits = max(ia, ib) + 2
            width = ibits + max(wa - ia, wb - ib)
        return Ex(f"{a.p()} {op} {b.p()}", "fixed", width, ibits)

    def fixed_div(self, depth: int, taint_ok: bool) -> Ex | None:
        """ap_fixed `/` (truncating quotient, W = S_b + W_a + max(F_b, 0)); the divisor is guarded."""
        a = self.fixed_operand(depth)
        d = self.ex(self.pick(("fixed", "fixed", "int")), self.rng.randint(0, 1))
        if a.kind != "fixed" and d.kind != "fixed":
            a = self.ex("fixed", depth)
        (wa, ia), (wd, idd) = fixed_shape(a), fixed_shape(d)
        fd = wd - idd
        divisor = f"{d.p()} if {d.p()} != 0 else {self.pick((1, -1, 3))}"
        return Ex(f"{a.p()} / ({divisor})", "fixed", 1 + wa + max(fd, 0) + 2, 1 + ia + fd + 2)

    def fixed_unary(self, depth: int, taint_ok: bool) -> Ex | None:
        """-x, abs(x), or (one in eight, drawn from its own stream so every other choice of a seed stays
        what it was) ap_fixed `x >> n` / `x << n`: the raw bits shifted in x's own type."""
        a = self.ex("fixed", depth)
        negate = self.chance(0.5)
        if self.shift_rng.random() < 0.125:
            n = self.shift_rng.randint(0, a.width + 1)
            return Ex(f"{a.p()} {self.shift_rng.choice(('>>', '<<'))} {n}", "fixed", a.width, a.ibits)
        if negate:
            return Ex(f"-{a.p()}", "fixed", a.width + 1, a.ibits + 1)
        return Ex(f"abs({a.text})", "fixed", a.width + 1, a.ibits + 1, atom=True)

    def fixed_minmax(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.ex("fixed", depth), self.fixed_operand(depth)
        (wa, ia), (wb, ib) = fixed_shape(a), fixed_shape(b)
        ibits = max(ia, ib) + 1
        width = ibits + max(wa - ia, wb - ib)
        return Ex(f"{self.pick(('min', 'max'))}({a.text}, {b.text})", "fixed", width, ibits, atom=True)

    def fixed_pow(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.ex("fixed", depth)
        return Ex(f"{a.p()} ** 2", "fixed", 2 * a.width, 2 * a.ibits)

    # float productions

    def floatable(self, e: Ex) -> Ex:
        """An operand that may meet a float: ints and fixed point small enough not to overflow float32."""
        if e.kind == "int" and e.width > 96:
            return Ex(f"hls.int64({e.text})", "int", 64, atom=True)
        if e.kind == "fixed":
            if e.ibits > 99 or e.width > MAX_WIDTH // 2:
                e = Ex(f"hls.ap_fixed[64, 32]({e.text})", "fixed", 64, 32, atom=True)
            return Ex(f"hls.float{self.pick((32, 64))}({e.text})", "float", 64, bound=float_bound(e), atom=True)
        return e

    def float_operand(self, depth: int, taint_ok: bool) -> Ex:
        if self.chance(0.25):
            return self.floatable(self.int_operand(depth))
        return self.ex("float", depth, taint_ok)

    def float_width(self, *parts: Ex) -> int:
        strong = [p.width for p in parts if p.kind == "float" and not p.weak]
        return max(strong) if strong else 64

    def float_arith(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.ex("float", depth, taint_ok), self.float_operand(depth, taint_ok)
        if self.chance(0.5):
            a, b = b, a
        op = self.pick(("+", "-", "*"))
        ba, bb = float_bound(a), float_bound(b)
        bound = ba * bb if op == "*" else ba + bb
        return Ex(f"{a.p()} {op} {b.p()}", "float", self.float_width(a, b), bound=bound, taint=a.taint or b.taint)

    def float_div(self, depth: int, taint_ok: bool) -> Ex | None:
        roll = self.rng.random()
        if roll < 0.3:  # integer true division: float64
            a, d = self.floatable(self.ex("int", depth)), self.small("int")
            return Ex(f"{a.p()} / ({d.p()} if {d.p()} != 0 else 1)", "float", 64, bound=float_bound(a))
        a = self.float_operand(depth, taint_ok)
        if roll < 0.6:
            d = self.floatable(self.small("int"))
            return Ex(f"{a.p()} / ({d.p()} if {d.p()} != 0 else 3)", "float", self.float_width(a), bound=float_bound(a),
                      taint=a.taint)
        d = self.small("float")
        guard = self.pick(("math.fabs", "abs"))
        return Ex(f"{a.p()} / ({d.p()} if {guard}({d.text}) >= 0.125 else 1.0)", "float", self.float_width(a, d),
                  bound=float_bound(a) * 8, taint=a.taint)

    def float_unary(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.ex("float", depth, taint_ok)
        form = self.pick(("-{}", "abs({})", "math.fabs({})"))
        return Ex(form.format(a.p() if form == "-{}" else a.text), "float", a.width, bound=a.bound, taint=a.taint,
                  atom=form != "-{}")

    def float_minmax(self, depth: int, taint_ok: bool) -> Ex | None:
        a, b = self.ex("float", depth, taint_ok), self.float_operand(depth, taint_ok)
        return Ex(f"{self.pick(('min', 'max'))}({a.text}, {b.text})", "float", self.float_width(a, b),
                  bound=max(float_bound(a), float_bound(b)), taint=a.taint or b.taint, atom=True)

    def float_exact_math(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.float_operand(depth, False)
        width = self.float_width(a)
        name = self.pick(("sqrt", "floor", "ceil", "fabs"))
        if name == "sqrt":
            return Ex(f"math.sqrt(math.fabs({a.text}))", "float", width, bound=float_bound(a) ** 0.5 + 1, atom=True)
        return Ex(f"math.{name}({a.text})", "float", width, bound=float_bound(a) + 1, atom=True)

    def float_libm(self, depth: int, taint_ok: bool) -> Ex | None:
        if not (self.libm and taint_ok):
            return None
        a = self.float_operand(depth, True)
        width = self.float_width(a)
        name = self.pick(("exp", "log", "sin", "cos", "tanh", "pow", "pow"))
        self.used_libm = True
        if name == "exp":
            return Ex(f"math.exp(min({a.text}, 8.0))", "float", width, bound=3000.0, taint=True, atom=True)
        if name == "log":
            return Ex(f"math.log(math.fabs({a.text}) + 1.0)", "float", width, bound=float_bound(a) + 1, taint=True,
                      atom=True)
        if name == "pow":
            if float_bound(a) > 1e12:
                return None
            exponent = self.pick(("0.5", "1.5", "-1.0", "2.0", "-0.25"))
            return Ex(f"math.pow(math.fabs({a.text}) + 1.0, {exponent})", "float", width,
                      bound=(float_bound(a) + 1) ** 2, taint=True, atom=True)
        return Ex(f"math.{name}({a.text})", "float", width, bound=1.0, taint=True, atom=True)

    def float_square(self, depth: int, taint_ok: bool) -> Ex | None:
        a = self.ex("float", depth, taint_ok)
        return Ex(f"{a.p()} ** 2", "float", a.width, bound=a.bound ** 2 if a.bound < 1e15 else FLOAT_LIMIT * 2,
                  taint=a.taint)

    # ---- conversions at writes -----------------------------------------------------------------

    def clamp(self, e: Ex, limit: float) -> Ex:
        """min(max(e, -limit), limit) as a float (ints and fixed point go through float64 first)."""
        if e.kind != "float":
            e = self.floatable(e)
            if e.kind != "float":
                e = Ex(f"hls.float64({e.text})", "float", 64, bound=float_bound(e), atom=True)
        lim = repr(float(limit))
        return Ex(f"min(max({e.text}, -{lim}), {lim})", "float", e.width, bound=limit, taint=e.taint, atom=True)

    def coerce(self, e: Ex, ty: Ty, limit: float = VAR_BOUND) -> str:
        """Text assigning `e` to a value of type `ty`: implicit where the frontend allows it, else an
        explicit type call; floats are clamped to `limit` so that later reads keep their bound."""
        if ty.kind == "bool":
            if e.kind == "bool":
                return e.text
            return self.pick((f"{e.p()} != 0", f"hls.bool_({e.text})", f"bool({e.text})"))
        if ty.kind == "int":
            if e.kind == "float":
                e = self.clamp(e, INT_SAFE) if e.bound > INT_SAFE else e
                return f"{ty.spell}({e.text})"
            if e.kind == "fixed" or self.chance(0.15):
                return f"{ty.spell}({e.text})"
            return e.text
        if ty.kind == "fixed":
            return f"{ty.spell}({e.text})" if self.chance(0.2) else e.text
        if e.kind != "float":
            e = self.floatable(e)
        if float_bound(e) > limit:
            e = self.clamp(e, limit)
        return f"{ty.spell}({e.text})" if self.chance(0.15) else e.text

    # ---- array indices -------------------------------------------------------------------------

    def subscript(self, shape: tuple[int, ...]) -> str:
        indices = [self.index(size) for size in shape]
        if len(indices) > 1 and self.chance(0.3):
            return "".join(f"[{i}]" for i in indices)
        return f"[{', '.join(indices)}]"

    def index(self, size: int) -> str:
        """An index expression whose every value lies in 0..size-1."""
        loops = self.fn.loops
        roll = self.rng.random()
        if loops and roll < 0.6:
            text = self.affine_index(size, loops)
            if text is not None:
                return text
        if roll < 0.8 or size == 1:
            return str(self.rng.randrange(size))
        e = self.ex("int", self.rng.randint(0, 1))
        if size & (size - 1) == 0 and self.chance(0.5):
            return f"{e.p()} & {size - 1}"
        if self.chance(0.3):
            return f"min(max({e.text}, 0), {size - 1})"
        return f"{e.p()} % {size}"

    def affine_index(self, size: int, loops: list[Var]) -> str | None:
        """i + c, 2*i + c, c - i, j - i + c or i + j + c, with c chosen so every value fits."""
        i = self.pick(loops)
        form = self.pick(("i", "i", "2i", "-i", "pair"))
        terms: list[tuple[int, Var]] = [(1, i)]
        if form == "2i":
            terms = [(2, i)]
        elif form == "-i":
            terms = [(-1, i)]
        elif form == "pair" and len(loops) > 1:
            j = self.pick([v for v in loops if v is not i])
            terms = [(1, j), (self.pick((1, -1)), i)]
        lo = sum(min(a * v for v in (var.values or (0,))) for a, var in terms)
        hi = sum(max(a * v for v in (var.values or (0,))) for a, var in terms)
        if hi - lo > size - 1:
            return None
        c = self.rng.randint(-lo, size - 1 - hi)
        text = ""
        for a, var in terms:
            term = {1: var.name, -1: f"-{var.name}", 2: f"2 * {var.name}"}[a]
            if not text:
                text = term
            else:
                text += f" - {var.name}" if a == -1 else f" + {term}"
        if c:
            text += f" {'+' if c > 0 else '-'} {abs(c)}"
        return text

    # ---- statements ----------------------------------------------------------------------------

    def condition(self, depth: int) -> Ex:
        if self.chance(0.75):
            return self.ex("bool", depth)
        return self.any_ex(depth, kinds=("int", "fixed", "float"))

    def taintable_new(self) -> bool:
        return self.libm and self.chance(0.6)

    def writable_arrays(self) -> list[Var]:
        return [v for v in self.fn.visible() if v.role == "array"]

    def local_scalars(self) -> list[Var]:
        """Scalars a statement may assign. An undeclared local is assigned only at the loop depth it was
        made at: in a loop around it, `v = v * 3` or `v <<= 2` would give it no type (its join grows with
        every iteration, an HLSTypeError asking for a declaration; docs/semantics.md)."""
        depth = len(self.fn.exits)
        return [v for v in self.fn.visible() if v.role == "scalar" and v.depth in (-1, depth)]

    def block(self, budget: int, indent: int) -> list[str]:
        """Statements until `budget` is used up, in a new scope."""
        self.fn.scopes.append({})
        lines: list[str] = []
        while budget > 0:
            stmt, used = self.statement(budget, indent)
            lines += stmt
            budget -= max(used, 1)
        self.fn.scopes.pop()
        return lines or ["    " * indent + "pass"]

    def statement(self, budget: int, indent: int) -> tuple[list[str], int]:
        fn = self.fn
        can_loop = len(fn.loops) < 3 and fn.trip * 2 <= MAX_TRIP and fn.iters + fn.trip * 2 <= fn.max_iters
        options: list[tuple[float, Callable[[int, int], tuple[list[str], int]]]] = [
            (5, self.stmt_decl), (5 if self.writable_arrays() else 0, self.stmt_store),
            (2 if self.local_scalars() else 0, self.stmt_assign), (3 if self.local_scalars() else 0, self.stmt_aug),
            (4 if can_loop and budget >= 2 else 0, self.stmt_for), (2 if budget >= 2 else 0, self.stmt_if),
            (2 if can_loop and budget >= 3 else 0, self.stmt_reduce),
            (1 if fn.local_arrays < 2 else 0, self.stmt_local_array),
            (1.5 if not fn.helper and len(self.helpers) < 4 and fn.trip <= 16 else 0, self.stmt_call),
            *self.pythonic_statements(budget), *control.options(self, budget, can_loop),
            *bitlevel.statements(self, budget), *structs.statements(self, budget)]
        return self.weighted(options)(budget, indent)

    def pythonic_statements(self, budget: int) -> list[tuple[float, Callable[[int, int], tuple[list[str], int]]]]:
        """The issue-11 spellings (tests/fuzz/pythonic.py), weighted lightly."""
        looping = budget >= 2 and len(self.fn.loops) < 3
        return [(1 if len(self.local_scalars()) >= 2 else 0, functools.partial(pythonic.stmt_unpack, self)),
                (0.5 if len(self.local_scalars()) >= 2 else 0, functools.partial(pythonic.stmt_chain, self)),
                (0.7 if budget >= 2 else 0, functools.partial(pythonic.stmt_compile_time_if, self)),
                (0.7 if looping else 0, functools.partial(pythonic.stmt_tuple_loop, self)),
                (1 if looping else 0, functools.partial(pythonic.stmt_iterate, self))]

    def stmt_decl(self, budget: int, indent: int) -> tuple[list[str], int]:
        pad = "    " * indent
        name = self.fn.fresh("v")
        taintable = self.taintable_new()
        form = self.pick(("infer", "infer", "annotate", "call"))
        if form == "infer":
            e = self.any_ex(self.rng.randint(0, 3), taint_ok=taintable)
            if e.kind == "float" and e.bound > VAR_BOUND:
                e = self.clamp(e, VAR_BOUND)
            if e.weak:
                ty = Ty("float", 64, True) if e.kind == "float" else Ty("int", 32 if e.width <= 32 else 64, True)
            elif e.kind == "fixed":
                ty = Ty("fixed", e.width, True, e.ibits)
            else:
                ty = Ty(e.kind, e.width if e.kind != "float" else self.float_width(e), True)
            var = Var(name, ty, "scalar", taintable=e.taint or (taintable and ty.kind == "float"),
                      depth=len(self.fn.exits))
            line = f"{pad}{name} = {e.text}"
        else:
            ty = self.scalar_ty(boundary=False)
            taint_ok = taintable and ty.kind == "float"
            e = self.any_ex(self.rng.randint(0, 3), taint_ok=taint_ok)
            value = self.coerce(e, ty)
            var = Var(name, ty, "scalar", taintable=taint_ok)
            if form == "annotate":
                line = f"{pad}{name}: {ty.spell} = {value}"
            else:
                line = f"{pad}{name} = {ty.spell}({value})"
        self.fn.declare(var)
        return [line], 1

    def stmt_assign(self, budget: int, indent: int) -> tuple[list[str], int]:
        var = self.pick(self.local_scalars())
        e = self.any_ex(self.rng.randint(0, 3), taint_ok=var.taintable)
        return [f"{'    ' * indent}{var.name} = {self.coerce(e, var.ty)}"], 1

    def aug_op(self, ty: Ty, taint_ok: bool, allow_float_add: bool) -> tuple[str, str] | None:
        """(operator, operand text) for `target op= operand` that keeps the target's kind."""
        if ty.kind == "bool":
            return self.pick(("&=", "|=", "^=")), self.ex("bool", 1).text
        if ty.kind == "int":
            op = self.pick(("+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "//=", "%="))
            if op in ("<<=", ">>="):
                count = str(self.rng.randint(0, 9)) if self.chance(0.5) else self.shift_count().p()
                return op, count
            if op in ("//=", "%="):
                d = self.small("int")
                return op, f"({d.p()} if {d.p()} != 0 else {self.pick((1, -1, 5))})"
            return op, self.int_operand(self.rng.randint(0, 2)).text
        if ty.kind == "fixed":
            op = self.pick(("+=", "-=", "*="))
            return op, self.fixed_operand(self.rng.randint(0, 2)).text
        if allow_float_add and self.fn.float_adds + self.fn.trip <= FLOAT_ADDS and self.chance(0.8):
            self.fn.float_adds += self.fn.trip
            e = self.float_literal() if self.chance(0.25) else self.float_operand(self.rng.randint(0, 2), taint_ok)
            if float_bound(e) > VAR_BOUND:
                e = self.clamp(e, VAR_BOUND)
            return self.pick(("+=", "-=")), e.text
        e = self.float_literal() if self.chance(0.25) else self.float_operand(self.rng.randint(0, 2), taint_ok)
        if float_bound(e) > 1.0:
            e = self.clamp(e, 1.0)
        return "*=", e.text

    def stmt_aug(self, budget: int, indent: int) -> tuple[list[str], int]:
        var = self.pick(self.local_scalars())
        op = self.aug_op(var.ty, var.taintable, allow_float_add=True)
        if op is None:
            return [], 1
        return [f"{'    ' * indent}{var.name} {op[0]} {op[1]}"], 1

    def stmt_store(self, budget: int, indent: int) -> tuple[list[str], int]:
        pad = "    " * indent
        arr = self.pick(self.writable_arrays())
        target = arr.name + self.subscript(arr.shape)
        if self.chance(0.3):
            op = self.aug_op(arr.ty, arr.taintable, allow_float_add=not self.fn.helper)
            if op is not None:
                return [f"{pad}{target} {op[0]} {op[1]}"], 1
        e = self.any_ex(self.rng.randint(0, 3), taint_ok=arr.taintable)
        return [f"{pad}{target} = {self.coerce(e, arr.ty)}"], 1

    def range_header(self, budget_trip: int) -> tuple[str, tuple[int, ...], int, bool]:
        """(range text, values the variable takes, trip count, variable bound?)."""
        t = self.rng.randint(1, max(1, min(budget_trip, 16 if self.chance(0.2) else 6)))
        roll = self.rng.random()
        if roll < 0.02:
            a = self.rng.randint(0, 5)
            return f"range({a}, {a - self.rng.randint(0, 2)})", (), 0, False
        if roll < 0.1 and budget_trip >= 8:
            e = self.ex("int", 1)
            if self.chance(0.5):
                return f"range({e.p()} & 7)", tuple(range(8)), 8, True
            return f"range(1, {e.p()} % 5 + 2)", tuple(range(1, 6)), 5, True
        if roll < 0.4:
            return f"range({t})", tuple(range(t)), t, False
        if roll < 0.6:
            a = self.rng.randint(-3, 5)
            return f"range({a}, {a + t})", tuple(range(a, a + t)), t, False
        if roll < 0.8:
            a, s = self.rng.randint(-2, 5), self.pick((2, 3))
            stop = a + (t - 1) * s + 1 + self.rng.randint(0, s - 1)
            values = tuple(range(a, stop, s))
            return f"range({a}, {stop}, {s})", values, len(values), False
        b, s = self.rng.randint(0, 10), self.pick((1, 2))
        values = tuple(range(b, b - t * s, -s))
        return f"range({b}, {b - t * s}, {-s})", values, len(values), False

    def loop_directives(self, trip: int, variable: bool, pad: str) -> list[str]:
        out = []
        if self.chance(0.25):
            out.append(self.pick(("hls.pipeline()", "hls.pipeline(ii=1)", "hls.pipeline(ii=2)",
                                  "hls.pipeline(off=True)")))
        if self.chance(0.2) and not variable:
            out.append("hls.unroll()" if trip <= 8 and self.chance(0.5) else
                       f"hls.unroll(factor={self.rng.randint(2, 4)})")
        if self.chance(0.15):
            lo = self.rng.randint(0, 4)
            out.append(f"hls.loop_tripcount(min={lo}, max={lo + self.rng.randint(0, 8)})")
        self.rng.shuffle(out)
        return [pad + d for d in out]

    def loop(self, budget: int, indent: int, first: Callable[[int], list[str]] | None = None) -> list[str]:
        fn = self.fn
        room = max(1, min(MAX_TRIP // fn.trip, (fn.max_iters - fn.iters) // fn.trip))
        header, values, trip, variable = self.range_header(room)
        name = fn.fresh("i")
        iv = Var(name, Ty("int", 32, True), "iv", values=values)
        pad = "    " * (indent + 1)
        lines = ["    " * indent + f"for {name} in {header}:"]
        saved_trip = fn.trip
        fn.trip *= max(trip, 1)
        fn.iters += fn.trip
        fn.loops.append(iv)
        fn.scopes.append({name: iv})
        directives = self.loop_directives(trip, variable, pad)
        fn.exits.append("continue" if any(d.strip() == "hls.unroll()" for d in directives) else "all")
        lines += directives
        if first is not None:
            lines += first(indent + 1)
        lines += self.block(budget, indent + 1)
        fn.scopes.pop()
        fn.loops.pop()
        fn.exits.pop()
        fn.trip = saved_trip
        return lines

    def stmt_for(self, budget: int, indent: int) -> tuple[list[str], int]:
        inner = self.rng.randint(1, min(budget - 1, 5))
        return self.loop(inner, indent), inner + 1

    def stmt_if(self, budget: int, indent: int) -> tuple[list[str], int]:
        pad = "    " * indent
        used = 1
        lines = [f"{pad}if {self.condition(self.rng.randint(0, 2)).text}:"]
        size = self.rng.randint(1, min(budget - 1, 3))
        lines += self.block(size, indent + 1)
        used += size
        if self.chance(0.45) and budget - used >= 1:
            lines.append(f"{pad}elif {self.condition(self.rng.randint(0, 2)).text}:")
            lines += self.block(1, indent + 1)
            used += 1
        if self.chance(0.5) and budget - used >= 1:
            lines.append(f"{pad}else:")
            lines += self.block(1, indent + 1)
            used += 1
        return lines, used

    def stmt_reduce(self, budget: int, indent: int) -> tuple[list[str], int]:
        """A declared accumulator updated in a loop (a reduction), then often stored."""
        pad = "    " * indent
        name = self.fn.fresh("acc")
        ty = self.scalar_ty(boundary=False, kind=self.weighted([(4, "int"), (2, "fixed"), (2, "float"),
                                                                 (0.5, "bool")]))
        init = self.coerce(self.ex(ty.kind if ty.kind != "fixed" else "int", 0), ty)
        taintable = ty.kind == "float" and self.taintable_new()
        line = f"{pad}{name}: {ty.spell} = {init}" if self.chance(0.5) else f"{pad}{name} = {ty.spell}({init})"
        acc = Var(name, ty, "scalar", taintable=taintable)
        self.fn.declare(acc)

        def update(ind: int) -> list[str]:
            if ty.kind in ("int", "fixed", "float") and self.chance(0.2):
                e = self.ex(ty.kind, 1, taintable)
                if e.kind == "float" and e.bound > VAR_BOUND:
                    e = self.clamp(e, VAR_BOUND)
                fn = self.pick(("max", "min"))
                folded = Ex(f"{fn}({name}, {e.text})", ty.kind, ty.width, ty.ibits, max(READ_BOUND, e.bound), e.taint,
                            True)
                return ["    " * ind + f"{name} = {self.coerce(folded, ty)}"]
            op = self.aug_op(ty, taintable, allow_float_add=True)
            return ["    " * ind + f"{name} {op[0]} {op[1]}"] if op else []

        inner = self.rng.randint(1, min(budget - 2, 3))
        lines = [line] + self.loop(inner, indent, first=update)
        arrays = [a for a in self.writable_arrays() if not a.taintable or taintable]
        if arrays and self.chance(0.7):
            arr = self.pick(arrays)
            lines.append(f"{pad}{arr.name}{self.subscript(arr.shape)} = {self.coerce(self.read(acc), arr.ty)}")
        return lines, inner + 2

    def stmt_local_array(self, budget: int, indent: int) -> tuple[list[str], int]:
        pad = "    " * indent
        fn = self.fn
        fn.local_arrays += 1
        name = fn.fresh("b")
        shape = self.pick(SHAPES)
        ty = self.scalar_ty(boundary=False)
        dims = f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"
        if len(shape) == 1 and self.chance(0.2):
            dims = str(shape[0])
        lines = [f"{pad}{name} = hls.zeros({dims}, {ty.spell})"]
        if self.chance(0.4):
            kind = self.pick(("complete", "cyclic", "block"))
            dim = self.rng.randint(0 if kind != "complete" else 1, len(shape))
            sizes = shape if dim == 0 else (shape[dim - 1],)
            if kind == "complete":
                lines.append(f'{pad}hls.array_partition({name}, "complete", dim={dim})')
            else:
                factor = self.rng.randint(1, min(sizes))
                lines.append(f'{pad}hls.array_partition({name}, "{kind}", factor={factor}, dim={dim})')
        elif self.chance(0.2):
            lines.append(f'{pad}hls.bind_storage({name}, "{self.pick(("ram_2p", "ram_1p", "ram_t2p"))}", '
                         f'impl="{self.pick(("bram", "lutram", "auto"))}")')
        var = Var(name, ty, "array", shape=shape, taintable=ty.kind == "float" and self.taintable_new())
        fn.declare(var)
        return lines, 1

    # ---- sub-kernels ---------------------------------------------------------------------------

    def stmt_call(self, budget: int, indent: int) -> tuple[list[str], int]:
        pad = "    " * indent
        roll = self.results_rng.random()
        if roll < 0.15:
            return self.call_tuple_helper(pad), 2
        if roll < 0.3 and self.fn.local_arrays < 2:
            return self.call_array_helper(pad), 2
        arrays = [a for a in self.writable_arrays()]
        array_helpers = [h for h in self.helpers if h.ret is None and not h.rets and h.result is None]
        if arrays and self.chance(0.6):
            reuse = [h for h in array_helpers if self.matching_arrays(h) is not None]
            if reuse and self.chance(0.5):
                helper = self.pick(reuse)
                chosen = self.matching_arrays(helper)
                assert chosen is not None
            else:
                self.rng.shuffle(arrays)
                chosen = arrays[:self.pick((1, 1, 2))]
                helper = self.array_helper(chosen)
            args = [a.name for a in chosen]
            args += [self.coerce(self.any_ex(1), p.ty, READ_BOUND) for p in helper.params[len(chosen):]]
            return [f"{pad}{helper.name}({', '.join(args)})"], 2
        made = self.call_helper(self.pick(KINDS), 1, taint_ok=self.libm)
        if made is None:
            return self.stmt_decl(budget, indent)
        e, helper = made
        name = self.fn.fresh("v")
        assert helper.ret is not None
        self.fn.declare(Var(name, helper.ret, "scalar", taintable=e.taint))
        return [f"{pad}{name} = {e.text}"], 2

    def matching_arrays(self, helper: Helper) -> list[Var] | None:
        """Distinct arrays in scope with exactly the helper's array parameter types, if any."""
        chosen: list[Var] = []
        for p in helper.params:
            if p.role != "array":
                break
            options = [a for a in self.writable_arrays() if a.ty == p.ty and a.shape == p.shape
                       and a.taintable == p.taintable and a not in chosen]
            if not options:
                return None
            chosen.append(self.pick(options))
        return chosen

    def enter_helper(self) -> tuple[Fn, str]:
        name = f"h_{self.seed}_{len(self.helpers)}"
        saved = self.fn
        self.fn = Fn(name, helper=True, max_iters=HELPER_ITERS)
        return saved, name

    def helper_prologue(self) -> list[str]:
        out = []
        if self.chance(0.2):
            out.append("    hls.inline(off=True)")
        elif self.chance(0.1):
            out.append("    hls.inline()")
        return out

    def scalar_helper(self, kind: str, taint_ok: bool) -> Helper:
        saved, name = self.enter_helper()
        params = [Var(f"p{k}", self.scalar_ty(boundary=False), "param") for k in range(self.rng.randint(1, 3))]
        for p in params:
            self.fn.declare(p)
        ret = self.scalar_ty(boundary=False, kind=kind)
        lines = self.helper_prologue() + self.block(self.rng.randint(0, 3), 1)
        if lines == ["    pass"]:
            lines = []
        e = self.any_ex(self.rng.randint(1, 3), taint_ok=taint_ok and kind == "float")
        lines.append(f"    return {self.coerce(e, ret, READ_BOUND)}")
        sig = ", ".join(f"{p.name}: {p.ty.spell}" for p in params)
        self.helper_sources.append(f"@hls.kernel\ndef {name}({sig}) -> {ret.spell}:\n" + "\n".join(lines) + "\n")
        helper = Helper(name, params, ret, e.taint)
        self.helpers.append(helper)
        self.fn = saved
        return helper

    def call_tuple_helper(self, pad: str) -> list[str]:
        """`v1, v2 = h(...)`: a sub-kernel returning a tuple, unpacked into new locals."""
        helper = self.tuple_helper()
        args = [self.coerce(self.any_ex(1), p.ty, READ_BOUND) for p in helper.params]
        names = [self.fn.fresh("v") for _ in helper.rets]
        for name, ty in zip(names, helper.rets, strict=True):
            self.fn.declare(Var(name, ty, "scalar", taintable=helper.taint and ty.kind == "float"))
        return [f"{pad}{', '.join(names)} = {helper.name}({', '.join(args)})"]

    def call_array_helper(self, pad: str) -> list[str]:
        """`b1 = h(...)`: a sub-kernel returning an array, received into a new local array."""
        helper = self.result_helper()
        args = [self.coerce(self.any_ex(1), p.ty, READ_BOUND) for p in helper.params]
        self.fn.local_arrays += 1
        name = self.fn.fresh("b")
        assert helper.result is not None
        self.fn.declare(Var(name, helper.result.ty, "array", shape=helper.result.shape))
        return [f"{pad}{name} = {helper.name}({', '.join(args)})"]

    def tuple_helper(self) -> Helper:
        saved, name = self.enter_helper()
        params = self.helper_params()
        rets = tuple(self.scalar_ty(boundary=False) for _ in range(self.rng.randint(2, 3)))
        lines = self.helper_prologue() + self.helper_body()
        values = [self.coerce(self.any_ex(self.rng.randint(1, 3)), ty, READ_BOUND) for ty in rets]
        lines.append(f"    return {', '.join(values)}")
        spelled = f"tuple[{', '.join(t.spell for t in rets)}]"
        return self.finish_helper(saved, name, params, spelled, lines, Helper(name, params, None, False, rets=rets))

    def result_helper(self) -> Helper:
        saved, name = self.enter_helper()
        params = self.helper_params()
        result = self.result_array()
        lines = self.helper_prologue() + [self.zeros_line(result)] + self.helper_body() + ["    return res"]
        spelled = f"{result.ty.spell}[{', '.join(map(str, result.shape))}]"
        return self.finish_helper(saved, name, params, spelled, lines,
                                  Helper(name, params, None, False, result=result))

    def helper_params(self) -> list[Var]:
        params = [Var(f"p{k}", self.scalar_ty(boundary=False), "param") for k in range(self.rng.randint(1, 3))]
        for p in params:
            self.fn.declare(p)
        return params

    def helper_body(self) -> list[str]:
        lines = self.block(self.rng.randint(0, 3), 1)
        return [] if lines == ["    pass"] else lines

    def finish_helper(self, saved: Fn, name: str, params: list[Var], ret: str, lines: list[str],
                      helper: Helper) -> Helper:
        sig = ", ".join(f"{p.name}: {p.ty.spell}" for p in params)
        self.helper_sources.append(f"@hls.kernel\ndef {name}({sig}) -> {ret}:\n" + "\n".join(lines) + "\n")
        self.helpers.append(helper)
        self.fn = saved
        return helper

    def result_array(self, boundary: bool = False) -> Var:
        """`res`, the array the current function returns (declared: later statements write it)."""
        var = Var("res", self.scalar_ty(boundary=boundary), "array", shape=self.pick(SHAPES))
        self.fn.declare(var)
        return var

    @staticmethod
    def zeros_line(var: Var) -> str:
        return f"    {var.name} = hls.zeros(({', '.join(map(str, var.shape))},), {var.ty.spell})"

    def array_helper(self, arrays: list[Var]) -> Helper:
        saved, name = self.enter_helper()
        params = [Var(f"p{k}", a.ty, "array", shape=a.shape, taintable=a.taintable) for k, a in enumerate(arrays)]
        if self.chance(0.5):
            params.append(Var(f"p{len(params)}", self.scalar_ty(boundary=False), "param"))
        for p in params:
            self.fn.declare(p)
        lines = self.helper_prologue()
        if self.chance(0.1):
            lines.append("    hls.pipeline(ii=1)")
        lines += self.block(self.rng.randint(1, 4), 1)
        sig = ", ".join(f"{p.name}: {p.ty.spell}" + "".join(f"[{', '.join(map(str, p.shape))}]" if p.shape else "")
                        for p in params)
        self.helper_sources.append(f"@hls.kernel\ndef {name}({sig}):\n" + "\n".join(lines) + "\n")
        helper = Helper(name, params, None, False)
        self.helpers.append(helper)
        self.fn = saved
        return helper

    # ---- the kernel ----------------------------------------------------------------------------

    def unit(self) -> Unit:
        fn = self.fn
        params: list[Var] = []
        for k in range(self.rng.randint(1, 3)):
            ty = self.scalar_ty(boundary=True, kind="float" if self.libm and k == 0 else None)
            params.append(Var(f"a{k}", ty, "array", shape=self.pick(SHAPES),
                              taintable=ty.kind == "float" and self.taintable_new()))
        for k in range(self.rng.choice((0, 0, 1, 1, 2, 3))):
            params.append(Var(f"s{k}", self.scalar_ty(boundary=True), "param"))
        params += structs.params(self)  # arrays of structs (tests/fuzz/structs.py)
        self.rng.shuffle(params)
        for p in params:
            fn.declare(p)
        form = self.results_rng.random()
        ret = self.scalar_ty(boundary=True) if self.chance(0.5) else None
        fn.ret = ret
        fn.early_ok = form >= 0.16  # a tuple or an array result returns once, at the end
        lines = []
        if self.chance(0.05):
            lines.append("    hls.pipeline(ii=1)")
        result = self.result_array(boundary=True) if form < 0.08 else None
        elems: list[Ty] = []
        if result is not None:
            lines.append(self.zeros_line(result))
        lines += self.block(self.rng.randint(6, 18) if self.big else self.rng.randint(3, 10), 1)
        ret_text = ret.spell if ret is not None else None
        if result is not None:
            lines.append("    return res")
            ret_text = f"{result.ty.spell}[{', '.join(map(str, result.shape))}]"
        elif form < 0.16:
            elems = [self.scalar_ty(boundary=True) for _ in range(self.rng.randint(1, 3))]
            values = [self.coerce(self.any_ex(self.rng.randint(1, 3), taint_ok=t.kind == "float" and self.libm), t)
                      for t in elems]
            lines.append(f"    return {', '.join(values)}" + ("," if len(values) == 1 else ""))
            ret_text = f"tuple[{', '.join(t.spell for t in elems)}]"
        elif ret is not None:
            taint_ok = ret.kind == "float" and self.libm
            lines.append(f"    return {self.coerce(self.any_ex(self.rng.randint(1, 3), taint_ok=taint_ok), ret)}")
        args = [(p.name, p.ty.spell + (f"[{', '.join(map(str, p.shape))}]" if p.shape else "")) for p in params]
        sig = ", ".join(f"{n}: {t}" for n, t in args)
        head = f"@hls.kernel\ndef {fn.name}({sig})" + (f" -> {ret_text}" if ret_text is not None else "") + ":\n"
        kernel = head + "\n".join(lines) + "\n"
        parts = []
        if self.module_lines:
            parts.append("\n".join(self.module_lines) + "\n")
        parts += self.helper_sources
        parts.append(kernel)
        source = "\n\n".join(p.rstrip("\n") + "\n" for p in parts)
        return Unit(self.seed, fn.name, source, args, ret_text, self.used_libm, tuple(t.spell for t in elems),
                    result.shape if result is not None else ())


PRODUCTIONS: dict[str, list[tuple[float, Callable[[Generator, int, bool], Ex | None]]]] = {
    "int": [(4, Generator.int_arith), (2, Generator.int_divmod), (2, Generator.int_bitwise),
            (2, Generator.int_shift), (1.5, Generator.int_unary), (1, Generator.int_minmax), (0.5, Generator.int_pow),
            (1, lambda g, d, t: g.select("int", d, t)), (1.5, lambda g, d, t: g.cast("int", d, t)),
            (0.4, lambda g, d, t: g.call("int", d, t)), (0.6, lambda g, d, t: pythonic.int_trunc(g, d, t))],
    "bool": [(5, Generator.compare), (2, Generator.logic), (1, Generator.bool_bitwise),
             (0.5, lambda g, d, t: g.select("bool", d, t)), (1, lambda g, d, t: g.cast("bool", d, t)),
             (0.3, lambda g, d, t: g.call("bool", d, t))],
    "fixed": [(4, Generator.fixed_arith), (1.5, Generator.fixed_div), (1, Generator.fixed_unary),
              (1, Generator.fixed_minmax), (0.5, Generator.fixed_pow), (1, lambda g, d, t: g.select("fixed", d, t)),
              (2, lambda g, d, t: g.cast("fixed", d, t)), (0.4, lambda g, d, t: g.call("fixed", d, t))],
    "float": [(4, Generator.float_arith), (1.5, Generator.float_div), (1, Generator.float_unary),
              (1, Generator.float_minmax), (1.5, Generator.float_exact_math), (3, Generator.float_libm),
              (0.5, Generator.float_square), (1, lambda g, d, t: g.select("float", d, t)),
              (1.5, lambda g, d, t: g.cast("float", d, t)), (0.4, lambda g, d, t: g.call("float", d, t))],
}


from tests.fuzz import bitlevel, pythonic, structs  # noqa: E402 - their branches build on the classes above
