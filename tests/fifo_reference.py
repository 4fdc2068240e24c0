"""A straightforward cycle-by-cycle simulation of the FIFO timing rules (docs/dataflow.md, "How time is
computed"): the oracle the tests compare hls/schedule/fifo_timing.py against, and the bench's baseline.

Written independently of the engine: it steps cycles, issues each process's next access when it is
due and its FIFO allows it (the item was written, or the slot freed, in an earlier cycle), and
otherwise lets the process slip by one cycle. Slow (per cycle and per access), simple to check by eye.
"""

from __future__ import annotations

from hls.schedule.fifo_timing import FifoSpec, ProcessTrace


def reference(processes: list[ProcessTrace], fifos: list[FifoSpec], depths: dict[str, int] | None = None):
    """Returns ({process: (start, end)}, issue cycles per process, deadlock list or None)."""
    depth = [(depths or {}).get(f.name, f.depth) for f in fifos]
    writes: list[list[int]] = [[] for _ in fifos]  # issue cycle of each write, per FIFO
    reads: list[list[int]] = [[] for _ in fifos]
    issued: list[list[int]] = [[] for _ in processes]
    shift = [0] * len(processes)
    start: dict[str, int] = {}
    end: dict[str, int] = {}
    t = 0
    while len(end) < len(processes):
        progress = False
        waiting_on_time = []
        for p, proc in enumerate(processes):
            if proc.name in end:
                continue
            if proc.name not in start:
                if any(a not in end for a in proc.after):
                    continue
                start[proc.name] = max([end[a] for a in proc.after], default=0)
                shift[p] = start[proc.name]
            while len(issued[p]) < len(proc.fifo):
                i = len(issued[p])
                due = int(proc.nominal[i]) + shift[p]
                if due > t:
                    waiting_on_time.append(due)
                    break
                f, is_write = int(proc.fifo[i]), bool(proc.write[i])
                k = len(writes[f]) if is_write else len(reads[f])
                if is_write:
                    ok = k < depth[f] or (k - depth[f] < len(reads[f]) and reads[f][k - depth[f]] < t)
                else:
                    ok = k < len(writes[f]) and writes[f][k] < t
                if not ok:
                    break  # due but blocked: try again next cycle
                shift[p] += t - due  # issued late: every later access of the process slips as much
                (writes[f] if is_write else reads[f]).append(t)
                issued[p].append(t)
                progress = True
            if len(issued[p]) == len(proc.fifo):
                end[proc.name] = shift[p] + proc.end
                progress = True
        if not progress and not waiting_on_time and len(end) < len(processes):
            return start, issued, _blocked(processes, fifos, issued, start, end)
        t = t + 1 if progress or not waiting_on_time else min(waiting_on_time)
    return {n: (start[n], end[n]) for n in end}, issued, None


def _blocked(processes, fifos, issued, start, end):
    out = []
    for p, proc in enumerate(processes):
        if proc.name in start and proc.name not in end:
            i = len(issued[p])
            line = None if proc.lines is None else proc.lines[i]
            out.append((proc.name, fifos[int(proc.fifo[i])].name, "full" if proc.write[i] else "empty", i, line))
    return out


def random_design(seed: int, processes: int = 10, fifos: int = 10, items: int = 50, depth: int = 2,
                  handoff: bool = False, batch: bool = False):
    """A chain of `processes` stages joined by FIFOs, plus bypass FIFOs from stage 0 to later stages up
    to `fifos` in all; each stage has its own II, start offset and burstiness. Every FIFO carries
    `items` items, so the design has 2 * fifos * items accesses. `handoff` adds a process without
    FIFO accesses ("pp", a ping-pong buffer filler) that a random stage waits for, and sometimes makes
    a stage wait for stage 0 as well (a deadlock when stage 0 fills a FIFO that stage reads). `batch`
    makes each stage move its items in groups of 1, 2, 3 or 5 (all reads of a group, then all writes),
    so that shallow bypass FIFOs deadlock."""
    import numpy as np

    rng = np.random.default_rng(seed)
    edges = [(k, k + 1) for k in range(processes - 1)]
    while len(edges) < fifos:
        edges.append((0, int(rng.integers(2, processes)) if processes > 2 else processes - 1))
    specs = [FifoSpec(f"f{k}", 32, depth) for k in range(len(edges))]
    traces = []
    for p in range(processes):
        ins = [k for k, (_, dst) in enumerate(edges) if dst == p]
        outs = [k for k, (src, _) in enumerate(edges) if src == p]
        ii, lead, burst = int(rng.integers(1, 4)), int(rng.integers(0, 5)), int(rng.integers(1, 5))
        cycles = [lead + item * ii + (item // burst) * int(rng.integers(0, 3)) for item in range(items)]
        group = int(rng.choice([1, 2, 3, 5])) if batch else 1
        fifo, write, nominal = [], [], []
        for first in range(0, items, group):
            for k in ins + outs:
                for item in range(first, min(first + group, items)):
                    fifo.append(k)
                    write.append(k in outs)
                    nominal.append(cycles[item] + (2 if k in outs else 0))
        nominal_array = np.maximum.accumulate(np.array(nominal, np.int64)) if nominal else np.zeros(0, np.int64)
        end = int(nominal_array[-1]) + 3 if len(nominal_array) else 1
        traces.append(ProcessTrace(f"p{p}", np.array(fifo, np.int32), np.array(write, bool), nominal_array, end))
    if handoff:
        waiting = traces[int(rng.integers(1, processes))]
        waiting.after = ["pp", "p0"] if rng.integers(0, 2) else ["pp"]
        empty = np.zeros(0, np.int64)
        traces.append(ProcessTrace("pp", empty.astype(np.int32), empty.astype(bool), empty, int(rng.integers(5, 40))))
    return traces, specs
