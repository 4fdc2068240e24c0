"""The `hls` command through a subprocess: exit codes and one clean line on stderr for bad input."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hls(*args):
    return subprocess.run([sys.executable, "-m", "hls.cli", *args], capture_output=True, text=True, cwd=ROOT)


def test_emit_prints_cpp():
    result = hls("emit", "examples/gemm.py:gemm")
    assert result.returncode == 0
    assert "#pragma HLS pipeline II=1" in result.stdout


def test_emit_ir():
    result = hls("emit", "--ir", "examples/dot.py:dot")
    assert result.returncode == 0 and result.stdout.startswith("func @dot(")


def test_csim_ok():
    result = hls("csim", "examples/vadd.py:vadd")
    assert result.returncode == 0, result.stderr
    assert "matches the golden model" in result.stdout and "(seed 0, 8 input sets)" in result.stdout
    assert "vadd: branch coverage: no data-dependent branch" in result.stdout


def test_missing_file():
    result = hls("emit", "missing.py:k")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["hls: no such file: missing.py"]


def test_not_a_kernel():
    result = hls("csim", "examples/dot.py:not_a_kernel")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "no @hls.kernel named" in result.stderr


def test_bad_kernel_reports_location():
    result = hls("emit", "tests/kernels/bad_kernels.py:while_never_exits")
    assert result.returncode == 2
    assert "bad_kernels.py:" in result.stderr and "Traceback" not in result.stderr


def test_verification_mismatch_exit_code(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(
        "import hls\n\n\n@hls.kernel\ndef k(a: hls.int32[4]):\n    for i in range(4):\n        a[i] = a[i] // 2\n")
    # a golden model that disagrees on purpose is passed through the API, not the CLI; here the
    # kernel itself verifies, so exit 0
    result = hls("csim", f"{src}:k")
    assert result.returncode == 0, result.stderr


def test_demo_runs_an_example_end_to_end(tmp_path):
    import shutil

    shutil.copy(ROOT / "examples" / "dot.py", tmp_path / "dot.py")
    result = hls("demo", str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "csim == golden on a, b, return" in result.stdout
    assert "loop_i II=1" in result.stdout and "make csim passed" in result.stdout
    assert (tmp_path / "out" / "dot" / "run_hls.tcl").is_file()


def test_a_closed_pipe_exits_quietly():
    """`hls report --json ... | head`: the reader closes before hls writes; no traceback on stderr."""
    for args in (("report", "--json", "examples/dot.py:dot"), ("emit", "examples/gemm.py:gemm")):
        proc = subprocess.Popen([sys.executable, "-m", "hls.cli", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT)
        proc.stdout.close()  # before the first write: every write meets a closed pipe
        stderr = proc.stderr.read().decode()
        assert proc.wait(timeout=300) == 141 and stderr == "", stderr
