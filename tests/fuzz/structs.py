"""Generator branches for `@hls.struct` records (issue 12): random struct types with integer fields of
widths 1..128 (bool and fixed-point fields too, and small array fields), struct locals built by the
constructor, copied and stored into local arrays of structs, and arrays of structs as kernel
arguments (fields that cross the csim boundary: integers up to 64 bits, fixed point up to 53).

Every scalar field the kernel can reach is handed to the generator as a declared scalar named by
its access path (`sv0.f1`, `sv0.taps[1]`, `sp0[2].f0`), so the generator's own statements and
expressions read and assign the fields like any typed variable. A separate random stream decides
which kernels use structs at all, so the other kernels stay the same as before the branch existed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tests.fuzz.generator import Ty, Var

if TYPE_CHECKING:
    from tests.fuzz.generator import Generator

SHARE = 0.25  # kernels that use structs
MAX_WIDTH = 128
ARRAY_FIELD_SHAPES = ((2,), (3,), (2, 2))


@dataclass(frozen=True)
class StructTy(Ty):
    """A struct type as the kernel spells it (its class name)."""

    cls: str = ""

    @property
    def spell(self) -> str:
        return self.cls


@dataclass
class StructDef:
    name: str
    fields: list[tuple[str, Ty, tuple[int, ...]]]  # (name, element type, shape: () for a scalar field)


def enabled(g: Generator) -> bool:
    if not hasattr(g, "structs_on"):
        g.structs_on = uses_structs(g.seed)
        g.struct_defs = []
    return g.structs_on


def field_ty(g: Generator, boundary: bool) -> Ty:
    roll = g.rng.random()
    if roll < 0.15:
        return Ty("bool")
    if roll < 0.3:
        return g.fixed_ty(wide=False)
    width = g.rng.randint(1, 64 if boundary else MAX_WIDTH)
    return Ty("int", width, g.chance(0.5), alias=g.chance(0.7))


def new_struct(g: Generator, boundary: bool) -> StructDef:
    """A new struct class at module level (its name is unique within a batch of kernels)."""
    name = f"S_{g.seed}_{len(g.struct_defs)}"
    fields = []
    for k in range(g.rng.randint(1, 4)):
        shape = g.pick(ARRAY_FIELD_SHAPES) if g.chance(0.2) else ()
        fields.append((f"f{k}", field_ty(g, boundary), shape))
    lines = ["@hls.struct", f"class {name}:"]
    lines += [f"    {f}: {ty.spell}" + (f"[{', '.join(map(str, shape))}]" if shape else "") for f, ty, shape in fields]
    g.module_lines.append("\n".join(lines) + "\n")
    sd = StructDef(name, fields)
    g.struct_defs.append(sd)
    return sd


def elements(shape: tuple[int, ...]) -> list[str]:
    """`[0]`, `[1]`, ... or `[0, 1]`: every element of an array field, as subscripts."""
    if not shape:
        return [""]
    if len(shape) == 1:
        return [f"[{i}]" for i in range(shape[0])]
    return [f"[{i}, {j}]" for i in range(shape[0]) for j in range(shape[1])]


def declare_fields(g: Generator, base: str, sd: StructDef) -> None:
    """Every scalar of the struct at `base` becomes a typed variable of the generator."""
    for f, ty, shape in sd.fields:
        for sub in elements(shape):
            g.fn.declare(Var(f"{base}.{f}{sub}", ty, "scalar"))


def params(g: Generator) -> list[Var]:
    """Arrays of structs among the kernel's arguments (none when the kernel does not use structs)."""
    if not enabled(g) or not g.chance(0.6):
        return []
    out = []
    for k in range(g.rng.randint(1, 2)):
        sd = new_struct(g, boundary=True)
        var = Var(f"sp{k}", StructTy("struct", cls=sd.name), "struct", shape=(g.rng.randint(1, 4),))
        out.append(var)
        for i in sorted({g.rng.randrange(var.shape[0]) for _ in range(2)}):
            declare_fields(g, f"{var.name}[{i}]", sd)
    return out


def stmt_struct(g: Generator, budget: int, indent: int) -> tuple[list[str], int]:
    """A struct local from its constructor, then maybe a bit store into a field, a copy, and a local
    array of structs holding it."""
    pad = "    " * indent
    sd = g.pick(g.struct_defs) if g.struct_defs and g.chance(0.5) else new_struct(g, boundary=False)
    name = g.fn.fresh("sv")
    scalars = [(f, ty) for f, ty, shape in sd.fields if not shape]
    given = [f"{f}={g.coerce(g.ex(ty.kind, g.rng.randint(0, 2)), ty)}" for f, ty in scalars if g.chance(0.7)]
    positional = sd.fields[0][2] == () and g.chance(0.3)
    if positional and given and given[0].startswith(f"{sd.fields[0][0]}="):
        given[0] = given[0].split("=", 1)[1]
    lines = [f"{pad}{name} = {sd.name}({', '.join(given)})"]
    for f, ty, shape in sd.fields:
        if shape:
            sub = g.pick(elements(shape))
            lines.append(f"{pad}{name}.{f}{sub} = {g.coerce(g.ex(ty.kind, g.rng.randint(0, 2)), ty)}")
    ints = [(f, ty) for f, ty in scalars if ty.kind == "int"]
    if ints and g.chance(0.3):
        f, ty = g.pick(ints)
        lo = g.rng.randint(0, ty.width - 1)
        hi = g.rng.randint(lo + 1, ty.width)
        lines.append(f"{pad}{name}.{f}[{lo}:{hi}] = {g.ex('int', 1).text}")
    declare_fields(g, name, sd)
    if g.chance(0.4):
        copy = g.fn.fresh("sv")
        lines.append(f"{pad}{copy} = {name}")
        declare_fields(g, copy, sd)
    if not g.fn.loops and g.fn.local_arrays < 2 and g.chance(0.4):
        g.fn.local_arrays += 1
        array, size = g.fn.fresh("sa"), g.rng.randint(1, 4)
        slot = g.rng.randrange(size)
        lines += [f"{pad}{array} = hls.zeros(({size},), {sd.name})", f"{pad}{array}[{slot}] = {name}"]
        declare_fields(g, f"{array}[{slot}]", sd)
    return lines, 2


def statements(g: Generator, budget: int) -> list[tuple[float, object]]:
    """The statement-table entries (weight 0, and no random draw, for kernels without structs)."""
    weight = 2.0 if getattr(g, "structs_on", False) else 0
    return [(weight, lambda budget, indent: stmt_struct(g, budget, indent))]


def uses_structs(seed: int) -> bool:
    """Whether the kernel of `seed` takes the struct branches (decided without generating it)."""
    return random.Random(f"structs-{seed}").random() < SHARE


def main(argv: list[str] | None = None) -> int:
    """A campaign of struct kernels only: python -m tests.fuzz.structs --count 100 --seed 1."""
    import argparse

    from tests.fuzz.campaign import run_campaign

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", default="fuzz-failures")
    args = parser.parse_args(argv)
    result = run_campaign(args.count, args.seed, Path(args.out), jobs=args.jobs, log=print,
                          pick=lambda s: uses_structs(s) and s % 10 != 9)
    print(result.summary())
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
