"""The state's extension fields of plays (docs/PLAYS.md) read and checked: `extra_turns` (Take
Another Turn owed) and `sub_hands` (the set-aside hands being played out); engine/facts.py writes
them as facts for every state, so the ruling (rules_asp/ruling/extension_state.lp) and the move
program (rules_asp/moves/next_table.lp) read the same facts.

Also the choice keys of a move (docs/PLAYS.md, "Choice keys") and `normalize_choices`, which
checks a `choices` object and writes its cards as ids: for a play's request (referee/moves.py)
and for the choices a link of the `pending` chain keeps (table/reader.py).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from ..cards.catalog import Catalog
from ..errors import ErrorItem, InputError, pointer
from .state import TableState

Guess = Callable[[str], bool]
SUB_HANDS = "sub_hands"  # extension field of the state: the set-aside hands being played out
EXTRA_TURNS = "extra_turns"  # extension field: Take Another Turn owed to the active player

# Choice keys (docs/PLAYS.md): the shape of each value.
CARD_KEYS = ("discard_goal", "mine", "theirs", "card", "keeper", "rule", "taken", "random")
CARD_LIST_KEYS = ("rules", "cards", "keepers")
PLAYER_KEYS = ("opponent",)
PLAYER_CARDS_KEYS = ("give", "tax", "scramble", "reveal")
DRIVER_KEYS = ("drawn", "order", "then")
DIRECTIONS = ("clockwise", "counterclockwise")
CHOICE_KEYS = (CARD_KEYS + CARD_LIST_KEYS + PLAYER_KEYS + PLAYER_CARDS_KEYS + ("direction",)
               + DRIVER_KEYS)


def seat_of(state: TableState, name: Any, path: str) -> int:
    for i, p in enumerate(state.players):
        if p.name == name:
            return i
    raise InputError(ErrorItem(path, f"No player named {name!r} at this table.",
                               f"桌上没有名为 {name!r} 的玩家。",
                               [p.name for p in state.players]))


def card_id(game: Catalog, value: Any, path: str, guess: Guess | None = None) -> str:
    """The id of the card `value` names; `guess` (when given) says whether a "did you mean"
    look-up may be made for it (the reader's budget of look-ups)."""
    card = game.resolve(value) if isinstance(value, str) else None
    if card is None:
        may = isinstance(value, str) and (guess is None or guess(value))
        raise InputError(ErrorItem(path, f"Unknown card {value!r}.", f"未知的卡片 {value!r}。",
                                   game.suggest(value) if may else []))
    return card.id


def _count(value: Any, path: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(ErrorItem(path, "Give a whole number, 0 or more.",
                                   "请给出大于等于 0 的整数。"))
    return value


def extra_turns(state: TableState) -> int:
    """The turns of Take Another Turn owed (the state's extension field), validated."""
    return _count(state.extra.get(EXTRA_TURNS), f"/{EXTRA_TURNS}", 0)


def sub_hands(state: TableState, game: Catalog) -> list[dict[str, Any]]:
    """The sub-hand stack of the state's extension field, validated (docs/PLAYS.md)."""
    raw = state.extra.get(SUB_HANDS) or []
    if not isinstance(raw, list):
        raise InputError(ErrorItem(f"/{SUB_HANDS}", "sub_hands must be a list.",
                                   "sub_hands 必须是列表。"))
    frames = []
    for i, f in enumerate(raw):
        path = f"/{SUB_HANDS}/{i}"
        if not isinstance(f, dict) or not isinstance(f.get("player"), str) or not isinstance(
                f.get("cards", []), list):
            raise InputError(ErrorItem(path, "A sub-hand needs player, card, cards, plays_left.",
                                       "子手牌需要 player、card、cards、plays_left 字段。"))
        cards = [card_id(game, c, f"{path}/cards/{j}") for j, c in enumerate(f.get("cards", []))]
        seat_of(state, f["player"], path + "/player")
        frames.append({"player": f["player"], "card": card_id(game, f.get("card"), path + "/card"),
                       "cards": cards, "unknown": _count(f.get("unknown"), path + "/unknown", 0),
                       "plays_left": _count(f.get("plays_left"), path + "/plays_left",
                                            len(cards))})
    return frames


def close_choice_keys(key: Any, n: int = 3) -> list[str]:
    """Choice keys spelled like `key` (a "did you mean" for an unknown key)."""
    if not isinstance(key, str) or len(key) > 80:
        return []
    return difflib.get_close_matches(key.casefold(), list(CHOICE_KEYS), n=n, cutoff=0.5)


def unknown_choice_key(key: Any, path: str, asked: list[str] | None = None) -> ErrorItem:
    """The error for a key that is no choice key; `asked`: the keys the move asks for."""
    if asked:  # the keys this move takes, the closest spelling first
        close = [k for k in close_choice_keys(key, n=len(CHOICE_KEYS)) if k in asked]
        wanted = list(dict.fromkeys(close + asked))
        return ErrorItem(path, f"Unknown choice {key!r}; this move asks for: {', '.join(asked)}.",
                         f"未知的选择 {key!r}；本次动作需要的选择：{'、'.join(asked)}。", wanted)
    wanted = close_choice_keys(key)
    every = ", ".join(CHOICE_KEYS)
    return ErrorItem(path, f"Unknown choice {key!r}; the choice keys are: {every}.",
                     f"未知的选择 {key!r}；可用的选择：{every}。", wanted)


def _player_name(names: list[str], value: Any, path: str) -> str:
    if isinstance(value, str) and value in names:
        return value
    raise InputError(ErrorItem(path, f"No player named {value!r} at this table.",
                               f"桌上没有名为 {value!r} 的玩家。", list(names)))


def _cards_value(game: Catalog, value: Any, path: str, guess: Guess | None) -> str | list[str]:
    """One card or a list of cards, as ids (the shape given is kept)."""
    if isinstance(value, list):
        return [card_id(game, v, f"{path}/{i}", guess) for i, v in enumerate(value)]
    return card_id(game, value, path, guess)


def normalize_choices(value: Any, game: Catalog, names: list[str], path: str,
                      depth: int = 0, guess: Guess | None = None) -> dict[str, Any]:
    """A `choices` object checked key by key (docs/PLAYS.md), its cards written as ids and its
    players by name. Raises InputError naming the JSON pointer of the first problem. `guess`:
    as card_id's."""
    if not isinstance(value, dict):
        raise InputError(ErrorItem(path, "choices must be an object: choice key -> value.",
                                   "choices 必须是对象：选择键 -> 值。"))
    out: dict[str, Any] = {}
    for key, item in value.items():
        at = path + pointer(key)
        if key not in CHOICE_KEYS:
            raise InputError(unknown_choice_key(key, at))
        if key in CARD_KEYS:
            out[key] = card_id(game, item, at, guess)
        elif key in CARD_LIST_KEYS or key in ("drawn", "order"):
            out[key] = _cards_value(game, item, at, guess)
        elif key in PLAYER_KEYS:
            out[key] = _player_name(names, item, at)
        elif key == "direction":
            if item not in DIRECTIONS:
                raise InputError(ErrorItem(
                    at, "direction is clockwise or counterclockwise.",
                    "方向为 clockwise（顺时针）或 counterclockwise（逆时针）。", list(DIRECTIONS)))
            out[key] = item
        elif key == "then":
            if not isinstance(item, dict) or depth > 4:
                raise InputError(ErrorItem(at, "then must be an object: card -> its choices.",
                                           "then 必须是对象：卡片 -> 该卡的选择。"))
            out[key] = {card_id(game, c, at + pointer(c), guess): normalize_choices(
                sub, game, names, at + pointer(c), depth + 1, guess) for c, sub in item.items()}
        else:  # PLAYER_CARDS_KEYS: {player: card or [cards]}
            if not isinstance(item, dict):
                raise InputError(ErrorItem(at, "Give an object: player name -> card(s).",
                                           "请给出对象：玩家名 -> 卡片。"))
            out[key] = {_player_name(names, n, at + pointer(n)):
                        _cards_value(game, c, at + pointer(n), guess) for n, c in item.items()}
    return out
