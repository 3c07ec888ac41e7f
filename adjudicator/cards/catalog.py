"""The card catalogs: every card of every edition, and name resolution.

The data is in faq/catalogs/<name>.json (built by `adjudicator.cards.build` from the seeds).
A `Catalog` is the set of cards in play for one game: an edition plus, for `fluxx`, the
`creepers` and/or `surprises` expansions. Cards are named in input by id, English or Chinese
name, case-, space- and punctuation-insensitively; `resolve` does that and `suggest` offers
the likeliest cards for a name that matches none.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from ..messages import card_ref
from ..resources import faq_dir

EDITIONS = ("fluxx", "math", "fluxxnomic")
EXPANSIONS = ("creepers", "surprises")
CATALOG_NAMES = EDITIONS + EXPANSIONS
# Editions whose play counts in phases and cycles instead of turns (Fluxxnomic, seed 003): what
# players read says 阶段 / phase where the others say 回合 / turn
PHASE_GAMES = frozenset({"fluxxnomic"})
CARD_TYPES = ("basic_rules", "new_rule", "meta_rule", "goal", "keeper", "action", "creeper",
              "surprise", "promo")
# Expansions only exist for the rulebook deck (docs/FORMATS.md: they add to a fluxx game).
EXPANSION_BASE = "fluxx"


@dataclass(frozen=True)
class Card:
    id: str
    edition: str  # the catalog file the card comes from: an edition or an expansion name
    type: str
    name_en: str
    name_zh: str
    text_en: str | None
    text_zh: str | None
    copies: int
    notes: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    provenance: dict[str, Any] = field(default_factory=dict, compare=False)
    attrs: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def source_id(self) -> str:
        return f"card:{self.id}" if self.edition == "fluxx" else f"card:{self.edition}/{self.id}"

    @property
    def url(self) -> str:
        return f"/cards/{self.id}" if self.edition == "fluxx" else (
            f"/cards/{self.id}?edition={self.edition}")

    @property
    def playable(self) -> bool:
        """False for the Basic Rules card, which is never in a hand or a pile."""
        return self.type != "basic_rules"

    def name(self, lang: str = "en") -> str:
        return self.name_zh if lang == "zh" else self.name_en

    def ref(self, lang: str = "en") -> str:
        """The name as running text shows it (「名字」 in Chinese: messages.card_ref)."""
        return card_ref(self.name(lang), lang)

    def refs(self) -> dict[str, str]:
        """`ref` in both languages: a message's {en, zh} field naming this card."""
        return {"en": self.ref("en"), "zh": self.ref("zh")}

    def source(self) -> dict[str, str]:
        return {"id": self.source_id, "kind": "card", "url": self.url}

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "name": {"en": self.name_en, "zh": self.name_zh},
            "text": {"en": self.text_en, "zh": self.text_zh},
            "sources": [self.source()],
            "edition": self.edition,
            "copies": self.copies,
            "notes": [dict(n) for n in self.notes],
            "provenance": dict(self.provenance),
            "attrs": dict(self.attrs),
        }

    @classmethod
    def from_json(cls, edition: str, data: dict[str, Any]) -> Card:
        return cls(
            id=data["id"], edition=edition, type=data["type"],
            name_en=data["name"]["en"], name_zh=data["name"]["zh"],
            text_en=data["text"]["en"], text_zh=data["text"]["zh"],
            copies=int(data["copies"]), notes=tuple(data.get("notes", ())),
            provenance=dict(data.get("provenance", {})), attrs=dict(data.get("attrs", {})),
        )


@lru_cache(maxsize=4096)  # every card of every table is looked up by it: most names recur
def normalize(name: str) -> str:
    """The matching key of a card name: width-folded, case-folded, without spaces/punctuation.

    "Draw 2", "draw_2", "DRAW-2" -> "draw2"; "Let's Simplify" -> "letssimplify";
    "再来一次！" -> "再来一次". Letters and digits of every script are kept.
    """
    s = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"[\W_]+", "", s)


_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def is_chinese(text: str) -> bool:
    """Whether `text` has a Chinese character in it (a name typed in Chinese)."""
    return bool(_HAN.search(text))


def _keys(card: Card) -> Iterable[str]:
    yield card.id
    yield card.name_en
    yield card.name_zh
    yield from card.attrs.get("aliases", ())


class Catalog:
    """The cards in play for one game: an edition plus its expansions."""

    def __init__(self, edition: str, expansions: Sequence[str], cards: Iterable[Card],
                 copies_unlimited: bool = False) -> None:
        self.edition = edition
        self.expansions = tuple(expansions)
        self.cards: dict[str, Card] = {c.id: c for c in cards}
        # Fluxxnomic makes its cards at random: no deck, so no limit on copies
        self.copies_unlimited = copies_unlimited
        self._index: dict[str, Card] = {}
        for card in self.cards.values():
            for key in _keys(card):
                self._index.setdefault(normalize(key), card)

    def __repr__(self) -> str:
        return f"Catalog({self.edition!r}, {self.expansions!r}, {len(self.cards)} cards)"

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, card_id: str) -> Card:
        return self.cards[card_id]

    def of_type(self, *types: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type in types]

    def resolve(self, name: str) -> Card | None:
        """The card named by its id, English or Chinese name (or a recorded alias), or None."""
        if not isinstance(name, str):
            return None
        return self._index.get(normalize(name))

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """Names of the cards most like `name` (for "did you mean"), in the language `name` is
        typed in: "中采" -> ["中彩"], "Jackpt" -> ["Jackpot"]."""
        if not isinstance(name, str):
            return []
        query = normalize(name)
        if not query:
            return []
        scores: dict[str, float] = {}
        for key, card in self._index.items():
            ratio = difflib.SequenceMatcher(None, query, key).ratio()
            if len(query) >= 2 and (query in key or key in query):
                ratio = max(ratio, 0.75)  # "trombones" -> "How Many Trombones?"
            if ratio > scores.get(card.id, 0.0):
                scores[card.id] = ratio
        best = sorted((s, cid) for cid, s in scores.items() if s >= 0.45)
        best.sort(key=lambda t: (-t[0], t[1]))
        lang = "zh" if is_chinese(name) else "en"
        return [self.cards[cid].name(lang) for _, cid in best[:n]]


@cache
def _load(name: str) -> dict[str, Any]:
    if name not in CATALOG_NAMES:
        raise ValueError(f"unknown catalog {name!r}; known: {', '.join(CATALOG_NAMES)}")
    path = faq_dir() / "catalogs" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _cards(name: str) -> tuple[Card, ...]:
    return tuple(Card.from_json(name, c) for c in _load(name)["cards"])


def edition_cards(edition: str) -> list[Card]:
    """The cards of one catalog file: fluxx, math, fluxxnomic, creepers or surprises."""
    return list(_cards(edition))


def catalog_info(name: str) -> dict[str, Any]:
    """A catalog file's description without its cards (title, kind, remarks, counts...)."""
    return {k: v for k, v in _load(name).items() if k != "cards"}


def all_cards() -> list[Card]:
    """Every card of every catalog file (a card is identified by (edition, id))."""
    return [c for name in CATALOG_NAMES for c in _cards(name)]


@lru_cache(maxsize=1024)
def any_card(name: str) -> Card | None:
    """The card `name` (an id, an English or Chinese name) names in any game, the rulebook
    deck with its expansions first: for a text that has no table to say which deck it means
    (a suggestion, the command line's chain)."""
    for edition in EDITIONS:
        card = catalog_for(edition, EXPANSIONS if edition == EXPANSION_BASE else ()).resolve(name)
        if card is not None:
            return card
    return None


def catalog_for(edition: str = "fluxx", expansions: Sequence[str] = ()) -> Catalog:
    """The cards of a game. Raises ValueError for an unknown edition or expansion."""
    return _catalog_for(edition, tuple(sorted(set(expansions))))


@cache
def _catalog_for(edition: str, expansions: tuple[str, ...]) -> Catalog:
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")
    for name in expansions:
        if name not in EXPANSIONS:
            raise ValueError(f"unknown expansion {name!r}; known: {', '.join(EXPANSIONS)}")
    if expansions and edition != EXPANSION_BASE:
        raise ValueError(f"expansions apply to the {EXPANSION_BASE} edition only")
    cards: dict[str, Card] = {c.id: c for c in _cards(edition)}
    for name in expansions:
        for card in _cards(name):
            # an expansion card with attrs.replaces takes the place of the base card
            # (War and Death become Creepers); otherwise it joins the deck
            replaced = card.attrs.get("replaces")
            if replaced:
                cards.pop(replaced, None)
            cards[card.id] = card
    unlimited = bool(_load(edition).get("copies_unlimited", False))
    return Catalog(edition, expansions, cards.values(), copies_unlimited=unlimited)
