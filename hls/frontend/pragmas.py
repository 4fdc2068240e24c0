"""Directive statements -> loop attributes or hls.directive ops, with their options checked."""

from __future__ import annotations

import ast
import inspect
import warnings
from typing import Any

import numpy as np

from hls.errors import DirectiveWarning
from hls.frontend.base import BuildContext, Family
from hls.frontend.captures import Captures
from hls.frontend.source import try_static
from hls.ir import BlockArg, DirectiveOp, ForOp
from hls.ir.usage import trip_count
from hls.lang.directives import (
    AGGREGATE_COMPACT,
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
from hls.types import ArrayType, StreamType, StructType, TypedConstant

MAX_UNROLL_COPIES = 4096  # this project's threshold for the size warning of hls.unroll (copies of the body)
STREAM_MODES = ("axis", "ap_fifo")  # the port modes of an hls::stream argument
ARRAY_DIRECTIVES = ("array_partition", "bind_storage", "interface", "aggregate", "disaggregate")


CHECKS = {"pipeline": "check_pipeline", "unroll": "check_unroll", "loop_tripcount": "check_tripcount",
          "array_partition": "check_partition", "bind_storage": "check_storage", "interface": "check_interface",
          "inline": "check_inline", "loop_flatten": "check_flatten",
          "aggregate": "check_aggregate",
          "loop_merge": "check_loop_merge"}  # directive -> the method checking its options


class Pragmas(Family):
    """Directive statements and their options."""

    def __init__(self, ctx: BuildContext, captures: Captures) -> None:
        super().__init__(ctx)
        self.captures = captures

    def apply_directive(self, name: str, call: ast.Call) -> None:
        options = self.bind_directive(name, call)
        if name == "label":
            self.name_loop(call, options["name"])
            return
        check = CHECKS.get(name)
        if check is not None:
            getattr(self, check)(options)
        target = options.pop("var", None)
        directive = DIRECTIVE_TYPES[name](**options)
        if name in LOOP_DIRECTIVES:
            self.attach_to_loop(name, directive)
            return
        if name in ("dataflow", "inline") and self.ctx.loops:
            raise self.ctx.error(f"hls.{name}() applies to the whole function; write it at the top of the kernel body")
        self.ctx.emit(DirectiveOp(directive, target, self.ctx.loc))

    def bind_directive(self, name: str, call: ast.Call) -> dict[str, Any]:
        args: list[Any] = []
        for index, arg in enumerate(call.args):
            if index == 0 and name in ARRAY_DIRECTIVES:
                args.append(self.array_target(name, arg))
            else:
                args.append(self.ctx.static(arg, f"option of hls.{name}"))
        kwargs = {kw.arg: self.ctx.static(kw.value, f"option {kw.arg!r} of hls.{name}") for kw in call.keywords}
        try:
            bound = inspect.signature(DIRECTIVES[name]).bind(*args, **kwargs)
        except TypeError as exc:
            raise self.ctx.error(f"hls.{name}: {exc}") from None
        bound.apply_defaults()
        return dict(bound.arguments)

    def array_target(self, name: str, node: ast.AST):
        if name in ("aggregate", "disaggregate"):
            return self.struct_target(name, node)
        if name != "interface" and isinstance(node, ast.Name) and node.id not in self.ctx.env \
                and isinstance(try_static(node, self.ctx.src), (np.ndarray, TypedConstant)):
            return self.captures.captured(node)  # a module-level numpy array: the ROM it becomes, named as in Python
        stream = name == "interface" and isinstance(node, ast.Name) and node.id in self.ctx.env \
            and isinstance(self.ctx.env[node.id].type, StreamType)  # a stream argument's port (axis or ap_fifo)
        if not stream and (not isinstance(node, ast.Name) or node.id not in self.ctx.env
                           or not self.ctx.env[node.id].is_array):
            raise self.ctx.error(f"hls.{name} needs an array variable as its first argument", node)
        value = self.ctx.env[node.id].value
        if name == "interface" and not (isinstance(value, BlockArg) and value.block is self.ctx.func.body.block):
            raise self.ctx.error("hls.interface applies to kernel arguments only", node)
        return value

    def name_loop(self, call: ast.Call, label: Any) -> None:
        """hls.label("name"): the loop's C++ label and report row; unique within the function."""
        if not self.ctx.loops or getattr(self.ctx.label_slot, "value", None) is not call:
            raise self.ctx.error("hls.label() must be the first statement of the loop body it names")
        if not (isinstance(label, str) and label.isidentifier() and label.isascii()):
            raise self.ctx.error(f"hls.label needs a C identifier, got {label!r}")
        loop = self.ctx.loops[-1]
        if label in self.ctx.user_labels or (label in self.ctx.labels and label != loop.label):
            raise self.ctx.error(f"duplicate loop label {label!r} in {self.ctx.src.tree.name}")
        self.ctx.labels.discard(loop.label)
        self.ctx.labels.add(label)
        self.ctx.user_labels.add(label)
        loop.attrs["label"] = label

    def attach_to_loop(self, name: str, directive: Directive) -> None:
        if not self.ctx.loops:
            if name == "pipeline":
                if self.ctx.func.pipeline is not None:
                    raise self.ctx.error("the function already has a pipeline directive")
                self.ctx.func.attrs["pipeline"] = directive
                return
            raise self.ctx.error(f"hls.{name}() must be inside the body of the loop it applies to")
        loop = self.ctx.loops[-1]
        key = LOOP_FIELDS[name]
        if loop.attrs.get(key) is not None:
            raise self.ctx.error(f"loop {loop.label} already has a {name} directive")
        loop.attrs[key] = directive

    def warn(self, message: str) -> None:
        """A DirectiveWarning at the directive's line; a schedule record replayed from JSON has none."""
        loc = self.ctx.loc
        if loc is None:
            warnings.warn(message, DirectiveWarning, stacklevel=2)
        else:
            warnings.warn_explicit(f"{loc}: {message}", DirectiveWarning, loc.file, loc.line)

    def check_positive(self, what: str, value: Any, allow_none: bool = True) -> None:
        if value is None and allow_none:
            return
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise self.ctx.error(f"{what} must be a positive integer, got {value!r}")

    def check_one_of(self, what: str, value: Any, choices: tuple[str, ...], allow_none: bool = False) -> None:
        if value is None and allow_none:
            return
        if value not in choices:
            raise self.ctx.error(f"{what} must be one of {', '.join(choices)}; got {value!r}")

    def check_flag(self, what: str, value: Any) -> None:
        if not isinstance(value, bool):
            raise self.ctx.error(f"{what} must be True or False, got {value!r}")

    def check_pipeline(self, o: dict[str, Any]) -> None:
        self.check_positive("hls.pipeline ii", o["ii"])
        self.check_flag("hls.pipeline off", o["off"])
        self.check_flag("hls.pipeline rewind", o["rewind"])
        self.check_one_of("hls.pipeline style", o["style"], ("stp", "frp", "flp"), allow_none=True)

    def check_unroll(self, o: dict[str, Any]) -> None:
        self.check_positive("hls.unroll factor", o["factor"])
        self.check_flag("hls.unroll off", o["off"])
        self.check_flag("hls.unroll skip_exit_check", o["skip_exit_check"])
        loop = self.ctx.loops[-1] if self.ctx.loops else None
        trip = trip_count(loop) if isinstance(loop, ForOp) and not o["off"] else None
        copies = None if trip is None else min(o["factor"] or trip, trip)
        if copies is not None and copies > MAX_UNROLL_COPIES:
            self.warn(f"hls.unroll makes {copies:,} copies of the loop body (more than {MAX_UNROLL_COPIES:,}): Vitis "
                      "may refuse to unroll it or take very long and build a very large design; unroll by a factor, "
                      "or pipeline the loop instead")

    def check_tripcount(self, o: dict[str, Any]) -> None:
        for key in ("min", "max"):
            if not isinstance(o[key], int) or isinstance(o[key], bool) or o[key] < 0:
                raise self.ctx.error(f"hls.loop_tripcount {key} must be a non-negative integer, got {o[key]!r}")
        if o["min"] > o["max"]:
            raise self.ctx.error("hls.loop_tripcount min exceeds max")

    def check_partition(self, o: dict[str, Any]) -> None:
        t: ArrayType = o["var"].type
        self.check_one_of("hls.array_partition type", o["type"], PARTITION_TYPES)
        dim = o["dim"]
        if not isinstance(dim, int) or isinstance(dim, bool) or not 0 <= dim <= len(t.shape):
            raise self.ctx.error(f"hls.array_partition dim must be 0 (all) or 1..{len(t.shape)}, got {dim!r}")
        if o["type"] == "complete":
            if o["factor"] is not None:
                raise self.ctx.error("hls.array_partition: a complete partition takes no factor")
            return
        self.check_positive("hls.array_partition factor", o["factor"], allow_none=False)
        sizes = t.shape if dim == 0 else (t.shape[dim - 1],)
        if o["factor"] > min(sizes):  # Vitis accepts it and clamps the factor to the dimension (UG1399 array_partition)
            self.warn(f"hls.array_partition factor {o['factor']} exceeds the dimension size {min(sizes)}; Vitis "
                      f"clamps it to {min(sizes)} (one bank per element)")

    def check_storage(self, o: dict[str, Any]) -> None:
        self.check_one_of("hls.bind_storage type", o["type"], STORAGE_TYPES)
        self.check_one_of("hls.bind_storage impl", o["impl"], STORAGE_IMPLS, allow_none=True)
        if o["latency"] is not None and (not isinstance(o["latency"], int) or o["latency"] < 0):
            raise self.ctx.error("hls.bind_storage latency must be a non-negative integer")
        if isinstance(o["var"], BlockArg):
            raise self.ctx.error("hls.bind_storage applies to local arrays; for kernel arguments use hls.interface "
                                 "(storage_type) as Vitis requires")

    def check_interface(self, o: dict[str, Any]) -> None:
        self.check_one_of("hls.interface mode", o["mode"], INTERFACE_MODES)
        if isinstance(o["var"].type, StreamType) and o["mode"] not in STREAM_MODES:
            raise self.ctx.error(f"hls.interface on a stream argument: mode {o['mode']!r} is for arrays and scalars; "
                                 f"a stream is a {' or '.join(STREAM_MODES)} port (UG1399 interface)")
        if o["bundle"] is not None and not (isinstance(o["bundle"], str) and o["bundle"].isidentifier()
                                            and o["bundle"].isascii()):
            raise self.ctx.error(f"hls.interface bundle must be an identifier, got {o['bundle']!r}")
        self.check_one_of("hls.interface offset", o["offset"], ("off", "direct", "slave"), allow_none=True)
        for key in ("depth", "latency", "max_read_burst_length", "max_write_burst_length"):
            self.check_positive(f"hls.interface {key}", o[key])
        self.check_one_of("hls.interface storage_type", o["storage_type"], STORAGE_TYPES[1:], allow_none=True)
        if o["storage_type"] is not None and o["mode"] not in ("ap_memory", "bram"):
            raise self.ctx.error(f"hls.interface storage_type applies to ap_memory and bram ports, not {o['mode']}")

    def struct_target(self, name: str, node: ast.AST):
        """The struct argument or the array of structs an aggregate/disaggregate directive names."""
        if isinstance(node, ast.Name):
            var = self.ctx.env.get(node.id)
            if var is not None and var.is_array and isinstance(var.type.elem, StructType):
                return var.value
            for arg in self.ctx.func.args:
                if arg.name == node.id and isinstance(arg.type, StructType):
                    return arg
        raise self.ctx.error(f"hls.{name} needs a struct argument or an array of structs as its first argument", node)

    def check_aggregate(self, o: dict[str, Any]) -> None:
        self.check_one_of("hls.aggregate compact", o["compact"], AGGREGATE_COMPACT, allow_none=True)

    def check_flatten(self, o: dict[str, Any]) -> None:
        self.check_flag("hls.loop_flatten off", o["off"])

    def check_loop_merge(self, o: dict[str, Any]) -> None:
        self.check_flag("hls.loop_merge force", o["force"])

    def check_inline(self, o: dict[str, Any]) -> None:
        self.check_flag("hls.inline off", o["off"])
        self.check_flag("hls.inline recursive", o["recursive"])
