"""The words players read on the pages (Flask test client).

1. No jargon: card, FAQ entry, coverage and rulebook pages name their sources (the rulebook's
   translation, the official FAQ, the Math Fluxx rulebook...) and say what the referee does in
   plain words; source ids, seed numbers, section markers and scenario files stay in the JSON
   twins, whose fields are unchanged.
2. Polish: a card is shown by its proper name (not the seed's "Draw, 3, Play 2 of them"); counts
   in English take their plural ("1 card", "2 cards"), and no English text says "card(s)"; the
   what-if choices are labelled alike, saying what was chosen.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from adjudicator.i18n import messages as ui_messages
from adjudicator.knowledge import coverage
from adjudicator.messages import LANGS, catalog, fill, plural, table_messages, terms
from adjudicator.messages import messages as finding_messages
from adjudicator.web.pages.forms import encode_state
from tests.web.ui_pages import csrf_from, html


def words(response: Any) -> str:
    """What a reader sees: the page's text without its tags (attributes such as data-source
    and href may keep ids) and without the head."""
    page = re.sub(r"(?s)<head>.*?</head>|<script.*?</script>", "", html(response))
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


# Ids, seed numbers and the test suite's vocabulary, which no player page shows
JARGON = re.compile(r"\b(?:card|faq|rulebook):[a-z0-9_/-]+|\bseed 00\d|种子 00\d|tests/|"
                    r"scenario|场景测试|\[卡片详述\]|Source id|出处编号|来源文件")


def status_entry(status: str) -> coverage.CoverageEntry:
    return next(e for e in coverage.current().entries if e.status == status)


# --- 1. jargon ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "en", "zh"), [
    ("/cards/hippyism", "The Chinese translation of the Fluxx rulebook and its cards",
     "Fluxx 规则书及其卡牌的中文译本"),
    ("/cards/draw_2?edition=math", "The Math Fluxx rulebook", "数学 Fluxx 规则书"),
    ("/cards/nice_try?edition=fluxxnomic", "The Fluxxnomic rules", "Fluxxnomic 规则"),
    ("/cards/war?edition=creepers", "The Creepers of the Creeper Pack / Fluxx 4.0",
     "Creeper 扩展包 / Fluxx 4.0 的陷阱"),
])
def test_a_card_page_names_its_source_document_not_its_ids(client, url, en, zh):
    sep = "&" if "?" in url else "?"
    for lang, name in (("en", en), ("zh", zh)):
        text = words(client.get(f"{url}{sep}lang={lang}"))
        assert name in text
        assert not JARGON.search(text), JARGON.search(text)
    # the JSON twin keeps the ids and the seed's own section
    twin = client.get(f"{url}{sep}format=json").get_json()
    assert twin["sources"][0]["id"].startswith("card:")
    assert "section" in twin["provenance"]


def test_the_card_page_of_the_rulebook_deck_shows_no_seed_marker(client):
    text = words(client.get("/cards/hippyism?lang=en"))
    assert "Source file" not in text and "000" not in text and "!目标卡" not in text
    twin = client.get("/cards/hippyism?format=json").get_json()
    assert twin["provenance"]["seed"] == "000"
    assert twin["provenance"]["section"] == "[卡片详述] !目标卡（23张）"
    assert twin["sources"] == [{"id": "card:hippyism", "kind": "card", "url": "/cards/hippyism"}]


def test_a_math_card_remark_names_the_deck_not_the_seed(client):
    text = words(client.get("/cards/draw_2?edition=math&lang=en"))
    assert "a card of this name is in the rulebook deck" in text
    assert "seed" not in text


def test_an_faq_entry_says_what_the_referee_does_in_plain_words(client):
    entry = next(e for e in coverage.current().entries if e.id == "002-63")
    n = len(entry.scenarios)
    assert n > 1
    en = words(client.get("/faq/002-63?lang=en"))
    assert "Answered by the referee" in en and f"(checked on {n} worked examples)" in en
    assert "From The official Fluxx FAQ" in en
    zh = words(client.get("/faq/002-63?lang=zh"))
    assert "裁判可裁定" in zh and f"（已在 {n} 个示例牌局上核对）" in zh
    assert "出自 官方 Fluxx 常见问题" in zh
    for text in (en, zh):
        assert not JARGON.search(text), JARGON.search(text)
        assert "nhb-3-plus-5" not in text and "002_" not in text
    # the JSON twin is unchanged: its id, seed and source id
    twin = client.get("/faq/002-63?format=json").get_json()
    assert (twin["id"], twin["seed"], twin["source_id"]) == ("002-63", "002", "faq:002-63")


def test_an_faq_entry_about_another_deck_says_so(client):
    other = status_entry("other_decks")
    assert "About another deck" in words(client.get(f"/faq/{other.id}?lang=en"))
    assert "涉及其他版本" in words(client.get(f"/faq/{other.id}?lang=zh"))


def test_a_math_fluxx_faq_entry_names_the_math_fluxx_rulebook(client):
    assert "From The Math Fluxx rulebook" in words(client.get("/faq/004-q1?lang=en"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_coverage_page_names_statuses_and_counts_examples_in_plain_words(client, lang):
    text = words(client.get(f"/faq/coverage?lang={lang}"))
    assert not JARGON.search(text), JARGON.search(text)
    names = catalog("coverage")["status_names"]
    assert names["adjudicated"][lang] in text and names["other_decks"][lang] in text
    entry = next(e for e in coverage.current().entries if e.id == "002-63")
    assert f"{entry.scenarios[0].file}:{entry.scenarios[0].id}" not in text
    n = len(entry.scenarios)
    counted = {"en": f"Checked on {n} worked examples", "zh": f"已在 {n} 个示例牌局上核对"}
    assert counted[lang] in text


def test_the_coverage_json_twin_keeps_the_scenarios(client):
    twin = client.get("/faq/coverage?format=json").get_json()
    entry = next(e for e in twin["entries"] if e["id"] == "002-63")
    assert entry["scenarios"] and set(entry["scenarios"][0]) == {"file", "id", "about"}


def test_the_rulebook_page_shows_no_source_ids(client):
    text = words(client.get("/rulebook?lang=en"))
    assert "rulebook:setup" not in text and not JARGON.search(text)
    twin = client.get("/rulebook?format=json").get_json()
    assert any(s["source_id"] == "rulebook:setup" for s in twin["sections"])


# --- 2a. a card's proper name ------------------------------------------------------------------

def test_draw_3_play_2_of_them_is_shown_by_its_proper_name(client):
    page = html(client.get("/cards/draw_3_play_2_of_them?lang=en"))
    (title,) = re.findall(r"<h1>(.*?)<small>", page, re.S)
    assert title.strip() == "Draw 3, Play 2 of Them"
    assert "Draw 3, Play 2 of Them (3)" in words(client.get("/faq?lang=en"))
    # a table typed with the seed's spelling still reads, and the ruling names the card properly
    table = {"players": [{"name": "Ann", "hand": ["Draw, 3, Play 2 of them"]},
                         {"name": "Bo", "hand_size": 2}], "active": "Ann"}
    text = words(client.get("/ruling", query_string={"state": encode_state(table),
                                                     "lang": "en"}))
    assert "Draw 3, Play 2 of Them" in text and "Draw, 3" not in text


# --- 2b. plurals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("count", "noun", "lang", "expected"), [
    (1, "card", "en", "1 card"), (0, "card", "en", "0 cards"), (2, "card", "en", "2 cards"),
    ("1", "Keeper", "en", "1 Keeper"), (3, "entry|entries", "en", "3 entries"),
    (1, "entry|entries", "en", "1 entry"), (2, "张", "zh", "2 张"),
])
def test_plural(count, noun, lang, expected):
    assert plural(count, noun, lang) == expected


def test_fill_knows_the_plural_form_and_nests_a_noun():
    assert fill("{n:plural:card} and {m:plural:{unit}}", "en", n=1, m=2, unit="Keeper") == \
        "1 card and 2 Keepers"
    assert fill("{n} cards", "en", n=3) == "3 cards"  # plain str.format otherwise


def english_texts() -> dict[str, str]:
    """Every English text of the project's message files, by where it is."""
    out: dict[str, str] = {}

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            if "en" in value and isinstance(value["en"], str):
                out[where] = value["en"]
            for k, v in value.items():
                walk(v, f"{where}.{k}")

    for name in ("changes", "coverage", "errors", "text_view"):
        walk(catalog(name), name)
    walk(table_messages(), "table")
    walk(finding_messages(), "findings")
    walk(terms(), "findings._terms")
    walk(ui_messages(), "ui")
    return out


def test_no_english_text_says_card_s():
    texts = english_texts()
    assert len(texts) > 500
    left = {k: v for k, v in texts.items() if "(s)" in v}
    assert not left, left


def test_chinese_texts_never_use_the_plural_form():
    for key, pair in {**finding_messages(), **ui_messages()}.items():
        assert ":plural:" not in pair["zh"], key


def test_a_ruling_counts_one_card_and_two_cards(client):
    def table(rules: list[str]) -> dict[str, Any]:
        return {"players": [{"name": "Ann", "hand": ["Jackpot!"]}, {"name": "Bo", "hand_size": 1}],
                "active": "Ann", "rules": rules}

    def page(rules: list[str], lang: str = "en") -> str:
        return words(client.get("/ruling", query_string={"state": encode_state(table(rules)),
                                                         "lang": lang}))
    one = page([])
    assert "Ann must draw 1 card this turn in all" in one and "(s)" not in one
    two = page(["Draw 2", "Hand Limit 1"])
    assert "Ann must draw 2 cards this turn in all" in two
    assert "The Hand Limit in force is Hand Limit 1: 1 card." in two and "(s)" not in two
    assert "Ann本回合共需抓1张牌" in page([], "zh")
    # the reasons of the moves not open yet are finding texts too
    ruling = client.post("/api/ruling", json=table([])).get_json()
    assert {r["reason"]["en"] for r in ruling["not_yet"]} == {
        "Not yet: 1 card still to draw.", "Not yet: 1 card still to play."}


def test_a_limit_discard_counts_its_unit(client):
    table = {"players": [{"name": "Ann", "hand": ["Jackpot!"]},
                         {"name": "Bo", "hand": ["Milk", "Sun"]}],
             "active": "Ann", "rules": ["Hand Limit 1"]}
    text = words(client.get("/ruling", query_string={"state": encode_state(table),
                                                     "lang": "en"}))
    assert "Bo discards 1 card now." in text
    assert "Bo must discard 1 card from hand now." in text


# --- 2c. the what-if choices ---------------------------------------------------------------------

# the card types, which Fluxx writes with a capital wherever they stand
CARD_TYPES = ("Keeper", "Goal", "New Rule", "Creeper", "Surprise", "Action")


def test_choice_labels_are_written_alike():
    labels = {k: v for k, v in ui_messages().items() if k.startswith("choice.")}
    assert len(labels) > 20
    for key, pair in labels.items():
        en = pair["en"]
        assert en[0].islower() or en.startswith(CARD_TYPES), (key, en)


ACTIONS = {
    "edition": "fluxx",
    "players": [
        {"name": "Ann", "hand": ["Trash a Keeper", "Steal a Keeper", "Rotate Hands",
                                 "Use What You Take"], "keepers": ["Peace"]},
        {"name": "Bo", "hand": ["Milk", "Sun"], "keepers": ["Love"]},
    ],
    "active": "Ann", "goals": ["Hippyism"], "draw_pile": 40,
}


def what_if(client, card: str, lang: str = "en") -> str:
    token = encode_state(ACTIONS)
    page = html(client.get("/ruling", query_string={"state": token, "lang": lang}))
    response = client.post("/ruling/play", query_string={"lang": lang}, data={
        "csrf_token": csrf_from(page), "state": token, "card": card, "player": "Ann"})
    assert response.status_code == 200
    return words(response)


@pytest.mark.parametrize(("card", "lang", "expected"), [
    ("trash_a_keeper", "en", "Keeper discarded = Love"),
    ("steal_a_keeper", "en", "Keeper taken = Love"),
    ("steal_a_keeper", "zh", "拿走的所有物：「爱」"),
    ("rotate_hands", "en", "direction hands pass = clockwise"),
    ("use_what_you_take", "en", "opponent = Bo"),
    ("use_what_you_take", "zh", "对手：Bo"),
])
def test_a_choice_says_what_was_chosen(client, card, lang, expected):
    assert expected in what_if(client, card, lang)
