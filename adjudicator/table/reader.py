"""Reads a table state (docs/FORMATS.md, "Table state") into a validated `TableState`.

`load_state_text` parses JSON or YAML; `parse_state` checks the state against the one schema
(adjudicator/table/schema.py: the shape, every bound), resolves every card name to its catalog id
and refuses impossible tables; `read_play_request` and `read_play` do the same for a play request.
All problems are collected and raised as one `InputError`, each naming its field by JSON
pointer, in English and Chinese (adjudicator/messages/table.yaml), with suggestions, and all of
it happens before any fact is written. Nothing here decides a game rule: the checks of meaning
are about what can physically be on the table (types of zones, copies in the deck, who is
seated), as the contract describes the input.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import yaml

from ..cards.catalog import EXPANSION_BASE, EXPANSIONS, Card, Catalog, catalog_for, is_chinese
from ..errors import ErrorItem, InputError, pointer, table_item
from ..messages import edition_name, table_messages, table_term, table_text
from . import schema
from .choices import (
    EXTRA_TURNS,
    GOAL_NUMBERS,
    PHASE,
    SUB_HANDS,
    UNKNOWN_CARD,
    canonical_choices,
    card_id,
    normalize_choices,
    unknown_choice_key,
)
from .names import canonical, invisible
from .schema import (  # noqa: F401  (the bounds, for the reader's callers)
    MAX_COUNT,
    MAX_DEPTH,
    MAX_GUESS,
    MAX_ITEMS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TEXT,
    MIN_PLAYERS,
    Problem,
)
from .state import PendingPlay, Player, TableState, Turn

# YAML costs far more to read than JSON (about 10 ms of CPU per KB with libyaml's parser, 30 ms
# with PyYAML's own; JSON: microseconds), so a table written in YAML is held to a lower limit
# than JSON's MAX_TEXT. A real table in YAML has a few KB.
MAX_YAML_TEXT = 64 * 1024
# libyaml's parser where PyYAML has it, PyYAML's own otherwise: the same documents, the same marks
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# "Did you mean" look-ups are fuzzy matches over the whole catalog, and their cost grows with the
# text's length: a hostile body of thousands of long unknown names must not buy minutes of CPU.
MAX_GUESSES = 20  # look-ups per input; later unknown names get no suggestions

KNOWN_FIELDS = schema.STATE_FIELDS
# "?" (UNKNOWN_CARD) in a hand or a listed draw pile is a card that is there but unknown (after a
# draw from an unknown pile, say): it counts toward the hand size and the deck, and is never
# resolved.
UNKNOWN_ZONES = ("hand", "draw_pile")
# The card types each zone may hold (None: any playable); their names are in table.yaml.
ZONES: dict[str, tuple[str, ...] | None] = {
    "hand": None,
    "keepers": ("keeper",),
    "creepers": ("creeper",),
    "rules": ("new_rule", "meta_rule"),
    "goals": ("goal",),
    "claimed_goals": ("goal",),
    "start_duties_done": ("creeper",),
    "discard_pile": None,
    "draw_pile": None,
    "pending": None,
    "sub_hands": None,
    "phase": ("goal", "new_rule", "action"),
}


def load_state_text(text: str) -> Any:
    """Parses a table state written as JSON or YAML. Syntax errors -> InputError at path "";
    so are text no UTF-8 can hold (lone surrogates: schema.lone_surrogates) and integers
    longer than Python converts (sys.get_int_max_str_digits())."""
    if not isinstance(text, str):
        raise InputError(table_item("", "text_not_text"))
    if len(text) > MAX_TEXT:
        raise InputError(table_item("", "text_too_long", got=len(text), limit=MAX_TEXT),
                         status=413)
    if not text.strip():
        raise InputError(table_item("", "text_empty"))
    data = _parse_text(text)
    broken = schema.lone_surrogates(data)
    if broken:
        raise InputError(broken)
    return data


# Python's JSON parser's messages (json.decoder), said in words a player reads, in both languages
_JSON_PROBLEMS = (
    ("Expecting ',' delimiter", "json_comma"), ("Expecting ':' delimiter", "json_colon"),
    ("Expecting property name", "json_name"), ("Expecting value", "json_value"),
    ("Unterminated string", "json_string"), ("Extra data", "json_extra"),
    ("Invalid control character", "json_control"), ("Invalid \\escape", "json_escape"))


def _json_problem(msg: str) -> dict[str, str]:
    key = next((k for start, k in _JSON_PROBLEMS if msg.startswith(start)), "json_syntax")
    en, zh = table_text(key)
    return {"en": en, "zh": zh}


def _parse_text(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise _too_deep() from None
    except json.JSONDecodeError as err:
        json_error = err
    except ValueError:  # not a syntax error: an integer longer than Python converts
        raise _number_too_long() from None
    if text.lstrip()[:1] in "{[":
        # it was meant to be JSON: the JSON parser's position is the useful one
        raise InputError(table_item(
            "", "text_not_json", problem=_json_problem(getattr(json_error, "msg", "")),
            line=getattr(json_error, "lineno", 0), column=getattr(json_error, "colno", 0)))
    if len(text) > MAX_YAML_TEXT:
        raise InputError(table_item("", "text_yaml_too_long", got=len(text),
                                    limit=MAX_YAML_TEXT, json_limit=MAX_TEXT), status=413)
    try:
        for event in yaml.parse(text, Loader=_YAML_LOADER):
            if isinstance(event, yaml.AliasEvent):
                # aliases can expand exponentially ("billion laughs"): refuse them
                raise InputError(table_item("", "text_yaml_alias"))
        return _jsonable(yaml.load(text, Loader=_YAML_LOADER))
    except RecursionError:
        raise _too_deep() from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        en, zh = table_text("text_where", line=mark.line + 1, column=mark.column + 1) if mark \
            else ("", "")
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise InputError(table_item("", "text_not_yaml", problem=problem,
                                    where={"en": en, "zh": zh})) from None
    except ValueError as err:  # a constructor's: int() past its digits, a date that is none
        if "digits" in str(err):
            raise _number_too_long() from None
        raise InputError(table_item("", "text_not_yaml", problem=str(err),
                                    where={"en": "", "zh": ""})) from None


def _number_too_long() -> InputError:
    return InputError(table_item("", "text_number_too_long", digits=sys.get_int_max_str_digits(),
                                 limit=MAX_COUNT))


def _too_deep() -> InputError:
    return InputError(table_item("", "text_too_deep", max_depth=MAX_DEPTH))


def _beyond_digits(value: int) -> bool:
    """Whether `value` has more decimal digits than Python writes out (0: no limit)."""
    limit = sys.get_int_max_str_digits()
    return bool(limit) and value.bit_length() > 3 * limit and abs(value) >= _ten_to(limit)


@cache
def _ten_to(power: int) -> int:
    return 10 ** power


def _jsonable(value: Any) -> Any:
    """YAML values as JSON would have them: dates and other scalars become text, keys text."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, int) and _beyond_digits(value):
        # hexadecimal, binary and base 60 YAML integers are not bounded by Python's digit limit,
        # but no message could write them out: refused as a decimal one of that size is
        raise _number_too_long()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def read_state_text(text: str) -> TableState:
    """`parse_state(load_state_text(text))`."""
    return parse_state(load_state_text(text))


@dataclass
class _Place:
    path: str
    zone: str


@dataclass
class _Reader:
    """One reading: the errors found so far, in reading order. The schema's problems wait at
    their places (`shape`) and join the errors when the reading reaches them, so every error,
    of shape or of meaning, is reported where the field is read."""

    errors: list[ErrorItem] = field(default_factory=list)
    catalog: Catalog | None = None
    # every place a card was seen, in reading order: for the copies check
    seen: dict[str, list[_Place]] = field(default_factory=dict)
    guesses: int = 0  # "did you mean" look-ups made so far (MAX_GUESSES)
    shape: dict[str, list[Problem]] = field(default_factory=dict)  # by the path they report at
    blocked: set[str] = field(default_factory=set)  # places whose value is unreadable

    def may_guess(self, word: str) -> bool:
        self.guesses += 1
        return self.guesses <= MAX_GUESSES and len(word) <= MAX_GUESS

    def expect(self, found: list[Problem]) -> None:
        """The schema's problems, each filed under the place the reading reports it: an
        unknown field under its object (reported when the object is read)."""
        for problem in found:
            path = problem.item.path
            if problem.keyword == "additionalProperties":
                path = path.rsplit("/", 1)[0]
            self.shape.setdefault(path, []).append(problem)

    def place(self, path: str, suggestions: list[str] | None = None) -> bool:
        """Reports the schema's problems at `path` (with `suggestions` where they have none);
        whether the value there can be read."""
        if not self.shape:  # the common case: the state fits the schema
            return path not in self.blocked
        for problem in self.shape.pop(path, []):
            item = problem.item
            if suggestions and not item.suggestions:
                item = ErrorItem(item.path, item.en, item.zh, list(dict.fromkeys(suggestions)))
            self.errors.append(item)
            if problem.blocking and problem.item.path == path:
                self.blocked.add(path)
        return path not in self.blocked

    def whole(self, path: str) -> bool:
        """Reports the schema's problems at `path` and below it; whether there were none."""
        inside = [p for p in self.shape if p == path or p.startswith(path + "/")]
        for p in inside:
            self.place(p)
        return not inside

    def rest(self) -> None:
        """The problems at places the reading did not reach (fields kept as given)."""
        for path in list(self.shape):
            self.place(path)

    def error(self, path: str, key: str, suggestions: list[str] | None = None,
              **params: Any) -> None:
        self.errors.append(table_item(path, key, suggestions, **params))

    def count(self, value: Any, path: str, default: int | None = None) -> int | None:
        """A count the schema has checked, or `default` when absent, null or refused."""
        if not self.place(path) or value is None:
            return default
        return int(value)  # 3.0 is the whole number 3 in JSON

    def listing(self, value: Any, path: str) -> list[Any]:
        """A list the schema has checked (absent, null or refused: empty)."""
        if not self.place(path) or value is None:
            return []
        return value

    # -- cards ---------------------------------------------------------------------------

    def card(self, value: Any, path: str, zone: str, copies: bool = True) -> str | None:
        """Resolves one card of a zone to its id; records an error and returns None if bad.
        `copies`: whether the card counts toward the copies check."""
        if not self.place(path) or value is None:
            return None
        if value.strip() == UNKNOWN_CARD and zone in UNKNOWN_ZONES:
            return UNKNOWN_CARD  # a card that is there but not known (drawn face down)
        if self.catalog is None:
            return None  # the edition is unknown: cards cannot be checked
        card = self.catalog.resolve(value)
        if card is None:
            self.unknown_card(value, path)
            return None
        if zone == "rules" and card.type == "basic_rules":
            return card.id  # always on the table anyway: accepted, and dropped by the caller
        if not self.fits(card, path, zone):
            return None
        if copies:
            self.seen.setdefault(card.id, []).append(_Place(path, zone))
        return card.id

    def unknown_card(self, value: str, path: str) -> None:
        assert self.catalog is not None
        game = self.catalog
        elsewhere = _card_in_expansion(game, value)
        if elsewhere is not None:
            self.error(path, "card_in_expansion", [elsewhere.name(_lang_of(value))],
                       name=elsewhere.refs(), expansion=elsewhere.edition,
                       expansion_name=edition_name(elsewhere.edition))
            return
        deck = game.edition + (f" + {', '.join(game.expansions)}" if game.expansions else "")
        names = [edition_name(e)["zh"] for e in (game.edition, *game.expansions)]
        self.error(path, "unknown_card_in_deck",
                   game.suggest(value) if self.may_guess(value) else [], value=value,
                   deck={"en": deck, "zh": _before_han("、".join(names))})

    def fits(self, card: Card, path: str, zone: str) -> bool:
        allowed = ZONES[zone]
        if card.type != "basic_rules" and not (zone == "hand" and card.type == "creeper") and (
                allowed is None or card.type in allowed):
            return True  # the common case, decided before any message is looked up
        where = table_term("_zones", zone)
        name = card.refs()
        if card.type == "basic_rules":
            self.error(path, "basic_rules_never_in_zone", zone=where)
            return False
        if zone == "hand" and card.type == "creeper":
            self.error(path, "creeper_never_in_hand", name=name)
            return False
        if allowed is not None and card.type not in allowed:
            types = table_messages()["_types"]
            kind = types.get(card.type, {"en": card.type, "zh": card.type})
            sep = table_messages()["_or"]
            want = {lang: sep[lang].join(types[t][lang] for t in allowed) for lang in sep}
            en, zh = table_text("wrong_zone", name=name, type=kind, want=want, zone=where)
            if zone == "creepers" and self.catalog is not None and (
                    "creepers" not in self.catalog.expansions):
                hint_en, hint_zh = table_text("creepers_need_expansion")
                en, zh = en + hint_en, zh + hint_zh
            self.errors.append(ErrorItem(path, en, zh))
            return False
        return True

    def cards(self, value: Any, path: str, zone: str, copies: bool = True) -> list[str]:
        out = []
        for i, item in enumerate(self.listing(value, path)):
            cid = self.card(item, pointer_join(path, i), zone, copies)
            if cid is not None:
                out.append(cid)
        return out

    def check_copies(self) -> None:
        if self.catalog is None or self.catalog.copies_unlimited:
            return
        for cid, places in self.seen.items():
            card = self.catalog.get(cid)
            if len(places) <= card.copies:
                continue
            first = places[0].path
            copies = table_text("one_copy") if card.copies == 1 else table_text(
                "n_copies", count=card.copies)
            for extra in places[card.copies :]:
                item = table_item(extra.path, "copies_exceeded",
                                  name=card.refs(), first=first,
                                  copies={"en": copies[0], "zh": copies[1]}, count=card.copies)
                self.errors.append(replace(item, related=(first,)))


def pointer_join(base: str, *parts: str | int) -> str:
    return base + pointer(*parts)


def _before_han(text: str) -> str:
    """`text` to be followed by Chinese: a space after a Latin word ("数学 Fluxx 的")."""
    return text + " " if text[-1:].isascii() and text[-1:].isalnum() else text


def _lang_of(value: str) -> str:
    """The language a card was typed in: a suggestion answers in it."""
    return "zh" if is_chinese(value) else "en"


def _card_in_expansion(game: Catalog, value: str) -> Card | None:
    """The card `value` names in an expansion the game does not use (fluxx only)."""
    if game.edition != EXPANSION_BASE:
        return None
    missing = [e for e in EXPANSIONS if e not in game.expansions]
    if not missing:
        return None
    card = catalog_for(EXPANSION_BASE, EXPANSIONS).resolve(value)
    if card is not None and card.edition in missing:
        return card
    return None


def parse_state(data: Any, *, check_copies: bool = True) -> TableState:
    """A validated TableState from decoded JSON/YAML; raises InputError listing every problem.

    `check_copies=False` skips refusing a card seen in more places than the deck has copies
    (for callers that must accept such tables, e.g. hand-written what-if examples).
    """
    r = _Reader()
    return _read(r, data, schema.problems("TableState", data, r.may_guess), check_copies)


def _read(r: _Reader, data: Any, found: list[Problem], check_copies: bool) -> TableState:
    """The reading of a state whose schema problems are `found`."""
    if not isinstance(data, dict):
        raise InputError([p.item for p in found])
    r.expect(found)
    r.place("")  # too many fields; an unknown field is kept as given
    edition, expansions = _edition(r, data)
    if edition is not None:
        r.catalog = catalog_for(edition, expansions)
    players = _players(r, data.get("players"))
    names = [p.name for p in players]
    active = _active(r, data.get("active"), names)
    rules = [c for c in r.cards(data.get("rules"), "/rules", "rules") if c != "basic_rules"]
    goals = r.cards(data.get("goals"), "/goals", "goals")
    _check_goal_count(r, goals, rules)
    turn = _turn(r, data.get("turn"), players, active)
    discard = r.cards(data.get("discard_pile"), "/discard_pile", "discard_pile")
    draw_size, draw_list = _draw_pile(r, data.get("draw_pile"))
    deckless = r.catalog is not None and r.catalog.copies_unlimited
    if deckless and data.get("draw_pile") is not None:  # seed 003: cards are made, not drawn
        r.error("/draw_pile", "no_draw_pile")
    pending = _pending(r, data.get("pending"), names, active)
    frames = _sub_hands(r, data.get(SUB_HANDS), names)
    extra_turns = r.count(data.get(EXTRA_TURNS), "/" + EXTRA_TURNS)
    goal_numbers = _goal_numbers(r, data.get(GOAL_NUMBERS), names)
    phase = _phase(r, data.get(PHASE), names, active, turn)
    if check_copies:
        r.check_copies()
    draw_size = _deck_size(r, players, rules, goals, discard, pending, draw_size,
                           data.get("draw_pile"))
    r.rest()
    if r.errors:
        raise InputError(r.errors)
    assert edition is not None and active is not None
    # fields other than the contract's are kept as given, the extension fields of plays as
    # read (cards as ids: the facts are written from them without another look-up)
    extra = {k: v for k, v in data.items()
             if k not in KNOWN_FIELDS or k in (SUB_HANDS, EXTRA_TURNS, GOAL_NUMBERS, PHASE)}
    if extra.get(PHASE) is not None:
        extra[PHASE] = phase
    if extra.get(SUB_HANDS) is not None:
        extra[SUB_HANDS] = frames
    if extra.get(EXTRA_TURNS) is not None:
        extra[EXTRA_TURNS] = extra_turns
    if extra.get(GOAL_NUMBERS) is not None:
        extra[GOAL_NUMBERS] = goal_numbers
    return TableState(
        edition=edition, expansions=list(expansions), players=players, active=active,
        rules=rules, goals=goals, turn=turn, draw_pile_size=draw_size, draw_pile=draw_list,
        discard_pile=discard, pending=pending, extra=extra, deckless=deckless,
    )


def _phase(r: _Reader, value: Any, names: list[str], active: str | None,
           turn: Turn) -> dict[str, Any]:
    """`phase` (Fluxxnomic): its number, the other players' counts, the cards waiting, as read
    (cards as ids). Which cards wait and what they do is the rules' (rules_asp/ruling/phases.lp)."""
    out: dict[str, Any] = {"number": 1, "players": [], "waiting": []}
    if not r.whole("/" + PHASE) or not isinstance(value, dict):  # the schema's problems first
        return out
    if r.catalog is not None and not r.catalog.copies_unlimited:
        r.error("/" + PHASE, "phase_not_here")
        return out
    if value.get("number") is not None:
        out["number"] = int(value["number"])
    seen: set[str] = set()
    for i, item in enumerate(value.get("players") or []):
        path = pointer(PHASE, "players", i)
        who = item.get("player")
        if who not in names:
            r.error(path + "/player", "not_a_player", schema.close(who, names) or names[:3],
                    name=who)
            continue
        if who in seen:
            r.error(path + "/player", "phase_player_twice", name=who)
            continue
        seen.add(who)
        drawn, played = int(item.get("drawn") or 0), int(item.get("played") or 0)
        keepers = int(item.get("keepers") or 0)
        if who == active:
            if (drawn, played) != (turn.drawn, turn.played):
                item_ = table_item(path + "/drawn", "phase_counts_differ",
                                   turn=f"{turn.drawn}/{turn.played}", given=f"{drawn}/{played}")
                r.errors.append(replace(item_, related=("/turn/drawn",)))
                continue
            if not keepers:  # the active player's counts are turn's: nothing more to keep
                continue
        entry = {"player": who, "drawn": drawn, "played": played}
        if keepers:  # written only when some (the contract's tables have none)
            entry["keepers"] = keepers
        out["players"].append(entry)
    for i, item in enumerate(value.get("waiting") or []):
        path = pointer(PHASE, "waiting", i)
        who = item.get("player")
        ok = who in names
        if not ok:
            r.error(path + "/player", "not_a_player", schema.close(who, names) or names[:3],
                    name=who)
        cid = r.card(item.get("card"), path + "/card", "phase")
        if ok and cid is not None:
            out["waiting"].append({"player": who, "card": cid})
    former: list[dict[str, Any]] = []
    for i, item in enumerate(value.get("former_players") or []):
        path = pointer(PHASE, "former_players", i)
        who, last = canonical(item.get("player")), int(item.get("last_phase") or 1)
        if isinstance(who, str) and len(who) > MAX_NAME:  # (counted as kept, as a player's)
            r.error(path + "/player", "schema.maxLength", got=len(who), limit=MAX_NAME)
        elif who in names:
            r.error(path + "/player", "former_player_seated", name=who)
        elif who in [f["player"] for f in former]:
            r.error(path + "/player", "former_player_twice", name=who)
        elif last > out["number"]:
            r.error(path + "/last_phase", "former_phase_ahead", last=last, number=out["number"])
        else:
            former.append({"player": who, "last_phase": last})
    if former:  # written only when there are some
        out["former_players"] = former
    return out


def _goal_numbers(r: _Reader, value: Any, names: list[str]) -> dict[str, int | dict[str, int]]:
    """`goal_numbers`: Goal name -> the number the players read on it, or -> player name -> that
    player's own number (a Goal such as Your Own Age), as card id -> number (or player -> number,
    names in their canonical form). Whether a Goal needs one, and of which shape, is the rules'
    to say (rules_asp/ruling/goals.lp)."""
    out: dict[str, int | dict[str, int]] = {}
    if not r.place("/" + GOAL_NUMBERS) or not isinstance(value, dict):
        return out
    for name, number in value.items():
        path = pointer(GOAL_NUMBERS, name)
        card = r.card(name, path, "goals", copies=False)
        if isinstance(number, dict):
            own = _player_numbers(r, number, names, path)
            if card is not None and r.place(path):
                out[card] = own
            continue
        n = r.count(number, path)
        if card is not None and n is not None:
            out[card] = n
    return out


def _player_numbers(r: _Reader, value: dict[str, Any], names: list[str],
                    path: str) -> dict[str, int]:
    """One Goal's numbers by player: each key must name a player at the table, once."""
    own: dict[str, int] = {}
    for who, number in value.items():
        at = path + pointer(who)
        player = canonical(who)
        n = r.count(number, at)
        if player not in names:
            r.error(at, "not_a_player", schema.close(player, names) or names[:3], name=player)
        elif player in own:
            r.error(at, "goal_number_player_twice", name=player)
        elif n is not None:
            own[player] = n
    return own


def _edition(r: _Reader, data: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    edition = data.get("edition") or "fluxx"
    if not r.place("/edition"):
        edition = None
    chosen: list[str] = []
    for i, name in enumerate(r.listing(data.get("expansions"), "/expansions")):
        if r.place(pointer("expansions", i)) and name not in chosen:
            chosen.append(name)
    if chosen and edition is not None and edition != EXPANSION_BASE:
        r.error("/expansions", "expansions_base_only", base=EXPANSION_BASE, edition=edition)
        edition = None
    return edition, tuple(chosen)


def _players(r: _Reader, value: Any) -> list[Player]:
    players: list[Player] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(r.listing(value, "/players")):
        path = pointer("players", i)
        if not r.place(path):
            continue
        name = raw.get("name")
        bad = invisible(name) if isinstance(name, str) else None
        if not r.place(path + "/name") or name is None:
            name = f"#{i}"
        elif bad is not None:
            r.error(path + "/name", "player_name_invisible", position=bad[0], char=bad[1])
            name = f"#{i}"
        else:
            name = canonical(name)  # the same name typed either way is one name (names.py)
            if len(name) > MAX_NAME:  # (the schema counted it as typed: "\ufdfa" is 18 letters)
                r.error(path + "/name", "schema.maxLength", got=len(name), limit=MAX_NAME)
                name = f"#{i}"
            elif name in seen:
                r.error(path + "/name", "duplicate_player", name=name, other=seen[name])
            else:
                seen[name] = i
        players.append(_player(r, raw, path, name))
    return players


def _player(r: _Reader, raw: dict[str, Any], path: str, name: str) -> Player:
    hand: list[str] | None = None
    given_size = r.count(raw.get("hand_size"), path + "/hand_size")
    if raw.get("hand") is not None:
        listed = raw["hand"] if r.place(path + "/hand") else []
        hand = r.cards(listed, path + "/hand", "hand")
        if given_size is not None and given_size != len(listed) and listed is raw["hand"]:
            r.error(path + "/hand_size", "hand_size_mismatch", size=given_size,
                    listed=len(listed))
        size = len(listed)
    else:
        r.place(path + "/hand")
        size = given_size or 0
    return Player(
        name=name, hand=hand, hand_size=size,
        keepers=r.cards(raw.get("keepers"), path + "/keepers", "keepers"),
        creepers=r.cards(raw.get("creepers"), path + "/creepers", "creepers"),
        claimed_goals=r.cards(raw.get("claimed_goals"), path + "/claimed_goals", "claimed_goals"),
    )


def _active(r: _Reader, value: Any, names: list[str]) -> str | None:
    if not r.place("/active", names[:3]) or value is None:
        return None
    value = canonical(value)
    if value not in names:
        folded = [n for n in names if n.casefold() == value.casefold()]
        r.error("/active", "not_a_player", folded or schema.close(value, names) or names[:3],
                name=value)
        return None
    return value


def _check_goal_count(r: _Reader, goals: list[str], rules: list[str]) -> None:
    # Double Agenda (the only card the catalogs hold that allows a second Goal) raises the
    # number of Goals that can lie on the table: a fact of the table, checked as such.
    allowed = 2 if "double_agenda" in rules else 1
    if len(goals) > allowed:
        r.error("/goals", "goals_without_double_agenda" if allowed == 1 else
                "goals_with_double_agenda", count=len(goals))


def _turn(r: _Reader, value: Any, players: list[Player], active: str | None) -> Turn:
    hand_now = next((p.hand_size for p in players if p.name == active), 0)
    if not r.place("/turn") or value is None:
        return Turn(hand_at_start=hand_now)
    start = r.count(value.get("hand_at_start"), "/turn/hand_at_start", hand_now)
    drawn = r.count(value.get("drawn"), "/turn/drawn", 0)
    played = r.count(value.get("played"), "/turn/played", 0)
    # a record of the turn, not a place: a card named here is counted where it lies
    done = r.cards(value.get("start_duties_done"), "/turn/start_duties_done",
                   "start_duties_done", copies=False)
    return Turn(hand_at_start=start or 0, drawn=drawn or 0, played=played or 0,
                start_duties_done=sorted(set(done)))


def _draw_pile(r: _Reader, value: Any) -> tuple[int | None, list[str] | None]:
    if isinstance(value, list):
        return len(value), r.cards(value, "/draw_pile", "draw_pile")
    return r.count(value, "/draw_pile"), None


def _pending(r: _Reader, value: Any, names: list[str], active: str | None) -> list[PendingPlay]:
    out: list[PendingPlay] = []
    for i, raw in enumerate(r.listing(value, "/pending")):
        path = pointer("pending", i)
        if not r.place(path):
            continue
        player = canonical(raw.get("player"))
        ok = r.place(path + "/player") and player is not None
        if ok and player not in names:
            r.error(path + "/player", "not_a_player", schema.close(player, names) or names[:3],
                    name=player)
            ok = False
        cid = r.card(raw.get("card"), path + "/card", "pending")
        choices = _pending_choices(r, raw.get("choices"), names, path + "/choices")
        if ok and cid is not None:
            if i == 0:
                _check_first_link(r, player, cid, active)
            out.append(PendingPlay(player=player, card=cid, choices=choices))
    return out


def _check_first_link(r: _Reader, player: str, cid: str, active: str | None) -> None:
    """The chain's first card (link 0) is the active player's play: no other first link can be on
    a table. Cards are played on one's own turn (rulebook "each turn"); the only cards played out of
    turn are Surprises (reference creepers-and-surprises.md: "A Surprise can be played at any time,
    even out of turn"), and out of turn a Surprise only answers a card just played: "They play a
    card. You cancel it with the appropriate Surprise" (FAQ 002-62), "Surprises can only be played
    for an out-of-turn effect when there is an effect to be had" (002-52), "The 'out of turn'
    functions almost always cancel some other card play" (002-70; the four Surprises of the
    expansion all cancel one). So a Surprise played out of turn is a later link, answering the
    card before it, never link 0; a Surprise as link 0 is the active player's in-turn play
    (002-62: "They play a Surprise for the in-turn function")."""
    if active is None or player == active or r.catalog is None or cid == UNKNOWN_CARD:
        return
    card = r.catalog.get(cid)
    key = "pending_first_surprise_out_of_turn" if card.type == "surprise" else (
        "pending_first_out_of_turn")
    r.error(pointer("pending", 0, "player"), key, [active], player=player, active=active,
            name=card.refs())


def _pending_choices(r: _Reader, value: Any, names: list[str], path: str) -> dict[str, Any]:
    """The choices given with a link of the chain (docs/PLAYS.md), cards as ids."""
    if not r.whole(path) or value is None or r.catalog is None:
        return {}
    try:
        return normalize_choices(value, r.catalog, names, path, guess=r.may_guess)
    except InputError as bad:
        r.errors.extend(bad.items)
        return {}


def _sub_hands(r: _Reader, value: Any, names: list[str]) -> list[dict[str, Any]]:
    """The sub-hands being played out (docs/PLAYS.md), newest last: their cards as ids, their
    counts with their defaults. A sub-hand's cards come from the draw pile during a play; they
    are not counted among the copies on the table."""
    frames = []
    for i, raw in enumerate(r.listing(value, "/" + SUB_HANDS)):
        path = pointer(SUB_HANDS, i)
        if not r.place(path):
            continue
        player = canonical(raw.get("player"))
        ok = r.place(path + "/player") and player is not None
        if ok and player not in names:
            r.error(path + "/player", "no_such_player", names, name=player)
            ok = False
        origin = r.card(raw.get("card"), path + "/card", SUB_HANDS, copies=False)
        cards = r.cards(raw.get("cards"), path + "/cards", SUB_HANDS, copies=False)
        unknown = r.count(raw.get("unknown"), path + "/unknown", 0)
        left = r.count(raw.get("plays_left"), path + "/plays_left", len(cards))
        if ok and origin is not None:
            frames.append({"player": player, "card": origin, "cards": cards, "unknown": unknown,
                           "plays_left": left})
    return frames


def _known_cards(players: list[Player], rules: list[str], goals: list[str],
                 discard: list[str], pending: list[PendingPlay]) -> int:
    """Cards whose place is known or counted, the Basic Rules card included."""
    held = sum(p.hand_size + len(p.keepers) + len(p.creepers) + len(p.claimed_goals)
               for p in players)
    return held + len(rules) + len(goals) + len(discard) + len(pending) + 1


def _deck_size(r: _Reader, players: list[Player], rules: list[str], goals: list[str],
               discard: list[str], pending: list[PendingPlay], draw: int | None,
               raw_draw: Any) -> int:
    """The draw pile's size, checking that the table holds no more cards than the deck.

    When the draw pile is not given, it is the deck less every card accounted for. Listed
    cards are checked one by one against their copies; this catches counts (hand_size, a draw
    pile given as a number) that add up to more cards than the deck has.
    """
    if r.catalog is None or r.catalog.copies_unlimited:
        return draw or 0
    total = sum(c.copies for c in r.catalog)
    on_table = _known_cards(players, rules, goals, discard, pending)
    if on_table + (draw or 0) <= total:
        return total - on_table if draw is None else draw
    if isinstance(raw_draw, int | float) and not isinstance(raw_draw, bool):
        path, hint = "/draw_pile", [str(max(0, total - on_table))]
    else:
        unknown = [i for i, p in enumerate(players) if p.hand is None and p.hand_size]
        path = pointer("players", unknown[0], "hand_size") if unknown else (
            "/draw_pile" if draw else "")
        hint = []
    drawn = table_text("deck_drawn", count=draw) if draw else ("", "")
    r.error(path, "deck_too_small", hint, held=on_table + (draw or 0), on_table=on_table,
            drawn={"en": drawn[0], "zh": drawn[1]}, total=total)
    return draw or 0


# -- a play request -------------------------------------------------------------------------------

def read_play_request(body: Any) -> tuple[TableState, dict[str, Any]]:
    """The state and the play of `{"state": ..., "play": {...}}` (POST /api/play), the body's
    shape checked as a whole: every error names its place under /state or /play. The play's
    meaning is `read_play`'s (play.play_response calls it)."""
    state = _read_request(body, "PlayRequest", "play_request_object")
    return state, body["play"]


def read_plays_request(body: Any) -> tuple[TableState, list[dict[str, Any]]]:
    """The state and the plays of `{"state": ..., "plays": [{...}, ...]}` (POST /api/plays),
    checked as read_play_request checks one play: every error under /state or /plays/<i>."""
    state = _read_request(body, "PlaysRequest", "plays_request_object")
    return state, body["plays"]


def _read_request(body: Any, schema_name: str, object_key: str) -> TableState:
    """The state of a play request whose shape fits the schema `schema_name`, or InputError
    with every problem of the body (`object_key`: the message for a body that is no object)."""
    r = _Reader()
    found = schema.problems(schema_name, body, r.may_guess)
    if not isinstance(body, dict) or "state" not in body:
        raise InputError(table_item("/state", object_key))
    inside = [p for p in found if p.item.path == "/state" or p.item.path.startswith("/state/")]
    outside = [p.item for p in found if p not in inside and not _choice_key(p)]
    errors: list[ErrorItem] = []
    state = None
    try:
        state = _read(r, body["state"], [_under(p, "/state", "") for p in inside], True)
    except InputError as err:
        if err.status != 400:
            raise
        errors = [ErrorItem("/state" + i.path, i.en, i.zh, i.suggestions) for i in err.items]
    if errors or outside:
        # an unknown choice key alone is left to read_play's caller; beside other errors, say so
        raise InputError(errors + [p.item for p in found if p not in inside])
    assert state is not None
    return state


def _under(problem: Problem, old: str, new: str) -> Problem:
    item = problem.item
    return Problem(ErrorItem(new + item.path[len(old):], item.en, item.zh, item.suggestions),
                   problem.keyword, problem.blocking)


_CHOICES_AT = re.compile(r"(?:/play|/plays/\d+)/choices/")


def _choice_key(problem: Problem) -> bool:
    """An unknown key of a play's own choices (/play/choices/<key>, /plays/<i>/choices/<key>):
    read_play refuses it after the other checks, so that the move's caller can add the keys that
    move asks for (UnknownChoiceKeys)."""
    path = problem.item.path
    at = _CHOICES_AT.match(path)
    return problem.keyword == "additionalProperties" and at is not None and (
        "/" not in path[at.end():])


class UnknownChoiceKeys(InputError):
    """A play whose only fault is choice keys that no move takes (`keys`). Its items suggest
    close spellings; the move code may add the keys the move asks for, which only the rules
    program knows (referee/moves.py)."""

    def __init__(self, keys: list[str]) -> None:
        super().__init__([unknown_choice_key(k, pointer("play", "choices", k)) for k in keys])
        self.keys = keys


def _open_choice_answered(play: dict[str, Any], kind: str) -> dict[str, Any]:
    """A play that names no card asks for it (open choice `card`), a join that names nobody asks
    who (open choice `player`): the answer is the play's own field, and sent back as a choice,
    as the open choice was offered, it is taken as that field."""
    choices = play.get("choices")
    if not isinstance(choices, dict):
        return play
    field = ("card" if kind == "play" and play.get("card") is None else
             "player" if kind == "join" and play.get("player") is None else None)
    value = choices.get(field) if field is not None else None
    if isinstance(value, list) and len(value) == 1:  # as an outcome's choices write it
        value = value[0]
    if value is None:
        return play
    rest = {k: v for k, v in choices.items() if k != field}
    answered = {**play, field: value}
    if rest:
        answered["choices"] = rest
    else:
        answered.pop("choices", None)
    return answered


def read_play(state: TableState, play: Any) -> dict[str, Any]:
    """The play of a request checked against the one schema and the table: its card resolves,
    its player sits at the table, its choices name cards and players that exist and take only
    known keys. Errors are at /play/...; the play is returned with its choices in their
    canonical shape (an outcome's `choices` may be sent back as they came). Raises
    UnknownChoiceKeys when unknown choice keys are its only fault."""
    found = [_under(p, "", "/play") for p in schema.problems("Play", play)]
    bad = [p.item for p in found if not _choice_key(p)]
    if bad:
        raise InputError(bad)
    game = catalog_for(state.edition, state.expansions)
    names = [p.name for p in state.players]
    errors: list[ErrorItem] = []
    kind = play.get("kind") or "play"
    play = _open_choice_answered(play, kind)
    if kind in ("surprise", "free_action") or play.get("card") is not None:
        try:
            card_id(game, play.get("card"), "/play/card")
        except InputError as err:
            errors += err.items
    player = canonical(play.get("player"))
    # a player joining (Fluxxnomic) is not at the table yet: the name is checked as a name at
    # the table is, and whether it may join is the rules' (rules_asp/moves/joining.lp)
    if kind == "join" and isinstance(player, str):
        bad = invisible(player)
        if bad is not None:
            errors.append(table_item("/play/player", "player_name_invisible", position=bad[0],
                                     char=bad[1]))
        elif not player:
            errors.append(table_item("/play/player", "player_name_missing"))
        elif len(player) > MAX_NAME:  # counted as the table will keep it
            errors.append(table_item("/play/player", "schema.maxLength", got=len(player),
                                     limit=MAX_NAME))
        play = {**play, "player": player}  # kept as the table will keep it
    elif player is not None and player not in names:
        errors.append(table_item("/play/player", "no_such_player", names, name=player))
    given = canonical_choices(play.get("choices") or {}, names)
    choices = {k: v for k, v in given.items() if k in schema.CHOICE_KEYS}
    try:
        normalize_choices(choices, game, names, "/play/choices")
    except InputError as err:
        errors += err.items
    unknown = [k for k in given if k not in schema.CHOICE_KEYS]
    if errors:
        raise InputError(errors + UnknownChoiceKeys(unknown).items)
    if unknown:
        raise UnknownChoiceKeys(unknown)
    return {**play, "choices": given} if play.get("choices") else play
