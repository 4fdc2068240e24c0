"""Run generated C++ through the cffi bridge: argument checks, zero-copy arrays, boundary conversions."""

from __future__ import annotations

from typing import Any

import numpy as np

from hls.errors import DeadlockError, SimulationError
from hls.golden.streams import Stream
from hls.sim.build import build_shared_library, load_library, load_private_copy
from hls.types import TupleType
from hls.wording import type_expr


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
            storage = p.codec.storage
            params.extend([f"{storage} *", "long"] if p.stream else [f"{storage} {'*' if p.is_array else ''}"])
        params += [f"{r.codec.storage} *" for r in design.results]
        self.cdef = "".join(line + "\n" for line in design.c_declarations)  # struct storage (codec)
        self.cdef += f"int hls_bridge({', '.join(params) or 'void'});"
        if design.streams:
            self.cdef += "\nlong hls_stream_size(int);\nconst char *hls_csim_message(void);\n" + "".join(
                f"void hls_stream_copy_{n}({p.codec.storage} *);\n" for n, p in enumerate(design.ports) if p.stream)
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
        outputs = {p.name: np.zeros(p.shape, dtype=p.codec.dtype) for p in self.design.ports if p.output_only}
        values = [outputs[p.name] if p.output_only else next(given) for p in self.design.ports]
        c_args = []
        for port, arg in zip(self.design.ports, values, strict=True):
            c_args.extend(self.stream_args(port, arg) if port.stream else [self.convert(port, arg)])
        rets = [self.ffi.new(f"{r.codec.storage} *") for r in self.design.results]
        fault = self.lib.hls_bridge(*c_args, *rets)
        if fault in (3, 4):
            message = self.ffi.string(self.lib.hls_csim_message()).decode()
            raise (DeadlockError if fault == 3 else SimulationError)(f"{self.design.top} (csim): {message}")
        for n, (port, arg) in enumerate(zip(self.design.ports, values, strict=True)):
            if port.stream:
                self.stream_back(n, port, arg)
        if fault:
            what, loc = self.design.fault_sites.describe(fault)
            raise SimulationError(f"in csim: {what} (Python mode raises here too; csim substituted 0 and finished "
                                  "the call, so its outputs are not meaningful)", loc)
        if outputs:
            return next(iter(outputs.values()))
        values = tuple(r.codec.from_storage(ret[0]) for r, ret in zip(self.design.results, rets, strict=True))
        if isinstance(self.design.return_type, TupleType):
            return values
        return values[0] if values else None

    def stream_args(self, port: Any, arg: Any) -> list[Any]:
        """An hls.Stream as (items, count): an input's items go in; an output starts empty."""
        if not isinstance(arg, Stream) or arg.elem != port.type.elem:
            raise SimulationError(f"argument {port.name!r} is a stream of {port.type.elem}: pass "
                                  f"hls.Stream({type_expr(port.type.elem)}, values)")
        port.codec.check_stream(port.name, arg)
        items = np.asarray(arg) if port.stream == "in" else np.zeros(0, dtype=port.codec.dtype)
        items = np.ascontiguousarray(items)
        return [self.ffi.from_buffer(f"{port.codec.storage}[]", items), len(items)]

    def stream_back(self, n: int, port: Any, arg: Any) -> None:
        """After the call: an input keeps what the kernel left unread, an output gets what it wrote."""
        count = self.lib.hls_stream_size(n)
        out = np.zeros(count, dtype=port.codec.dtype)
        getattr(self.lib, f"hls_stream_copy_{n}")(self.ffi.from_buffer(f"{port.codec.storage}[]", out,
                                                                          require_writable=True))
        if port.stream == "in":
            arg.items.clear()
        arg.items.extend(port.codec.from_storage(v) for v in out.tolist())

    def convert(self, port: Any, arg: Any) -> Any:
        if port.is_array:
            array = port.codec.check(port.name, arg)
            return self.ffi.from_buffer(f"{port.codec.storage}[]", array, require_writable=True)
        return port.codec.to_storage(port.name, arg)

