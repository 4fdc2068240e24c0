"""Streams of structs (AXI-stream packets included) in an exported project: one data file per field,
as for a struct array (hls/backend/export_structs.py); the testbench assembles each item from the
fields' files, feeds the stream, and afterwards compares what it holds field by field with the
`<arg>.<field>.golden.dat` files (an output's items, an input's unread ones)."""

from __future__ import annotations

from typing import Any

from hls.backend.export_structs import field_data


def struct_stream_port_data(port: Any, count_in: int, count_out: int, helpers: Any) -> dict[str, Any]:
    """tb.cpp.j2's data for a stream of structs: `count_in` items fed, `count_out` expected after."""
    var = f"arg_{port.c_name}"
    fields = field_data(port.c_name, port.fields, "item", count_in, helpers)
    for info, f in zip(fields, port.fields, strict=True):
        element = f"(({f.c_type} *)&item.{f.member})[k]"
        info["load"] = f"{element} = {helpers._to_kernel(f.type, f'values[i * {f.count} + k]')};"
        info["readback"] = helpers._from_kernel(f.type, element)
        info["golden_size"] = count_out * f.count
    return {"name": helpers._display(port.name, port.c_name), "var": var, "c_name": port.c_name,
            "is_array": False, "is_stream": True, "output_only": False, "packet_stream": True,
            "c_type": f"hls::stream<{port.c_type} >", "elem_type": port.c_type, "dims": "", "shape": [count_out],
            "ndim": 1, "size": count_in, "golden_size": count_out, "fields": fields,
            "file": f"{port.c_name}.{port.fields[0].member}.dat",
            "golden_file": f"{port.c_name}.{port.fields[0].member}.golden.dat",
            "type_text": helpers._type_text(port.type, port.c_type)}
