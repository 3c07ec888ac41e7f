"""Whole games of random legal moves through the engine (`fluxx-adjudicator simulate`).

A game is dealt from the full rulebook deck (seed 000: every card but Basic Rules, which starts on
the table, and the promo card, whose text the sources lack), then each step takes the ruling of
the current state, picks one of `legal_actions` at random, applies it with `apply_action` (a
seeded run: shuffles and random picks are concrete) and picks one of its outcomes at random (the
player's decisions). The invariants (`invariant_violations`) are checked after every move.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog, catalog_for
from .play import SUB_HANDS, apply_action, legal_actions
from .reader import UNKNOWN_CARD
from .ruling import ruling_for
from .state import Player, TableState, Turn

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
EXCLUDED_TYPES = ("basic_rules", "promo")


def deck(game: Catalog) -> list[str]:
    """The cards that are shuffled and dealt: every copy of every playable card of known text."""
    return [c.id for c in game for _ in range(c.copies) if c.type not in EXCLUDED_TYPES]


def deal(rng: random.Random, players: int, edition: str = "fluxx") -> TableState:
    """The Basic Rules setup: shuffle, three cards each, the rest is the draw pile."""
    game = catalog_for(edition)
    cards = deck(game)
    rng.shuffle(cards)
    hands = [cards[3 * i: 3 * i + 3] for i in range(players)]
    pile = cards[3 * players:]
    seats = [Player(name=NAMES[i], hand=h, hand_size=3) for i, h in enumerate(hands)]
    return TableState(edition=edition, expansions=[], players=seats, active=NAMES[0], rules=[],
                      goals=[], turn=Turn(hand_at_start=3), draw_pile_size=len(pile),
                      draw_pile=pile, discard_pile=[])


def card_places(state: TableState) -> Counter[str]:
    """Every card where the state shows it (hands, table, piles, sub-hands)."""
    places: Counter[str] = Counter()
    for p in state.players:
        places.update(p.hand or [])
        places.update(p.keepers)
        places.update(p.creepers)
        places.update(p.claimed_goals)  # Keep Going (Math Fluxx)
    places.update(state.rules)
    places.update(state.goals)
    places.update(state.discard_pile)
    places.update(state.draw_pile or [])
    places.update(link.card for link in state.pending)  # an open Surprise chain
    for frame in state.extra.get(SUB_HANDS, []):
        places.update(frame["cards"])
    return places


def invariant_violations(state: TableState, ruling: dict[str, Any], full_deck: Counter[str],
                         ended_turn_of: str | None = None) -> list[str]:
    """What is wrong with a state reached by the simulator (empty when all is well)."""
    out: list[str] = []
    unknown = [p.name for p in state.players if p.hand is None or UNKNOWN_CARD in p.hand]
    if unknown or (state.draw_pile is None and state.draw_pile_size):
        out.append(f"unknown cards in a seeded game: hands {unknown}, pile {state.draw_pile_size}")
    places = card_places(state)
    if places != full_deck:
        lost = full_deck - places
        extra = places - full_deck
        out.append(f"cards lost {dict(lost)} or duplicated {dict(extra)}")
    if not ruling.get("ok"):
        out.append(f"no single ruling: {ruling.get('errors')}")
    if ended_turn_of is not None and ruling.get("ok"):
        limits = ruling["limits"]
        p = state.player(ended_turn_of)
        if limits.get("hand") is not None and p.hand_size > limits["hand"]:
            out.append(f"{p.name} ended the turn over the Hand Limit: {p.hand_size}")
        if limits.get("keeper") is not None and len(p.keepers) > limits["keeper"]:
            out.append(f"{p.name} ended the turn over the Keeper Limit: {len(p.keepers)}")
    return out


@dataclass
class GameResult:
    seed: int
    players: int
    ended: str  # "win" | "step_cap" | "stuck" | "violation"
    winner: str | None
    steps: int
    turns: int
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def random_walk(seed: int, players: int, moves: int) -> Iterator[TableState]:
    """The tables met along at most `moves` random legal moves from a fresh deal (the deal
    first, each table before the move made on it); it stops at a win or with no move open.
    Unlike `play_game` nothing is checked: the benchmarks and the tests that need mid-game
    tables use it."""
    rng = random.Random(seed)
    state = deal(rng, players)
    for _ in range(moves):
        yield state
        ruling = ruling_for(state)
        actions = legal_actions(state, ruling)
        if not actions or ruling.get("winner"):
            return
        result = apply_action(state, rng.choice(actions), seed=rng.randrange(1 << 30),
                              with_ruling=False, sample=rng.randrange(1 << 30))
        state = result.outcomes[0].state
    yield state


def play_game(seed: int, players: int = 3, max_steps: int = 200,
              check: bool = True) -> GameResult:
    """One game of random legal moves; stops at a win, the step cap, or a broken invariant."""
    started = time.perf_counter()
    rng = random.Random(seed)
    state = deal(rng, players)
    game = catalog_for(state.edition)
    full = Counter(deck(game))
    ruling = ruling_for(state, game)
    turns, steps = 1, 0
    result = GameResult(seed, players, "step_cap", None, 0, 1)
    while steps < max_steps:
        if ruling.get("winner"):
            result.ended, result.winner = "win", ruling["winner"]
            break
        actions = legal_actions(state, ruling)
        if not actions:
            result.ended = "stuck"
            result.violations.append(f"no legal move at step {steps}")
            break
        action = rng.choice(actions)
        outcome = apply_action(state, action, seed=rng.randrange(1 << 30), with_ruling=False,
                               sample=rng.randrange(1 << 30))
        steps += 1
        if not outcome.legal or not outcome.outcomes:
            result.ended = "stuck"
            result.violations.append(f"step {steps}: {action} gave no outcome "
                                     f"{[r['key'] for r in outcome.reasons]}")
            break
        ended_by = state.active if action["kind"] == "end_turn" else None
        state = rng.choice(outcome.outcomes).state
        ruling = ruling_for(state, game)
        if action["kind"] == "end_turn":
            turns += 1
        if check:
            problems = invariant_violations(state, ruling, full, ended_by)
            if problems:
                result.ended = "violation"
                result.violations += [f"step {steps} after {action}: {p}" for p in problems]
                break
    result.steps, result.turns = steps, turns
    result.seconds = round(time.perf_counter() - started, 3)
    return result


def simulate(games: int, players: int = 3, seed: int = 0, max_steps: int = 200,
             check: bool = True) -> dict[str, Any]:
    """Plays `games` games (game i uses seed `seed + i`) and sums them up."""
    started = time.perf_counter()
    results = [play_game(seed + i, players, max_steps, check) for i in range(games)]
    seconds = time.perf_counter() - started
    steps = sum(r.steps for r in results)
    wins: Counter[str] = Counter(r.winner for r in results if r.winner)
    return {
        "games": games, "players": players, "seed": seed, "max_steps": max_steps,
        "ended": dict(Counter(r.ended for r in results)),
        "wins_by_player": dict(sorted(wins.items())),
        "average_turns": round(sum(r.turns for r in results) / games, 2) if games else 0,
        "average_steps": round(steps / games, 2) if games else 0,
        "moves": steps,
        "seconds": round(seconds, 2),
        "moves_per_second": round(steps / seconds, 1) if seconds else None,
        "violations": [v for r in results for v in r.violations],
        "results": [r.to_json() for r in results],
    }
