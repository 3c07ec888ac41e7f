"""The recorded rulings and play outcomes of every scenario table (tests/golden/scenarios.json).

A change of layout or of speed machinery must not change what a user sees: every scenario's
ruling, and the outcome of every scenario play, is compared with the recorded one (the `engine`
statistics block aside). A change that means to alter rulings re-records the file with
`python tests/golden/record.py` and shows the difference in its review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden.record import SCENARIOS, record_case, scenario_cases

GOLDEN = json.loads((Path(__file__).parent / "golden" / "scenarios.json").read_text("utf-8"))
CASES = scenario_cases(SCENARIOS)


def test_every_scenario_is_recorded() -> None:
    assert sorted(GOLDEN) == sorted(cid for cid, _ in CASES)


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[cid for cid, _ in CASES])
def test_same_as_recorded(case: dict, request: pytest.FixtureRequest) -> None:
    cid = request.node.callspec.id
    assert record_case(case) == GOLDEN[cid]
