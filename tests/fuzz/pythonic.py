"""Generator branches for the Python spellings of issue 11: unpacking, chained assignment, int(),
compile-time `if`, tuple loops, and `for` over arrays, enumerate and zip.

Each function takes the Generator and returns (lines, budget used) like its `stmt_*` methods, so the
main statement table only lists them; the value models are the generator's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.fuzz.generator import INT_SAFE, VAR_BOUND, Ex, Ty, Var

if TYPE_CHECKING:
    from tests.fuzz.generator import Generator


def stmt_unpack(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`a, b = b, a` or `a, arr[i] = e1, e2`: every value is read before any target is written."""
    scalars = g.local_scalars()
    if len(scalars) < 2:
        return g.stmt_decl(budget, indent)
    g.rng.shuffle(scalars)
    targets = scalars[:g.pick((2, 2, 3))]
    texts = [t.name for t in targets]
    arrays = g.writable_arrays()
    if arrays and g.chance(0.3):
        arr = g.pick(arrays)
        targets.append(arr)
        texts.append(arr.name + g.subscript(arr.shape))
    values = []
    for target in targets:
        if g.chance(0.5):  # a swap-like read of another target
            source = g.pick([t for t in targets if t.role == "scalar" and (not t.taintable or target.taintable)]
                            or [target])
            e = g.read(source)
        else:
            e = g.any_ex(g.rng.randint(0, 2), taint_ok=target.taintable)
        values.append(g.coerce(e, target.ty))
    return [f"{'    ' * indent}{', '.join(texts)} = {', '.join(values)}"], 1


def stmt_chain(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`a = b = e`: one value, converted to each target's own type."""
    by_kind: dict[str, list[Var]] = {}
    for var in g.local_scalars():
        if var.ty.kind in ("int", "fixed", "float") and not var.taintable:
            by_kind.setdefault(var.ty.kind, []).append(var)
    pairs = [vs for vs in by_kind.values() if len(vs) >= 2]
    if not pairs:
        return g.stmt_decl(budget, indent)
    group = g.pick(pairs)
    g.rng.shuffle(group)
    kind = group[0].ty.kind
    e = g.ex(kind, g.rng.randint(0, 2))
    if kind == "float":
        e = g.clamp(e, VAR_BOUND) if e.bound > VAR_BOUND else e
        if any(v.ty.width == 32 for v in group) and e.width == 64:
            e = Ex(f"hls.float32({e.text})", "float", 32, bound=e.bound, atom=True)
    return [f"{'    ' * indent}{' = '.join(v.name for v in group[:2])} = {e.text}"], 1


def int_trunc(g: Generator, depth: int, taint_ok: bool) -> Ex | None:
    """`int(x)` of a fixed-point or float value: truncation toward zero."""
    if g.chance(0.5):
        e = g.ex("fixed", depth)
        return Ex(f"int({e.text})", "int", max(e.ibits, 1) + 1, atom=True)
    e = g.ex("float", depth)
    if e.bound > INT_SAFE:
        e = g.clamp(e, INT_SAFE)
    return Ex(f"int({e.text})", "int", 64, atom=True)


def stmt_compile_time_if(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`if K > 3:` on a module constant: the frontend compiles only the taken branch."""
    pad = "    " * indent
    const = g.new_const("int")
    size = g.rng.randint(1, min(budget - 1, 3))
    lines = [f"{pad}if {const.name} {g.pick(('>', '<', '==', '!='))} {g.rng.randint(-8, 20)}:"]
    lines += g.block(size, indent + 1)
    used = size + 1
    if g.chance(0.6) and budget - used >= 1:
        lines.append(f"{pad}else:")
        lines += g.block(1, indent + 1)
        used += 1
    return lines, used


def _room(g: Generator, trip: int) -> bool:
    fn = g.fn
    return len(fn.loops) < 3 and fn.trip * trip <= 256 and fn.iters + fn.trip * trip <= fn.max_iters


def _body(g: Generator, header: str, bound: list[Var], trip: int, budget: int, indent: int,
          first: list[str] = (), exits: str = "all") -> list[str]:
    """`exits`: which of break/continue/return the body may use (tests/fuzz/control.py)."""
    fn = g.fn
    saved = fn.trip
    fn.trip *= max(trip, 1)
    fn.iters += fn.trip
    loops = [v for v in bound if v.role == "iv"]
    fn.loops += loops
    fn.exits.append(exits)
    fn.scopes.append({v.name: v for v in bound})
    lines = ["    " * indent + header, *("    " * (indent + 1) + line for line in first)]
    lines += g.block(budget, indent + 1)
    fn.scopes.pop()
    fn.exits.pop()
    del fn.loops[len(fn.loops) - len(loops):]
    fn.trip = saved
    return lines


def stmt_tuple_loop(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`for w in (1, -2, 5):` unrolled by the frontend, `w` a constant in each copy."""
    values = tuple(g.rng.randint(-4, 9) for _ in range(g.pick((1, 2, 3))))
    if not _room(g, len(values)):
        return g.stmt_decl(budget, indent)
    name = g.fn.fresh("w")
    iv = Var(name, Ty("int", 32, True), "iv", values=values)
    inner = g.rng.randint(1, min(budget - 1, 3))
    first = ["hls.unroll()"] if g.chance(0.4) else []
    text = ", ".join(map(str, values)) + ("," if len(values) == 1 else "")
    return _body(g, f"for {name} in ({text}):", [iv], len(values), inner, indent, first, exits="none"), inner + 1


def stmt_iterate(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """`for v in a`, `for i, v in enumerate(a)` or `for x, y in zip(a, b, strict=False)` over 1-D arrays."""
    arrays = [v for v in [*g.fn.visible(), *g.module_vars] if v.role in ("array", "rom") and len(v.shape) == 1]
    if not arrays:
        return g.stmt_decl(budget, indent)
    form = g.pick(("for", "enumerate", "zip"))
    chosen = [g.pick(arrays)] if form != "zip" else [g.pick(arrays), g.pick(arrays)]
    trip = min(a.shape[0] for a in chosen)
    if not _room(g, trip):
        return g.stmt_decl(budget, indent)
    elements = [Var(g.fn.fresh("e"), a.ty, "param", taintable=a.taintable) for a in chosen]
    names = ", ".join(e.name for e in elements)
    bound = list(elements)
    if form == "for":
        header = f"for {names} in {chosen[0].name}:"
    elif form == "enumerate":
        index = Var(g.fn.fresh("i"), Ty("int", 32, True), "iv", values=tuple(range(trip)))
        bound.append(index)
        header = f"for {index.name}, {names} in enumerate({chosen[0].name}):"
    else:
        header = f"for {names} in zip({', '.join(a.name for a in chosen)}, strict=False):"
    inner = g.rng.randint(1, min(budget - 1, 3))
    return _body(g, header, bound, trip, inner, indent), inner + 1
