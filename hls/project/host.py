"""The host side of a Vitis-flow export (issue 26): what the XRT host programs (host/host.cpp, host/host.py),
the mock XRT's per-kernel entry (host/sim/<top>_entry.cpp) and the PYNQ-style register map need to know
about each kernel argument, as plain data for their templates.

Device layout (VITIS_FACTS.md "Host code and the device"): a buffer element of an integer type occupies
the power-of-two number of bytes its storage dtype has (ap_int<12> -> 2 bytes), fixed point travels as
its raw two's-complement mantissa in the same rounded-up width, floats and bool as themselves. The csim
bridge stores fixed point as float64, so the mock's entry converts raw mantissas to and from it.

s_axilite register map of an ap_ctrl_chain/ap_ctrl_hs kernel as Vitis HLS lays it out in its
`x<top>_hw.h` driver header: 0x00 control, 0x04 GIE, 0x08 IER, 0x0c ISR, then from 0x10 the return
value (`ap_return`), then each argument in order: a pointer 12 bytes (low word, high word, reserved),
a scalar of up to 32 bits 8 bytes (data, reserved), 33-64 bits 12 bytes; a scalar output (a tuple
element, `ap_vld`) its data words plus a control word.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from hls.backend.cpp.render import render_template
from hls.errors import HLSError
from hls.project.system_lint import memory_target
from hls.types import FixedType, TupleType, TypeFamily

HOST_FAMILIES = (TypeFamily.INT, TypeFamily.BOOL, TypeFamily.FLOAT, TypeFamily.FIXED)
FIRST_ARGUMENT = 0x10  # after the control, GIE, IER and ISR words
_BYTES = {"bool": 1, "float": 4, "double": 8}


def host_unsupported(design: Any) -> str | None:
    """Why no host program is generated for this design, or None: XRT reaches m_axi buffers and s_axilite
    scalars; a stream argument is joined to another kernel (a data mover, an hls.System's), never the host."""
    for port in design.ports:
        if port.stream:  # a data mover (hls/project/movers.py) or a System's kernel feeds it, never the host
            continue
        if port.codec.family is TypeFamily.STRUCT:
            why = struct_layout(port.codec) if port.is_array else "a struct by value (s_axilite) has no layout here"
            if re.search(rf"#pragma HLS (dis)?aggregate variable={port.c_name}\b", design.kernel_cpp):
                why = "the kernel aggregates or disaggregates it; the host layout here is Vitis's default only"
            if isinstance(why, str):
                return f"argument {port.name!r} ({port.type}): {why}"
        elif port.codec.family not in HOST_FAMILIES:
            return f"argument {port.name!r} ({port.type}) has no host-side layout here"
    for r in design.results:
        if r.codec.family not in HOST_FAMILIES:
            return f"the return type {r.type} has no host-side layout here"
    return None


def struct_layout(codec: Any) -> tuple[int, list[tuple[str, int, Any]]] | str:
    """The m_axi layout of one element of an array of structs, or why there is none here: (element bytes,
    [(field, byte offset, field codec)]).

    Vitis HLS keeps a struct argument of the top aggregated, its first field at the LSB, padded rather than
    packed (compact=none, which an AXI4 port must use), the element rounded up to a power of two bytes
    (UG1399 2022.1 "Structs on the Interface", 2023.1 "Examples of Aggregation": a 3-byte struct is a
    32-bit word, "Aggregating maxi variable 'arr' with compact=none mode in 32-bits") and, in the kernel
    flow, on a 4-byte alignment (same page; *inferred*: an element of fewer bytes takes 4). compact=none is
    the C layout, the same as the csim bridge's storage struct (numpy's aligned record), so the offsets are
    that record's. That holds for fields of native C types (8/16/32/64-bit integers, float, double); where
    an ap_int<W>, ap_fixed or bool field lands in the aggregate is not in the facts here, so those are
    refused, as are array fields."""
    fields = []
    for name, f in codec.fields:
        native = f.family in (TypeFamily.INT, TypeFamily.FLOAT) and f.c_type == f.storage
        if f.shape or not native:
            return (f"field {name!r} is {f.elem}{'[...]' if f.shape else ''}: Vitis's m_axi layout of a struct is "
                    "known here for fields of native C types only (8/16/32/64-bit integers, float, double)")
        fields.append((name, int(codec.dtype.fields[name][1]), f))
    size = 4
    while size < codec.dtype.itemsize:
        size *= 2
    return size, fields


def device_type(codec: Any) -> str:
    """The C type of one element as the kernel's memory holds it."""
    if codec.family is TypeFamily.FIXED:
        nbytes = 1
        while nbytes * 8 < codec.elem.width:
            nbytes *= 2
        return f"{'' if codec.elem.signed else 'u'}int{nbytes * 8}_t"
    return codec.storage


def device_bytes(codec: Any) -> int:
    """Bytes of one device element (the C types device_type names)."""
    spelled = device_type(codec)
    return _BYTES.get(spelled) or int(re.sub(r"\D", "", spelled)) // 8


def value_data(codec: Any) -> dict[str, Any]:
    """How one value converts between its .dat text, the device word and the bridge's storage."""
    elem = codec.elem
    fixed = isinstance(elem, FixedType)
    width = getattr(elem, "width", 0)
    return {"device_type": device_type(codec), "storage": codec.storage, "dat_type": codec.dat_type,
            "exact": codec.exact, "fixed": fixed, "frac": elem.frac_bits if fixed else 0,
            "width": width if codec.family in (TypeFamily.INT, TypeFamily.FIXED) else 0,
            "signed": bool(getattr(elem, "signed", False)), "nbytes": device_bytes(codec),
            "is_float": codec.family is TypeFamily.FLOAT, "item_bytes": 0}


def register_map(design: Any) -> tuple[dict[str, int], list[int]]:
    """{argument name: s_axilite offset} and the offsets of the returned values, in Vitis HLS's layout."""
    offset = FIRST_ARGUMENT
    rets: list[int] = []
    tuple_return = isinstance(design.return_type, TupleType)
    if design.results and not tuple_return:
        rets.append(offset)
        offset += 8 if device_bytes(design.results[0].codec) <= 4 else 12
    args: dict[str, int] = {}
    for port in design.ports:
        if port.stream:
            continue
        args[port.name] = offset
        offset += 12 if port.is_array or device_bytes(port.codec) > 4 else 8
    if tuple_return:
        for r in design.results:
            rets.append(offset)
            offset += 8 if device_bytes(r.codec) <= 4 else 12
    return args, rets


def host_ports(design: Any) -> list[dict[str, Any]]:
    """Per argument, in order: its kind, element count, files and conversions (host.cpp.j2, host.py.j2)."""
    offsets, _ = register_map(design)
    ports = []
    for index, port in enumerate(design.ports):
        kind = "stream_" + port.stream if port.stream else "buffer" if port.is_array else "scalar"
        count = int(port.codec.size) if port.is_array else 1
        struct = port.codec.family is TypeFamily.STRUCT
        ports.append({"index": index, "name": port.name, "c_name": port.c_name, "kind": kind, "count": count,
                      "file": None if port.output_only or port.stream else f"{port.c_name}.dat",
                      "golden_file": f"{port.c_name}.golden.dat" if port.is_array else None,
                      "offset": offsets.get(port.name), "type_text": str(port.type), "fields": [], "word_bytes": 0,
                      **(struct_item_data(port.codec) if struct else value_data(port.codec))})
        if struct and port.is_array:
            ports[-1].update(struct_buffer_data(port))
    return ports


def struct_buffer_data(port: Any) -> dict[str, Any]:
    """An array of structs in m_axi (struct_layout): per field its byte offset in the device element, its
    offset in the bridge's storage struct (the same, compact=none being the C layout) and its .dat files
    (the testbench's, one per field)."""
    word, fields = struct_layout(port.codec)
    return {"word_bytes": word, "fields": [
        {"member": name, "offset": offset, "file": None if port.output_only else f"{port.c_name}.{name}.dat",
         "golden_file": f"{port.c_name}.{name}.golden.dat", **value_data(f)} for name, offset, f in fields]}


def struct_item_data(codec: Any) -> dict[str, Any]:
    """A struct's bytes in the bridge's storage struct (numpy's aligned record, laid out as C lays out
    hls_storage_<T>): a stream of structs travels between two kernels in the mock as these bytes, which
    both entries copy as they are; an array of structs is converted to and from the m_axi layout."""
    return {"device_type": "uint8_t", "storage": "void", "dat_type": None, "exact": True, "fixed": False,
            "frac": 0, "width": 0, "signed": False, "nbytes": 1, "is_float": False,
            "item_bytes": int(codec.dtype.itemsize)}


def host_returns(design: Any, rets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The returned scalars: golden file (from the testbench's data), register offset, conversions."""
    _, offsets = register_map(design)
    return [{"name": info["name"], "file": info["file"], "offset": off, **value_data(r.codec)}
            for r, info, off in zip(design.results, rets, offsets, strict=True)]


def bridge_call(ports: list[dict[str, Any]], rets: list[dict[str, Any]]) -> tuple[str, str]:
    """The csim bridge's parameter list (bridge.cpp.j2: storage pointers, a stream's item count, return
    pointers) and the mock entry's call of it."""
    params, args = [], []
    for p in ports:
        pointer = p["kind"] != "scalar"
        params.append(p["storage"] + (" *" if pointer else "") + (", long" if p["kind"].startswith("stream") else ""))
        args.append(f"arg{p['index']}" + (f", len{p['index']}" if p["kind"].startswith("stream") else ""))
    params += [f"{r['storage']} *" for r in rets]
    args += [f"&ret{j}" for j in range(len(rets))]
    return ", ".join(params) or "void", ", ".join(args)


def host_data(design: Any, rets: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the host templates read."""
    ports, returns = host_ports(design), host_returns(design, rets)
    params, args = bridge_call(ports, returns)
    return {"host_ports": ports, "host_rets": returns, "bridge_params": params, "bridge_args": args,
            "ports_py": repr(ports), "rets_py": repr(returns),
            "kinds": "".join({"buffer": "b", "scalar": "s", "stream_in": "i", "stream_out": "o"}[p["kind"]]
                             for p in ports)}


MOCK_HEADERS = ("xrt_device.h", "xrt_kernel.h", "xrt_bo.h")
DEFAULT_VITIS_VERSION = "2023.2"


def mock_files() -> dict[str, str]:
    """This project's mock XRT, copied into host/sim/ so the project builds with g++ alone."""
    base = resources.files("hls.project.mockxrt")
    files = {f"host/sim/xrt/{name}": (base / "xrt" / name).read_text() for name in MOCK_HEADERS}
    files["host/sim/pyxrt.py"] = (base / "pyxrt.py").read_text()
    return files


def nk_separator(vitis_version: str) -> str:
    """UG1393 2022.1 and earlier list compute-unit names after `nk=` with '.', 2022.2 and later with ','."""
    try:
        major, minor = (int(part) for part in vitis_version.split(".")[:2])
    except ValueError:
        raise HLSError(f"vitis_version {vitis_version!r} must look like 2023.2") from None
    return "." if (major, minor) <= (2022, 1) else ","


def kernel_files(design: Any, common: dict[str, Any]) -> dict[str, str]:
    """host/sim/<top>_entry.cpp and host/sim/<top>_bridge.cpp: the mock XRT's way into this kernel's csim build."""
    top = design.top
    data = {**common, **host_data(design, common["rets"])}
    return {f"host/sim/{top}_entry.cpp": render_template("host_entry.cpp.j2", **data),
            f"host/sim/{top}_bridge.cpp": design.bridge_cpp,
            f"host/sim/{top}_kernel.json": json.dumps({"ports": data["host_ports"], "rets": data["host_rets"]},
                                                      indent=1) + "\n"}


def render_driver(design: Any, common: dict[str, Any], rtol: str, atol: str) -> dict[str, str]:
    """driver.py of a Vivado-flow AXI IP (CppDesign.axi_lite): PYNQ Overlay, allocate, the register map."""
    data = {**common, **host_data(design, common["rets"]), "rtol": rtol, "atol": atol}
    return {"driver.py": render_template("driver.py.j2", **data)}


def render_host(design: Any, common: dict[str, Any], rtol: str, atol: str,
                vitis_version: str = DEFAULT_VITIS_VERSION) -> dict[str, str]:
    """The host side of a single-kernel Vitis export: host program (C++ and Python), link.cfg, mock entry."""
    data = {**common, **host_data(design, common["rets"]), "rtol": rtol, "atol": atol}
    data["host_kernels"] = [{"top": design.top, "prefix": "", "label": "", "free": False,
                             "host_ports": data["host_ports"], "host_rets": data["host_rets"]}]
    data["kernels_py"] = repr(data["host_kernels"])
    files = {"host/host.cpp": render_template("host.cpp.j2", **data),
             "host/host.py": render_template("host.py.j2", **data),
             "link.cfg": link_config(design.top, {design.top: design}, {design.top: 1}, [], [], {}, {}, vitis_version)}
    files.update(kernel_files(design, common))
    files.update(mock_files())
    return files


def link_config(name: str, designs: dict[str, Any], counts: dict[str, int], links: list[Any], depths: list[int],
                memory: dict[str, str], slr: dict[str, str], vitis_version: str) -> str:
    """link.cfg: nk= per kernel, sp= per assigned memory port and compute unit, slr=, stream_connect=."""
    sep = nk_separator(vitis_version)
    cus = [{"kernel": k, "count": n, "cu_list": [f"{k}_{i}" for i in range(1, n + 1)], "slr": slr.get(k)}
           for k, n in counts.items()]
    for cu in cus:
        cu["names"] = sep.join(cu["cu_list"])
    c_names = {(k, port.name): port.c_name for k, design in designs.items() for port in design.ports}
    banks: dict[tuple[str, str], str] = {}  # (compute unit, C argument) -> bank; a compute unit's own key wins
    for where, bank in sorted(memory.items(), key=lambda item: item[0].split(".")[0] not in designs):
        kernel, units, port = memory_target(where, designs, counts, None)
        banks.update({(unit, c_names[kernel, port.name]): bank for unit in units})
    memories = [{"cu": unit, "arg": arg, "bank": bank} for cu in cus for unit in cu["cu_list"]
                for (name, arg), bank in banks.items() if name == unit]
    # a System's links name the Python arguments; the data movers' (no designs given) the C arguments already
    streams = [{"producer": f"{link.producer}_1.{c_names.get((link.producer, link.out), link.out)}",
                "consumer": f"{link.consumer}_1.{c_names.get((link.consumer, link.inp), link.inp)}",
                "depth": depth} for link, depth in zip(links, depths, strict=True)]
    return render_template("link.cfg.j2", top=name, compute_units=cus, memories=memories, streams=streams,
                           vitis_version=vitis_version, nk_sep=sep)
