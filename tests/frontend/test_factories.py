"""Names in annotations, shapes and bounds resolve as Python resolves them (issue 11, item 1)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import hls
from tests.kernels import factory_kernels as fk


def test_return_annotation_from_enclosing_function_not_module_global():
    inc = fk.make_inc(hls.int32)
    assert inc(200) == 201  # the module's T = int8 would give -55
    assert inc.csim(200) == 201
    assert "int32_t inc(" in inc.cpp or "ap_int<32> inc(" in inc.cpp


def test_shape_from_enclosing_function():
    total = fk.make_total(5)
    data = np.arange(5, dtype=np.int32)
    assert total(data) == 10
    assert total.csim(data) == 10


def test_body_annotation_from_enclosing_function():
    widen = fk.make_local_annotation(hls.int8)
    assert widen(100) == hls.int8(300)  # wrapped to the factory's int8
    assert widen.csim(100) == widen(100)
    wide = fk.make_local_annotation(hls.int32)
    assert wide(100) == 300


def test_enclosing_names_read_at_decoration_time(tmp_path):
    def make():
        width = hls.int8

        @hls.kernel
        def narrow(a: hls.int32) -> hls.int32:
            y: width = a
            return y

        width = hls.int32  # noqa: F841 - changed after the decorator ran: not seen by the kernel
        return narrow

    assert make()(300) == 44


def test_factory_instances_get_distinct_readable_names():
    assert fk.use_adders(100) == fk.use_adders.csim(100) == hls.int8(102) + 101 + hls.int8(103)
    cpp = fk.use_adders.cpp
    for name in ("adder(", "adder_16_1(", "adder_8_3("):
        assert name in cpp
    fk.use_adders.verify()


def test_user_set_name_names_the_function():
    k = fk.make_adder(12, 5)
    k.__name__ = "adder_w12"
    assert "adder_w12(" in k.cpp
    bad = fk.make_adder(12, 6)
    bad.__name__ = "not valid"
    with pytest.raises(hls.HLSTypeError, match="not a C..? identifier"):
        _ = bad.cpp


def test_eight_instances_verify_and_export_in_one_project(tmp_path):
    result = fk.eight.verify(seed=3)
    assert len(result["compared"]) == 16
    cpp = fk.eight.cpp
    names = [f.name for f in fk.eight.compile().module.functions.values()]
    assert len(set(names)) == 9 and "scale" in names and "scale_int16_4_2" in names
    assert cpp.count("#pragma HLS pipeline II=2") == 1 and cpp.count("#pragma HLS pipeline II=3") == 1
    project = fk.eight.export(tmp_path / "prj")
    run = subprocess.run(["make", "-C", str(project), "csim", f"PYTHON={sys.executable}"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


EAGER_FACTORY = '''
import hls

def make(n):
    @hls.kernel
    def total(a: hls.int32[n]) -> hls.int32:
        return a[0]
    return total

def make_local(n):
    @hls.kernel
    def local(a: hls.int32[4]) -> hls.int32:
        x: hls.int16[n] = 0
        return a[0]
    return local
'''


@pytest.mark.parametrize("n", [0, -4, 2.5])
def test_a_bad_shape_in_a_factory_is_an_hls_error_at_the_line_that_builds_the_type(tmp_path, n):
    path = tmp_path / "eager_factory.py"
    path.write_text(EAGER_FACTORY)  # no `from __future__ import annotations`: Python builds the type itself
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec", dont_inherit=True), namespace)  # noqa: S102 - our source
    with pytest.raises(hls.HLSTypeError) as info:
        namespace["make"](n)
    assert isinstance(info.value, TypeError)  # code catching Python's own error still does
    assert info.value.loc is not None and (info.value.loc.file, info.value.loc.line) == (str(path), 6)
    assert str(info.value).startswith(f"{path}:6:18: array shape must be positive integers, got {n!r}")
    assert "hls.int32[n]" in str(info.value)  # the source line under the message
    with pytest.raises(hls.HLSTypeError) as local:
        namespace["make_local"](n).compile()
    assert local.value.loc is not None and local.value.loc.line == 13
    assert "array shape must be positive integers" in local.value.message and "<string>" not in str(local.value)
