""""What if I play this?" and the ruling page through Flask's test client (tests/browser/ checks
the address bar in Chromium).

1. The What-if buttons follow the ruling's legal moves: a legal Surprise posts
   `kind: "surprise"` with its player (also a player whose turn it is not), the chain's
   `resolve` has its own button.
2. Taxation / Scramble Keepers outcomes name who gives or gets which card, in both languages.
3. Engine words are translated: the `resolve` move, `clockwise`, `none`, `unknown`.
4. The What-if title names an expansion card by its name, not its id.
5. No What-if button on an unknown card ("?") of the active hand.
6. An inline (htmx) ruling pushes its permalink to the address bar, and the language switch
   it swaps in keeps the table.
7. The language links of a What-if result (a POST) lead somewhere a GET can reach.
8. A random pick whose effect is unknown is told apart from the outcomes, with its odds.
"""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from adjudicator.web.pages.forms import decode_state, encode_state
from tests.web.ui_pages import CHAIN, csrf_from, html

ACTIONS = {
    "edition": "fluxx",
    "players": [
        {"name": "Ann", "hand": ["Taxation", "Scramble Keepers", "Rotate Hands",
                                 "Let's Simplify", "Use What You Take"], "keepers": ["Peace"]},
        {"name": "Bo", "hand": ["Milk", "Sun"], "keepers": ["Love"]},
        {"name": "Cy", "hand_size": 2, "keepers": ["Moon"]},
    ],
    "active": "Ann", "rules": ["Draw 3", "Hand Limit 2"], "goals": ["Hippyism"], "draw_pile": 40,
}


def ruling_page(client, state: dict, lang: str = "en") -> str:
    response = client.get("/ruling", query_string={"state": encode_state(state), "lang": lang})
    assert response.status_code == 200
    return html(response)


def whatif_forms(page: str, moves: bool = False) -> list[dict[str, str]]:
    """The hidden fields of every "What if" button of a page's hands (`kind`, `card`,
    `player`), or with `moves` of its listed moves (the move's `play` object, read)."""
    forms = []
    for body in re.findall(r'<form[^>]*class="whatif-form"[^>]*>(.*?)</form>', page, re.S):
        fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', body))
        fields = {k: unescape(v) for k, v in fields.items() if k != "csrf_token"}
        if moves and "play" in fields:
            forms.append({**fields, **json.loads(fields["play"])})
        elif not moves and "play" not in fields:
            forms.append(fields)
    return forms


def what_if(client, state: dict, lang: str = "en", **fields: str) -> str:
    page = ruling_page(client, state, lang)
    response = client.post("/ruling/play", query_string={"lang": lang}, data={
        "csrf_token": csrf_from(page), "state": encode_state(state), **fields})
    assert response.status_code == 200, html(response)
    return html(response)


def headings(body: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h3>(.*?)</h3>", body, re.S)]


# --- 1. What-if buttons from the legal moves ---------------------------------------------------

def test_a_legal_surprise_posts_a_surprise_move_and_is_allowed(client):
    forms = whatif_forms(ruling_page(client, CHAIN))
    veto = [{k: v for k, v in f.items() if k != "state"} for f in forms
            if f.get("card") == "veto"]
    assert veto == [{"kind": "surprise", "card": "veto", "player": "Ann"}]
    body = what_if(client, CHAIN, **veto[0])
    assert "not allowed" not in body
    link = re.search(r'class="permalink" href="/ruling\?state=([^"]+)"', body)
    assert link, "the Surprise's outcome links to its table"
    after = decode_state(link.group(1))
    assert [p["card"] for p in after["pending"]] == ["trade_hands", "stop_that", "veto"]


def test_a_surprise_of_a_player_whose_turn_it_is_not_gets_its_button(client):
    body = what_if(client, CHAIN, kind="surprise", card="veto", player="Ann")
    after = decode_state(re.search(r'class="permalink" href="/ruling\?state=([^"]+)"',
                                   body).group(1))
    forms = whatif_forms(ruling_page(client, after))
    cy = [f for f in forms if f.get("player") == "Cy"]
    assert [(f["kind"], f["card"]) for f in cy] == [("surprise", "thats_mine")]
    # Cy's Sleep answers nothing: no button; Bo's hand is unknown: none either
    assert not [f for f in forms if f.get("player") == "Bo"]
    answer = what_if(client, after, **{k: v for k, v in cy[0].items() if k != "state"})
    assert "not allowed" not in answer and "What if Cy plays That&#39;s Mine!?" in answer


def test_the_chains_resolve_move_has_its_own_button(client):
    forms = whatif_forms(ruling_page(client, CHAIN), moves=True)
    resolve = [f for f in forms if f.get("kind") == "resolve"]
    assert len(resolve) == 1 and resolve[0]["player"] == "Ann"
    body = what_if(client, CHAIN, kind="resolve", player="Ann")
    assert "not allowed" not in body
    assert "What if Ann resolves the chain of Trade Hands?" in body
    zh = what_if(client, CHAIN, "zh", kind="resolve", player="Ann")
    assert "如果 Ann 结算「交换手牌」的连锁？" in zh
    after = decode_state(re.search(r'class="permalink" href="/ruling\?state=([^"]+)"',
                                   body).group(1))
    assert not after.get("pending")


def test_a_plain_play_keeps_its_buttons_and_kind(client):
    table = {"players": [{"name": "Ann", "hand": ["Draw 2", "Jackpot!"]},
                         {"name": "Bo", "hand_size": 3}], "active": "Ann"}
    forms = whatif_forms(ruling_page(client, table))
    assert [(f["kind"], f["card"], f["player"]) for f in forms] == [
        ("play", "draw_2", "Ann"), ("play", "jackpot", "Ann")]


# --- 2. who gives or gets which card -----------------------------------------------------------

@pytest.mark.parametrize(("card", "lang", "expected"), [
    ("taxation", "en", "tax paid = Bo gives Milk"),
    ("taxation", "zh", "缴纳的牌：Bo交出「牛奶」"),
    ("scramble_keepers", "en", "scrambled Keepers = Ann gets Peace, Bo gets Love, Cy gets Moon"),
    ("scramble_keepers", "zh", "打乱后的所有物：Ann得到「和平」、Bo得到「爱」、Cy得到「月亮」"),
])
def test_player_card_choices_read_as_words(client, card, lang, expected):
    body = what_if(client, ACTIONS, lang, card=card, player="Ann")
    texts = headings(body)
    assert any(expected in h for h in texts), texts
    assert not any("player" in h or "card," in h for h in texts), texts


def test_player_names_in_choice_values_are_escaped(client):
    table = {**ACTIONS, "players": [ACTIONS["players"][0],
                                    {**ACTIONS["players"][1], "name": "<b>Bo</b>"},
                                    ACTIONS["players"][2]]}
    body = what_if(client, table, card="taxation", player="Ann")
    assert "&lt;b&gt;Bo&lt;/b&gt; gives Milk" in body and "<b>Bo</b>" not in body


# --- 3. engine words translated ----------------------------------------------------------------

def test_the_resolve_move_is_named_in_both_languages(client):
    zh = ruling_page(client, CHAIN, "zh")
    assert "resolve" not in re.sub(r"<[^>]*>", "", zh)
    assert "结算连锁「交换手牌」" in zh
    assert "resolve the chain: Trade Hands" in ruling_page(client, CHAIN)


@pytest.mark.parametrize(("card", "zh_words", "en_words"), [
    ("rotate_hands", ["顺时针", "逆时针"], ["clockwise", "counterclockwise"]),
    ("lets_simplify", ["不弃任何规则"], ["no rule"]),
    ("use_what_you_take", ["一张未知的牌"], ["an unknown card"]),
])
def test_choice_values_are_translated(client, card, zh_words, en_words):
    zh = what_if(client, ACTIONS, "zh", card=card, player="Ann")
    text = " ".join(headings(zh))
    for raw in ("clockwise", "none", "unknown"):
        assert raw not in text, text
    for word in zh_words:
        assert word in text
    assert "; " not in text  # choices are separated in Chinese too
    en = " ".join(headings(what_if(client, ACTIONS, card=card, player="Ann")))
    for word in en_words:
        assert word in en
    assert "= none" not in en and "= unknown" not in en


# --- 4. the title names expansion cards --------------------------------------------------------

@pytest.mark.parametrize(("lang", "title"), [("en", "What if Ann plays Veto!?"),
                                             ("zh", "如果 Ann 打出「否决！」？")])
def test_the_what_if_title_names_an_expansion_card(client, lang, title):
    body = what_if(client, CHAIN, lang, card="veto", player="Ann")
    assert title in body and "「veto」" not in body and "plays veto?" not in body


# --- 5. no What-if for an unknown card ---------------------------------------------------------

def test_an_unknown_card_has_no_what_if_button(client):
    table = {"players": [{"name": "Ann", "hand": ["Draw 2", "?", "?"]},
                         {"name": "Bo", "hand_size": 3}], "active": "Ann"}
    forms = whatif_forms(ruling_page(client, table))
    assert [f["card"] for f in forms] == ["draw_2"]


# --- 6. the permalink in the address bar -------------------------------------------------------

def test_an_inline_ruling_pushes_its_permalink_and_keeps_the_table_in_the_language_links(
        client):
    page = html(client.get("/"))
    form = {"csrf_token": csrf_from(page), "edition": "fluxx", "active": "0",
            "players-0-name": "Ann", "players-0-hand": "Draw 2",
            "players-1-name": "Bo", "players-1-hand_size": "3"}
    response = client.post("/ruling", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 200
    pushed = response.headers.get("HX-Push-Url", "")
    assert pushed.startswith("/ruling?state=")
    state = parse_qs(urlsplit(pushed).query)["state"][0]
    assert decode_state(state)["players"][0]["hand"] == ["draw_2"]
    body = html(response)
    # the page's language switch is swapped for one that keeps the table
    switch = re.search(r'<div class="lang-switch"[^>]*hx-swap-oob="true"[^>]*>(.*?)</div>',
                       body, re.S)
    assert switch, "the fragment carries the language switch out of band"
    links = [unescape(h) for h in re.findall(r'href="([^"]+)"', switch.group(1))]
    assert len(links) == 2
    for link, code in zip(links, ("zh", "en"), strict=True):
        query = parse_qs(urlsplit(link).query)
        assert urlsplit(link).path == "/ruling"
        assert query == {"state": [state], "lang": [code]}
    zh = html(client.get(links[0]))
    assert '<html lang="zh-Hans">' in zh and "抓2张牌" in zh


def test_an_inline_ruling_error_pushes_nothing(client):
    page = html(client.get("/"))
    form = {"csrf_token": csrf_from(page), "edition": "fluxx", "active": "0",
            "players-0-name": "Ann", "players-0-hand": "Nothing Such"}
    response = client.post("/ruling", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 400 and "HX-Push-Url" not in response.headers


def test_the_full_ruling_page_has_no_out_of_band_switch_and_keeps_the_state(client):
    token = encode_state(ACTIONS)
    page = html(client.get("/ruling", query_string={"state": token}))
    assert "hx-swap-oob" not in page
    assert page.count('class="lang-switch"') == 1
    zh = re.search(r'href="([^"]+)" hreflang="zh"', page).group(1)
    assert parse_qs(urlsplit(unescape(zh)).query)["state"] == [token]


# --- 7. the language links of a What-if result --------------------------------------------------

def test_whatif_result_language_links_lead_to_a_page(client):
    state = {"players": [{"name": "Ann", "hand": ["Draw 2"]}, {"name": "Bo", "hand_size": 3}],
             "active": "Ann"}
    token = encode_state(state)
    page = html(client.get("/ruling", query_string={"state": token, "lang": "en"}))
    result = client.post("/ruling/play", data={
        "csrf_token": csrf_from(page), "state": token, "card": "draw_2", "player": "Ann"})
    assert result.status_code == 200
    switch = re.search(r'<div class="lang-switch".*?</div>', html(result), re.S)
    assert switch
    links = [unescape(h) for h in re.findall(r'href="([^"]+)"', switch.group(0))]
    back = re.search(r'<a href="([^"]+)">← Back to the ruling', html(result))
    assert len(links) == 2 and back
    table = parse_qs(urlsplit(unescape(back.group(1))).query)["state"]
    for code, link in zip(("zh", "en"), links, strict=True):
        answer = client.get(link)
        assert answer.status_code == 200, link
        # the ruling the What-if was asked from, in that language
        assert urlsplit(link).path == "/ruling"
        assert parse_qs(urlsplit(link).query) == {"state": table, "lang": [code]}


# --- 8. a random pick whose effect is unknown --------------------------------------------------

FAN_CLUB = {"players": [{"name": "Ann", "hand": ["Love", "Join the Fluxx Fan Club"]},
                        {"name": "Bo", "hand": ["Cookies"]}],
            "active": "Ann", "rules": ["First Play Random", "Play 2"],
            "turn": {"drawn": 1, "played": 0}, "draw_pile": 30}


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Not listed, since what happens then is unknown (see above):",
            "Join the Fluxx Fan Club", "what playing it does is unknown"]),
    ("zh", ["未列出（此时的结果未知，见上）：", "「加入Fluxx爱好者俱乐部」"]),
])
def test_a_random_pick_of_unknown_effect_is_told_apart_from_the_outcomes(client, lang, words):
    [move] = [f for f in whatif_forms(ruling_page(client, FAN_CLUB, lang), moves=True)
              if f["kind"] == "play_random"]
    body = what_if(client, FAN_CLUB, lang, play=json.dumps({"kind": "play_random",
                                                            "player": move.get("player")}))
    unknown = re.findall(r'<p class="unknown-outcome">(.*?)</p>', body, re.S)
    assert len(unknown) == 1 and "1/2" in unknown[0]
    text = re.sub(r"<[^>]+>", "", unescape(body))
    for word in words:
        assert word in text, word
    assert body.count('<article class="outcome') == 1  # the one outcome with a table: Love
