"""Runs the scenario tables in tests/rules/scenarios/*.yaml (format: docs/ENGINE.md).

Each case is a table state, the sources it encodes, and the part of the ruling it expects.
Dicts match key by key (a subset); lists match item by item, except `legal_moves`, `not_yet`
and `findings`, where each expected item must match some item of the ruling (and an empty
list expects none at all).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state
from tests.scenario_files import scenario_cases

CONTAINS = ("legal_moves", "not_yet", "findings")


CASES = scenario_cases()


def matches(expected: Any, actual: Any, key: str = "") -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k], k) for k, v in expected.items())
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return False
        if key in CONTAINS:
            # an empty expectation means "none at all" (otherwise it would match anything)
            if not expected:
                return not actual
            return all(any(matches(e, a) for a in actual) for e in expected)
        return len(expected) == len(actual) and all(
            matches(e, a) for e, a in zip(expected, actual, strict=True))
    return expected == actual


def finding_matches(want: dict[str, Any], finding: dict[str, Any]) -> bool:
    if "about" in want and finding["about"] != want["about"]:
        return False
    if "key" in want and finding["key"] != want["key"]:
        return False
    cited = [s["id"] for s in finding["sources"]]
    if "source" in want and want["source"] not in cited:
        return False
    # `sources`: exactly these, no more (a finding citing a source that does not apply is wrong)
    if "sources" in want and sorted(want["sources"]) != sorted(cited):
        return False
    return not ("args" in want and not matches(want["args"], finding["args"]))


def test_scenarios_exist() -> None:
    assert len(CASES) >= 40
    ids = [cid for cid, _ in CASES]
    assert len(ids) == len(set(ids)), "scenario ids must be unique per file"


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[cid for cid, _ in CASES])
def test_scenario(case: dict[str, Any]) -> None:
    assert case.get("source"), "every scenario names its source"
    if "expect_error" in case:
        with pytest.raises(InputError) as info:
            parse_state(case["state"])
        assert case["expect_error"] in [i.path for i in info.value.items]
        return
    ruling = ruling_for(parse_state(case["state"]))
    assert ruling["ok"], ruling.get("errors")
    assert not ruling["engine"].get("errors"), ruling["engine"]["errors"]
    assert not ruling["engine"].get("warnings"), ruling["engine"]["warnings"]
    for key, want in case.get("expect", {}).items():
        assert key in ruling, f"ruling has no {key!r}"
        assert matches(want, ruling[key], key), (
            f"{key}: expected {want!r}, got {ruling[key]!r}")
    for want in case.get("expect_findings", []):
        assert any(finding_matches(want, f) for f in ruling["findings"]), (
            f"no finding like {want!r} in {[(f['about'], f['key']) for f in ruling['findings']]}")
    for want in case.get("expect_no_findings", []):
        assert not any(finding_matches(want, f) for f in ruling["findings"]), (
            f"unexpected finding like {want!r}")
    for key, items in case.get("expect_absent", {}).items():
        for want in items:
            assert not any(matches(want, a) for a in ruling[key]), (
                f"{key}: did not expect {want!r} in {ruling[key]!r}")
    # every finding is explained in both languages and cited
    for f in ruling["findings"]:
        assert f["text"]["en"] and f["text"]["zh"] and f["sources"], f
