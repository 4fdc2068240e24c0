"""The PYNQ driver.py of a Vivado-IP-flow AXI IP (issue 26): run against a stand-in `pynq` module written
here, which records every register write and read and every buffer sync, and plays the IP: on ap_start it
finds the arguments at the offsets Vitis HLS's x<top>_hw.h headers give (docs/systems.md, "Facts and
sources"), computes the kernel with plain numpy int64 arithmetic, and raises ap_done."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import hls

N = 8
BASE = 0x1_2345_6000  # physical addresses above 4 GiB, so the high address word matters


@hls.kernel(flow="vivado")
def axpy_ret(a: hls.int16[N], b: hls.int32[N], n: hls.int32, big: hls.uint32) -> hls.int32:
    hls.interface(a, "m_axi", offset="slave", bundle="gmem")
    hls.interface(b, "m_axi", offset="slave", bundle="gmem")
    s: hls.int32 = 0
    for i in range(N):
        b[i] = a[i] * n + b[i]
        s += a[i]
    return s + big


@hls.kernel(flow="vivado")
def vadd_ip(a: hls.int32[N], b: hls.int32[N], c: hls.int32[N], n: hls.int32):
    hls.interface(a, "m_axi", offset="slave", bundle="gmem0")
    hls.interface(b, "m_axi", offset="slave", bundle="gmem1")
    hls.interface(c, "m_axi", offset="slave", bundle="gmem2")
    for i in range(N):
        c[i] = a[i] + b[i] + n


@hls.kernel(flow="vivado")
def wide_scalar(a: hls.int64[N], k: hls.int64, q: hls.uint8):
    hls.interface(a, "m_axi", offset="slave")
    for i in range(N):
        a[i] = a[i] + k + q


def ref_axpy(regs, mem):
    a, b = mem(0x18, np.int16), mem(0x24, np.int32)
    n, big = np.int64(np.int32(np.uint32(regs[0x30]))), np.int64(regs[0x38])
    total = int(a.astype(np.int64).sum()) + big
    b[:] = (a.astype(np.int64) * n + b).astype(np.int32)
    return {0x10: int(np.uint32(np.int64(total) & 0xFFFFFFFF))}


def ref_vadd(regs, mem):
    a, b, c = (mem(off, np.int32) for off in (0x10, 0x1c, 0x28))
    c[:] = a.astype(np.int64) + b + np.int32(np.uint32(regs[0x34]))
    return {}


def ref_wide(regs, mem):
    a = mem(0x10, np.int64)
    k = np.int64(np.uint64(regs[0x1c] | regs[0x20] << 32))  # 64-bit scalar: two data words, then reserved
    a[:] = a + k + np.int64(regs[0x28] & 0xFF)
    return {}


# per kernel: {argument: offset} as the cited x<top>_hw.h layouts give them, the return register, the reference
CASES = {
    "axpy_ret": (axpy_ret, {"a": 0x18, "b": 0x24, "n": 0x30, "big": 0x38}, 0x10, ref_axpy),
    "vadd_ip": (vadd_ip, {"a": 0x10, "b": 0x1c, "c": 0x28, "n": 0x34}, None, ref_vadd),
    "wide_scalar": (wide_scalar, {"a": 0x10, "k": 0x1c, "q": 0x28}, None, ref_wide),
}


class Buffer(np.ndarray):
    """pynq.allocate's PynqBuffer as far as the driver uses it."""

    def sync_to_device(self):
        self.log.append(("sync_to_device", self.physical_address))

    def sync_from_device(self):
        self.log.append(("sync_from_device", self.physical_address))

    def freebuffer(self):
        self.log.append(("free", self.physical_address))


def standin_pynq(reference):
    """A module named pynq: Overlay (one IP, `<top>_0`), allocate, and a log of what the driver did."""
    log, memory = [], {}
    module = types.ModuleType("pynq")
    module.log = log

    def allocate(shape, dtype):
        buffer = np.zeros(shape, dtype).view(Buffer)
        buffer.physical_address = BASE + 0x1000 * len(memory)
        buffer.log = log
        memory[buffer.physical_address] = buffer
        log.append(("allocate", buffer.physical_address, tuple(shape), np.dtype(dtype).name))
        return buffer

    class IP:
        def __init__(self):
            self.regs, self.done = {}, False

        def write(self, offset, value):
            assert 0 <= value <= 0xFFFFFFFF, f"a 32-bit register write, got {value:#x}"
            log.append(("write", offset, value))
            if offset == 0x00 and value & 1:
                args = {o: v for o, v in self.regs.items() if o >= 0x10}

                def mem(offset, dtype):  # the buffer at a (low, high) address pair
                    buffer = memory[args[offset] | args[offset + 4] << 32]
                    assert buffer.dtype == dtype, (buffer.dtype, dtype)
                    return buffer.view(np.ndarray)
                self.regs.update(reference(args, mem))
                self.done = True
            else:
                self.regs[offset] = value

        def read(self, offset):
            log.append(("read", offset))
            if offset == 0x00:
                return 0x2 | 0x4 if self.done else 0
            return self.regs[offset]

    class Overlay:
        def __init__(self, bitfile):
            log.append(("overlay", bitfile))
            self.ip = IP()

        def __getattr__(self, name):
            if name.endswith("_0"):
                return self.ip
            raise AttributeError(name)

    module.Overlay, module.allocate = Overlay, allocate
    return module


def load_driver(project: Path, monkeypatch, reference):
    pynq = standin_pynq(reference)
    monkeypatch.setitem(sys.modules, "pynq", pynq)
    spec = importlib.util.spec_from_file_location(f"driver_{project.name}", project / "driver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, pynq.log


@pytest.mark.parametrize("name", sorted(CASES))
def test_driver_writes_the_vitis_register_map(name, tmp_path, monkeypatch, capsys):
    kernel, offsets, ret_offset, reference = CASES[name]
    assert "mode=s_axilite port=return" in kernel.compile().design.kernel_cpp
    project = kernel.export(tmp_path / name, seed=4)
    assert (project / "driver.py").is_file() and not (project / "host").exists()
    driver, log = load_driver(project, monkeypatch, reference)
    assert driver.main(["design.bit", "--data", str(project / "tb" / "data")]) == 0
    assert "PASS:" in capsys.readouterr().out
    design = kernel.compile().design
    writes = [e for e in log if e[0] == "write"]
    start = writes.index(("write", 0x00, 1))
    addresses = iter(e[1] for e in log if e[0] == "allocate")
    expected = []
    for port in design.ports:
        off = offsets[port.name]
        if port.is_array:  # a pointer: the low address word, then the high one
            address = next(addresses)
            expected += [("write", off, address & 0xFFFFFFFF), ("write", off + 4, address >> 32)]
        else:
            width = port.type.width
            value = int(np.loadtxt(project / "tb" / "data" / f"{port.c_name}.dat", dtype=np.int64))
            bits = value & ((1 << width) - 1)
            expected.append(("write", off, bits & 0xFFFFFFFF))
            if width > 32:
                expected.append(("write", off + 4, bits >> 32))
    assert writes[:start] == expected and start == len(writes) - 1
    position = log.index(("write", 0x00, 1))
    synced_before = [e[1] for e in log[:position] if e[0] == "sync_to_device"]
    synced_after = [e[1] for e in log[position:] if e[0] == "sync_from_device"]
    buffers = [e[1] for e in log if e[0] == "allocate"]
    assert synced_before == buffers and synced_after == buffers
    polls = [e for e in log[position:] if e == ("read", 0x00)]
    assert polls, "ap_done is polled"
    reads = [e[1] for e in log[position:] if e[0] == "read" and e[1] != 0x00]
    assert reads == ([ret_offset] if ret_offset is not None else [])


def test_a_corrupted_golden_vector_fails(tmp_path, monkeypatch, capsys):
    project = vadd_ip.export(tmp_path / "p")
    golden = project / "tb" / "data" / "c.golden.dat"
    lines = golden.read_text().splitlines()
    lines[2] = str(int(lines[2]) + 1)
    golden.write_text("\n".join(lines) + "\n")
    driver, _ = load_driver(project, monkeypatch, ref_vadd)
    assert driver.main(["design.bit", "--data", str(project / "tb" / "data")]) == 1
    assert "MISMATCH c[2]" in capsys.readouterr().out


def test_a_timeout_without_ap_done(tmp_path, monkeypatch, capsys):
    project = vadd_ip.export(tmp_path / "p")
    driver, _ = load_driver(project, monkeypatch, ref_vadd)
    monkeypatch.setattr(driver.Driver, "__init__", lambda self, *a: (
        setattr(self, "ip", types.SimpleNamespace(write=lambda o, v: None, read=lambda o: 0)),
        setattr(self, "timeout", 0.01))[0])
    assert driver.main(["design.bit", "--data", str(project / "tb" / "data")]) == 2
    assert "no ap_done" in capsys.readouterr().err


@hls.kernel(flow="vivado")
def direct_offset(a: hls.int32[N]):
    hls.interface(a, "m_axi")  # no offset="slave": the address is a port of its own, not a register
    for i in range(N):
        a[i] = a[i] + 1


@pytest.mark.parametrize("kernel", [direct_offset], ids=["m_axi_without_slave_offset"])
def test_no_driver_without_an_axi_lite_register_file(kernel, examples, tmp_path):
    project = kernel.export(tmp_path / "p")
    assert not (project / "driver.py").exists()
    assert "mode=ap_ctrl_hs port=return" in kernel.compile().design.kernel_cpp
    plain = examples["matmul_schedule"].KERNEL  # the Vivado flow's defaults: ap_memory, ap_none, ap_ctrl_hs
    assert not (plain.export(tmp_path / "m") / "driver.py").exists()
