"""The flow is a property of the compiled design: C++, estimate and export describe the same interfaces."""

import json
import warnings

import numpy as np
import pytest

import hls
from hls.cli.main import main
from hls.project.export import read_manifest

COEF = np.arange(8, dtype=np.int32)


@hls.kernel(flow="vivado")
def ip_block(a: hls.int32[8], n: hls.int32) -> hls.int32:
    hls.array_partition(a, "cyclic", factor=2)
    acc = hls.int32(0)
    for i in range(8):
        acc += a[i] * n
    return acc


@hls.kernel
def plain(a: hls.int32[8], n: hls.int32) -> hls.int32:
    acc = hls.int32(0)
    for i in range(8):
        acc += a[i] * n
    return acc


@hls.kernel
def rom_and_ports(a: hls.int32[8]) -> hls.int32:
    hls.interface(a, "ap_memory", storage_type="ram_1p")
    hls.array_partition(COEF, "complete")
    acc = hls.int32(0)
    for i in range(8):
        hls.pipeline()
        acc += a[i] * COEF[i]
    return acc


STORAGE = "ram_1p"


@hls.kernel(flow="vivado")
def two_reads(a: hls.int32[8]) -> hls.int32:
    hls.interface(a, "ap_memory", storage_type=STORAGE)
    acc = hls.int32(0)
    for i in range(8):
        hls.pipeline()
        acc += a[i] + a[7 - i]
    return acc


@hls.kernel
def partition_big(a: hls.int32[8]) -> hls.int32:
    buf = hls.zeros((8,), hls.int32)
    hls.array_partition(buf, "block", factor=16)
    buf[0] = a[0]
    return buf[0]


def test_vivado_flow_kernel_has_ip_interfaces():
    cpp = ip_block.cpp
    assert "#pragma HLS interface mode=ap_memory port=a" in cpp
    assert "#pragma HLS interface mode=ap_none port=n" in cpp
    assert "#pragma HLS interface mode=ap_ctrl_hs port=return" in cpp
    assert "m_axi" not in cpp and "s_axilite" not in cpp
    assert ip_block.flow == "vivado" and plain.flow == "vitis"


def test_vitis_flow_keeps_the_partition_error_and_the_estimate_follows_the_cpp():
    with pytest.raises(hls.HLSTypeError, match="default m_axi interface of the Vitis flow"):
        ip_block.report(flow="vitis")
    vivado, vitis = plain.report(flow="vivado"), plain.report()
    assert not [r for r in vivado.breakdown if "m_axi" in r.op or "s_axilite" in r.op]
    assert [r for r in vitis.breakdown if "m_axi" in r.op]
    assert vivado.resources.lut < vitis.resources.lut
    assert "mode=ap_memory port=a" in plain.compile("vivado").design.kernel_cpp
    assert "mode=m_axi port=a" in plain.cpp  # the kernel's own flow is unchanged


def test_export_and_cli_take_the_kernels_flow(tmp_path):
    project = ip_block.export(tmp_path / "p")
    assert read_manifest(project)["flow"] == "vivado"
    assert "mode=ap_memory port=a" in (project / "src" / "ip_block.cpp").read_text()
    project = plain.export(tmp_path / "q", flow="vivado")
    assert "mode=ap_none port=n" in (project / "src" / "plain.cpp").read_text()


def test_cli_emit_and_report_flow(capsys):
    assert main(["emit", f"{__file__}:plain", "--flow", "vivado"]) == 0
    assert "mode=ap_ctrl_hs port=return" in capsys.readouterr().out
    assert main(["report", f"{__file__}:plain", "--flow", "vivado", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["estimate"]["resources_breakdown"]
    assert rows and not [r for r in rows if "m_axi" in r["op"]]


def test_bad_flow():
    with pytest.raises(hls.HLSError, match="flow must be one of"):
        hls.kernel(flow="quartus")
    with pytest.raises(hls.HLSError, match="flow must be one of"):
        plain.report(flow="quartus")


def test_storage_type_and_rom_partition():
    cpp = rom_and_ports.cpp
    assert "#pragma HLS interface mode=ap_memory port=a storage_type=ram_1p" in cpp
    assert "#pragma HLS array_partition variable=COEF type=complete dim=1" in cpp
    loop = rom_and_ports.report().loops[0]
    assert loop.ii == 1  # one read of `a` per iteration fits one port; COEF is registers
    assert rom_and_ports(np.ones(8, dtype=np.int32)) == 28


def test_storage_type_sets_the_ports_per_bank():
    assert two_reads.report().loops[0].ii == 2  # RAM_1P: one access per cycle
    assert two_reads.specialize(STORAGE="ram_2p").report().loops[0].ii == 1


def test_partition_factor_beyond_the_dimension_warns_and_clamps():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        partition_big.compile()
    assert any(issubclass(w.category, hls.DirectiveWarning) and "clamps it to 8" in str(w.message) for w in caught)
    assert "memory buf (regs" in " ".join(r.op for r in partition_big.report().breakdown)
