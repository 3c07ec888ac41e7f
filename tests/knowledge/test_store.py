"""The knowledge store: tables, citable sources, annotations merge, rebuild and atomic build."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest
import sqlite_utils

from adjudicator.cards import catalog
from adjudicator.knowledge import annotations, queries, store
from adjudicator.knowledge.faq_seed import parse_faq_002
from adjudicator.knowledge.rulebook_seed import EN_ONLY_ANCHORS

# docs/ARCHITECTURE.md, "Rulebook anchors (fixed; the engine cites them)"
ANCHORS_000 = ["setup", "each-turn", "card-types", "basic-rules", "new-rules", "goals", "keepers",
               "actions", "discarding", "winning", "mixing", "glossary"]
ANCHORS_004 = ["exec-summary", "going-first", "turn-sequence", "limits", "numbers-and-math",
               "math-rules", "keep-going", "example-draw-rule-rises", "example-draw-2-and-use-em",
               "example-keeper-first", "reshuffling", "cards-in-play", "free-actions",
               "jumping-in", "dropping-out"]
ANCHORS_003 = ["fluxxnomic-items", "fluxxnomic-hands", "fluxxnomic-cards", "fluxxnomic-phases",
               "fluxxnomic-card-types", "fluxxnomic-winning"]


def test_tables_and_counts(knowledge_db):
    assert knowledge_db["faq"].count == 83
    assert knowledge_db.execute("select count(*) from faq where seed = '002'").fetchone()[0] == 77
    assert knowledge_db["rulebook"].count == (len(ANCHORS_000) + len(ANCHORS_004)
                                              + len(ANCHORS_003))
    for table in ("sources", "cards", "faq_cards", "faq_topics", "glossary", "lexicon", "docs"):
        assert table in knowledge_db.table_names()


def test_every_anchor_is_a_source(knowledge_db):
    ids = queries.source_ids(knowledge_db)
    assert EN_ONLY_ANCHORS == ANCHORS_004
    for anchor in ANCHORS_000 + ANCHORS_004 + ANCHORS_003:
        assert f"rulebook:{anchor}" in ids, anchor


def test_every_faq_entry_is_a_source(knowledge_db):
    ids = queries.source_ids(knowledge_db)
    assert {f"faq:002-{n:02d}" for n in range(1, 78)} <= ids
    assert {f"faq:004-q{n}" for n in range(1, 7)} <= ids
    assert "faq:002-78" not in ids


def test_every_catalog_card_is_a_source(knowledge_db):
    ids = queries.source_ids(knowledge_db)
    cards = catalog.all_cards()
    assert len(cards) >= 84
    for card in cards:
        assert card.source_id in ids, card.source_id
    fluxx = [r for r in knowledge_db["cards"].rows_where("edition = 'fluxx'")]
    assert len(fluxx) == len(catalog.edition_cards("fluxx"))
    assert "card:no_hand_bonus" in ids


def test_rulebook_rows_are_aligned(knowledge_db):
    rows = {r["anchor"]: r for r in knowledge_db["rulebook"].rows}
    assert [r["anchor"] for r in knowledge_db["rulebook"].rows_where(order_by='"order"')] == (
        ANCHORS_000 + ANCHORS_004 + ANCHORS_003)
    setup = rows["setup"]
    assert setup["text_zh"].startswith("将基本规则卡放在桌子中央")
    assert setup["text_en"].startswith("Place the Basic Rules card in the center of the table.")
    assert (setup["zh_status"], setup["en_status"]) == ("seed", "seed")
    assert rows["each-turn"]["text_en"].startswith("- Draw the number of cards currently required")
    assert rows["discarding"]["text_en"].startswith("You cannot simply discard unwanted cards.")
    assert rows["winning"]["title_en"] == "How to Win"
    assert rows["mixing"]["en_status"] == "missing" and rows["mixing"]["text_en"] is None
    assert rows["glossary"]["text_zh"].count("—") == 11
    for anchor in ANCHORS_004:
        row = rows[anchor]
        assert row["en_status"] == "seed" and row["text_en"]
        assert row["title_zh"]  # the project's title when the annotations give none
        assert row["zh_status"] in ("project_translation", "missing")
        assert (row["zh_status"] == "missing") == (row["text_zh"] is None)


def test_faq_rows(knowledge_db):
    row = knowledge_db["faq"].get("002-63")
    assert row["answer"].startswith("The No-Hand Bonus states:")
    assert row["source_id"] == "faq:002-63" and row["url"] == "/faq/002-63"
    assert row["title_status"] in ("annotation", "derived")
    assert row["title_en"] and row["title_zh"]
    linked = {r["card_id"] for r in knowledge_db["faq_cards"].rows_where("faq_id = '002-63'")}
    assert "no_hand_bonus" in linked
    math = knowledge_db["faq"].get("004-q1")
    assert math["question_seed"].startswith("So, in Math Fluxx")
    assert "math" in json.loads(math["editions"])


def test_entries_without_annotation_get_derived_titles():
    entries = parse_faq_002(store.seed_text("002"))
    cards = [store._card_row(c) for c in store.load_cards()]
    rows, links, _ = store._faq_rows(entries, {}, cards)
    assert len(rows) == 77
    for row in rows:
        assert row["title_status"] == "derived" and row["cards_via"] == "detected"
        first = (row["question_seed"] or row["answer"]).lstrip("… ").split()[0]
        assert row["title_en"].split()[0] in (first, "So")  # 002-64: "Secondary Q: So if..."
        assert row["id"] in row["title_zh"]
    by_id = {r["id"]: r for r in rows}
    assert by_id["002-01"]["title_en"] == (
        "When someone counters your Play with a Surprise, no, you…")
    # without annotations, card links come from the English names the text spells out
    assert ("002-63", "no_hand_bonus") in {(x["faq_id"], x["card_id"]) for x in links}
    assert "rotate_hands" in json.loads(by_id["002-09"]["cards"])


def test_annotation_merge(tmp_path: Path):
    path = tmp_path / "faq_entries.yaml"
    path.write_text(
        """
- id: "002-63"
  title: {en: "No-Hand Bonus with a higher Draw rule", zh: "无手牌奖励与更高的抓牌数"}
  question: {en: "No-Hand Bonus and Draw 5: five or eight?", zh: "无手牌奖励加抓5张牌，抓几张？"}
  topics: [draw, no_hand_bonus]
  cards: [no_hand_bonus, draw_5, fantasy_only_card]
  tags: [mystery_play]
  editions: [fluxx]
  scope: ours
- title: {en: "an item without id is skipped"}
- id: "002-01"
  scope: nonsense
""",
        encoding="utf-8",
    )
    notes = annotations.faq_annotations(path)
    assert set(notes) == {"002-63", "002-01"}
    assert notes["002-01"]["scope"] is None  # unknown scope values are dropped
    entries = parse_faq_002(store.seed_text("002"))
    cards = [store._card_row(c) for c in store.load_cards()]
    rows, links, topics = store._faq_rows(entries, notes, cards)
    row = next(r for r in rows if r["id"] == "002-63")
    assert row["title_status"] == "annotation"
    assert row["title_zh"] == "无手牌奖励与更高的抓牌数"
    assert json.loads(row["cards"]) == ["no_hand_bonus", "draw_5"]
    assert json.loads(row["tags"]) == ["mystery_play", "fantasy_only_card"]
    assert {(x["faq_id"], x["topic"]) for x in topics} == {("002-63", "draw"),
                                                           ("002-63", "no_hand_bonus")}
    assert {x["card_id"] for x in links if x["faq_id"] == "002-63"} == {"no_hand_bonus", "draw_5"}
    assert next(r for r in rows if r["id"] == "002-02")["title_status"] == "derived"


def test_rulebook_translation_shapes(tmp_path: Path):
    path = tmp_path / "rulebook_zh.yaml"
    path.write_text(
        "limits: {title: {zh: 上限}, text: {zh: 起初没有上限。}}\n"
        "reshuffling: 牌库用完时，洗弃牌堆。\n",
        encoding="utf-8",
    )
    got = annotations.rulebook_translations(path)
    assert got["limits"] == {"title_zh": "上限", "text_zh": "起初没有上限。"}
    assert got["reshuffling"]["text_zh"] == "牌库用完时，洗弃牌堆。"
    listed = tmp_path / "list.yaml"
    listed.write_text("- {anchor: going-first, title_zh: 谁先行动, text_zh: 发牌者先行动。}\n",
                      encoding="utf-8")
    assert annotations.rulebook_translations(listed)["going-first"]["text_zh"] == "发牌者先行动。"
    assert annotations.rulebook_translations(tmp_path / "absent.yaml") == {}
    broken = tmp_path / "broken.yaml"
    broken.write_text("limits: [unclosed", encoding="utf-8")
    assert annotations.rulebook_translations(broken) == {}


@pytest.mark.slow
def test_ensure_rebuilds_a_stale_store(tmp_path: Path):
    path = store.build(tmp_path / "s.db")
    assert store.built_from(path) == store.fingerprint()
    db = sqlite_utils.Database(path)
    db["meta"].upsert({"key": "fingerprint", "value": "old"}, pk="key")
    db.close()
    assert store.built_from(path) == "old"
    assert store.ensure(path) == path
    assert store.built_from(path) == store.fingerprint()
    # a corrupt file is rebuilt too
    path.write_bytes(b"not a database")
    store.ensure(path)
    assert sqlite_utils.Database(path)["faq"].count == 83


@pytest.mark.slow
def test_concurrent_builds_leave_a_whole_store(tmp_path: Path):
    path = tmp_path / "race.db"
    errors: list[BaseException] = []

    def run() -> None:
        try:
            store.ensure(path)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sqlite_utils.Database(path)["faq"].count == 83
    assert not list(tmp_path.glob("*.tmp"))  # temporary files are gone


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "x.db"))
    assert store.default_path() == tmp_path / "x.db"
    monkeypatch.delenv(store.ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = store.default_path()
    assert path.parent == tmp_path / "fluxx-adjudicator"
    assert path.name == f"store-{store.fingerprint()[:16]}.db"


def test_rulebook_translations_match_the_seed_text(knowledge_db):
    """Each translated section names the English it translated: it must be the seed's text."""

    from adjudicator.resources import faq_dir, read_yaml

    path = faq_dir() / "annotations" / "rulebook_zh.yaml"
    if not path.is_file():
        pytest.skip("no rulebook translations yet")
    sections = read_yaml(path).get("sections", [])
    assert sections
    rows = {r["anchor"]: r for r in knowledge_db["rulebook"].rows}
    for item in sections:
        row = rows[item["anchor"]]
        assert row["text_en"] == item["en"].strip(), item["anchor"]
        assert row["text_zh"] == item["zh"].strip()
        assert row["zh_status"] == "project_translation"


def test_default_store_replaces_older_ones(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.delenv(store.ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "fluxx-adjudicator"
    folder.mkdir()
    (folder / "store-0000000000000000.db").write_bytes(b"an older build")
    path = store.ensure()
    assert path == store.default_path() and path.is_file()
    assert [p.name for p in folder.iterdir()] == [path.name]
    db = store.open_db()
    try:
        assert db["faq"].count == 83
        # read-only: the store is only ever rebuilt, never edited in place
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db["meta"].insert({"key": "x", "value": "y"})
    finally:
        db.close()


# ---- a store damaged in place while the service runs: 503, rebuilt, then answered -------------

def _damage(path: Path) -> None:
    """Overwrite the file in place (same inode), as a stray write or a bad copy would."""
    with path.open("r+b") as handle:
        handle.write(b"not a database any more " * 400)


def test_a_store_overwritten_in_place_is_not_sound(store_path, tmp_path) -> None:
    import shutil

    from adjudicator.knowledge import store

    copy = tmp_path / "copy.db"
    shutil.copy(store_path, copy)
    assert store.is_sound(copy)
    _damage(copy)
    assert not store.is_sound(copy)


@pytest.mark.slow
def test_a_store_damaged_while_serving_is_rebuilt_and_answered_503_meanwhile(store_path,
                                                                              tmp_path) -> None:
    import shutil
    import time

    from adjudicator.knowledge import store
    from adjudicator.web import create_app

    copy = tmp_path / "served.db"
    shutil.copy(store_path, copy)
    client = create_app({"TESTING": True, "STORE_PATH": str(copy)}).test_client()
    assert client.get("/api/faq/002-63").status_code == 200
    _damage(copy)
    answer = client.get("/api/faq/002-63")
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    body = answer.get_json()
    assert body["ok"] is False and body["errors"][0]["path"] == "/store"
    assert "rebuilt" in body["errors"][0]["message"]["en"] and body["errors"][0]["message"]["zh"]
    page = client.get("/faq", headers={"Accept": "text/html"})
    assert page.status_code in (200, 503) and page.content_type.startswith("text/html")
    deadline = time.monotonic() + 120
    while client.get("/api/faq/002-63").status_code != 200:
        assert time.monotonic() < deadline, "the store was not rebuilt"
        time.sleep(0.2)
    assert store.is_sound(copy)
    assert client.get("/faq").status_code == 200


def test_a_card_is_found_by_every_name_it_answers_to_as_by_reading_every_card(knowledge_db):
    """`find_card` looks names up in an index kept per store (by the fingerprint of its
    sources): the row it answers is the one a reading of every card row would find, for every
    card's id, names and aliases, written otherwise, with and without an edition; a store
    without its meta table is read afresh."""
    rows = [dict(r) for r in knowledge_db.query("select * from cards order by rowid")]

    def read_all(name: str, edition: str | None) -> str | None:
        key = queries.normalize(name)
        for ed in [edition] if edition else store.CATALOG_NAMES:
            for row in rows:
                aliases = json.loads(row["attrs"] or "{}").get("aliases", [])
                if row["edition"] == ed and key and key in {
                        queries.normalize(v) for v in (row["id"], row["name_en"] or "",
                                                       row["name_zh"] or "", *aliases)}:
                    return f'{row["edition"]}/{row["id"]}'
        return None

    def found(name: str, edition: str | None) -> str | None:
        row = queries.find_card(name, edition, knowledge_db)
        return None if row is None else f'{row["edition"]}/{row["id"]}'

    names = {n for row in rows for n in (row["id"], row["name_en"], row["name_zh"],
                                         *json.loads(row["attrs"] or "{}").get("aliases", []))
             if n}
    asked = 0
    for name in sorted(names):
        for written in (name, name.upper(), f" {name}!"):
            for edition in (None, "fluxx", "math", "creepers"):
                assert found(written, edition) == read_all(written, edition), (written, edition)
                asked += 1
    assert asked > 1000 and found("no such card", None) is None and found("", None) is None
    # the row is the caller's own: changing it changes no later answer
    queries.find_card("Milk", db=knowledge_db)["name_en"] = "changed"
    assert queries.find_card("Milk", db=knowledge_db)["name_en"] == "Milk"
    bare = sqlite_utils.Database(memory=True)
    bare["cards"].insert_all(rows)
    assert queries.find_card("Milk", db=bare)["id"] == "milk"  # no meta table: read afresh


@pytest.mark.parametrize("kind", ["text", "link", "folder", "fifo"])
def test_a_path_that_holds_something_else_is_never_replaced(tmp_path: Path, kind: str) -> None:
    """A mistyped --path or FLUXX_STORE must not destroy what is there (a document, the target
    of a link, a device such as /dev/null): refused, with the path named, and left as it is."""
    precious = tmp_path / "thesis.txt"
    precious.write_text("my thesis", encoding="utf-8")
    target = {"text": precious, "link": tmp_path / "link.db", "folder": tmp_path / "dir.db",
              "fifo": tmp_path / "pipe"}[kind]
    if kind == "link":
        target.symlink_to(precious)
    elif kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    with pytest.raises(store.StoreUnavailable) as caught:
        store.ensure(target)
    assert caught.value.items[0].path == "/store" and str(target) in caught.value.items[0].en
    assert precious.read_text(encoding="utf-8") == "my thesis"
    assert target.is_symlink() if kind == "link" else os.path.lexists(target)
