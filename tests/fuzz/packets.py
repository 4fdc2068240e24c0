"""Generator branch for AXI-stream packets (`hls.axis`, issue 12): a kernel reads packets of a random
data type (integers of 1..64 bits, the widths csim carries) with random TUSER/TID/TDEST widths (0..8)
from a top-level stream, until TLAST or for a fixed count, computes on data/user/id/dest and a
running value, and writes packets of another random axis type out; the running value is returned.

Golden vs csim is checked as for every fuzz kernel (`kernel.verify(seed=...)` draws a random frame
with TLAST on its final packet). A separate random stream decides which seeds are packet kernels, so
every other seed generates exactly the kernel it did before this branch existed.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.fuzz.generator import Ty, Unit
from tests.fuzz.structs import uses_structs

SHARE = 0.1  # seeds whose kernel is a packet kernel
SIDE = ("user", "id", "dest")


def uses_packets(seed: int) -> bool:
    """Whether the kernel of `seed` is a packet kernel (decided without generating it; never a seed the
    struct branch takes, so struct campaigns keep their kernels)."""
    return random.Random(f"packets-{seed}").random() < SHARE and not uses_structs(seed)


class PacketGenerator:
    def __init__(self, seed: int):
        self.rng = random.Random(f"packets-gen-{seed}")
        self.seed = seed

    def axis(self, name: str) -> tuple[str, Ty, dict[str, int]]:
        """A module-level packet class `name`: its definition line, data type and side-channel widths."""
        data = Ty("int", self.rng.randint(1, 64), self.rng.random() < 0.5, alias=self.rng.random() < 0.7)
        sides = {s: self.rng.choice([0, 0, 1, 3, 5, 8]) for s in SIDE}
        line = f"{name} = hls.axis[{data.spell}, {sides['user']}, {sides['id']}, {sides['dest']}]"
        return line, data, sides

    def term(self, fields: list[str]) -> str:
        roll = self.rng.random()
        if roll < 0.6:
            return self.rng.choice(fields)
        if roll < 0.8:
            return str(self.rng.randint(-40, 300))
        field = self.rng.choice(fields)
        return f"({field} >> {self.rng.randint(0, 5)})"

    def expr(self, fields: list[str], depth: int) -> str:
        if depth == 0 or self.rng.random() < 0.3:
            return self.term(fields)
        op = self.rng.choice(["+", "-", "*", "^", "&", "|"])
        return f"({self.expr(fields, depth - 1)} {op} {self.expr(fields, depth - 1)})"

    def unit(self) -> Unit:
        s = self.seed
        pin, pout, kernel = f"PI_{s}", f"PO_{s}", f"pk{s}"
        in_line, _, in_sides = self.axis(pin)
        out_line, _, out_sides = self.axis(pout)
        fields = ["p.data", "acc"] + [f"p.{f}" for f in SIDE if in_sides[f]]
        until_last = self.rng.random() < 0.6
        count = self.rng.randint(1, 6)
        body = ["acc = hls.int32(0)"]
        if until_last:
            body += ["last = False", "while not last:", "    hls.loop_tripcount(min=1, max=16)"]
        else:
            body += [f"for i in range({count}):"]
            fields.append("i")
        if self.rng.random() < 0.5:
            body.append("    hls.pipeline(ii=1)")
        body.append("    p = inp.read()")
        body.append(f"    acc = hls.int32({self.expr(fields, 2)})")
        given = [f"data={self.expr(fields, 2)}"]
        given += [f"{f}={self.expr(fields, 1)}" for f in SIDE if out_sides[f]]
        given.append("last=p.last" if self.rng.random() < 0.8 else f"last={self.expr(fields, 1)}")
        body.append(f"    out.write({pout}({', '.join(given)}))")
        if until_last:
            body.append("    last = p.last == 1")
        body.append("return acc")
        params = f"inp: hls.stream[{pin}], out: hls.stream[{pout}]"
        source = (f"{in_line}\n{out_line}\n\n\n@hls.kernel\ndef {kernel}({params}) -> hls.int32:\n"
                  + "\n".join("    " + line for line in body) + "\n")
        args = [("inp", f"hls.stream[{pin}]"), ("out", f"hls.stream[{pout}]")]
        return Unit(s, kernel, source, args, "hls.int32", False)


def packet_unit(seed: int) -> Unit:
    return PacketGenerator(seed).unit()


def main(argv: list[str] | None = None) -> int:
    """A campaign of packet kernels only: python -m tests.fuzz.packets --count 60 --seed 1."""
    import argparse

    from tests.fuzz.campaign import run_campaign

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--out", default="fuzz-failures")
    args = parser.parse_args(argv)
    result = run_campaign(args.count, args.seed, Path(args.out), jobs=args.jobs, log=print,
                          pick=lambda s: uses_packets(s) and s % 10 != 9)
    print(result.summary())
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
