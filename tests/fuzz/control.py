"""Fuzzer productions for control flow: data-dependent `break`/`continue`, early `return`, and
`while` loops that always terminate (a counter bounds them: `while w < T and cond:` with `w += 1`
as the body's first statement, before any `continue` could skip it).

A fully unrolled loop (`hls.unroll()`) must not contain a `break` or a `return`, and a loop over a
tuple (unrolled by the frontend) none of the three (the frontend rejects those by design), so the
generator keeps, per enclosing loop, which exits are allowed (Fn.exits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.fuzz.generator import Generator

Production = Callable[[int, int], tuple[list[str], int]]


def options(g: Generator, budget: int, can_loop: bool) -> list[tuple[float, Production]]:
    fn = g.fn
    out: list[tuple[float, Production]] = []
    if fn.exits and fn.exits[-1] != "none" and budget >= 2:
        out.append((1.5, lambda b, i: stmt_exit(g, b, i)))
    if can_loop and budget >= 3:
        out.append((1.5, lambda b, i: stmt_while(g, b, i)))
    if not fn.helper and fn.early_ok and all(e == "all" for e in fn.exits) and budget >= 2:
        out.append((0.5, lambda b, i: stmt_return(g, b, i)))
    return out


def stmt_exit(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`if cond: [stmt] break|continue` in the innermost loop."""
    pad = "    " * indent
    word = "break" if g.fn.exits[-1] == "all" and g.chance(0.6) else "continue"
    lines = [f"{pad}if {g.condition(g.rng.randint(0, 2)).text}:"]
    if budget >= 3 and g.chance(0.4):
        lines += [line for line in g.block(1, indent + 1) if line.strip() != "pass"]
    lines.append(f"{pad}    {word}")
    return lines, 2


def stmt_return(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """An early `if cond: return value` (a bare `return` in a kernel without a result)."""
    pad = "    " * indent
    ret = g.fn.ret
    if ret is None:
        value = ""
    else:
        e = g.any_ex(g.rng.randint(1, 3), taint_ok=ret.kind == "float" and g.libm)
        value = " " + g.coerce(e, ret)
    return [f"{pad}if {g.condition(g.rng.randint(0, 2)).text}:", f"{pad}    return{value}"], 2


def stmt_while(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    from tests.fuzz.generator import MAX_TRIP, Ty, Var

    fn = g.fn
    room = max(1, min(MAX_TRIP // fn.trip, (fn.max_iters - fn.iters) // fn.trip))
    trip = g.rng.randint(1, max(1, min(room, 8)))
    name = fn.fresh("w")
    pad, inner_pad = "    " * indent, "    " * (indent + 1)
    counter = Var(name, Ty("int", 32, True), "iv", values=tuple(range(trip + 1)))
    lines = [f"{pad}{name} = hls.int32(0)" if g.chance(0.5) else f"{pad}{name}: hls.int32 = 0"]
    fn.declare(counter)
    test = f"{name} < {trip}"
    if g.chance(0.7):
        test += f" and {g.condition(g.rng.randint(0, 2)).p()}"
    lines.append(f"{pad}while {test}:")
    if g.chance(0.25):
        lines.append(inner_pad + g.pick(("hls.pipeline()", "hls.pipeline(ii=1)", "hls.pipeline(off=True)")))
    if g.chance(0.3):
        lines.append(f"{inner_pad}hls.loop_tripcount(min=0, max={trip})")
    lines.append(f"{inner_pad}{name} += 1")
    saved_trip = fn.trip
    fn.trip *= trip
    fn.iters += fn.trip
    fn.loops.append(counter)
    fn.exits.append("all")
    inner = g.rng.randint(1, min(budget - 2, 4))
    lines += [line for line in g.block(inner, indent + 1) if line.strip() != "pass"]
    fn.exits.pop()
    fn.loops.pop()
    fn.trip = saved_trip
    return lines, inner + 2
