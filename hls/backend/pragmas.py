"""`#pragma HLS` text for loop attributes and directive ops (UG1399 syntax, VITIS_FACTS.md section 1)."""

from __future__ import annotations

from typing import Any


def loop_pragmas(attrs: dict[str, Any]) -> list[str]:
    lines = []
    pipeline = attrs.get("pipeline")
    if pipeline is not None:
        if pipeline.get("off"):
            lines.append("#pragma HLS pipeline off")
        else:
            text = "#pragma HLS pipeline"
            if pipeline.get("ii") is not None:
                text += f" II={pipeline['ii']}"
            if pipeline.get("rewind"):
                text += " rewind"
            if pipeline.get("style"):
                text += f" style={pipeline['style']}"
            lines.append(text)
    unroll = attrs.get("unroll")
    if unroll is not None:
        if unroll.get("off"):
            lines.append("#pragma HLS unroll off=true")
        else:
            text = "#pragma HLS unroll"
            if unroll.get("factor") is not None:
                text += f" factor={unroll['factor']}"
            if unroll.get("skip_exit_check"):
                text += " skip_exit_check"
            lines.append(text)
    trip = attrs.get("tripcount")
    if trip is not None:
        text = f"#pragma HLS loop_tripcount min={trip['min']} max={trip['max']}"
        if trip.get("avg") is not None:
            text += f" avg={trip['avg']}"
        lines.append(text)
    flatten = attrs.get("loop_flatten")
    if flatten is not None:
        lines.append("#pragma HLS loop_flatten" + (" off" if flatten.get("off") else ""))
    return lines


def directive_pragma(kind: str, target: str | None, options: dict[str, Any]) -> str:
    if kind == "array_partition":
        text = f"#pragma HLS array_partition variable={target} type={options['type']}"
        if options.get("factor") is not None:
            text += f" factor={options['factor']}"
        return text + f" dim={options['dim']}"
    if kind == "bind_storage":
        text = f"#pragma HLS bind_storage variable={target} type={options['type']}"
        if options.get("impl") is not None:
            text += f" impl={options['impl']}"
        if options.get("latency") is not None:
            text += f" latency={options['latency']}"
        return text
    if kind == "interface":
        return interface_pragma(target, options)
    if kind == "aggregate":
        compact = options.get("compact")
        return f"#pragma HLS aggregate variable={target}" + (f" compact={compact}" if compact else "")
    if kind == "disaggregate":
        return f"#pragma HLS disaggregate variable={target}"
    if kind == "dataflow":
        return "#pragma HLS dataflow"
    if kind == "inline":
        return "#pragma HLS inline" + (" off" if options.get("off") else "") + \
            (" recursive" if options.get("recursive") else "")
    raise ValueError(kind)


def interface_pragma(port: str, options: dict[str, Any]) -> str:
    text = f"#pragma HLS interface mode={options['mode']} port={port}"
    for key in ("bundle", "offset", "depth", "latency", "max_read_burst_length", "max_write_burst_length",
                "storage_type"):
        if options.get(key) is not None:
            text += f" {key}={options[key]}"
    return text
