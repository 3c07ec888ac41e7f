"""Counter-Surprise chains of any shape (rules_asp/surprises.lp), checked against FAQ 002-54.

"A plays some card X. B plays Surprise 1, canceling X. A cancels Surprise 1 with Surprise 2, so X
is in effect again. B cancels Surprise 2 with Surprise 3 ..." and "some other player, for example
Player C, [may] jump in on either side". Every legal chain (each Surprise answering the card
before it, played by someone other than that card's player) resolves by parity: X takes effect
exactly when the number of Surprises is even. The deck holds the four standard Surprises, so a
chain has at most four.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.reader import parse_state
from adjudicator.ruling import ruling_for

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
