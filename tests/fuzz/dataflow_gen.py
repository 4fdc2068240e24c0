"""Random dataflow regions for the fuzzer: chains, forks and joins of stream processes.

A unit is a kernel `df<seed>(a: int32[N], b: int32[N])` whose body is a dataflow region: a source
process reads `a` into one or two FIFOs (a fork), each branch is a chain of stages, a join adds the
branches, a sink writes `b`. Stages differ in rate and II: a map (one item in, one out, pipelined at
II 1..3), a burst stage (reads every item into a buffer before writing any: what starves a join whose
other branch is too shallow) and a pair stage (two items in, two out). Depths are drawn from
{1, 2, 3, N}, so some regions deadlock; the worker then checks that Python mode, csim and the timed
simulation all say so (tests/fuzz/worker.dataflow_verdict).

Some map, pair and join stages are @hls.task processes instead (hls::task: one iteration's body, run
forever; the region ends when every task idles on an empty input). They are drawn from a second
random stream, so the loop stages of a seed are the ones it had before tasks existed. A chain of
such a unit may also hold a farm: hls.split (round robin or load balance) to two or three map tasks,
hls.merge back into one FIFO.

A chain may also end in a stream of blocks (hls.stream_of_blocks, drawn from a third random stream):
a producer fills each block from its input FIFO (in order or reversed), a consumer reads each block
back (every item plus a neighbour) into its output FIFO; its depth (1..3 blocks) counts the held
blocks, so with a join it can deadlock too.
"""

from __future__ import annotations

import random

from tests.fuzz.generator import Unit


class RegionGenerator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.task_rng = random.Random(seed * 7919 + 26)  # which stages are tasks (see the module docstring)
        self.tasks = self.task_rng.random() < 0.35
        self.seed = seed
        self.n = self.rng.choice([4, 6, 8, 16])
        self.defs: list[str] = []
        self.region: list[str] = []
        self.fifos = 0
        self.rows_rng = random.Random(seed * 7919 + 25)  # the rows' draws: other seeds' regions stay the same
        self.early: list[str] = []  # declarations written before hls.dataflow()
        self.buffer_rng = random.Random(seed * 7919 + 27)  # buffer-row stages: other draws stay the same
        self.block_rng = random.Random(seed * 7919 + 28)  # FIFO-of-arrays stages, likewise
        self.blocks_rng = random.Random(seed * 7919 + 29)  # streams of blocks (see the module docstring)

    def name(self, kind: str) -> str:
        return f"d{self.seed}_{kind}{len(self.defs)}"

    def fifo(self, rng: random.Random | None = None) -> str:
        name = f"q{self.fifos}"
        self.fifos += 1
        depth = (rng or self.rng).choice([1, 2, 2, 3, self.n])
        self.region.insert(self.fifos, f"    {name} = hls.stream(hls.int32, depth={depth})")
        return name

    def define(self, kind: str, params: str, body: list[str]) -> str:
        name = self.name(kind)
        task = self.task_body(kind, body)
        decorator = "@hls.kernel" if task is None else "@hls.task"
        lines = body if task is None else task
        self.defs.append(f"{decorator}\ndef {name}({params}):\n" + "\n".join("    " + line for line in lines) + "\n")
        return name

    def task_body(self, kind: str, body: list[str]) -> list[str] | None:
        """A stage's loop body as a task's (one iteration), or None to keep the loop: map, pair and join
        stages only (the loop's first line is its header, the second its pipeline directive)."""
        if kind not in ("map", "pair", "join") or not self.tasks or self.task_rng.random() < 0.4:
            return None
        return [line[4:] for line in body[2:]]

    def pipeline(self) -> str:
        return f"hls.pipeline(ii={self.rng.choice([1, 1, 2, 3])})"

    def source(self, outs: list[str]) -> None:
        params = ", ".join([f"a: hls.int32[{self.n}]"] + [f"o{k}: hls.stream[hls.int32]" for k in range(len(outs))])
        body = [f"for i in range({self.n}):", f"    {self.pipeline()}"]
        body += [f"    o{k}.write(a[i] + {k})" for k in range(len(outs))]
        self.call(self.define("src", params, body), ["a", *outs])

    def stage(self, inp: str) -> str:
        out = self.fifo()
        kind = self.rng.choice(["map", "map", "burst", "pair"])
        params = "i: hls.stream[hls.int32], o: hls.stream[hls.int32]"
        scale, offset = self.rng.randint(-3, 3), self.rng.randint(-50, 50)
        if kind == "map":
            body = [f"for k in range({self.n}):", f"    {self.pipeline()}",
                    f"    o.write(hls.int32(i.read() * {scale} + {offset}))"]
        elif kind == "burst":
            body = [f"buf = hls.zeros(({self.n},), hls.int32)", f"for k in range({self.n}):",
                    "    buf[k] = i.read()", f"for k2 in range({self.n}):", f"    {self.pipeline()}",
                    f"    o.write(hls.int32(buf[{self.n - 1} - k2] + {offset}))"]
        else:
            body = [f"for k in range({self.n // 2}):", f"    {self.pipeline()}", "    x = i.read()",
                    "    y = i.read()", "    o.write(hls.int32(x - y))", "    o.write(hls.int32(x + y))"]
        self.call(self.define(kind, params, body), [inp, out])
        return out

    def chain(self, inp: str) -> str:
        for _ in range(self.rng.randint(0, 2)):
            inp = self.stage(inp) if self.rows_rng.random() < 0.75 else self.row(inp)
            if self.buffer_rng.random() < 0.25:
                inp = self.buffer_rows(inp)
            if self.block_rng.random() < 0.2:
                inp = self.array_items(inp)
        if self.tasks and self.task_rng.random() < 0.4:
            inp = self.farm(inp)
        if self.blocks_rng.random() < 0.3:
            inp = self.blocks(inp)
        return inp

    def blocks(self, inp: str) -> str:
        """inp -> a producer filling blocks of B items -> a stream of blocks -> a consumer -> the returned FIFO."""
        rng = self.blocks_rng
        size = rng.choice([d for d in (2, self.n // 2, self.n) if d > 1 and self.n % d == 0])
        depth = rng.choice([1, 2, 2, 3])
        name = f"sb{len(self.defs)}"
        self.region.insert(1, f"    {name} = hls.stream_of_blocks(hls.int32[{size}], depth={depth})")
        kind = f"hls.stream_of_blocks[hls.int32[{size}], {depth}]"
        slot = f"{size - 1} - j" if rng.random() < 0.5 else "j"
        put = self.define("bput", f"i: hls.stream[hls.int32], bo: {kind}",
                          [f"for k in range({self.n // size}):", "    with hls.write_lock(bo) as blk:",
                           f"        for j in range({size}):", f"            blk[{slot}] = i.read()"])
        shift, offset = rng.randint(0, size - 1), rng.randint(-50, 50)
        get = self.define("bget", f"bi: {kind}, o: hls.stream[hls.int32]",
                          [f"for k in range({self.n // size}):", "    with hls.read_lock(bi) as blk:",
                           f"        for j in range({size}):",
                           f"            o.write(hls.int32(blk[j] + blk[(j + {shift}) % {size}] + {offset}))"])
        out = self.fifo(rng)
        self.call(put, [inp, name])
        self.call(get, [name, out])
        return out

    def row(self, inp: str) -> str:
        """A row of identical processing elements joined by a list of FIFOs, `for p in range(P): pe(r[p],
        r[p + 1], p)` unrolled when the design is built (declared before hls.dataflow() at times)."""
        rng = self.rows_rng
        count = rng.randint(2, 4)
        name = f"r{len(self.defs)}"
        depth = rng.choice([1, 2, 2, 3, self.n])
        declaration = f"    {name} = [hls.stream(hls.int32, depth={depth}) for _ in range({count})]"
        if rng.random() < 0.5:
            self.early.append(declaration)
        else:
            self.region.insert(1, declaration)
        relay = self.define("relay", "i: hls.stream[hls.int32], o: hls.stream[hls.int32]",
                            [f"for k in range({self.n}):", "    hls.pipeline()", "    o.write(i.read())"])
        self.call(relay, [inp, f"{name}[0]"])
        scale = rng.randint(-2, 2)
        pe = self.define("pe", "i: hls.stream[hls.int32], o: hls.stream[hls.int32], p: hls.int32",
                         [f"for k in range({self.n}):", f"    hls.pipeline(ii={rng.choice([1, 1, 2])})",
                          f"    o.write(hls.int32(i.read() * {scale} + p))"])
        self.region.append(f"    for p in range({count - 1}):")
        if rng.random() < 0.5:
            self.region.append("        hls.unroll()")
        self.region.append(f"        {pe}({name}[p], {name}[p + 1], p)")
        return f"{name}[{count - 1}]"

    def buffer_rows(self, inp: str) -> str:
        """inp -> row 0 of a local 2-D buffer -> processes from row p to row p + 1 (unrolled, each row its own
        ping-pong channel; a range whose step is a variable, of either sign, inside) -> a new FIFO."""
        rng = self.buffer_rng
        count, name = rng.randint(1, 3), f"m{len(self.defs)}"
        self.region.insert(1, f"    {name} = hls.zeros(({count + 1}, {self.n}), hls.int32)")
        unpack = self.define("unpack", f"i: hls.stream[hls.int32], d: hls.int32[{self.n}]",
                             [f"for k in range({self.n}):", "    d[k] = i.read()"])
        self.call(unpack, [inp, f"{name}[0]"])
        scale, offset = rng.randint(-2, 2), rng.randint(-9, 9)
        strided = f"range(0, {self.n}, w)" if rng.random() < 0.5 else f"range({self.n - 1}, -1, -w)"
        pe = self.define("rowpe", f"s: hls.int32[{self.n}], d: hls.int32[{self.n}], w: hls.int32",
                         [f"for k in range({self.n}):", f"    d[k] = hls.int32(s[k] * {scale} + {offset})",
                          f"for k2 in {strided}:", "    d[k2] = hls.int32(d[k2] + w)"])
        self.region.append(f"    for p in range({count}):")
        self.region.append("        hls.unroll()")
        self.region.append(f"        {pe}({name}[p], {name}[p + 1], p + {rng.randint(1, 3)})")
        out = f"q{self.fifos}"
        self.fifos += 1
        self.region.insert(self.fifos, f"    {out} = hls.stream(hls.int32, depth={rng.choice([2, self.n])})")
        pack = self.define("pack", f"s: hls.int32[{self.n}], o: hls.stream[hls.int32]",
                           [f"for k in range({self.n}):", "    o.write(s[k])"])
        self.call(pack, [f"{name}[{count}]", out])
        return out

    def array_items(self, inp: str) -> str:
        """inp -> groups of L items packed into arrays on a FIFO of int32[L] arrays -> (a stage that reverses
        each array) -> unpacked onto a new FIFO of scalars; L divides N."""
        rng = self.block_rng
        width = rng.choice([w for w in (2, 4) if self.n % w == 0])
        groups, name = self.n // width, f"g{len(self.defs)}"
        depth = rng.choice([1, 2, groups])
        self.region.insert(1, f"    {name} = hls.stream(hls.int32[{width}], depth={depth})")
        pack = self.define("group", f"i: hls.stream[hls.int32], o: hls.stream[hls.int32[{width}]]",
                           [f"for k in range({groups}):", f"    v = hls.zeros(({width},), hls.int32)",
                            f"    for j in range({width}):", "        v[j] = i.read()", "    o.write(v)"])
        self.call(pack, [inp, name])
        if rng.random() < 0.5:
            turned = f"g{len(self.defs)}r"
            self.region.insert(1, f"    {turned} = hls.stream(hls.int32[{width}], depth={rng.choice([1, 2])})")
            offset = rng.randint(-9, 9)
            flip = self.define("flip", f"i: hls.stream[hls.int32[{width}]], o: hls.stream[hls.int32[{width}]]",
                               [f"for k in range({groups}):", "    v = i.read()",
                                f"    w = hls.zeros(({width},), hls.int32)", f"    for j in range({width}):",
                                f"        w[j] = hls.int32(v[{width - 1} - j] + {offset})", "    o.write(w)"])
            self.call(flip, [name, turned])
            name = turned
        out = f"q{self.fifos}"
        self.fifos += 1
        self.region.insert(self.fifos, f"    {out} = hls.stream(hls.int32, depth={rng.choice([2, self.n])})")
        unpack = self.define("ungroup", f"i: hls.stream[hls.int32[{width}]], o: hls.stream[hls.int32]",
                             [f"for k in range({groups}):", "    v = i.read()", f"    for j in range({width}):",
                              "        o.write(v[j])"])
        self.call(unpack, [name, out])
        return out

    def farm(self, inp: str) -> str:
        """inp -> split -> one map task per branch -> merge -> the returned FIFO."""
        count = self.task_rng.choice([2, 3])
        policies = [self.task_rng.choice(["round_robin", "round_robin", "load_balance"]) for _ in range(2)]
        outs, backs = [self.fifo() for _ in range(count)], [self.fifo() for _ in range(count)]
        self.region.append(f"    hls.split.{policies[0]}({inp}, [{', '.join(outs)}])")
        for out, back in zip(outs, backs, strict=True):
            name = self.name("worker")
            scale, offset = self.task_rng.randint(-3, 3), self.task_rng.randint(-50, 50)
            self.defs.append(f"@hls.task\ndef {name}(i: hls.stream[hls.int32], o: hls.stream[hls.int32]):\n"
                             f"    o.write(hls.int32(i.read() * {scale} + {offset}))\n")
            self.call(name, [out, back])
        merged = self.fifo()
        self.region.append(f"    hls.merge.{policies[1]}([{', '.join(backs)}], {merged})")
        return merged

    def join(self, a: str, b: str) -> str:
        out = self.fifo()
        params = "x: hls.stream[hls.int32], y: hls.stream[hls.int32], o: hls.stream[hls.int32]"
        first, second = ("x", "y") if self.rng.random() < 0.5 else ("y", "x")
        body = [f"for k in range({self.n}):", f"    {self.pipeline()}", f"    u = {first}.read()",
                f"    v = {second}.read()", "    o.write(hls.int32(u - v))"]
        self.call(self.define("join", params, body), [a, b, out])
        return out

    def sink(self, inp: str) -> None:
        body = [f"for k in range({self.n}):", f"    {self.pipeline()}", "    b[k] = i.read()"]
        self.call(self.define("sink", f"i: hls.stream[hls.int32], b: hls.int32[{self.n}]", body), [inp, "b"])

    def call(self, name: str, args: list[str]) -> None:
        self.region.append(f"    {name}({', '.join(args)})")

    def unit(self) -> Unit:
        self.region.append("    hls.dataflow()")
        if self.rng.random() < 0.4:
            first = self.fifo()
            self.source([first])
            out = self.chain(first)
        else:
            left, right = self.fifo(), self.fifo()
            self.source([left, right])
            out = self.join(self.chain(left), self.chain(right))
        self.sink(out)
        kernel = f"df{self.seed}"
        params = f"a: hls.int32[{self.n}], b: hls.int32[{self.n}]"
        top = f"@hls.kernel\ndef {kernel}({params}):\n" + "\n".join(self.early + self.region) + "\n"
        source = "\n\n".join([*self.defs, top])
        return Unit(self.seed, kernel, source, [("a", f"hls.int32[{self.n}]"), ("b", f"hls.int32[{self.n}]")],
                    None, False)


def dataflow_unit(seed: int) -> Unit:
    return RegionGenerator(seed).unit()
