"""The static linter of hls.System (issue 26): every rule refuses with the file:line of the System(...) call.

Rules: an endpoint names a kernel of the system and one of its ports; a connection runs from a stream
output to a stream input of the same element type (width); no stream is connected twice, none to its own
kernel, none left unconnected (a host cannot drive an AXI4-Stream port); a memory assignment names a
memory port (of a kernel, or of one compute unit `<kernel>_<i>`) and a bank the platform family has; an SLR
assignment an SLR the platform family has; a free-running kernel (`kernel.free_running`, set by
hls.task) has no memory or scalar port, since nothing starts it or sets its registers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hls.errors import HLSError, Loc
from hls.types import BlocksType

# memory banks per platform family: Alveo U200/U250 (4 DDR4 banks), U280 (32 HBM2 pseudo-channels and
# 2 DDR4 banks), U50/U55C (32 HBM2 pseudo-channels); PLRAM on all (docs/systems.md, "Facts")
PLATFORM_BANKS = {"u200": {"DDR": 4, "PLRAM": 4}, "u250": {"DDR": 4, "PLRAM": 4},
                  "u280": {"HBM": 32, "DDR": 2, "PLRAM": 6}, "u50": {"HBM": 32, "PLRAM": 6},
                  "u55c": {"HBM": 32, "PLRAM": 6}}
# SLRs per platform family: U200 3, U250 4, U280 3, U50 2, U55C 3 (Alveo data sheets DS962, DS963, DS965,
# DS978; docs/systems.md, "Facts")
PLATFORM_SLRS = {"u200": 3, "u250": 4, "u280": 3, "u50": 2, "u55c": 3}
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BANK_RE = re.compile(r"([A-Z]+)\[(\d+)(?::(\d+))?\]")


class SystemError_(HLSError):  # noqa: N801 - `SystemError` is a Python builtin
    """An hls.System the linter refuses."""


@dataclass(frozen=True)
class Link:
    producer: str
    out: str
    consumer: str
    inp: str

    def __str__(self) -> str:
        return f"{self.producer}.{self.out} -> {self.consumer}.{self.inp}"


def endpoint(text: Any, designs: dict[str, Any], loc: Loc | None) -> tuple[str, Any]:
    """'kernel.port' -> (kernel name, the port's PortSpec)."""
    if not isinstance(text, str) or text.count(".") != 1:
        raise SystemError_(f"{text!r} must be spelled 'kernel.port'", loc)
    name, port = text.split(".")
    if name not in designs:
        raise SystemError_(f"{text!r}: no kernel {name!r} in this system (kernels: {', '.join(designs)})", loc)
    for p in designs[name].ports:
        if p.name == port:
            return name, p
    names = ", ".join(p.name for p in designs[name].ports)
    raise SystemError_(f"{text!r}: kernel {name!r} has no port {port!r} (ports: {names})", loc)


def as_list(value: Any, what: str, loc: Loc | None) -> list[Any]:
    """A list or tuple argument of hls.System as a list; anything else (a bare string, a kernel, None) refused."""
    if not isinstance(value, (list, tuple)):
        raise SystemError_(f"{what} must be a list, not {type(value).__name__} {value!r}", loc)
    return list(value)


def as_dict(value: Any, what: str, loc: Loc | None) -> dict[str, Any]:
    """A dict argument of hls.System (None: empty); keys strings."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise SystemError_(f"{what} must be a dict with string keys, not {value!r}", loc)
    return dict(value)


def check_name(name: Any, loc: Loc | None) -> str:
    """The system's name names the .xclbin and the host's messages: a C identifier, like a kernel's."""
    if not isinstance(name, str) or _IDENT_RE.fullmatch(name) is None:
        raise SystemError_(f"name {name!r}: the system's name (of its .xclbin) must be an identifier", loc)
    return name


def check_links(connect: Any, designs: dict[str, Any], loc: Loc | None) -> list[Link]:
    for name, design in designs.items():
        for p in design.ports:
            if isinstance(p.type, BlocksType):  # UG1399 "HLS Stream of Blocks Library", "Limitations"
                raise SystemError_(f"{name}.{p.name} is a stream of blocks: it joins two processes of one dataflow "
                                   "region, never two kernels of a system (connect a stream, or make both "
                                   "kernels processes of one dataflow kernel)", loc)
    links: list[Link] = []
    used: dict[str, str] = {}
    for pair in as_list(connect, "connect (pairs ('producer.out', 'consumer.inp'))", loc):
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise SystemError_(f"connect entry {pair!r} must be a pair ('producer.out', 'consumer.inp')", loc)
        (pk, out), (ck, inp) = (endpoint(end, designs, loc) for end in pair)
        link = Link(pk, out.name, ck, inp.name)
        if out.stream != "out" or inp.stream != "in":
            wrong = pair[0] if out.stream != "out" else pair[1]
            want = "a stream the kernel writes" if out.stream != "out" else "a stream the kernel reads"
            raise SystemError_(f"{link}: {wrong!r} is not {want} (direction)", loc)
        if pk == ck:
            raise SystemError_(f"{link}: a kernel's stream connected to itself", loc)
        if out.type.elem != inp.type.elem:
            raise SystemError_(f"{link}: {pair[0]!r} carries {out.type.elem} but {pair[1]!r} reads "
                               f"{inp.type.elem} (width)", loc)
        for end in pair:
            if end in used:
                raise SystemError_(f"{end!r} is connected twice ({used[end]} and {link})", loc)
            used[end] = str(link)
        links.append(link)
    for name, design in designs.items():
        for p in design.ports:
            if p.stream and f"{name}.{p.name}" not in used:
                raise SystemError_(f"stream {name}.{p.name} is not connected: a host program cannot feed or drain "
                                   "an AXI4-Stream port; connect it to a memory kernel", loc)
    return links


def memory_target(where: str, designs: dict[str, Any], counts: dict[str, int],
                  loc: Loc | None) -> tuple[str, list[str], Any]:
    """A memory key 'kernel.port' (every compute unit of the kernel) or 'kernel_i.port' (the i-th, as link.cfg
    names it): (kernel, the compute-unit names it covers, the port)."""
    unit = where.split(".")[0] if isinstance(where, str) else ""
    kernel, _, index = unit.rpartition("_")
    if unit not in designs and kernel in designs and index.isdigit():
        if not 1 <= int(index) <= counts[kernel]:
            names = ", ".join(f"{kernel}_{i}" for i in range(1, counts[kernel] + 1))
            raise SystemError_(f"memory[{where!r}]: kernel {kernel!r} has the compute units {names}", loc)
        _, port = endpoint(f"{kernel}.{where.split('.', 1)[1]}", designs, loc)
        return kernel, [unit], port
    name, port = endpoint(where, designs, loc)
    return name, [f"{name}_{i}" for i in range(1, counts[name] + 1)], port


def check_platform(platform: Any, loc: Loc | None) -> str:
    if platform not in PLATFORM_BANKS:
        raise SystemError_(f"platform family {platform!r} is not one of {', '.join(PLATFORM_BANKS)}", loc)
    return platform


def check_slr(slr: dict[str, Any], designs: dict[str, Any], platform: str, loc: Loc | None) -> None:
    count = PLATFORM_SLRS[platform]
    for kname, where in slr.items():
        if kname not in designs:
            raise SystemError_(f"slr: no kernel {kname!r} in this system", loc)
        if not (isinstance(where, str) and re.fullmatch(r"SLR\d", where) and int(where[3:]) < count):
            have = ", ".join(f"SLR{i}" for i in range(count))
            raise SystemError_(f"slr[{kname!r}] = {where!r}: the {platform} platform family has {have}", loc)


def check_memory(memory: dict[str, str], designs: dict[str, Any], counts: dict[str, int], platform: str,
                 loc: Loc | None) -> None:
    banks = PLATFORM_BANKS[platform]
    for where, bank in memory.items():
        _, _, port = memory_target(where, designs, counts, loc)
        if not port.is_array:
            raise SystemError_(f"memory[{where!r}]: {where!r} is not a memory (m_axi) port", loc)
        match = _BANK_RE.fullmatch(bank) if isinstance(bank, str) else None
        if match is None:
            raise SystemError_(f"memory[{where!r}] = {bank!r}: spell a bank like 'HBM[0]', 'DDR[1]' or 'HBM[0:3]'", loc)
        kind, first, last = match.group(1), int(match.group(2)), int(match.group(3) or match.group(2))
        if kind not in banks or not first <= last < banks[kind]:
            have = ", ".join(f"{k}[0..{n - 1}]" for k, n in banks.items())
            raise SystemError_(f"memory[{where!r}] = {bank!r}: the {platform} platform family has no such bank "
                               f"(it has {have})", loc)


def check_free_running(kernels: dict[str, Any], designs: dict[str, Any], loc: Loc | None) -> list[str]:
    free = [name for name, k in kernels.items() if getattr(k, "free_running", False)]
    for name in free:
        for p in designs[name].ports:
            if not p.stream:
                kind = "memory" if p.is_array else "scalar"
                raise SystemError_(f"kernel {name!r} is free-running but has the {kind} port {p.name!r}: nothing "
                                   "starts it or sets its registers; give it stream ports only", loc)
        if designs[name].results:
            raise SystemError_(f"kernel {name!r} is free-running but returns a value", loc)
    return free


def check_compute_units(compute_units: dict[str, Any], designs: dict[str, Any], links: list[Link],
                        loc: Loc | None) -> dict[str, int]:
    counts = {name: 1 for name in designs}
    for name, count in compute_units.items():
        if name not in designs:
            raise SystemError_(f"compute_units: no kernel {name!r} in this system", loc)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 64:
            raise SystemError_(f"compute_units[{name!r}] = {count!r}: a count from 1 to 64", loc)
        if count > 1 and any(name in (link.producer, link.consumer) for link in links):
            raise SystemError_(f"compute_units[{name!r}] = {count}: a kernel joined by streams has one compute "
                               "unit (which copy would a stream reach?)", loc)
        counts[name] = count
    return counts
