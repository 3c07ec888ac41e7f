"""Shared by the page tests (Flask client) and the browser tests: reading a page, its CSRF token,
the browser tests' ruling table, and a table with an open Surprise chain that both kinds of test
drive."""

from __future__ import annotations

import re
from typing import Any

# Ann's Trade Hands is answered by Cy's Stop That!: Ann may answer with Veto!, Cy holds That's
# Mine! (QA report: What-if on a Surprise in an open chain).
CHAIN: dict[str, Any] = {
    "edition": "fluxx", "expansions": ["creepers", "surprises"],
    "players": [
        {"name": "Ann", "hand": ["Draw 2", "Veto!", "Jackpot"], "keepers": ["Peace"]},
        {"name": "Bo", "hand_size": 3, "keepers": ["Love"]},
        {"name": "Cy", "hand": ["Sleep", "That's Mine!"]},
    ],
    "active": "Ann", "rules": ["Draw 3"], "goals": ["Hippyism"], "draw_pile": 40,
    "pending": [{"player": "Ann", "card": "Trade Hands"}, {"player": "Cy", "card": "Stop That!"}],
}


# Ann must still draw and play (Draw 3), Bo must discard (Hand Limit 2): the browser tests'
# ruling page, with a hand of three cards to ask "What if?" about.
TABLE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Draw 2", "Peace", "Jackpot!"]},
                {"name": "Bo", "hand_size": 3, "keepers": ["Love"]}],
    "active": "Ann", "rules": ["Draw 3", "Hand Limit 2"], "goals": ["Hippyism"],
    "discard_pile": ["Toast"]}

# TABLE with Bo within the Hand Limit: while he owes a discard, Ann's plays wait (FAQ 002-20), so
# "What if?" on her cards has outcomes only here.
WHATIF_TABLE: dict[str, Any] = {
    **TABLE, "players": [TABLE["players"][0], {**TABLE["players"][1], "hand_size": 2}]}


def html(response: Any) -> str:
    return response.get_data(as_text=True)


def csrf_from(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match, "the page carries no CSRF token"
    return match.group(1)


def what_if(page: Any, state: dict[str, Any], card: str) -> Any:
    """Opens the ruling page of `state` in a Playwright `page`, asks "What if I play this?" on
    the active hand's `card` (an id), and returns the locator of the answer."""
    from adjudicator.web.pages.forms import encode_state

    page.goto("/ruling?state=" + encode_state(state))
    hand_card = page.locator(".seat-view.active .hand-card").filter(
        has=page.locator(f"[data-card={card}]"))
    hand_card.get_by_role("button", name="What if I play this?").click()
    return page.locator("#whatif .play-result")


# Ann may play Jackpot!, Bread (Toast with her Toaster: a win) or Use What You Take (a random
# card of Bo's or Cy's hand): the game-log tests go on from it move by move.
GAME: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Use What You Take", "Jackpot!", "Bread"],
                 "keepers": ["Toaster"]},
                {"name": "Bo", "hand": ["Love", "Milk", "?", "?"], "keepers": []},
                {"name": "Cy", "hand": ["Peace"]}],
    "active": "Ann", "rules": ["Play 2"], "goals": ["Toast"], "turn": {"drawn": 1, "played": 0},
    "draw_pile": ["Sun", "Moon", "Time", "Cookies"], "discard_pile": [],
}
