"""A mock of pyxrt (XRT's Python binding) written for the hls project, not Xilinx code: the names the
generated host/host.py uses, running each kernel in process on its csim build (`make host-sim` builds it
and writes the mock xclbin). `python host/host.py --sim` imports this module instead of pyxrt.

The mock xclbin is a text file: `kernel <name> <csim library>` and `meta <name> <kernel json>` lines (the
json, host/sim/<name>_kernel.json, says how each argument is laid out), `connect <k>.<out> <k>.<inp>` per
stream link and `free <name>` per free-running kernel (an hls.System). Buffers hold device-layout bytes;
the mock converts fixed point between raw mantissas and the bridge's float64 storage. As the C++ mock
(xrt/xrt_kernel.h) does, a started run is queued and the first wait runs every queued one in process,
producers before consumers along the links, a free-running kernel whenever items wait at its inputs; a
stream's items travel between the kernels in device layout.
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
        self.links: dict[str, str] = {}  # "<kernel>.<output>" -> "<kernel>.<input>"
        self.free: set[str] = set()
        self.queues: dict[str, bytes] = {}  # "<kernel>.<input>" -> device-layout items waiting to be read
        self.pending: list[run] = []
        self.handles: dict[str, Any] = {}
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
            elif words[0] == "connect" and len(words) == 3:
                self.links[words[1]] = words[2]
            elif words[0] == "free" and len(words) == 2:
                self.free.add(words[1])
            else:
                raise RuntimeError(f"{path}:{number}: not a mock xclbin line: {line!r}")

    def library(self, name: str) -> Any:
        if name not in self.handles:
            self.handles[name] = ctypes.CDLL(str(self.libraries[name]))
        return self.handles[name]

    def order(self) -> list[str]:
        """The kernels in stream order: every producer before its consumers."""
        edges = [(a.split(".")[0], b.split(".")[0]) for a, b in self.links.items()]
        placed: list[str] = []
        while len(placed) < len(self.libraries):
            ready = [k for k in self.libraries if k not in placed
                     and all(src in placed or src == k for src, dst in edges if dst == k)]
            if not ready:
                raise RuntimeError(f"mock pyxrt: the stream links of {self.path} form a cycle")
            placed += ready
        return placed

    def drain(self) -> None:
        """Every queued run, in stream order; a free-running kernel whenever items wait at its inputs."""
        todo, self.pending = self.pending, []
        for name in self.order():
            if name in self.free:
                ports = self.meta[name]["ports"]
                if any(self.queues.get(f"{name}.{p['name']}") for p in ports if p["kind"] == "stream_in"):
                    call(self, name, [None] * len(ports), {})
                continue
            for queued in todo:
                if queued.name == name:
                    queued.state = "ERT_CMD_STATE_COMPLETED"
                    call(self, name, queued.args, queued.registers)

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
    """One launch of a kernel: its arguments, queued by start() and run by the first wait()."""

    def __init__(self, k: kernel) -> None:
        self.name, self.image, self.registers = k.name, k.image, k.registers
        self.args: list[Any] = [None] * len(k.meta["ports"])
        self.state = "ERT_CMD_STATE_NEW"

    def set_arg(self, index: int, value: Any) -> None:
        self.args[index] = value

    def start(self) -> None:
        self.state = "ERT_CMD_STATE_QUEUED"
        self.image.pending.append(self)

    def wait(self, timeout: int = 0) -> str:
        self.image.drain()
        return self.state


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
        self.image = image
        self.meta = image.meta[self.name]
        image.library(self.name)  # fails now for a library that does not load, as XRT fails on a bad xclbin
        self.registers: dict[int, int] = {}

    def group_id(self, argno: int) -> int:
        return argno

    def read_register(self, offset: int) -> int:
        if offset not in self.registers:
            raise RuntimeError(f"mock pyxrt: register {offset:#x} of {self.name} holds no returned value")
        return self.registers[offset]

    def __call__(self, *args: Any) -> run:
        if len(args) != len(self.meta["ports"]):
            raise RuntimeError(f"mock pyxrt: {self.name} takes {len(self.meta['ports'])} arguments, got {len(args)}")
        launch = run(self)
        for index, value in enumerate(args):
            launch.set_arg(index, value)
        launch.start()
        return launch


def call(image: xclbin, name: str, args: list[Any], registers: dict[int, int]) -> None:
    """One kernel call on its csim build: buffers and scalars from `args`, streams from the image's queues;
    what a stream output writes goes to the input it is linked to, what an input leaves stays queued."""
    meta = image.meta[name]
    ports, rets = meta["ports"], meta["rets"]
    library = image.library(name)
    c_args, back = [], []
    for port, arg in zip(ports, args, strict=True):
        if port["kind"].startswith("stream"):
            items, count = _stream_items(port, image.queues.pop(f"{name}.{port['name']}", b""))
            c_args += [items, ctypes.c_long(count)]
            continue
        if arg is None:
            raise RuntimeError(f"mock pyxrt: argument {port['index']} ({port['name']}) of {name} was not set")
        c_args.append(_argument(port, arg, back))
    out = [_CTYPES[r["storage"]]() for r in rets]
    fault = library.hls_bridge(*c_args, *[ctypes.byref(v) for v in out])
    for restore in back:
        restore()
    if fault:
        raise RuntimeError(f"mock pyxrt: kernel {name} failed in csim (fault {fault})")
    for port in ports:
        if not port["kind"].startswith("stream"):
            continue
        library.hls_stream_size.restype = ctypes.c_long
        size = library.hls_stream_size(port["index"])
        item = port.get("item_bytes")  # a struct: the bytes of the bridge's storage struct, as they are
        left = (ctypes.c_ubyte * (size * item + 1))() if item else (_CTYPES[port["storage"]] * size)()
        getattr(library, f"hls_stream_copy_{port['index']}")(left)
        key = f"{name}.{port['name']}"
        target = key if port["kind"] == "stream_in" else image.links.get(key, key)
        moved = bytes(left)[:size * item] if item else _device_bytes(port, list(left))
        image.queues[target] = image.queues.get(target, b"") + moved
    for r, value in zip(rets, out, strict=True):
        bits = _device_bits(r, value.value)
        for word in range(max(1, r["nbytes"] // 4)):
            registers[r["offset"] + 4 * word] = (bits >> (32 * word)) & 0xFFFFFFFF


def _stream_items(port: dict[str, Any], raw: bytes) -> tuple[Any, int]:
    """Device-layout stream items as the bridge's storage array (never empty) and their count."""
    if port.get("item_bytes"):  # structs: the storage structs' bytes
        return (ctypes.c_ubyte * (len(raw) + 1)).from_buffer_copy(raw + b"\0"), len(raw) // port["item_bytes"]
    device_t, storage = _CTYPES[port["device_type"]], _CTYPES[port["storage"]]
    words = list((device_t * (len(raw) // ctypes.sizeof(device_t))).from_buffer_copy(raw))
    values = [math.ldexp(w, -port["frac"]) for w in words] if port["fixed"] else words
    return (storage * max(1, len(values)))(*values), len(values)


def _device_bytes(port: dict[str, Any], values: list[Any]) -> bytes:
    device_t = _CTYPES[port["device_type"]]
    words = [round(math.ldexp(v, port["frac"])) for v in values] if port["fixed"] else values
    return bytes((device_t * len(words))(*words))


def _argument(port: dict[str, Any], arg: Any, back: list[Any]) -> Any:
    """A buffer (device bytes) or a scalar as the bridge takes it; `back` collects the write-backs."""
    if port.get("fields"):
        return _struct_argument(port, arg, back)
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


def _struct_argument(port: dict[str, Any], arg: Any, back: list[Any]) -> Any:
    """An array of structs: from its m_axi layout (each field at its byte offset in an element of
    `word_bytes`) to the bridge's storage structs, and back after the call."""
    word, item = port["word_bytes"], port["item_bytes"]
    store = (ctypes.c_ubyte * (port["count"] * item))()
    spans = [(k * word + f["offset"], k * item + f["offset"], f["nbytes"]) for k in range(port["count"])
             for f in port["fields"]]
    for device_at, store_at, size in spans:
        store[store_at:store_at + size] = arg.buffer[device_at:device_at + size]

    def restore() -> None:
        for device_at, store_at, size in spans:
            arg.buffer[device_at:device_at + size] = store[store_at:store_at + size]
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
