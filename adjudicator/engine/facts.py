"""A table state as logic facts for the rules engine (docs/ENGINE.md lists every predicate).

This module only translates: seats are numbered 0..N-1 in seat order, card ids become clingo
constants (or quoted strings when they start with a digit, via `term`), counts become numbers.
No game rule is decided here; the .lp files in rules_asp/ do that.

Only the catalog's card ids, the reader's numbers and fixed names reach the program: no text a
client wrote (a player's name, a card as spelled) is ever spliced into it. Players are their seat
numbers; the referee (referee/render.py) names them from the state.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache

from ..cards.catalog import Catalog, catalog_for
from ..table.choices import EXTRA_TURNS, GOAL_NUMBERS, PHASE, sub_hands
from ..table.reader import UNKNOWN_CARD
from ..table.state import TableState
from .math_facts import math_facts

_CONSTANT = re.compile(r"[a-z][A-Za-z0-9_]*\Z")


@lru_cache(maxsize=4096)  # card ids: a few hundred per game
def term(card_id: str) -> str:
    """A card id as a clingo term: `draw_2` stays a constant, `10_cards_in_hand` is quoted."""
    if _CONSTANT.match(card_id):
        return card_id
    return '"' + card_id.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fact(name: str, *args: object) -> str:
    return f"{name}({','.join(str(a) for a in args)})."


def catalog_facts(catalog: Catalog) -> list[str]:
    """card/1, card_type/2 (and card_text_missing/1) for every card of the game."""
    out: list[str] = []
    for card in catalog:
        t = term(card.id)
        out.append(_fact("card", t))
        out.append(_fact("card_type", t, card.type))
        if card.copies > 1:  # Math Fluxx: Zero x4, One x4...; a card without it has one copy
            out.append(_fact("card_copies", t, card.copies))
        if card.text_en is None and card.text_zh is None:
            out.append(_fact("card_text_missing", t))  # the sources do not print its text
    return out


@cache
def _catalog_text(catalog: Catalog) -> str:
    """catalog_facts as program text, once per catalog (catalog_for caches one per game, and a
    catalog never changes): the same 200 to 400 facts were formatted again for every ruling."""
    return "\n".join(catalog_facts(catalog))


def _zone(name: str, seat: int, cards: Iterable[str]) -> list[str]:
    return [_fact(name, seat, term(c)) for c in dict.fromkeys(cards)]


def state_facts(state: TableState, catalog: Catalog | None = None) -> str:
    """The facts of a table state, as program text (one fact per line)."""
    game = catalog or catalog_for(state.edition, state.expansions)
    return table_facts(state, game) + catalog_text(game)


def catalog_text(catalog: Catalog) -> str:
    """The catalog part of the facts (card/1, card_type/2...): the same for every table of a
    game, so a batch of tables (batch.py) adds it once."""
    return _catalog_text(catalog) + "\n"


def table_facts(state: TableState, game: Catalog) -> str:
    """The facts of a table state without the catalog's."""
    out: list[str] = [_fact("edition", state.edition)]
    out += [_fact("expansion", e) for e in state.expansions]
    n = len(state.players)
    out.append(f"seat(0..{n - 1}).")
    out.append(_fact("nseats", n))
    for seat, player in enumerate(state.players):
        out.append(_fact("hand_size", seat, player.hand_size))
        if player.hand is not None:
            out.append(_fact("hand_known", seat))
            # "?" marks a card that is there but unknown: counted in hand_size, never named
            known = [c for c in player.hand if c != UNKNOWN_CARD]
            out += _zone("in_hand", seat, known)
            # in_hand is a set; the move program moves copies, so it needs how many of each
            out += [_fact("hand_copies", seat, term(c), k) for c, k in Counter(known).items()]
        # the cards of the hand the table does not show: a hand given by its size, or its "?"
        unseen = player.hand_size - (len(known) if player.hand is not None else 0)
        if unseen > 0:
            out.append(_fact("hand_unseen", seat, unseen))
        out += _zone("keeper", seat, player.keepers)
        out += _zone("creeper", seat, player.creepers)
        # counts, not sets: Math Fluxx has several copies of a Keeper (Zero, One...)
        out.append(_fact("keeper_count", seat, len(player.keepers)))
        out.append(_fact("creeper_count", seat, len(player.creepers)))
        copies = Counter(player.keepers).items()
        out += [_fact("keeper_copies", seat, term(c), k) for c, k in copies]
        # Keep Going: the Goals in front of this player (claimed; not on the table)
        out += _zone("claimed_goal", seat, player.claimed_goals)
    out.append(_fact("active", state.active_index))
    # a card listed twice counts at its later position (the newer one)
    for index, card in _last_positions(state.rules):
        out += [_fact("rule", term(card)), _fact("rule_order", term(card), index)]
    # copies of a rule (Fluxxnomic's Do some more stacks): rule/1 is a set
    out += [_fact("rule_copies", term(c), k) for c, k in Counter(state.rules).items() if k > 1]
    for index, card in _last_positions(state.goals):
        out += [_fact("goal", term(card)), _fact("goal_order", term(card), index)]
    out += [
        _fact("hand_at_start", state.turn.hand_at_start),
        _fact("drawn", state.turn.drawn),
        _fact("played", state.turn.played),
        *(_fact("start_duty_done", term(c)) for c in state.turn.start_duties_done),
        _fact("draw_pile_size", state.draw_pile_size),
    ]
    # the extension fields of plays (docs/PLAYS.md): extra_turns, sub_hands
    out += extension_facts(state, game)
    # Math Fluxx: can the active player's Keepers compute a Goal's number (arithmetic only)
    out += math_facts(state, term)
    if state.draw_pile is not None:
        out += [
            _fact("draw_pile", term(c), i)
            for i, c in enumerate(state.draw_pile)
            if c != UNKNOWN_CARD
        ]
    out += [_fact("discard", term(c), i) for i, c in enumerate(state.discard_pile)]
    names = {p.name: seat for seat, p in enumerate(state.players)}
    out += [
        _fact("pending", i, names[p.player], term(p.card)) for i, p in enumerate(state.pending)
    ]
    return "\n".join(out) + "\n"


def _last_positions(cards: list[str]) -> list[tuple[int, str]]:
    last = {card: i for i, card in enumerate(cards)}
    return sorted((i, card) for card, i in last.items())


def extension_facts(state: TableState, game: Catalog) -> list[str]:
    """extra_turns(K); subframe(D,S,Origin,Left), subhand(D,C), subhand_copies(D,C,K),
    subhand_unknown(D,K) (D = 1 is the oldest frame). The state is as read: table/reader.py
    checked both fields."""
    out: list[str] = []
    turns = state.extra.get(EXTRA_TURNS) or 0
    if turns > 0:
        out.append(f"extra_turns({turns}).")
    # Math Fluxx: the numbers the players read on Goals whose number the sources lack, or give
    # for each player (a Goal such as Your Own Age)
    seats = {p.name: i for i, p in enumerate(state.players)}
    for card, n in sorted((state.extra.get(GOAL_NUMBERS) or {}).items()):
        if isinstance(n, dict):
            out += [f"player_goal_number({term(card)},{seats[who]},{k})."
                    for who, k in n.items() if who in seats]
        else:
            out.append(f"goal_number_given({term(card)},{n}).")
    for depth, frame in enumerate(sub_hands(state, game), start=1):
        seat = seats[frame["player"]]
        out.append(f"subframe({depth},{seat},{term(frame['card'])},{frame['plays_left']}).")
        out += [f"subhand({depth},{term(c)})." for c in dict.fromkeys(frame["cards"])]
        out += [f"subhand_copies({depth},{term(c)},{k})."
                for c, k in Counter(frame["cards"]).items()]
        if frame["unknown"]:
            out.append(f"subhand_unknown({depth},{frame['unknown']}).")
    # Fluxxnomic: the phase's number, the other players' counts, the cards waiting (in order)
    phase = state.extra.get(PHASE)
    if phase:
        out.append(f"phase_number({phase['number']}).")
        # (the active player's draws and plays are turn's; their entry is kept for its Keepers)
        out += [f"phase_counts({seats[c['player']]},{c['drawn']},{c['played']})."
                for c in phase["players"] if c["player"] != state.active]
        out += [f"phase_keepers({seats[c['player']]},{c['keepers']})."
                for c in phase["players"] if c.get("keepers")]
        out += [f"waiting({i},{seats[w['player']]},{term(w['card'])})."
                for i, w in enumerate(phase["waiting"])]
        # who was a player before, by their place in the list (no name is a fact), and the
        # last phase they were one in
        out += [f"former_player({i},{f['last_phase']})."
                for i, f in enumerate(phase.get("former_players") or [])]
    return out
