"""The wheel carries the templates and testbenches, so `pip install .` works outside the source tree."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_ships_templates_and_testbenches(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("hls-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = 0
    for folder in ("templates", "testbenches"):
        for template in (ROOT / "hls" / "backend" / "cpp" / folder).glob("*.j2"):
            assert f"hls/backend/cpp/{folder}/{template.name}" in names
            shipped += 1
    assert shipped >= 8, shipped  # the kernel, header, TCL, cfg, Makefile, README, bridge and testbench
    assert "hls/cli/main.py" in names and "hls/backend/cpp/emit.py" in names and "hls/project/export.py" in names
    assert not any(n.endswith(("ap_int.h", "ap_fixed.h")) for n in names)
    # the project's own csim headers ship (hls_stream.h written here, never the ap_types folder's)
    assert {"hls/sim/include/hls_stream.h", "hls/sim/include/hls_csim.h"} <= names
