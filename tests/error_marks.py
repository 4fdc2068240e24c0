"""The error corpora's one check: compiling a bad kernel raises `exc` at the line marked `# E <name>`."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest


def marked_line(module: ModuleType, name: str) -> int:
    """The 1-based line of `module`'s source that carries the marker `# E name`."""
    lines = Path(module.__file__).read_text().splitlines()
    return next(n for n, text in enumerate(lines, start=1) if re.search(rf"# E {name}\b", text))


def assert_error_at_marker(module: ModuleType, name: str, exc: type[Exception], fragment: str) -> None:
    """The kernel `name` of `module` fails to compile with `exc`, whose message holds `fragment` and whose
    location (file:line:col, no traceback) is the marked line."""
    with pytest.raises(exc) as info:
        getattr(module, name).compile()
    err = info.value
    assert fragment in err.message, err.message
    line = marked_line(module, name)
    assert err.loc is not None and (err.loc.file, err.loc.line) == (module.__file__, line), str(err)
    assert str(err).startswith(f"{module.__file__}:{line}:{err.loc.col + 1}: ") and "Traceback" not in str(err)
