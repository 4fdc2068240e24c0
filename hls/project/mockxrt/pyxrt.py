"""A mock of pyxrt (XRT's Python binding) written for the hls project, not Xilinx code: the names the
generated host/host.py uses, running each kernel in process on its csim build (`make host-sim` builds it
and writes the mock xclbin). `python host/host.py --sim` imports this module instead of pyxrt.

The mock xclbin is a text file: `kernel <name> <csim library>` and `meta <name> <kernel json>` lines (the
json, host/sim/<name>_kernel.json, says how each argument is laid out). Buffers hold device-layout bytes;
the mock converts fixed point between raw mantissas and the bridge's float64 storage.
"""

from __future__ import annotations

import ctypes
import json
import math
from enum import Enum
from pathlib import Path
from typing import Any

_CTYPES = {"int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16, "int32_t": ctypes.c_int32,
           "int64_t": ctypes.c_int64, "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16,
           "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64, "bool": ctypes.c_bool,
           "float": ctypes.c_float, "double": ctypes.c_double}


class xclBOSyncDirection(Enum):  # noqa: N801 - pyxrt's own spelling
    XCL_BO_SYNC_BO_TO_DEVICE = 0
    XCL_BO_SYNC_BO_FROM_DEVICE = 1


class xclbin:  # noqa: N801
    """A mock xclbin file: kernel name -> csim library and layout description."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.libraries: dict[str, Path] = {}
        self.meta: dict[str, dict[str, Any]] = {}
        try:
            lines = self.path.read_text().splitlines()
        except OSError as exc:
            raise RuntimeError(f"mock pyxrt: cannot open xclbin {path} (make host-sim writes it): {exc}") from None
        for number, line in enumerate(lines, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] in ("kernel", "meta") and len(words) == 3:
                target = Path(words[2]) if Path(words[2]).is_absolute() else self.path.parent / words[2]
                if words[0] == "kernel":
                    self.libraries[words[1]] = target
                else:
                    self.meta[words[1]] = json.loads(target.read_text())
            elif words[0] not in ("connect", "free"):
                raise RuntimeError(f"{path}:{number}: not a mock xclbin line: {line!r}")


class uuid:  # noqa: N801
    def __init__(self, image: xclbin) -> None:
        self.image = image


class device:  # noqa: N801
    def __init__(self, index: int = 0) -> None:
        self.index = index

    def load_xclbin(self, image: xclbin | str) -> uuid:
        return uuid(image if isinstance(image, xclbin) else xclbin(image))


class bo:  # noqa: N801
    normal = 0
    cacheable = 1

    def __init__(self, dev: device, size: int, flags: int, group: int) -> None:
        self.buffer = (ctypes.c_ubyte * size)()
        self.group = group

    def write(self, data: Any, offset: int) -> None:
        raw = bytes(memoryview(data).cast("B"))
        ctypes.memmove(ctypes.addressof(self.buffer) + offset, raw, len(raw))

    def read(self, size: int, offset: int) -> bytes:
        return bytes(self.buffer)[offset:offset + size]

    def sync(self, direction: xclBOSyncDirection, size: int = 0, offset: int = 0) -> None:
        """Host and kernel share memory here: nothing to copy."""

    def size(self) -> int:
        return len(self.buffer)


class run:  # noqa: N801
    def __init__(self, state: str) -> None:
        self._state = state

    def wait(self, timeout: int = 0) -> str:
        return self._state


class kernel:  # noqa: N801
    class cu_access_mode(Enum):  # noqa: N801
        exclusive = 0
        shared = 1

    shared = cu_access_mode.shared
    exclusive = cu_access_mode.exclusive

    def __init__(self, dev: device, xid: uuid, name: str, mode: Any = None) -> None:
        self.name = name.split(":")[0]
        image = xid.image
        if self.name not in image.libraries or self.name not in image.meta:
            raise RuntimeError(f"mock pyxrt: no kernel {self.name!r} in {image.path}")
        self.meta = image.meta[self.name]
        self.library = ctypes.CDLL(str(image.libraries[self.name]))
        self.registers: dict[int, int] = {}

    def group_id(self, argno: int) -> int:
        return argno

    def read_register(self, offset: int) -> int:
        if offset not in self.registers:
            raise RuntimeError(f"mock pyxrt: register {offset:#x} of {self.name} holds no returned value")
        return self.registers[offset]

    def __call__(self, *args: Any) -> run:
        ports, rets = self.meta["ports"], self.meta["rets"]
        if len(args) != len(ports):
            raise RuntimeError(f"mock pyxrt: {self.name} takes {len(ports)} arguments, got {len(args)}")
        c_args, back = [], []
        for port, arg in zip(ports, args, strict=True):
            if port["kind"].startswith("stream"):
                raise RuntimeError(f"mock pyxrt: {self.name}.{port['name']} is a stream; systems run in host.cpp")
            c_args.append(_argument(port, arg, back))
        out = [_CTYPES[r["storage"]]() for r in rets]
        fault = self.library.hls_bridge(*c_args, *[ctypes.byref(v) for v in out])
        for restore in back:
            restore()
        if fault:
            raise RuntimeError(f"mock pyxrt: kernel {self.name} failed in csim (fault {fault})")
        for r, value in zip(rets, out, strict=True):
            bits = _device_bits(r, value.value)
            for word in range(max(1, r["nbytes"] // 4)):
                self.registers[r["offset"] + 4 * word] = (bits >> (32 * word)) & 0xFFFFFFFF
        return run("ERT_CMD_STATE_COMPLETED")


def _argument(port: dict[str, Any], arg: Any, back: list[Any]) -> Any:
    """A buffer (device bytes) or a scalar as the bridge takes it; `back` collects the write-backs."""
    storage = _CTYPES[port["storage"]]
    if port["kind"] == "scalar":
        value = arg
        if port["fixed"]:
            value = math.ldexp(int(arg), -port["frac"])
        return storage(value)
    device_t = _CTYPES[port["device_type"]]
    words = (device_t * port["count"]).from_buffer(arg.buffer)
    if not port["fixed"]:
        return ctypes.cast(words, ctypes.POINTER(storage))
    store = (ctypes.c_double * port["count"])(*[math.ldexp(w, -port["frac"]) for w in words])

    def restore() -> None:
        for i, v in enumerate(store):
            words[i] = round(math.ldexp(v, port["frac"]))
    back.append(restore)
    return store


def _device_bits(r: dict[str, Any], value: Any) -> int:
    """A returned value as the unsigned bits of its s_axilite register(s)."""
    nbits = 8 * r["nbytes"]
    if r["fixed"]:
        value = round(math.ldexp(value, r["frac"]))
    if r["is_float"]:
        kind = ctypes.c_float if r["nbytes"] == 4 else ctypes.c_double
        return int.from_bytes(bytes(kind(value)), "little")
    return int(value) & ((1 << nbits) - 1)
