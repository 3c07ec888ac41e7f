"""Keep Going's claims (Math Fluxx, rulebook keep-going) as moves: each way of meeting the Goal
that discards other Keepers is one listed move whose `play` names them, each copy; the choice
`keepers` names exactly the Keepers a claim discards, on the claim itself or on the play whose
outcome opens it (docs/PLAYS.md, "Keep Going claims")."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.referee.moves import play_response
from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

CENTURY: dict[str, Any] = {
    "edition": "math", "active": "Ann", "rules": ["Keep Going"], "goals": ["Century"],
    "players": [{"name": "Ann", "hand": ["Four", "Nine"],
                 "keepers": ["One", "Zero", "Zero", "Ten"]},
                {"name": "Bo", "hand": ["One"], "keepers": ["Six"]}],
    "turn": {"hand_at_start": 1, "drawn": 1, "played": 0}, "draw_pile": 20}


def _claims(table: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in ruling_for(parse_state(table))["legal_moves"] if m.get("claim")]


def test_ways_that_discard_the_same_keepers_are_one_claim() -> None:
    """Today's Date as 1010 with One, Zero and Ten: the Ten is either "10"; one move."""
    table = {**CENTURY, "goals": ["Today's Date"], "goal_numbers": {"Today's Date": 1010},
             "players": [{"name": "Ann", "hand": ["Nine"], "keepers": ["One", "Zero", "Ten"]},
                         CENTURY["players"][1]]}
    [claim] = _claims(table)
    assert claim["keepers"] == ["one", "ten", "zero"]


def test_each_listed_claim_is_one_outcome_and_the_keepers_are_counted_by_copy() -> None:
    for claim in _claims(CENTURY):
        answer = play_response(parse_state(CENTURY), claim["play"])
        [outcome] = answer["outcomes"]
        assert sorted(outcome["choices"]["keepers"]) == claim["keepers"]
    # One and Zero, one copy of Zero: no claim discards exactly those
    with pytest.raises(InputError) as caught:
        play_response(parse_state(CENTURY), {"kind": "discard", "player": "Ann",
                                             "choices": {"keepers": ["one", "zero"]}})
    assert caught.value.items[0].path == "/play/choices"


def test_a_play_that_opens_a_claim_takes_the_claims_keepers() -> None:
    """Ann plays Century: both ways of claiming it are outcomes, and `keepers` picks one; Keepers
    that make no claim are refused, naming the claims there are."""
    table = {**CENTURY, "rules": ["Keep Going", "Play 2"], "goals": ["Dozen"],
             "players": [{"name": "Ann", "hand": ["Century", "Nine"],
                          "keepers": ["One", "Zero", "Zero", "Ten"]}, CENTURY["players"][1]],
             "turn": {"hand_at_start": 2, "drawn": 1, "played": 0}}
    both = play_response(parse_state(table), {"card": "Century"})
    assert sorted(sorted(o["choices"]["keepers"]) for o in both["outcomes"]) == [
        ["one", "zero", "zero"], ["ten", "zero"]]
    one = play_response(parse_state(table), {"card": "Century",
                                             "choices": {"keepers": ["one", "zero", "zero"]}})
    [outcome] = one["outcomes"]
    assert outcome["state"]["players"][0]["keepers"] == ["ten"]
    with pytest.raises(InputError) as caught:
        play_response(parse_state(table), {"card": "Century", "choices": {"keepers": ["nine"]}})
    assert caught.value.items[0].path == "/play/choices/keepers"
    assert "one, zero, zero" in caught.value.items[0].en
