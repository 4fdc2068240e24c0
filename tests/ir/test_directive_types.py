"""Directives are frozen dataclasses whose fields are the statement's options: the IR holds them as
typed loop fields and directive ops, and the pragma text is read from their fields."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

import hls
from hls.backend.cpp.pragmas import directive_pragma, loop_pragmas
from hls.ir import DirectiveOp, ForOp
from hls.lang.directives import (
    DIRECTIVE_TYPES,
    DIRECTIVES,
    LOOP_DIRECTIVES,
    LOOP_FIELDS,
    Interface,
    Partition,
    Pipeline,
)


@pytest.mark.parametrize("name", sorted(DIRECTIVE_TYPES))
def test_dataclass_fields_are_the_statement_options(name):
    statement = inspect.signature(DIRECTIVES[name]).parameters
    fields = inspect.signature(DIRECTIVE_TYPES[name]).parameters
    assert [p for p in statement if p != "var"] == list(fields)
    assert all(statement[p].default == fields[p].default for p in fields if statement[p].default is not inspect._empty)
    assert DIRECTIVE_TYPES[name].name == name


def test_directives_are_frozen_and_render_their_pragmas():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Pipeline(ii=2).ii = 3  # type: ignore[misc]
    assert directive_pragma(Partition("cyclic", 4, 2), "buf") == "#pragma HLS array_partition variable=buf " \
        "type=cyclic factor=4 dim=2"
    assert directive_pragma(Interface("m_axi", bundle="g", depth=8), "a") == \
        "#pragma HLS interface mode=m_axi port=a bundle=g depth=8"
    assert loop_pragmas({"pipeline": Pipeline(ii=1, rewind=True)}) == ["#pragma HLS pipeline II=1 rewind"]
    assert set(LOOP_FIELDS) == set(LOOP_DIRECTIVES)


def test_kernel_directives_become_typed_fields():
    @hls.kernel
    def k(a: hls.int32[16]) -> hls.int32:
        hls.interface(a, "ap_memory")
        hls.array_partition(a, "cyclic", factor=2)
        acc = hls.int32(0)
        for i in range(16):
            hls.pipeline(ii=2)
            hls.loop_tripcount(min=16, max=16)
            acc += a[i]
        return acc

    func = k.compile().module.functions["k"]
    loop = next(op for op in func.walk() if isinstance(op, ForOp))
    assert loop.pipeline == Pipeline(ii=2) and loop.tripcount.max == 16 and loop.unroll is None
    directives = [op.directive for op in func.walk() if isinstance(op, DirectiveOp)]
    assert directives == [Interface("ap_memory"), Partition("cyclic", 2, 1)]
    assert "pipeline={ii=2}" in k.ir and "#pragma HLS pipeline II=2" in k.cpp
