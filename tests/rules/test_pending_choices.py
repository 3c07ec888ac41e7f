"""The Surprise chain keeps the choices given with its plays (QA report: a choice given with the
first play of a chain was asked again, and the outcome traded with another player), the reader
checks them, and an unknown choice key suggests the keys the move asks for (docs/PLAYS.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.referee import moves
from adjudicator.table.reader import parse_state
from adjudicator.web.api.openapi import SCHEMAS


def _table(cy_hand: list[str] | None = None) -> dict[str, Any]:
    return {"expansions": ["surprises"],
            "players": [{"name": "Ann", "hand": ["Trade Hands", "Veto!", "Bread"]},
                        {"name": "Bo", "hand": ["Stop That!", "Moon"]},
                        {"name": "Cy", "hand": cy_hand if cy_hand is not None else ["Sun"]}],
            "active": "Ann", "turn": {"hand_at_start": 3, "drawn": 1, "played": 0}}


def _post(client: Any, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    res = client.post("/api/play", json={"state": state, "play": move})
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    assert body["ok"] and body["legal"], body
    return body


def _only(body: dict[str, Any]) -> dict[str, Any]:
    assert len(body["outcomes"]) == 1 and not body["open_choices"], body["open_choices"]
    return body["outcomes"][0]


def test_chain_steps_keep_the_choice_of_the_first_play(client: Any) -> None:
    """QA's steps through POST /api/play: Trade Hands choosing Bo, Bo's Stop That!, Ann's Veto!,
    then resolve: Trade Hands stands and trades with Bo, without asking again."""
    opened = _only(_post(client, _table(), {"card": "Trade Hands",
                                            "choices": {"opponent": "Bo"}}))
    assert opened["state"]["pending"] == [
        {"player": "Ann", "card": "trade_hands", "choices": {"opponent": "Bo"}}]
    answered = _only(_post(client, opened["state"], {"kind": "surprise", "card": "Stop That!",
                                                     "player": "Bo"}))
    countered = _only(_post(client, answered["state"], {"kind": "surprise", "card": "Veto!",
                                                        "player": "Ann"}))
    assert [p.get("choices") for p in countered["state"]["pending"]] == [
        {"opponent": "Bo"}, None, None]
    closed = _only(_post(client, countered["state"], {"kind": "resolve"}))
    hands = {p["name"]: p["hand"] for p in closed["state"]["players"]}
    assert hands == {"Ann": ["moon"], "Bo": ["bread"], "Cy": ["sun"]}
    assert closed["choices"] == {"opponent": ["Bo"]}
    assert closed["state"]["pending"] == []
    assert "chain_closed_effective" in {f["key"] for f in closed["play_findings"]}


def test_a_chain_opened_without_the_choice_still_asks_for_it() -> None:
    state = parse_state(_table())
    opened = moves.play_card(state, "Trade Hands").outcomes[0].state
    assert opened.pending[0].choices == {}
    answered = moves.apply_action(opened, {"kind": "surprise", "player": "Bo",
                                          "card": "Stop That!"}).outcomes[0].state
    countered = moves.apply_action(answered, {"kind": "surprise", "player": "Ann",
                                             "card": "Veto!"}).outcomes[0].state
    closed = moves.play_response(countered, {"kind": "resolve"})
    assert closed["open_choices"][0]["key"] == "opponent"
    # the choice may be given when the chain is closed instead
    closed = moves.play_response(countered, {"kind": "resolve", "choices": {"opponent": "Cy"}})
    assert len(closed["outcomes"]) == 1
    assert closed["outcomes"][0]["state"]["players"][2]["hand"] == ["bread"]


def test_closing_the_chain_cannot_change_a_kept_choice() -> None:
    state = parse_state({**_table(), "players": [
        {"name": "Ann", "hand": ["Bread"]}, {"name": "Bo", "hand": ["Moon"]},
        {"name": "Cy", "hand": ["Sun"]}], "turn": {"hand_at_start": 3, "drawn": 1, "played": 1},
        "pending": [{"player": "Ann", "card": "Trade Hands", "choices": {"opponent": "Bo"}},
                    {"player": "Bo", "card": "Stop That!"}, {"player": "Ann", "card": "Veto!"}]})
    with pytest.raises(InputError) as info:
        moves.play_response(state, {"kind": "resolve", "choices": {"opponent": "Cy"}})
    item = info.value.items[0]
    assert item.path == "/play/choices/opponent" and item.suggestions == ["Bo"]
    assert "/pending/0/choices/opponent" in item.en and "/pending/0/choices/opponent" in item.zh
    # the same value again is no change
    same = moves.play_response(state, {"kind": "resolve", "choices": {"opponent": "Bo"}})
    assert len(same["outcomes"]) == 1


@pytest.mark.parametrize("cy_hand", [["Sun"], ["Sun", "Canceled Plans"]])
def test_unknown_choice_key_suggests_the_keys_of_the_move(client: Any,
                                                          cy_hand: list[str]) -> None:
    """QA: {"player": "Bo"} for Trade Hands had no suggestion. The move asks for `opponent`,
    whether the play takes effect at once (nobody can answer it) or waits in the chain (Bo's
    Stop That! can)."""
    table = _table(cy_hand)
    if cy_hand == ["Sun"]:
        table["players"][1]["hand"] = ["Moon"]  # nobody holds a Surprise: no chain
    res = client.post("/api/play", json={"state": table, "play": {
        "card": "Trade Hands", "choices": {"player": "Bo"}}})
    assert res.status_code == 400
    (err,) = res.get_json()["errors"]
    assert err["path"] == "/play/choices/player"
    assert err["suggestions"] == ["opponent"]
    assert "opponent" in err["message"]["en"] and "opponent" in err["message"]["zh"]


def test_unknown_choice_key_of_a_move_without_choices_suggests_close_spellings() -> None:
    state = parse_state(_table())
    with pytest.raises(InputError) as info:
        moves.play_response(state, {"card": "Bread", "choices": {"oponent": "Bo"}})
    assert info.value.items[0].suggestions == ["opponent", "owner"]


def test_reader_normalizes_the_choices_of_a_link() -> None:
    state = parse_state({**_table(), "players": [
        {"name": "Ann", "hand": ["Bread"]}, {"name": "Bo", "hand": ["Moon"], "keepers": ["Sun"]},
        {"name": "Cy", "hand": []}], "turn": {"hand_at_start": 3, "drawn": 1, "played": 1},
        "pending": [{"player": "Ann", "card": "That's Mine!", "choices": {"keeper": "太阳"}}]})
    assert state.pending[0].choices == {"keeper": "sun"}
    assert state.to_json()["pending"] == [
        {"player": "Ann", "card": "thats_mine", "choices": {"keeper": "sun"}}]


@pytest.mark.parametrize(("choices", "path", "suggestion"), [
    ("Bo", "/pending/0/choices", None),
    ({"oponent": "Bo"}, "/pending/0/choices/oponent", "opponent"),
    ({"opponent": "Bob"}, "/pending/0/choices/opponent", "Bo"),
    ({"keeper": "Sunn"}, "/pending/0/choices/keeper", "Sun"),
    ({"direction": "left"}, "/pending/0/choices/direction", "clockwise"),
    ({"then": {"jackpot": {"rulez": []}}}, "/pending/0/choices/then/jackpot/rulez", "rules"),
])
def test_reader_errors_name_the_pointer(client: Any, choices: Any, path: str,
                                        suggestion: str | None) -> None:
    state = {**_table(), "pending": [{"player": "Ann", "card": "Jackpot", "choices": choices}]}
    state["players"][0]["hand"] = ["Bread"]
    res = client.post("/api/ruling", json=state)
    assert res.status_code == 400
    errors = res.get_json()["errors"]
    assert [e["path"] for e in errors] == [path]
    assert errors[0]["message"]["en"] and errors[0]["message"]["zh"]
    if suggestion is not None:
        assert suggestion in errors[0]["suggestions"]
    res = client.post("/api/play", json={"state": state, "play": {"kind": "resolve"}})
    assert res.status_code == 400 and res.get_json()["errors"][0]["path"] == "/state" + path


def test_openapi_describes_the_choices_of_a_link() -> None:
    link = SCHEMAS["PendingPlay"]
    assert link["required"] == ["player", "card"]
    assert {"$ref": "#/components/schemas/Choices"} in link["properties"]["choices"]["anyOf"]
    assert SCHEMAS["Choices"]["type"] == "object"


def test_kept_choices_allowing_no_outcome_are_named() -> None:
    """Trade Hands kept with Ann as her own opponent: closing the chain says which choices were
    tried and which are open."""
    state = parse_state({**_table(), "players": [
        {"name": "Ann", "hand": ["Bread"]}, {"name": "Bo", "hand": ["Moon"]},
        {"name": "Cy", "hand": ["Sun"]}], "turn": {"hand_at_start": 3, "drawn": 1, "played": 1},
        "pending": [{"player": "Ann", "card": "Trade Hands", "choices": {"opponent": "Ann"}}]})
    with pytest.raises(InputError) as info:
        moves.play_response(state, {"kind": "resolve"})
    item = info.value.items[0]
    assert item.path == "/play/choices" and item.suggestions == ["opponent"]
    assert "/pending/0/choices" in item.en and "Bo, Cy" in item.en
