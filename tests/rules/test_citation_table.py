"""Every citation of the ordinary rulings states the finding it is cited for.

TABLE holds, per finding key, each source that the key's findings may cite and the words on that
source's page (in English, as the knowledge store holds them) that state the rule. The tests check
that each quote is on its page (case and spacing aside), and that every source the rulings of a
few ordinary plain Fluxx tables cite for a finding is in the table, so that a new citation off
target fails here. A card source that the finding itself names (the rule card in force, the Goal
met) states its own rule and needs no row.
"""

from __future__ import annotations

import json
import re

import pytest

from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

# words that state several findings
DRAW = "Draw the number of cards currently required."
PLAY = "Play the number of cards currently required."
COMPLY = "Discard to comply with any Limit rules in play."
LIMITS = "Hand and Keeper Limit cards will create such restrictions"
NOT_YOUR_TURN = "Hand and Keeper Limits apply to you when it's not your turn"
OTHERS_COMPLY = "the other players must immediately comply with the new restriction"
WAIT_FOR_DISCARDS = "Nothing happens until limit discards are done"
CLOCKWISE = "Play proceeds clockwise."
GOALS = "Goals indicate which Keepers you currently need in order to win."
CANCELED = "you do not get to choose a different card to play. That play was canceled."
CHAIN = "B plays Surprise 1, canceling X."

TABLE: dict[str, dict[str, str]] = {
    # drawing and playing
    "draw_rule": {"rulebook:basic-rules": "Draw 1.", "rulebook:each-turn": DRAW},
    "play_rule": {"rulebook:basic-rules": "Play 1.", "rulebook:each-turn": PLAY},
    "draw_total": {"rulebook:each-turn": DRAW},
    "play_remaining": {"rulebook:each-turn": PLAY},
    "draw_or_play_first": {"rulebook:each-turn": "you may play before you draw"},
    "may_end_turn": {
        "rulebook:each-turn": "Draw the number of cards currently required. "
                              "- Play the number of cards currently required.",
    },
    "reason_draws_owed": {"rulebook:each-turn": DRAW},
    "reason_no_plays_left": {
        "rulebook:each-turn": PLAY,
        "rulebook:discarding": "You cannot simply discard unwanted cards.",
    },
    "reason_plays_owed": {"rulebook:each-turn": PLAY},
    "drew_unknown": {"rulebook:setup": "placing the remainder of the deck face down"},
    "sub_hand_set": {
        "rulebook:example-draw-2-and-use-em": "you will immediately draw two cards and play them "
                                              "both",
    },
    # limits
    "hand_limit": {"rulebook:limits": LIMITS, "rulebook:each-turn": COMPLY,
                   "faq:002-66": NOT_YOUR_TURN},
    "keeper_limit": {"rulebook:limits": LIMITS, "rulebook:each-turn": COMPLY,
                     "faq:002-66": NOT_YOUR_TURN},
    "discard_now": {
        "rulebook:limits": OTHERS_COMPLY,
        "rulebook:discarding": "You can only discard if compelled to by a Hand Limit",
        "card:hand_limit_2": "If you have extra cards, discard them immediately.",
        "card:keeper_limit_2": "Discard any extras immediately.",
    },
    "discard_end_of_turn": {
        "card:hand_limit_2": "as long as you discard all but 2 of your cards when you end your "
                             "turn",
        "card:keeper_limit_2": "as long as you discard all but 2 at the end of your turn",
        "rulebook:limits": "you can ignore them until your turn ends",
        "rulebook:each-turn": COMPLY,
        "faq:002-66": "you would observe them as soon as your turn ends",
    },
    "limit_ignored_during_turn": {
        "rulebook:limits": "These rules only affect you when it's NOT your turn, so you can ignore "
                           "them until your turn ends.",
        "faq:002-66": NOT_YOUR_TURN,
    },
    "others_discard_first": {"rulebook:limits": OTHERS_COMPLY, "faq:002-20": WAIT_FOR_DISCARDS},
    "reason_discards_owed": {"rulebook:limits": OTHERS_COMPLY, "faq:002-20": WAIT_FOR_DISCARDS},
    # turn order
    "next_player": {"rulebook:going-first": CLOCKWISE},
    "turn_passes": {"rulebook:going-first": CLOCKWISE},
    # winning
    "no_goal": {"rulebook:goals": GOALS},
    "wins": {"rulebook:winning": "That player wins instantly, no matter whose turn it is!"},
    "game_over": {"rulebook:winning": "That player wins instantly"},
    "tie": {"rulebook:winning": "If a tie, the game continues until one winner emerges."},
    "nobody_meets": {"rulebook:winning": "The game continues until someone meets the conditions"},
    "goal_met_pair": {"rulebook:goals": GOALS},
    # Surprises
    "surprise_answered": {
        "faq:002-62": "They play a card. You cancel it with the appropriate Surprise.",
        "faq:002-43": "If you are the active player, counter-Surprising does not use up one of "
                      "your total plays for the turn.",
    },
    "chain_closed_canceled": {"faq:002-54": CHAIN, "faq:002-01": CANCELED},
    "chain_original_canceled": {"faq:002-54": CHAIN, "faq:002-01": CANCELED},
}

# Ordinary plain Fluxx tables: every ruling carries draw, play, limits, turn order and winner
# findings.
TABLES: dict[str, dict] = {
    "opening": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Love", "Peace"]},
                    {"name": "Bo", "hand_size": 3}],
        "active": "Ann",
    },
    "limits": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Love", "Peace", "Milk"],
                     "keepers": ["Sun", "Moon", "Toaster"]},
                    {"name": "Bo", "hand_size": 4, "keepers": ["Cookies", "Bread", "Time"]},
                    {"name": "Cy", "hand_size": 2}],
        "active": "Ann",
        "rules": ["Hand Limit 2", "Keeper Limit 2", "Draw 2", "Play 2"],
        "goals": ["Hippyism"],
        "turn": {"hand_at_start": 3, "drawn": 1, "played": 0},
    },
    "won": {
        "players": [{"name": "Ann", "hand": ["Jackpot"], "keepers": ["Milk", "Cookies"]},
                    {"name": "Bo", "hand_size": 3, "keepers": ["Peace"]}],
        "active": "Bo",
        "goals": ["Milk and Cookies"],
    },
    "no_winner": {
        "players": [{"name": "Ann", "hand": ["Jackpot", "Sleep"], "keepers": ["Milk"]},
                    {"name": "Bo", "hand_size": 3, "keepers": ["Peace"]}],
        "active": "Ann",
        "goals": ["Milk and Cookies"],
        "turn": {"hand_at_start": 1, "drawn": 1, "played": 1},
    },
}


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    return re.sub(r"\s+", " ", text.replace("\u201d", '"')).strip().casefold()


def _page_text(db, source_id: str) -> str:
    """The words of a source's page: a rulebook section's title, texts and notes, an FAQ entry's
    title, question and answer, a card's name and text."""
    kind, _, ref = source_id.partition(":")
    if kind == "rulebook":
        rows = list(db.execute("select title_en, text_en, text_zh, notes from rulebook"
                               " where anchor = ?", [ref]))
        parts = list(rows[0][:3]) + [n.get("en") for n in json.loads(rows[0][3] or "[]")] \
            if rows else []
    elif kind == "faq":
        rows = list(db.execute("select title_en, question_en, answer from faq where id = ?",
                               [ref]))
        parts = list(rows[0]) if rows else []
    else:
        rows = list(db.execute("select name_en, text_en from cards where source_id = ?",
                               [source_id]))
        parts = list(rows[0]) if rows else []
    return _norm(" ".join(p for p in parts if p))


QUOTES = [(key, src, quote) for key, srcs in TABLE.items() for src, quote in srcs.items()]


@pytest.mark.parametrize(("key", "source_id", "quote"), QUOTES,
                         ids=[f"{k}-{s}" for k, s, _ in QUOTES])
def test_quote_is_on_the_cited_page(knowledge_db, key: str, source_id: str, quote: str) -> None:
    page = _page_text(knowledge_db, source_id)
    assert page, f"{source_id} is not in the store"
    assert _norm(quote) in page, f"{key}: {source_id} does not say {quote!r}"


def _own_cards(finding: dict) -> set[str]:
    """The card sources a finding names in its arguments (its own rule card, Goal, ...)."""
    return {f"card:{a}" for a in finding.get("args", []) if isinstance(a, str)}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_ordinary_rulings_cite_only_table_sources(name: str) -> None:
    ruling = ruling_for(parse_state(TABLES[name]))
    assert ruling["ok"], ruling
    off = []
    for f in ruling["findings"] + ruling.get("not_yet", []):
        key = f.get("key") or f.get("reason_key")
        for s in f["sources"]:
            if s["id"] not in TABLE.get(key, {}) and s["id"] not in _own_cards(f):
                off.append((key, s["id"]))
    assert not off, f"citations missing from TABLE (check that they state the finding): {off}"


def test_ordinary_rulings_carry_the_usual_findings() -> None:
    keys = set()
    for state in TABLES.values():
        keys |= {f["key"] for f in ruling_for(parse_state(state))["findings"]}
    assert {"draw_rule", "play_rule", "draw_total", "play_remaining", "next_player", "hand_limit",
            "keeper_limit", "wins", "no_goal"} <= keys


def test_other_decks_passages_are_marked() -> None:
    """A plain Fluxx ruling cites the Math Fluxx rulebook's Going First by analogy, the rulebook
    deck's own sections plainly."""
    ruling = ruling_for(parse_state(TABLES["opening"]))
    sources = {s["id"]: s for f in ruling["findings"] for s in f["sources"]}
    assert sources["rulebook:going-first"].get("scope") == "other_deck"
    assert "scope" not in sources["rulebook:each-turn"]
    assert "scope" not in sources["rulebook:basic-rules"]
