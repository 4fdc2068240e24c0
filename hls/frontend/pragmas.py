"""Directive statements -> loop attributes or hls.directive ops, with their options checked."""

from __future__ import annotations

import ast
import inspect
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from hls.directives import (
    DIRECTIVE_TYPES,
    DIRECTIVES,
    INTERFACE_MODES,
    LOOP_DIRECTIVES,
    LOOP_FIELDS,
    PARTITION_TYPES,
    STORAGE_IMPLS,
    STORAGE_TYPES,
    Directive,
)
from hls.errors import DirectiveWarning
from hls.frontend.source import try_static
from hls.ir import BlockArg, DirectiveOp
from hls.types import ArrayType

if TYPE_CHECKING:
    from hls.frontend.builder import FunctionBuilder

ARRAY_DIRECTIVES = ("array_partition", "bind_storage", "interface")


def apply_directive(b: FunctionBuilder, name: str, call: ast.Call) -> None:
    options = bind(b, name, call)
    if name == "label":
        name_loop(b, call, options["name"])
        return
    check = CHECKS.get(name)
    if check is not None:
        check(b, options)
    target = options.pop("var", None)
    directive = DIRECTIVE_TYPES[name](**options)
    if name in LOOP_DIRECTIVES:
        attach_to_loop(b, name, directive)
        return
    if name in ("dataflow", "inline") and b.loops:
        raise b.error(f"hls.{name}() applies to the whole function; write it at the top of the kernel body")
    b.emit(DirectiveOp(directive, target, b.loc))


def bind(b: FunctionBuilder, name: str, call: ast.Call) -> dict[str, Any]:
    args: list[Any] = []
    for index, arg in enumerate(call.args):
        if index == 0 and name in ARRAY_DIRECTIVES:
            args.append(array_target(b, name, arg))
        else:
            args.append(b.static(arg, f"option of hls.{name}"))
    kwargs = {kw.arg: b.static(kw.value, f"option {kw.arg!r} of hls.{name}") for kw in call.keywords}
    try:
        bound = inspect.signature(DIRECTIVES[name]).bind(*args, **kwargs)
    except TypeError as exc:
        raise b.error(f"hls.{name}: {exc}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def array_target(b: FunctionBuilder, name: str, node: ast.AST):
    if name != "interface" and isinstance(node, ast.Name) and node.id not in b.env \
            and isinstance(try_static(node, b.src), np.ndarray):
        return b.captured(node)  # a module-level numpy array: the ROM it becomes, named as in Python
    if not isinstance(node, ast.Name) or node.id not in b.env or not b.env[node.id].is_array:
        raise b.error(f"hls.{name} needs an array variable as its first argument", node)
    value = b.env[node.id].value
    if name == "interface" and not (isinstance(value, BlockArg) and value.block is b.func.body.block):
        raise b.error("hls.interface applies to kernel arguments only", node)
    return value


def name_loop(b: FunctionBuilder, call: ast.Call, label: Any) -> None:
    """hls.label("name"): the loop's C++ label and report row; unique within the function."""
    if not b.loops or getattr(b.label_slot, "value", None) is not call:
        raise b.error("hls.label() must be the first statement of the loop body it names")
    if not (isinstance(label, str) and label.isidentifier() and label.isascii()):
        raise b.error(f"hls.label needs a C identifier, got {label!r}")
    loop = b.loops[-1]
    if label in b.user_labels or (label in b.labels and label != loop.attrs["label"]):
        raise b.error(f"duplicate loop label {label!r} in {b.src.tree.name}")
    b.labels.discard(loop.attrs["label"])
    b.labels.add(label)
    b.user_labels.add(label)
    loop.attrs["label"] = label


def attach_to_loop(b: FunctionBuilder, name: str, directive: Directive) -> None:
    if not b.loops:
        if name == "pipeline":
            if b.func.attrs.get("pipeline") is not None:
                raise b.error("the function already has a pipeline directive")
            b.func.attrs["pipeline"] = directive
            return
        raise b.error(f"hls.{name}() must be inside the body of the loop it applies to")
    loop = b.loops[-1]
    key = LOOP_FIELDS[name]
    if loop.attrs.get(key) is not None:
        raise b.error(f"loop {loop.attrs['label']} already has a {name} directive")
    loop.attrs[key] = directive


def positive(b: FunctionBuilder, what: str, value: Any, allow_none: bool = True) -> None:
    if value is None and allow_none:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise b.error(f"{what} must be a positive integer, got {value!r}")


def one_of(b: FunctionBuilder, what: str, value: Any, choices: tuple[str, ...], allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if value not in choices:
        raise b.error(f"{what} must be one of {', '.join(choices)}; got {value!r}")


def flag(b: FunctionBuilder, what: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise b.error(f"{what} must be True or False, got {value!r}")


def check_pipeline(b: FunctionBuilder, o: dict[str, Any]) -> None:
    positive(b, "hls.pipeline ii", o["ii"])
    flag(b, "hls.pipeline off", o["off"])
    flag(b, "hls.pipeline rewind", o["rewind"])
    one_of(b, "hls.pipeline style", o["style"], ("stp", "frp", "flp"), allow_none=True)


def check_unroll(b: FunctionBuilder, o: dict[str, Any]) -> None:
    positive(b, "hls.unroll factor", o["factor"])
    flag(b, "hls.unroll off", o["off"])
    flag(b, "hls.unroll skip_exit_check", o["skip_exit_check"])


def check_tripcount(b: FunctionBuilder, o: dict[str, Any]) -> None:
    for key in ("min", "max"):
        if not isinstance(o[key], int) or isinstance(o[key], bool) or o[key] < 0:
            raise b.error(f"hls.loop_tripcount {key} must be a non-negative integer, got {o[key]!r}")
    if o["min"] > o["max"]:
        raise b.error("hls.loop_tripcount min exceeds max")


def check_partition(b: FunctionBuilder, o: dict[str, Any]) -> None:
    t: ArrayType = o["var"].type
    one_of(b, "hls.array_partition type", o["type"], PARTITION_TYPES)
    dim = o["dim"]
    if not isinstance(dim, int) or isinstance(dim, bool) or not 0 <= dim <= len(t.shape):
        raise b.error(f"hls.array_partition dim must be 0 (all) or 1..{len(t.shape)}, got {dim!r}")
    if o["type"] == "complete":
        if o["factor"] is not None:
            raise b.error("hls.array_partition: a complete partition takes no factor")
        return
    positive(b, "hls.array_partition factor", o["factor"], allow_none=False)
    sizes = t.shape if dim == 0 else (t.shape[dim - 1],)
    if o["factor"] > min(sizes):  # Vitis accepts it and clamps the factor to the dimension (UG1399 array_partition)
        warnings.warn_explicit(f"{b.loc}: hls.array_partition factor {o['factor']} exceeds the dimension size "
                               f"{min(sizes)}; Vitis clamps it to {min(sizes)} (one bank per element)",
                               DirectiveWarning, b.loc.file, b.loc.line)


def check_storage(b: FunctionBuilder, o: dict[str, Any]) -> None:
    one_of(b, "hls.bind_storage type", o["type"], STORAGE_TYPES)
    one_of(b, "hls.bind_storage impl", o["impl"], STORAGE_IMPLS, allow_none=True)
    if o["latency"] is not None and (not isinstance(o["latency"], int) or o["latency"] < 0):
        raise b.error("hls.bind_storage latency must be a non-negative integer")
    if isinstance(o["var"], BlockArg):
        raise b.error("hls.bind_storage applies to local arrays; for kernel arguments use hls.interface "
                      "(storage_type) as Vitis requires")


def check_interface(b: FunctionBuilder, o: dict[str, Any]) -> None:
    one_of(b, "hls.interface mode", o["mode"], INTERFACE_MODES)
    if o["bundle"] is not None and not (isinstance(o["bundle"], str) and o["bundle"].isidentifier()
                                        and o["bundle"].isascii()):
        raise b.error(f"hls.interface bundle must be an identifier, got {o['bundle']!r}")
    one_of(b, "hls.interface offset", o["offset"], ("off", "direct", "slave"), allow_none=True)
    for key in ("depth", "latency", "max_read_burst_length", "max_write_burst_length"):
        positive(b, f"hls.interface {key}", o[key])
    one_of(b, "hls.interface storage_type", o["storage_type"], STORAGE_TYPES[1:], allow_none=True)
    if o["storage_type"] is not None and o["mode"] not in ("ap_memory", "bram"):
        raise b.error(f"hls.interface storage_type applies to ap_memory and bram ports, not {o['mode']}")


def check_flatten(b: FunctionBuilder, o: dict[str, Any]) -> None:
    flag(b, "hls.loop_flatten off", o["off"])


def check_inline(b: FunctionBuilder, o: dict[str, Any]) -> None:
    flag(b, "hls.inline off", o["off"])
    flag(b, "hls.inline recursive", o["recursive"])


CHECKS = {"pipeline": check_pipeline, "unroll": check_unroll, "loop_tripcount": check_tripcount,
          "array_partition": check_partition, "bind_storage": check_storage, "interface": check_interface,
          "inline": check_inline, "loop_flatten": check_flatten}

