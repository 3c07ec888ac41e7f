"""Whatever a response offers as a choice is accepted back as it was offered: each option of an
open choice, sent back alone as that choice's value (not wrapped in a list), narrows the move to
the outcomes of that option (docs/PLAYS.md, "open_choices")."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.referee import moves
from adjudicator.table.reader import parse_state

TABLE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Let's Simplify", "Taxation", "Trade Hands",
                                          "Exchange Keepers", "Milk"], "keepers": ["Love"]},
                {"name": "Bo", "hand": ["Moon", "Sun"], "keepers": ["Bread"]},
                {"name": "Cy", "hand": ["Toast"], "keepers": ["Sleep"]}],
    "active": "Ann", "rules": ["Play 4", "Hand Limit 2", "Keeper Limit 4"],
    "turn": {"drawn": 1, "played": 0}, "draw_pile": 20}


@pytest.mark.parametrize("card", ["Let's Simplify", "Taxation", "Trade Hands",
                                  "Exchange Keepers"])
def test_each_option_sent_back_alone_is_accepted(card: str) -> None:
    state = parse_state(TABLE)
    play = {"kind": "play", "player": "Ann", "card": card}
    asked = moves.play_response(state, play)
    choices = [c for c in asked.get("open_choices", []) if c.get("kind") == "choice"]
    assert choices, asked.get("open_choices")
    for choice in choices:
        for option in choice["options"]:
            answer = moves.play_response(state, {**play, "choices": {choice["key"]: option}})
            assert answer["legal"] and answer["outcomes"], (choice["key"], option)
            assert all(option in o["choices"][choice["key"]] or o["choices"][choice["key"]]
                       == option for o in answer["outcomes"]), (choice["key"], option)


def test_a_play_that_names_no_card_takes_the_card_choice_it_asked_for() -> None:
    """The open choice `card` of a play from cards the table does not show, sent back as a
    choice, names the card played (before, it was ignored and the same question came back)."""
    state = parse_state({"players": [{"name": "Ann", "hand": ["Milk", "?"]},
                                     {"name": "Bo", "hand_size": 2}],
                         "active": "Ann", "turn": {"drawn": 1, "played": 0}, "draw_pile": 20})
    asked = moves.play_response(state, {"kind": "play", "player": "Ann"})
    (choice,) = asked["open_choices"]
    assert choice["key"] == "card" and "sun" in choice["options"]
    answer = moves.play_response(state, {"kind": "play", "player": "Ann",
                                         "choices": {"card": "sun"}})
    assert [p["keepers"] for p in answer["outcomes"][0]["state"]["players"]][0] == ["sun"]
