"""Which C++ compiler, flags and ap_* headers C-simulation uses, and a hash that identifies them.

Everything here feeds the content-addressed csim cache, so anything that can change the
compiled code (compiler binary, flags, header contents) must be part of `toolchain_identity()`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from hls.errors import HLSError

# Flags the kernel is compiled with for csim; exported projects reuse them (minus -fPIC/-shared).
#  -std=c++14            the dialect Vitis HLS csim defaults to; the generated C++ targets it.
#  -O1                   chosen by bench/csim_opt_levels.py (all examples, compiler CPU time, on the PCH):
#                        builds 4 % quicker than -O2 and runs as fast; -O0 builds 2 % quicker than -O1 but
#                        runs 3-6x slower. Generated code is UB-free, so the level cannot change results.
#  -ffp-contract=off     no a*b+c -> fma fusion: numpy rounds each op, so must we (PITFALLS row 18).
#  -fno-fast-math        explicit IEEE semantics even if someone's specs/defaults say otherwise.
#  -Wno-unknown-pragmas  `#pragma HLS ...` lines are for Vitis; g++ should not warn about them.
# Deliberately absent:
#  -fwrapv               would define signed overflow and hide UB the sanitizer tests must catch.
#  -fno-strict-aliasing  the ap_* headers pun only through unions (a documented GCC extension) and the
#                        generated code never casts pointers between types, so it buys nothing.
#  -march=native         would let results and cache entries depend on the build host's CPU.
CSIM_CXXFLAGS: tuple[str, ...] = (
    "-std=c++14",
    "-O1",
    "-ffp-contract=off",
    "-fno-fast-math",
    "-Wno-unknown-pragmas",
)

_HLS4ML_AP_TYPES = ("hls4ml", "templates", "vivado", "ap_types")

# Variables through which g++ silently adds include dirs or swaps the programs it runs; they are
# removed so the include path stays fixed and the cache key describes the whole build.
_GCC_ENV_VARS = (
    "CPATH",
    "C_INCLUDE_PATH",
    "CPLUS_INCLUDE_PATH",
    "OBJC_INCLUDE_PATH",
    "GCC_EXEC_PREFIX",
    "COMPILER_PATH",
    "LIBRARY_PATH",
    "DEPENDENCIES_OUTPUT",
    "SUNPRO_DEPENDENCIES",
    "GCC_COMPARE_DEBUG",
)


def ap_include_dir() -> Path:
    """The directory holding ap_int.h & co: `$XILINX_HLS/include`, else the hls4ml wheel's copy."""
    xilinx = os.environ.get("XILINX_HLS")
    if xilinx:
        inc = Path(xilinx).expanduser() / "include"
        if not (inc / "ap_int.h").is_file():
            raise HLSError(
                f"XILINX_HLS is set to {xilinx!r} but {inc} has no ap_int.h; "
                "point XILINX_HLS at a Vitis HLS installation or unset it to use hls4ml's headers"
            )
        return inc
    inc = _hls4ml_ap_types()
    if inc is None:
        raise HLSError(
            "C-simulation needs the ap_int.h/ap_fixed.h headers: install them with "
            "`pip install hls4ml` (only its headers are used) or set XILINX_HLS to a Vitis HLS installation"
        )
    return inc


def own_include_dir() -> Path:
    """This project's csim headers (hls_stream.h, hls_csim.h), written here and shipped as package data."""
    return Path(__file__).resolve().parent / "include"


def own_headers() -> list[str]:
    """This project's own csim headers (streams, tasks, channels, blocks, AXI side data): an export that
    uses streams carries them all, so one more header is never a list to update."""
    return sorted(p.name for p in own_include_dir().glob("*.h"))


def include_dirs() -> list[Path]:
    """The csim include path. Ours comes first unless Vitis is installed: the hls4ml folder that holds
    ap_int.h also holds a proprietary hls_stream.h, which must never be picked up; with $XILINX_HLS,
    Vitis's own hls_stream.h wins and ours only adds hls_csim.h."""
    ap = ap_include_dir()
    return [ap, own_include_dir()] if os.environ.get("XILINX_HLS") else [own_include_dir(), ap]


@functools.lru_cache(maxsize=1)
def _hls4ml_ap_types() -> Path | None:
    """Locate hls4ml's ap_types via package metadata; importing hls4ml would pull in its ML stack."""
    try:
        dist = importlib.metadata.distribution("hls4ml")
    except importlib.metadata.PackageNotFoundError:
        return None
    candidates: list[Path] = []
    for f in dist.files or ():
        if f.name == "ap_int.h" and tuple(f.parts[:-1]) == _HLS4ML_AP_TYPES:
            candidates.append(Path(str(dist.locate_file(f))).parent)
    candidates.append(Path(str(dist.locate_file("/".join(_HLS4ML_AP_TYPES)))))
    for inc in candidates:
        if (inc / "ap_int.h").is_file():
            return inc
    return None


def compiler() -> list[str]:
    """The compiler argv prefix from `$HLS_CXX` (default g++), with the program resolved on PATH."""
    spec = os.environ.get("HLS_CXX", "").strip() or "g++"
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise HLSError(f"HLS_CXX={spec!r} cannot be parsed: {exc}") from exc
    if not argv:
        raise HLSError("HLS_CXX is empty")
    exe = shutil.which(argv[0])
    if exe is None:
        raise HLSError(
            f"C++ compiler {argv[0]!r} not found (from HLS_CXX, default g++); "
            "install g++ or set HLS_CXX to a C++14 compiler"
        )
    return [os.path.abspath(exe), *argv[1:]]


def compiler_env() -> dict[str, str]:
    """The environment for compiler runs: C locale for stable messages, no include/program overrides."""
    env = {k: v for k, v in os.environ.items() if k not in _GCC_ENV_VARS}
    env["LC_ALL"] = "C"
    return env


def link_flags() -> tuple[str, ...]:
    """`-shared`, plus gold when installed: it links a csim library in a third of ld.bfd's time."""
    return ("-shared", *(("-fuse-ld=gold",) if _has_gold() else ()))


@functools.lru_cache(maxsize=1)
def _has_gold() -> bool:
    return shutil.which("ld.gold") is not None


def absolute_arg(path: Path) -> str:
    """Paths go to g++ only in absolute form, so none can be read as an option or an @response-file."""
    text = str(path)
    if not os.path.isabs(text):
        raise HLSError(f"internal error: build path {text!r} is not absolute")
    return text


def run_compiler(argv: list[str], cwd: Path, nice: int = 0) -> tuple[int, str]:
    """Run one compiler command in `cwd` (its scratch files stay there too); return (exit code, output).

    `nice` lowers its priority (a background build). Raises OSError when the compiler cannot be started.
    """
    proc = subprocess.run(
        [*(["nice", "-n", str(nice)] if nice and shutil.which("nice") else []), *argv],
        shell=False,
        cwd=cwd,
        env={**compiler_env(), "TMPDIR": str(cwd)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    return proc.returncode, (proc.stdout or "") + (proc.stderr or "")


def include_flags() -> list[str]:
    """The -I options of every csim compile and of the PCH (one list, so both always agree): this
    package's own hls_stream.h folder and the ap_types headers, in include_dirs()'s order (the
    identity below hashes both, so a change of either re-keys the cache)."""
    return ["-I" + absolute_arg(d) for d in include_dirs()]


def toolchain_identity() -> str:
    """SHA-256 naming the compiler, its version, CSIM_CXXFLAGS and every header; part of cache keys."""
    return _identity(tuple(compiler()), tuple(str(p) for p in include_dirs()))


@functools.lru_cache(maxsize=16)
def _identity(cxx: tuple[str, ...], includes: tuple[str, ...]) -> str:
    """Cached per process and per (compiler, include dir): header hashing and --version are not free."""
    h = hashlib.sha256()

    def part(label: str, data: bytes) -> None:
        h.update(f"{label}:{len(data)}:".encode())
        h.update(data)

    part("compiler", "\0".join(cxx).encode())
    part("version", _run_info([*cxx, "--version"]))
    part("machine", _run_info([*cxx, "-dumpmachine"]))
    part("flags", "\0".join(CSIM_CXXFLAGS).encode())
    for include in includes:
        root = Path(include)
        part("include", include.encode())
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            part("header", path.relative_to(root).as_posix().encode())
            part("sha256", hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def _run_info(argv: list[str]) -> bytes:
    """Run a compiler query (--version, -dumpmachine) and return its stdout, or raise HLSError."""
    try:
        proc = subprocess.run(
            argv, capture_output=True, stdin=subprocess.DEVNULL, env=compiler_env(), timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HLSError(f"cannot run the C++ compiler {shlex.join(argv)}: {exc}") from exc
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip()
        raise HLSError(f"`{shlex.join(argv)}` failed (exit {proc.returncode}): {err}")
    return proc.stdout
