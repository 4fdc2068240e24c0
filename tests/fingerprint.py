"""A behaviour fingerprint of the whole tool, for refactors that must change nothing.

For every kernel of the examples, of the test kernel modules and of N fuzz kernels it records the IR
after the passes, the C++, the MLIR, the estimate and, for a kernel the frontend refuses, the error
text. Two fingerprints taken before and after a refactor must be equal:

    python -m tests.fingerprint before.json --fuzz 1000
    ... refactor ...
    python -m tests.fingerprint after.json --fuzz 1000 --compare before.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def kernels_of(module: Any) -> Iterator[tuple[str, Any]]:
    """The kernel objects a module defines at its top level, in name order."""
    from hls.kernel import Kernel

    for name in sorted(vars(module)):
        value = getattr(module, name)
        if isinstance(value, Kernel):
            yield name, value


def load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def attempt(get: Any) -> str:
    """The value as text, or the error's type and message (an error is behaviour too)."""
    try:
        value = get()
    except Exception as exc:  # noqa: BLE001 - every failure is part of the fingerprint
        return f"!{type(exc).__name__}: {exc}"
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def fingerprint(kernel: Any) -> dict[str, str]:
    first = attempt(lambda: kernel.ir)
    if first.startswith("!"):
        return {"error": first}
    return {"ir": first, "cpp": attempt(lambda: kernel.cpp), "mlir": attempt(lambda: kernel.mlir),
            "report": attempt(lambda: kernel.report().to_dict()),
            "vitis": attempt(lambda: kernel.report(flow="vivado").to_dict()["latency"])}


def source_modules() -> Iterator[tuple[str, Path]]:
    yield from ((f"examples/{p.name}", p) for p in sorted((ROOT / "examples").glob("*.py")))
    yield from ((f"tests/{p.name}", p) for p in sorted((ROOT / "tests").rglob("*_kernels.py")))


def collect(fuzz: int, seed: int) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for label, path in source_modules():
        try:
            module = load(path, f"fingerprint_{path.stem}")
        except Exception as exc:  # noqa: BLE001
            out[label] = {"error": f"!{type(exc).__name__}: {exc}"}
            continue
        for name, k in kernels_of(module):
            out[f"{label}:{name}"] = fingerprint(k)
    if fuzz:
        out.update(fuzz_prints(fuzz, seed))
    return out


def fuzz_prints(count: int, seed: int) -> dict[str, dict[str, str]]:
    from tests.fuzz.campaign import SEED_STRIDE, generate_any
    from tests.fuzz.generator import module_text

    out: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            unit = generate_any(seed * SEED_STRIDE + i, "both")
            path = Path(tmp) / f"fuzz_{i}.py"
            path.write_text(module_text([unit]))
            try:
                module = load(path, f"fingerprint_fuzz_{i}")
            except Exception as exc:  # noqa: BLE001
                out[f"fuzz:{i}"] = {"error": f"!{type(exc).__name__}: {exc}"}
                continue
            out[f"fuzz:{i}"] = fingerprint(getattr(module, unit.kernel))
            sys.modules.pop(f"fingerprint_fuzz_{i}", None)
    return json.loads(json.dumps(out).replace(tmp, "<fuzz>"))


def differences(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> list[str]:
    lines = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if a is None or b is None:
            lines.append(f"{key}: only {'after' if a is None else 'before'}")
            continue
        for part in sorted(set(a) | set(b)):
            if a.get(part) != b.get(part):
                lines.append(f"{key} [{part}]: before {str(a.get(part))[:300]!r}\n    after {str(b.get(part))[:300]!r}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--fuzz", type=int, default=0, help="number of fuzz kernels")
    parser.add_argument("--seed", type=int, default=1201)
    parser.add_argument("--compare", type=Path, help="a fingerprint to compare with")
    args = parser.parse_args(argv)
    prints = collect(args.fuzz, args.seed)
    # comparable across checkouts, and with fingerprints taken before the fixtures moved to tests/kernels/
    # (labels are file names; the paths in messages and reports read as tests/<file> both ways)
    text = json.dumps(prints).replace(str(ROOT / "tests" / "kernels"), str(ROOT / "tests"))
    prints = json.loads(text.replace(str(ROOT), "<root>"))
    args.out.write_text(json.dumps(prints, indent=0, sort_keys=True))
    print(f"{len(prints)} kernels fingerprinted into {args.out}")
    if args.compare:
        diff = differences(json.loads(args.compare.read_text()), prints)
        print("\n".join(diff) or "identical")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
