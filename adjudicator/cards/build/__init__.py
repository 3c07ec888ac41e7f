"""Builds faq/catalogs/*.json from the seeds (and, for what no seed prints, the project's own data).

`python -m adjudicator.cards.build` rewrites every catalog file; `build_all()` returns them
without writing, which is how the tests check that the committed files match the sources.
One module per edition parses its seed: `fluxx` (the rulebook deck of seed 000), `math_fluxx`,
`fluxxnomic` and `expansions` (Creepers, Surprises); `common` holds what they share.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...resources import faq_dir
from ..catalog import CATALOG_NAMES
from .expansions import build_creepers, build_surprises
from .fluxx import build_fluxx
from .fluxxnomic import build_fluxxnomic
from .math_fluxx import build_math

__all__ = ["CATALOG_NAMES", "build", "build_all", "dump", "main"]


def build(name: str) -> dict[str, Any]:
    """One catalog file's content: fluxx, math, fluxxnomic, creepers or surprises."""
    if name == "fluxx":
        return build_fluxx()
    if name == "math":
        return build_math()
    if name == "fluxxnomic":
        return build_fluxxnomic()
    return {"creepers": build_creepers, "surprises": build_surprises}[name]()


def build_all() -> dict[str, dict[str, Any]]:
    """Every catalog file's content, by name."""
    return {name: build(name) for name in CATALOG_NAMES}


def dump(catalog: dict[str, Any]) -> str:
    return json.dumps(catalog, ensure_ascii=False, indent=1) + "\n"


def catalogs_dir() -> Path:
    return faq_dir() / "catalogs"


def main(argv: list[str] | None = None) -> int:
    names = argv if argv else list(CATALOG_NAMES)
    for name in names:
        catalog = build(name)
        path = catalogs_dir() / f"{name}.json"
        path.write_text(dump(catalog), encoding="utf-8")
        print(f"wrote {path} ({len(catalog['cards'])} cards)")
    return 0

