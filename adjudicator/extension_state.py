"""The state's extension fields of plays (docs/PLAYS.md) as facts: `extra_turns` (Take Another
Turn owed) and `sub_hands` (the set-aside hands being played out). facts.py adds them to every
state's facts, so the ruling (rules_asp/extension_state.lp) and the play program
(rules_asp/play_common.lp) read the same facts.
"""

from __future__ import annotations

from typing import Any

from .catalog import Catalog
from .errors import ErrorItem, InputError
from .state import TableState

SUB_HANDS = "sub_hands"  # extension field of the state: the set-aside hands being played out
EXTRA_TURNS = "extra_turns"  # extension field: Take Another Turn owed to the active player


def seat_of(state: TableState, name: Any, path: str) -> int:
    for i, p in enumerate(state.players):
        if p.name == name:
            return i
    raise InputError(ErrorItem(path, f"No player named {name!r} at this table.",
                               f"桌上没有名为 {name!r} 的玩家。",
                               [p.name for p in state.players]))


def card_id(game: Catalog, value: Any, path: str) -> str:
    card = game.resolve(value) if isinstance(value, str) else None
    if card is None:
        raise InputError(ErrorItem(path, f"Unknown card {value!r}.", f"未知的卡片 {value!r}。",
                                   game.suggest(value) if isinstance(value, str) else []))
    return card.id


def _count(value: Any, path: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(ErrorItem(path, "Give a whole number, 0 or more.",
                                   "请给出大于等于 0 的整数。"))
    return value


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


def extension_facts(state: TableState, game: Catalog) -> list[str]:
    """extra_turns(K); subframe(D,S,Origin,Left), subhand(D,C), subhand_unknown(D,K) (D = 1 is the
    oldest frame)."""
    from .facts import term  # facts.py imports this module

    out: list[str] = []
    turns = _count(state.extra.get(EXTRA_TURNS), f"/{EXTRA_TURNS}", 0)
    if turns > 0:
        out.append(f"extra_turns({turns}).")
    for depth, frame in enumerate(sub_hands(state, game), start=1):
        seat = seat_of(state, frame["player"], f"/{SUB_HANDS}/{depth - 1}/player")
        out.append(f"subframe({depth},{seat},{term(frame['card'])},{frame['plays_left']}).")
        out += [f"subhand({depth},{term(c)})." for c in frame["cards"]]
        if frame["unknown"]:
            out.append(f"subhand_unknown({depth},{frame['unknown']}).")
    return out
