"""Data movers for a lone kernel's AXI4-Stream ports on the Vitis flow (issue 26, docs/systems.md).

XRT reaches m_axi buffers and s_axilite scalars, never an AXI4-Stream port, so the export adds one kernel per
stream argument that moves its items between a buffer and the stream: `<top>_mm2s_<arg>` (memory to stream)
feeds an input, `<top>_s2mm_<arg>` (stream to memory) drains an output; link.cfg joins each to the kernel by
`stream_connect`, and the host program drives the movers as it drives any memory kernel. A mover is an
ordinary kernel of this project: Python source made here and compiled by the frontend like any other, so it
gets a csim build and a mock-XRT entry. A struct item (hls.axis packets with their side channels, an
@hls.struct) travels as one buffer per field, so the host only sees arrays of scalars, read from and
compared with the kernel's own testbench files (`<arg>.dat`, `<arg>.<field>.golden.dat`).

Element counts: what the port carried in the golden run of the testbench vectors (an input: every item fed,
which the kernel must read, since an mm2s that writes more than its consumer reads never finishes; an
output: every item written). The stream_connect depths: sized as a System's (hls.system.mover_depths), else
hls::stream's default 2 (VITIS_FACTS.md), which cannot deadlock a mover chain (no reconvergent path).
"""

from __future__ import annotations

import hashlib
import linecache
from dataclasses import dataclass
from typing import Any

from hls.backend.cpp.render import render_template
from hls.lang.directives import pipeline
from hls.lang.storage import stream
from hls.project.host import DEFAULT_VITIS_VERSION, host_data, kernel_files, link_config, mock_files
from hls.project.system_lint import Link
from hls.types import TypeFamily

MOVER_DEPTH = 2  # hls::stream's default depth (VITIS_FACTS.md, hls::stream): when no System can size them
STREAM_ARG = "strm"  # the mover's stream argument


@dataclass(frozen=True)
class Mover:
    """One data mover: the generated function, the kernel argument it serves and the items it moves."""

    func: Any
    name: str
    port: str  # the kernel's stream argument (its C name)
    direction: str  # "in": mm2s feeds the kernel; "out": s2mm drains it
    count: int
    fields: tuple[str, ...]  # a struct item's fields, one buffer each; () for a scalar item
    depth: int = MOVER_DEPTH  # its stream_connect FIFO depth (sized by hls.system.mover_depths)

    @property
    def files(self) -> list[tuple[str, str]]:
        """(buffer argument, the kernel's .dat file the host reads or compares it with), in argument order."""
        suffix = ".dat" if self.direction == "in" else ".golden.dat"
        if not self.fields:
            return [("mem", f"{self.port}{suffix}")]
        return [(f"mem_{f}", f"{self.port}.{f}{suffix}") for f in self.fields]


def port_counts(design: Any, vectors: Any) -> dict[str, tuple[int, int]]:
    """Per stream argument (C name): (items fed by the testbench, items left or written after the run)."""
    inputs = [p for p in design.ports if not p.output_only]
    return {p.c_name: (len(b), len(a)) for p, b, a in zip(inputs, vectors.before, vectors.after, strict=True)
            if p.stream}


def movers_unsupported(design: Any, vectors: Any) -> str | None:
    """Why the stream arguments cannot get movers, or None."""
    counts = port_counts(design, vectors)
    for port in design.ports:
        if not port.stream:
            continue
        fed, left = counts[port.c_name]
        if port.stream == "in" and left:
            return (f"argument {port.name!r} is a stream the kernel reads {fed - left} of the {fed} items its "
                    "testbench feeds: an mm2s mover that writes more than its consumer reads never finishes")
        if (fed if port.stream == "in" else left) == 0:
            return f"argument {port.name!r} is a stream that carried no items in the golden run (nothing to move)"
        if port.codec.family is TypeFamily.STRUCT and any(f.shape for _, f in port.codec.fields):
            return f"argument {port.name!r} is a stream of {port.type} with an array field (no mover for it here)"
    return None


def mover_plan(design: Any, vectors: Any) -> list[Mover]:
    """The movers of every stream argument, inputs first, in argument order ([] when there is none)."""
    if movers_unsupported(design, vectors) is not None:
        return []
    counts = port_counts(design, vectors)
    movers = []
    for port in sorted((p for p in design.ports if p.stream), key=lambda p: p.stream != "in"):
        fed, left = counts[port.c_name]
        kind = "mm2s" if port.stream == "in" else "s2mm"
        name = f"{design.top}_{kind}_{port.c_name}"
        count = fed if port.stream == "in" else left
        struct = port.codec.family is TypeFamily.STRUCT
        fields = tuple(n for n, _ in port.codec.fields) if struct else ()
        func = _mover_function(name, port.stream, port.type.elem, count, fields)
        movers.append(Mover(func, name, port.c_name, port.stream, count, fields))
    return movers


def _mover_function(name: str, direction: str, item: Any, count: int, fields: tuple[str, ...]) -> Any:
    """The mover as a plain Python function with its source registered in linecache (the frontend reads a
    kernel's source); @hls.kernel (hls/kernel.py) makes it a kernel."""
    namespace: dict[str, Any] = {"__name__": __name__, "pipeline": pipeline, "stream": stream, "N": count,
                                 "T": item}
    buffers = [("mem", "T")] if not fields else [(f"mem_{f}", f"F_{f}") for f in fields]
    if fields:
        namespace.update({f"F_{n}": t for n, t in item.fields})
        namespace["P"] = namespace["T"] = item.cls
    mems = ", ".join(f"{b}: {t}[N]" for b, t in buffers)
    if direction == "in":
        value = "mem[i]" if not fields else "P(" + ", ".join(f"{f}=mem_{f}[i]" for f in fields) + ")"
        head, body = f"{mems}, {STREAM_ARG}: stream[T]", [f"{STREAM_ARG}.write({value})"]
    else:
        head = f"{STREAM_ARG}: stream[T], {mems}"
        body = ([f"mem[i] = {STREAM_ARG}.read()"] if not fields else
                [f"item = {STREAM_ARG}.read()"] + [f"mem_{f}[i] = item.{f}" for f in fields])
    text = "\n".join([f"def {name}({head}):", "    for i in range(N):", "        pipeline(ii=1)",
                      *(f"        {line}" for line in body)]) + "\n"
    filename = f"<hls data mover {hashlib.sha256(text.encode()).hexdigest()[:12]}>"  # the same text, the same name
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - source made above from identifiers and types
    return namespace[name]


def render_mover_host(design: Any, movers: list[tuple[Mover, Any]], common: dict[str, Any], rtol: str, atol: str,
                      vitis_version: str = DEFAULT_VITIS_VERSION) -> tuple[dict[str, str], dict[str, Any]]:
    """The host side of a kernel with stream arguments: each mover's sources and mock entry, one link.cfg
    (nk= per kernel, stream_connect= per mover), one host program driving the movers' buffers and the
    kernel's own arguments; and what the Makefile needs (every kernel, the stream links, a free-running top)."""
    top = design.top
    files: dict[str, str] = {}
    kernels, links = [], []
    for mover, mdesign in movers:
        files.update({f"src/{mdesign.top}.cpp": mdesign.kernel_cpp, f"src/{mdesign.header_name}": mdesign.header})
        files.update(kernel_files(mdesign, {"top": mdesign.top, "rets": [], "streams": mdesign.streams}))
        named = dict(mover.files)
        ports = []
        for p in host_data(mdesign, [])["host_ports"]:
            if p["kind"] == "buffer":  # read from (mm2s) or compared with (s2mm) the kernel's testbench file
                shown = named[p["c_name"]].split(".dat")[0].removesuffix(".golden")
                p = {**p, "name": shown, "file": named[p["c_name"]] if mover.direction == "in" else None,
                     "golden_file": named[p["c_name"]] if mover.direction == "out" else None}
            ports.append(p)
        kernels.append({"top": mdesign.top, "prefix": "", "label": "", "free": False, "host_ports": ports,
                        "host_rets": []})
        links.append(Link(mdesign.top, STREAM_ARG, top, mover.port) if mover.direction == "in"
                     else Link(top, mover.port, mdesign.top, STREAM_ARG))
    data = {**common, **host_data(design, common["rets"]), "rtol": rtol, "atol": atol}
    own = {"top": top, "prefix": "", "label": "", "free": design.free_running, "host_ports": data["host_ports"],
           "host_rets": data["host_rets"]}
    inputs = sum(m.direction == "in" for m, _ in movers)
    data["host_kernels"] = kernels[:inputs] + [own] + kernels[inputs:]
    data["kernels_py"] = repr(data["host_kernels"])
    names = [k["top"] for k in data["host_kernels"]]
    files["host/host.cpp"] = render_template("host.cpp.j2", **data)
    files["host/host.py"] = render_template("host.py.j2", **data)
    files["link.cfg"] = link_config(top, {}, dict.fromkeys(names, 1), links, [m.depth for m, _ in movers], {}, {},
                                    vitis_version)
    files.update(kernel_files(design, common))
    files.update(mock_files())
    make = {"kernels": names, "connections": [(f"{lk.producer}.{lk.out}", f"{lk.consumer}.{lk.inp}") for lk in links],
            "free_kernels": [top] if design.free_running else []}
    return files, make
