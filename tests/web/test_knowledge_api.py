"""The JSON knowledge endpoints, and the edition filter of the search (/api/search, /faq)."""

from __future__ import annotations

import json

import pytest

from adjudicator.cards import catalog


def _error(resp, status: int, path: str) -> dict:
    assert resp.status_code == status
    body = resp.get_json()
    assert body["ok"] is False
    item = body["errors"][0]
    assert item["path"] == path
    assert item["message"]["en"] and item["message"]["zh"]
    assert isinstance(item["suggestions"], list)
    return item


def test_faq_search_contract_shape(client):
    resp = client.get("/api/faq", query_string={"q": "无手牌奖励 抓5张牌"})
    assert resp.status_code == 200
    results = resp.get_json()["results"]
    top = results[0]
    assert top["id"] == "002-63"
    assert set(top) >= {"id", "title", "text", "url", "cards"}
    assert set(top["title"]) == {"en", "zh"} and top["title"]["zh"]
    assert top["text"].startswith("The No-Hand Bonus states:")
    assert top["url"] == "/faq/002-63"
    assert "no_hand_bonus" in [c["id"] for c in top["cards"]]
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)


def test_faq_search_with_filters(client):
    both = client.get("/api/faq?q=Surprise&card=trade_hands").get_json()["results"]
    assert both and all("trade_hands" in [c["id"] for c in e["cards"]] for e in both)
    math = client.get("/api/faq?q=win Goal&edition=math").get_json()["results"]
    assert math and all("math" in e["editions"] for e in math)
    unfiltered = client.get("/api/faq?q=win Goal&limit=50").get_json()["results"]
    assert any("math" not in e["editions"] for e in unfiltered)  # the filter had work to do
    _error(client.get("/api/faq?q=Surprise&card=nothing at all"), 400, "/card")


def test_count_is_every_match_and_shown_what_the_limit_lets_through(client):
    few = client.get("/api/faq", query_string={"q": "surprise", "limit": 5}).get_json()
    every = client.get("/api/faq", query_string={"q": "surprise", "limit": 100}).get_json()
    # every match fits in 100: then the count is the length of the list
    assert every["count"] == every["shown"] == len(every["results"]) > 5
    assert few["count"] == every["count"]
    assert few["shown"] == len(few["results"]) == 5
    assert [r["id"] for r in few["results"]] == [r["id"] for r in every["results"][:5]]
    # the filters count too: the matches about Veto!, not the first two shown
    veto = {e["id"] for e in client.get("/api/faq?card=veto").get_json()["results"]}
    narrowed = client.get("/api/faq", query_string={"q": "surprise", "card": "veto",
                                                    "limit": 2}).get_json()
    assert narrowed["count"] == len([r for r in every["results"] if r["id"] in veto]) > 2
    assert narrowed["shown"] == 2
    assert narrowed["corrected"] is None and every["corrected"] is None
    listed = client.get("/api/faq?card=veto").get_json()
    assert listed["count"] == listed["shown"] == len(veto)


def test_search_count_is_every_match(client):
    one = client.get("/api/search", query_string={"q": "creeper", "limit": 1}).get_json()
    every = client.get("/api/search", query_string={"q": "creeper", "limit": 100}).get_json()
    assert every["count"] == every["shown"] == len(every["results"]) > 1
    assert one["count"] == every["count"] and one["shown"] == 1


@pytest.mark.parametrize("path, typed, meant, expect", [
    ("/api/faq", "inflaton", "inflation", "002-40"),
    ("/api/search", "Infaltion", "inflation", "card:inflation"),
    ("/api/search", "jackpt", "jackpot", "card:jackpot"),
])
def test_a_misspelled_query_is_searched_respelled(client, path, typed, meant, expect):
    answer = client.get(path, query_string={"q": typed}).get_json()
    assert answer["query"] == typed and answer["corrected"] == meant
    assert answer["results"][0]["id"] == expect
    assert answer["count"] >= 1


def test_faq_search_english(client):
    results = client.get("/api/faq?q=Trade Hands Stop That trader's hand").get_json()["results"]
    assert results[0]["id"] == "002-72"


def test_faq_list_and_filters(client):
    everything = client.get("/api/faq").get_json()["results"]
    assert len(everything) == 83
    assert [e["id"] for e in everything[:2]] == ["002-01", "002-02"]
    assert everything[-1]["id"] == "004-q6"
    by_card = client.get("/api/faq?card=No-Hand Bonus").get_json()["results"]
    assert by_card and all("no_hand_bonus" in [c["id"] for c in e["cards"]] for e in by_card)
    assert "002-63" in [e["id"] for e in by_card]
    same = client.get("/api/faq?card=无手牌奖励").get_json()["results"]
    assert [e["id"] for e in same] == [e["id"] for e in by_card]
    math = client.get("/api/faq?edition=math").get_json()["results"]
    assert {f"004-q{n}" for n in range(1, 7)} <= {e["id"] for e in math}
    assert all("math" in e["editions"] for e in math)


def test_faq_filter_by_topic_and_scope(client, knowledge_db):
    topic = knowledge_db.execute("select topic from faq_topics limit 1").fetchone()
    if topic is None:
        pytest.skip("no topics annotated yet")
    listed = client.get(f"/api/faq?topic={topic[0]}").get_json()["results"]
    assert listed and all(topic[0] in e["topics"] for e in listed)
    ours = client.get("/api/faq?scope=ours").get_json()["results"]
    assert all(e["scope"] == "ours" for e in ours)


def test_faq_bad_params(client):
    _error(client.get("/api/faq?card=Drow 2"), 400, "/card")
    _error(client.get("/api/faq?scope=everything"), 400, "/scope")
    _error(client.get("/api/faq?edition=klingon"), 400, "/edition")
    _error(client.get("/api/faq?q=draw&limit=0"), 400, "/limit")
    _error(client.get("/api/faq?q=draw&limit=many"), 400, "/limit")
    _error(client.get("/api/faq", query_string={"q": "x" * 501}), 400, "/q")


def test_faq_entry(client):
    entry = client.get("/api/faq/002-63").get_json()
    assert entry["id"] == "002-63"
    assert entry["question"]["seed"].startswith("If I qualify for drawing three cards")
    assert entry["sources"] == [{"id": "faq:002-63", "kind": "faq", "url": "/faq/002-63"}]
    card = entry["cards"][0]
    assert set(card) >= {"id", "name", "url"} and card["url"].startswith("/cards/")
    assert (entry["previous"], entry["next"]) == ("002-62", "002-64")
    assert client.get("/api/faq/faq:004-q3").get_json()["id"] == "004-q3"


def test_faq_entry_unknown_is_404(client):
    item = _error(client.get("/api/faq/002-78"), 404, "/id")
    assert item["suggestions"]
    _error(client.get("/api/faq/nonsense"), 404, "/id")


def test_cards_every_card(client):
    body = client.get("/api/cards?edition=fluxx").get_json()
    cards = body["cards"]
    assert len(cards) == len(catalog.edition_cards("fluxx")) == 84
    for card in cards:
        assert set(card) >= {"id", "type", "name", "text", "sources"}
        assert card["name"]["en"] and card["name"]["zh"]
        assert card["sources"][0]["id"] == f"card:{card['id']}"
    assert client.get("/api/cards").get_json()["edition"] == "fluxx"  # the default
    math = client.get("/api/cards?edition=math").get_json()["cards"]
    assert math[0]["sources"][0]["id"].startswith("card:math/")


def test_card_by_id_or_name_with_faq(client):
    card = client.get("/api/cards/no_hand_bonus").get_json()
    assert card["id"] == "no_hand_bonus" and card["edition"] == "fluxx"
    assert "002-63" in [e["id"] for e in card["faq"]]
    assert client.get("/api/cards/无手牌奖励").get_json()["id"] == "no_hand_bonus"
    assert client.get("/api/cards/No-Hand Bonus").get_json()["id"] == "no_hand_bonus"
    math = client.get("/api/cards/draw_2?edition=math").get_json()
    assert math["edition"] == "math" and math["sources"][0]["id"] == "card:math/draw_2"
    assert "fluxx" in math["other_editions"]


def test_card_errors(client):
    item = _error(client.get("/api/cards/Trade Hand"), 404, "/id")
    assert "Trade Hands" in item["suggestions"]
    _error(client.get("/api/cards?edition=klingon"), 400, "/edition")
    _error(client.get("/api/cards/draw_2?edition=klingon"), 400, "/edition")


def test_rulebook(client):
    body = client.get("/api/rulebook").get_json()
    anchors = [s["anchor"] for s in body["sections"]]
    assert anchors[:3] == ["setup", "each-turn", "card-types"]
    assert "glossary" in anchors and "dropping-out" in anchors
    setup = body["sections"][0]
    assert setup["url"] == "/rulebook#setup" and setup["source_id"] == "rulebook:setup"
    assert setup["text"]["zh"] and setup["text"]["en"]
    assert len(body["glossary"]) == 11


def test_sources(client):
    src = client.get("/api/sources/rulebook:each-turn").get_json()
    assert src == {"id": "rulebook:each-turn", "kind": "rulebook", "ref": "each-turn",
                   "edition": None, "title": {"en": src["title"]["en"], "zh": "每一轮"},
                   "url": "/rulebook#each-turn", "exists": True}
    assert src["title"]["en"] in ("Each Turn", "Turn Sequence")
    assert client.get("/api/sources/card:math/draw_2").get_json()["url"] == (
        "/cards/draw_2?edition=math")
    assert client.get("/api/sources/faq:002-01").get_json()["url"] == "/faq/002-01"
    _error(client.get("/api/sources/rulebook:nowhere"), 404, "/id")


def test_search_all_kinds(client):
    body = client.get("/api/search?q=交换手牌").get_json()
    kinds = {r["kind"] for r in body["results"]}
    assert body["results"][0]["id"] == "card:trade_hands"
    assert "faq" in kinds
    only = client.get("/api/search?q=discard&kinds=rulebook").get_json()["results"]
    assert only and {r["kind"] for r in only} == {"rulebook"}
    _error(client.get("/api/search?q=discard&kinds=movies"), 400, "/kinds")
    _error(client.get("/api/search"), 400, "/q")
    _error(client.get("/api/search?q=draw&edition=klingon"), 400, "/edition")


# ---- the edition filter of the search (/api/search, /faq) ---------------------------------------

def _search(client, **params) -> list[dict]:
    response = client.get("/api/search", query_string={"limit": 100, **params})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["results"]


def _faq_editions(knowledge_db) -> dict[str, list[str]]:
    return {row["id"]: json.loads(row["editions"] or "[]")
            for row in knowledge_db.query("select id, editions from faq")}


def test_a_card_named_in_another_edition_stays_out(client):
    # "love" is a card id of the rulebook deck: it used to come back first in Math Fluxx
    results = _search(client, q="love", edition="math")
    assert [r["id"] for r in results if r["kind"] == "card"] == []
    assert "card:love" in [r["id"] for r in _search(client, q="love", edition="fluxx")]


@pytest.mark.parametrize("q", ["Two", "draw 2", "love", "抓2张牌", "Combine Digits", "004-q5",
                               "keeper limit"])
@pytest.mark.parametrize("edition", ["fluxx", "math", "creepers"])
def test_search_by_edition_keeps_only_that_editions_cards_and_faq(client, knowledge_db, q,
                                                                  edition):
    game = {"creepers": "fluxx"}.get(edition, edition)  # an expansion's game is the base deck
    placed = _faq_editions(knowledge_db)
    for hit in _search(client, q=q, edition=edition):
        if hit["kind"] == "card":
            assert hit["edition"] == edition, hit
            assert hit["other_editions"] == [], hit  # a group never mixes in other printings
        elif hit["kind"] == "faq":
            editions = placed[hit["ref"]]
            assert not editions or edition in editions or game in editions, hit


def test_edition_keeps_the_math_faq_out_of_the_rulebook_deck_and_in_math(client):
    fluxx = [r["id"] for r in _search(client, q="Two", edition="fluxx")]
    assert not [i for i in fluxx if i.startswith("faq:004-")]
    assert any(i.startswith("rulebook:") for i in fluxx)  # the rulebook is every edition's
    math = [r["id"] for r in _search(client, q="Two", edition="math")]
    assert {"card:math/two", "faq:004-q5", "faq:004-q4"} <= set(math)
    assert not [r for r in _search(client, q="004-q5", edition="fluxx") if r["kind"] == "faq"]


def test_search_and_faq_endpoints_agree_on_an_edition(client):
    for edition in ("fluxx", "math", "creepers"):
        searched = {r["ref"] for r in _search(client, q="draw", kinds="faq", edition=edition)}
        listed = client.get("/api/faq", query_string={"q": "draw", "edition": edition,
                                                      "limit": 100}).get_json()["results"]
        assert searched and searched == {e["id"] for e in listed}, edition


def test_the_faq_page_search_honours_its_filters(client):
    fluxx = client.get("/faq", query_string={"q": "Two", "edition": "fluxx"}).get_data(
        as_text=True)
    assert "/faq/004-q5" not in fluxx and "/faq/002-73" in fluxx
    math = client.get("/faq", query_string={"q": "Two", "edition": "math"}).get_data(as_text=True)
    assert "/faq/004-q5" in math and "/faq/002-73" not in math
    card = client.get("/faq", query_string={"q": "Two", "card": "double_agenda"}).get_data(
        as_text=True)
    assert "/faq/002-34" in card and "/faq/004-q5" not in card


def test_the_openapi_description_says_what_the_search_edition_keeps(client):
    spec = client.get("/api/openapi.json").get_json()
    (param,) = [p for p in spec["paths"]["/api/search"]["get"]["parameters"]
                if p["name"] == "edition"]
    assert "FAQ" in param["description"] and "rulebook" in param["description"]


def test_the_whole_faq_list_is_cut_only_by_a_limit_given(client):
    every = client.get("/api/faq").get_json()
    assert every["shown"] == every["count"] == len(every["results"]) > 10
    few = client.get("/api/faq", query_string={"limit": 3}).get_json()
    assert few["shown"] == 3 and few["count"] == every["count"]
    assert [r["id"] for r in few["results"]] == [r["id"] for r in every["results"][:3]]
    for bad in ("0", "abc", "9" * 4400):
        answer = client.get("/api/faq", query_string={"limit": bad})
        assert answer.status_code == 400 and answer.get_json()["errors"][0]["path"] == "/limit"


def test_a_method_not_allowed_says_which_are(client):
    answer = client.delete("/api/faq")
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}



def test_card_suggestions_are_the_catalogs_own(client):
    """GET /api/cards/suggest: the card a name names, else the names the referee's errors
    suggest for it (the editor's picker offers them for a name no card has)."""
    found = client.get("/api/cards/suggest", query_string={"q": "The Sun"}).get_json()
    assert found["card"] is None and found["suggestions"][0] == "Sun"
    named = client.get("/api/cards/suggest", query_string={
        "q": "TAXES", "edition": "fluxx", "expansions": "creepers"}).get_json()
    assert named["card"] == "taxes" and named["suggestions"] == []
    assert client.get("/api/cards/suggest").status_code == 400
    assert client.get("/api/cards/suggest", query_string={
        "q": "Sun", "edition": "nope"}).status_code == 400
