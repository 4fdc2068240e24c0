"""Structs in an exported project: one data file per field (`<arg>.<field>.dat`, golden
`<arg>.<field>.golden.dat`), each in its field type's own format, read back by the testbench into
the C++ structs (hls/backend/export.py does the same per array for scalar ports)."""

from __future__ import annotations

from typing import Any

import numpy as np

from hls.types import FloatType, StructType


def struct_port_data(port: Any, helpers: Any) -> dict[str, Any]:
    """A struct argument (an array of structs or one struct) for tb.cpp.j2: declaration, per-field
    files, loading and the field-by-field comparison. `helpers` is hls.backend.export."""
    var = f"arg_{port.c_name}"
    dims = list(port.shape)
    flat = f"&{var}{'[0]' * len(dims)}"
    data = {"name": helpers._display(port.name, port.c_name), "var": var, "c_name": port.c_name,
            "is_array": port.is_array, "is_stream": False, "output_only": False, "c_type": port.c_type,
            "dims": "".join(f"[{n}]" for n in dims), "shape": dims, "ndim": len(dims), "size": port.count,
            "file": f"{port.c_name}.{port.fields[0].member}.dat",
            "golden_file": f"{port.c_name}.{port.fields[0].member}.golden.dat" if port.is_array else None,
            "type_text": helpers._type_text(port.type, port.c_type)}
    data["fields"] = field_data(port.c_name, port.fields, flat, port.count, helpers)
    return data


def field_data(stem: str, fields: list[Any], flat: str, count: int, helpers: Any) -> list[dict[str, Any]]:
    out = []
    for f in fields:
        element = f"(({f.c_type} *)&({flat})[i].{f.member})[k]"
        out.append({"member": f.member, "count": f.count, "size": count * f.count,
                    "file": f"{stem}.{f.member}.dat", "golden_file": f"{stem}.{f.member}.golden.dat",
                    "file_type": helpers._file_ctype(f.type),
                    "load": f"{element} = {helpers._to_kernel(f.type, 'values[n++]')};",
                    "readback": helpers._from_kernel(f.type, element), "exact": not isinstance(f.type, FloatType),
                    "type_text": helpers._type_text(f.type, f.c_type)})
    return out


def struct_return_data(design: Any, helpers: Any) -> dict[str, Any]:
    """A returned struct: checked field by field against `return.<field>.golden.dat`."""
    t: StructType = design.return_type
    data = {"name": "return value", "var": "ret_value", "c_type": t.name, "type_text": t.name, "type": t,
            "file": f"return.{design.results[0].member}.golden.dat"}
    data["fields"] = field_data("return", design.results, "&ret_value", 1, helpers)
    return data


def struct_files(t: StructType, value: Any, fields: list[dict[str, Any]], golden: bool,
                 helpers: Any) -> dict[str, str]:
    """{file: text} of one struct value or structured array, one file per field, row-major."""
    records = value if isinstance(value, np.ndarray) else t.to_storage([value])
    files = {}
    for info, (member, ft) in zip(fields, t.fields, strict=True):
        elem = getattr(ft, "elem", ft)
        values = np.asarray(records[member]).reshape(-1)
        files[info["golden_file" if golden else "file"]] = helpers.format_values(elem, values)
    return files
