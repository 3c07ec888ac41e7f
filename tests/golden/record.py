"""Records every scenario's ruling and play outcome into tests/golden/scenarios.json.

Run `python tests/golden/record.py` only when a change is meant to alter rulings; the test
tests/test_golden.py compares the engine's answers with this file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from adjudicator.errors import InputError
from adjudicator.referee.moves import play_response
from adjudicator.referee.ruling import ruling_for
from adjudicator.resources import read_yaml
from adjudicator.table.reader import parse_state

SCENARIOS = Path(__file__).resolve().parent.parent / "rules" / "scenarios"
GOLDEN = Path(__file__).resolve().parent / "scenarios.json"


def scenario_cases(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(folder.rglob("*.yaml")):
        for case in read_yaml(path) or []:
            cases.append((f"{path.stem}:{case['id']}", case))
    return cases


def _strip(value: Any) -> Any:
    """The answer without its `engine` blocks (timings and counters vary run to run)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != "engine"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def record_case(case: dict[str, Any]) -> dict[str, Any]:
    try:
        state = parse_state(case["state"])
    except InputError as error:
        return {"error": [item.to_json() for item in error.items]}
    recorded = {"ruling": _strip(ruling_for(state))}
    if "play" in case:
        recorded["play"] = _strip(play_response(state, dict(case["play"])))
    # through JSON, as the file holds it (tuples become lists)
    return json.loads(json.dumps(recorded, ensure_ascii=False))


def main() -> None:
    out = {cid: record_case(case) for cid, case in scenario_cases(SCENARIOS)}
    GOLDEN.write_text(json.dumps(out, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                      encoding="utf-8")
    print(f"{len(out)} scenarios recorded in {GOLDEN}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    main()
