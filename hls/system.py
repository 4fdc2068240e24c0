"""hls.System: kernels joined by streams and memories into one accelerator (issue 26, docs/systems.md).

    hls.System([load, compute, store],
               connect=[("load.out", "compute.inp"), ("compute.out", "store.inp")],
               compute_units={"vadd": 2}, memory={"load.src": "HBM[0]"}, slr={"load": "SLR0"},
               platform="u280")

The static linter (hls/project/system_lint.py) runs when the System is made and refuses, with the file:line
of this call, what `v++ -l` or the hardware would refuse later. Calling the System runs it in Python mode:
every kernel a process of the dataflow scheduler (hls/golden/streams.py), the connections bounded FIFOs,
a deadlock reported as in a dataflow region. `export(dir)` writes one project: every kernel, one link.cfg,
one host program, `make host-sim` on the mock XRT.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from hls.backend.codec import codec_for
from hls.errors import HLSError, caller_loc
from hls.golden.streams import TRACES, UNBOUNDED, Stream, run_dataflow
from hls.golden_runs import golden_inputs, region_process
from hls.project.export import ExportSettings, GoldenVectors, check_design
from hls.project.host import DEFAULT_VITIS_VERSION, host_unsupported, link_config
from hls.project.movers import MOVER_DEPTH, STREAM_ARG
from hls.project.system import render_system, write_system
from hls.project.system_lint import (
    SystemError_,
    as_dict,
    as_list,
    check_compute_units,
    check_free_running,
    check_links,
    check_memory,
    check_name,
    check_platform,
    check_slr,
)
from hls.schedule.dataflow import raw_region, sized_depths
from hls.types import StreamType

DEFAULT_DEPTH = 2  # the depth of a connection's FIFO in the unbounded trace run (only its peak is read)


class System:
    """Kernels, their stream connections, compute units and memory banks; linted when made."""

    def __init__(self, kernels: list[Any], connect: list[tuple[str, str]] = (), compute_units: dict | None = None,
                 memory: dict | None = None, slr: dict | None = None, platform: str = "u250",
                 name: str = "system", depths: list[int] | None = None):
        self.loc = caller_loc()
        kernels = as_list(kernels, "hls.System's kernels (a list of @hls.kernel functions)", self.loc)
        if not kernels or not all(hasattr(k, "compile") for k in kernels):
            raise SystemError_("hls.System takes a list of @hls.kernel functions", self.loc)
        self.kernels = {k.compile().design.top: k for k in kernels}
        if len(self.kernels) != len(kernels):
            raise SystemError_("a kernel appears twice in the system (use compute_units for copies)", self.loc)
        self.designs = {name_: k.compile().design for name_, k in self.kernels.items()}
        self.links = check_links(connect, self.designs, self.loc)
        self.free = check_free_running(self.kernels, self.designs, self.loc)
        self.platform, self.name = check_platform(platform, self.loc), check_name(name, self.loc)
        self.counts = check_compute_units(as_dict(compute_units, "compute_units", self.loc), self.designs,
                                          self.links, self.loc)
        self.memory = as_dict(memory, "memory", self.loc)
        check_memory(self.memory, self.designs, self.counts, platform, self.loc)
        self.slr = as_dict(slr, "slr", self.loc)
        check_slr(self.slr, self.designs, platform, self.loc)
        for kname, design in self.designs.items():
            if design.stateful:
                raise SystemError_(f"kernel {kname!r} keeps hls.static state; a system kernel must not", self.loc)
        self.depths = None  # None: sized (fifo_depths) when needed
        if depths is not None:
            self.depths = as_list(depths, "depths (one FIFO depth per connection)", self.loc)
            if len(self.depths) != len(self.links) or not all(
                    isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in self.depths):
                raise SystemError_(f"depths {depths!r}: one FIFO depth (>= 1) per connection", self.loc)

    def _arguments(self, inputs: dict[str, Any] | None, seed: int) -> tuple[dict[str, list], dict[str, list]]:
        """Per kernel the golden-run arguments and the values written to its .dat files. A kernel's inputs
        may leave out its stream arguments (the connections feed them): a mapping by name without them, or
        a list of the other arguments in order."""
        given_all = as_dict(inputs, "inputs (per kernel name its arguments)", self.loc)
        unknown = [name for name in given_all if name not in self.kernels]
        if unknown:
            raise SystemError_(f"inputs name no kernel of this system: {', '.join(map(repr, unknown))} "
                               f"(kernels: {', '.join(self.kernels)})", self.loc)
        args, before = {}, {}
        for kname, k in self.kernels.items():
            compiled = k.compile()
            names, types = list(compiled.arg_names), list(compiled.arg_types)
            given = given_all.get(kname)
            given = _random_arguments(types, seed) if given is None else _with_streams(given, names, types)
            try:
                args[kname], before[kname] = golden_inputs(names, types, given)
            except HLSError as e:
                raise SystemError_(f"inputs[{kname!r}]: {e.message}", self.loc) from None
        return args, before

    def fifo_depths(self, inputs: dict[str, Any] | None = None, seed: int = 0) -> list[int]:
        """Per connection its FIFO depth: the given `depths`, else what this project's FIFO sizing
        (hls.schedule.fifo_timing.size_fifos) finds for the system as one region: its trace from one
        Python-mode run with unbounded FIFOs, each kernel's loops and latency from its estimate."""
        if self.depths is not None:
            return list(self.depths)
        if not self.links:
            return []
        reports = [k.report() for k in self.kernels.values()]
        merged = replace(reports[0], loops=[loop for r in reports for loop in r.loops],
                         nodes=[node for r in reports for node in r.nodes])
        TRACES.clear()
        UNBOUNDED[0] = True
        try:
            self._run(inputs, seed, [DEFAULT_DEPTH] * len(self.links))
        finally:
            UNBOUNDED[0] = False
        raw = raw_region(TRACES[-1])
        TRACES.clear()
        sized = sized_depths(raw, merged)
        return [sized[str(link)] for link in self.links]

    def run(self, inputs: dict[str, Any] | None = None, seed: int = 0, depths: list[int] | None = None) -> dict:
        """Python mode: every kernel a process, each connection a FIFO of its depth (given, else sized);
        {kernel: (args, return)}."""
        return self._run(inputs, seed, self.fifo_depths(inputs, seed) if depths is None else depths)[0]

    __call__ = run

    def _run(self, inputs: Any, seed: int, depths: list[int] | None) -> tuple[dict, dict, list[Stream]]:
        args, before = self._arguments(inputs, seed)
        fifos = []
        for link, depth in zip(self.links, depths or [None] * len(self.links), strict=True):
            elem = self.designs[link.producer].ports[self._index(link.producer, link.out)].type.elem
            fifo = Stream(elem, depth=depth, name=str(link))
            args[link.producer][self._index(link.producer, link.out)] = fifo
            args[link.consumer][self._index(link.consumer, link.inp)] = fifo
            fifos.append(fifo)
        results: dict[str, Any] = {}
        run_dataflow([region_process(kname, k, args[kname], results) for kname, k in self.kernels.items()], fifos)
        return {k: (args[k], results.get(k)) for k in self.kernels}, before, fifos

    def _index(self, kname: str, port: str) -> int:
        return [p.name for p in self.designs[kname].ports].index(port)

    def export(self, path: str | os.PathLike[str], seed: int = 0, inputs: dict[str, Any] | None = None,
               vitis_version: str = DEFAULT_VITIS_VERSION, overwrite: bool = False) -> Path:
        """One project: src/ per kernel, tb/data/<kernel>/, link.cfg, host/host.cpp, the mock XRT, a Makefile."""
        for kname, design in self.designs.items():
            check_design(design)  # a port csim cannot carry (a stream of ap_uint<72>) is refused, as k.export does
            why = host_unsupported(design)
            if why:
                raise HLSError(f"kernel {kname!r}: {why}", self.loc)
        depths = self.fifo_depths(inputs, seed)
        out, before, _ = self._run(inputs, seed, depths)
        vectors = {}
        for kname, (args, ret) in out.items():
            after = [np.asarray(a) if isinstance(a, Stream) else a for a in args]
            vectors[kname] = GoldenVectors(before[kname], after, ret, inputs is not None)
        settings = ExportSettings("xcu250-figd2104-2L-e", 3.33, "vitis", seed, overwrite=overwrite)
        cfg = link_config(self.name, self.designs, self.counts, self.links, depths, self.memory, self.slr,
                          vitis_version)
        files = render_system(self.name, self.designs, vectors, self.free, cfg, self.links, settings)
        return write_system(files, path, overwrite)



def _random_arguments(types: list[Any], seed: int) -> list[Any]:
    """A System kernel's random inputs: every stream is a connection (the linter's rule), so it starts empty
    and needs no item count; the other arguments drawn from their codecs."""
    rng = np.random.default_rng(seed)
    return [Stream(t.elem, []) if isinstance(t, StreamType) else codec_for(t).random(rng) for t in types]


def _with_streams(given: Any, names: list[str], types: list[Any]) -> Any:
    """A kernel's System inputs with its stream arguments filled in (empty streams) where left out."""
    streams = {n: t for n, t in zip(names, types, strict=True) if isinstance(t, StreamType)}
    if isinstance(given, dict):
        return {**{n: Stream(t.elem, []) for n, t in streams.items() if n not in given}, **given}
    if isinstance(given, (list, tuple)) and len(given) == len(names) - len(streams) and streams:
        rest = iter(given)
        return [Stream(t.elem, []) if n in streams else next(rest) for n, t in zip(names, types, strict=True)]
    return given


def mover_depths(kernel: Any, movers: list[tuple[Any, Any]], vectors: GoldenVectors) -> list[int]:
    """The stream_connect depth of each data mover's link (hls/project/movers.py): what this project's FIFO
    sizing finds for the movers and the kernel as one System run on the export's golden vectors (the mm2s
    buffers hold the items fed), as for any System; hls::stream's default where no System can be made (a
    kernel that keeps hls.static state) or sized."""
    design = kernel.compile().design
    names = {p.c_name: p.name for p in design.ports}
    connect = [(f"{m.name}.{STREAM_ARG}", f"{design.top}.{names[m.port]}") if m.direction == "in"
               else (f"{design.top}.{names[m.port]}", f"{m.name}.{STREAM_ARG}") for m, _ in movers]
    try:
        system = System([k for _, k in movers] + [kernel], connect=connect)
    except SystemError_:
        return [MOVER_DEPTH] * len(movers)
    fed = dict(zip([p.c_name for p in design.ports if not p.output_only], vectors.before, strict=True))
    inputs = {design.top: list(vectors.before)}
    for m, k in movers:
        types = k.compile().arg_types
        if m.direction == "in":
            items = fed[m.port]
            inputs[m.name] = [np.asarray(items[f]) for f in m.fields] if m.fields else [np.asarray(items)]
            inputs[m.name].append(Stream(types[-1].elem, []))
        else:
            inputs[m.name] = [Stream(types[0].elem, [])] + [np.zeros(m.count, t.elem.storage_dtype) for t in types[1:]]
    try:
        return system.fifo_depths(inputs)
    except HLSError:  # a kernel the sizing cannot time: the default depth still runs a chain (no reconvergence)
        return [MOVER_DEPTH] * len(movers)
