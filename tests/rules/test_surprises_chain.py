"""Counter-Surprise chains of any shape (rules_asp/ruling/surprises.lp), checked against FAQ 002-54.

"A plays some card X. B plays Surprise 1, canceling X. A cancels Surprise 1 with Surprise 2, so X
is in effect again. B cancels Surprise 2 with Surprise 3 ..." and "some other player, for example
Player C, [may] jump in on either side". Every legal chain (each Surprise answering the card
before it, played by someone other than that card's player) resolves by parity: X takes effect
exactly when the number of Surprises is even. The deck holds the four standard Surprises, so a
chain has at most four.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

SURPRISES = ["Stop That!", "Veto!", "That's Mine!", "Canceled Plans"]
FIRST = {"Stop That!": "Jackpot", "Veto!": "Draw 2", "That's Mine!": "Peace",
         "Canceled Plans": "Hippyism"}
PLAYERS = ["Ann", "Bo", "Cy"]


@st.composite
def chains(draw: st.DrawFn) -> list[tuple[str, str]]:
    """A legal chain: the first card (matching the first Surprise's type) and the Surprises."""
    order = draw(st.permutations(SURPRISES))
    n = draw(st.integers(min_value=1, max_value=4))
    links = [("Ann", FIRST[order[0]])]
    for card in order[:n]:
        player = draw(st.sampled_from([p for p in PLAYERS if p != links[-1][0]]))
        links.append((player, card))
    return links


def _state(links: list[tuple[str, str]]) -> dict:
    return {
        "expansions": ["surprises"],
        "players": [{"name": p, "hand": ["Milk"] if p == "Ann" else []} for p in PLAYERS],
        "active": "Ann",
        "turn": {"hand_at_start": 2, "drawn": 1, "played": 1},
        "pending": [{"player": p, "card": c} for p, c in links],
    }


@settings(max_examples=60, deadline=None)
@given(chains())
@pytest.mark.slow
def test_chain_parity(links: list[tuple[str, str]]) -> None:
    ruling = ruling_for(parse_state(_state(links)))
    assert ruling["ok"] and not ruling["engine"].get("errors")
    surprises = len(links) - 1
    want = "effective" if surprises % 2 == 0 else "canceled"
    assert ruling["pending"]["outcome"] == want
    # one finding per Surprise, each saying whether it stands
    keys = sorted(f["args"][0] for f in ruling["findings"]
                  if f["key"] in ("chain_link_effective", "chain_link_canceled"))
    assert keys == list(range(1, surprises + 1))
    last = next(f for f in ruling["findings"] if f["key"] == "chain_link_effective"
                and f["args"][0] == surprises)
    assert last["args"][1] == links[-1][0]


@settings(max_examples=30, deadline=None)
@given(chains(), st.integers(min_value=1, max_value=4))
@pytest.mark.slow
def test_own_card_link_is_void(links: list[tuple[str, str]], at: int) -> None:
    """A player answering their own card: that link and the rest are left out (FAQ 002-70)."""
    at = min(at, len(links) - 1)
    links = list(links)
    links[at] = (links[at - 1][0], links[at][1])
    ruling = ruling_for(parse_state(_state(links)))
    standing = at - 1
    want = "effective" if standing % 2 == 0 else "canceled"
    assert ruling["pending"]["outcome"] == want
    assert any(f["key"] == "link_own_card" and f["args"][0] == at for f in ruling["findings"])


def test_next_answer_offered_to_everyone_but_the_last_player() -> None:
    """Legal moves: whoever holds a Surprise may answer the last card, except its own player."""
    state = _state([("Ann", "Jackpot"), ("Bo", "Stop That!")])
    state["players"][0]["hand"] = ["Veto!"]
    state["players"][1]["hand"] = ["Canceled Plans"]
    state["players"][2]["hand"] = ["That's Mine!"]
    moves = ruling_for(parse_state(state))["legal_moves"]
    answers = {(m["player"], m["card"]) for m in moves if m["kind"] == "surprise"}
    assert answers == {("Ann", "veto"), ("Cy", "thats_mine")}


def _new_rule_pending() -> dict:
    return {"expansions": ["surprises"],
            "players": [{"name": "Ann", "hand": ["Milk"]}, {"name": "Bo", "hand": ["Veto!"]}],
            "active": "Ann", "turn": {"hand_at_start": 2, "drawn": 1, "played": 1},
            "pending": [{"player": "Ann", "card": "Draw 3"}]}


def test_veto_answer_listed_and_turn_waits_for_the_chain() -> None:
    """Bo holding Veto! against a pending New Rule: his answer is a legal move; Ann may only close
    the chain, and her end of turn and plays wait for it (FAQ 002-51, 002-33)."""
    ruling = ruling_for(parse_state(_new_rule_pending()))
    moves = {(m["player"], m["kind"], m.get("card")) for m in ruling["legal_moves"]}
    assert moves == {("Bo", "surprise", "veto"), ("Ann", "resolve", "draw_3")}
    resolve = next(m for m in ruling["legal_moves"] if m["kind"] == "resolve")
    assert resolve["outcome"] == "effective"
    waits = {(n["player"], n["kind"]) for n in ruling["not_yet"]}
    assert {("Ann", "end_turn"), ("Ann", "play")} <= waits
    sources = {s["id"] for n in ruling["not_yet"] for s in n["sources"]}
    assert "faq:002-51" in sources


def test_chain_through_moves_matches_the_ruling() -> None:
    """Play -> answer -> close through moves.apply_action: the legal actions follow the ruling."""
    from adjudicator.referee import moves

    state = parse_state({"expansions": ["surprises"],
                         "players": [{"name": "Ann", "hand": ["Draw 3", "Milk"]},
                                     {"name": "Bo", "hand": ["Veto!"]},
                                     {"name": "Cy", "hand": ["Stop That!"]}],
                         "active": "Ann", "turn": {"hand_at_start": 2, "drawn": 1, "played": 0}})
    opened = moves.apply_action(state, {"kind": "play", "card": "Draw 3"}).outcomes[0]
    assert [(p.player, p.card) for p in opened.state.pending] == [("Ann", "draw_3")]
    actions = moves.legal_actions(opened.state, opened.ruling)
    assert {"kind": "surprise", "player": "Bo", "card": "veto"} in actions
    assert {"kind": "resolve", "player": "Ann"} in actions
    assert not any(a["kind"] == "end_turn" for a in actions)
    answered = moves.apply_action(opened.state, {"kind": "surprise", "player": "Bo",
                                                "card": "veto"}).outcomes[0]
    # Cy's Stop That! answers a Surprise (any Surprise does, FAQ 002-69)
    assert {"kind": "surprise", "player": "Cy", "card": "stop_that"} in moves.legal_actions(
        answered.state, answered.ruling)
    closed = moves.apply_action(answered.state, {"kind": "resolve"}).outcomes[0]
    assert closed.state.pending == [] and closed.state.rules == []
    assert closed.state.discard_pile[:1] == ["draw_3"] and closed.state.turn.played == 1
    assert any(a["kind"] == "end_turn" for a in moves.legal_actions(closed.state, closed.ruling))
