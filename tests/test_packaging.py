"""The wheel carries the templates and testbenches, so `pip install .` works outside the source tree."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_ships_templates_and_testbenches(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("hls-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in (ROOT / "templates").glob("*.j2"):
        assert f"hls/_templates/{template.name}" in names
    for template in (ROOT / "testbenches").glob("*.j2"):
        assert f"hls/_testbenches/{template.name}" in names
    assert "hls/cli.py" in names and "hls/backend/emit.py" in names and "hls/project/export.py" in names
    assert not any(n.endswith(("ap_int.h", "ap_fixed.h")) for n in names)
    # the project's own csim headers ship (hls_stream.h written here, never the ap_types folder's)
    assert {"hls/sim/include/hls_stream.h", "hls/sim/include/hls_csim.h"} <= names
