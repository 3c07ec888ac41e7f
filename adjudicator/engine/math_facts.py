"""Math Fluxx: the arithmetic of Math Rules as facts (docs/ENGINE.md, "Math Rules").

Whether a player's number Keepers can compute a number is arithmetic (engine/math_search.py);
which numbers the Keepers stand for, which two may be read together as one two-digit number,
how many numbers a computation must use, whose turn it is and what a computation wins are rules,
in rules_asp/ (the card data of cards/math_goals.lp, the rules of ruling/goals_math.lp). For each
number a Goal on the table may have (its printed number, or the one the players gave for it, or
the active player's own) this module hands the program the search's answer for each kind of
computation it may ask about, named by its properties:

  math_decision(S,T,computation(J,O),Answer,K)
      can seat S's number Keepers compute T using at least O numbers (O = 1: a number alone
      counts; O = 2: two or more), after reading up to J pairs of them (each a pair of
      combine_digits_pair/3) as one two-digit number each, such a number counting as one? Answer
      can | cannot | undecided; K the Keepers tried
  math_equation(S,T,Mode,Text,Cards) the witness of a `can`: the equation's left side in the usual
                                     notation and the Keepers it uses (a tuple of card ids)
  math_uses(S,T,Mode,C,N)            that witness uses N copies of Keeper C

Which of them is a win is the program's: goals_math.lp reads computation(0,2), or computation(1,2)
under Combine Digits, and the others for what it says of a near miss. The search is the costly
part of a Math Fluxx ruling, so facts are written only where the program can read them: for the
player whose turn it is (goals_math.lp reads no one else's, FAQ 004-q1), while a card the card
data names as Math Rules (meta_math_rules/2) is on the table; the computations with two-digit
numbers while a card it names as Combine Digits (rule_combine_digits/2) is there too, and those
with two of them only where one does not do (the program reads them for nothing else).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import clingo

from ..memo import Memo
from ..resources import rules_dir
from ..table.choices import GOAL_NUMBERS
from ..table.state import TableState
from .math_search import Decision, Join, alone, decide, equation_text, leaves

# decisions by (numbers, target, combine, joins, operands): a game's tables repeat them turn
# after turn
_DECISIONS: Memo[tuple[tuple[int, ...], int, int, tuple[Join, ...], int], Decision] = Memo(4096)


@dataclass(frozen=True)
class CardData:
    """What the search needs of an edition's card data (rules_asp/cards/*.lp)."""

    math_rules: frozenset[str]      # meta_math_rules/2: the cards that ask for a computation
    combine_digits: frozenset[str]  # rule_combine_digits/2: ... with a two-digit number
    joins: tuple[Join, ...]         # combine_digits_pair/3: the values read together
    values: dict[str, int]          # number_keeper/3: Keeper id -> its number
    targets: dict[str, int]         # goal_target/3: Goal id -> its printed number


@cache
def card_data(edition: str) -> CardData:
    """The card data of `edition`, read from the card files by clingo once per process."""
    ctl = clingo.Control(["--warn=none"])
    for path in sorted((rules_dir() / "cards").glob("*.lp")):
        ctl.load(str(path))
    ctl.ground([("base", [])])
    atoms = [s for s in ctl.symbolic_atoms if s.is_fact]
    found: dict[str, list[tuple]] = {}
    for atom in atoms:
        sym = atom.symbol
        if sym.arguments and str(sym.arguments[0]) == edition:
            found.setdefault(sym.name, []).append(tuple(_value(a) for a in sym.arguments[1:]))
    return CardData(
        math_rules=frozenset(c for (c,) in found.get("meta_math_rules", [])),
        combine_digits=frozenset(c for (c,) in found.get("rule_combine_digits", [])),
        joins=tuple(sorted((a, b) for a, b in found.get("combine_digits_pair", []))),
        values={c: v for c, v in found.get("number_keeper", [])},
        targets={g: t for g, t in found.get("goal_target", [])},
    )


def _value(sym: clingo.Symbol) -> int | str:
    if sym.type == clingo.SymbolType.Number:
        return sym.number
    return sym.string if sym.type == clingo.SymbolType.String else str(sym)


def decision(numbers: tuple[int, ...], target: int, combine: int,
             joins: tuple[Join, ...] = (), operands: int = 2) -> Decision:
    key = (numbers, target, combine, joins, operands)
    found = _DECISIONS.get(key)
    if found is None:
        if operands <= 1:  # a number alone, or else what two or more compute
            one = alone(list(numbers), target, combine, joins)
            found = (Decision("can", one, len(numbers), 0) if one is not None
                     else decision(numbers, target, combine, joins, 2))
        else:
            found = decide(list(numbers), target, combine, joins=joins, operands=operands)
        found = _DECISIONS.keep(key, found)
    return found


def math_facts(state: TableState, term: Callable[[str], str]) -> list[str]:
    """The facts above for `state` (none while no card of the edition's Math Rules is on the
    table); `term` writes a card id as a clingo term (facts.term)."""
    data = card_data(state.edition)
    on_table = set(state.rules)
    if not data.math_rules & on_table:
        return []
    seat = state.active_index
    numbers = tuple(sorted(data.values[c] for c in state.players[seat].keepers
                           if c in data.values))
    given = state.extra.get(GOAL_NUMBERS) or {}
    name = state.players[seat].name
    targets: set[int] = set()
    for goal in state.goals:
        printed = data.targets.get(goal)
        number = given.get(goal)
        own = number.get(name) if isinstance(number, dict) else number  # the player's own number
        targets.update(n for n in (printed, own) if isinstance(n, int))
    joined = [0] + ([1] if data.combine_digits & on_table else [])
    out: list[str] = []
    for target in sorted(targets):
        for combine in joined:
            for operands in (1, 2):
                d = decision(numbers, target, combine, data.joins, operands)
                out += _decision_facts(seat, target, combine, operands, d, data, term)
            if combine == 1 and decision(numbers, target, 1, data.joins).status == "cannot":
                # would a second two-digit number do?
                two = decision(numbers, target, 2, data.joins)
                out += _decision_facts(seat, target, 2, 2, two, data, term)
    return out


def _decision_facts(seat: int, target: int, combine: int, operands: int, d: Decision,
                    data: CardData, term: Callable[[str], str]) -> list[str]:
    mode = f"computation({combine},{operands})"
    out = [f"math_decision({seat},{target},{mode},{d.status},{d.tried})."]
    if d.witness is None:
        return out
    by_value = {v: c for c, v in sorted(data.values.items(), key=lambda cv: cv[1])}
    cards: list[str] = []
    for leaf in leaves(d.witness):
        parts = leaf[1:] if leaf[0] == "c" else (leaf[1],)
        cards += [by_value[v] for v in parts]
    cards.sort(key=lambda c: data.values[c])  # shown smallest first
    tuple_text = ",".join(term(c) for c in cards) + ("," if len(cards) == 1 else "")
    text = equation_text(d.witness).replace("\\", "\\\\").replace('"', '\\"')
    out.append(f'math_equation({seat},{target},{mode},"{text}",({tuple_text})).')
    for card in dict.fromkeys(cards):
        out.append(f"math_uses({seat},{target},{mode},{term(card)},{cards.count(card)}).")
    return out
