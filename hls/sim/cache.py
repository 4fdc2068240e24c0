"""The per-user directory that holds compiled csim artefacts, and atomic writes into it.

Shared-mode cache dirs (e.g. in /tmp) let other users plant a library that we would dlopen,
so the root must be private: owned by us, not writable by group/other, and not a symlink.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hls.errors import HLSError


def cache_root() -> Path:
    """`$HLS_CACHE_DIR`, else `$XDG_CACHE_HOME/hls` or `~/.cache/hls`; created 0o700 and verified."""
    explicit = os.environ.get("HLS_CACHE_DIR")
    if explicit:
        root = Path(os.path.abspath(os.path.expanduser(explicit)))
        origin = "HLS_CACHE_DIR"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        # The XDG spec says relative values are invalid and must be ignored.
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
        root = base / "hls"
        origin = "the default cache dir"
    make_private_dir(root, origin)
    return root


def make_private_dir(path: Path, origin: str = "cache directory") -> None:
    """Create `path` (mode 0o700) if needed, then refuse it unless it is a private, real directory."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise HLSError(f"cannot create {origin} {path}: {exc}") from exc
    _check_private(path, origin)


def _check_private(path: Path, origin: str) -> None:
    """Raise HLSError if `path` is a symlink, not a directory, foreign-owned or group/other writable."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise HLSError(f"{origin} {path} is a symlink; refusing to use it (point it at a real directory)")
    if not stat.S_ISDIR(st.st_mode):
        raise HLSError(f"{origin} {path} is not a directory")
    if st.st_uid != os.getuid():
        raise HLSError(f"{origin} {path} is owned by uid {st.st_uid}, not by you (uid {os.getuid()})")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise HLSError(
            f"{origin} {path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o}); "
            f"run `chmod go-w {path}` or choose another directory"
        )


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write via a temp file in the same dir + os.replace, so readers never see a partial file."""
    payload = data.encode() if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def sha256_file(path: Path) -> str:
    """Hash a file in chunks; libraries built with -g and precompiled headers can be tens of MB."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@contextlib.contextmanager
def exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive flock so concurrent builds of one key compile once and the rest wait."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def try_exclusive(lock_path: Path) -> Iterator[bool]:
    """The exclusive flock if nobody holds it (True), else False at once: for work that need not wait."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)
