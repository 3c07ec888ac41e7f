"""Parse the rulebooks into sections with the fixed anchors of docs/ARCHITECTURE.md.

Seed 000 is the Chinese rulebook: `!` opens a section, `@` a subsection (its text may follow a
full-width colon on the same line), `[...]` lines and inline brackets are the translator's notes
(kept apart, never mixed into the rules text), and `[卡牌列表]` ends the rules (the card lists
belong to the catalogs). The glossary is the `[术语]` block at the top.

Seed 004 (Math Fluxx) has no markers: its headings are known lines, so we look them up by name and
refuse to build if one is missing, rather than guess. Its "Other Notes" and "Examples" hold
several short sections each, introduced by a "Name:" prefix or a lone "-" line.

Seed 003 (Fluxxnomic) has no markers either: its section headings are whole lines ("Items",
"Hands", "Cards", "Card tables", "Winning"), looked up by name as for seed 004. Its "Cards" section
is split at paragraph boundaries into the card basics, the phase rule ("Each phase, a player may
draw one card and play one card") and the card types, so that each can be cited on its own; the
"Card tables" (the cards themselves) belong to the catalog, as seed 000's card lists do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

RULEBOOK_SEED = "000"
K = TypeVar("K")  # the key a heading is known by (an anchor, or None for an unanchored part)
MATH_SEED = "004"
FLUXXNOMIC_SEED = "003"

# Seed 000 section titles -> anchors. Anchors are fixed (the engine cites them).
ZH_ANCHORS: dict[str, str] = {
    "游戏准备": "setup",
    "每一轮": "each-turn",
    "卡牌种类": "card-types",
    "基本规则": "basic-rules",
    "新规则": "new-rules",
    "胜利条件": "goals",
    "所有物": "keepers",
    "行动": "actions",
    "有关弃牌": "discarding",
    "胜利": "winning",
    "混在一起玩": "mixing",
}
# Seed 000 anchor -> the seed 004 section holding the same rule in English.
ALIGNED_EN: dict[str, str] = {
    "setup": "setup-en",
    "each-turn": "turn-sequence",
    "card-types": "types-of-cards",
    "basic-rules": "basic-rules-card",
    "new-rules": "new-rule-card",
    "goals": "goal-card",
    "keepers": "keeper-card",
    "actions": "action-card",
    "discarding": "regarding-discarding",
    "winning": "how-to-win",
}
# Seed 004 headings (whole lines, in order) -> keys. Keys ending in -en / -card / the aligned ones
# serve only as the English side of a seed 000 section; the rest are rulebook sections themselves.
EN_HEADINGS: list[tuple[str, str]] = [
    ("Exec Summary", "exec-summary"),
    ("Setup", "setup-en"),
    ("Going First", "going-first"),
    ("Types of Cards", "types-of-cards"),
    ("New Rule", "new-rule-card"),
    ("Keeper", "keeper-card"),
    ("Goal", "goal-card"),
    ("Action", "action-card"),
    ("The Basic Rules Card", "basic-rules-card"),
    ("Turn Sequence", "turn-sequence"),
    ("Limits", "limits"),
    ("How to Win", "how-to-win"),
    ("Numbers and Math", "numbers-and-math"),
    ("Meta Rule: Math Rules", "math-rules"),
    ("Meta Rule: Keep Going", "keep-going"),
    ("Examples", "examples"),
    ("Other Notes", "other-notes"),
    ("Card List", "card-list"),
]
EXAMPLE_ANCHORS = ["example-draw-rule-rises", "example-draw-2-and-use-em", "example-keeper-first"]
EXAMPLE_TITLES = {
    "example-draw-rule-rises": ("Example: the Draw rule rises", "示例：抓牌数规则提高"),
    "example-draw-2-and-use-em": ("Example: Draw 2 and Use 'Em", "示例：抓2用2"),
    "example-keeper-first": ("Example: play the Keeper first", "示例：先出所有物"),
}
OTHER_NOTES: list[tuple[str, str]] = [
    ("Regarding Discarding", "regarding-discarding"),
    ("Reshuffling", "reshuffling"),
    ("Cards in Play", "cards-in-play"),
    ("Free Actions", "free-actions"),
    ("Jumping In", "jumping-in"),
    ("Dropping Out", "dropping-out"),
]
# The seed 004-only sections that become rulebook sections (anchor order = reading order).
EN_ONLY_ANCHORS = [
    "exec-summary",
    "going-first",
    "turn-sequence",
    "limits",
    "numbers-and-math",
    "math-rules",
    "keep-going",
    *EXAMPLE_ANCHORS,
    "reshuffling",
    "cards-in-play",
    "free-actions",
    "jumping-in",
    "dropping-out",
]
# English titles for seed 000 sections that seed 004 lacks (the project's words).
PROJECT_EN_TITLES = {"mixing": "Mixing Decks", "glossary": "Glossary"}


@dataclass
class Note:
    zh: str
    en: str | None = None
    kind: str = "translator"


# The project's English for the translator's notes of seed 000 (the seed gives them in Chinese).
NOTE_EN = {
    "根据某一个FAQ": "According to one FAQ, steps 1) and 2) need not come in that order:"
    " you may play before you draw. This correction is aimed mainly at Zombie Fluxx;"
    " without Creepers, playing first makes little sense. (translator's note)",
    "这只是就Fluxx本身来说的": "This holds for Fluxx itself; it need not hold for the"
    " other games of the series. (translator's note)",
}


# What a seed 000 section says beyond the seed 004 section whose English it is shown with (the
# Chinese rulebook's Setup also covers going first, turn order, joining and reshuffling): the
# project's English for it, a note of its own kind (`zh_only`), so that no English reader misses a
# rule the Chinese states and a ruling cites.
ZH_ONLY_EN = {
    "setup": (
        "最先伸手抓牌",
        "The Chinese rulebook's Setup goes on (the project's translation; the English "
        "rulebook's Setup lacks this part): Whoever reaches for the cards first (or claims to"
        " be first) goes first. Start with just the Basic Rules and adjust them as New Rule "
        "cards are played. Players take turns clockwise by seat, each turn drawing and "
        "playing the number of cards the rules ask for, until someone meets the conditions on"
        " the current Goal card. A player who wants to join may do so at any time by drawing "
        "a hand of three cards. When the draw pile runs out, shuffle the discard pile, turn "
        "it face down as the new draw pile and keep playing. If you are unsure what a card "
        "does, you may read its text aloud as you play it.",
    ),
}


@dataclass
class ZhSection:
    anchor: str
    title_zh: str
    text_zh: str
    level: int  # 1 for `!`, 2 for `@`
    parent: str | None
    notes: list[Note] = field(default_factory=list)


@dataclass
class EnSection:
    key: str
    title_en: str
    text_en: str


@dataclass
class GlossaryTerm:
    en: str
    zh: str  # as printed, e.g. "出牌数（规则）"
    group: str  # the glossary's own heading, e.g. "卡片类型"

    @property
    def zh_term(self) -> str:
        """The term without its parenthesised qualifier: "出牌数（规则）" -> "出牌数"."""
        return re.sub(r"[（(].*?[）)]", "", self.zh).strip()


_NOTE = re.compile(r"\[([^\[\]]*)\]")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _note_en(zh: str) -> str | None:
    return next((en for start, en in NOTE_EN.items() if zh.strip().startswith(start)), None)


def _split_notes(text: str) -> tuple[str, list[Note]]:
    """Text without its `[...]` translator's notes, and the notes."""
    notes = [
        Note(m.group(1).strip(), _note_en(m.group(1)))
        for m in _NOTE.finditer(text)
        if m.group(1).strip()
    ]
    clean = _NOTE.sub("", text)
    clean = "\n".join(line.rstrip() for line in clean.splitlines() if line.strip())
    return clean.strip(), notes


def parse_glossary(text: str) -> list[GlossaryTerm]:
    """The `[术语]` block: heading lines (Chinese only) and "English 中文" term lines."""
    lines = text.splitlines()
    start = lines.index("[术语]")
    terms: list[GlossaryTerm] = []
    group = ""
    for line in lines[start + 1 :]:
        line = line.strip()
        if line.startswith("["):
            break
        match = _CJK.search(line)
        if match is None or match.start() == 0:
            group = line
            continue
        en, zh = line[: match.start()].strip(), line[match.start() :].strip()
        terms.append(GlossaryTerm(en, zh, group))
    return terms


def glossary_text(terms: list[GlossaryTerm]) -> tuple[str, str]:
    """The glossary as text, English-first and Chinese-first (it is bilingual in the seed)."""
    en, zh, group = [], [], None
    for t in terms:
        if t.group != group:
            group = t.group
            zh.append(f"{group}")
            en.append(f"{group}")
        en.append(f"{t.en} — {t.zh}")
        zh.append(f"{t.zh} — {t.en}")
    return "\n".join(en), "\n".join(zh)


def parse_rulebook_000(text: str) -> list[ZhSection]:
    """The rules sections of seed 000, in order, up to `[卡牌列表]`."""
    sections: list[ZhSection] = []
    current: dict | None = None
    parent: str | None = None
    started = False

    def close() -> None:
        if current is not None:
            body, notes = _split_notes("\n".join(current["lines"]))
            sections.append(
                ZhSection(current["anchor"], current["title"], body, current["level"],
                          current["parent"], notes)
            )

    for raw in text.splitlines():
        line = raw.strip()
        if line == "[卡牌列表]":
            break
        if line.startswith(("!", "@")):
            started = True
            close()
            level = 1 if line[0] == "!" else 2
            title, _, rest = line[1:].partition("：")
            title = title.strip()
            if title not in ZH_ANCHORS:
                raise ValueError(f"seed {RULEBOOK_SEED}: unknown section {title!r}")
            anchor = ZH_ANCHORS[title]
            if level == 1:
                parent = anchor
            current = {
                "anchor": anchor,
                "title": title,
                "level": level,
                "parent": None if level == 1 else parent,
                "lines": [rest] if rest.strip() else [],
            }
        elif started and current is not None and line:
            current["lines"].append(line)
    close()
    found = {s.anchor for s in sections}
    missing = set(ZH_ANCHORS.values()) - found
    if missing:
        raise ValueError(f"seed {RULEBOOK_SEED}: sections not found: {sorted(missing)}")
    return sections


def _headings_in_order(lines: list[str], headings: Sequence[tuple[str, K]],
                       seed: str) -> list[tuple[int, str, K]]:
    """(line index, title, key) of each heading, found in reading order: each is searched after
    the previous one, so that a heading matches the section, not an earlier table of contents
    line ("Goal" and "Action" in seed 004)."""
    found: list[tuple[int, str, K]] = []
    cursor = 0
    for title, key in headings:
        try:
            idx = next(i for i in range(cursor, len(lines)) if lines[i].strip() == title)
        except StopIteration:
            raise ValueError(f"seed {seed}: heading {title!r} not found") from None
        found.append((idx, title, key))
        cursor = idx + 1
    return found


def parse_rulebook_004(text: str) -> dict[str, EnSection]:
    """Seed 004's English rules sections by key (EN_HEADINGS, EXAMPLE_ANCHORS, OTHER_NOTES)."""
    lines = text.splitlines()
    heading_at = _headings_in_order(lines, EN_HEADINGS, MATH_SEED)
    sections: dict[str, EnSection] = {}
    for n, (idx, title, key) in enumerate(heading_at):
        end = heading_at[n + 1][0] if n + 1 < len(heading_at) else len(lines)
        body = [ln.rstrip() for ln in lines[idx + 1 : end] if ln.strip()]
        if key == "examples":
            sections.update(_examples(body))
        elif key == "other-notes":
            sections.update(_other_notes(body))
        elif key != "card-list":
            sections[key] = EnSection(key, title, "\n".join(body))
    return sections


def _examples(body: list[str]) -> dict[str, EnSection]:
    """"Examples": an introduction line, then one paragraph after each lone "-" line."""
    paragraphs: list[list[str]] = []
    for line in body:
        if line.strip() == "-":
            paragraphs.append([])
        elif paragraphs:
            paragraphs[-1].append(line)
    if len(paragraphs) != len(EXAMPLE_ANCHORS):
        raise ValueError(f"seed {MATH_SEED}: expected {len(EXAMPLE_ANCHORS)} examples")
    return {
        key: EnSection(key, EXAMPLE_TITLES[key][0], "\n".join(p))
        for key, p in zip(EXAMPLE_ANCHORS, paragraphs, strict=True)
    }


def _other_notes(body: list[str]) -> dict[str, EnSection]:
    """"Other Notes": one line per note, "Name: text"."""
    out: dict[str, EnSection] = {}
    for title, key in OTHER_NOTES:
        line = next((ln for ln in body if ln.startswith(f"{title}:")), None)
        if line is None:
            raise ValueError(f"seed {MATH_SEED}: note {title!r} not found")
        out[key] = EnSection(key, title, line[len(title) + 1 :].strip())
    return out


# --- seed 003 (Fluxxnomic) ------------------------------------------------------------------

# Seed 003 headings (whole lines, in order) -> anchors (None: not a rules section).
FLUXXNOMIC_HEADINGS: list[tuple[str, str | None]] = [
    ("Items", "fluxxnomic-items"),
    ("Hands", "fluxxnomic-hands"),
    ("Cards", "fluxxnomic-cards"),
    ("Card tables", None),  # the cards: faq/catalogs/fluxxnomic.json
    ("Winning", "fluxxnomic-winning"),
]
# The parts of the "Cards" section cited on their own: anchor -> the words its first paragraph
# starts with. Their titles are the project's words (the seed has no heading there).
FLUXXNOMIC_SUBSECTIONS: list[tuple[str, str, str]] = [
    ("fluxxnomic-phases", "All cards have a name and a description.", "Each phase"),
    ("fluxxnomic-card-types", "Each card has a type,", "Card types"),
]
# Reading order of the Fluxxnomic sections (anchors are fixed: the engine cites them).
FLUXXNOMIC_ANCHORS = ["fluxxnomic-items", "fluxxnomic-hands", "fluxxnomic-cards",
                      "fluxxnomic-phases", "fluxxnomic-card-types", "fluxxnomic-winning"]


@dataclass
class NomicSection:
    anchor: str
    title_en: str
    title_status: str  # "seed" (the seed's heading) or "project_words"
    text_en: str  # the seed's paragraphs, verbatim, one per line
    level: int
    parent: str | None
    heading: str  # the seed heading the text sits under


def parse_fluxxnomic_003(text: str) -> list[NomicSection]:
    """Seed 003's rules sections in reading order (FLUXXNOMIC_ANCHORS)."""
    lines = text.splitlines()
    found = _headings_in_order(lines, FLUXXNOMIC_HEADINGS, FLUXXNOMIC_SEED)
    sections: list[NomicSection] = []
    for n, (idx, title, anchor) in enumerate(found):
        end = found[n + 1][0] if n + 1 < len(found) else len(lines)
        body = [ln.rstrip() for ln in lines[idx + 1 : end] if ln.strip()]
        if anchor is None:
            continue
        if anchor != "fluxxnomic-cards":
            sections.append(NomicSection(anchor, title, "seed", "\n".join(body), 1, None, title))
            continue
        starts = [0]
        for sub, first_words, _ in FLUXXNOMIC_SUBSECTIONS:
            at = next((i for i, ln in enumerate(body) if ln.startswith(first_words)), None)
            if at is None or at <= starts[-1]:
                raise ValueError(f"seed {FLUXXNOMIC_SEED}: paragraph of {sub!r} not found")
            starts.append(at)
        starts.append(len(body))
        sections.append(NomicSection(anchor, title, "seed", "\n".join(body[: starts[1]]), 1,
                                     None, title))
        for k, (sub, _, sub_title) in enumerate(FLUXXNOMIC_SUBSECTIONS, start=1):
            sections.append(NomicSection(sub, sub_title, "project_words",
                                         "\n".join(body[starts[k] : starts[k + 1]]), 2,
                                         anchor, title))
    if [s.anchor for s in sections] != FLUXXNOMIC_ANCHORS:
        raise ValueError(f"seed {FLUXXNOMIC_SEED}: unexpected sections")
    return sections
