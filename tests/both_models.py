"""Runs one kernel in both models, golden (Python mode) and csim, for the tests of dataflow regions."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import hls


def outputs_in_both(kernel: Any, a: np.ndarray, n: int, dtype: Any) -> tuple[list, list]:
    """kernel(a, b) golden and csim, each into its own zeroed `b` of n `dtype` items: (golden, csim)."""
    golden, native = np.zeros(n, dtype), np.zeros(n, dtype)
    kernel(a, golden)
    kernel.csim(a, native)
    return golden.tolist(), native.tolist()


def assert_deadlocks_in_both(kernel: Any, args: Callable[[], Sequence[Any]], fragments: Sequence[str]) -> None:
    """Both models stop with a DeadlockError naming every blocked process in `fragments`; `args` makes
    fresh arguments for each run."""
    for run in (kernel, kernel.csim):
        with pytest.raises(hls.DeadlockError) as info:
            run(*args())
        for fragment in fragments:
            assert fragment in str(info.value)
