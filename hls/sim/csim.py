"""Run generated C++ through the cffi bridge: argument checks, zero-copy arrays, boundary conversions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from hls.errors import DeadlockError, SimulationError
from hls.sim.build import build_shared_library, load_library, load_private_copy
from hls.streams import Stream
from hls.types import ArrayType, BoolType, FixedType, FloatType, IntType, ScalarType, StructType, TupleType

FAULTS = {1: "divided by zero", 2: "indexed an array out of bounds", 5: "read or wrote a bit beyond a value's width"}


class CompiledKernel:
    """A built csim library for one design; `run` checks arguments before any native code runs.

    A design with `static` locals (hls.static) keeps its state in the library, so it gets a private
    copy of it (no other kernel object shares its statics); `reset()` loads a fresh copy.
    """

    def __init__(self, design: Any, extra_flags: tuple[str, ...] = ()):
        design.check_boundary()
        self.design = design
        self.path = build_shared_library(design.sources, extra_flags=extra_flags, tag="csim")
        params = []
        for p in design.ports:
            params.extend([f"{f.storage} *" for f in p.fields] + ["long"] * bool(p.stream) if p.fields
                          else [f"{p.storage} *", "long"] if p.stream else [f"{p.storage} {'*' if p.is_array else ''}"])
        params += [f"{r.storage} *" for r in design.results]
        self.cdef = f"int hls_bridge({', '.join(params) or 'void'});"
        if design.streams:
            self.cdef += "\nlong hls_stream_size(int);\nconst char *hls_csim_message(void);\n" + "".join(
                f"void hls_stream_copy_{n}({p.storage} *);\n" for n, p in enumerate(design.ports) if p.stream
                and not p.fields) + "".join(f"void hls_stream_copy_{n}_{k}({f.storage} *);\n" for n, p in
                                            enumerate(design.ports) if p.stream for k, f in enumerate(p.fields))
        self.inputs = [p for p in design.ports if not p.output_only]
        self.ffi, self.lib = self.load()

    def load(self) -> tuple[Any, Any]:
        return load_private_copy(self.path, self.cdef) if self.design.stateful else load_library(self.path, self.cdef)

    def reset(self) -> None:
        """Every static back to its initial value: the library's statics are initialised when it loads."""
        if self.design.stateful:
            self.ffi, self.lib = self.load()

    def run(self, args: tuple[Any, ...]) -> Any:
        if len(args) != len(self.inputs):
            raise SimulationError(f"{self.design.top} takes {len(self.inputs)} arguments, got {len(args)}")
        given = iter(args)
        outputs = {p.name: np.zeros(p.shape, dtype=p.dtype) for p in self.design.ports if p.output_only}
        values = [outputs[p.name] if p.output_only else next(given) for p in self.design.ports]
        c_args, written = [], []
        for port, arg in zip(self.design.ports, values, strict=True):
            if port.fields and port.stream:
                c_args.extend(self.struct_stream_args(port, arg))
            elif port.fields:
                buffers = struct_buffers(port, arg)
                c_args.extend(self.ffi.from_buffer(f"{f.storage}[]", b, require_writable=True)
                              for f, b in zip(port.fields, buffers, strict=True))
                written.append((port, arg, buffers))
            else:
                c_args.extend(self.stream_args(port, arg) if port.stream else [self.convert(port, arg)])
        rets = [self.ffi.new(f"{r.storage}[{r.count}]") for r in self.design.results]
        fault = self.lib.hls_bridge(*c_args, *rets)
        if fault in (3, 4):
            message = self.ffi.string(self.lib.hls_csim_message()).decode()
            raise (DeadlockError if fault == 3 else SimulationError)(f"{self.design.top} (csim): {message}")
        for n, (port, arg) in enumerate(zip(self.design.ports, values, strict=True)):
            if port.stream:
                self.stream_back(n, port, arg)
        if fault:
            what = FAULTS.get(fault, f"faulted ({fault})")
            raise SimulationError(f"{self.design.top}: the C simulation {what}, which is undefined in C++ (csim "
                                  "substituted 0 and went on; outputs are not meaningful)")
        for port, arg, buffers in written:
            if port.is_array:  # the kernel's writes, field by field, back into the structured array
                for f, buffer in zip(port.fields, buffers, strict=True):
                    arg[f.member] = buffer.reshape(arg[f.member].shape)
        if outputs:
            return next(iter(outputs.values()))
        if isinstance(self.design.return_type, StructType):
            return struct_result(self.design.return_type, self.design.results, rets, self.ffi)
        values = tuple(from_storage(r.type, ret[0]) for r, ret in zip(self.design.results, rets, strict=True))
        if isinstance(self.design.return_type, TupleType):
            return values
        return values[0] if values else None

    def stream_args(self, port: Any, arg: Any) -> list[Any]:
        """An hls.Stream as (items, count): an input's items go in; an output starts empty."""
        self.check_stream(port, arg)
        items = np.asarray(arg) if port.stream == "in" else np.zeros(0, dtype=port.type.elem.storage_dtype)
        items = np.ascontiguousarray(items)
        return [self.ffi.from_buffer(f"{port.storage}[]", items), len(items)]

    def struct_stream_args(self, port: Any, arg: Any) -> list[Any]:
        """A stream of structs (AXI-stream packets included) as one flat array per field and the count."""
        self.check_stream(port, arg)
        t = port.type.elem
        records = np.asarray(arg) if port.stream == "in" else np.zeros(0, dtype=t.storage_dtype)
        for member, ft in t.fields:
            check_range(f"{port.name}.{member}", getattr(ft, "elem", ft), records[member])
        buffers = [np.ascontiguousarray(records[f.member]).reshape(-1) for f in port.fields]
        self.keep_alive = buffers
        return [*(self.ffi.from_buffer(f"{f.storage}[]", b) for f, b in zip(port.fields, buffers, strict=True)),
                len(records)]

    def struct_stream_back(self, n: int, port: Any, arg: Any) -> None:
        t = port.type.elem
        records = np.zeros(self.lib.hls_stream_size(n), dtype=t.storage_dtype)
        for k, f in enumerate(port.fields):
            out = np.zeros(records[f.member].size, dtype=records.dtype[f.member].base)
            getattr(self.lib, f"hls_stream_copy_{n}_{k}")(self.ffi.from_buffer(f"{f.storage}[]", out,
                                                                                 require_writable=True))
            records[f.member] = out.reshape(records[f.member].shape)
        if port.stream == "in":
            arg.items.clear()
        arg.items.extend(t.convert(record) for record in records)

    def check_stream(self, port: Any, arg: Any) -> None:
        if not isinstance(arg, Stream) or arg.elem != port.type.elem:
            raise SimulationError(f"argument {port.name!r} is a stream of {port.type.elem}: pass "
                                  f"hls.Stream(hls.{port.type.elem}, values)")

    def stream_back(self, n: int, port: Any, arg: Any) -> None:
        """After the call: an input keeps what the kernel left unread, an output gets what it wrote."""
        if port.fields:
            self.struct_stream_back(n, port, arg)
            return
        count = self.lib.hls_stream_size(n)
        out = np.zeros(count, dtype=port.type.elem.storage_dtype)
        getattr(self.lib, f"hls_stream_copy_{n}")(self.ffi.from_buffer(f"{port.storage}[]", out,
                                                                          require_writable=True))
        if port.stream == "in":
            arg.items.clear()
        arg.items.extend(from_storage(port.type.elem, v) for v in out.tolist())

    def convert(self, port: Any, arg: Any) -> Any:
        if port.is_array:
            array = check_array(port.name, port.type, arg)
            return self.ffi.from_buffer(f"{port.storage}[]", array, require_writable=True)
        return to_storage(port.name, port.type, arg)


def struct_buffers(port: Any, arg: Any) -> list[np.ndarray]:
    """A struct port as one contiguous storage array per field (what the bridge assembles structs from)."""
    t = port.type
    if isinstance(t, ArrayType):
        records = check_array(port.name, t, arg)
    else:
        try:
            records = t.to_storage([t.convert(arg)])
        except (TypeError, ValueError) as exc:
            raise SimulationError(f"argument {port.name!r}: {exc}") from None
    return [np.ascontiguousarray(records[f.member]).reshape(-1) for f in port.fields]


def struct_result(t: StructType, results: list[Any], rets: list[Any], ffi: Any) -> Any:
    """A returned struct from its per-field outputs, as the dataclass instance Python mode returns."""
    record = np.zeros(1, t.storage_dtype)
    for r, ret in zip(results, rets, strict=True):
        values = np.frombuffer(ffi.buffer(ret), dtype=np.dtype(record[r.member].dtype.base))
        record[r.member][0] = values.reshape(record[r.member].shape[1:])
    return t.convert(record[0])


def check_array(name: str, t: ArrayType, arg: Any) -> np.ndarray:
    """Shape, dtype, layout and range checks: a wrong array must never reach native code."""
    if not isinstance(arg, np.ndarray):
        raise SimulationError(f"argument {name!r} must be a numpy array of shape {t.shape} and dtype "
                              f"{t.elem.storage_dtype}, got {type(arg).__name__}")
    if arg.shape != t.shape:
        raise SimulationError(f"argument {name!r} has shape {arg.shape}, the kernel declares {t.shape}")
    if arg.dtype != t.elem.storage_dtype:
        raise SimulationError(f"argument {name!r} has dtype {arg.dtype}; {t.elem} arrays travel as "
                              f"{t.elem.storage_dtype} (use .astype(np.{t.elem.storage_dtype}))")
    if not arg.flags.c_contiguous:
        raise SimulationError(f"argument {name!r} is not C-contiguous; pass np.ascontiguousarray(...)")
    if not arg.flags.writeable:
        raise SimulationError(f"argument {name!r} is read-only; csim writes array outputs in place")
    if isinstance(t.elem, StructType):
        for member, ft in t.elem.fields:
            check_range(f"{name}.{member}", getattr(ft, "elem", ft), arg[member])
        return arg
    check_range(name, t.elem, arg)
    return arg


def check_range(name: str, elem: ScalarType, values: np.ndarray) -> None:
    if isinstance(elem, IntType) and elem.width not in (8, 16, 32, 64) and values.size:
        low, high = int(values.min()), int(values.max())
        if low < elem.min or high > elem.max:
            raise SimulationError(f"argument {name!r}: values {low}..{high} do not fit {elem} "
                                  f"({elem.min}..{elem.max}); convert with hls.{elem}(x)")
    if isinstance(elem, FixedType) and values.size:
        if not np.all(np.isfinite(values)) or np.any(elem.convert(values) != values):
            raise SimulationError(f"argument {name!r}: values are not exactly representable in {elem}; "
                                  f"quantize them first with hls.{elem}(x)")


def to_storage(name: str, t: ScalarType, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        raise SimulationError(f"argument {name!r} is a scalar {t}, got an array")
    try:
        converted = t.convert(value)
    except (TypeError, ValueError) as exc:
        raise SimulationError(f"argument {name!r}: {exc}") from None
    if isinstance(t, FixedType):
        return float(converted)
    if isinstance(t, FloatType):
        return float(converted)
    if isinstance(t, BoolType):
        return bool(converted)
    return int(converted)


def from_storage(t: ScalarType, raw: Any) -> Any:
    if isinstance(t, IntType):
        return int(raw)
    if isinstance(t, FloatType):
        return t.storage_dtype.type(raw)
    if isinstance(t, FixedType):
        return Fraction(float(raw))
    if isinstance(t, BoolType):
        return bool(raw)
    raise TypeError(t)
