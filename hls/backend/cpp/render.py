"""IR module -> C++ files through Jinja2 templates. Python computes plain data; templates lay it out."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2

from hls.backend.codec import Codec, codec_for, declarations
from hls.backend.cpp import faults
from hls.backend.cpp.emit import EmittedFunction, FunctionEmitter
from hls.backend.cpp.expr import CSIM_CHECKED, HELPERS
from hls.backend.cpp.layout import wrap, wrap_all
from hls.backend.cpp.pragmas import interface_pragma
from hls.backend.ctype import struct_declaration
from hls.backend.names import Namer
from hls.errors import HLSTypeError
from hls.interfaces import BLOCK_CONTROL, default_interface
from hls.ir import AllocOp, BlocksOp, DirectiveOp, Module
from hls.ir.traits import process_of
from hls.ir.usage import stream_directions
from hls.lang.axis import AxisType
from hls.lang.directives import Interface, Partition
from hls.types import ArrayType, BlocksType, FixedType, ScalarType, StreamType, StructType, TupleType


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    dirs = [str(resources.files("hls.backend.cpp") / folder) for folder in ("templates", "testbenches")]
    return jinja2.Environment(loader=jinja2.FileSystemLoader(dirs), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def render_template(name: str, **data: Any) -> str:
    return environment().get_template(name).render(**data)


@dataclass
class PortSpec:
    """One top-level argument as the csim boundary sees it (plain data for the sim and testbench)."""

    name: str
    c_name: str
    type: Any
    is_array: bool
    shape: tuple[int, ...]
    codec: Codec  # how one element crosses (hls/backend/codec/__init__.py)
    stream: str | None = None  # a stream argument: "in" (the kernel reads it) or "out"
    output_only: bool = False  # the array a kernel returns: csim allocates it, the testbench only checks it


@dataclass
class ResultSpec:
    """One returned scalar (a scalar return, or one element of a tuple return) at the csim boundary."""

    type: Any
    codec: Codec


@dataclass
class CppDesign:
    top: str
    header_name: str
    kernel_cpp: str
    header: str
    bridge_cpp: str
    ports: list[PortSpec]
    return_type: Any  # None, a scalar, a TupleType or (array results) an ArrayType
    results: list[ResultSpec]  # the scalar results the bridge hands back (none for an array result)
    functions: dict[str, str] = field(default_factory=dict)
    stateful: bool = False  # some function keeps `static` locals between calls (hls.static)
    boundary_errors: list[tuple[str, Any]] = field(default_factory=list)  # (message, loc): ports csim cannot carry
    streams: bool = False  # the design uses hls::stream: the bridge reports hls_csim faults (deadlocks)
    c_declarations: list[str] = field(default_factory=list)  # C storage structs (cffi's cdef, the bridge)
    fault_sites: faults.Sites = field(default_factory=faults.Sites)  # csim checks: what and where (faults.py)
    free_running: bool = False  # the top is an @hls.task: testbenches run its body until its inputs are empty
    axi_lite: bool = False  # a Vivado-flow AXI IP (axi_lite_ip): the PYNQ driver reaches it through s_axilite

    def check_boundary(self) -> None:
        """Raise for a port that cannot cross the csim/testbench boundary (int64 and float64 carriers).

        Checked where values cross (csim, export), not when emitting: the C++ itself is valid, and a
        sub-kernel with wide parameters must still run in Python mode and be called from a kernel.
        """
        if self.boundary_errors:
            message, loc = self.boundary_errors[0]
            raise HLSTypeError(message, loc)

    @property
    def sources(self) -> dict[str, str]:
        return {f"{self.top}.cpp": self.kernel_cpp, f"{self.top}.h": self.header, "bridge.cpp": self.bridge_cpp}


def emit_module(module: Module, origin: str = "", flow: str = "vitis") -> CppDesign:
    namer = Namer()
    c_names = {name: namer.fresh(name) for name in module.functions}
    top = module.top_function
    emitted: list[EmittedFunction] = []
    with faults.collecting() as sites:  # the csim checks' sites: what failed, at which kernel line
        for func in module.functions.values():
            if func.attrs.get("channel"):
                continue  # hls.split / hls.merge: Vitis's object, declared where its streams are (streams.py)
            pragmas = top_interface_pragmas(func, flow) if func is top else []
            emitted.append(FunctionEmitter(func, c_names, pragmas).emit())
    helpers = set().union(*(e.helpers for e in emitted))
    top_c = c_names[module.top]
    header_name = f"{top_c}.h"
    top_emitted = emitted[-1]
    needs_fixed = any(_uses_fixed(f) for f in module.functions.values())
    divides = bool(helpers & CSIM_CHECKED)
    streams = any(isinstance(t, StreamType) for f in module.functions.values()
                  for t in [a.type for a in f.args] + [r.type for op in f.walk() for r in op.results])
    processes = any(process_of(op) is not None for f in module.functions.values() for op in f.walk())
    streams = streams or processes  # a region of loops and ping-pong arrays still runs in hls_csim::region
    records = struct_types(module)
    header = render_template("kernel.h.j2", guard=f"HLS_{top_c.upper()}_H",
                             prototype="\n".join(wrap(top_emitted.signature)),
                             fixed=needs_fixed, divides=divides, streams=streams,
                             structs=[struct_declaration(t) for t in records if not isinstance(t, AxisType)],
                             axis=any(isinstance(t, AxisType) for t in records))
    tasks = any(op.attrs.get("task") for f in module.functions.values() for op in f.walk())
    kernel_cpp = render_template("kernel.cpp.j2", header=header_name, origin=origin, streams=streams,
                                 processes=processes, tasks=tasks,
                                 channels=any(f.attrs.get("channel") for f in module.functions.values()),
                                 blocks=any(isinstance(op, BlocksOp) for f in module.functions.values()
                                            for op in f.walk()),
                                 helpers=[h for h in HELPERS if h in helpers], csim_checked=divides,
                                 functions=makers(emitted) + [
                                     {"signature": "\n".join(wrap(("static " if e is not top_emitted else "")
                                                                  + e.signature)),
                                      "body": wrap_all(e.body)} for e in emitted])
    errors: list[tuple[str, Any]] = []
    directions = stream_directions(top, module)
    ports = port_specs(top, top_emitted, errors, directions)
    results = result_specs(top.return_type, errors, top.loc)
    storage, conversions = declarations([p.codec for p in ports] + [r.codec for r in results])
    bridge = render_template("bridge.cpp.j2", header=header_name, top=top_c, ports=ports, results=results,
                             tuple_return=isinstance(top.return_type, TupleType), divides=divides, streams=streams,
                             free_running=bool(top.attrs.get("task")),
                             declarations=storage + conversions)
    stateful = any(isinstance(op, AllocOp) and op.static for f in module.functions.values()
                   for op in f.walk())
    return CppDesign(top_c, header_name, kernel_cpp, header, bridge, ports, top.return_type, results,
                     boundary_errors=errors, stateful=stateful, streams=streams, c_declarations=storage,
                     fault_sites=sites, free_running=bool(top.attrs.get("task")), axi_lite=axi_lite_ip(top, flow))


def makers(emitted: list[EmittedFunction]) -> list[dict[str, Any]]:
    """The struct makers the functions call (hls/backend/cpp/structs.py, `struct_maker`), once each,
    before the functions."""
    found: dict[str, tuple[str, str, list[str]]] = {}
    for e in emitted:
        found.update(e.makers)
    return [{"signature": "\n".join(wrap(signature)), "body": wrap_all(body)} for _, signature, body in found.values()]


def result_specs(t: Any, errors: list[tuple[str, Any]], loc: Any = None) -> list[ResultSpec]:
    """The scalar results; those csim cannot carry are recorded in `errors` (see CppDesign.check_boundary)."""
    elems = list(t.elems) if isinstance(t, TupleType) else [t] if isinstance(t, (ScalarType, StructType)) else []
    results = [ResultSpec(e, codec_for(e)) for e in elems]
    errors += [(f"return value: {r.codec.elem} {r.codec.unsupported}", loc) for r in results if r.codec.unsupported]
    return results


def _uses_fixed(func) -> bool:
    types = [a.type for a in func.args] + [r.type for op in func.walk() for r in op.results]
    elems = [getattr(t, "elem", t) for t in types]
    types += [ft for t in elems if isinstance(t, StructType) for _, ft in t.fields]
    return any(isinstance(getattr(t, "elem", t), FixedType) for t in types)


def struct_types(module: Module) -> list[StructType]:
    """Every struct type the design uses, in first-use order (the header declares them)."""
    found: dict[StructType, None] = {}
    for func in module.functions.values():
        types = [a.type for a in func.args] + [func.return_type] + [r.type for op in func.walk() for r in op.results]
        for t in types:
            elem = getattr(t, "elem", t)
            if isinstance(elem, StructType):
                found[elem] = None
    return list(found)


def port_specs(func, emitted: EmittedFunction, errors: list[tuple[str, Any]],
               directions: dict[Any, str] | None = None) -> list[PortSpec]:
    """The top's ports; those csim cannot carry are recorded in `errors` (see CppDesign.check_boundary)."""
    ports = []
    for arg, c_name in zip(func.args, emitted.arg_names, strict=True):
        t = arg.type
        codec = codec_for(t)
        if codec.unsupported:
            errors.append((f"argument {arg.name!r}: {codec.elem} {codec.unsupported}", func.loc))
        if isinstance(t, BlocksType):  # UG1399: it joins two processes of a region, never a top's port
            errors.append((f"argument {arg.name!r} is a stream of blocks: it joins two processes of a dataflow "
                           "region and is no port of a top kernel; run the kernel that declares it", func.loc))
        ports.append(PortSpec(arg.name, c_name, t, isinstance(t, ArrayType), codec.shape, codec,
                              (directions or {}).get(arg, "in") if isinstance(t, StreamType) else None,
                              output_only=arg.name == func.result_array))
    return ports


def axi_lite_ip(func, flow: str) -> bool:
    """A Vivado IP flow top whose every argument is an array the user made `m_axi` with `offset="slave"`
    (hls.interface) is an AXI IP: its buffer addresses live in an s_axilite register file, so its scalars,
    scalar outputs and block control go there too (`s_axilite port=return`), the IP a PYNQ Overlay drives."""
    if flow != "vivado" or not func.args:
        return False
    chosen = {id(op.target): op.directive for op in func.walk()
              if isinstance(op, DirectiveOp) and isinstance(op.directive, Interface)}
    arrays = [arg for arg in func.args if isinstance(arg.type, ArrayType)]
    if not arrays or any(isinstance(arg.type, StreamType) for arg in func.args):
        return False
    return all(id(a) in chosen and chosen[id(a)].mode == "m_axi" and chosen[id(a)].offset == "slave" for a in arrays)


def top_interface_pragmas(func, flow: str = "vitis") -> list[str]:
    """The flow's default interfaces (hls/interfaces.py) for every argument the user gave none; an AXI IP's
    scalars and control in s_axilite (axi_lite_ip)."""
    directives = [op for op in func.walk() if isinstance(op, DirectiveOp)]
    chosen = {id(op.target) for op in directives if isinstance(op.directive, Interface)}
    axi = axi_lite_ip(func, flow)
    partitioned = [op for op in directives if isinstance(op.directive, Partition)]
    pragmas = []
    bundle = 0
    for arg in func.args:
        if id(arg) in chosen:
            continue
        if isinstance(arg.type, StreamType):  # AXI4-Stream, the same in the Vivado and Vitis flows
            pragmas.append(interface_pragma("{" + arg.name + "}", Interface(mode="axis")))
            continue
        is_array = isinstance(arg.type, ArrayType)
        options = default_interface("vitis" if axi else flow, is_array, bundle, arg.type.size if is_array else 0)
        if options.mode == "m_axi":
            for op in partitioned:
                if op.target is arg:
                    raise HLSTypeError(f"array_partition on {arg.name!r}, a kernel argument with the default m_axi "
                                       "interface of the Vitis flow: Vitis cannot partition m_axi ports; add "
                                       f"hls.interface({arg.name}, \"ap_memory\"), use flow=\"vivado\" or copy it "
                                       "to a local array", op.loc)
            bundle += 1
        pragmas.append(interface_pragma("{" + arg.name + "}", options))
    if isinstance(func.return_type, TupleType):  # reference outputs: the flow's scalar-output interface
        mode = "s_axilite" if flow == "vitis" or axi else "ap_vld"
        pragmas += [interface_pragma(f"{{__out{i}}}", Interface(mode=mode)) for i in range(len(func.return_type.elems))]
    # a free-running task: no handshake
    control = "ap_ctrl_none" if func.attrs.get("task") else BLOCK_CONTROL["vitis" if axi else flow]
    pragmas.append(f"#pragma HLS interface mode={control} port=return")
    return pragmas
