"""A precompiled header of the ap_types headers, built once per compiler, flag set and header set.

Parsing ap_int.h/ap_fixed.h is over 90 % of a csim compile; a .gch of them, force-included first,
cuts a kernel build to a fraction. g++ only uses a PCH built with the same code-generation flags,
so the key holds the whole flag list next to the toolchain identity (compiler, version, header
hashes). It is built in the background, beside the first kernel's own compile (which does not use
it), so a new user's first build costs one plain g++ run. `-Winvalid-pch` plus the plain header
kept beside the .gch make a stale or mismatched PCH fall back to parsing the text, never to a wrong
build; a file that fails its recorded SHA-256 is rebuilt. Like libraries, the .gch is published by
rename and its manifest is written last, so a half-written one is never used.
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

from hls.errors import HLSError
from hls.sim.cache import cache_root, make_private_dir, sha256_file, try_exclusive, write_atomic
from hls.sim.toolchain import absolute_arg, compiler, include_flags, run_compiler, toolchain_identity

# Every header the PCH holds, in order: what generated kernels and bridges include.
# The hls::stream header belongs here too once it exists (its -I dir goes in toolchain.include_flags).
PCH_INCLUDES: tuple[str, ...] = ("<stdint.h>", "<cmath>", "<vector>", '"ap_int.h"', '"ap_fixed.h"')
PCH_NAME = "hls_pch.h"
_FORMAT = "hls-sim-pch/1"
_MANIFEST = "manifest.json"
BACKGROUND_NICE = 10  # the header's build yields the CPU to the kernel compile beside it
# Sources that include one of these get the PCH; others (small hand-written C++) compile without it,
# and so do sources that configure the headers with an AP_* macro (e.g. AP_INT_MAX_W): the PCH,
# force-included first, would come before their #define.
_WANTS_PCH = re.compile(r'^\s*#\s*include\s*[<"](?:ap_int|ap_fixed)\.h[">]', re.MULTILINE)
_CONFIGURES_AP = re.compile(r"^\s*#\s*define\s+AP_", re.MULTILINE)

# (gch path, inode, size, mtime_ns) already hashed and matched in this process.
_CHECKED: set[tuple[str, int, int, int]] = set()


def pch_text() -> str:
    """The header that is precompiled (and parsed as text when its .gch cannot be used)."""
    lines = [f"// Precompiled by hls for C simulation ({_FORMAT}); rebuilt when flags or headers change."]
    lines += [f"#include {inc}" for inc in PCH_INCLUDES]
    return "\n".join(lines) + "\n"


def wants_pch(sources: Mapping[str, str]) -> bool:
    texts = sources.values()
    return any(_WANTS_PCH.search(t) for t in texts) and not any(_CONFIGURES_AP.search(t) for t in texts)


def pch_key(flags: Sequence[str]) -> str:
    """SHA-256 over the toolchain identity, the exact compile flags and the PCH header text."""
    doc = {"format": _FORMAT, "toolchain": toolchain_identity(), "flags": list(flags), "header": pch_text()}
    return hashlib.sha256(json.dumps(doc, separators=(",", ":")).encode()).hexdigest()


def precompiled_header(flags: Sequence[str]) -> Path | None:
    """Path of `hls_pch.h` whose verified .gch matches `flags`, or None: then the caller compiles
    without it, and the header is being built in the background for the builds after it.

    A new cache therefore never waits for the one-off PCH: its first kernel compiles directly while
    the header builds beside it (at a lower priority). A build in this process that finds the header
    half done waits for it (the rest of a PCH build plus a build on it cost no more than a build
    without); one that finds another process building it compiles without. `flags` are the compile
    flags without the output options; a PCH that fails to build is not an error here.
    """
    key = pch_key(flags)
    home = cache_root() / "pch" / key[:2] / key
    if not _verified(home):
        with _BACKGROUND_LOCK:
            thread = _BACKGROUND.get(key)
            if thread is None or not thread.is_alive() and key not in _FAILED:  # none yet, or the .gch went bad
                argv = [*compiler(), *flags, *include_flags()]  # read here: the environment may change
                thread = threading.Thread(target=_build_beside, args=(home, argv, key), name="hls-pch")
                _BACKGROUND[key] = thread
                thread.start()
                return None
        thread.join()
        if not _verified(home):
            return None
    return home / PCH_NAME


_BACKGROUND: dict[str, threading.Thread] = {}  # the PCH build of each key this process started
_FAILED: set[str] = set()  # keys whose PCH g++ could not build: not retried in this process
_BACKGROUND_LOCK = threading.Lock()


def wait_for_background() -> None:
    """Join the PCH builds this process started (the interpreter also waits for them at exit)."""
    for thread in list(_BACKGROUND.values()):
        thread.join()


def _build_beside(home: Path, argv: list[str], key: str) -> None:
    """The background build: skipped when another process holds the lock (it is building the same)."""
    try:
        for d in (home.parent.parent, home.parent, home):
            make_private_dir(d, "cache directory")
        with try_exclusive(home / ".lock") as mine:
            if mine and not _verified(home) and not _build(home, argv, key):
                _FAILED.add(key)
    except (OSError, HLSError):
        pass  # no PCH: every build compiles the headers as text, and reports its own errors


def _verified(home: Path) -> bool:
    """True when the manifest records the .gch's size and SHA-256 (hashed once per process and file)."""
    gch = home / (PCH_NAME + ".gch")
    try:
        manifest = json.loads((home / _MANIFEST).read_text(encoding="utf-8"))
        st = os.stat(gch)
        if not isinstance(manifest, dict) or manifest.get("size") != st.st_size or not (home / PCH_NAME).is_file():
            return False
        stamp = (str(gch), st.st_ino, st.st_size, st.st_mtime_ns)
        if stamp not in _CHECKED:
            if manifest.get("sha256") != sha256_file(gch):
                return False
            _CHECKED.add(stamp)
        return True
    except (OSError, ValueError):
        return False


def _build(home: Path, compile_argv: list[str], key: str) -> bool:
    """Compile the header into a temp file, publish it as hls_pch.h.gch, then write the manifest."""
    write_atomic(home / PCH_NAME, pch_text())
    (home / _MANIFEST).unlink(missing_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=home, prefix=f".{PCH_NAME}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    gch = home / (PCH_NAME + ".gch")
    argv = [*compile_argv, "-x", "c++-header",
            absolute_arg(home / PCH_NAME), "-o", absolute_arg(tmp)]
    try:
        try:
            code, output = run_compiler(argv, home, nice=BACKGROUND_NICE)
        except OSError:
            return False
        if code != 0 or tmp.stat().st_size == 0:
            return False
        digest, size = sha256_file(tmp), tmp.stat().st_size
        os.replace(tmp, gch)
    finally:
        tmp.unlink(missing_ok=True)
    manifest = {"format": _FORMAT, "key": key, "sha256": digest, "size": size, "argv": argv, "compiler_output": output}
    write_atomic(home / _MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return True
