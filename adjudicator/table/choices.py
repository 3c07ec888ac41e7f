"""The state's extension fields of plays (docs/PLAYS.md) read and checked: `extra_turns` (Take
Another Turn owed) and `sub_hands` (the set-aside hands being played out); engine/facts.py writes
them as facts for every state, so the ruling (rules_asp/ruling/extension_state.lp) and the move
program (rules_asp/moves/next_table.lp) read the same facts.

The reader (table/reader.py) checks both fields and writes their cards as ids before any
fact is written; here they only become facts.

Also the choice keys of a move (docs/PLAYS.md, "Choice keys"; their shapes are in
table/schema.py) and `normalize_choices`, which writes the cards of a `choices` object as
ids and checks its players: for a play's request (referee/moves.py, table/reader.py's
`read_play`) and for the choices a link of the `pending` chain keeps (the reader).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from ..cards.catalog import Catalog
from ..errors import ErrorItem, InputError, pointer, table_item
from .names import canonical
from .schema import (  # noqa: F401  (the choice keys, for this module's callers)
    CARD_KEYS,
    CARD_LIST_KEYS,
    CHOICE_KEYS,
    DIRECTIONS,
    DRIVER_KEYS,
    MAX_GUESS,
    PLAYER_CARDS_KEYS,
    PLAYER_KEYS,
    close,
)
from .state import TableState

Guess = Callable[[str], bool]
SUB_HANDS = "sub_hands"  # extension field of the state: the set-aside hands being played out
EXTRA_TURNS = "extra_turns"  # extension field: Take Another Turn owed to the active player
GOAL_NUMBERS = "goal_numbers"  # Math Fluxx: the numbers players read on Goals the sources lack
PHASE = "phase"  # Fluxxnomic: the phase under way (its number, counts, the cards waiting)


def seat_of(state: TableState, name: Any, path: str) -> int:
    name = canonical(name)  # names are kept and compared in NFC (table/names.py)
    for i, p in enumerate(state.players):
        if p.name == name:
            return i
    raise InputError(table_item(path, "no_such_player", [p.name for p in state.players],
                                name=name))


# A random pick (the choice keys `taken`, `random`) may fall on an unknown card of a hand: an
# outcome's choices say "unknown" then, and the same word sent back chooses that outcome.
UNKNOWN_PICK = "unknown"
PICK_KEYS = ("taken", "random")
# "?": a card that is there but unknown (the reader's marker in a hand or a listed pile); in the
# choice `drawn`, a card drawn that the table did not see (it went into the hand face down).
UNKNOWN_CARD = "?"
PAIR = frozenset({"player", "card"})  # an option of a {player: cards} choice, as offered


def choice_card(game: Catalog, key: str, value: Any, path: str,
                guess: Guess | None = None) -> str:
    """The card id a card choice names (card_id), or UNKNOWN_PICK for a random pick's."""
    if key in PICK_KEYS and value == UNKNOWN_PICK:
        return UNKNOWN_PICK
    return card_id(game, value, path, guess)


def card_id(game: Catalog, value: Any, path: str, guess: Guess | None = None) -> str:
    """The id of the card `value` names; `guess` (when given) says whether a "did you mean"
    look-up may be made for it (the reader's budget of look-ups)."""
    card = game.resolve(value) if isinstance(value, str) else None
    if card is None:
        may = isinstance(value, str) and (guess is None or guess(value))
        raise InputError(table_item(path, "unknown_card", game.suggest(value) if may else [],
                                    value=value))
    return card.id


def sub_hands(state: TableState, game: Catalog) -> list[dict[str, Any]]:
    """The sub-hand stack of the state's extension field (docs/PLAYS.md), as the reader wrote
    it: cards as ids, every count given."""
    return state.extra.get(SUB_HANDS) or []


def close_choice_keys(key: Any, n: int = 3) -> list[str]:
    """Choice keys spelled like `key` (a "did you mean" for an unknown key)."""
    if not isinstance(key, str) or len(key) > MAX_GUESS:
        return []
    return close(key, CHOICE_KEYS, n)


def unknown_choice_key(key: Any, path: str, asked: list[str] | None = None) -> ErrorItem:
    """The error for a key that is no choice key; `asked`: the keys the move asks for."""
    if asked:  # the keys this move takes, the closest spelling first
        near = [k for k in close_choice_keys(key, n=len(CHOICE_KEYS)) if k in asked]
        return table_item(path, "unknown_choice_key_asked", near + asked, field=key,
                          asked={"en": ", ".join(asked), "zh": "、".join(asked)})
    return table_item(path, "unknown_choice_key", close_choice_keys(key), field=key,
                      known=", ".join(CHOICE_KEYS))


def _player_name(names: list[str], value: Any, path: str) -> str:
    value = canonical(value)  # names are kept and compared in NFC (table/names.py)
    if value in names:
        return value
    raise InputError(table_item(path, "no_such_player", list(names), name=value))


def _cards_value(game: Catalog, value: Any, path: str, guess: Guess | None,
                 unseen_ok: bool = False) -> str | list[str]:
    """One card or a list of cards, as ids (the shape given is kept); with `unseen_ok` (the
    choice `drawn`) a card drawn unseen is kept as "?"."""
    def one(v: Any, at: str) -> str:
        return v if unseen_ok and v == UNKNOWN_CARD else card_id(game, v, at, guess)

    if isinstance(value, list):
        return [one(v, f"{path}/{i}") for i, v in enumerate(value)]
    return one(value, path)


def canonical_choices(value: dict[str, Any], names: Collection[str] = ()) -> dict[str, Any]:
    """Choices in the shape the schema's Choices describe as canonical: an outcome's `choices`
    sent back as they came (a one-card list for a one-card key, a list of {player, card} for a
    {player: cards} key) become a card, a player, {player: [cards]}; so does one option of an
    open choice sent back alone ("none", one {player, card} pair). `names`: the players at the
    table (a {player, card} object is a pair unless both words are players' names)."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        if (key in PLAYER_CARDS_KEYS and isinstance(item, dict) and set(item) == PAIR
                and not PAIR <= set(names)):
            item = [item]  # one option of the open choice, as it was offered
        if (key in CARD_KEYS + PLAYER_KEYS + ("direction", "n", "gambling")
                and isinstance(item, list)
                and len(item) == 1):
            item = item[0]
        elif key in CARD_LIST_KEYS and item in (["none"], "none"):  # an outcome's "chose none"
            item = []
        elif key in PLAYER_CARDS_KEYS and isinstance(item, list):
            grouped: dict[str, list[Any]] = {}
            for pair in item:  # (a pair without its player is refused as player "")
                if isinstance(pair, dict):
                    who = pair.get("player")
                    grouped.setdefault(who if isinstance(who, str) else "", []).append(
                        pair.get("card"))
            item = grouped
        elif key == "then" and isinstance(item, dict):
            item = {c: canonical_choices(sub, names) if isinstance(sub, dict) else sub
                    for c, sub in item.items()}
        out[key] = item
    return out


def normalize_choices(value: dict[str, Any], game: Catalog, names: list[str], path: str,
                      guess: Guess | None = None) -> dict[str, Any]:
    """A `choices` object that fits the schema's Choices (adjudicator/table/schema.py: the keys and
    the shape of their values), its cards written as ids and its players checked by name.
    Raises InputError naming the JSON pointer of the first card or player that is not there.
    `guess`: as card_id's. An outcome's shapes are taken as canonical_choices reads them."""
    out: dict[str, Any] = {}
    for key, item in canonical_choices(value, names).items():
        at = path + pointer(key)
        if key in CARD_KEYS:
            out[key] = choice_card(game, key, item, at, guess)
        elif key == "drawn":
            out[key] = _cards_value(game, item, at, guess, unseen_ok=True)
        elif key in CARD_LIST_KEYS or key == "order":
            out[key] = _cards_value(game, item, at, guess)
        elif key in PLAYER_KEYS:
            out[key] = _player_name(names, item, at)
        elif key in ("direction", "n", "gambling"):
            out[key] = item
        elif key == "then":
            out[key] = {card_id(game, c, at + pointer(c), guess): normalize_choices(
                sub, game, names, at + pointer(c), guess) for c, sub in item.items()}
        else:  # PLAYER_CARDS_KEYS: {player: card or [cards]}
            out[key] = {_player_name(names, n, at + pointer(n)):
                        _cards_value(game, c, at + pointer(n), guess) for n, c in item.items()}
    return out
