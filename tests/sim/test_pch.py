"""The precompiled ap_types header: built once per compiler/flags/headers, really used, rebuilt when bad.

Stand-in ap_int.h/ap_fixed.h (through XILINX_HLS) keep each PCH build to a fraction of a second; the
stand-in announces itself with `#pragma message`, which g++ prints only when it parses the text, so
a library build whose output lacks the message took its declarations from the .gch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hls.errors import CompileError
from hls.sim.build import MANIFEST, build_shared_library, load_library
from hls.sim.cache import cache_root
from tests.sim.test_sim_build import CHILD, child_env

STAND_IN = """#pragma once
#pragma message "parsing the stand-in ap_int.h"
template <int W> struct ap_int {
    long long v;
    ap_int(long long x) : v(x) {}
    int to_int() const { return (int)v; }
};
"""
PARSED = "parsing the stand-in ap_int.h"


def kernel(n: int, body: str = "") -> dict[str, str]:
    """Sources of a distinct kernel (n) that includes the ap headers, so it gets the PCH."""
    return {
        "kernel.h": '#pragma once\n#include "ap_int.h"\nextern "C" int f(int a);\n',
        "kernel.cpp": f'#include "kernel.h"\nint f(int a) {{ ap_int<8> x = a; return x.to_int() + {n}; }}\n{body}',
    }


@pytest.fixture(autouse=True)
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache and stand-in ap_types headers; returns the header dir."""
    inc = tmp_path / "xilinx" / "include"
    inc.mkdir(parents=True)
    (inc / "ap_int.h").write_text(STAND_IN)
    (inc / "ap_fixed.h").write_text('#pragma once\n#include "ap_int.h"\n')
    monkeypatch.setenv("XILINX_HLS", str(inc.parent))
    monkeypatch.setenv("HLS_CACHE_DIR", str(tmp_path / "cache"))
    return inc


def gch_files() -> list[Path]:
    return sorted((cache_root() / "pch").glob("*/*/hls_pch.h.gch"))


def output_of(lib: Path) -> str:
    return json.loads((lib.parent / MANIFEST).read_text())["compiler_output"]


def build_in_child(sources: dict[str, str]) -> Path:
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(sources)], capture_output=True, text=True,
                          env=child_env(), check=True)
    return Path(proc.stdout.strip())


def test_pch_is_built_once_and_used(compiles: Callable[..., int]) -> None:
    """The first build of a new cache compiles the headers as text (it never waits for the PCH, which
    builds beside it); the builds after it, in this process or another, use the PCH."""
    first = build_shared_library(kernel(1))
    assert "-include" not in json.loads((first.parent / MANIFEST).read_text())["argv"]
    second = build_shared_library(kernel(2))
    third = build_in_child(kernel(3))
    assert compiles() == 3 and compiles("c++-header") == 1 and len(gch_files()) == 1
    assert [load_library(p, "int f(int a);")[1].f(5) for p in (first, second, third)] == [6, 7, 8]
    assert PARSED in output_of(first)
    for lib in (second, third):
        assert PARSED not in output_of(lib)
    pch_manifest = json.loads((gch_files()[0].parent / "manifest.json").read_text())
    assert PARSED in pch_manifest["compiler_output"]


def test_plain_or_configuring_sources_get_no_pch(compiles: Callable[..., int]) -> None:
    lib = build_shared_library({"kernel.cpp": 'extern "C" int f(int a) { return a; }\n'})
    configured = kernel(1)
    configured["kernel.h"] = "#define AP_INT_MAX_W 2048\n" + configured["kernel.h"]  # must precede ap_int.h
    other = build_shared_library(configured)
    assert compiles() == 2 and compiles("c++-header") == 0 and gch_files() == []
    for path in (lib, other):
        assert "-include" not in json.loads((path.parent / MANIFEST).read_text())["argv"]
    assert PARSED in output_of(other)


def test_flag_and_header_changes_rebuild_the_pch(compiles: Callable[..., int], stand_in: Path) -> None:
    build_shared_library(kernel(1))
    build_shared_library(kernel(1), extra_flags=["-DHLS_TEST_FLAG=1"])
    assert compiles("c++-header") == 2 and len(gch_files()) == 2
    flagged = build_shared_library(kernel(2), extra_flags=["-DHLS_TEST_FLAG=1"])
    assert PARSED not in output_of(flagged)
    (stand_in / "ap_int.h").write_text(STAND_IN.replace("long long v;", "long long v;  // changed"))
    build_in_child(kernel(1))  # a new process hashes the headers afresh (and waits for its PCH at exit)
    assert compiles("c++-header") == 3 and len(gch_files()) == 3
    assert PARSED not in output_of(build_in_child(kernel(2)))


def test_corrupted_pch_is_rebuilt(compiles: Callable[..., int]) -> None:
    """A bad .gch is never used: the build compiles the headers as text and the PCH is built again."""
    build_shared_library(kernel(1))
    assert compiles("c++-header") == 1
    (gch,) = gch_files()
    size = gch.stat().st_size
    with open(gch, "r+b") as f:
        f.truncate(size // 2)
    lib = build_shared_library(kernel(2))
    assert PARSED in output_of(lib) and load_library(lib, "int f(int a);")[1].f(1) == 3
    assert compiles("c++-header") == 2  # (waits for the rebuild beside it)
    size = gch.stat().st_size
    assert size == json.loads((gch.parent / "manifest.json").read_text())["size"]
    gch.write_bytes(b"\0" * size)  # same size, other content: the recorded SHA-256 catches it
    lib = build_shared_library(kernel(3))
    assert compiles("c++-header") == 3 and load_library(lib, "int f(int a);")[1].f(1) == 4
    assert PARSED not in output_of(build_shared_library(kernel(5)))
    (gch.parent / "manifest.json").write_text("{broken")
    build_shared_library(kernel(4))
    assert compiles("c++-header") == 4 and compiles() == 5


def test_compile_error_with_pch_names_the_kernel_file(compiles: Callable[..., int]) -> None:
    with pytest.raises(CompileError) as info:
        build_shared_library(kernel(1, body="int broken( { return 1; }\n"))
    err = info.value
    assert err.path is not None and err.path.endswith("kernel.cpp") and Path(err.path).is_file()
    assert f"{err.path}:3" in err.output and "error:" in err.output
    assert compiles("c++-header") == 1


def test_concurrent_first_builds_make_one_pch(compiles: Callable[..., int]) -> None:
    """Two processes that start on a new cache at once: both compile their kernel without waiting, the
    header is built once (the second finds the lock held and does not build it too), and it is used after."""
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(kernel(n))], stdout=subprocess.PIPE,
                              text=True, env=child_env()) for n in (1, 2)]
    libs = [Path(p.communicate()[0].strip()) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert [load_library(p, "int f(int a);")[1].f(1) for p in libs] == [2, 3]
    assert compiles() == 2 and compiles("c++-header") == 1 and len(gch_files()) == 1
    assert PARSED not in output_of(build_shared_library(kernel(3)))
