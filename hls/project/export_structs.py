"""Structs in an exported project: one data file per field (`<arg>.<field>.dat`, golden
`<arg>.<field>.golden.dat`), each in its field codec's own `.dat` format (hls/backend/codec/__init__.py), read
back by the testbench into the C++ structs and compared field by field (tb.cpp.j2)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from hls.backend.codec import Codec
from hls.backend.names import member as cpp_member


def struct_port_data(port: Any, name: str, type_text: str) -> dict[str, Any]:
    """A struct argument (an array of structs or one struct) for tb.cpp.j2: declaration, per-field
    files, loading and the field-by-field comparison."""
    codec, var, dims = port.codec, f"arg_{port.c_name}", list(port.shape)
    count = math.prod(dims) if dims else 1
    first = codec.fields[0][0]
    return {"name": name, "var": var, "c_name": port.c_name, "is_array": port.is_array, "is_stream": False,
            "output_only": False, "c_type": codec.c_type, "dims": "".join(f"[{n}]" for n in dims), "shape": dims,
            "ndim": len(dims), "size": count, "file": f"{port.c_name}.{first}.dat",
            "golden_file": f"{port.c_name}.{first}.golden.dat" if port.is_array else None, "type_text": type_text,
            "fields": field_data(port.c_name, codec, f"&{var}{'[0]' * len(dims)}", count)}


def struct_stream_data(port: Any, name: str, type_text: str, count_in: int, count_out: int) -> dict[str, Any]:
    """A stream of structs: its items fed from per-field files, what is left compared per field."""
    codec, var = port.codec, f"arg_{port.c_name}"
    first = codec.fields[0][0]
    return {"name": name, "var": var, "c_name": port.c_name, "is_array": False, "is_stream": True,
            "output_only": False, "c_type": f"hls::stream<{codec.c_type}>", "elem_type": codec.c_type, "dims": "",
            "size": count_in, "golden_size": count_out, "type_text": type_text, "file": f"{port.c_name}.{first}.dat",
            "golden_file": f"{port.c_name}.{first}.golden.dat",
            "fields": field_data(port.c_name, codec, "items.data()", count_in),
            "golden_fields": field_data(port.c_name, codec, "items.data()", count_out)}


def struct_return_data(codec: Codec) -> dict[str, Any]:
    """A returned struct: checked field by field against `return.<field>.golden.dat`."""
    return {"name": "return value", "var": "ret_value", "c_type": codec.c_type, "type_text": codec.c_type,
            "codec": codec, "file": f"return.{codec.fields[0][0]}.golden.dat",
            "fields": field_data("return", codec, "&ret_value", 1)}


def field_data(stem: str, codec: Codec, flat: str, count: int) -> list[dict[str, Any]]:
    """Per field: its files, and element k of struct i as C++ (`flat` points at the first struct)."""
    out = []
    for member, f in codec.fields:
        element = f"(({f.c_type} *)&({flat})[i].{cpp_member(codec.elem, member)})[k]"
        out.append({"member": member, "count": f.size, "size": count * f.size, "file": f"{stem}.{member}.dat",
                    "golden_file": f"{stem}.{member}.golden.dat", "file_type": f.dat_type,
                    "load": f"{element} = {f.dat_in('values[n++]')};", "readback": f.dat_out(element),
                    "exact": f.exact, "type_text": str(f.elem)})
    return out


def struct_files(codec: Codec, value: Any, fields: list[dict[str, Any]], golden: bool) -> dict[str, str]:
    """{file: text} of one struct value or a structured array: one file per field, row-major."""
    records = value if isinstance(value, np.ndarray) else codec.elem.to_storage([value])
    return {info["golden_file" if golden else "file"]: f.format_dat(np.asarray(records[member]).reshape(-1))
            for info, (member, f) in zip(fields, codec.fields, strict=True)}
