"""`#pragma HLS` text for loop attributes and directive ops (UG1399 syntax, VITIS_FACTS.md section 1)."""

from __future__ import annotations

from typing import Any

from hls.lang.directives import (
    LOOP_FIELDS,
    Aggregate,
    BindStorage,
    Dataflow,
    Directive,
    Disaggregate,
    Inline,
    Interface,
    LoopFlatten,
    LoopMerge,
    Partition,
    Pipeline,
    TripCount,
    Unroll,
)


def loop_pragmas(attrs: dict[str, Any]) -> list[str]:
    """The pragmas of a loop's (or a function's) directive fields, in a fixed order."""
    return [directive_pragma(attrs[key], None) for key in LOOP_FIELDS.values() if attrs.get(key) is not None]


def directive_pragma(d: Directive, target: str | None) -> str:
    if isinstance(d, Pipeline):
        if d.off:
            return "#pragma HLS pipeline off"
        return "#pragma HLS pipeline" + (f" II={d.ii}" if d.ii is not None else "") + (" rewind" if d.rewind else "") \
            + (f" style={d.style}" if d.style else "")
    if isinstance(d, Unroll):
        if d.off:
            return "#pragma HLS unroll off=true"
        return "#pragma HLS unroll" + (f" factor={d.factor}" if d.factor is not None else "") \
            + (" skip_exit_check" if d.skip_exit_check else "")
    if isinstance(d, TripCount):
        return f"#pragma HLS loop_tripcount min={d.min} max={d.max}" + (f" avg={d.avg}" if d.avg is not None else "")
    if isinstance(d, LoopFlatten):
        return "#pragma HLS loop_flatten" + (" off" if d.off else "")
    if isinstance(d, Partition):
        return f"#pragma HLS array_partition variable={target} type={d.type}" \
            + (f" factor={d.factor}" if d.factor is not None else "") + f" dim={d.dim}"
    if isinstance(d, BindStorage):
        return f"#pragma HLS bind_storage variable={target} type={d.type}" \
            + (f" impl={d.impl}" if d.impl is not None else "") \
            + (f" latency={d.latency}" if d.latency is not None else "")
    if isinstance(d, Interface):
        return interface_pragma(target, d)
    if isinstance(d, Aggregate):
        return f"#pragma HLS aggregate variable={target}" + (f" compact={d.compact}" if d.compact else "")
    if isinstance(d, Disaggregate):
        return f"#pragma HLS disaggregate variable={target}"
    if isinstance(d, Dataflow):
        return "#pragma HLS dataflow"
    if isinstance(d, Inline):
        return "#pragma HLS inline" + (" off" if d.off else "") + (" recursive" if d.recursive else "")
    if isinstance(d, LoopMerge):
        return "#pragma HLS loop_merge" + (" force" if d.force else "")
    raise ValueError(d)


def interface_pragma(port: str, d: Interface) -> str:
    text = f"#pragma HLS interface mode={d.mode} port={port}"
    for key, value in d.options().items():
        if key != "mode" and value is not None:
            text += f" {key}={value}"
    return text
