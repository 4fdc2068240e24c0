"""Property tests: for pairs of types, every binary operator gives the same result in Python mode and
in csim, on operands drawn by hypothesis (integers and fixed point exact, floats bit-exact: one
correctly rounded IEEE operation on each side)."""

import importlib.util
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hls
from hls.types import FixedType, FloatType, IntType

N = 8
INTS = ["hls.ap_int[1]", "hls.ap_uint[1]", "hls.int7", "hls.uint7", "hls.int8", "hls.uint8", "hls.int13",
        "hls.uint16", "hls.int32", "hls.uint32", "hls.int33", "hls.int63", "hls.int64", "hls.uint64"]
FIXED = ["hls.ap_fixed[8, 4]", "hls.ap_fixed[16, 6]", "hls.ap_ufixed[12, 4]", "hls.ap_fixed[10, -2]"]
FLOATS = ["hls.float32", "hls.float64"]

INT_PAIRS = [("hls.int8", "hls.int8"), ("hls.uint8", "hls.int8"), ("hls.int32", "hls.uint32"),
             ("hls.int64", "hls.uint64"), ("hls.uint64", "hls.uint64"), ("hls.int63", "hls.int7"),
             ("hls.ap_int[1]", "hls.ap_uint[1]"), ("hls.int33", "hls.int13"), ("hls.uint16", "hls.int64"),
             ("hls.uint7", "hls.int32"), ("hls.int64", "hls.int64"), ("hls.uint32", "hls.uint32")]
FIXED_PAIRS = [("hls.ap_fixed[8, 4]", "hls.ap_fixed[16, 6]"), ("hls.ap_ufixed[12, 4]", "hls.ap_fixed[8, 4]"),
               ("hls.ap_fixed[10, -2]", "hls.int8"), ("hls.ap_fixed[16, 6]", "hls.uint7")]
FLOAT_PAIRS = [("hls.float32", "hls.float32"), ("hls.float32", "hls.float64"), ("hls.float32", "hls.int16"),
               ("hls.float64", "hls.int64"), ("hls.float32", "hls.uint32")]

INT_OPS = {"add": "a + b", "sub": "a - b", "mul": "a * b", "floordiv": "a // d", "mod": "a % d",
           "band": "a & b", "bor": "a | b", "bxor": "a ^ b", "lshift": "a << 3", "rshift": "a >> 2",
           "vlshift": "a << (b & 7)", "vrshift": "a >> (b & 7)", "min": "min(a, b)", "max": "max(a, b)",
           "neg": "-a", "inv": "~b", "abs": "abs(a)", "truediv": "a / d"}
INT_CMPS = {"lt": "a < b", "le": "a <= b", "eq": "a == b", "ge": "a >= b"}
FIXED_OPS = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / d", "min": "min(a, b)", "max": "max(a, b)",
             "neg": "-a"}
FLOAT_OPS = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / d", "min": "min(a, b)",
             "max": "max(a, b)", "neg": "-a"}


def kernel_source(name: str, ta: str, tb: str, ops: dict[str, str], cmps: dict[str, str], result: str) -> str:
    outs = "".join(f", o_{op}: {'hls.float64' if op == 'truediv' else result}[{N}]" for op in ops)
    outs += "".join(f", c_{op}: hls.bool_[{N}]" for op in cmps)
    body = [f"@hls.kernel\ndef {name}(x: {ta}[{N}], y: {tb}[{N}]{outs}):", f"    for i in range({N}):",
            "        a = x[i]", "        b = y[i]", "        d = b if b != 0 else 1"]
    wrap = "hls.int64" if result == "hls.int64" else "hls.float64"
    body += [f"        o_{op}[i] = {'hls.float64' if op == 'truediv' else wrap}({expr})"
             for op, expr in ops.items()]
    body += [f"        c_{op}[i] = {expr}" for op, expr in cmps.items()]
    return "\n".join(body) + "\n"


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    folder = tmp_path_factory.mktemp("prop")
    chunks = ["import hls\n\n"]
    names = {}
    for index, (ta, tb) in enumerate(INT_PAIRS):
        names[("int", ta, tb)] = f"k_int{index}"
        chunks.append(kernel_source(f"k_int{index}", ta, tb, INT_OPS, INT_CMPS, "hls.int64"))
    for index, (ta, tb) in enumerate(FIXED_PAIRS):
        names[("fixed", ta, tb)] = f"k_fixed{index}"
        chunks.append(kernel_source(f"k_fixed{index}", ta, tb, FIXED_OPS, INT_CMPS, "hls.float64"))
    for index, (ta, tb) in enumerate(FLOAT_PAIRS):
        names[("float", ta, tb)] = f"k_float{index}"
        chunks.append(kernel_source(f"k_float{index}", ta, tb, FLOAT_OPS, INT_CMPS, "hls.float64"))
    path = Path(folder) / "prop_kernels.py"
    path.write_text("\n\n".join(chunks))
    spec = importlib.util.spec_from_file_location("prop_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {key: getattr(module, name) for key, name in names.items()}


def values(t) -> st.SearchStrategy:
    if isinstance(t, IntType):
        edges = [t.min, t.max, 0, -1 if t.signed else 1, t.min + 1 if t.width > 1 else t.min]
        return st.one_of(st.sampled_from(edges), st.integers(t.min, t.max))
    if isinstance(t, FixedType):
        return st.integers(t.raw_min, t.raw_max).map(lambda raw: float(raw * t.lsb))
    bits = t.bits
    return st.floats(-1e6, 1e6, allow_nan=False, width=bits).filter(lambda v: v != 0)


def arrays(t) -> st.SearchStrategy:
    return st.lists(values(t), min_size=N, max_size=N).map(lambda v: np.array(v, dtype=t.storage_dtype))


def check(kernel, ta, tb, data) -> None:
    a = data.draw(arrays(ta))
    b = data.draw(arrays(tb))
    outputs = [np.zeros(N, p.type.elem.storage_dtype) for p in kernel.compile().design.ports[2:]]
    kernel.verify(a, b, *outputs, rtol=0, atol=0)


def resolve(name: str):
    return eval(name, {"hls": hls})  # a fixed list of type expressions written above


PAIRS = [("int", *p) for p in INT_PAIRS] + [("fixed", *p) for p in FIXED_PAIRS] + \
    [("float", *p) for p in FLOAT_PAIRS]


@pytest.mark.parametrize("kind,ta,tb", PAIRS, ids=[f"{k}:{a}:{b}" for k, a, b in PAIRS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_binary_operators_match(kernels, kind, ta, tb, data):
    check(kernels[(kind, ta, tb)], resolve(ta), resolve(tb), data)


def test_type_lists_cover_the_families():
    kinds = {type(resolve(t)) for t in itertools.chain(INTS, FIXED, FLOATS)}
    assert kinds == {IntType, FixedType, FloatType}
