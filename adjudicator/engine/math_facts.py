"""Math Fluxx: the arithmetic of Math Rules as facts (docs/ENGINE.md, "Math Rules").

Whether a player's number Keepers can compute a number is arithmetic (engine/math_search.py);
which numbers, whose turn it is, and what a computation wins are rules, in
rules_asp/ruling/goals_math.lp. For each number a Goal on the table may have (its printed number,
or the one the players gave for it, or the active player's own) this module hands the program the
search's answer:

  math_decision(S,T,Mode,Answer,K)   seat S, target T, Mode plain (each Keeper its own number) or
                                     combine (one two-digit number first, Combine Digits), and
                                     combine_two (two of them: written only when it can and one
                                     cannot, for the ruling to say that a second would have done);
                                     Answer can | cannot | undecided; K the Keepers tried
  math_equation(S,T,Mode,Text,Cards) the witness of a `can`: the equation's left side in the usual
                                     notation and the Keepers it uses (a tuple of card ids)
  math_uses(S,T,Mode,C,N)            that witness uses N copies of Keeper C

The facts are written for the player whose turn it is and only while Math Rules is on the table:
the program reads them for no one else (FAQ 004-q1 in goals_math.lp), and the search is the
costly part of a Math Fluxx ruling. The combine mode is searched only while Combine Digits is on
the table, for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards.catalog import Catalog
from ..memo import Memo
from ..table.choices import GOAL_NUMBERS
from ..table.state import TableState
from .math_search import Decision, decide, equation_text, leaves

MATH_RULES = "math_rules"
COMBINE_DIGITS = "combine_digits"

# decisions by (numbers, target, combine): a game's tables repeat them turn after turn
_DECISIONS: Memo[tuple[tuple[int, ...], int, int], Decision] = Memo(4096)


def decision(numbers: tuple[int, ...], target: int, combine: int) -> Decision:
    key = (numbers, target, combine)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS.keep(key, decide(list(numbers), target, combine))
    return found


def math_facts(state: TableState, game: Catalog, term: Callable[[str], str]) -> list[str]:
    """The facts above for `state` (none outside Math Fluxx or without Math Rules in play);
    `term` writes a card id as a clingo term (facts.term)."""
    if state.edition != "math" or MATH_RULES not in state.rules:
        return []
    by_value = {c.attrs["value"]: c.id for c in game
                if c.type == "keeper" and isinstance(c.attrs.get("value"), int)}
    seat = state.active_index
    numbers = tuple(sorted(game.get(c).attrs["value"] for c in state.players[seat].keepers
                           if isinstance(game.get(c).attrs.get("value"), int)))
    given = state.extra.get(GOAL_NUMBERS) or {}
    name = state.players[seat].name
    targets: set[int] = set()
    for goal in state.goals:
        printed = game.get(goal).attrs.get("target") if goal in game else None
        number = given.get(goal)
        own = number.get(name) if isinstance(number, dict) else number  # the player's own number
        targets.update(n for n in (printed, own) if isinstance(n, int))
    modes = [("plain", 0)] + ([("combine", 1)] if COMBINE_DIGITS in state.rules else [])
    out: list[str] = []
    for target in sorted(targets):
        for mode, combine in modes:
            d = decision(numbers, target, combine)
            out += _decision_facts(seat, target, mode, d, by_value, game, term)
            if mode == "combine" and d.status == "cannot":
                # would a second two-digit number have done? (FAQ 004-q5 allows only ONE)
                two = decision(numbers, target, 2)
                if two.status == "can":
                    out += _decision_facts(seat, target, "combine_two", two, by_value, game, term)
    return out


def _decision_facts(seat: int, target: int, mode: str, d: Decision, by_value: dict[int, str],
                    game: Catalog, term: Callable[[str], str]) -> list[str]:
    out = [f"math_decision({seat},{target},{mode},{d.status},{d.tried})."]
    if d.witness is None:
        return out
    cards: list[str] = []
    for leaf in leaves(d.witness):
        digits = leaf[1:] if leaf[0] == "c" else (leaf[1],)
        cards += [by_value[v] for v in digits]
    cards.sort(key=lambda c: game.get(c).attrs["value"])  # shown smallest first
    tuple_text = ",".join(term(c) for c in cards) + ("," if len(cards) == 1 else "")
    text = equation_text(d.witness).replace("\\", "\\\\").replace('"', '\\"')
    out.append(f'math_equation({seat},{target},{mode},"{text}",({tuple_text})).')
    for card in dict.fromkeys(cards):
        out.append(f"math_uses({seat},{target},{mode},{term(card)},{cards.count(card)}).")
    return out
