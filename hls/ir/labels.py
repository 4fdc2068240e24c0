"""Loop labels: one rule for a fresh one, shared by the frontend (unlabelled loops) and unrolling (copies)."""

from __future__ import annotations


def fresh_label(labels: set[str], base: str) -> str:
    """`base`, or `base_1`, `base_2`, ... whichever is not in `labels` yet; it is added to `labels`."""
    label, n = base, 1
    while label in labels:
        label, n = f"{base}_{n}", n + 1
    labels.add(label)
    return label
