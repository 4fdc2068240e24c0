"""The fuzzer's schedule branch: random legal schedules on generated kernels, golden vs csim."""

from __future__ import annotations

from tests.fuzz.campaign import generate_any, run_campaign
from tests.fuzz.generator import module_text
from tests.fuzz.schedules import random_schedule
from tests.fuzz.worker import load_module

SCHEDULE_CAMPAIGN_SEED = 20261202


def test_schedule_branch_marks_classic_units_only():
    assert generate_any(6, "classic", ("schedule",)).schedule
    assert not generate_any(6, "classic").schedule
    unit = generate_any(5, "both", ("schedule",))
    assert unit.oracle and not unit.schedule  # an oracle unit keeps its own three-way check


def test_random_schedules_are_deterministic_and_apply_primitives(tmp_path):
    applied = 0
    for seed in range(3000, 3012):
        unit = generate_any(seed, "classic", ("schedule",))
        path = tmp_path / f"u{seed}.py"
        path.write_text(module_text([unit]))
        kernel = getattr(load_module(path, f"u{seed}"), unit.kernel)
        try:
            kernel.compile()
        except Exception:  # noqa: BLE001 - a kernel the frontend rejects is not the branch's business
            continue
        first = random_schedule(kernel, seed)
        assert first.to_json() == random_schedule(kernel, seed).to_json()
        applied += len(first.records)
    assert applied >= 12


def test_bounded_schedule_campaign_is_clean(tmp_path):
    result = run_campaign(8, SCHEDULE_CAMPAIGN_SEED, out=tmp_path, jobs=2, shrink_checks=0, branches=("schedule",))
    details = "\n".join(f"seed {f.seed}: {f.status} ({f.kind}): {f.message[:600]}" for f in result.failures)
    assert result.mismatches == 0 and result.crashes == 0, details
