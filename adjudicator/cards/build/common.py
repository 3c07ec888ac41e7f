"""What the seed parsers of every edition share: card ids and the record of a seed's quirk."""

from __future__ import annotations

import re
from typing import Any


def card_id(name_en: str) -> str:
    """Lowercase snake case of an English name: "Draw 2 and use 'em" -> draw_2_and_use_em."""
    s = name_en.replace("'", "").replace("\u2018", "").replace("\u2019", "")
    s = re.sub(r"[^0-9A-Za-z]+", "_", s.lower())
    return s.strip("_")


def quirk(en: str, zh: str) -> dict[str, Any]:
    return {"kind": "seed_quirk", "en": en, "zh": zh}
