"""The differential fuzzer (tests/fuzz): generator, shrinker, worker isolation, and a bounded campaign.

The campaign here is small (a few batches, fixed seed) so that `make test` stays fast; `make fuzz`
runs the large ones. Every bug it found has a regression test in tests/test_fuzz_regressions.py.
"""

import ast
import importlib.util
import re
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

from tests.fuzz.campaign import Runner, batches, run_campaign
from tests.fuzz.generator import batch_top, generate, module_text
from tests.fuzz.shrink import ShrinkStats, shrink

CAMPAIGN_SEED = 20261129
CAMPAIGN_COUNT = 60


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generator_is_deterministic():
    for seed in (0, 7, 123456):
        assert generate(seed).source == generate(seed).source
    assert len({generate(seed).source for seed in range(20)}) == 20


def test_generated_kernels_pass_the_frontend_and_run_in_python(tmp_path):
    """No rejections: the generator stays inside the language, and Python mode never raises."""
    units = [generate(seed) for seed in range(120)]
    path = tmp_path / "many.py"
    path.write_text(module_text(units))
    module = load(path, "fuzz_many")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for unit in units:
            kernel = getattr(module, unit.kernel)
            kernel.compile()
            kernel(*kernel.random_inputs(unit.seed))


def test_generator_covers_the_language():
    """The constructs the campaign is meant to exercise all appear in a few hundred kernels."""
    text = "\n".join(generate(seed).source for seed in range(300))
    for needle in ("//", "%", "<<", ">>", " & ", " | ", " ^ ", "~", "abs(", "min(", "max(", " and ", " or ",
                   "not ", " if ", "elif ", "else:", "math.sqrt", "math.floor", "math.exp", "hls.zeros(",
                   "hls.pipeline(", "hls.unroll()", "hls.unroll(factor=", "hls.array_partition(",
                   "hls.loop_tripcount(", "hls.inline(", "range(", ", -1)", ", -2)", "hls.ap_fixed[",
                   "hls.ap_ufixed[", '"AP_SAT_SYM"', '"AP_RND_CONV"', "hls.float32", "hls.float64", "hls.bool_",
                   "hls.int7", "hls.uint64", "hls.ap_int[", "np.array(", "-> ", " / ", " ** ", " < ", " <= ",
                   "def h_", "while ", "        break", "        continue", "        return"):
        assert needle in text, needle
    widths = {int(w) for w in re.findall(r"hls\.u?int(\d+)\b", text)}
    assert {1, 7, 8, 13, 33, 63, 64} <= widths


def test_batches_keep_exact_and_tolerant_kernels_apart():
    units = [generate(seed) for seed in range(60)]
    for group in batches(units, 8):
        assert len(group) <= 8 and len({u.tolerant for u in group}) == 1
    assert sum(len(g) for g in batches(units, 8)) == 60


def test_batch_top_compiles(tmp_path):
    units = [generate(seed) for seed in range(5)]
    path = tmp_path / "batch.py"
    path.write_text(module_text(units, top=batch_top(units)))
    module = load(path, "fuzz_batch_module")
    ir = module.fuzz_batch.ir
    for unit in units:
        assert unit.kernel in ir


SYNTHETIC = '''
import math

def helper(a, b):
    return a * b + 1

def target(x):
    total = 0
    for i in range(10):
        if i % 2 == 0:
            total += i
        else:
            total -= 1
    y = helper(x, 2)
    z = math.floor(x / 3) + y * 7
    w = (z if z > 3 else -z) + 13
    return w
'''


def runs_to(text: str, expected: int) -> bool:
    namespace: dict = {}
    try:
        exec(compile(text, "<candidate>", "exec"), namespace)  # noqa: S102 - the test's own program
        return namespace["target"](5) == expected
    except Exception:  # noqa: BLE001 - a broken candidate simply does not reproduce
        return False


def test_shrinker_keeps_the_failure_and_removes_the_rest():
    namespace: dict = {}
    exec(compile(SYNTHETIC, "<s>", "exec"), namespace)  # noqa: S102
    expected = namespace["target"](5)
    stats = ShrinkStats()
    small = shrink(SYNTHETIC, lambda text: runs_to(text, expected), max_checks=500, stats=stats)
    assert runs_to(small, expected)
    assert stats.accepted >= 3 and "total" not in small
    tree = ast.parse(small)
    assert not any(isinstance(n, (ast.For, ast.If)) for n in ast.walk(tree))  # the loop was irrelevant
    assert len(small) < 0.6 * len(SYNTHETIC) and "z if z > 3" not in small


def test_shrinker_on_a_syntactic_predicate_finds_the_operator():
    predicate = lambda text: "x / 3" in text  # noqa: E731
    small = shrink(SYNTHETIC, predicate, max_checks=500)
    assert "x / 3" in small
    assert "helper" not in small and "range" not in small


def test_shrinker_respects_its_budget():
    calls = []
    shrink(SYNTHETIC, lambda text: calls.append(text) is None and False, max_checks=4)
    assert len(calls) == 4


@pytest.mark.parametrize("body,kind", [
    ("import ctypes\nctypes.string_at(0)\n", "worker died (signal 11)"),
    ("import os\nos._exit(3)\n", "worker died (exit code 3)"),
])
def test_a_dying_worker_is_a_crash(body, kind):
    with tempfile.TemporaryDirectory() as folder:
        runner = Runner(Path(folder), timeout=60)
        outcome = runner.run({"text": body, "kernel": "k", "seed": 0, "rtol": 0.0, "atol": 0.0}, "dies")
    assert outcome["error"]["status"] == "crash" and outcome["error"]["kind"] == kind


def test_worker_classifies_a_pass_and_a_rejection(tmp_path):
    runner = Runner(tmp_path, timeout=120)
    good = ("import hls\n\n\n@hls.kernel\ndef k(a: hls.int8[4], out: hls.int16[4]):\n"
                "    for i in range(4):\n        out[i] = a[i] + 1\n")
    outcome = runner.run({"text": good, "kernel": "k", "seed": 1, "rtol": 0.0, "atol": 0.0}, "ok")
    assert outcome["members"]["1"]["status"] == "pass"
    rejected = good.replace("a[i] + 1", "a[i] + 'x'")
    outcome = runner.run({"text": rejected, "kernel": "k", "seed": 1, "rtol": 0.0, "atol": 0.0}, "rej")
    assert outcome["members"]["1"]["status"] == "rejected"


def test_bounded_campaign_is_clean(tmp_path):
    """A fixed-seed campaign (the same kernels every run, so the csim cache makes reruns fast)."""
    result = run_campaign(CAMPAIGN_COUNT, CAMPAIGN_SEED, out=tmp_path, batch=8, jobs=2, shrink_checks=0)
    details = "\n".join(f"seed {f.seed}: {f.status} ({f.kind}): {f.message[:500]}" for f in result.failures)
    details += "\n".join(f"seed {s} rejected: {m[:300]}" for s, m in result.rejections)
    assert result.ok and result.rejected == 0, result.summary() + "\n" + details
    assert result.passed == CAMPAIGN_COUNT
    assert result.summary() == f"fuzz: {CAMPAIGN_COUNT} kernels, {CAMPAIGN_COUNT} passed, 0 mismatches, " \
                               "0 crashes, 0 rejected"
