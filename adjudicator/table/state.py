"""The table state of docs/FORMATS.md as typed Python values.

`TableState` is what every other part of the referee works on: the engine turns it into logic
facts, `play` produces new ones, the web UI and CLI read and write it. Card fields always hold
catalog ids (the reader resolves names). `parse_state` (in `adjudicator.table.reader`) builds one
from user input and refuses impossible tables; `to_json` writes the contract's input format back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Player:
    name: str
    hand: list[str] | None  # card ids, or None when only the size is known
    hand_size: int
    keepers: list[str] = field(default_factory=list)
    creepers: list[str] = field(default_factory=list)
    # Keep Going (Math Fluxx, rulebook "keep-going"): the Goals this player has claimed, in front
    # of them (not on the table); written only when there are some
    claimed_goals: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.hand is None:
            out["hand_size"] = self.hand_size
        else:
            out["hand"] = list(self.hand)
        out["keepers"] = list(self.keepers)
        out["creepers"] = list(self.creepers)
        if self.claimed_goals:
            out["claimed_goals"] = list(self.claimed_goals)
        return out


@dataclass
class Turn:
    hand_at_start: int
    drawn: int = 0
    played: int = 0
    # the Creepers whose start-of-turn duty (Death's discard) is behind the active player this
    # turn: met, or not owed (rules_asp/ruling/creepers.lp); written only when not empty
    start_duties_done: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand_at_start": self.hand_at_start, "drawn": self.drawn,
                               "played": self.played}
        if self.start_duties_done:
            out["start_duties_done"] = list(self.start_duties_done)
        return out


@dataclass
class PendingPlay:
    player: str
    card: str
    # the choices given with this play or Surprise (docs/PLAYS.md), cards as ids; used when the
    # chain is closed
    choices: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "card": self.card}
        if self.choices:
            out["choices"] = self.choices
        return out


@dataclass
class TableState:
    edition: str
    expansions: list[str]
    players: list[Player]
    active: str  # a player's name
    rules: list[str]
    goals: list[str]
    turn: Turn
    draw_pile_size: int
    draw_pile: list[str] | None  # top first, when the cards are known
    discard_pile: list[str]  # top first
    pending: list[PendingPlay] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # extension fields, kept as given
    # no deck (Fluxxnomic: cards are made at random): the state has no draw pile to write
    deckless: bool = False

    @property
    def active_index(self) -> int:
        return next(i for i, p in enumerate(self.players) if p.name == self.active)

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "edition": self.edition,
            "expansions": list(self.expansions),
            "players": [p.to_json() for p in self.players],
            "active": self.active,
            "rules": list(self.rules),
            "goals": list(self.goals),
            "turn": self.turn.to_json(),
            "draw_pile": (
                list(self.draw_pile) if self.draw_pile is not None else self.draw_pile_size
            ),
            "discard_pile": list(self.discard_pile),
            "pending": [p.to_json() for p in self.pending],
        }
        if self.deckless:
            del out["draw_pile"]
        out.update(self.extra)
        return out
