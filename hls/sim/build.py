"""Compile generated C++ into a content-addressed shared library and load it through cffi.

The library's file name carries the content hash: dlopen of a path that is already loaded returns
the old code, so a changed kernel must get a new path and nothing is ever overwritten in place.
A JSON manifest written last records the library's SHA-256; a library is only returned when the
file still matches it, so a truncated or half-written artefact is rebuilt instead of loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cffi

from hls import progress
from hls.errors import CompileError, HLSError
from hls.sim.cache import cache_root, exclusive, make_private_dir, sha256_file, write_atomic
from hls.sim.pch import precompiled_header, wants_pch
from hls.sim.toolchain import (
    CSIM_CXXFLAGS,
    absolute_arg,
    compiler,
    include_flags,
    link_flags,
    run_compiler,
    toolchain_identity,
)

MANIFEST = "manifest.json"
# Bump when the artefact layout or the argv shape changes, so old entries are never reused.
_FORMAT = "hls-sim-build/2"
# All .cpp sources are #included into this one file (a name no source can have): one parse of the headers.
UNITY = "hls-unity.cpp"

_TAG_RE = re.compile(r"[A-Za-z0-9_]+")
_SOURCE_RE = re.compile(r"[A-Za-z0-9_]+\.(?:cpp|h)")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# Only flags that cannot run other programs, load plugins, read response files or reach the linker.
_ALLOWED_FLAGS = (
    re.compile(rf"-D{_IDENT}(?:=[\x20-\x7e]*)?"),
    re.compile(rf"-U{_IDENT}"),
    re.compile(r"-O[0-3]"),
    re.compile(r"-g"),
    re.compile(r"-fsanitize=(?:address|undefined|address,undefined|undefined,address)"),
    re.compile(r"-fno-omit-frame-pointer"),
)
_ALLOWED_TEXT = (
    "-D<NAME>[=value], -U<NAME>, -O0..-O3, -g, "
    "-fsanitize=address|undefined|address,undefined, -fno-omit-frame-pointer"
)


def check_extra_flags(extra_flags: Sequence[str]) -> tuple[str, ...]:
    """Validate user-supplied compiler flags against the allowlist; return them as a tuple."""
    if isinstance(extra_flags, (str, bytes)):
        raise HLSError(f"extra_flags must be a sequence of flags, not the string {extra_flags!r}")
    flags = tuple(extra_flags)
    for flag in flags:
        if not isinstance(flag, str) or not any(p.fullmatch(flag) for p in _ALLOWED_FLAGS):
            raise HLSError(f"compiler flag {flag!r} is not allowed; allowed flags: {_ALLOWED_TEXT}")
    return flags


def _check_inputs(sources: Mapping[str, str], tag: str) -> None:
    """Reject tags and file names that could escape the artefact dir or be parsed as options."""
    if not isinstance(tag, str) or not _TAG_RE.fullmatch(tag):
        raise HLSError(f"library tag {tag!r} must match [A-Za-z0-9_]+")
    if not sources:
        raise HLSError("no sources to compile")
    for name, text in sources.items():
        if not isinstance(name, str) or not _SOURCE_RE.fullmatch(name):
            raise HLSError(f"source file name {name!r} must match [A-Za-z0-9_]+\\.(cpp|h)")
        if not isinstance(text, str):
            raise HLSError(f"source {name!r} must map to C++ text (str)")
    if not any(name.endswith(".cpp") for name in sources):
        raise HLSError("sources contain no .cpp file to compile")


def cache_key(sources: Mapping[str, str], extra_flags: Sequence[str] = (), tag: str = "k") -> str:
    """SHA-256 over everything that determines the library: toolchain, flags, tag and sources."""
    doc = {
        "format": _FORMAT,
        "toolchain": toolchain_identity(),
        "flags": [*CSIM_CXXFLAGS, "-fPIC", *link_flags(), *extra_flags],
        "tag": tag,
        "sources": sorted(sources.items()),
    }
    blob = json.dumps(doc, ensure_ascii=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def build_shared_library(
    sources: Mapping[str, str], *, extra_flags: Sequence[str] = (), tag: str = "k"
) -> Path:
    """Return the path of `lib<tag>_<hash>.so` built from `sources`, compiling only on a cache miss."""
    flags = check_extra_flags(extra_flags)
    _check_inputs(sources, tag)
    key = cache_key(sources, flags, tag)
    art = cache_root() / key[:2] / key
    lib = art / f"lib{tag}_{key[:16]}.so"
    if _verified(art, lib):
        return lib
    make_private_dir(art.parent, "cache directory")
    make_private_dir(art, "cache directory")
    with exclusive(art / ".lock"):
        # Another process may have finished the same build while we waited for the lock.
        if not _verified(art, lib):
            with progress.task("compiling the C++ for csim (g++)"):
                _compile(art, lib, sources, flags, key)
    return lib


def _verified(art: Path, lib: Path) -> bool:
    """True when the manifest exists, names `lib`, and records the SHA-256 the file has now."""
    try:
        manifest = json.loads((art / MANIFEST).read_text(encoding="utf-8"))
        if not isinstance(manifest, dict) or manifest.get("library") != lib.name:
            return False
        return manifest.get("sha256") == sha256_file(lib)
    except (OSError, ValueError):
        return False


def _compile(art: Path, lib: Path, sources: Mapping[str, str], flags: tuple[str, ...], key: str) -> None:
    """Build the library: one translation unit of every .cpp, on top of the precompiled ap_types header.

    The compiler runs once (plus once per new flag set for the PCH); the result goes to a temp file,
    is published by rename, and the manifest is written last.
    """
    for name, text in sources.items():
        write_atomic(art / name, text)
    cpps = [name for name in sources if name.endswith(".cpp")]
    write_atomic(art / UNITY, "".join(f'#include "{name}"\n' for name in cpps))
    # Errors point the user at the kernel: "kernel.cpp" by convention, else the first .cpp given.
    main = art / next((n for n in cpps if n == "kernel.cpp"), cpps[0])
    compile_flags = [*CSIM_CXXFLAGS, "-fPIC", *flags]  # the PCH's flags: -shared and the linker do not matter
    pch = precompiled_header(compile_flags) if wants_pch(sources) else None
    fd, tmp_name = tempfile.mkstemp(dir=art, prefix=f".{lib.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    argv = [
        *compiler(),
        *compile_flags,
        *link_flags(),
        *(["-Winvalid-pch", "-include", absolute_arg(pch)] if pch else []),
        *include_flags(),
        "-I" + absolute_arg(art),
        absolute_arg(art / UNITY),
        "-o",
        absolute_arg(tmp),
    ]
    try:
        try:
            code, output = run_compiler(argv, art)
        except OSError as exc:
            raise CompileError(f"cannot run the C++ compiler: {exc}", path=str(main)) from exc
        if code != 0 or not tmp.is_file() or tmp.stat().st_size == 0:
            raise CompileError(f"C++ compilation failed (exit code {code})", output=output, path=str(main))
        digest = sha256_file(tmp)
        os.replace(tmp, lib)
    finally:
        tmp.unlink(missing_ok=True)
    manifest = {
        "format": _FORMAT,
        "key": key,
        "library": lib.name,
        "sha256": digest,
        "sources": {name: hashlib.sha256(text.encode()).hexdigest() for name, text in sorted(sources.items())},
        "argv": argv,
        "compiler_output": output,
    }
    write_atomic(art / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


_LOADED: dict[tuple[str, str], tuple[cffi.FFI, Any]] = {}
_LOAD_LOCK = threading.Lock()


def load_library(path: Path, cdef: str) -> tuple[cffi.FFI, Any]:
    """dlopen `path` in cffi ABI mode, once per (path, cdef) per process; returns (ffi, lib)."""
    key = (os.path.abspath(path), cdef)
    with _LOAD_LOCK:
        hit = _LOADED.get(key)
        if hit is not None:
            return hit
        _refuse_unloadable_asan(Path(key[0]))
        ffi = cffi.FFI()
        ffi.cdef(cdef)
        try:
            lib = ffi.dlopen(key[0])
        except OSError as exc:
            raise HLSError(
                f"cannot load the csim library {key[0]}: {exc} "
                "(is HLS_CACHE_DIR on a filesystem mounted noexec?)"
            ) from exc
        _LOADED[key] = (ffi, lib)
        return ffi, lib


def load_private_copy(path: Path, cdef: str) -> tuple[cffi.FFI, Any]:
    """dlopen a fresh copy of `path`: its static variables are its own and start at their initial values.

    dlopen of a path (or inode) already loaded returns the loaded library, statics included, so the copy
    gets a new file; it is unlinked once mapped. The copies a process loads stay mapped until it exits.
    """
    _refuse_unloadable_asan(Path(os.path.abspath(path)))
    directory = cache_root() / "state"
    make_private_dir(directory, "csim state directory")
    fd, copy = tempfile.mkstemp(suffix=".so", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(Path(path).read_bytes())
        ffi = cffi.FFI()
        ffi.cdef(cdef)
        try:
            lib = ffi.dlopen(copy)
        except OSError as exc:
            raise HLSError(f"cannot load a private copy of the csim library {path}: {exc}") from exc
    finally:
        os.unlink(copy)
    return ffi, lib


def _refuse_unloadable_asan(path: Path) -> None:
    """An ASan library dlopen'ed into a process without the ASan runtime aborts the whole interpreter."""
    try:
        argv = json.loads((path.parent / MANIFEST).read_text(encoding="utf-8")).get("argv", [])
    except (OSError, ValueError, AttributeError):
        return
    if not any(isinstance(a, str) and a.startswith("-fsanitize=") and "address" in a for a in argv):
        return
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        maps = ""
    if "libasan" not in maps:
        raise HLSError(
            f"{path} was built with -fsanitize=address and cannot be loaded into this Python process; "
            "run it in a separate executable, or start Python with "
            "LD_PRELOAD=$(g++ -print-file-name=libasan.so)"
        )
