"""What the HTML pages ask of the rest of the referee, in one place.

The pages never decide a rule: they read a state with the state reader, ask the engine for the
ruling and the play module for outcomes, and look cards and sources up in the catalogs and the
knowledge store. This module holds those calls and the small view helpers the templates use
(a card by id, a source's label, moves grouped by player).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sqlite_utils
from flask import g

from ...cards.catalog import Card, any_card, catalog_for
from ...errors import InputError
from ...i18n import current_lang, messages, pick, t
from ...messages import catalog
from ...table.reader import UNKNOWN_CARD
from ...table.state import TableState


def store() -> sqlite_utils.Database:
    """This request's connection to the knowledge store (tests point STORE_PATH elsewhere)."""
    from ...knowledge.appdb import get_db

    return get_db()


def read_state(data: dict[str, Any]) -> TableState:
    """A validated table (card names resolved to ids); InputError naming each bad field."""
    from ...table.reader import parse_state

    return parse_state(data)


def rule(table: TableState) -> dict[str, Any]:
    """The ruling of docs/FORMATS.md for a validated table."""
    from ...referee.ruling import ruling_for

    return ruling_for(table)


def play_move(table: TableState, play: dict[str, Any]) -> dict[str, Any]:
    """The outcomes of a move given as the `play` object POST /api/play takes."""
    from ...referee.moves import play_response

    return play_response(table, play)


def game_over(ruling: dict[str, Any]) -> bool:
    """The ruling says the game is over: a winner, and no move left to anyone."""
    return bool(ruling.get("winner")) and not ruling.get("legal_moves")


# --- view helpers (Jinja globals) ----------------------------------------------------------

def card_info(card_id: str, edition: str = "fluxx",
              expansions: list[str] | tuple[str, ...] = ()) -> Card | None:
    """The catalog card a table refers to, or None for an id no catalog knows."""
    try:
        catalog = catalog_for(edition, expansions)
    except ValueError:
        return None
    return catalog.cards.get(card_id) or catalog.resolve(card_id)


def card_words(card_id: str, edition: str = "fluxx",
               expansions: list[str] | tuple[str, ...] = ()) -> str:
    """A card as the page names it ("Let's Simplify", 「中彩」), as plain text: a translated
    string it goes into escapes it once, as it does any other value (a macro's output would
    arrive escaped already and be escaped again)."""
    card = card_info(card_id, edition, expansions)
    return card.ref(current_lang()) if card else card_id


def remark_words(remark: str) -> str:
    """A catalog's provenance remark in the page's language (messages/remarks.yaml), else as
    the catalog writes it."""
    return pick(catalog("remarks").get(remark)) or remark


def suggestion_words(value: str, lang: str) -> str:
    """A suggestion of an error as the page says it: a card by both its names, the page's
    language first ("「中彩」（Jackpot）", "Jackpot (中彩)"); any other value as it is."""
    card = any_card(value) if isinstance(value, str) else None
    if card is None or card.name_en == card.name_zh:
        return str(value)
    other = "en" if lang == "zh" else "zh"
    return card.ref(lang) + t("list.paren", lang, x=card.name(other))


@cache
def _card_by_source(source_id: str) -> Card | None:
    ref = source_id.removeprefix("card:")
    edition, _, card_id = ref.rpartition("/")
    return card_info(card_id, edition or "fluxx")


def _rulebook_parts() -> dict[str, str]:
    """anchor -> part (rulebook, glossary, math) of every rulebook section, once per request."""
    if "rulebook_parts" not in g:
        from ...knowledge.queries import rulebook

        g.rulebook_parts = {s["anchor"]: s["part"] for s in rulebook(db=store())}
    return g.rulebook_parts


def source_label(src: dict[str, Any]) -> str:
    """A citation's words in the page's language: "Rulebook: How to Win", "FAQ 002-65: ...";
    " (by analogy)" after a passage of another deck (the source's `scope`, source_scope.py)."""
    label = _source_words(src)
    if src.get("scope") == "other_deck":
        label += t("source.by_analogy", current_lang())
    return label


def _source_words(src: dict[str, Any]) -> str:
    source_id = str(src.get("id", ""))
    kind, _, ref = source_id.partition(":")
    kind = src.get("kind") or kind
    lang = current_lang()
    if kind == "card":
        card = _card_by_source(source_id)
        if card:
            return card.name(lang)
    try:
        from ...knowledge.queries import source

        title = pick(source(source_id, db=store()).get("title"))
        part = _rulebook_parts().get(ref, "rulebook") if kind == "rulebook" else kind
    except (InputError, LookupError, OSError):
        title, part = "", kind
    prefix = f"source.{part}"  # the label of the part (messages/ui.yaml)
    if prefix in messages() and title:
        return t(prefix, lang, ref=ref) + t("list.colon", lang) + title
    return title or source_id


def moves_by_player(state: dict[str, Any], ruling: dict[str, Any]) -> list[dict[str, Any]]:
    """The ruling's legal moves grouped per player, in seat order (players without any last),
    each with why the moves held back are not open yet (`not_yet`: each reason once, with its
    sources): a player with nothing to do now reads why, not only that."""
    seats = [p.get("name") for p in state.get("players", [])]
    groups: dict[str, list[dict[str, Any]]] = {name: [] for name in seats}
    for move in ruling.get("legal_moves", []):
        groups.setdefault(move.get("player"), []).append(move)
    held: dict[str, dict[Any, dict[str, Any]]] = {}
    for entry in ruling.get("not_yet", []):
        reasons = held.setdefault(entry.get("player"), {})
        text = entry.get("reason") or {}
        reasons.setdefault((entry.get("reason_key"), str(text.get("en"))),
                           {"text": text, "sources": entry.get("sources") or []})
    return [{"player": name, "moves": moves, "not_yet": list(held.get(name, {}).values())}
            for name, moves in groups.items()]


# The topics (a finding's `about`) in the order a table asks about them, once the game is decided
# and while it goes on; the first findings of the first topics are the deciding ones, shown at
# the top of the ruling, and every finding is also folded under its topic.
_DECIDED_ORDER = ("winner", "goals", "pending", "discards", "draw", "play", "limits")
_OPEN_ORDER = ("pending", "discards", "draw", "play", "limits", "winner", "creepers",
               "surprises", "goals")
# findings that name the rule in force: the why behind a count, not the count itself
_CONTEXT_KEYS = frozenset({"draw_rule", "play_rule"})
DECIDING = 2


def findings_view(ruling: dict[str, Any]) -> dict[str, Any]:
    """A ruling's findings as the page shows them: the deciding ones (at most DECIDING, the first
    non-context finding of each topic in order) and every finding folded by topic, topics in
    that order and then as they come."""
    decided = bool(ruling.get("winner") or ruling.get("tied"))
    order = _DECIDED_ORDER if decided else _OPEN_ORDER
    topics: dict[str, list[dict[str, Any]]] = {}
    for finding in ruling.get("findings", []):
        topics.setdefault(finding.get("about") or "", []).append(finding)
    ranked = sorted(topics, key=lambda a: order.index(a) if a in order else len(order))
    deciding = []
    for about in ranked:
        if about not in order or len(deciding) == DECIDING:
            break
        found = [f for f in topics[about] if f.get("key") not in _CONTEXT_KEYS]
        if found:
            deciding.append(found[0])
    return {"deciding": deciding,
            "topics": [{"about": a, "findings": topics[a]} for a in ranked]}


def whatif_moves(state: dict[str, Any], ruling: dict[str, Any]) -> dict[str, dict[str, str]]:
    """player -> card -> the move kind its "What if" button posts: every known card of the
    active hand is tried as a `play`; a card the ruling lists as a legal Surprise answering the
    open chain (whoever holds it) as a `surprise`. An unknown card ("?") gets no button."""
    buttons: dict[str, dict[str, str]] = {}
    if game_over(ruling):  # nothing is played after a win
        return buttons
    for player in state.get("players", []):
        if player.get("name") == state.get("active"):
            buttons[player["name"]] = {c: "play" for c in player.get("hand") or []
                                       if isinstance(c, str) and c != UNKNOWN_CARD}
    for move in ruling.get("legal_moves", []):
        if move.get("kind") == "surprise" and move.get("card") not in (None, UNKNOWN_CARD):
            buttons.setdefault(move.get("player"), {})[move["card"]] = "surprise"
    return buttons


def active_hand(state: dict[str, Any]) -> list[str]:
    """The card ids in the active player's hand (empty when only its size is known)."""
    for player in state.get("players", []):
        if player.get("name") == state.get("active"):
            return list(player.get("hand") or [])
    return []
