"""A What-if answer that asks for choices (`open_choices`, docs/PLAYS.md) gives each one a
control and a button that posts the move again with them, so the game goes on:

1. A play from a hand the table does not show: the title reads without a card, a list of the
   cards it may be, and the card chosen gives the outcome (the move's own `card`).
2. Gambling (Fluxxnomic): a number from the minimum to the maximum offered; then the chance
   result, posted back as offered.
3. A newcomer's join: a text field for the name (the move's own `player`).
4. Cards drawn unseen (`drawn`, `count` of them, in order) and unknown cards put face up
   (`reveal`: any card of the deck, for the player named).
5. Every option offered, posted back as it is offered, is accepted.
6. Every choice key of docs/PLAYS.md has its words in both languages: no raw "n" or "player".
"""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from adjudicator.i18n import messages
from adjudicator.web.pages.forms import encode_state
from tests.web.ui_pages import csrf_from, html

# Bo's hand is known only by its size: his play names no card until the table says which
UNKNOWN_HAND = {
    "players": [{"name": "Ann", "hand": ["Jackpot"]}, {"name": "Bo", "hand_size": 3}],
    "active": "Bo", "goals": ["Hippyism"], "draw_pile": 30, "turn": {"drawn": 1},
}
NOMIC = {
    "edition": "fluxxnomic",
    "players": [{"name": "Ann", "hand": ["Gambling", "Book"]}, {"name": "Bo", "hand_size": 3}],
    "active": "Ann", "turn": {"drawn": 0, "played": 0},
}
# Ann's two unknown cards, and a pile known only by its count
UNSEEN = {
    "players": [{"name": "Ann", "hand": ["Draw 2 and Use Em", "Discard and Draw", "?", "?"]},
                {"name": "Bo", "hand_size": 3}],
    "active": "Ann", "draw_pile": 30, "turn": {"drawn": 1},
}
ACTIONS = {
    "players": [{"name": "Ann", "hand": ["Let's Simplify", "Trade Hands", "Taxation",
                                         "Exchange Keepers"], "keepers": ["Sun"]},
                {"name": "Bo", "hand": ["Milk", "Moon"], "keepers": ["Love"]},
                {"name": "Cy", "hand_size": 2, "keepers": ["Peace"]}],
    "active": "Ann", "rules": ["Draw 2", "Play 2", "Hand Limit 2", "Keeper Limit 3"],
    "draw_pile": 30, "turn": {"drawn": 2},
}


class WhatIf:
    """The answers of one table's What-if buttons and of their choices' forms."""

    def __init__(self, client, state: dict, lang: str = "en") -> None:
        self.client, self.state, self.lang = client, state, lang
        page = html(client.get("/ruling", query_string={"state": encode_state(state),
                                                        "lang": lang}))
        self.csrf = csrf_from(page)

    def post(self, fields: dict, status: int = 200) -> str:
        response = self.client.post(
            "/ruling/play", query_string={"lang": self.lang}, headers={"HX-Request": "true"},
            data={"csrf_token": self.csrf, "state": encode_state(self.state), **fields})
        assert response.status_code == status, html(response)
        return html(response)

    def move(self, play: dict) -> str:
        return self.post({"play": json.dumps(play)})


def form_of(body: str) -> str:
    found = re.search(r'<form[^>]*class="choices-form".*?</form>', body, re.S)
    assert found, "the answer has no form for its open choices"
    return found.group(0)


def hidden(form: str) -> dict[str, str]:
    return {k: unescape(v) for k, v in
            re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', form)}


def controls(form: str) -> dict[str, list[str]]:
    """Each control's name and the values it offers (options of a list, radio buttons...)."""
    found: dict[str, list[str]] = {}
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        values = [unescape(v) for v in re.findall(r'<option value="([^"]*)"', body) if v]
        found.setdefault(unescape(name), values)
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if name and 'type="hidden"' not in tag:
            value = re.search(r'value="([^"]*)"', tag)
            found.setdefault(unescape(name.group(1)), []).extend(
                [unescape(value.group(1))] if value else [])
    return found


def resend(body: str, **chosen) -> dict:
    """What the answer's form posts: its hidden fields and the controls chosen."""
    form = form_of(body)
    return {**hidden(form), **chosen}


def title(body: str) -> str:
    return re.sub(r"<[^>]+>", "", re.search(r'<h2 id="play-title">(.*?)</h2>', body, re.S)
                  .group(1)).strip()


def outcomes(body: str) -> int:
    return len(re.findall(r'class="outcome[ "]', body))


# --- 1. a play from an unknown hand -----------------------------------------------------------

@pytest.mark.parametrize(("lang", "asked", "chosen"), [
    ("en", "What if Bo plays a card from their hand?", "What if Bo plays Draw 2?"),
    ("zh", "如果 Bo 从手牌中打出一张牌？", "如果 Bo 打出「抓2张牌」？"),
])
def test_a_play_from_an_unknown_hand_asks_which_card_and_goes_on(client, lang, asked, chosen):
    what = WhatIf(client, UNKNOWN_HAND, lang)
    body = what.move({"kind": "play", "player": "Bo"})
    assert title(body) == asked
    assert "found no outcome" not in body and "没有找到" not in body
    offered = controls(form_of(body))
    assert "draw_2" in offered["move:card"] and len(offered["move:card"]) > 50
    label = "card played" if lang == "en" else "打出的牌"
    assert f">{label}</label>" in form_of(body)
    after = what.post(resend(body, **{"move:card": "draw_2"}))
    assert title(after) == chosen
    assert outcomes(after) == 1 and "apply-outcome" in after


# --- 2. Gambling ------------------------------------------------------------------------------

def test_gambling_asks_for_n_within_its_bounds_then_the_result_as_offered(client):
    what = WhatIf(client, NOMIC)
    body = what.move({"kind": "play", "card": "gambling", "player": "Ann"})
    form = form_of(body)
    number = re.search(r'<input type="number"[^>]*>', form, re.S).group(0)
    assert 'name="choice-number:n"' in number and 'min="1"' in number and 'max="100"' in number
    assert "value of n (cards to draw)" in form and "a whole number from 1 to 100" in form
    after = what.post(resend(body, **{"choice-number:n": "2"}))
    assert outcomes(after) == 2
    results = controls(form_of(after))["choice-json:gambling"]
    assert sorted(json.loads(v) for v in results) == ["discarded", "kept"]
    kept = what.post(resend(after, **{"choice-json:gambling": json.dumps("kept")}))
    assert outcomes(kept) == 1 and "choices-form" not in kept


def test_an_n_out_of_bounds_is_refused_on_its_field(client):
    what = WhatIf(client, NOMIC)
    body = what.move({"kind": "play", "card": "gambling", "player": "Ann"})
    refused = what.post(resend(body, **{"choice-number:n": "101"}), status=400)
    assert 'data-path="/play/choices/n"' in refused


# --- 3. a newcomer joins ----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "asked", "label"), [
    ("en", "What if a new player joins the game?", "new player&#39;s name"),
    ("zh", "如果有新玩家加入游戏？", "新玩家的名字"),
])
def test_a_newcomer_is_asked_for_a_name_and_joins(client, lang, asked, label):
    what = WhatIf(client, NOMIC, lang)
    body = what.move({"kind": "join"})
    assert title(body) == asked
    form = form_of(body)
    assert 'name="move:player"' in form and f">{label}</label>" in form
    after = what.post(resend(body, **{"move:player": "Dee"}))
    assert outcomes(after) == 1 and "Dee" in title(after)


# --- 4. cards drawn unseen, unknown cards revealed --------------------------------------------

def test_cards_drawn_unseen_are_named_in_order(client):
    what = WhatIf(client, UNSEEN)
    body = what.move({"kind": "play", "card": "draw_2_and_use_em", "player": "Ann"})
    offered = controls(form_of(body))
    assert len(re.findall(r'name="choice-cards:drawn"', form_of(body))) == 2
    assert "jackpot" in offered["choice-cards:drawn"]
    after = what.post(resend(body, **{"choice-cards:drawn": ["jackpot", "milk"]}))
    assert outcomes(after) == 1
    # the sub-hand is played out next: its cards, in order, each one optional
    assert len(re.findall(r'name="choice-cards:order"', form_of(after))) == 2


def test_unknown_cards_put_face_up_are_named_for_their_player(client):
    what = WhatIf(client, UNSEEN)
    body = what.move({"kind": "play", "card": "discard_and_draw", "player": "Ann"})
    form = form_of(body)
    assert len(re.findall(r'name="choice-reveal:Ann"', form)) == 2
    assert "Ann&#39;s unknown cards (2 cards)" in form
    after = what.post(resend(body, **{"choice-reveal:Ann": ["love", "milk"]}))
    assert outcomes(after) == 1 and "Love" in after and "choices-form" not in after


# --- 5. every option offered is accepted back -------------------------------------------------

@pytest.mark.parametrize("card", ["lets_simplify", "trade_hands", "taxation", "exchange_keepers"])
def test_every_option_offered_is_accepted_back(client, card):
    what = WhatIf(client, ACTIONS)
    body = what.move({"kind": "play", "card": card, "player": "Ann"})
    for name, values in controls(form_of(body)).items():
        for value in values:
            after = what.post(resend(body, **{name: value}))
            assert outcomes(after) >= 1, (name, value)


# --- 6. the choice keys in words --------------------------------------------------------------

def test_every_choice_key_has_words_in_both_languages():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "PLAYS.md").read_text()
    table = doc[doc.index("## Choice keys, per card"):doc.index("## Free actions")]
    keys = {k for row in table.splitlines() if row.startswith("| ") and row.count("|") > 3
            for k in re.findall(r"`([a-z_]+)`", row.split("|")[2])}
    assert {"n", "gambling", "drawn", "reveal", "card"} <= keys
    strings = messages()
    for key in keys | {"move.card", "move.player"}:
        pair = strings.get("choice." + key)
        assert pair and pair["en"] and pair["zh"], key
