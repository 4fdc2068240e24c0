"""Names in annotations, shapes and bounds resolve as Python resolves them (issue 11, item 1)."""

from __future__ import annotations

import numpy as np

import hls
from tests import factory_kernels as fk


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
