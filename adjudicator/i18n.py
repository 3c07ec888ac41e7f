"""The UI's two languages: which one a request wants, and the UI strings in it.

Strings live in adjudicator/messages/ui.yaml as `key: {en: ..., zh: ...}`; templates call
`t("key")`. The language comes from `?lang=` (remembered in a cookie by the ui blueprint), else
the `lang` cookie, else the browser's Accept-Language, else English. Texts that come with both
languages (cards, findings, rulebook sections) are picked with `pick`, which falls back to the
other language and says so, rather than showing nothing. A page of a game counted in phases
(Fluxxnomic) shows a key's twin `KEY@phase` where it has one (`use_game`): 结束本阶段 for 结束回合.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from flask import g, has_request_context, request

from .cards.catalog import PHASE_GAMES
from .messages import fill
from .resources import read_yaml

LANGS = ("en", "zh")
DEFAULT_LANG = "en"
COOKIE = "lang"
_MESSAGES = Path(__file__).resolve().parent / "messages" / "ui.yaml"


@cache
def messages() -> dict[str, dict[str, str]]:
    data = read_yaml(_MESSAGES)
    return {str(k): {"en": str(v["en"]), "zh": str(v["zh"])} for k, v in data.items()}


def valid_lang(value: str | None) -> str | None:
    return value if value in LANGS else None


def current_lang() -> str:
    """The language of this request (cached on `g`)."""
    if not has_request_context():
        return DEFAULT_LANG
    if "lang" not in g:
        g.lang = (
            valid_lang(request.args.get("lang"))
            or valid_lang(request.cookies.get(COOKIE))
            or valid_lang(request.accept_languages.best_match(LANGS))
            or DEFAULT_LANG
        )
    return g.lang


PHASE = "@phase"


def use_game(edition: str | None) -> None:
    """The table of this request is of `edition`: its strings count in its unit (a key's
    KEY@phase twin in a game of phases)."""
    if has_request_context():
        g.phase_game = edition in PHASE_GAMES


def t(key: str, lang: str | None = None, **params: Any) -> str:
    """The UI string `key` in the request's language; `{name}` placeholders filled from params
    (`{n:plural:card}`: "1 card", "2 cards"; adjudicator/messages, `fill`). On the page of a
    game of phases (use_game), the key's twin KEY@phase where it has one."""
    lang = lang or current_lang()
    strings = messages()
    if has_request_context() and g.get("phase_game") and key + PHASE in strings:
        key += PHASE
    text = strings[key][lang]
    return fill(text, lang, **params) if params else text


def pick(pair: dict[str, Any] | None, lang: str | None = None) -> str:
    """One language out of a {en, zh} pair, the other one when the wanted one is missing."""
    if not pair:
        return ""
    lang = lang or current_lang()
    other = "zh" if lang == "en" else "en"
    return pair.get(lang) or pair.get(other) or ""


# --- naming a field in words -------------------------------------------------------------

_ZONES = {
    "hand": "field.zone.hand",
    "keepers": "field.zone.keepers",
    "creepers": "field.zone.creepers",
    "hand_size": "field.zone.hand_size",
    "name": "field.zone.name",
}
_TOP = {
    "edition": "field.edition",
    "expansions": "field.expansions",
    "players": "field.players",
    "active": "field.active",
    "rules": "field.rules",
    "goals": "field.goals",
    "turn": "field.turn",
    "draw_pile": "field.draw_pile",
    "discard_pile": "field.discard_pile",
    "pending": "field.pending",
    "state": "field.state",
    "state_text": "field.state_text",
    "csrf_token": "field.csrf_token",
    "play": "field.play",
    "card": "field.card",
    "q": "field.query",
    "id": "field.id",
    "topic": "field.topic",
    "scope": "field.scope",
}
_PLAY = {
    "card": "field.play",
    "player": "field.play.player",
    "choices": "field.play.choices",
}
_TURN = {
    "hand_at_start": "field.turn.hand_at_start",
    "drawn": "field.turn.drawn",
    "played": "field.turn.played",
}


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def field_words(path: str | None, state: dict[str, Any] | None = None,
                lang: str | None = None) -> str:
    """A JSON pointer said in words: "/players/1/hand/0" -> "Player 2 (Bo), hand, card 1".

    `state` (the input as sent) lets the words name a player rather than number it.
    """
    lang = lang or current_lang()
    if not path or path == "/":
        return t("field.whole", lang)
    parts = [_unescape(p) for p in path.strip("/").split("/")]
    # a request path (the generic HTTP errors use one) is not a field
    if parts[0] not in _TOP and not (parts[0] == "play" or parts[0] == "state"):
        return t("field.page", lang, path=path)
    if parts[0] == "state" and len(parts) > 1:
        parts = parts[1:]  # /state/players/0 inside a play request: the table itself
    words: list[str] = []
    head, rest = parts[0], parts[1:]
    if head == "players" and rest and rest[0].isdigit():
        index = int(rest[0])
        name = _player_name(state, index)
        words.append(t("field.player_named" if name else "field.player", lang,
                       n=index + 1, name=name or ""))
        rest = rest[1:]
        if rest:
            words.append(t(_ZONES.get(rest[0], "field.zone.other"), lang, name=rest[0]))
            rest = rest[1:]
    elif head == "play" and rest:
        words.append(t(_PLAY.get(rest[0], "field.play"), lang))
        rest = rest[1:]
    elif head == "turn" and rest:
        words.append(t(_TURN.get(rest[0], "field.turn"), lang))
        rest = rest[1:]
    elif head == "pending" and rest and rest[0].isdigit():
        words.append(t("field.pending_item", lang, n=int(rest[0]) + 1))
        rest = rest[1:]
        if rest:
            words.append(t("field.pending." + ("player" if rest[0] == "player" else "card"), lang))
            rest = rest[1:]
    else:
        words.append(t(_TOP.get(head, "field.page"), lang, path=path))
    for part in rest:
        if part.isdigit():
            words.append(t("field.card_n", lang, n=int(part) + 1))
        elif re.fullmatch(r"[a-z_]+", part):
            words.append(part.replace("_", " "))
    return t("field.separator", lang).join(words)


# A JSON pointer into the table inside a message's text ("Love is already at /players/0/hand/0")
_POINTER = re.compile(r"(?<![\w/])/(?:players|draw_pile|discard_pile|rules|goals|pending|turn)"
                      r"(?:/[\w~.-]+)*")


def pointers_as_words(text: str, state: dict[str, Any] | None = None,
                      lang: str | None = None) -> str:
    """A message for a page: each JSON pointer in it said in words (field_words); the API's
    messages keep the pointers, which a program reads."""
    return _POINTER.sub(lambda m: field_words(m.group(0), state, lang), text)


def _player_name(state: dict[str, Any] | None, index: int) -> str | None:
    try:
        name = state["players"][index]["name"]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return None
    return name if isinstance(name, str) and name.strip() else None
