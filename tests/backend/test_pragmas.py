"""Each directive becomes the Vitis pragma UG1399 documents, at the place Vitis expects it."""

import numpy as np

from tests.kernels import pragma_kernels as pk


def body_after(cpp: str, marker: str) -> list[str]:
    lines = [line.strip() for line in cpp.splitlines()]
    index = next(i for i, line in enumerate(lines) if marker in line)
    return lines[index + 1:]


def test_pipeline_and_tripcount_open_the_loop_body():
    after = body_after(pk.pipe.cpp, "loop_i: for")
    assert after[:2] == ["#pragma HLS pipeline II=2", "#pragma HLS loop_tripcount min=1 max=64"]


def test_pipeline_off():
    assert body_after(pk.pipe_off.cpp, "loop_i: for")[0] == "#pragma HLS pipeline off"


def test_unroll_factor_kept_as_pragma_for_variable_bounds():
    assert body_after(pk.unroll_var.cpp, "loop_i: for")[0] == "#pragma HLS unroll factor=4"
    assert body_after(pk.unroll_full_var.cpp, "loop_i: for")[0] == "#pragma HLS unroll"


def test_array_partition_and_bind_storage():
    cpp = pk.partition.cpp
    assert "#pragma HLS array_partition variable=buf type=cyclic factor=4 dim=2" in cpp
    assert "#pragma HLS bind_storage variable=buf type=ram_2p impl=bram" in cpp
    assert "#pragma HLS array_partition variable=blk type=block factor=2 dim=1" in cpp
    assert "#pragma HLS array_partition variable=reg type=complete dim=1" in cpp
    # the pragma follows the declaration it names
    lines = [line.strip() for line in cpp.splitlines()]
    assert lines.index("#pragma HLS array_partition variable=buf type=cyclic factor=4 dim=2") > \
        lines.index("int32_t buf[16][16] = {};")


def test_default_vitis_interfaces():
    cpp = pk.pipe.cpp
    assert "#pragma HLS interface mode=m_axi port=a bundle=gmem0 offset=slave depth=64" in cpp
    assert "#pragma HLS interface mode=s_axilite port=n" in cpp
    assert "#pragma HLS interface mode=s_axilite port=return" in cpp


def test_user_interface_replaces_the_default():
    cpp = pk.custom_interface.cpp
    assert "#pragma HLS interface mode=m_axi port=a bundle=gmem_in depth=16 latency=32" in cpp
    assert "#pragma HLS interface mode=ap_memory port=b" in cpp
    assert "port=a bundle=gmem0" not in cpp and "mode=m_axi port=b" not in cpp
    assert "#pragma HLS interface mode=s_axilite port=n" in cpp


def test_dataflow_and_inline_off():
    cpp = pk.flow.cpp
    assert "#pragma HLS dataflow" in cpp
    stage_body = body_after(cpp, "void stage(")
    assert stage_body[0] == "#pragma HLS inline off"


def test_function_pipeline():
    lines = [line.strip() for line in pk.func_pipeline.cpp.splitlines()]
    assert "#pragma HLS pipeline II=1" in lines
    assert lines.index("#pragma HLS pipeline II=1") > lines.index("#pragma HLS interface mode=s_axilite port=return")


def test_directive_kernels_still_verify():
    a = np.zeros(64, dtype=np.int32)
    pk.pipe.verify(a, 10)
    pk.unroll_var.verify(a, 13)
    pk.unroll_full_var.verify(a, 37)
    pk.partition.verify()
    pk.custom_interface.verify()
    pk.flow.verify()
    pk.func_pipeline.verify()
