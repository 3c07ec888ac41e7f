"""Texts of the engine's findings (findings.yaml) and how they are filled in.

`finding_text(key, args, lang, render)` formats one message; `render` turns each argument
(a clingo symbol) into display text, e.g. a card id into the card's name in `lang`. A
placeholder `{0:player}` asks for a raw seat number to be shown as the player's name.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

LANGS = ("en", "zh")
_FILE = Path(__file__).resolve().parent / "findings.yaml"


@cache
def _data() -> dict[str, Any]:
    return yaml.safe_load(_FILE.read_text(encoding="utf-8"))


@cache
def messages() -> dict[str, dict[str, str]]:
    """Every message key with its English and Chinese text (shared: do not modify)."""
    return {k: v for k, v in _data().items() if not k.startswith("_")}


@cache
def terms() -> dict[str, dict[str, str]]:
    """Constants (zones, rule kinds...) in both languages (shared: do not modify)."""
    return dict(_data().get("_terms", {}))


Render = Callable[[Any, str, str], str]  # (argument, format spec, lang) -> text


class _Formatter(string.Formatter):
    def __init__(self, render: Render, lang: str) -> None:
        self.render, self.lang = render, lang

    def format_field(self, value: Any, format_spec: str) -> str:
        return self.render(value, format_spec, self.lang)


def finding_text(key: str, args: Sequence[Any], lang: str, render: Render) -> str:
    """The message `key` in `lang` with `args` filled in; the key itself when it has no text."""
    entry = messages().get(key)
    if entry is None:
        return key + (" " + ", ".join(render(a, "", lang) for a in args) if args else "")
    return _Formatter(render, lang).format(entry[lang], *args)
