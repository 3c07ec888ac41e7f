"""The Creepers' and Surprises' part of a move (rules_asp/moves/creeper_moves.lp and
surprise_moves.lp).

Moves run through adjudicator.referee.moves with the core move program
(rules_asp/hubs/moves_core.lp) plus these two files (added here when moves.PLAY_FILES does not
list them yet).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.referee import moves
from adjudicator.table.reader import parse_state

OURS = ("moves/surprise_moves.lp", "moves/creeper_moves.lp")


@pytest.fixture(autouse=True)
def _with_our_files(monkeypatch: pytest.MonkeyPatch) -> None:
    if not all(f in moves.PLAY_FILES for f in OURS):
        monkeypatch.setattr(moves, "PLAY_FILES", tuple(dict.fromkeys(moves.PLAY_FILES + OURS)))
        moves._play_statements.cache_clear()
        moves.play_finding_keys.cache_clear()
        yield
        moves._play_statements.cache_clear()
        moves.play_finding_keys.cache_clear()
    else:
        yield


def _play(state: dict[str, Any], move: dict[str, Any], choices: dict | None = None):
    return moves.apply_action(parse_state(state), move, choices, with_ruling=False)


def _keys(outcome: moves.Outcome) -> set[str]:
    return {f["key"] for f in outcome.findings}


def _table(**over: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "expansions": ["creepers", "surprises"],
        "players": [
            {"name": "Ann", "hand": ["Veto!", "Canceled Plans", "That's Mine!", "Stop That!",
                                     "Dreamland"]},
            {"name": "Bo", "hand_size": 2, "keepers": ["Milk", "Moon"],
             "creepers": ["Radioactive Potato"]},
            {"name": "Cy", "hand_size": 2},
        ],
        "active": "Ann",
        "rules": ["Play 4", "Draw 2", "Hand Limit 2"],
        "goals": ["Hippyism"],
        "turn": {"hand_at_start": 3, "drawn": 2, "played": 0},
    }
    state.update(over)
    return state


# ---- the Radioactive Potato ------------------------------------------------------------------
def test_potato_moves_when_a_goal_is_played() -> None:
    result = _play(_table(), {"kind": "play", "card": "Dreamland"})
    assert result.legal and len(result.outcomes) == 1
    after = result.outcomes[0].state
    assert after.goals == ["dreamland"]
    # clockwise play: the Potato goes the other way, from Bo (seat 1) to Ann (seat 0)
    assert after.player("Ann").creepers == ["radioactive_potato"]
    assert after.player("Bo").creepers == []
    assert "potato_moved" in _keys(result.outcomes[0])


def test_potato_moves_left_under_reverse_order() -> None:
    state = _table(rules=["Play 4", "Reverse Order"])
    after = _play(state, {"kind": "play", "card": "Dreamland"}).outcomes[0].state
    assert after.player("Cy").creepers == ["radioactive_potato"]


def test_potato_moves_when_double_agenda_fills_a_slot() -> None:
    state = _table(rules=["Play 4", "Double Agenda"])
    after = _play(state, {"kind": "play", "card": "Dreamland"}).outcomes[0].state
    assert sorted(after.goals) == ["dreamland", "hippyism"]
    assert after.player("Ann").creepers == ["radioactive_potato"]


def test_potato_moves_when_veto_removes_double_agenda() -> None:
    """Double Agenda leaving with two Goals: whoever caused it keeps one (FAQ 002-53); the Goal
    changed, so the Potato moves (its card: "whenever the Goal changes")."""
    state = _table(rules=["Play 2", "Double Agenda"], goals=["Hippyism", "Dreamland"])
    state["players"][0]["hand"] = ["Veto!", "Love"]
    result = _play(state, {"kind": "play", "card": "Veto!"},
                   {"rules": ["Double Agenda"], "discard_goal": "Hippyism"})
    assert len(result.outcomes) == 1
    after = result.outcomes[0].state
    assert after.rules == ["play_2"] and after.goals == ["dreamland"]
    assert after.player("Ann").creepers == ["radioactive_potato"]
    assert {"potato_moved", "veto_in_turn"} <= _keys(result.outcomes[0])


def test_potato_stays_when_no_goal_changes() -> None:
    state = _table()
    state["players"][0]["hand"].append("Jackpot")
    after = _play(state, {"kind": "play", "card": "Jackpot"}).outcomes[0].state
    assert after.player("Bo").creepers == ["radioactive_potato"]


# ---- Surprises played in turn (their in-turn functions) ------------------------------------------
def test_canceled_plans_in_turn_discards_goals_and_moves_potato() -> None:
    result = _play(_table(), {"kind": "play", "card": "Canceled Plans"})
    after = result.outcomes[0].state
    assert after.goals == []
    assert after.discard_pile[:2] == ["canceled_plans", "hippyism"]
    assert after.turn.played == 1
    assert after.player("Ann").creepers == ["radioactive_potato"]
    assert {"goals_canceled", "potato_moved"} <= _keys(result.outcomes[0])


def test_veto_in_turn_discards_up_to_two_new_rules() -> None:
    result = _play(_table(), {"kind": "play", "card": "Veto!"})
    # none, any one of three, or any two of three: 1 + 3 + 3 outcomes
    assert len(result.outcomes) == 7
    assert {c["key"] for c in result.open_choices} == {"rules"}
    chosen = _play(_table(), {"kind": "play", "card": "Veto!"},
                   {"rules": ["Draw 2", "Hand Limit 2"]})
    assert len(chosen.outcomes) == 1
    after = chosen.outcomes[0].state
    assert after.rules == ["play_4"]
    assert after.discard_pile[0] == "veto"
    assert set(after.discard_pile[1:3]) == {"draw_2", "hand_limit_2"}


def test_veto_three_rules_refused() -> None:
    from adjudicator.errors import InputError

    with pytest.raises(InputError) as info:
        _play(_table(), {"kind": "play", "card": "Veto!"},
              {"rules": ["Draw 2", "Hand Limit 2", "Play 4"]})
    assert info.value.items[0].path == "/play/choices"


def test_thats_mine_in_turn_steals_a_keeper() -> None:
    result = _play(_table(), {"kind": "play", "card": "That's Mine!"}, {"keeper": "Moon"})
    after = result.outcomes[0].state
    assert after.player("Ann").keepers == ["moon"]
    assert after.player("Bo").keepers == ["milk"]
    assert "thats_mine_in_turn" in _keys(result.outcomes[0])


def test_stop_that_in_turn_effect_unknown() -> None:
    result = _play(_table(), {"kind": "play", "card": "Stop That!"})
    assert len(result.outcomes) == 1
    after = result.outcomes[0].state
    assert after.discard_pile == ["stop_that"] and after.turn.played == 1
    assert after.rules == ["play_4", "draw_2", "hand_limit_2"]
    assert "surprise_effect_unknown" in _keys(result.outcomes[0])


# ---- drawn Creepers (needs drawing.lp to ask for creeper_extra/1) ---------------------------
def _draws_integrated() -> bool:
    from adjudicator.resources import rules_dir

    text = (rules_dir() / "moves" / "drawing.lp").read_text(encoding="utf-8")
    return "creeper_extra" in text and "creeper_got" in text


@pytest.mark.skipif(not _draws_integrated(),
                    reason="drawing.lp does not yet use creeper_extra/creeper_got "
                           "(creeper_moves.lp header: the three lines it needs)")
def test_drawn_creepers_go_to_the_table_and_are_replaced() -> None:
    state = {
        "expansions": ["creepers"],
        "players": [{"name": "Ann", "hand": ["Love"], "keepers": ["Time"]},
                    {"name": "Bo", "hand_size": 2}],
        "active": "Ann",
        "rules": ["Draw 3"],
        "goals": ["Time is Money"],
        "turn": {"hand_at_start": 1, "drawn": 0, "played": 0},
        "draw_pile": ["Milk", "Taxes", "War", "Moon", "Sun", "Bread"],
    }
    result = _play(state, {"kind": "draw"})
    after = result.outcomes[0].state
    assert after.player("Ann").hand == ["love", "milk", "moon", "sun"]
    assert sorted(after.player("Ann").creepers) == ["taxes", "war"]
    assert after.draw_pile == ["bread"]
    assert after.turn.drawn == 3  # the two Creepers count neither toward the Draw rule
    assert after.turn.played == 0  # nor as plays


# ---- answering the open chain out of turn (move fact do_answer/2; moves.py wires the move) -------
def _answer(state: dict[str, Any], seat: int, card: str) -> list[set[str]]:
    from adjudicator.engine.facts import state_facts

    facts = state_facts(parse_state(state)) + f"do_answer({seat},{card}).\n"
    models, _ = moves._solve(facts, 4)
    return [{str(a) for a in m} for m in models]


def _chain_table() -> dict[str, Any]:
    return {"expansions": ["surprises"],
            "players": [{"name": "Ann", "hand": ["Veto!", "Milk"]},
                        {"name": "Bo", "hand": ["Canceled Plans"]},
                        {"name": "Cy", "hand": ["That's Mine!"]}],
            "active": "Ann", "turn": {"hand_at_start": 3, "drawn": 1, "played": 1},
            "pending": [{"player": "Ann", "card": "Jackpot"},
                        {"player": "Bo", "card": "Stop That!"}]}


def test_third_player_answer_joins_the_chain() -> None:
    (model,) = _answer(_chain_table(), 2, "thats_mine")
    assert {"next_pending(0,0,jackpot)", "next_pending(1,1,stop_that)",
            "next_pending(2,2,thats_mine)"} <= model
    assert not any(a.startswith("next_in_hand(2,") for a in model)  # the card left Cy's hand
    assert "next_turn(1,1)" in model  # Ann's plays are untouched


def test_answering_your_own_card_is_illegal() -> None:
    (model,) = _answer(_chain_table(), 1, "canceled_plans")
    assert "illegal(cannot_answer,(p(1),canceled_plans))" in model
    assert "next_pending(2,1,canceled_plans)" not in model
