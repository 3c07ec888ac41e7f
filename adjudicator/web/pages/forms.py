"""The editor form and the permalink: table state <-> HTML form fields <-> URL.

The editor posts plain form fields (one card per line in each zone), so it works without
JavaScript; `state_from_form` turns them into the contract's input dict, leaving validation to
the state reader (one place decides what a valid table is). A pasted JSON or YAML state takes
precedence over the fields. A permalink carries the state as "z" + base64url of its compact JSON
deflated (raw base64url of the JSON, the older form, is still read).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

from werkzeug.datastructures import MultiDict

from ...cards.catalog import EDITIONS, EXPANSIONS, catalog_for
from ...errors import ErrorItem, InputError, error, pointer, table_item
from ...table.reader import MAX_COUNT, load_state_text
from ...table.schema import lone_surrogates

# Characters of ?state=. The whole request line must fit in the server's limit (gunicorn's
# largest, 8190 bytes: REQUEST_LINE_LIMIT in web/server.py), with room for the path and the
# other parameters, so that a link too long is answered by the app (413, the contract's shape)
# and not by the server. Deflated, a 4-player table takes about 500 characters.
MAX_LINK_STATE = 7 * 1024
MAX_LINK_JSON = 256 * 1024  # bytes of JSON a link may inflate to: the bound of a request body
LINK_DEFLATED = "z"  # the first character of a deflated link (base64url of JSON starts "ey")
_SEAT = re.compile(r"^players-([0-9]{1,4})-name$")  # (more digits: no seat of a real table)
_PENDING_SPLIT = re.compile(r"\s*[:：]\s*")


def lines(text: str | None) -> list[str]:
    """One card per line (card names may hold commas: "Draw 3, Play 2 of Them")."""
    return [ln.strip() for ln in (text or "").splitlines() if ln.strip()]


def _number_or_text(value: str, path: str) -> int | str:
    """A field's whole number (the reader checks its bounds), or its text (the reader says what
    is wrong with it). A number longer than any bound is refused here, at `path`: Python
    converts at most a few thousand digits, and nothing needs it converted."""
    value = value.strip()
    if not re.fullmatch(r"\d+", value):
        return value
    digits = len(value.lstrip("0"))
    if digits > len(str(MAX_COUNT)):
        raise InputError(table_item(path, "number_too_long", limit=MAX_COUNT, digits=digits))
    return int(value)


def parse_pasted(text: str) -> dict[str, Any]:
    """A state pasted as JSON or YAML, read by `reader.load_state_text` (JSON first: its errors
    are clearer); that reader also refuses YAML aliases, whose expansion a few hundred pasted
    bytes can turn into millions of nodes, and absurdly deep nesting."""
    try:
        data = load_state_text(text)
    except InputError as err:
        raise InputError([ErrorItem("/state_text" + i.path, i.en, i.zh, i.suggestions)
                          for i in err.items], status=err.status) from None
    if not isinstance(data, dict):
        raise InputError(error("/state_text", "pasted_not_object"))
    return data


def state_from_form(form: MultiDict) -> dict[str, Any]:
    """The table state the editor's fields describe (not yet validated)."""
    pasted = (form.get("state_text") or "").strip()
    if pasted:
        return parse_pasted(pasted)
    state: dict[str, Any] = {
        "edition": form.get("edition") or "fluxx",
        "expansions": [e for e in form.getlist("expansions") if e],
    }
    seats = sorted(int(m.group(1)) for key in form if (m := _SEAT.match(key)))
    players: list[dict[str, Any]] = []
    active_seat = form.get("active", "")
    active_name: str | None = None
    for seat in seats:
        field = f"players-{seat}-"
        name = (form.get(field + "name") or "").strip()
        hand = lines(form.get(field + "hand"))
        hand_size = (form.get(field + "hand_size") or "").strip()
        keepers = lines(form.get(field + "keepers"))
        creepers = lines(form.get(field + "creepers"))
        if not (name or hand or hand_size or keepers or creepers):
            continue  # an empty seat left open in the editor
        player: dict[str, Any] = {"name": name}
        if hand or not hand_size:
            player["hand"] = hand
        else:
            player["hand_size"] = _number_or_text(hand_size,
                                                  pointer("players", len(players), "hand_size"))
        player["keepers"] = keepers
        player["creepers"] = creepers
        players.append(player)
        if active_seat == str(seat):
            active_name = name
    state["players"] = players
    if active_name is None and players:
        active_name = players[0]["name"]  # the editor checks the first seat by default
    state["active"] = active_name
    state["rules"] = lines(form.get("rules"))
    state["goals"] = lines(form.get("goals"))
    turn: dict[str, Any] = {}
    for key in ("hand_at_start", "drawn", "played"):
        value = (form.get(f"turn-{key}") or "").strip()
        if value:
            turn[key] = _number_or_text(value, pointer("turn", key))
    state["turn"] = turn
    draw_pile = (form.get("draw_pile") or "").strip()
    if draw_pile:
        pile = lines(draw_pile)
        state["draw_pile"] = _number_or_text(pile[0], "/draw_pile") if len(pile) == 1 and (
            pile[0].isdigit()) else pile
    state["discard_pile"] = lines(form.get("discard_pile"))
    pending = []
    for line in lines(form.get("pending")):  # "Bo: Stop That!", oldest first
        parts = _PENDING_SPLIT.split(line, maxsplit=1)
        who, card = (parts[0], parts[1]) if len(parts) == 2 else ("", line)
        pending.append({"player": who, "card": card})
    state["pending"] = pending
    return state


def _card_label(card_id: Any, lang: str, edition: str, expansions: list[str]) -> str:
    """A card as the editor's text shows it: its name in the UI language, else as given."""
    if not isinstance(card_id, str):
        return str(card_id)
    try:
        card = catalog_for(edition, expansions).resolve(card_id)
    except ValueError:
        card = None
    return card.name(lang) if card else card_id


def form_from_state(state: dict[str, Any], lang: str) -> dict[str, Any]:
    """The editor's field values for a state (a permalink's, or one loaded from pasted text)."""
    edition = state.get("edition") if state.get("edition") in EDITIONS else "fluxx"
    expansions = [e for e in state.get("expansions") or [] if e in EXPANSIONS]

    def names(cards: Any) -> str:
        if not isinstance(cards, list):
            return ""
        return "\n".join(_card_label(c, lang, edition, expansions) for c in cards)

    seats = []
    for player in state.get("players") or []:
        if not isinstance(player, dict):
            continue
        has_hand = isinstance(player.get("hand"), list)
        seats.append({
            "name": str(player.get("name") or ""),
            "hand": names(player.get("hand")) if has_hand else "",
            "hand_size": "" if has_hand else str(player.get("hand_size", "")),
            "keepers": names(player.get("keepers")),
            "creepers": names(player.get("creepers")),
            "active": player.get("name") == state.get("active"),
        })
    if seats and not any(s["active"] for s in seats):
        seats[0]["active"] = True  # the first seat plays first unless the state says otherwise
    turn = state.get("turn") if isinstance(state.get("turn"), dict) else {}
    draw_pile = state.get("draw_pile")
    pending = state.get("pending") if isinstance(state.get("pending"), list) else []
    return {
        "edition": edition,
        "expansions": expansions,
        "seats": seats,
        "rules": names(state.get("rules")),
        "goals": names(state.get("goals")),
        "turn": {k: "" if turn.get(k) is None else str(turn.get(k))
                 for k in ("hand_at_start", "drawn", "played")},
        "draw_pile": names(draw_pile) if isinstance(draw_pile, list) else (
            "" if draw_pile is None else str(draw_pile)),
        # a listed pile is edited one card per line (a textarea): a one-line field would lose it
        "draw_pile_is_list": isinstance(draw_pile, list),
        "discard_pile": names(state.get("discard_pile")),
        "pending": "\n".join(
            f"{p.get('player', '')}: {_card_label(p.get('card'), lang, edition, expansions)}"
            for p in pending if isinstance(p, dict)),
    }


def encode_state(state: dict[str, Any]) -> str:
    """The permalink form of a state: "z" + base64url (no padding) of its compact JSON deflated."""
    return encode_link(state)


def encode_link(data: Any) -> str:
    """"z" + base64url (no padding) of `data`'s compact JSON, deflated (a state, a game log)."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    packed = zlib.compress(raw, 9)[2:-4]  # raw deflate: no zlib header or checksum
    return LINK_DEFLATED + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_state(token: str) -> dict[str, Any]:
    """The state a permalink carries; a clear error for a damaged or foreign link."""
    return decode_link(token, "/state")


def decode_link(token: str, path: str) -> dict[str, Any]:
    """The object a link's parameter carries (`path`: /state, /game); a clear error, at `path`,
    for a damaged, foreign or oversized link."""
    bad = InputError(error(path, "link_unreadable"))
    too_long = InputError(error(path, "link_too_long", max=MAX_LINK_STATE), status=413)
    token = token.strip()
    if len(token) > MAX_LINK_STATE:
        raise too_long
    deflated = token.startswith(LINK_DEFLATED)
    if deflated:
        token = token[len(LINK_DEFLATED):]
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        if deflated:
            inflate = zlib.decompressobj(wbits=-15)
            raw = inflate.decompress(raw, MAX_LINK_JSON)  # never more: a deflate bomb stops here
            if inflate.unconsumed_tail:
                raise too_long
            if not inflate.eof:
                raise bad  # cut short
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError, zlib.error):
        raise bad from None  # RecursionError: absurdly deep nesting, never a real table
    if not isinstance(data, dict):
        raise bad
    broken = lone_surrogates(data, path)  # JSON's escapes of no character: never shown
    if broken:
        raise InputError(broken)
    return data
