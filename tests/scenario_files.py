"""The scenario files (tests/rules/scenarios/*.yaml, format: docs/ENGINE.md), read once per test
run: several test modules walk them, and reading them is most of the time collection takes.
The cases are shared between the modules, so a test copies a case before changing it."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from adjudicator.resources import read_yaml

SCENARIOS = Path(__file__).resolve().parent / "rules" / "scenarios"


@cache
def _read(path: Path) -> Any:
    return read_yaml(path)


def scenario_file(stem: str) -> list[dict[str, Any]]:
    """The cases of one scenario file, in its order."""
    return _read(SCENARIOS / f"{stem}.yaml") or []


def scenario_cases(pattern: str = "*.yaml") -> list[tuple[str, dict[str, Any]]]:
    """("file:id", case) for every case of the files matching `pattern`, files in name order."""
    return [(f"{path.stem}:{case['id']}", case)
            for path in sorted(SCENARIOS.glob(pattern)) for case in _read(path) or []]
