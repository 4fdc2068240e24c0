"""Generator branches for bit-level code (issue 12): slices and single bits of typed values and of
variables, concatenation, reverse, bit counts, leading zeros and bit assignment, widths 1..128.

An operand whose bits are taken is given an explicit type (`hls.uint37(e)`), so its width, and with
it every valid slice, is known here; declared variables are sliced by their own type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.fuzz.generator import PRODUCTIONS, Ex, Var

if TYPE_CHECKING:
    from tests.fuzz.generator import Generator

MAX_WIDTH = 128


def typed(g: Generator, depth: int, width: int) -> str:
    """An integer expression converted (wrapped) to a random signedness of `width` bits."""
    e = g.ex("int", max(depth - 1, 0))
    return f"hls.{g.pick(('', 'u'))}int{width}({e.text})"


def operand(g: Generator, depth: int) -> tuple[str, int]:
    """Something with known bits: a declared integer variable or array element, or a typed expression."""
    # declared types only: an inferred local's Ty is a model of its value, not its exact type
    variables = [v for w, v in g.readable("int", False) if v.role in ("param", "array", "rom")]
    if variables and g.chance(0.4):
        var = g.pick(variables)
        return g.read(var).text, var.ty.width
    width = g.rng.randint(1, MAX_WIDTH)
    return typed(g, depth, width), width


def bounds(g: Generator, width: int) -> tuple[int, int]:
    lo = g.rng.randint(0, width - 1)
    return lo, g.rng.randint(lo + 1, width)


def int_bits(g: Generator, depth: int, taint_ok: bool) -> Ex | None:
    """`x[lo:hi]`, `hls.concat(...)`, `x.reverse()`, `x.bit_count()`, `hls.leading_zeros(x)`."""
    roll = g.rng.random()
    if roll < 0.45:
        text, width = operand(g, depth)
        lo, hi = bounds(g, width)
        return Ex(f"{text}[{lo}:{hi}]", "int", hi - lo + 1, atom=True)
    if roll < 0.7:
        parts, total = [], 0
        for _ in range(g.pick((1, 2, 2, 3))):
            text, width = operand(g, depth)
            if total + width > MAX_WIDTH:
                break
            parts.append(text)
            total += width
        if not parts:
            return None
        return Ex(f"hls.concat({', '.join(parts)})", "int", total + 1, atom=True)
    text, width = operand(g, depth)
    if roll < 0.82:
        return Ex(f"{text}.reverse()", "int", width + 1, atom=True)
    if roll < 0.92:
        return Ex(f"{text}.bit_count()", "int", width.bit_length() + 1, atom=True)
    return Ex(f"hls.leading_zeros({text})", "int", width.bit_length() + 1, atom=True)


def int_rotate(g: Generator, depth: int, taint_ok: bool) -> Ex | None:
    """`hls.rotl(x, n)` / `hls.rotr(x, n)` of an unsigned typed value, by a constant or `e % width`."""
    width = g.rng.randint(1, MAX_WIDTH)
    value = f"hls.uint{width}({g.ex('int', max(depth - 1, 0)).text})"
    count = str(g.rng.randint(0, width - 1)) if g.chance(0.5) else f"({g.ex('int', max(depth - 1, 0)).text}) % {width}"
    return Ex(f"hls.{g.pick(('rotl', 'rotr'))}({value}, {count})", "int", width + 1, atom=True)


def bool_bit(g: Generator, depth: int, taint_ok: bool) -> Ex | None:
    """`x[i]` at a constant position."""
    text, width = operand(g, depth)
    return Ex(f"{text}[{g.rng.randint(0, width - 1)}]", "bool", 1, atom=True)


def stmt_bit_store(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """A declared integer local, then `x[lo:hi] = e`, `x[i] = e` or `x[lo:hi] ^= e` (and `+=`, `|=`) on it."""
    pad = "    " * indent
    ty = g.int_ty(g.chance(0.3))
    var = Var(g.fn.fresh("v"), ty, "scalar")
    lines = [f"{pad}{var.name}: {ty.spell} = {g.coerce(g.ex('int', g.rng.randint(0, 2)), ty)}"]
    for _ in range(g.pick((1, 1, 2))):
        value = g.ex(g.pick(("int", "int", "bool")), g.rng.randint(0, 2))
        if value.kind == "bool" or g.chance(0.3):
            position = f"[{g.rng.randint(0, ty.width - 1)}]"
        else:
            lo, hi = bounds(g, ty.width)
            position = f"[{lo}:{hi}]"
        op = g.pick(("=", "=", "^=", "+=", "|=")) if value.kind == "int" else "="
        lines.append(f"{pad}{var.name}{position} {op} {value.text}")
    g.fn.declare(var)
    return lines, 2


def statements(g: Generator, budget: int) -> list[tuple[float, object]]:
    """The statement-table entries (weights like the generator's own)."""
    return [(1.5 if budget >= 2 else 0, lambda budget, indent: stmt_bit_store(g, budget, indent))]


PRODUCTIONS["int"].append((2.0, int_bits))
PRODUCTIONS["int"].append((0.5, int_rotate))
PRODUCTIONS["bool"].append((1.0, bool_bit))
