"""The Chinese glossary (adjudicator/messages/glossary.yaml): no banned variant of a term in any
message file, annotation file or template, except the occurrences the glossary allows by name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.resources import read_yaml

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = read_yaml(ROOT / "adjudicator" / "messages" / "glossary.yaml")
MESSAGE_FILES = sorted(p for p in (ROOT / "adjudicator" / "messages").glob("*.yaml")
                       if p.name != "glossary.yaml")  # it names the variants it bans
ANNOTATION_FILES = sorted((ROOT / "faq" / "annotations").glob("*.yaml"))
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def banned_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for concept, term in GLOSSARY["terms"].items():
        for word in term.get("banned") or []:
            out.append((concept, re.compile(re.escape(word))))
        for pattern in term.get("banned_re") or []:
            out.append((concept, re.compile(pattern)))
    return out


def allowed_spans(path: Path, text: str) -> list[tuple[int, int]]:
    rel = path.relative_to(ROOT).as_posix()
    spans = []
    for item in GLOSSARY["allowed"]:
        if item["file"] == rel:
            spans += [(m.start(), m.end()) for m in re.finditer(re.escape(item["text"]), text)]
    return spans


def violations(path: Path, text: str | None = None) -> list[str]:
    """The banned variants in `path` (its `text`, when given), each as "file:line: variant"."""
    text = path.read_text(encoding="utf-8") if text is None else text
    spans = allowed_spans(path, text)
    found = []
    for concept, pattern in banned_patterns():
        for m in pattern.finditer(text):
            if any(a <= m.start() and m.end() <= b for a, b in spans):
                continue
            line = text.count("\n", 0, m.start()) + 1
            term = GLOSSARY["terms"][concept]["zh"]
            found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r} (say {term})")
    return found


def _param(path: Path) -> object:
    return pytest.param(path, id=path.relative_to(ROOT).as_posix())


@pytest.mark.parametrize("path", [_param(p) for p in MESSAGE_FILES + ANNOTATION_FILES + TEMPLATES])
def test_no_banned_variant_of_a_glossary_term(path: Path) -> None:
    assert not violations(path), "\n".join(violations(path))


def test_every_term_has_its_two_languages_and_its_patterns_compile() -> None:
    for concept, term in GLOSSARY["terms"].items():
        assert term["en"] and term["zh"], concept
        for pattern in term.get("banned_re") or []:
            re.compile(pattern)
        # a banned variant is never the term itself
        assert term["zh"] not in (term.get("banned") or []), concept


def test_every_allowance_names_a_real_occurrence_of_a_banned_variant() -> None:
    """An allowance that no longer matches anything, or that lets through no banned variant, is
    stale: it would hide a later mistake."""
    patterns = [p for _, p in banned_patterns()]
    for item in GLOSSARY["allowed"]:
        assert item["reason"].strip(), item
        text = (ROOT / item["file"]).read_text(encoding="utf-8")
        assert item["text"] in text, item
        assert any(p.search(item["text"]) for p in patterns), item


def test_the_check_finds_a_banned_variant() -> None:
    """The scan itself can fail: a template saying 抓牌堆 and 满足了目标 is caught twice."""
    found = violations(ROOT / "templates" / "probe.html", "<p>抓牌堆：30；Ann满足了目标。</p>")
    assert len(found) == 2 and "牌库" in found[0], found


def _project_chinese(card: dict) -> list[tuple[str, str]]:
    """The Chinese of a catalog card that is the project's own (its name or text marked
    project_translation, and the project's notes): the seeds' own wording is kept as it is."""
    provenance = card.get("provenance") or {}
    out = [(f"{card['id']}.{field}", card[field]["zh"]) for field in ("name", "text")
           if provenance.get(f"{field}_zh") == "project_translation" and card.get(field)]
    # a note's “quotes” are the source's own words
    out += [(f"{card['id']}.note", re.sub(r"“[^”]*”", "", note["zh"]))
            for note in card.get("notes") or [] if note.get("zh") and "（本项目注）" in note["zh"]]
    return out


CATALOGS = sorted((ROOT / "faq" / "catalogs").glob("*.json"))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_the_project_chinese_of_the_cards_follows_the_glossary(path: Path) -> None:
    import json
    cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
    found = [f"{where}: {m.group(0)!r} (say {GLOSSARY['terms'][concept]['zh']})"
             for card in cards for where, zh in _project_chinese(card)
             for concept, pattern in banned_patterns() for m in pattern.finditer(zh)]
    assert not found, "\n".join(found)
