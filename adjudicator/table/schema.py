"""The one JSON Schema (draft 2020-12) of every request body: a table state, a play request.

`SCHEMAS` holds the named schemas; they refer to each other as `#/components/schemas/NAME`, the
way an OpenAPI document does, so `/api/openapi.json` publishes these very objects
(adjudicator/web/api/openapi.py puts them in its components) and the validator checks them against a
document of the same layout (`DOCUMENT`). Every bound of the input lives here: list lengths,
text lengths, counts, the number of players, nesting depth. The `then` of choices nests at
most MAX_THEN deep: a chain of one schema per level, the last without `then`. JSON Schema has no
keyword for how deep a value nests, and a chain of levels for any JSON value (the fields the
referee keeps without reading) would hold two references per level, which a generator that
inlines references (the fuzz tests', from /api/openapi.json) expands 2**32-fold; so `Value` is
recursive and `_depth` checks MAX_DEPTH beside it, here.

`problems(name, data)` validates `data` against the schema `name` and returns the contract's
error items (with the keyword that refused each): the JSON pointer of the offending value and a
message per keyword in English and Chinese (adjudicator/messages/table.yaml). The compiled
validator (jsonschema_rs) answers a body that fits, the common case, in microseconds; the
jsonschema library, a few milliseconds a table, explains a body that does not. Whether a table
makes sense (copies of a card, a card's type in its zone, names that resolve) is the reader's
business (adjudicator/table/reader.py), and so are the characters a player's name may hold
(adjudicator/table/names.py: Unicode categories, which JSON Schema's patterns cannot name
alike in every engine). Text that no UTF-8 can hold (a lone surrogate) is refused here, before
the validators (`lone_surrogates`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema_rs
import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from ..cards.catalog import EDITIONS, EXPANSIONS
from ..errors import ErrorItem, pointer, table_item
from ..messages import LANGS, table_messages, table_term

MAX_ITEMS = 500  # longest list (and most fields of an object) accepted anywhere in the input
MAX_DEPTH = 32  # deepest nesting accepted anywhere in the input
MAX_TEXT = 1_000_000  # characters of JSON/YAML text, and of any text value in it
MAX_PLAYERS = 12
MIN_PLAYERS = 2
MAX_NAME = 60  # characters of a player's name
MAX_CARD_NAME = 100  # characters of a card's reference (the longest name has 34)
# Counts (hand_size, turn, draw_pile, sub-hands, extra turns) above this are no real table; the
# engine's integers are 32 bits wide, so a larger number would silently wrap into a wrong ruling.
MAX_COUNT = 10_000
# Fluxxnomic's phase number: a newcomer joins with 2 + that many cards (rules_asp/ruling/
# phases.lp), so a hand the join makes stays a hand the reader takes (MAX_ITEMS cards)
MAX_PHASE = 400
MAX_GUESS = 80  # longer text is no card's or field's name: no "did you mean" look-up
MAX_THEN = 5  # `then` nested in `then`: a sub-hand's card whose play sets aside another sub-hand

# Choice keys of a move (docs/PLAYS.md, "Choice keys"): the shape of each value.
CARD_KEYS = ("discard_goal", "mine", "theirs", "card", "keeper", "taken", "random")
# (`rule` is a card, or one card for each Trash a new rule taking effect together: Fluxxnomic)
CARD_LIST_KEYS = ("rule", "rules", "cards", "keepers")
PLAYER_KEYS = ("opponent", "owner")
PLAYER_CARDS_KEYS = ("give", "tax", "scramble", "reveal", "random_discard")
DRIVER_KEYS = ("drawn", "order", "then")
DIRECTIONS = ("clockwise", "counterclockwise")
# Numbers a player chooses: Fluxxnomic's Gambling ("Choose a value for n"; the seed gives no
# bound: 1..MAX_GAMBLE is the reading, rules_asp/moves/phase_moves.lp's gamble_max).
NUMBER_KEYS = ("n",)
MAX_GAMBLE = 100
MAX_PLAYS = 16  # plays of one table asked together (POST /api/plays)
GAMBLING_RESULTS = ("kept", "discarded")  # Gambling's result the table saw (a chance key)
CHOICE_KEYS = (CARD_KEYS + CARD_LIST_KEYS + PLAYER_KEYS + PLAYER_CARDS_KEYS + ("direction",)
               + NUMBER_KEYS + ("gambling",) + DRIVER_KEYS)
MOVE_KINDS = ("play", "play_random", "draw", "discard", "end_turn", "surprise", "resolve",
              "free_action", "join")

# A schema may name the message of a keyword's error (adjudicator/messages/table.yaml) where
# the keyword's own message would say less, e.g. {"required": "player_name_missing"}.
MESSAGES = "x-messages"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, or null (the reader takes null as the field's default)."""
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return {**schema, "type": [*types, "null"]}


def _cards(description: str, max_items: int = MAX_ITEMS) -> dict[str, Any]:
    return _nullable({"type": "array", "items": ref("CardName"), "maxItems": max_items,
                      "description": description})


COUNT = ref("Count")
NULLABLE_COUNT = {"anyOf": [COUNT, {"type": "null"}]}
CARD_OR_CARDS = {"anyOf": [ref("CardName"), {"type": "array", "items": ref("CardName"),
                                             "maxItems": MAX_ITEMS}]}


def _one_or_a_list_of_one(item: dict[str, Any]) -> dict[str, Any]:
    """A value, or a list holding just it: an outcome's `choices` list every decision's values,
    and a client may send them back as they came (table/choices.py: canonical_choices)."""
    return {"anyOf": [item, {"type": "array", "items": item, "minItems": 1, "maxItems": 1}]}


# An outcome's `choices` give a {player: card} decision as a list of {"player", "card"}.
# (Each item is {"player": name, "card": card}: table/choices.py canonical_choices groups them,
# and the reader then checks each player and card as in the {player: cards} shape.)
PLAYER_CARD_ITEMS = {"type": "array", "maxItems": MAX_ITEMS, "items": {
    "type": "object", "maxProperties": 2, "additionalProperties": {"type": "string"}}}


def _choices(level: int) -> dict[str, Any]:
    """The choices object at `then` depth `level` (0: a play's own choices)."""
    props: dict[str, Any] = {}
    for key in CHOICE_KEYS:
        if key in CARD_KEYS:
            props[key] = _one_or_a_list_of_one(ref("CardName"))
        elif key == "drawn":
            props[key] = {**CARD_OR_CARDS, "description": (
                "the cards the table saw drawn from an unknown pile, in order; \"?\": a card "
                "drawn unseen into the hand (no Creeper)")}
        elif key in CARD_LIST_KEYS + ("order",):
            props[key] = CARD_OR_CARDS
        elif key in PLAYER_KEYS:
            props[key] = _one_or_a_list_of_one(ref("PlayerName"))
    for key in PLAYER_CARDS_KEYS:
        props[key] = {"anyOf": [{"type": "object", "maxProperties": MAX_PLAYERS,
                                 "propertyNames": {"maxLength": MAX_NAME},
                                 "additionalProperties": CARD_OR_CARDS},
                                PLAYER_CARD_ITEMS],
                      "description": "player name -> card or cards (or, as an outcome's "
                                     "choices give it, a list of {player, card})",
                      MESSAGES: {"anyOf": "player_cards_object"}}
    props["direction"] = {**_one_or_a_list_of_one({"enum": list(DIRECTIONS)}),
                          MESSAGES: {"anyOf": "direction"}}
    props["n"] = {**_one_or_a_list_of_one({"type": "integer", "minimum": 1,
                                           "maximum": MAX_GAMBLE}),
                  "description": "Gambling (Fluxxnomic): the value chosen for n",
                  MESSAGES: {"anyOf": "choice_n"}}
    props["gambling"] = {**_one_or_a_list_of_one({"enum": list(GAMBLING_RESULTS)}),
                         "description": "Gambling (Fluxxnomic): the result the table saw",
                         MESSAGES: {"anyOf": "choice_gambling"}}
    if level < MAX_THEN:
        props["then"] = {"type": "object", "maxProperties": MAX_ITEMS,
                         "propertyNames": {"maxLength": MAX_CARD_NAME},
                         "additionalProperties": ref(f"Choices/$defs/then{level + 1}"),
                         "description": "card -> the choices of its play (from a sub-hand)",
                         MESSAGES: {"type": "then_object"}}
    else:
        props["then"] = {"not": {}, MESSAGES: {"not": "then_too_deep"}}
    props = {key: props[key] for key in CHOICE_KEYS}  # the order messages list them in
    return {"type": "object", "properties": props, "additionalProperties": False,
            MESSAGES: {"type": "choices_object", "additionalProperties": "unknown_choice_key"}}


SCHEMAS: dict[str, Any] = {
    "CardName": {"type": "string", "maxLength": MAX_CARD_NAME,
                 "description": "a card's id, English or Chinese name",
                 "examples": ["Draw 2", "draw_2", "抓2张牌"]},
    "PlayerName": {"type": "string", "maxLength": MAX_NAME,
                   "description": "the name of a player at the table"},
    "Count": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT},
    "Player": {
        "type": "object", "required": ["name"],
        "properties": {
            "name": {"type": "string", "maxLength": MAX_NAME, "pattern": r"\S",
                     "description": "unique; no control, invisible or line-breaking "
                                    "character; kept and compared in Unicode NFKC with its "
                                    "spaces as one plain space "
                                    "(the reader checks these: adjudicator/table/names.py)",
                     MESSAGES: {"pattern": "player_name_blank", "maxLength": "player_name_long"}},
            "hand": _cards("the cards in hand; \"?\" for a card there but unknown"),
            "hand_size": NULLABLE_COUNT,
            "keepers": _cards("the Keepers in front of the player"),
            "creepers": _cards("the Creepers in front of the player"),
            "claimed_goals": _cards(
                "Keep Going (Math Fluxx, rulebook keep-going): the Goals this player has claimed, "
                "in front of them and not on the table; optional, default empty, written only "
                "when not empty"),
        },
        "additionalProperties": False,
        # a hand is a list of cards, or only its size when the cards are unknown
        "anyOf": [{"required": ["hand"], "properties": {"hand": {"not": {"type": "null"}}}},
                  {"required": ["hand_size"]}],
        MESSAGES: {"anyOf": "hand_or_size", "required": "player_name_missing"},
    },
    "Turn": _nullable({
        "type": "object", "additionalProperties": False,
        "properties": {"hand_at_start": NULLABLE_COUNT, "drawn": NULLABLE_COUNT,
                       "played": NULLABLE_COUNT,
                       "start_duties_done": _cards(
                           "Creepers: the Creepers whose start-of-turn duty (Death's discard) "
                           "is behind the active player this turn, met or not owed; optional, "
                           "default empty, written only when not empty")},
    }),
    "Choices": {**_choices(0),
                "description": "the choices of a move (docs/PLAYS.md, choice keys)",
                "$defs": {f"then{level}": _choices(level) for level in range(1, MAX_THEN + 1)}},
    "PendingPlay": {
        "type": "object", "required": ["player", "card"], "additionalProperties": False,
        "properties": {"player": ref("PlayerName"), "card": ref("CardName"),
                       "choices": {"anyOf": [ref("Choices"), {"type": "null"}],
                                   "description": "the choices given with this play or Surprise "
                                                  "(docs/PLAYS.md, choice keys): the first "
                                                  "link's are used when the chain is closed"}},
        MESSAGES: {"required": {"card": "pending_card_missing"}},
    },
    "SubHand": {
        "type": "object", "required": ["player", "card"], "additionalProperties": False,
        "description": "a set-aside hand being played out (docs/PLAYS.md, sub-hands)",
        "properties": {"player": ref("PlayerName"), "card": ref("CardName"),
                       "cards": _cards("its known cards"),
                       "unknown": NULLABLE_COUNT,
                       "plays_left": {**NULLABLE_COUNT,
                                      "description": "default: as many as its cards"}},
        MESSAGES: {"type": "sub_hand_missing"},
    },
    "PhaseCounts": {
        "type": "object", "required": ["player"], "additionalProperties": False,
        "description": "a player's draws, non-Keeper plays and Keeper plays this phase",
        "properties": {"player": ref("PlayerName"), "drawn": NULLABLE_COUNT,
                       "played": NULLABLE_COUNT,
                       "keepers": {**NULLABLE_COUNT, "description": (
                           "Keepers played this phase (they use no play; Play all counts "
                           "them as cards played); default 0")}}},
    "WaitingCard": {
        "type": "object", "required": ["player", "card"], "additionalProperties": False,
        "description": "a card played this phase whose effect waits for the next phase",
        "properties": {"player": ref("PlayerName"), "card": ref("CardName")}},
    "FormerPlayer": {
        "type": "object", "required": ["player", "last_phase"], "additionalProperties": False,
        "description": "an entity that was a player and is not one now (Fluxxnomic)",
        "properties": {"player": ref("PlayerName"),
                       "last_phase": {"type": "integer", "minimum": 1, "maximum": MAX_PHASE,
                                      "description": "the last phase in which they were a "
                                                     "player"}}},
    "Phase": _nullable({
        "type": "object", "additionalProperties": False,
        "description": "Fluxxnomic (seed 003): the phase under way (docs/PLAYS.md, phases)",
        "properties": {
            "number": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_PHASE,
                       "description": "the phase's number, 1 the first; default 1"},
            "players": _nullable({"type": "array", "items": ref("PhaseCounts"),
                                  "maxItems": MAX_PLAYERS,
                                  "description": "the other players' draws and plays this "
                                                 "phase (the active player's are `turn`'s); "
                                                 "default 0"}),
            "waiting": _nullable({"type": "array", "items": ref("WaitingCard"),
                                  "maxItems": MAX_ITEMS,
                                  "description": "Goals, New Rules and Actions on them played "
                                                 "this phase, oldest first: they take effect "
                                                 "together when the next phase begins"}),
            "former_players": _nullable({"type": "array", "items": ref("FormerPlayer"),
                                         "maxItems": MAX_ITEMS,
                                         "description": "who was a player before and is not "
                                                        "one now, with the last phase they "
                                                        "were one in: a returning player's "
                                                        "cards (`join`)"})}}),
    # any JSON value, kept as given; how deep it nests is checked beside the schema (`_depth`)
    "Value": {"description": "any JSON value, kept as given (an extension field); nested at "
                             f"most {MAX_DEPTH} deep in its body",
              "maxLength": MAX_TEXT, "maxItems": MAX_ITEMS, "maxProperties": MAX_ITEMS,
              "items": ref("Value"), "additionalProperties": ref("Value")},
    "TableState": {
        "type": "object",
        "description": "a table state (docs/FORMATS.md, \"Table state\"; extension fields in "
                       "docs/PLAYS.md); other top-level fields are kept as given",
        "required": ["players", "active"],
        "properties": {
            "edition": {"enum": [*EDITIONS, None], "default": "fluxx",
                        MESSAGES: {"enum": "edition_unknown"}},
            "expansions": _nullable({"type": "array", "items": {
                "enum": list(EXPANSIONS), MESSAGES: {"enum": "expansion_unknown"}},
                                     "maxItems": MAX_ITEMS}),
            "players": {"type": "array", "items": ref("Player"),
                        "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                        MESSAGES: {"minItems": "players_count", "maxItems": "players_count"}},
            "active": {**ref("PlayerName"),
                       "description": "the name of the player whose turn it is"},
            "rules": _cards("the New Rules and Meta Rules on the table"),
            "goals": _cards("the Goals on the table"),
            "turn": ref("Turn"),
            "draw_pile": {"type": ["integer", "array", "null"], "minimum": 0,
                          "maximum": MAX_COUNT, "items": ref("CardName"),
                          "maxItems": MAX_ITEMS,
                          "description": "a count, or the cards, top first"},
            "discard_pile": _cards("the discard pile, top first"),
            "pending": _nullable({"type": "array", "items": ref("PendingPlay"),
                                  "maxItems": MAX_ITEMS}),
            "sub_hands": _nullable({"type": "array", "items": ref("SubHand"),
                                    "maxItems": MAX_ITEMS,
                                    "description": "the sub-hands being played out, newest "
                                                   "last (docs/PLAYS.md)"}),
            "extra_turns": {**NULLABLE_COUNT,
                            "description": "Take Another Turn owed (docs/PLAYS.md)"},
            "phase": ref("Phase"),
            "goal_numbers": _nullable({
                "type": "object", "maxProperties": MAX_ITEMS,
                "propertyNames": {"maxLength": MAX_CARD_NAME},
                "additionalProperties": {
                    "anyOf": [COUNT, {"type": "object", "maxProperties": MAX_PLAYERS,
                                      "propertyNames": {"maxLength": MAX_NAME},
                                      "additionalProperties": COUNT}]},
                "description": "Math Fluxx: the number the players read on a Goal whose number "
                               "the sources do not print (Yin Yang, Today's Date), by the "
                               "Goal's name; for a Goal whose number is each player's own "
                               "(Your Own Age), an object from each player's name to their "
                               "number"}),
        },
        "additionalProperties": ref("Value"),
        "maxProperties": MAX_ITEMS,
        MESSAGES: {"type": "state_not_object",
                   "required": {"players": "players_missing", "active": "active_missing"}},
    },
    "Play": {
        "type": "object", "additionalProperties": False,
        "properties": {
            "card": {**ref("CardName"),
                     "description": "the card to play (kind play, surprise, free_action); a play "
                                    "without one, from a hand the table does not show, is "
                                    "answered with the cards it may be"},
            "player": {"anyOf": [ref("PlayerName"), {"type": "null"}],
                       "description": "default: the active player"},
            "kind": {"enum": list(MOVE_KINDS), "default": "play"},
            "choices": {"anyOf": [ref("Choices"), {"type": "null"}]},
            "seed": {"type": ["integer", "null"], "minimum": -(2**63), "maximum": 2**63 - 1,
                     "description": "fixes the random choices"},
        },
        # a Surprise and a free action name their card; a play may leave it to the answer
        "if": {"properties": {"kind": {"enum": ["surprise", "free_action"]}},
               "required": ["kind"]},
        "then": {"required": ["card"], MESSAGES: {"required": "play_card_missing"}},
    },
    "PlayRequest": {
        "type": "object", "required": ["state", "play"],
        "properties": {"state": ref("TableState"), "play": ref("Play")},
        "additionalProperties": ref("Value"), "maxProperties": MAX_ITEMS,
        MESSAGES: {"type": "play_request_object",
                   "required": {"state": "play_request_object", "play": "play_missing"}},
    },
    "PlaysRequest": {
        "type": "object", "required": ["state", "plays"],
        "properties": {"state": ref("TableState"),
                       "plays": {"type": "array", "minItems": 1, "maxItems": MAX_PLAYS,
                                 "items": ref("Play"),
                                 "description": "plays of the same table, each answered as "
                                                "POST /api/play answers it"}},
        "additionalProperties": ref("Value"), "maxProperties": MAX_ITEMS,
        MESSAGES: {"type": "plays_request_object",
                   "required": {"state": "plays_request_object", "plays": "plays_missing"}},
    },
}

# Fields of the table state the reader reads; any other top-level field is kept as given.
STATE_FIELDS = tuple(SCHEMAS["TableState"]["properties"])
PLAYER_FIELDS = tuple(SCHEMAS["Player"]["properties"])
SUB_HAND_FIELDS = tuple(SCHEMAS["SubHand"]["properties"])

DOCUMENT: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                            "components": {"schemas": SCHEMAS}}

# The bounds, as messages may name them.
LIMITS = {"max_depth": MAX_DEPTH, "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS,
          "max_then": MAX_THEN}
SIZES = ("minimum", "maximum", "minItems", "maxItems", "maxLength", "maxProperties")
# An error at a value's own place that leaves nothing of it to read (the others are about a
# field of an object, a missing one or an unknown one, or about the count of a list's items).
BLOCKING = ("type", "enum", "pattern", "not", "minimum", "maximum", "maxLength", "maxItems",
            "maxProperties")
Guess = Callable[[str], bool]


@dataclass(frozen=True)
class Problem:
    """One place where a body does not fit its schema: the error item, the keyword that refused
    it, and whether the value at the item's path is left unread (`blocking`: BLOCKING, except a
    list of too many players, which is still read)."""
    item: ErrorItem
    keyword: str
    blocking: bool = False


@cache
def _validators(name: str) -> tuple[Any, Draft202012Validator]:
    """The compiled validator (it answers the common case, a body that fits, in a fraction of
    the time) and the library's own, which explains each error with the subschema that refused
    it."""
    root = {**DOCUMENT, **ref(name)}
    return jsonschema_rs.Draft202012Validator(root), Draft202012Validator(root)


def problems(name: str, data: Any, guess: Guess | None = None) -> list[Problem]:
    """Every place where `data` does not fit the schema `name`, in document order. `guess` says
    whether a "did you mean" look-up may be made for a word (the reader's budget of look-ups);
    without it, every look-up is made."""
    deep = _depth(name, data)
    if deep:  # before the validators, which descend recursively (the library in Python)
        return deep
    broken = lone_surrogates(data)
    if broken:  # before anything that writes the text out: no message may echo it
        return [Problem(item, "surrogate", True) for item in broken]
    fast, slow = _validators(name)
    if fast.is_valid(data):
        return []
    found: list[Problem] = []
    for error in _leaves(slow.iter_errors(data)):
        found += _problems(error, guess or (lambda _word: True))
    return sorted(found, key=lambda p: _order(data, p.item.path))


# Where a body holds values of any shape (Value), by the schema's name: (the path of the object
# that holds them, its properties with their own schemas).
_FREE = {"TableState": [((), STATE_FIELDS)],
         "PlayRequest": [((), ("state", "play")), (("state",), STATE_FIELDS)],
         "PlaysRequest": [((), ("state", "plays")), (("state",), STATE_FIELDS)]}


def _depth(name: str, data: Any) -> list[Problem]:
    """The values of any shape nested deeper than MAX_DEPTH in the body (the body itself is
    level 0), each reported at its first place below the deepest level allowed."""
    found: list[Problem] = []
    for at, known in _FREE.get(name, []):
        node = data
        for part in at:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            continue
        stack = [((*at, k), v, len(at) + 1) for k, v in node.items() if k not in known]
        while stack:
            parts, value, depth = stack.pop()
            if depth > MAX_DEPTH:
                found.append(Problem(table_item(pointer(*parts), "too_deep", **LIMITS),
                                     "depth", True))
                continue
            if isinstance(value, dict) and len(value) <= MAX_ITEMS:
                stack += [((*parts, k), v, depth + 1) for k, v in value.items()
                          if depth + 1 > MAX_DEPTH or isinstance(v, list | dict)]
            elif isinstance(value, list) and len(value) <= MAX_ITEMS:
                stack += [((*parts, i), v, depth + 1) for i, v in enumerate(value)
                          if depth + 1 > MAX_DEPTH or isinstance(v, list | dict)]
    return sorted(found, key=lambda p: _order(data, p.item.path))


def lone_surrogates(data: Any, base: str = "") -> list[ErrorItem]:
    """Every text of `data` (a value or an object's key) holding a lone surrogate, a code
    point of U+D800..U+DFFF that JSON's unpaired `\\ud800` escapes (and YAML's) decode to and
    that no UTF-8 text can hold: nothing could write it out again, a message quoting it least of
    all. At `base` + its JSON pointer (a key: its object's). orjson writes any body without one
    in microseconds, and refuses one that has (or an integer beyond 64 bits): only then is the
    body walked."""
    try:
        orjson.dumps(data)
        return []
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    found: dict[str, ErrorItem] = {}
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:
        parts, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                at = base + pointer(*parts)
                found.setdefault(at, table_item(at, "text_surrogate"))
        elif isinstance(value, dict):
            if any(isinstance(k, str) and _SURROGATE.search(k) for k in value):
                at = base + pointer(*parts)
                found.setdefault(at, table_item(at, "text_surrogate"))
                continue  # the object is refused whole
            stack += [((*parts, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [((*parts, i), v) for i, v in enumerate(value)]
    return sorted(found.values(), key=lambda item: _order(data, item.path[len(base):]))


_SURROGATE = re.compile("[\ud800-\udfff]")


def errors(name: str, data: Any, guess: Guess | None = None) -> list[ErrorItem]:
    """`problems`' error items."""
    return [p.item for p in problems(name, data, guess)]


def _leaves(found: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """The errors to report. An anyOf between a value's shapes (a count or null, a card or a
    list of cards) reports the error of the shape the value has, or, when it has none of them,
    one type error naming them all; an anyOf the schema names a message for is reported as
    itself."""
    for error in found:
        if error.validator != "anyOf" or _message(error) or not error.context:
            yield error
            continue
        # a type error inside a shape (a value of an object or a list) is that shape's: the
        # value has the shape, one of its parts is wrong
        fitting = [e for e in error.context if e.validator != "type" or e.relative_path]
        if fitting:
            yield from _leaves(fitting)
            continue
        named = [e for e in error.context if _message(e)]
        if named:
            yield named[0]
            continue
        want: list[str] = []
        for e in error.context:
            types = e.validator_value if isinstance(e.validator_value, list) else [
                e.validator_value]
            want += [t for t in types if t not in want]
        yield ValidationError("", validator="type", validator_value=want,
                              instance=error.instance, schema={"type": want},
                              path=error.absolute_path)


def _order(data: Any, path: str) -> tuple[int, ...]:
    """A path's place in the document: the position of each key among its object's keys."""
    out: list[int] = []
    node = data
    for part in path.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            out.append(int(part))
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            out.append(list(node).index(part))
            node = node[part]
        else:
            out.append(1 << 30)  # a missing field: after its object's given fields
            break
    return tuple(out)


def _message(error: ValidationError, field: str | None = None) -> str | None:
    """The message the subschema names for the keyword (for `required`, per field)."""
    named = (error.schema.get(MESSAGES) or {}).get(error.validator)
    if isinstance(named, dict):
        return named.get(field)
    return named


def close(word: str, options: Iterable[str], n: int = 3) -> list[str]:
    """Options spelled like `word`, the closest first (a "did you mean")."""
    by_key = {o.casefold(): o for o in options}
    hits = difflib.get_close_matches(word.casefold(), list(by_key), n=n, cutoff=0.5)
    return [by_key[h] for h in hits]


def _kind(value: Any) -> str:
    """The JSON type of a value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def kind_words(kinds: list[str]) -> dict[str, str]:
    """JSON types in both languages: ["integer", "array"] -> a whole number or a list."""
    words = [table_term("_kinds", k) for k in kinds]
    sep = table_messages()["_or"]
    return {lang: sep[lang].join(w[lang] for w in words) for lang in LANGS}


def _problems(error: ValidationError, guess: Guess) -> list[Problem]:
    keyword, value, schema = error.validator, error.instance, error.schema
    at = list(error.absolute_path)
    path = pointer(*at)

    blocking = keyword in BLOCKING and not (
        keyword == "maxItems" and error.validator_value < MAX_ITEMS)

    def one(where: str, key: str, suggestions: list[str] | None = None,
            **params: Any) -> Problem:
        return Problem(table_item(where, key, suggestions, **LIMITS, **params), keyword,
                       blocking)

    if keyword == "required":
        missing = [k for k in error.validator_value if k not in value]
        return [one(pointer(*at, k), _message(error, k) or "schema.required", field=k)
                for k in missing]
    if keyword == "additionalProperties":
        known = list(schema.get("properties", {}))
        return [one(pointer(*at, k), _message(error) or "schema.additionalProperties",
                    close(k, known) if len(k) <= MAX_GUESS and guess(k) else [],
                    field=k, known=", ".join(known))
                for k in value if k not in known]
    named = _message(error)
    if keyword == "type":
        want = error.validator_value if isinstance(error.validator_value, list) else [
            error.validator_value]
        return [one(path, named or "schema.type",
                    want=kind_words([w for w in want if w != "null"] or want),
                    got=kind_words([_kind(value)]))]
    if keyword == "enum":
        options = [str(o) for o in error.validator_value if o is not None]
        near = close(value, options) if isinstance(value, str) and len(value) <= MAX_GUESS else []
        return [one(path, named or "schema.enum", near or (options if len(options) <= 4 else []),
                    value=repr(value), options=", ".join(options))]
    if keyword in SIZES:
        got = len(value) if isinstance(value, list | dict | str) else value
        return [one(path, named or f"schema.{keyword}", limit=error.validator_value, got=got)]
    if keyword == "pattern":
        return [one(path, named or "schema.pattern", pattern=error.validator_value)]
    if keyword == "anyOf":
        hint = [r for branch in error.validator_value for r in branch.get("required", [])]
        options = [str(o) for branch in error.validator_value for o in branch.get("enum", [])
                   if o is not None]
        if options:  # a value of a few, or a list of one (_one_or_a_list_of_one)
            near = close(value, options) if isinstance(value, str) and len(
                value) <= MAX_GUESS else []
            hint = near or (options if len(options) <= 4 else [])
        return [one(path, named or "schema.anyOf", hint)]
    return [one(path, named or f"schema.{keyword}")]
