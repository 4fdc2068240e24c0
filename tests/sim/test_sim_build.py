"""The csim native-build layer: g++ -> content-addressed .so -> cffi, and its cache's safety rules."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from hls.errors import CompileError, HLSError
from hls.sim.build import MANIFEST, build_shared_library, load_library
from hls.sim.cache import cache_root
from hls.sim.pch import wait_for_background
from hls.sim.toolchain import ap_include_dir, compiler, toolchain_identity

REPO = Path(__file__).resolve().parents[2]

# Plain C++ for the cache mechanics (no ap_types, so no precompiled header and a quick compile);
# AP_SOURCES computes the same with ap_int<9> on top of the PCH.
HEADER = """#pragma once
extern "C" int add9(int a, int b);
extern "C" void add9_all(int *x, int n, int b);
"""
KERNEL = """#include "kernel.h"
#pragma HLS inline off
int add9(int a, int b) { int x = a & 511; if (x > 255) x -= 512; return x + b; }
"""
BRIDGE = """#include "kernel.h"
void add9_all(int *x, int n, int b) { for (int i = 0; i < n; ++i) x[i] = add9(x[i], b); }
"""
SOURCES = {"kernel.h": HEADER, "kernel.cpp": KERNEL, "bridge.cpp": BRIDGE}
AP_SOURCES = {
    "kernel.h": HEADER.replace("#pragma once\n", '#pragma once\n#include "ap_int.h"\n'),
    "kernel.cpp": KERNEL.replace("int x = a & 511; if (x > 255) x -= 512; return x + b;",
                                 "ap_int<9> x = a; return (x + b).to_int();"),
    "bridge.cpp": BRIDGE,
}
CDEF = "int add9(int a, int b); void add9_all(int *x, int n, int b);"

# A child process that builds SOURCES (read from argv as JSON) and prints the library path.
CHILD = (
    "import json, sys\n"
    "from hls.sim.build import build_shared_library as build\n"
    "print(build(json.loads(sys.argv[1])))\n"
)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own private cache dir."""
    root = tmp_path / "cache"
    monkeypatch.setenv("HLS_CACHE_DIR", str(root))
    return root


def child_env() -> dict[str, str]:
    """The current environment (with monkeypatched HLS_*), plus the repo on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def test_add9_via_cffi_zero_copy(compiles: Callable[..., int]) -> None:
    assert "ap_int<9>" in AP_SOURCES["kernel.cpp"] and "ap_int.h" in AP_SOURCES["kernel.h"]
    lib_path = build_shared_library(AP_SOURCES, tag="add9")
    assert compiles() == 1 and compiles("c++-header") == 1
    assert lib_path.name.startswith("libadd9_") and lib_path.suffix == ".so"
    assert lib_path.parent.parent.parent == cache_root()
    assert {"kernel.h", "kernel.cpp", "bridge.cpp", MANIFEST} <= set(os.listdir(lib_path.parent))
    ffi, lib = load_library(lib_path, CDEF)
    assert lib.add9(300, 1) == -211  # 300 wraps to -212 in ap_int<9>, then widens for the +
    x = np.array([300, 255, 256, -256, -257, 7], dtype=np.int32)
    lib.add9_all(ffi.cast("int *", ffi.from_buffer(x)), len(x), 0)
    assert x.tolist() == [-212, 255, -256, -256, 255, 7]  # written in place: no copy was made
    assert load_library(lib_path, CDEF) == (ffi, lib)
    # The real ap_types PCH (built beside the first library) is force-included into the next build and
    # accepted: g++ warns (-Winvalid-pch) when it is not.
    next_path = build_shared_library({**AP_SOURCES, "kernel.cpp": AP_SOURCES["kernel.cpp"] + "// next\n"}, tag="add9")
    manifest = json.loads((next_path.parent / MANIFEST).read_text())
    assert "-Winvalid-pch" in manifest["argv"] and "-include" in manifest["argv"]
    assert "pch" not in manifest["compiler_output"].lower()


def test_cache_hit_in_new_process_does_not_compile(compiles: Callable[..., int]) -> None:
    first = build_shared_library(SOURCES)
    assert build_shared_library(SOURCES) == first
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(SOURCES)],
        capture_output=True,
        text=True,
        env=child_env(),
        check=True,
    )
    assert Path(proc.stdout.strip()) == first
    assert compiles() == 1


def test_changed_source_gives_new_path_and_behaviour(compiles: Callable[..., int]) -> None:
    old = build_shared_library(SOURCES)
    _, lib_old = load_library(old, CDEF)
    assert lib_old.add9(3, 4) == 7
    changed = {**SOURCES, "kernel.cpp": KERNEL.replace("x + b", "x - b")}
    new = build_shared_library(changed)
    assert new != old and new.parent != old.parent
    _, lib_new = load_library(new, CDEF)
    assert lib_new.add9(3, 4) == -1
    assert lib_old.add9(3, 4) == 7
    assert compiles() == 2


def test_truncated_library_is_rebuilt(compiles: Callable[..., int]) -> None:
    path = build_shared_library(SOURCES)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)
    assert build_shared_library(SOURCES) == path
    assert compiles() == 2 and path.stat().st_size == size
    (path.parent / MANIFEST).write_text("{not json")
    assert build_shared_library(SOURCES) == path
    assert compiles() == 3
    _, lib = load_library(path, CDEF)
    assert lib.add9(1, 2) == 3


def test_concurrent_builds_of_one_key(compiles: Callable[..., int]) -> None:
    sources = {**AP_SOURCES, "kernel.cpp": AP_SOURCES["kernel.cpp"] + "// concurrent\n"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, json.dumps(sources)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(),
        )
        for _ in range(8)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err for _, err in results]
    paths = {Path(out.strip()) for out, _ in results}
    assert len(paths) == 1
    (path,) = paths
    assert compiles() == 1 and compiles("c++-header") == 1
    keys = [d for top in cache_root().iterdir() if top.name != "pch" for d in top.iterdir()]
    assert keys == [path.parent]
    names = os.listdir(path.parent)
    assert [n for n in names if n.endswith(".so")] == [path.name]
    assert not [n for n in names if n.endswith(".tmp")]
    _, lib = load_library(path, CDEF)
    assert lib.add9(255, 1) == 256


def test_compile_error_carries_output_and_path(compiles: Callable[..., int]) -> None:
    bad = {**SOURCES, "kernel.cpp": KERNEL + "int broken( { return 1; }\n"}
    with pytest.raises(CompileError) as info:
        build_shared_library(bad)
    err = info.value
    assert err.path is not None and err.path.endswith("kernel.cpp") and Path(err.path).is_file()
    assert "error:" in err.output and f"{err.path}:4" in err.output
    assert err.path in str(err) and "error:" in str(err)
    assert not list(Path(err.path).parent.glob("*.so"))
    assert not (Path(err.path).parent / MANIFEST).exists()


def test_allowed_extra_flags_reach_the_compiler(compiles: Callable[..., int]) -> None:
    sources = {"kernel.cpp": 'extern "C" int val() { return VAL + 1; }\n'}
    path = build_shared_library(sources, extra_flags=["-DVAL=41", "-O0", "-g", "-UNDEBUG"])
    _, lib = load_library(path, "int val(void);")
    assert lib.val() == 42
    other = build_shared_library(sources, extra_flags=["-DVAL=1"])
    assert other != path and load_library(other, "int val(void);")[1].val() == 2


@pytest.mark.parametrize(
    "flag",
    [
        "@opts.rsp",
        "-fplugin=/tmp/p.so",
        "-B/tmp",
        "-B",
        "-specs=/tmp/s",
        "-Wl,-rpath,/tmp",
        "-I/tmp",
        "-o/tmp/x",
        "-O4",
        "-Ofast",
        "-march=native",
        "-D1X",
        "-DX\nY",
        "-fsanitize=thread",
        "-include/etc/passwd",
        "",
    ],
)
def test_disallowed_extra_flag_is_refused(flag: str, compiles: Callable[..., int]) -> None:
    with pytest.raises(HLSError, match="not allowed"):
        build_shared_library(SOURCES, extra_flags=[flag])
    assert compiles() == 0


@pytest.mark.parametrize(
    ("sources", "tag"),
    [
        ({"../kernel.cpp": KERNEL}, "k"),
        ({"/tmp/kernel.cpp": KERNEL}, "k"),
        ({"-kernel.cpp": KERNEL}, "k"),
        ({"kernel.cpp\n": KERNEL}, "k"),
        ({"kernel.hpp": HEADER, "kernel.cpp": KERNEL}, "k"),
        ({"kernel.h": HEADER}, "k"),
        ({}, "k"),
        (SOURCES, "../x"),
        (SOURCES, ""),
    ],
)
def test_bad_names_are_refused(sources: dict[str, str], tag: str) -> None:
    with pytest.raises(HLSError):
        build_shared_library(sources, tag=tag)


def test_flags_must_be_a_sequence() -> None:
    with pytest.raises(HLSError, match="sequence"):
        build_shared_library(SOURCES, extra_flags="-O0")


def test_unsafe_cache_dirs_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    for mode in (0o770, 0o707, 0o777):
        shared.chmod(mode)
        monkeypatch.setenv("HLS_CACHE_DIR", str(shared))
        with pytest.raises(HLSError, match="writable by group or others"):
            build_shared_library(SOURCES)
    good = tmp_path / "good"
    good.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(good)
    monkeypatch.setenv("HLS_CACHE_DIR", str(link))
    with pytest.raises(HLSError, match="symlink"):
        cache_root()
    assert os.listdir(good) == []


def test_default_cache_dir_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HLS_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = cache_root()
    assert root == tmp_path / "home" / ".cache" / "hls"
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "hls"


def test_nothing_written_outside_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, scratch = tmp_path / "home", tmp_path / "scratch"
    home.mkdir()
    scratch.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    # AP_SOURCES: the precompiled header's build must keep its scratch files in the cache too.
    path = build_shared_library({**AP_SOURCES, "kernel.cpp": AP_SOURCES["kernel.cpp"] + "// isolated\n"})
    wait_for_background()
    assert list((tmp_path / "cache" / "pch").glob("*/*/hls_pch.h.gch"))
    load_library(path, CDEF)
    assert os.listdir(home) == [] and os.listdir(scratch) == []
    assert path.is_relative_to(tmp_path / "cache")


def test_toolchain_lookup_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (ap_include_dir() / "ap_int.h").is_file()
    ident = toolchain_identity()
    assert len(ident) == 64 and ident == toolchain_identity()
    monkeypatch.setenv("XILINX_HLS", str(tmp_path))
    with pytest.raises(HLSError, match="ap_int.h"):
        ap_include_dir()
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "ap_int.h").write_text("// stand-in\n")
    assert ap_include_dir() == tmp_path / "include"
    assert toolchain_identity() != ident
    monkeypatch.delenv("XILINX_HLS")
    monkeypatch.setenv("HLS_CXX", "no-such-compiler-xyz --flag")
    with pytest.raises(HLSError, match="not found"):
        compiler()


INC = {"kernel.cpp": 'extern "C" int inc(int a) { return a + 1; }\n'}


def test_ubsan_catches_signed_overflow_in_process(capfd: pytest.CaptureFixture[str]) -> None:
    # Guards the flag choice: without -fwrapv, signed overflow stays UB that the sanitizer can see.
    path = build_shared_library(INC, extra_flags=["-fsanitize=undefined", "-fno-omit-frame-pointer"])
    _, lib = load_library(path, "int inc(int a);")
    assert lib.inc(41) == 42
    lib.inc(2**31 - 1)
    assert "signed integer overflow" in capfd.readouterr().err


def test_asan_library_is_not_dlopened_without_runtime() -> None:
    if "libasan" in Path("/proc/self/maps").read_text():
        pytest.skip("this interpreter already has the ASan runtime")
    path = build_shared_library(INC, extra_flags=["-fsanitize=address,undefined"])
    with pytest.raises(HLSError, match="LD_PRELOAD"):
        load_library(path, "int inc(int a);")
