"""Generated names never collide with C++ keywords, reserved identifiers, header names or each other."""

import re

import numpy as np

from hls.backend.names import CPP_KEYWORDS, Namer, sanitize
from tests.kernels import naming_kernels as nk


def identifiers(cpp: str) -> set[str]:
    code = "\n".join(line for line in cpp.splitlines() if not line.lstrip().startswith(("#", "//")))
    return set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", code))


def test_keywords_and_reserved_names_are_renamed_and_verify():
    a = np.arange(8, dtype=np.int32)
    nk.new.verify(a, np.zeros(8, np.int32), 3)
    nk.new.verify(a, np.zeros(8, np.int32), 0)
    cpp = nk.new.cpp
    assert "void new_v(" in cpp
    names = identifiers(cpp)
    for bad in ("char", "delete", "auto", "double", "std", "main", "__x", "_Y", "new"):
        assert bad not in names, bad
    assert not any("__" in name for name in identifiers(cpp))


def test_kernel_named_main_calls_kernel_named_like_a_keyword():
    a = np.arange(4, dtype=np.int16)
    result = nk.main.verify(a, np.zeros(4, np.int16))
    assert result["return"] == 6
    cpp = nk.main.cpp
    assert "main_v(" in cpp and "class_v(" in cpp
    assert re.search(r"\bint32_t main\(", cpp) is None


def test_namer_rules():
    namer = Namer()
    names = [namer.fresh(n) for n in ("x", "x", "int", "__a__", "_B", "hls_min", "9lives", "x_1", "")]
    assert len(set(names)) == len(names)
    for name in names:
        assert name not in CPP_KEYWORDS and "__" not in name and not name.startswith("_")
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name)
    assert sanitize("ap_fixed") == "ap_fixed_v" and sanitize("std") == "std_v"
