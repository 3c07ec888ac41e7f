"""Players joining a game under way, through POST /api/play: the ruling lists each join with its
`play`, the endpoint accepts it (a newcomer's names nobody: the answer asks who), seats the
player after the last seat with their cards (made at random in Fluxxnomic, seed 003's Cards;
drawn from the draw pile in the rulebook deck and Math Fluxx), and refuses a join the ruling
does not list with a reason, the same one the ruling gives a held join."""

from __future__ import annotations

from typing import Any

from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

TABLE: dict[str, Any] = {
    "edition": "fluxxnomic",
    "players": [{"name": "Ann", "hand": ["Sun"]}, {"name": "Bo", "hand_size": 2}],
    "active": "Ann",
    "phase": {"number": 4, "former_players": [{"player": "Cy", "last_phase": 1}]},
}


def _post(client, state: dict[str, Any], play: dict[str, Any]) -> dict[str, Any]:
    res = client.post("/api/play", json={"state": state, "play": play})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_listed_joins_are_accepted_through_the_endpoint(client) -> None:
    ruling = client.post("/api/ruling", json=TABLE).get_json()
    joins = {m["player"]: m for m in ruling["legal_moves"] if m["kind"] == "join"}
    assert joins[None]["cards"] == 6 and joins[None]["play"] == {"kind": "join"}
    assert joins["Cy"]["cards"] == 3 and joins["Cy"]["last_phase"] == 1
    asked = _post(client, TABLE, joins[None]["play"])
    assert asked["legal"] and asked["outcomes"] == []
    assert asked["open_choices"] == [{"key": "player", "kind": "name"}]
    seated = _post(client, TABLE, {**joins[None]["play"], "player": "Dee", "seed": 11})
    [outcome] = seated["outcomes"]
    dee = outcome["state"]["players"][-1]
    assert [p["name"] for p in outcome["state"]["players"]] == ["Ann", "Bo", "Dee"]
    assert len(dee["hand"]) == 6 and "?" not in dee["hand"]  # a seed makes the cards
    [joined] = [c for c in outcome["changes"] if c["event"] == "joined"]
    assert joined["player"] == "Dee" and joined["count"] == 6 and joined["text"]["zh"]
    assert not [c for c in outcome["changes"] if c["event"] == "drawn"]
    # the next table is one the referee reads back, and Dee may now draw in the phase
    moves = outcome["ruling"]["legal_moves"]
    assert {"kind": "draw", "player": "Dee"} in [m["play"] for m in moves]
    back = _post(client, TABLE, joins["Cy"]["play"])
    [outcome] = back["outcomes"]
    assert outcome["state"]["players"][-1] == {"name": "Cy", "hand_size": 3, "keepers": [],
                                               "creepers": []}
    assert "former_players" not in outcome["state"]["phase"]


def test_a_join_the_ruling_does_not_list_is_refused_with_a_reason(client) -> None:
    refused = _post(client, TABLE, {"kind": "join", "player": "Bo"})
    assert not refused["legal"]
    assert [r["key"] for r in refused["reasons"]] == ["already_a_player"]
    assert refused["reasons"][0]["sources"]


def test_a_join_waits_while_a_set_aside_hand_is_played_out(client) -> None:
    state = {**TABLE, "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 2}],
             "sub_hands": [{"player": "Ann", "card": "Draw 2 and use 'em",
                            "cards": ["Sun", "Moon"], "plays_left": 2}]}
    ruling = ruling_for(parse_state(state))
    held = [m for m in ruling["not_yet"] if m["kind"] == "join"]
    assert {m["reason_key"] for m in held} == {"reason_sub_hand_open"}
    for move in held:
        answer = _post(client, state, {**move["play"], "player": move["player"] or "Dee"})
        assert not answer["legal"]
        assert "reason_sub_hand_open" in [r["key"] for r in answer["reasons"]]


def test_former_players_are_checked_by_the_reader(client) -> None:
    state = {**TABLE, "phase": {"number": 2, "former_players": [
        {"player": "Bo", "last_phase": 1}, {"player": "Cy", "last_phase": 3}]}}
    res = client.post("/api/ruling", json=state)
    assert res.status_code == 400
    paths = {e["path"]: e["message"]["zh"] for e in res.get_json()["errors"]}
    assert set(paths) == {"/phase/former_players/0/player", "/phase/former_players/1/last_phase"}
    assert all(paths.values())


def test_a_joining_name_is_kept_as_the_table_keeps_names(client) -> None:
    # full-width letters are the plain name: "Ｂｏ" is Bo, already a player
    refused = _post(client, TABLE, {"kind": "join", "player": "Ｂｏ"})
    assert [r["key"] for r in refused["reasons"]] == ["already_a_player"]
    res = client.post("/api/play", json={"state": TABLE,
                                         "play": {"kind": "join", "player": "D\u200bee"}})
    assert res.status_code == 400
    assert res.get_json()["errors"][0]["path"] == "/play/player"
    seated = _post(client, TABLE, {"kind": "join", "player": "  Ｄee "})
    assert seated["outcomes"][0]["state"]["players"][-1]["name"] == "Dee"


def test_a_join_at_the_last_phase_the_reader_takes_makes_a_table_it_takes(client) -> None:
    """The phase number is bounded so that the hand a newcomer joins with (3 + phase - 1 cards,
    made card by card with a seed) is one the reader takes back; one phase more is refused."""
    state = {**TABLE, "phase": {"number": 400}}
    for play in ({"kind": "join", "player": "Cy"}, {"kind": "join", "player": "Cy", "seed": 1}):
        [outcome] = _post(client, state, play)["outcomes"]
        again = client.post("/api/ruling", json=outcome["state"])
        assert again.status_code == 200, again.get_json()
    refused = client.post("/api/ruling", json={**TABLE, "phase": {"number": 401}})
    assert refused.status_code == 400
    assert refused.get_json()["errors"][0]["path"] == "/phase/number"


# ---- the rulebook deck and Math Fluxx: three cards from the draw pile (ruling/joining.lp) ------

def test_a_creeper_the_joiner_draws_is_told_under_their_name(client) -> None:
    """The joiner's seat is after the last: a finding about it names them, never "p(2)"."""
    state = {"expansions": ["creepers"],
             "players": [{"name": "Ann", "hand": ["Milk"]}, {"name": "Bo", "hand_size": 2}],
             "active": "Ann", "draw_pile": ["Love", "War", "Peace", "Cookies", "Bread"]}
    answer = _post(client, state, {"kind": "join", "player": "Cy"})
    [outcome] = answer["outcomes"]
    assert outcome["state"]["players"][2]["creepers"] == ["war"]
    texts = [f["text"][lang] for f in outcome["play_findings"] for lang in ("en", "zh")]
    assert any("Cy" in t and "War" in t for t in texts), texts
    assert not any("p(" in t for t in texts), texts


def test_a_join_from_short_piles_says_how_many_cards_came(client) -> None:
    state = {"players": [{"name": "Ann", "hand": ["Milk"]}, {"name": "Bo", "hand_size": 2}],
             "active": "Ann", "draw_pile": [], "discard_pile": ["Love"]}
    [outcome] = _post(client, state, {"kind": "join", "player": "Cy"})["outcomes"]
    [dealt] = [f for f in outcome["play_findings"] if f["key"] == "player_joined_dealt"]
    assert dealt["args"] == ["Cy", 1]
    assert outcome["state"]["players"][2]["hand"] == ["love"]


def test_a_join_waits_for_the_surprise_chain(client) -> None:
    state = {"expansions": ["surprises"],
             "players": [{"name": "Ann", "hand": ["Milk"]},
                         {"name": "Bo", "hand": ["Canceled Plans"]}],
             "active": "Ann", "draw_pile": 10,
             "pending": [{"player": "Ann", "card": "Trade Hands"}]}
    ruling = ruling_for(parse_state(state))
    held = [m for m in ruling["not_yet"] if m["kind"] == "join"]
    assert [m["reason_key"] for m in held] == ["reason_chain_open"]
    refused = _post(client, state, {"kind": "join", "player": "Cy"})
    assert not refused["legal"]
    assert [r["key"] for r in refused["reasons"]] == ["reason_chain_open"]
