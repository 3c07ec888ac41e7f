"""Text on the ruling and What-if pages is escaped once: a card or player name with an
apostrophe, an ampersand or angle brackets reads as typed, in every place it is shown (a move's
button, a finding, the table, a tie, the choices form), in both languages.

A name that passes through a macro into a translated string is escaped there already: escaped
again, "Let's Simplify" reads "Let&#39;s Simplify" on the button. Any "&amp;" followed by an
entity is that mistake, whatever the entity."""

from __future__ import annotations

import re

import pytest

from adjudicator.web.pages.forms import encode_state
from tests.web.ui_pages import csrf_from, html

DOUBLE = re.compile(r"&amp;(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")

# Creepers and Surprises: Let's Simplify among the moves, players whose names need escaping
TABLE = {
    "edition": "fluxx", "expansions": ["creepers", "surprises"],
    "players": [
        {"name": "Ann O'Neil", "hand": ["Let's Simplify", "Jackpot", "Trade Hands"],
         "keepers": ["Peace"]},
        {"name": "Bo & <Co>", "hand": ["That's Mine!", "Milk"], "keepers": ["Love"]},
    ],
    "active": "Ann O'Neil", "rules": ["Draw 2", "Play 2"], "goals": ["Hippyism"],
    "draw_pile": 30, "turn": {"drawn": 2},
}
# Ann's Sun waits in the chain: Bo may take it with That's Mine!
CHAINED = {**TABLE, "pending": [{"player": "Ann O'Neil", "card": "Sun"}]}
# both players meet the Goal at once: a tie names them together
TIED = {
    "players": [{"name": "Ann O'Neil", "hand": ["Jackpot"], "keepers": ["Peace", "Love"]},
                {"name": "Bo & <Co>", "hand_size": 1, "keepers": ["Milk", "Cookies"]}],
    "active": "Ann O'Neil", "rules": ["Double Agenda"], "goals": ["Hippyism", "Milk and Cookies"],
    "draw_pile": 30,
}


def page(client, state: dict, lang: str) -> str:
    response = client.get("/ruling", query_string={"state": encode_state(state), "lang": lang})
    assert response.status_code == 200, html(response)
    return html(response)


def assert_escaped_once(body: str) -> None:
    found = DOUBLE.search(body)
    assert not found, body[max(0, found.start() - 200):found.end() + 80]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("state", [TABLE, CHAINED, TIED], ids=["moves", "chain", "tie"])
def test_the_ruling_page_escapes_names_once(client, state, lang):
    body = page(client, state, lang)
    assert_escaped_once(body)


def test_a_move_button_reads_the_card_as_written(client):
    assert "play: Let&#39;s Simplify" in page(client, TABLE, "en")
    assert "Surprise: That&#39;s Mine!" in page(client, CHAINED, "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("card", ["lets_simplify", "trade_hands"])
def test_the_what_if_page_escapes_names_once(client, card, lang):
    body = page(client, TABLE, lang)
    for htmx in (True, False):
        response = client.post(
            "/ruling/play", query_string={"lang": lang},
            headers={"HX-Request": "true"} if htmx else {},
            data={"csrf_token": csrf_from(body), "state": encode_state(TABLE), "kind": "play",
                  "card": card, "player": "Ann O'Neil"})
        assert response.status_code == 200, html(response)
        assert_escaped_once(html(response))
