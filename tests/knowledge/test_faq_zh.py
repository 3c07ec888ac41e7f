"""The FAQ in Chinese: every entry's answer (and what the seed kept of its question) has the
project's translation, marked as such, found by a Chinese search and shown first on a Chinese
page with the English one click away."""

from __future__ import annotations

import re

import pytest

from adjudicator.knowledge import annotations, queries, store
from adjudicator.knowledge.search import search
from tests.web.ui_pages import html

TRANSLATIONS = annotations.faq_translations(store.faq_dir() / "annotations" / "faq_zh.yaml")


@pytest.fixture(scope="module")
def entries(knowledge_db) -> list[dict]:
    return queries.list_faq(db=knowledge_db)


def test_every_entry_has_its_chinese_answer_marked(entries):
    assert len(entries) == 83
    missing = [e["id"] for e in entries if not e["text_zh"]]
    assert missing == []
    assert {e["text_zh_status"] for e in entries} == {"project_translation"}


def test_every_question_the_seed_kept_is_translated(entries):
    untranslated = [e["id"] for e in entries if e["question"]["seed"] and not
                    e["question"]["seed_zh"]]
    assert untranslated == []
    # and nothing is translated that the seed does not hold
    assert [e["id"] for e in entries if e["question"]["seed_zh"] and not
            e["question"]["seed"]] == []


def test_the_translation_file_names_only_real_entries(entries):
    assert set(TRANSLATIONS) == {e["id"] for e in entries}


@pytest.mark.parametrize("entry_id", ["002-33", "002-51", "002-54", "002-75", "002-41"])
def test_long_answers_keep_every_paragraph(entries, entry_id):
    """Long answers with several cases are translated in full, not summed up: as many
    paragraphs as the English, give or take a line the translation joins."""
    entry = next(e for e in entries if e["id"] == entry_id)
    en = [p for p in entry["text"].split("\n") if p.strip()]
    zh = [p for p in entry["text_zh"].split("\n") if p.strip()]
    assert abs(len(en) - len(zh)) <= 1
    assert len(entry["text_zh"]) >= len(entry["text"]) / 4  # Chinese is about a third as long


def test_chinese_is_written_with_full_width_punctuation(entries):
    """A comma, colon or semicolon between Chinese characters is full-width."""
    half = re.compile(r"[\u4e00-\u9fff][,:;?]|[,:;?][\u4e00-\u9fff]")
    bad = [e["id"] for e in entries if half.search(e["text_zh"] + (e["question"]["seed_zh"] or ""))]
    assert bad == []


@pytest.mark.parametrize("q, expect, words", [
    ("预支工资", "faq:002-24", "预支工资"),  # only in the translated answer
    ("比尔博 盒子 隐身", "faq:002-26", "比尔博"),
    ("一只河马", "faq:002-33", "河马"),
])
def test_a_chinese_query_finds_the_chinese_answer(knowledge_db, q, expect, words):
    results = search(q, limit=3, db=knowledge_db)
    assert results and results[0]["id"] == expect
    assert words in results[0]["snippet"]  # the snippet is cut from the Chinese answer


def test_an_english_query_is_not_weighed_down_by_the_chinese(knowledge_db):
    """The translation is indexed apart from the entry's English (bm25 divides by the row's
    length): an English query ranks the entries as the English alone does."""
    rows = knowledge_db.execute(
        "select piece, f_en, f_title, f_question from docs where kind = 'faq'").fetchall()
    pieces = [r for r in rows if r[0] == "answer_zh"]
    assert len(pieces) == 83
    assert all(not (f_en or f_title or f_question) for _, f_en, f_title, f_question in pieces)


def test_the_chinese_page_shows_the_chinese_first(client):
    page = html(client.get("/faq/002-63?lang=zh"))
    restated = page.index("我符合无手牌奖励抓3张的条件")
    question = page.index("如果我因为「无手牌奖励」而可以抓三张牌")
    answer = page.index("所以在这种情况下，你总共抓八张牌")
    english = page.index("So you draw a total of eight cards")
    assert restated < question < page.index("If I qualify for drawing three cards") < answer
    assert answer < english
    assert page.index("<details", answer) < english  # the English folded, one click away
    assert page.count("本项目译文") >= 2  # the question and the answer marked


def test_the_english_page_shows_the_english_first(client):
    page = html(client.get("/faq/002-63?lang=en"))
    english = page.index("So you draw a total of eight cards")
    assert english < page.index("所以在这种情况下，你总共抓八张牌")
    assert page.index("<details", english) < page.index("所以在这种情况下")


def test_002_40_says_the_turn_started_with_no_cards(entries):
    """"No cards at the start of your turn" is not 开局 (the start of the game)."""
    entry = next(e for e in entries if e["id"] == "002-40")
    for text in (entry["summary"]["zh"], entry["text_zh"]):
        assert "开局" not in text
    assert "回合开始时手中没有牌" in entry["summary"]["zh"]


def test_a_lost_question_is_said_lost_before_the_restated_one(client):
    """002-01 kept no question: the hint that the question below is restated comes first."""
    page = html(client.get("/faq/002-01?lang=zh"))
    hint, restated = "下面的问题是本项目根据回答重述的", "我的出牌被其他玩家用意外卡取消后"
    assert page.index(hint) < page.index(restated)
    page = html(client.get("/faq/002-01?lang=en"))
    assert page.index("the question below is restated") < page.index("After another player cancels")
