"""The second verify() of a kernel in a new process compiles nothing: the csim cache is hit."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_verify(tmp_path: Path, env: dict) -> None:
    script = textwrap.dedent("""
        import importlib.util
        spec = importlib.util.spec_from_file_location("ex", r"{path}")
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        m.KERNEL.verify()
    """).format(path=ROOT / "examples" / "dot.py")
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=tmp_path)


def test_second_process_hits_the_cache(tmp_path):
    log = tmp_path / "cxx.log"
    wrapper = tmp_path / "cxx"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec g++ "$@"\n')
    wrapper.chmod(0o755)
    env = dict(os.environ, HLS_CXX=str(wrapper), HLS_CACHE_DIR=str(tmp_path / "cache"))
    run_verify(tmp_path, env)
    compiles = [line for line in log.read_text().splitlines() if "-shared" in line]
    assert len(compiles) == 1
    run_verify(tmp_path, env)
    compiles = [line for line in log.read_text().splitlines() if "-shared" in line]
    assert len(compiles) == 1, "the second process recompiled"
    pch_builds = [line for line in log.read_text().splitlines() if "c++-header" in line]
    assert len(pch_builds) == 1, "the precompiled header was built more than once"
    # a new cache's first build does not wait for the precompiled header: it is built beside it
    assert "-include" not in compiles[0].split(), "the first library waited for the precompiled header"
