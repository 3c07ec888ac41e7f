"""The HTML pages through Flask's test client: every page in both languages, escaping, the
security headers, CSRF refusal, the one error display, permalinks and the JSON twins.
(tests/browser/ drives the same pages in a real browser.)
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from markupsafe import escape

from adjudicator.i18n import field_words, messages
from adjudicator.web.pages.forms import decode_state, encode_state, state_from_form
from tests.web.ui_pages import csrf_from, html

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

TABLE = {
    "players": [
        {"name": "Ann", "hand": ["Draw 2", "Jackpot!", "和平"]},
        {"name": "Bo", "hand_size": 3, "keepers": ["Love"]},
    ],
    "active": "Ann",
    "rules": ["Draw 3", "Hand Limit 2"],
    "goals": ["Hippyism"],
}
# Bo within the Hand Limit: while he owes a discard, Ann's plays wait (FAQ 002-20)
WHATIF_TABLE = {**TABLE, "players": [TABLE["players"][0], {**TABLE["players"][1], "hand_size": 2}]}
PAGES = ["/", "/faq", "/faq/002-65", "/rulebook", "/cards", "/cards/draw_2",
         "/cards/draw_2?edition=math", "/ruling?state=" + encode_state(TABLE)]
FIXED_ANCHORS = (
    "setup each-turn card-types basic-rules new-rules goals keepers actions discarding winning "
    "mixing glossary exec-summary going-first turn-sequence limits numbers-and-math math-rules "
    "keep-going example-draw-rule-rises example-draw-2-and-use-em example-keeper-first "
    "reshuffling cards-in-play free-actions jumping-in dropping-out fluxxnomic-items "
    "fluxxnomic-hands fluxxnomic-cards fluxxnomic-phases fluxxnomic-card-types "
    "fluxxnomic-winning").split()


def without_timings(ruling: dict) -> dict:
    return {k: v for k, v in ruling.items() if k != "engine"}


def editor_form(client, **fields) -> dict:
    token = csrf_from(html(client.get("/")))
    form = {"csrf_token": token, "edition": "fluxx", "active": "0",
            "players-0-name": "Ann", "players-0-hand": "Draw 2\nJackpot!\n和平",
            "players-1-name": "Bo", "players-1-hand_size": "3", "players-1-keepers": "Love",
            "rules": "Draw 3\nHand Limit 2", "goals": "Hippyism"}
    form.update(fields)
    return form


# --- every page, both languages --------------------------------------------------------------

@pytest.mark.parametrize("url", PAGES)
def test_every_page_answers_in_english_and_chinese(client, url):
    sep = "&" if "?" in url else "?"
    en = client.get(url + sep + "lang=en")
    zh = client.get(url + sep + "lang=zh")
    assert en.status_code == 200 and zh.status_code == 200
    assert '<html lang="en">' in html(en) and ">FAQ<" in html(en)
    assert '<html lang="zh-Hans">' in html(zh) and ">常见问题<" in html(zh)
    assert "Rulebook" not in re.sub(r"<[^>]+>", "", html(zh)).split("English")[0]


def test_language_is_remembered_in_a_cookie(client):
    first = client.get("/faq?lang=zh")
    assert "lang=zh" in first.headers["Set-Cookie"]
    again = client.get("/rulebook")  # no ?lang: the cookie decides
    assert '<html lang="zh-Hans">' in html(again)
    switched = client.get("/lang/en?next=/cards")
    assert switched.status_code == 302 and switched.headers["Location"].endswith("/cards")
    assert '<html lang="en">' in html(client.get("/cards"))


def test_language_switch_refuses_to_leave_the_site(client):
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
        response = client.get("/lang/zh", query_string={"next": target})
        assert response.headers["Location"] in ("/", "http://localhost/")


def test_browser_language_picks_chinese_without_a_cookie(client):
    response = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    assert '<html lang="zh-Hans">' in html(response)


# --- security ----------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/", "/faq", "/nonexistent", "/api/cards"])
def test_security_headers_on_every_response(client, url):
    headers = client.get(url).headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp and "form-action 'self'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("url", PAGES)
def test_no_inline_script_or_style(client, url):
    page = html(client.get(url))
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert "src=" in tag, tag
    assert not re.search(r"\sstyle=", page)
    assert not re.search(r"\son[a-z]+=", page)


def test_player_names_are_escaped(client):
    evil = "<script>alert('x')</script>"
    state = {**TABLE, "players": [{**TABLE["players"][0], "name": evil}, TABLE["players"][1]],
             "active": evil}
    page = html(client.get("/ruling", query_string={"state": encode_state(state)}))
    assert evil not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    editor = html(client.get("/", query_string={"state": encode_state(state)}))
    assert evil not in editor and "&lt;script&gt;" in editor


def test_post_without_csrf_token_is_refused(client):
    form = editor_form(client)
    del form["csrf_token"]
    response = client.post("/ruling", data=form)
    assert response.status_code == 403
    assert "The form&#39;s security token" in html(response)


def test_post_with_a_token_from_another_browser_is_refused(app, client):
    other = app.test_client()
    stolen = csrf_from(html(other.get("/")))
    form = editor_form(client, csrf_token=stolen)
    assert client.post("/ruling", data=form).status_code == 403
    assert client.post("/ruling/play", data={"csrf_token": stolen, "card": "draw_2",
                                             "state": encode_state(TABLE)}).status_code == 403


def test_workers_share_the_secret_so_forms_survive_a_worker_switch(store_path, tmp_path,
                                                                  monkeypatch):
    from adjudicator.web import create_app

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("FLUXX_SECRET_KEY", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    one, two = (create_app({"STORE_PATH": str(store_path)}) for _ in range(2))
    assert one.secret_key == two.secret_key
    assert (tmp_path / "fluxx-adjudicator" / "secret_key").stat().st_mode & 0o077 == 0
    first = one.test_client()
    token = csrf_from(html(first.get("/")))
    second = two.test_client()
    second.set_cookie("session", first.get_cookie("session").value)
    response = second.post("/ruling", data=editor_form(second, csrf_token=token))
    assert response.status_code == 303


def test_session_cookie_is_samesite_and_httponly(client):
    cookie = client.get("/").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


# --- the editor and the ruling -------------------------------------------------------------------

def test_editor_posts_to_the_permalink(client):
    response = client.post("/ruling", data=editor_form(client))
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/ruling?state=")
    state = decode_state(location.split("state=", 1)[1])
    assert [p["name"] for p in state["players"]] == ["Ann", "Bo"]
    assert state["players"][0]["hand"] == ["draw_2", "jackpot", "peace"]  # names -> ids
    assert state["players"][1]["hand_size"] == 3
    page = html(client.get(location))
    assert "Ann must still draw" in page
    assert 'href="/cards/draw_3"' in page  # the table drawn as cards, each a link


def test_ruling_page_shows_the_engines_ruling(client):
    token = encode_state(TABLE)
    api = client.post("/api/ruling", json=TABLE).get_json()
    twin = client.get("/ruling", query_string={"state": token},
                      headers={"Accept": "application/json"}).get_json()
    assert without_timings(twin) == without_timings(api)
    page = html(client.get("/ruling", query_string={"state": token}))
    for finding in api["findings"]:
        text = finding["text"]["en"].replace("'", "&#39;")
        assert text in page
        for src in finding["sources"]:
            assert f'href="{src["url"]}"' in page
    assert f'{api["turn"]["draw"]["remaining"]}</p>' in page
    zh = html(client.get("/ruling", query_string={"state": token, "lang": "zh"}))
    assert api["findings"][0]["text"]["zh"] in zh


def test_ruling_shows_the_surprise_chain_and_the_winner(client):
    chain = {"expansions": ["surprises"], "active": "Ann",
             "players": [{"name": "Ann", "hand": ["Draw 2"]}, {"name": "Bo", "hand": []}],
             "pending": [{"player": "Ann", "card": "Trade Hands"},
                         {"player": "Bo", "card": "Stop That!"}]}
    ruling = client.post("/api/ruling", json=chain).get_json()
    page = html(client.get("/ruling", query_string={"state": encode_state(chain)}))
    outcome = {"canceled": "is canceled", "effective": "takes effect"}[ruling["pending"]["outcome"]]
    assert re.search(r"Trade Hands \(Ann\):\s*<strong[^>]*>" + outcome, page)
    assert "<li>Bo: Stop That!</li>" in page
    won = {"players": [{"name": "Ann", "hand": [], "keepers": ["Peace", "Love"]},
                       {"name": "Bo", "hand_size": 2}], "active": "Bo", "goals": ["Hippyism"]}
    assert client.post("/api/ruling", json=won).get_json()["winner"] == "Ann"
    page = html(client.get("/ruling", query_string={"state": encode_state(won), "lang": "zh"}))
    assert '<p class="banner win">Ann 赢得了游戏。</p>' in page


def test_ruling_htmx_request_gets_the_fragment(client):
    response = client.post("/ruling", data=editor_form(client), headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = html(response)
    assert "<html" not in body and 'class="verdict"' in body
    assert 'class="permalink" href="/ruling?state=' in body


def test_bad_card_names_the_field_in_words(client):
    form = editor_form(client, **{"players-1-hand_size": "", "players-1-hand": "Draw 2\nJakpot"})
    response = client.post("/ruling", data=form)
    assert response.status_code == 400
    page = html(response)
    assert "Player 2 (Bo), hand, card 2" in page
    # the suggestion, by both names; the editor's script reads data-value
    assert '<q data-value="Jackpot" class="card">Jackpot (中彩)</q>' in page
    assert 'value="Bo"' in page  # the editor keeps what was typed
    zh = html(client.post("/ruling?lang=zh", data=form))
    assert "第 2 位玩家（Bo），手牌，第 2 张牌" in zh


def test_htmx_error_is_the_error_fragment(client):
    form = editor_form(client, goals="Nothing Such")
    response = client.post("/ruling", data=form, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert 'class="errors"' in html(response) and "Goal on the table, card 1" in html(response)


def test_pasted_yaml_state(client):
    yaml_text = ("players:\n  - {name: Ann, hand: [Draw 2]}\n  - {name: Bo, hand_size: 2}\n"
                 "active: Bo\n")
    response = client.post("/ruling", data=editor_form(client, state_text=yaml_text))
    assert response.status_code == 303
    assert decode_state(response.headers["Location"].split("state=")[1])["active"] == "Bo"
    loaded = client.post("/", data=editor_form(client, state_text=yaml_text))
    assert loaded.status_code == 200
    assert 'name="players-1-name" value="Bo"' in html(loaded)
    assert re.search(r'name="active" value="1"\s+checked', html(loaded))


def test_pasted_garbage_names_the_pasted_state(client):
    response = client.post("/ruling", data=editor_form(client, state_text="players: [\n"))
    assert response.status_code == 400
    assert "The pasted state" in html(response)


def test_damaged_permalink_is_a_clear_error(client):
    response = client.get("/ruling?state=not-a-state!!")
    assert response.status_code == 400
    assert "The table state in the link" in html(response)
    api_like = client.get("/ruling?state=xx&format=json")
    assert api_like.status_code == 400 and api_like.get_json()["errors"][0]["path"] == "/state"


def test_editor_reopens_a_permalink(client):
    page = html(client.get("/", query_string={"state": encode_state(TABLE), "lang": "zh"}))
    assert 'value="Ann"' in page and 'value="Bo"' in page
    assert "抓3张牌" in page  # the rules as Chinese names in the zone's text


def test_editor_json_twin_is_the_state(client):
    token = encode_state(TABLE)
    page = html(client.get("/", query_string={"state": token}))
    assert f'href="/?state={token}&amp;format=json"' in page
    twin = client.get("/", query_string={"state": token}, headers={"Accept": "application/json"})
    assert twin.get_json() == TABLE
    assert client.get("/?format=json").get_json()["players"] == []


def test_chinese_ruling_names_cards_in_chinese(client):
    page = html(client.get("/ruling", query_string={"state": encode_state(TABLE), "lang": "zh"}))
    assert re.search(r'data-card="peace">\s*<span class="card-type">所有物</span>\s*'
                     r'<span class="card-name">和平</span>', page)


def test_what_if_play_shows_the_outcome(client):
    token = encode_state(WHATIF_TABLE)
    page = html(client.get("/ruling", query_string={"state": token}))
    assert page.count("What if I play this?") == 3  # one per card in Ann's hand
    response = client.post("/ruling/play", data={
        "csrf_token": csrf_from(page), "state": token, "card": "draw_2", "player": "Ann"})
    assert response.status_code == 200
    body = html(response)
    assert "What if Ann plays Draw 2?" in body
    link = re.search(r'class="permalink" href="/ruling\?state=([^"]+)"', body)
    assert link, "each outcome links to its own ruling"
    after = decode_state(link.group(1))
    assert "draw_2" in after["rules"] and "draw_3" not in after["rules"]
    assert after["players"][0]["hand"] == ["jackpot", "peace"]


def test_what_if_errors_inline(client):
    page = html(client.get("/ruling", query_string={"state": encode_state(TABLE)}))
    response = client.post("/ruling/play", headers={"HX-Request": "true"}, data={
        "csrf_token": csrf_from(page), "state": encode_state(TABLE), "card": "Nothing Such"})
    assert response.status_code == 400
    body = html(response)
    assert "<html" not in body and 'class="errors"' in body
    assert '<span class="error-field">The card to play</span>' in body


def test_ruling_without_a_state_goes_to_the_editor(client):
    response = client.get("/ruling")
    assert response.status_code == 302 and response.headers["Location"].endswith("/")


# --- knowledge pages -----------------------------------------------------------------------------

def test_rulebook_has_every_fixed_anchor_side_by_side(client):
    page = html(client.get("/rulebook"))
    for anchor in FIXED_ANCHORS:
        assert f'id="{anchor}"' in page, anchor
    assert page.count('class="lang-col" lang="zh-Hans"') == len(FIXED_ANCHORS)
    api = client.get("/api/rulebook").get_json()["sections"]
    marked = sum(1 for s in api for k in ("zh", "en")
                 if s["status"][k] in ("project_translation", "project_words"))
    assert page.count('class="mark mark-translation"') >= marked


def test_faq_search_in_chinese(client):
    page = html(client.get("/faq", query_string={"q": "意外卡"}))
    api = client.get("/api/faq", query_string={"q": "意外卡", "limit": 30}).get_json()
    assert api["results"], "the store answers a Chinese query"
    ids = re.findall(r'class="faq-link" href="/faq/([^"]+)"', page)
    assert ids == [r["id"] for r in api["results"]]


def test_faq_search_says_how_many_match_and_how_many_are_shown(client):
    q = "card play turn"  # words of almost every entry: more matches than the page lists
    total = client.get("/api/faq", query_string={"q": q}).get_json()["count"]
    assert total > 30
    page = html(client.get("/faq", query_string={"q": q}))
    assert f"{total} entries match “{q}”" in page
    assert f"(showing the first 30 of {total})" in page
    assert page.count('class="faq-link"') == 30
    few = html(client.get("/faq", query_string={"q": "Double Agenda"}))
    shown = few.count('class="faq-link"')
    assert 0 < shown < 30 and f"{shown} entries match" in few and "showing the first" not in few
    zh = html(client.get("/faq", query_string={"q": q, "lang": "zh"}))
    assert f"有 {total} 条与“{q}”相符" in zh and f"（显示前 30 条，共 {total} 条）" in zh


def test_faq_search_says_which_words_it_searched_for(client):
    page = html(client.get("/faq", query_string={"q": "inflaton"}))
    assert "Showing results for “inflation” (you searched for “inflaton”)." in page
    assert 'href="/faq/002-40"' in page
    zh = html(client.get("/faq", query_string={"q": "inflaton", "lang": "zh"}))
    assert "以下是“inflation”的搜索结果（原搜索：“inflaton”）。" in zh
    assert 'class="corrected"' not in html(client.get("/faq", query_string={"q": "inflation"}))


def test_faq_browse_by_card(client):
    page = html(client.get("/faq", query_string={"card": "play_all"}))
    assert 'href="/faq/002-07"' in page
    assert 'href="/faq/002-01"' not in page


def test_faq_card_filter_lists_each_card_once(client, knowledge_db):
    # War and Death are printed twice under one id (the rulebook deck's Keepers, the Creeper
    # Pack's Creepers); the FAQ links a card by its id, so the filter offers each id once
    page = html(client.get("/faq"))
    select = re.search(r'<select name="card">(.*?)</select>', page, re.S)
    assert select
    values = re.findall(r'<option value="([^"]*)"', select.group(1))
    assert values.count("war") == 1 and values.count("death") == 1
    assert len(values) == len(set(values))
    linked = {r[0] for r in knowledge_db.execute("select distinct card_id from faq_cards")}
    assert set(values) - {""} == linked  # every card the FAQ speaks of, none it does not


def test_faq_topics_and_editions_are_named_in_the_language(client):
    topics = client.get("/faq?format=json").get_json()["results"]
    named = next(e for e in topics if e["topics"])
    topic = named["topics"][0]
    zh = html(client.get("/faq", query_string={"lang": "zh", "topic": topic}))
    assert f'>{named["topic_names"][topic]["zh"]}</a>' in zh
    assert f'href="/faq/{named["id"]}"' in zh


def test_faq_entry_page(client):
    entry = client.get("/api/faq/002-65").get_json()
    page = html(client.get("/faq/002-65"))
    assert entry["text"].split("\n")[0].replace("'", "&#39;")[:60] in page
    for card in entry["cards"]:
        assert f'href="{card["url"]}"' in page
    assert 'id="coverage"' in page
    assert 'href="/api/faq/002-65"' in page  # the JSON twin is linked


def test_unknown_faq_entry_is_a_404_naming_the_id(client):
    response = client.get("/faq/002-99")
    assert response.status_code == 404
    assert "The id in the page address" in html(response)


def test_card_page_both_languages_and_its_faq(client):
    card = client.get("/api/cards/draw_2").get_json()
    page = html(client.get("/cards/draw_2"))
    assert card["name"]["zh"] in page and card["name"]["en"] in page
    assert card["text"]["zh"].split("\n")[0] in page
    for entry in card["faq"]:
        assert f'href="{entry["url"]}"' in page
    math = html(client.get("/cards/draw_2?edition=math"))
    assert "Math Fluxx" in math


def test_cards_list_per_edition(client):
    cards = client.get("/api/cards?edition=fluxx").get_json()["cards"]
    page = html(client.get("/cards"))
    assert page.count('class="card card-') == len(cards)


@pytest.mark.parametrize("page_url, api_url", [
    ("/faq", "/api/faq"),
    ("/faq?q=surprise", "/api/faq?q=surprise"),
    ("/faq/002-07", "/api/faq/002-07"),
    ("/rulebook", "/api/rulebook"),
    ("/cards?edition=math", "/api/cards?edition=math"),
    ("/cards/draw_2", "/api/cards/draw_2"),
])
def test_json_twins(client, page_url, api_url):
    twin = client.get(page_url, headers={"Accept": "application/json"})
    assert twin.is_json and twin.get_json() == client.get(api_url).get_json()
    assert html(client.get(page_url)).count('type="application/json"') >= 1


# --- building blocks ------------------------------------------------------------------------------

def test_field_words(app):
    state = {"players": [{"name": "Ann"}, {"name": "Bo"}]}
    with app.test_request_context("/?lang=en"):
        assert field_words("/players/1/keepers/0", state) == "Player 2 (Bo), Keepers, card 1"
        assert field_words("/turn/drawn") == "Cards drawn so far this turn"
        assert field_words("/pending/0/card") == "Pending play 1, card"
        assert field_words("/active") == "Whose turn it is"
    with app.test_request_context("/?lang=zh"):
        assert field_words("/players/0/hand/2", state) == "第 1 位玩家（Ann），手牌，第 3 张牌"


def test_permalink_round_trip():
    state = {**TABLE, "players": [{"name": "小安", "hand": ["抓2张牌"]}], "active": "小安"}
    token = encode_state(state)
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert decode_state(token) == state


def test_form_fields_make_the_contract_state():
    from werkzeug.datastructures import MultiDict

    form = MultiDict([
        ("edition", "fluxx"), ("expansions", "surprises"), ("active", "1"),
        ("players-0-name", "Ann"), ("players-0-hand", "Draw, 3, Play 2 of them\r\nJackpot!"),
        ("players-1-name", "Bo"), ("players-1-hand_size", "2"),
        ("players-2-name", ""),  # an empty seat
        ("turn-drawn", "1"), ("draw_pile", "30"), ("pending", "Ann: Trade Hands\nBo：Stop That!"),
    ])
    state = state_from_form(form)
    assert state["active"] == "Bo" and state["expansions"] == ["surprises"]
    assert state["players"][0]["hand"] == ["Draw, 3, Play 2 of them", "Jackpot!"]
    assert state["players"][1] == {"name": "Bo", "hand_size": 2, "keepers": [], "creepers": []}
    assert len(state["players"]) == 2
    assert state["turn"] == {"drawn": 1} and state["draw_pile"] == 30
    assert state["pending"] == [{"player": "Ann", "card": "Trade Hands"},
                                {"player": "Bo", "card": "Stop That!"}]


def test_every_ui_string_has_both_languages_and_every_key_exists():
    strings = messages()
    for key, pair in strings.items():
        assert pair["en"].strip() and pair["zh"].strip(), key
    used = set()
    for path in TEMPLATES.rglob("*.html"):
        used |= set(re.findall(r"\bt\('([a-z0-9_.]+)'", path.read_text(encoding="utf-8")))
    missing = sorted(k for k in used if k not in strings and not k.endswith((".", "_")))
    assert not missing, missing


# ---- /ruling without a state: to the editor (keeping ?lang=); its JSON twin a 400 ---------------

def test_ruling_without_a_state_keeps_the_language_on_its_way_to_the_editor(app, client):
    response = client.get("/ruling?lang=zh")
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/" and parse_qs(location.query) == {"lang": ["zh"]}
    # the link alone makes the editor Chinese: a fresh client carries no language cookie
    page = app.test_client().get(response.headers["Location"]).get_data(as_text=True)
    assert '<html lang="zh-Hans">' in page


def test_ruling_without_a_state_drops_an_unknown_language(client):
    response = client.get("/ruling?lang=xx")
    assert response.status_code == 302 and urlsplit(response.headers["Location"]).query == ""


@pytest.mark.parametrize("how", [{"query_string": {"format": "json", "lang": "zh"}},
                                 {"headers": {"Accept": "application/json"}},
                                 {"query_string": {"format": "json", "state": ""}}])
def test_ruling_json_twin_without_a_state_is_a_400_naming_the_state(client, how):
    response = client.get("/ruling", **how)
    assert response.status_code == 400 and response.is_json
    body = response.get_json()
    assert body["ok"] is False
    (item,) = body["errors"]
    assert item["path"] == "/state"
    assert "state" in item["message"]["en"] and "牌局" in item["message"]["zh"]


@pytest.mark.parametrize("edition, all_translated", [("math", True), ("fluxxnomic", True),
                                                     ("surprises", True), ("creepers", False),
                                                     ("fluxx", None)])
def test_a_card_grid_says_whose_chinese_names_it_shows(client, edition, all_translated):
    """Math Fluxx's and Fluxxnomic's cards have English names only in the sources: the grid
    says their Chinese names are the project's translation (in either language)."""
    for lang in ("zh", "en"):
        page = html(client.get(f"/cards?edition={edition}&lang={lang}"))
        said_all = str(escape(messages()["cards.names_translated_all"][lang])) in page
        said_some = str(escape(messages()["cards.names_translated_some"][lang])) in page
        assert said_all == (all_translated is True)
        assert said_some == (all_translated is False)
