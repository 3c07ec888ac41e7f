"""What a move changed: every outcome's `changes` (adjudicator/referee/changes.py), in order and
in both languages, each cited; winning outcomes first; a game followed move by move through the
CLI (`play --state-out`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.cli import main
from adjudicator.referee.moves import play_response
from adjudicator.table.reader import parse_state

TABLE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Trade Hands", "Milk"]},
                {"name": "Bo", "hand": ["Peace", "Love"]}],
    "active": "Ann", "draw_pile": ["Moon", "Sun", "Bread", "Toast"],
    "turn": {"hand_at_start": 2}}


def _changes(table: dict[str, Any], play: dict[str, Any]) -> list[dict[str, Any]]:
    [outcome] = play_response(parse_state(table), play)["outcomes"]
    return outcome["changes"]


def test_trade_hands_says_who_holds_what() -> None:
    changes = _changes(TABLE, {"card": "Trade Hands", "choices": {"opponent": "Bo"}})
    moved = [(c["card"], c["from"], c["to"]) for c in changes]
    assert moved[0] == ("trade_hands", {"zone": "hand", "player": "Ann"},
                        {"zone": "discard_pile"})  # the card played first
    pairs = {(c["card"], c["from"].get("player"), c["to"].get("player")) for c in changes[1:]}
    assert pairs == {("milk", "Ann", "Bo"), ("peace", "Bo", "Ann"), ("love", "Bo", "Ann")}
    for change in changes:
        assert change["text"]["en"] and change["text"]["zh"] and change["sources"]
    assert "「交换手牌」" in changes[0]["text"]["zh"]
    assert any(s["id"] == "card:trade_hands" for s in changes[1]["sources"])


def test_a_trade_with_a_hand_the_table_does_not_show_is_no_draw() -> None:
    """Ann trades with Cy, whose one card the table does not show: Ann receives it, she draws
    nothing (the draw pile is as it was)."""
    table = {"players": [{"name": "Ann", "hand": ["Trade Hands", "Milk"]},
                         {"name": "Bo", "hand": ["Peace"]}, {"name": "Cy", "hand_size": 1}],
             "active": "Ann", "draw_pile": 20, "turn": {"hand_at_start": 2}}
    changes = _changes(table, {"card": "Trade Hands", "choices": {"opponent": "Cy"}})
    events = [c["event"] for c in changes]
    assert "drawn" not in events and "left_unknown" not in events
    [unseen] = [c for c in changes if c["event"] == "moved_unseen"]
    assert (unseen["from"], unseen["to"], unseen["count"]) == (
        {"zone": "hand", "player": "Cy"}, {"zone": "hand", "player": "Ann"}, 1)
    assert unseen["text"]["en"] == "1 card the table does not show: from Cy's hand to Ann's hand."
    assert unseen["sources"]


def _unseen(changes: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """The unseen cards that went from hand to hand: (giver, receiver, how many)."""
    return [(c["from"]["player"], c["to"]["player"], c["count"]) for c in changes
            if c["event"] == "moved_unseen"]


def test_hands_that_travel_take_their_unseen_cards_with_them() -> None:
    """Rotate Hands clockwise: Ann's hand goes to Bo, Bo's 3 unseen cards to Cy, Cy's 4 to Ann
    (each hand whole, not paired by how many each player gained or lost); trading with Cy,
    Ann's unseen card goes to Cy and Cy's 2 to Ann."""
    table = {"players": [{"name": "Ann", "hand": ["Rotate Hands", "Milk"]},
                         {"name": "Bo", "hand_size": 3}, {"name": "Cy", "hand_size": 4}],
             "active": "Ann", "draw_pile": 20, "turn": {"hand_at_start": 2, "drawn": 1}}
    changes = _changes(table, {"card": "Rotate Hands", "choices": {"direction": "clockwise"}})
    assert _unseen(changes) == [("Bo", "Cy", 3), ("Cy", "Ann", 4)]
    assert {c["event"] for c in changes} == {"moved", "moved_unseen"}
    table = {"players": [{"name": "Ann", "hand": ["Trade Hands", "Milk", "?"]},
                         {"name": "Bo", "hand": ["Peace"]}, {"name": "Cy", "hand_size": 2}],
             "active": "Ann", "draw_pile": 20, "turn": {"hand_at_start": 3, "drawn": 1}}
    changes = _changes(table, {"card": "Trade Hands", "choices": {"opponent": "Cy"}})
    assert _unseen(changes) == [("Ann", "Cy", 1), ("Cy", "Ann", 2)]
    assert {c["event"] for c in changes} == {"moved", "moved_unseen"}


def test_a_hand_rotated_from_a_sub_hand_takes_its_unseen_cards_with_it() -> None:
    """Rotate Hands played from the cards of Draw 2 and Use 'Em, then Milk: what each step moved
    adds up, so Bo's 3 unseen cards go to Cy and Cy's unseen card to Ann."""
    table = {"players": [{"name": "Ann", "hand": ["Draw 2 and Use 'Em", "Love"]},
                         {"name": "Bo", "hand_size": 3}, {"name": "Cy", "hand": ["Peace", "?"]}],
             "active": "Ann", "draw_pile": ["Rotate Hands", "Milk", "Sun"],
             "turn": {"hand_at_start": 2, "drawn": 1}}
    changes = _changes(table, {"card": "Draw 2 and Use 'Em",
                               "choices": {"order": ["Rotate Hands", "Milk"],
                                           "then": {"Rotate Hands": {"direction": "clockwise"}}}})
    assert _unseen(changes) == [("Bo", "Cy", 3), ("Cy", "Ann", 1)]


def test_a_draw_from_a_known_pile_names_the_cards() -> None:
    [drawn] = _changes(TABLE, {"kind": "draw"})
    assert drawn["event"] == "drawn" and drawn["cards"] == ["moon"] and drawn["count"] == 1
    assert drawn["text"]["en"] == "Ann drew 1 card: Moon."
    assert [s["id"] for s in drawn["sources"]] == ["rulebook:each-turn"]


def test_cards_drawn_to_play_out_are_drawn_in_the_order_they_lay() -> None:
    """Draw 2 and Use 'Em draws Sun, then Milk, into the cards Ann is to play out: a draw, the
    top card first (not a move from an unknown place, not sorted by name)."""
    table = {"players": [{"name": "Ann", "hand": ["Draw 2 and Use 'Em", "Love"]},
                         {"name": "Bo", "hand_size": 3}],
             "active": "Ann", "draw_pile": ["Sun", "Milk", "Moon"],
             "turn": {"hand_at_start": 2, "drawn": 1}}
    played, drawn = _changes(table, {"card": "Draw 2 and Use 'Em"})
    assert played["card"] == "draw_2_and_use_em"
    assert (drawn["event"], drawn["cards"]) == ("drawn", ["sun", "milk"])
    assert drawn["text"]["en"] == "Ann drew 2 cards: Sun, Milk."


def test_a_draw_from_an_unknown_pile_counts_the_cards() -> None:
    table = {**TABLE, "draw_pile": 30}
    [drawn] = _changes(table, {"kind": "draw"})
    assert drawn["event"] == "drawn" and drawn["cards"] == [] and drawn["count"] == 1


def test_ending_the_turn_says_who_plays_next() -> None:
    table = {**TABLE, "turn": {"hand_at_start": 2, "drawn": 1, "played": 1}}
    [ended] = _changes(table, {"kind": "end_turn"})
    assert (ended["event"], ended["player"], ended["next"]) == ("turn_ended", "Ann", "Bo")


def test_the_winning_outcome_comes_first_and_says_so() -> None:
    """Steal a Keeper: taking Bo's Cookies meets Milk and Cookies (Ann has Milk); taking his Moon
    does not. The winning outcome is listed first, with `wins` and a `won` event."""
    table = {"players": [{"name": "Ann", "hand": ["Steal a Keeper"], "keepers": ["Milk"]},
                         {"name": "Bo", "hand_size": 1, "keepers": ["Moon", "Cookies"]}],
             "active": "Ann", "goals": ["Milk and Cookies"],
             "turn": {"hand_at_start": 1, "drawn": 1}}
    answer = play_response(parse_state(table), {"card": "Steal a Keeper"})
    assert len(answer["outcomes"]) == 2
    first, second = answer["outcomes"]
    assert first["wins"] == "Ann" and first["changes"][-1]["event"] == "won"
    assert "wins" not in second


def test_a_game_followed_move_by_move_on_the_command_line(tmp_path: Path, capsys) -> None:
    start = tmp_path / "start.json"
    start.write_text(json.dumps(TABLE), encoding="utf-8")
    after_draw, after_play = tmp_path / "1.json", tmp_path / "2.json"
    assert main(["play", str(start), "--kind", "draw", "--state-out", str(after_draw)]) == 0
    assert "> Ann drew 1 card: Moon." in capsys.readouterr().out
    assert main(["play", str(after_draw), "Milk", "--state-out", str(after_play)]) == 0
    out = capsys.readouterr().out
    assert "> Milk: from Ann's hand to the Keepers in front of Ann." in out
    move = json.dumps({"kind": "end_turn", "player": "Ann"})
    assert main(["play", str(after_play), "--move", move, "--lang", "zh"]) == 0
    assert "Ann的回合结束；下一位是Bo。" in capsys.readouterr().out
