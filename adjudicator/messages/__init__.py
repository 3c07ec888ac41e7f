"""The referee's texts in English and Chinese, one YAML file per concern, and how they are
filled in.

findings.yaml holds the engine's findings: `finding_text(key, args, lang, render)` formats one;
`render` turns each argument (a clingo symbol) into display text, e.g. a card id into the card's
name in `lang`. A placeholder `{0:player}` asks for a raw seat number to be shown as the player's
name. ui.yaml holds the web pages' strings (adjudicator/i18n.py). The other files (errors.yaml,
text_view.yaml, coverage.yaml) map a key to `{en: ..., zh: ...}`: `pair(name, key, **fields)`
gives both texts with their `{field}` placeholders filled in.

Counts in English: a placeholder `{N:plural:card}` (or `{count:plural:card}` with named fields)
is the number and its noun, "1 card", "0 cards", "2 cards" (`plural`). The noun takes an "s";
one that does not is given as "singular|plural" (`{n:plural:entry|entries}`), and the noun may be
another placeholder whose English is a singular noun (`{2:plural:{5}}`, the unit term of a limit).
Chinese has no plural: its texts write the number and its measure word themselves ("{1}张") and
never use the form (tests/web/test_ui_words.py checks both languages). Where the measure word
depends on another argument, a Chinese text writes `{N:measure:{M}}`: the number and the
measure word of argument M's text (`_measures` in findings.yaml: 手牌 -> 张, 所有物 -> 件), so
"手牌最多（{2:measure:{4}}）" reads 手牌最多（12张）.

A card's name inside a sentence goes through `card_ref` (findings, reasons, choices, titles and
the changes of a move): in Chinese it is set off as 「名字」, so templates never quote a card
themselves (tests/web/test_zh_text.py).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ..resources import read_yaml

LANGS = ("en", "zh")
_DIR = Path(__file__).resolve().parent
_FILE = _DIR / "findings.yaml"


@cache
def _data() -> dict[str, Any]:
    return read_yaml(_FILE)


@cache
def messages() -> dict[str, dict[str, str]]:
    """Every message key with its English and Chinese text (shared: do not modify)."""
    return {k: v for k, v in _data().items() if not k.startswith("_")}


@cache
def terms() -> dict[str, dict[str, str]]:
    """Constants (zones, rule kinds...) in both languages (shared: do not modify)."""
    return dict(_data().get("_terms", {}))


@cache
def catalog(name: str) -> dict[str, Any]:
    """messages/<name>.yaml as read (shared: do not modify)."""
    return read_yaml(_DIR / f"{name}.yaml")


PLURAL = "plural:"
MEASURE = "measure:"


@cache
def measures() -> dict[str, str]:
    """The measure word of each Chinese noun a count may be of (findings.yaml `_measures`)."""
    return dict(_data().get("_measures", {}))


def measure(count: Any, noun: str, lang: str) -> str:
    """`count` with the measure word of `noun` in Chinese ("12张" for 手牌); in English the
    plural form."""
    if lang != "zh":
        return plural(count, noun, lang)
    return f"{count}{measures().get(noun, '')}"


def plural(count: Any, noun: str, lang: str) -> str:
    """`count` with its noun: in English "1 card" and "0 cards", "2 cards" (the noun's plural is
    noun + "s", or the part after "|" of "singular|plural"); in Chinese, which has no plural, the
    noun as given."""
    singular, _, many = noun.partition("|")
    if lang == "en" and str(count).strip() != "1":
        singular = many or singular + "s"
    return f"{count} {singular}"


class _Fill(string.Formatter):
    """str.format, with the plural form `{count:plural:noun}` besides."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith(PLURAL):
            return plural(value, format_spec[len(PLURAL):], self.lang)
        return super().format_field(value, format_spec)


def fill(template: str, lang: str, /, *args: Any, **fields: Any) -> str:
    """`template` (a text in `lang`) with its placeholders filled in as str.format fills them,
    and the plural form `{count:plural:noun}` besides (see the module's doc)."""
    if PLURAL not in template:
        return template.format(*args, **fields)  # the usual case, and the faster one
    return _Fill(lang).format(template, *args, **fields)


def text(name: str, key: str, lang: str, /, **fields: Any) -> str:
    """The message `key` of messages/<name>.yaml in `lang`, its placeholders filled in."""
    return fill(catalog(name)[key][lang], lang, **fields)


def card_ref(name: str, lang: str) -> str:
    """A card's name as running text shows it: in Chinese set off as 「名字」, so that it reads
    as a name ("把「那是我的！」作为一次出牌打出") and its own ！ or ？ never runs into the
    sentence's punctuation (「住手！」。, not 住手！。); English names stand as they are."""
    return f"「{name}」" if lang == "zh" and name else name


class ByLang(dict):
    """A placeholder's value that differs by language: {"en": ..., "zh": ...}."""


def by_lang(en: Any, zh: Any) -> ByLang:
    return ByLang(en=en, zh=zh)


def pair(name: str, key: str, /, **fields: Any) -> dict[str, str]:
    """The message `key` of messages/<name>.yaml in every language, its `{field}` placeholders
    filled in by `fill`; a field given `by_lang` is filled in with its language's value."""
    entry = catalog(name)[key]
    return {lang: fill(entry[lang], lang, **{k: v[lang] if isinstance(v, ByLang) else v
                                             for k, v in fields.items()}) for lang in LANGS}


Render = Callable[[Any, str, str], str]  # (argument, format spec, lang) -> text


class _Formatter(string.Formatter):
    def __init__(self, render: Render, lang: str) -> None:
        self.render, self.lang = render, lang

    def format_field(self, value: Any, format_spec: str) -> str:
        # a nested `{5}` in the spec has been filled in already, by this same formatter
        if format_spec.startswith(PLURAL):
            return plural(self.render(value, "", self.lang), format_spec[len(PLURAL):], self.lang)
        if format_spec.startswith(MEASURE):
            return measure(self.render(value, "", self.lang), format_spec[len(MEASURE):],
                           self.lang)
        return self.render(value, format_spec, self.lang)


Part = tuple[str, int | None, str]  # literal text, then the index of an argument and its spec
# `{N:plural:{M}}` and `{N:measure:{M}}`: the count whose noun is argument M's text
_NOUN_ARG = re.compile(rf"(?:{PLURAL}|{MEASURE})\{{(\d+)\}}")


@cache
def _compiled(template: str) -> tuple[Part, ...] | None:
    """A template as literal parts and argument slots, parsed once (string.Formatter parses it
    again on every call, which was the largest part of rendering a ruling); None when a field is
    more than a plain `{N}` or `{N:spec}`, which the Formatter then handles."""
    parts: list[Part] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if field is None:
            parts.append((literal, None, ""))
        elif field.isdigit() and conversion is None and (
                "{" not in (spec or "") or _NOUN_ARG.fullmatch(spec or "")):
            parts.append((literal, int(field), spec or ""))
        else:
            return None
    return tuple(parts)


def finding_text(key: str, args: Sequence[Any], lang: str, render: Render) -> str:
    """The message `key` in `lang` with `args` filled in; the key itself when it has no text."""
    entry = messages().get(key)
    if entry is None:
        return key + (" " + ", ".join(render(a, "", lang) for a in args) if args else "")
    parts = _compiled(entry[lang])
    if parts is None:
        return _Formatter(render, lang).format(entry[lang], *args)
    out: list[str] = []
    for literal, index, spec in parts:
        out.append(literal)
        if index is None:
            continue
        if spec.startswith(PLURAL):
            noun = _NOUN_ARG.fullmatch(spec)
            out.append(plural(render(args[index], "", lang),
                              render(args[int(noun[1])], "", lang) if noun
                              else spec[len(PLURAL):], lang))
        elif spec.startswith(MEASURE):
            noun = _NOUN_ARG.fullmatch(spec)
            out.append(measure(render(args[index], "", lang),
                               render(args[int(noun[1])], "", lang) if noun
                               else spec[len(MEASURE):], lang))
        else:
            out.append(render(args[index], spec, lang))
    return "".join(out)


# ---- errors in a table state or a play request (table.yaml) -----------------------------------
_TABLE = Path(__file__).resolve().parent / "table.yaml"


@cache
def table_messages() -> dict[str, Any]:
    """The texts of table.yaml: `key: {en, zh}`, and the named terms under `_kinds`, `_types`,
    `_zones`, `_or` (shared: do not modify)."""
    return read_yaml(_TABLE)


def edition_name(edition: str) -> dict[str, str]:
    """An edition's or an expansion's name in both languages, as the pages show it (ui.yaml
    `edition.<id>`: "Fluxx（规则书版）", "意外卡（Surprises）"); the id itself when unknown."""
    entry = catalog("ui").get(f"edition.{edition}")
    return {lang: str(entry[lang]) for lang in LANGS} if entry else dict.fromkeys(LANGS, edition)


def table_term(group: str, name: str) -> dict[str, str]:
    """A named term of table.yaml in both languages, e.g. ("_types", "goal")."""
    return table_messages()[group][name]


def table_text(key: str, **params: Any) -> tuple[str, str]:
    """The English and Chinese text of the message `key`. A parameter given as {en, zh} (a term)
    is filled in with its text in each language; any other as itself."""
    entry = table_messages()[key]
    out = []
    for lang in LANGS:
        values = {k: v[lang] if isinstance(v, dict) and set(v) == set(LANGS) else v
                  for k, v in params.items()}
        out.append(fill(entry[lang], lang, **values))
    return out[0], out[1]

