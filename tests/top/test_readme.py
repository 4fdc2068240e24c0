"""The README's quick start is what a newcomer runs first: it must run, and run again in the same folder."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def quick_start_script() -> str:
    """The Python blocks of the README's "Quick start" section, in order, as one script."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 2, "the quick start lost its code blocks"
    return "\n".join(blocks)


def test_quick_start_runs_twice_in_a_row(tmp_path):
    script = tmp_path / "quick_start.py"
    script.write_text(quick_start_script())
    for run in range(2):
        done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"run {run + 1}:\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (tmp_path / "dot_prj" / "hls_export.json").is_file() and (tmp_path / "dot.html").is_file()


def test_the_side_by_side_shows_the_cpp_the_python_gives(tmp_path):
    """The README's "C++ next to the Python": its C++ is what its Python kernel generates (without the
    interface pragmas, which the README leaves out)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The C++ next to the Python", 1)[1].split("\n## ", 1)[0]
    python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    cpp = re.search(r"```cpp\n(.*?)```", section, re.S).group(1)
    module = tmp_path / "side_by_side.py"
    module.write_text("import numpy as np\nimport hls\n\n" + python)
    script = ("import sys, re; sys.path.insert(0, sys.argv[1]); import side_by_side as m\n"
              "lines = m.fir4.cpp.splitlines()\n"
              "start = next(i for i, l in enumerate(lines) if l.startswith('void fir4('))\n"
              "end = next(i for i in range(start, len(lines)) if lines[i] == '}')\n"
              "print('\\n'.join(l for l in lines[start:end + 1] if 'HLS interface' not in l))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == cpp.strip()
