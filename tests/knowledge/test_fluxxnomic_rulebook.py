"""Fluxxnomic's rules prose (seed 003) as citable rulebook sections: parsed from the seed, with the
project's Chinese marked as such, in the store, on /rulebook, searchable in both languages, and
rebuilt when the seed changes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.knowledge import queries, store
from adjudicator.knowledge.rulebook_seed import FLUXXNOMIC_ANCHORS, parse_fluxxnomic_003
from adjudicator.knowledge.search import search
from adjudicator.resources import faq_dir, read_yaml

CJK = re.compile(r"[\u3400-\u9fff]")
PHASE_RULE = "Each phase, a player may draw one card and play one card."
WIN_RULE = "When a player meets the conditions of the goal card in play, they win the cycle."


def _seed() -> str:
    return store.seed_text("003")


def _translations() -> list[dict]:
    path = faq_dir() / "annotations" / "rulebook_zh.yaml"
    return read_yaml(path)["fluxxnomic_sections"]


def test_parser_finds_the_fixed_anchors_in_the_seed() -> None:
    sections = parse_fluxxnomic_003(_seed())
    assert [s.anchor for s in sections] == FLUXXNOMIC_ANCHORS
    seed = _seed()
    for s in sections:
        for line in s.text_en.splitlines():
            assert line in seed, f"{s.anchor}: not in seed 003: {line[:60]}"
    by_anchor = {s.anchor: s for s in sections}
    assert PHASE_RULE in by_anchor["fluxxnomic-phases"].text_en
    assert WIN_RULE in by_anchor["fluxxnomic-winning"].text_en
    # the card lists are the catalog's, not rules prose
    assert not any("Steal a keeper" in s.text_en for s in sections)


def test_parser_refuses_a_seed_without_its_headings() -> None:
    with pytest.raises(ValueError):
        parse_fluxxnomic_003(_seed().replace("\nWinning\n", "\nVictory\n"))


@pytest.mark.parametrize("item", _translations(), ids=lambda i: i["anchor"])
def test_translation_is_of_the_seed_text(item: dict) -> None:
    parsed = {s.anchor: s for s in parse_fluxxnomic_003(_seed())}[item["anchor"]]
    assert item["status"] == "project_translation"
    assert item["en"] == parsed.text_en
    assert item["title"]["en"] == parsed.title_en and CJK.search(item["title"]["zh"])
    assert CJK.search(item["zh"])
    assert len(item["zh"].splitlines()) == len(item["en"].splitlines())


def test_store_rows_mark_the_chinese_as_the_projects(knowledge_db) -> None:
    rows = {r["anchor"]: r for r in knowledge_db["rulebook"].rows_where("part = 'fluxxnomic'")}
    assert list(rows) == FLUXXNOMIC_ANCHORS
    ids = queries.source_ids(knowledge_db)
    for anchor, row in rows.items():
        assert f"rulebook:{anchor}" in ids
        assert row["url"] == f"/rulebook#{anchor}"
        assert row["en_status"] == "seed" and row["zh_status"] == "project_translation"
        assert row["source"] == "003"
    source = queries.source("rulebook:fluxxnomic-phases", db=knowledge_db)
    assert source["edition"] == "fluxxnomic"
    assert "每个阶段，玩家可以抓一张牌并出一张牌" in rows["fluxxnomic-phases"]["text_zh"]


@pytest.mark.parametrize(("query", "expect"), [
    ("each phase draw one card", "rulebook:fluxxnomic-phases"),
    ("Fluxxnomic phase play one card", "rulebook:fluxxnomic-phases"),
    ("win the cycle", "rulebook:fluxxnomic-winning"),
    ("每个阶段 抓一张牌", "rulebook:fluxxnomic-phases"),
    ("赢得周期", "rulebook:fluxxnomic-winning"),
    ("周期结束", "rulebook:fluxxnomic-winning"),
])
def test_search_finds_the_seed_003_prose(knowledge_db, query: str, expect: str) -> None:
    got = [r["id"] for r in search(query, limit=3, db=knowledge_db)]
    assert expect in got, got


def test_rulebook_page_opens_each_section_marked(client) -> None:
    page = client.get("/rulebook").get_data(as_text=True)
    for anchor in FLUXXNOMIC_ANCHORS:
        assert f'id="{anchor}"' in page
    section = page[page.index('id="fluxxnomic-phases"'):]
    section = section[: section.index("</section>")]
    assert PHASE_RULE in section and "mark-translation" in section
    api = client.get("/api/rulebook").get_json()["sections"]
    parts = {s["anchor"]: s["part"] for s in api}
    assert all(parts[a] == "fluxxnomic" for a in FLUXXNOMIC_ANCHORS)


@pytest.mark.slow
def test_store_is_rebuilt_when_seed_003_changes(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "faq"
    shutil.copytree(faq_dir(), folder)
    monkeypatch.setattr(store, "faq_dir", lambda: folder)
    path = store.ensure(tmp_path / "s.db")
    before = store.fingerprint()
    seed = next((folder / "sources").glob("003_*.txt"))
    seed.write_text(seed.read_text(encoding="utf-8") + " (changed)", encoding="utf-8")
    assert store.fingerprint() != before
    store.ensure(path)
    db = store.open_db(path)
    try:
        row = db.execute("select text_en from rulebook where anchor = 'fluxxnomic-winning'"
                         ).fetchone()
    finally:
        db.close()
    assert row[0].endswith("Then the cycle ends. (changed)")
