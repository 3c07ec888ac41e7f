"""The game a ruling page carries in its link (`/ruling?game=...`): the tables of the game so far,
the move that led from each to the next, and which table the page shows.

A table's permalink (`?state=`) is a game of one table. "Play this" on an outcome of "What if"
is a link to the same game with that move and its outcome added after the table shown (any
moves after it, undone, are dropped); Undo and Redo are links to the same game at the table
before or after. Every step is a page of its own, so the browser's Back and Forward walk the
game. The log is bookkeeping: what each move changed is read off the two tables around it
(referee/changes.py), and only the table shown is ruled.

A link has a bound (forms.MAX_LINK_STATE): the oldest tables are left out of a link that would
pass it (`dropped` counts them), so Undo reaches back as far as the link can carry.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...cards.catalog import catalog_for
from ...errors import InputError, error
from ...i18n import field_words as table_field_words
from ...i18n import t
from ...referee.changes import changes
from .forms import MAX_LINK_STATE, decode_link, encode_link

PATH = "/game"


@dataclass(frozen=True)
class Game:
    states: list[dict[str, Any]]  # tables in the input format, the first one as entered
    moves: list[dict[str, Any]] = field(default_factory=list)  # moves[i]: states[i] -> [i+1]
    at: int = 0  # the table shown
    dropped: int = 0  # moves left out at the start to keep the link within its bound

    @property
    def current(self) -> dict[str, Any]:
        return self.states[self.at]

    def go(self, at: int) -> Game:
        return replace(self, at=max(0, min(at, len(self.states) - 1)))

    def then(self, play: dict[str, Any], choices: dict[str, Any], state: dict[str, Any]) -> Game:
        """This game with a move made from the table shown: the moves after it are dropped."""
        move = {"play": play, **({"choices": choices} if choices else {})}
        return Game(states=self.states[:self.at + 1] + [state],
                    moves=self.moves[:self.at] + [move], at=self.at + 1, dropped=self.dropped)

    def token(self) -> str:
        """The link form of the game, the oldest tables left out until it fits the bound."""
        game = self
        while True:
            token = encode_link({"states": game.states, "moves": game.moves, "at": game.at,
                                 **({"dropped": game.dropped} if game.dropped else {})})
            if len(token) <= MAX_LINK_STATE or game.at == 0:
                return token
            game = Game(states=game.states[1:], moves=game.moves[1:], at=game.at - 1,
                        dropped=game.dropped + 1)


def one_table(state: dict[str, Any]) -> Game:
    return Game(states=[state])


def decode_game(token: str) -> Game:
    """The game a link carries; errors at /game for a damaged link or a log of the wrong shape
    (each table is checked by the state reader when it is shown)."""
    data = decode_link(token, PATH)
    states, moves, at = data.get("states"), data.get("moves", []), data.get("at", 0)
    dropped = data.get("dropped", 0)
    if not (isinstance(states, list) and states and all(isinstance(s, dict) for s in states)):
        raise InputError(error(f"{PATH}/states", "link_unreadable"))
    if not (isinstance(moves, list) and len(moves) == len(states) - 1
            and all(isinstance(m, dict) and _is_play(m.get("play")) for m in moves)):
        raise InputError(error(f"{PATH}/moves", "link_unreadable"))
    if not (type(at) is int and 0 <= at < len(states)):
        raise InputError(error(f"{PATH}/at", "link_unreadable"))
    if not (type(dropped) is int and dropped >= 0):
        raise InputError(error(f"{PATH}/dropped", "link_unreadable"))
    return Game(states=states, moves=moves, at=at, dropped=dropped)


def field_words(path: str | None, state: dict[str, Any] | None = None,
                lang: str | None = None) -> str:
    """A field of an error in words, as i18n.field_words says it, and the game a link carries
    (`/game`, `/game/moves`...) as that: it is no field of the table, nor a page."""
    if path and (path == PATH or path.startswith(PATH + "/")):
        return t("field.game", lang)
    return table_field_words(path, state, lang)


def _is_play(play: Any) -> bool:
    """A move of a game link has a play of the request's shape: its names are text, its
    choices an object (each play is read again when it is shown or made)."""
    return (isinstance(play, dict)
            and all(isinstance(play.get(k), str | None) for k in ("kind", "player", "card"))
            and isinstance(play.get("choices"), dict | None))


def log_entries(game: Game, read: Any) -> list[dict[str, Any]]:
    """Each move of the game as the log shows it: who made it, its play, the choices that led to
    its outcome, and what it changed. `read` turns a table dict into a TableState (the state
    reader); a table of the log that does not read is shown without its changes."""
    entries = []
    for i, move in enumerate(game.moves):
        play = move["play"]
        entry: dict[str, Any] = {"n": game.dropped + i + 1, "index": i + 1, "play": play,
                                 "kind": play.get("kind") or "play",
                                 "choices": move.get("choices") or {}, "changes": [],
                                 "done": i < game.at}
        try:
            before, after = read(game.states[i]), read(game.states[i + 1])
            deck = catalog_for(before.edition, before.expansions)
            card = deck.resolve(play["card"]) if isinstance(play.get("card"), str) else None
            action = {"kind": play.get("kind") or "play",
                      "player": play.get("player") or before.active,
                      "card": card.id if card else None}
            entry["player"] = action["player"]
            entry["card"] = action["card"]
            entry["changes"] = changes(before, after, deck, action, [], None)
        except (InputError, ValueError, KeyError):
            entry["player"] = play.get("player")
            entry["card"] = play.get("card")
        entries.append(entry)
    return entries
