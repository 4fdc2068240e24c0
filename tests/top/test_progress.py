"""Progress on a terminal (issue 15, item 3): shown in a pseudo-terminal, silent without one or with HLS_QUIET=1."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import hls

ROOT = Path(__file__).resolve().parents[2]

BAR = """
import time
from hls import progress
progress.DELAY = {delay}
with progress.task("crunching numbers", total=4) as advance:
    for _ in range(4):
        time.sleep({step})
        advance()
print("done", flush=True)
"""

# The real call sites, with the delay set to zero so that short work shows too.
CALL_SITES = """
import concurrent.futures, sys, time
import numpy as np
import hls
from hls import progress
from tests.kernels.explore_kernels import broken
progress.DELAY = 0.0
k = broken(2)
k.export(sys.argv[1] + "/prj")
k.csim(np.zeros(4, dtype=np.int32))  # compiles (a private cache)
k.verify()  # the library is cached now: golden model and csim only
def slow(size):
    time.sleep(0.3)
    return broken(size)
hls.explore(slow, {"size": [1, 2]}, executor=concurrent.futures.ThreadPoolExecutor())
print("done", flush=True)
"""


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k != "HLS_QUIET"}
    out.update(TERM="xterm", COLUMNS="100", PYTHONPATH=str(ROOT), **extra)
    return out


def run_in_pty(script: str, *args: str, **extra: str) -> str:
    """Run `script` with stdout and stderr on a pseudo-terminal; everything the terminal received."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), *args], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, env=env(**extra), cwd=ROOT)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        proc.wait(timeout=30)
    assert proc.returncode == 0, b"".join(chunks).decode(errors="replace")
    return b"".join(chunks).decode(errors="replace")


def test_bar_with_counts_on_a_terminal():
    out = run_in_pty(BAR.format(delay=0.1, step=0.15))
    assert "crunching numbers" in out
    assert any(f"{n}/4" in out for n in range(1, 5)), out
    assert "done" in out


def test_nothing_for_work_shorter_than_the_delay():
    out = run_in_pty(BAR.format(delay=2.0, step=0.05))
    assert "crunching" not in out and "done" in out


def test_silent_with_hls_quiet():
    out = run_in_pty(BAR.format(delay=0.0, step=0.1), HLS_QUIET="1")
    assert "crunching" not in out and "done" in out


def test_silent_without_a_terminal():
    proc = subprocess.run([sys.executable, "-c", BAR.format(delay=0.0, step=0.1)], capture_output=True, text=True,
                          env=env(), cwd=ROOT, check=True)
    assert proc.stdout == "done\n" and proc.stderr == ""


@pytest.mark.parametrize("text", ["exporting scale", "verifying scale", "exploring slow", "2/2",
                                  "compiling the C++ for csim (g++)"])
def test_call_sites_show_progress(text, call_site_output):
    assert text in call_site_output


@pytest.fixture(scope="module")
def call_site_output(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("progress")
    # a private csim cache, so the kernel really compiles
    return run_in_pty(CALL_SITES, str(tmp), HLS_CACHE_DIR=str(tmp / "cache"))


def test_verify_overflow_warning_still_points_at_the_caller():
    """verify() runs inside a progress task now; its OverflowWarning must still name the caller's line."""
    import numpy as np

    from tests.kernels.explore_kernels import broken

    with pytest.warns(hls.OverflowWarning) as caught:  # given inputs: a wrap on them is always reported
        broken(1).verify(np.full(4, 1 << 30, dtype=np.int32))  # x * 2 wraps
    assert caught[0].filename == __file__
