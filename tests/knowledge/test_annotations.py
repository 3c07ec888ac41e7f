"""The project's annotations of the seeds (faq/annotations/): every FAQ entry annotated once, in
both languages, with topics, editions and card links that exist; the rulebook translation keyed
by the fixed anchors and faithful to the seed text it translates.

The FAQ entries are split from the seeds here, independently of the store's parser, so a change
in either the seed split or the annotations shows up as a failure.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from adjudicator.resources import faq_dir, read_yaml

SCOPES = {"ours", "other_decks", "not_rules"}
QUESTION_BASES = {"seed_fragment", "answer", "lost"}
CATALOGS = ("fluxx", "math", "fluxxnomic", "creepers", "surprises")
EN_ONLY_ANCHORS = [
    "exec-summary", "going-first", "turn-sequence", "limits", "numbers-and-math", "math-rules",
    "keep-going", "example-draw-rule-rises", "example-draw-2-and-use-em", "example-keeper-first",
    "reshuffling", "cards-in-play", "free-actions", "jumping-in", "dropping-out",
]
ZH_ANCHORS = [
    "setup", "each-turn", "card-types", "basic-rules", "new-rules", "goals", "keepers", "actions",
    "discarding", "winning", "mixing", "glossary",
]
# English terms and the glossary's Chinese (seed 000) that must accompany them in translations.
GLOSSARY = {"Keeper": "所有物", "Goal": "目标", "New Rule": "新规则", "Creeper": "陷阱",
            "Hand Limit": "手牌上限", "Keeper Limit": "所有物上限"}
CJK = re.compile(r"[\u3400-\u9fff]")
SNAKE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")


def _annotations() -> Path:
    return faq_dir() / "annotations"


def _seed(number: str) -> str:
    (path,) = (faq_dir() / "sources").glob(f"{number}_*.txt")
    return path.read_text(encoding="utf-8")


@cache
def seed_002_blocks() -> list[str]:
    """Seed 002 split on the lines reading exactly `Back To Top` (empty tail dropped)."""
    blocks = re.split(r"^Back To Top$", _seed("002"), flags=re.M)
    return [b.strip("\n") for b in blocks if b.strip()]


@cache
def faq_seed_entries() -> dict[str, str]:
    """Entry id -> the seed text of that entry (its question fragment and answer).

    One entry per answer: the one block holding a "Secondary Q:" with its own `A:` line gives
    two entries, cut before that line.
    """
    entries: list[str] = []
    for block in seed_002_blocks():
        answers = re.findall(r"^A:", block, flags=re.M)
        cut = re.search(r"^Secondary Q:", block, flags=re.M)
        if len(answers) > 1 and cut:
            entries += [block[: cut.start()].strip(), block[cut.start():].strip()]
        else:
            assert len(answers) == 1, block[:80]
            entries.append(block)
    out = {f"002-{n:02d}": text for n, text in enumerate(entries, start=1)}
    math_faq = _seed("004").partition("\nFrequently Asked Questions\n")[2]
    questions = [line for line in math_faq.splitlines() if line.startswith("Q:")]
    out.update({f"004-q{n}": text for n, text in enumerate(questions, start=1)})
    return out


def _has_fragment(seed_text: str) -> bool:
    """Whether the seed kept some of the question: text before the answer."""
    if seed_text.startswith("Q:"):
        return True
    return bool(seed_text.split("A:", 1)[0].strip())


@cache
def entries() -> list[dict[str, Any]]:
    data = read_yaml(_annotations() / "faq_entries.yaml")
    return data["entries"]


@cache
def vocabulary() -> dict[str, dict[str, Any]]:
    return read_yaml(_annotations() / "topics.yaml")


@cache
def rulebook() -> dict[str, Any]:
    return read_yaml(_annotations() / "rulebook_zh.yaml")


@cache
def catalog_ids() -> frozenset[str]:
    from adjudicator.cards.catalog import edition_cards

    return frozenset(card.id for name in CATALOGS for card in edition_cards(name))


def _pair_ok(pair: Any) -> bool:
    """An {en, zh} pair: English without CJK, Chinese with CJK, both non-empty."""
    return (isinstance(pair, dict) and isinstance(pair.get("en"), str)
            and isinstance(pair.get("zh"), str) and bool(pair["en"].strip())
            and not CJK.search(pair["en"]) and bool(CJK.search(pair["zh"])))


# --- the seed split -----------------------------------------------------------------------

def test_seed_002_split_gives_76_blocks_and_77_answers() -> None:
    assert len(seed_002_blocks()) == 76
    seed_ids = [i for i in faq_seed_entries() if i.startswith("002-")]
    assert len(seed_ids) == 77
    assert faq_seed_entries()["002-63"].startswith("If I qualify for drawing three cards")
    assert faq_seed_entries()["002-64"].startswith("Secondary Q: So if I increase the Draw rule")
    assert faq_seed_entries()["002-77"].startswith("A: No. There is no limit to the number")


def test_math_faq_has_six_questions() -> None:
    math_ids = [i for i in faq_seed_entries() if i.startswith("004-")]
    assert math_ids == [f"004-q{n}" for n in range(1, 7)]


def test_store_parser_splits_the_same_way() -> None:
    from adjudicator.knowledge.faq_seed import parse_faq_002, parse_faq_004

    parsed = [e.id for e in parse_faq_002(_seed("002"))]
    parsed += [e.id for e in parse_faq_004(_seed("004"))]
    assert parsed == list(faq_seed_entries())


# --- FAQ annotations ----------------------------------------------------------------------

def test_every_entry_annotated_exactly_once_in_seed_order() -> None:
    ids = [e["id"] for e in entries()]
    assert ids == list(faq_seed_entries())
    assert len(ids) == 77 + 6


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["id"])
def test_entry_is_complete_and_bilingual(entry: dict[str, Any]) -> None:
    for field in ("title", "question", "answer_summary", "scope_note"):
        assert _pair_ok(entry.get(field)), f"{entry['id']}: {field} needs en (no CJK) and zh"
    assert entry["scope"] in SCOPES
    assert entry["question_basis"] in QUESTION_BASES
    topics, editions = vocabulary()["topics"], vocabulary()["editions"]
    assert entry["topics"], f"{entry['id']}: no topics"
    assert set(entry["topics"]) <= set(topics), set(entry["topics"]) - set(topics)
    assert entry["editions"], f"{entry['id']}: no editions"
    assert set(entry["editions"]) <= set(editions), set(entry["editions"]) - set(editions)
    for key in ("topics", "cards", "tags", "editions"):
        assert len(entry[key]) == len(set(entry[key])), f"{entry['id']}: repeated {key}"


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["id"])
def test_question_basis_matches_the_seed(entry: dict[str, Any]) -> None:
    kept = _has_fragment(faq_seed_entries()[entry["id"]])
    assert (entry["question_basis"] == "seed_fragment") == kept, (
        f"{entry['id']}: the seed {'keeps' if kept else 'lost'} the question")


def test_linked_cards_exist_in_a_catalog() -> None:
    known = catalog_ids()
    missing = {e["id"]: sorted(set(e["cards"]) - known) for e in entries()
               if set(e["cards"]) - known}
    assert not missing


def test_tags_are_snake_case_and_not_our_cards() -> None:
    known = catalog_ids()
    for e in entries():
        for tag in e["tags"]:
            assert SNAKE.match(tag), f"{e['id']}: tag {tag!r} is not snake case"
            assert tag not in known, f"{e['id']}: {tag!r} is a card we have: link it in cards"


def test_scopes_agree_with_their_links() -> None:
    for e in entries():
        if e["scope"] == "other_decks":
            assert "themed_decks" in e["topics"], e["id"]
        if e["scope"] == "ours":
            assert set(e["editions"]) & {"fluxx", "math", "fluxxnomic"}, e["id"]


def test_scope_counts() -> None:
    counts = {s: sum(e["scope"] == s for e in entries()) for s in SCOPES}
    assert counts == {"ours": 53, "other_decks": 30, "not_rules": 0}


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["id"])
def test_chinese_uses_the_glossary_terms(entry: dict[str, Any]) -> None:
    for field in ("title", "question", "answer_summary", "scope_note"):
        pair = entry[field]
        for en, zh in GLOSSARY.items():
            if re.search(rf"\b{en}s?\b", pair["en"]):
                assert zh in pair["zh"], f"{entry['id']} {field}: '{en}' without '{zh}'"


def test_known_rulings_are_recorded() -> None:
    """A few answers the engine relies on, pinned by their summaries' substance."""
    by_id = {e["id"]: e for e in entries()}
    assert by_id["002-63"]["answer_summary"]["en"].startswith("Eight")
    assert by_id["002-24"]["answer_summary"]["en"].startswith("Two")
    assert "stop_that" in by_id["002-72"]["cards"] and "trade_hands" in by_id["002-72"]["cards"]
    assert by_id["002-54"]["topics"][0] == "surprise_chains"
    assert by_id["002-29"]["question_basis"] == "lost"


def test_topic_and_edition_vocabularies_are_bilingual() -> None:
    for group in ("topics", "editions"):
        for key, label in vocabulary()[group].items():
            assert SNAKE.match(key), key
            assert isinstance(label["en"], str) and label["en"].strip(), key
            assert CJK.search(label["zh"]) or label["zh"] == label["en"], key


def test_vocabulary_terms_are_all_used() -> None:
    used = {t for e in entries() for t in e["topics"]}
    assert set(vocabulary()["topics"]) == used


# --- rulebook translation -----------------------------------------------------------------

def test_rulebook_sections_are_the_fixed_anchors() -> None:
    anchors = [s["anchor"] for s in rulebook()["sections"]]
    assert anchors == EN_ONLY_ANCHORS


@pytest.mark.parametrize("section", rulebook()["sections"], ids=lambda s: s["anchor"])
def test_rulebook_section_translates_the_seed(section: dict[str, Any]) -> None:
    seed = _seed("004")
    assert section["status"] == "project_translation"
    assert _pair_ok(section["title"])
    assert f"\n{section['en_heading_in_seed']}\n" in seed
    # the English translated is the seed's, line for line ("Reshuffling: ..." notes inline)
    for line in section["en"].splitlines():
        assert line in seed, f"{section['anchor']}: not in seed 004: {line[:60]}"
    assert CJK.search(section["zh"])
    # same shape: as many lines and list items as the English
    assert len(section["zh"].splitlines()) == len(section["en"].splitlines())
    for en, zh in GLOSSARY.items():
        if en in section["en"]:
            assert zh in section["zh"], f"{section['anchor']}: '{en}' without '{zh}'"


def test_rulebook_english_matches_the_store_parser() -> None:
    from adjudicator.knowledge.rulebook_seed import parse_rulebook_004

    parsed = parse_rulebook_004(_seed("004"))
    for section in rulebook()["sections"]:
        assert parsed[section["anchor"]].text_en == section["en"]
        assert parsed[section["anchor"]].title_en == section["title"]["en"]


def test_rulebook_titles_cover_the_seed_000_anchors() -> None:
    titles = rulebook()["titles"]
    assert list(titles) == ZH_ANCHORS
    seed = _seed("000")
    for anchor, title in titles.items():
        assert _pair_ok(title), anchor
        if anchor == "glossary":
            assert f"[{title['zh']}]" in seed
        else:
            assert re.search(rf"^[!@]{title['zh']}[：:]?", seed, flags=re.M), anchor


def test_store_reads_the_annotation_files() -> None:
    from adjudicator.knowledge.annotations import faq_annotations, rulebook_translations

    faq = faq_annotations(_annotations() / "faq_entries.yaml")
    assert len(faq) == 83 and all(v["scope"] in SCOPES for v in faq.values())
    assert all(v["title"]["zh"] for v in faq.values())
    zh = rulebook_translations(_annotations() / "rulebook_zh.yaml")
    assert set(EN_ONLY_ANCHORS) <= set(zh)
    assert all(zh[a]["text_zh"] and zh[a]["title_zh"] for a in EN_ONLY_ANCHORS)
