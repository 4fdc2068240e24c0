"""`make test` wall time against the 5-minute budget, read from build/test_time.json.

The Makefile's test target writes that file after each run (seconds, exit code, cores, date); the
suite is never re-run here. Without a recorded run this bench returns no rows.
"""

from __future__ import annotations

import json

from benchlib import ROOT, row

RECORD = ROOT / "build" / "test_time.json"
BUDGET_SECONDS = 300.0


def run(quick: bool = False) -> list[dict]:
    try:
        record = json.loads(RECORD.read_text())
        seconds = float(record["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    outcome = "passed" if record.get("exit") == 0 else f"exit code {record.get('exit')}"
    return [row("make test wall time", seconds, BUDGET_SECONDS, "s",
                f"last `make test` ({outcome}, {record.get('cores')} cores, {record.get('date')}) against the "
                "5-minute budget", target="<= 1.0")]
