"""Two Trash a new rule taking effect together (Fluxxnomic, seed 003: the cards waiting for the
next phase): each copy's choice can be given (`rule` a list, one rule for each), and what the
answer offers (an outcome's `choices`, an open choice's options) is accepted back as it came."""

from __future__ import annotations

from typing import Any

from adjudicator.referee.moves import play_response
from adjudicator.table.reader import parse_state

TRASH = {"player": "Ann", "card": "Trash a new rule"}


def _table(rules: list[str]) -> dict[str, Any]:
    return {"edition": "fluxxnomic", "active": "Ann", "rules": rules,
            "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 3}],
            "turn": {"hand_at_start": 0, "played": 2}, "phase": {"waiting": [TRASH, TRASH]}}


def _rules_after(table: dict[str, Any], choices: dict[str, Any]) -> list[list[str]]:
    answer = play_response(parse_state(table), {"kind": "end_turn", "choices": choices})
    assert answer["legal"]
    return [o["state"]["rules"] for o in answer["outcomes"]]


def test_each_copy_gets_its_own_choice_and_outcomes_are_accepted_back() -> None:
    table = _table(["Hand limit 5", "Play all", "Do some more"])
    answer = play_response(parse_state(table), {"kind": "end_turn"})
    assert sorted(o["state"]["rules"][0] for o in answer["outcomes"]) == [
        "do_some_more", "hand_limit_5", "play_all"]
    for outcome in answer["outcomes"]:
        assert len(outcome["choices"]["rule"]) == 2  # one rule for each Trash a new rule
        assert _rules_after(table, outcome["choices"]) == [outcome["state"]["rules"]]
    [offered] = answer["open_choices"]
    for option in offered["options"]:  # one copy's choice alone: the other is still open
        assert len(_rules_after(table, {offered["key"]: option})) == 2
    assert _rules_after(table, {"rule": ["Play all", "Do some more"]}) == [["hand_limit_5"]]


def test_both_copies_of_a_rule_can_be_chosen() -> None:
    table = _table(["Do some more", "Do some more", "Play all"])
    answer = play_response(parse_state(table), {"kind": "end_turn"})
    both = [o for o in answer["outcomes"] if o["state"]["rules"] == ["play_all"]]
    assert [o["choices"]["rule"] for o in both] == [["do_some_more", "do_some_more"]]
    assert _rules_after(table, both[0]["choices"]) == [["play_all"]]
