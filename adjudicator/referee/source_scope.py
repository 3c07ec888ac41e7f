"""Which deck a cited passage belongs to, and whether a ruling applies it to another deck.

A rulebook section belongs to its part of the rulebook: the rulebook deck's own sections (seed
000, whose English is the aligned Math Fluxx section: both decks), the Math Fluxx rulebook's
(seed 004: math) or Fluxxnomic's (seed 003: fluxxnomic). An FAQ entry belongs to the editions
the annotations give it (faq/annotations/faq_entries.yaml; none: a general entry, every deck).
A ruling whose edition is not among a cited source's decks cites it by analogy: the source
object carries `"scope": "other_deck"` (docs/FORMATS.md).
"""

from __future__ import annotations

from functools import cache

from ..knowledge.annotations import faq_annotations
from ..knowledge.rulebook_seed import EN_ONLY_ANCHORS
from ..resources import faq_dir

OTHER_DECK = "other_deck"
# the decks of the rulebook deck's own sections (seed 000 with seed 004's English)
_RULEBOOK_DECKS = frozenset({"fluxx", "math"})


@cache
def _faq_editions() -> dict[str, frozenset[str]]:
    notes = faq_annotations(faq_dir() / "annotations" / "faq_entries.yaml")
    return {entry_id: frozenset(note["editions"]) for entry_id, note in notes.items()}


def source_decks(source_id: str) -> frozenset[str] | None:
    """The decks whose rules the passage `source_id` states; None: every deck (or not known)."""
    kind, _, ref = source_id.partition(":")
    if kind == "rulebook":
        if ref.startswith("fluxxnomic-"):
            return frozenset({"fluxxnomic"})
        if ref in EN_ONLY_ANCHORS:
            return frozenset({"math"})
        return _RULEBOOK_DECKS
    if kind == "faq":
        return _faq_editions().get(ref) or None
    return None


def scope_of(source_id: str, edition: str) -> str | None:
    """OTHER_DECK when a ruling of `edition` cites `source_id` by analogy, else None."""
    decks = source_decks(source_id)
    return OTHER_DECK if decks is not None and edition not in decks else None
