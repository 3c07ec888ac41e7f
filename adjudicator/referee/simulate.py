"""Whole games of random legal moves through the engine (`fluxx-adjudicator simulate`).

A game of an edition (`fluxx`, `math`, `fluxxnomic`; the `fluxx` edition with its expansions) is
dealt from its whole deck, every copy of every card (every card but Basic Rules, which starts on
the table, and the promo card, whose text the sources lack), then each step takes the ruling of
the current state, picks one of `legal_actions` at random (the `play` bodies of the ruling's
legal moves: the one move model, nothing else) and makes it with `try_play`, which reads the body
as POST /api/play does (a seeded run: shuffles and random picks are concrete, and a randomized
search picks the player's decisions). The invariants (`invariant_violations`) are checked
after every move: the copies of every card over all the zones are the deck's. A move or a
ruling that hits the engine's time limit ends its game (`ended: "time_limit"`, the move and its
table kept in the result); the other games of the batch go on. Games of consecutive seeds are
played in lockstep groups (`play_games`: each game's calls into the engine worked out with the
others', together.run_together), and with `jobs` above 1 groups are played in that many
processes at once, which is how a batch uses the machine's cores. A game depends on its seed and
its group's seeds (a randomized search meets the group's plays in one grounding), unless a move
hits the engine's time limit, which more processes than cores make likelier.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import Any

from ..cards.catalog import Catalog, catalog_for
from ..engine.solve import TimeLimitError
from ..engine.speed import batch, plays
from ..table.reader import UNKNOWN_CARD
from ..table.state import Player, TableState, Turn
from .moves import SUB_HANDS, legal_actions, try_play
from .ruling import ruling_for
from .together import run_together

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
EXCLUDED_TYPES = ("basic_rules", "promo")


def deck(game: Catalog) -> list[str]:
    """The cards that are shuffled and dealt: every copy of every card of the game but those of
    EXCLUDED_TYPES (the Basic Rules card, the promo card), whether its text is known or not."""
    return [c.id for c in game for _ in range(c.copies) if c.type not in EXCLUDED_TYPES]


def deal(rng: random.Random, players: int, edition: str = "fluxx",
         expansions: Sequence[str] = ()) -> TableState:
    """The Basic Rules setup: shuffle, three cards each, the rest is the draw pile (the
    expansions' cards shuffled in)."""
    game = catalog_for(edition, expansions)
    if game.copies_unlimited:  # no deck (Fluxxnomic): each card made at random, all alike
        kinds = [c.id for c in game if c.type not in EXCLUDED_TYPES]
        seats = [Player(name=NAMES[i], hand=[rng.choice(kinds) for _ in range(3)], hand_size=3)
                 for i in range(players)]
        return TableState(edition=edition, expansions=[], players=seats, active=NAMES[0],
                          rules=[], goals=[], turn=Turn(hand_at_start=3), draw_pile_size=0,
                          draw_pile=None, discard_pile=[], deckless=True)
    cards = deck(game)
    rng.shuffle(cards)
    hands = [cards[3 * i: 3 * i + 3] for i in range(players)]
    pile = cards[3 * players:]
    seats = [Player(name=NAMES[i], hand=h, hand_size=3) for i, h in enumerate(hands)]
    return TableState(edition=edition, expansions=sorted(set(expansions)), players=seats,
                      active=NAMES[0], rules=[], goals=[], turn=Turn(hand_at_start=3),
                      draw_pile_size=len(pile), draw_pile=pile, discard_pile=[])


def card_places(state: TableState) -> Counter[str]:
    """Every copy of every card where the state shows it (hands, table, piles, sub-hands, the
    chain), counted: Math Fluxx has several copies of a card."""
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
                         ended_turn_of: str | None = None,
                         ended_limit: int | None = None) -> list[str]:
    """What is wrong with a state reached by the simulator (empty when all is well). A game
    without a deck (Fluxxnomic: cards are made) has no copies to count; `ended_limit` is then the
    Hand Limit in force when the phase ended."""
    out: list[str] = []
    unknown = [p.name for p in state.players if p.hand is None or UNKNOWN_CARD in p.hand]
    if unknown or (state.draw_pile is None and state.draw_pile_size):
        out.append(f"unknown cards in a seeded game: hands {unknown}, pile {state.draw_pile_size}")
    places = card_places(state)
    if not state.deckless and places != full_deck:  # copies counted: a lost copy is caught
        lost = full_deck - places
        extra = places - full_deck
        out.append(f"cards lost {dict(lost)} or duplicated {dict(extra)}")
    if not ruling.get("ok"):
        out.append(f"no single ruling: {ruling.get('errors')}")
    if state.deckless and ended_turn_of is not None and ended_limit is not None:
        # Fluxxnomic: the Hand Limit binds every hand at the end of the phase (Hand limit 5)
        out += [f"{p.name} holds {p.hand_size} cards after the phase, over {ended_limit}"
                for p in state.players if p.hand_size > ended_limit]
    elif not state.deckless and ended_turn_of is not None and ruling.get("ok"):
        # (Fluxxnomic has no end-of-turn discard: a Hand Limit there binds at the end of a
        # phase in force then, and one that takes effect as the phase ends binds at the next)
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
    ended: str  # "win" | "step_cap" | "stuck" | "violation" | "time_limit"
    winner: str | None
    steps: int
    turns: int
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    edition: str = "fluxx"
    expansions: list[str] = field(default_factory=list)
    # the move (or ruling) that hit the engine's time limit, with its table (ended "time_limit")
    time_limit: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _game_moves(state: TableState, ruling: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves a random player picks from: the legal actions but a join, which is
    open at every moment and would only grow the table; the simulator seats nobody."""
    return [a for a in legal_actions(state, ruling) if a["kind"] != "join"]


def random_walk(seed: int, players: int, moves: int, edition: str = "fluxx",
                expansions: Sequence[str] = ()) -> Iterator[TableState]:
    """The tables met along at most `moves` random legal moves from a fresh deal of `edition`
    with `expansions` (the deal first, each table before the move made on it); it stops at a
    win, with no move open or a move without an outcome. Unlike `play_game` nothing is checked:
    the benchmarks and the tests that need mid-game tables use it."""
    rng = random.Random(seed)
    state = deal(rng, players, edition, expansions)
    for _ in range(moves):
        yield state
        ruling = ruling_for(state)
        actions = _game_moves(state, ruling)
        if not actions or ruling.get("winner"):
            return
        result = try_play(state, rng.choice(actions), seed=rng.randrange(1 << 30),
                          sample=rng.randrange(1 << 30))
        if not result.outcomes:
            return
        state = result.outcomes[0].state
    yield state


def play_game(seed: int, players: int = 3, max_steps: int = 200, check: bool = True,
              edition: str = "fluxx", expansions: Sequence[str] = ()) -> GameResult:
    """One game of random legal moves; stops at a win, the step cap, a broken invariant or the
    engine's time limit (the move and its table are kept in `time_limit`)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    state = deal(rng, players, edition, expansions)
    game = catalog_for(state.edition, state.expansions)
    full = Counter(deck(game))
    result = GameResult(seed, players, "step_cap", None, 0, 1, edition=state.edition,
                        expansions=list(state.expansions))
    turns, steps = 1, 0
    # what the engine is asked now: the move and its table, or (action None) a table's ruling
    asked: dict[str, Any] = {"action": None, "state": state}
    try:
        ruling = ruling_for(state, game)
        while steps < max_steps:
            if ruling.get("winner"):
                result.ended, result.winner = "win", ruling["winner"]
                break
            actions = _game_moves(state, ruling)
            if not actions:
                result.ended = "stuck"
                result.violations.append(f"no legal move at step {steps}")
                break
            action = rng.choice(actions)
            asked = {"action": action, "state": state}
            outcome = try_play(state, action, seed=rng.randrange(1 << 30),
                               sample=rng.randrange(1 << 30))
            steps += 1
            if not outcome.legal or not outcome.outcomes:
                result.ended = "stuck"
                result.violations.append(f"step {steps}: {action} gave no outcome "
                                         f"{[r['key'] for r in outcome.reasons]}")
                break
            ended_by = state.active if action["kind"] == "end_turn" else None
            limit_before = ruling["limits"].get("hand") if ruling.get("ok") else None
            before, state = state, rng.choice(outcome.outcomes).state
            asked = {"action": None, "state": state}
            ruling = ruling_for(state, game)
            if ended_by is not None:
                turns += 1
            if check:
                problems = invariant_violations(state, ruling, full, ended_by, limit_before)
                if problems:
                    result.ended = "violation"
                    result.violations += [f"step {steps} after {action}: {p}" for p in problems]
                    result.violations.append(f"step {steps}: the table before the move "
                                             f"{before.to_json()}")
                    break
    except TimeLimitError as err:
        result.ended = "time_limit"
        result.time_limit = {"step": steps, "action": asked["action"],
                             "state": asked["state"].to_json(), "limit_s": err.limit_s}
    result.steps, result.turns = steps, turns
    result.seconds = round(time.perf_counter() - started, 3)
    return result


# Games played in lockstep in one process: their calls into the engine (each move's play
# program, each table's ruling) are worked out together (together.run_together), which costs a
# fraction of what the same calls cost one after the other (bench/play_bench.py). Groups of
# 28 played 13% to 33% more moves per CPU-second than groups of 14 on average in the four game
# kinds measured (9% to 33% run against run); groups of 42 and 56 no more than 28 (a batch of
# rulings is split above batch.MAX_BATCH): bench/HISTORY.md.
GROUP = 32


def play_games(seeds: Sequence[int], players: int = 3, max_steps: int = 200, check: bool = True,
               edition: str = "fluxx", expansions: Sequence[str] = ()) -> list[GameResult]:
    """`play_game` for each seed, the games played together (one round, rounds.py): each game
    runs as it runs alone, its calls into the engine worked out with the others'."""
    one = partial(play_game, players=players, max_steps=max_steps, check=check,
                  edition=edition, expansions=tuple(expansions))
    if len(seeds) < 2:
        return [one(s) for s in seeds]
    first = deal(random.Random(0), players, edition, expansions)
    game = (first.edition, tuple(first.expansions))
    # the renamed-apart programs, built now rather than in the background on first use: until
    # then the plays of the group's tables would be solved one by one, and each sampled pick
    # would depend on when the build ended (a group's games must replay alike)
    batch.tagged_program(first.edition, first.expansions)
    plays.PROGRAMS.get(game)
    results = []
    for ok, value in run_together(game, [partial(one, s) for s in seeds]):
        if not ok:
            raise value
        results.append(value)
    return results


def group_size(games: int, group: int, jobs: int) -> int:
    """The games of a group: at most `group`, and with `jobs` processes the groups made as many
    as a multiple of `jobs` (each process plays as many groups as the others, so none plays a
    last group alone while the others wait: 150 games in groups of 32 on 2 processes are 6
    groups of 25, not 4 of 32 and one of 22)."""
    group = max(1, group)
    if jobs <= 1 or games <= 0:
        return group
    count = math.ceil(math.ceil(games / group) / jobs) * jobs
    return math.ceil(games / count)


def simulate(games: int, players: int = 3, seed: int = 0, max_steps: int = 200,
             check: bool = True, edition: str = "fluxx",
             expansions: Sequence[str] = (), jobs: int = 1, group: int = GROUP) -> dict[str, Any]:
    """Plays `games` games of `edition` with `expansions` (game i uses seed `seed + i`) and
    sums them up. The games are played in lockstep in groups of at most `group` consecutive
    seeds (`play_games`; `group_size`: with `jobs` above 1, groups that share the processes
    evenly), and `jobs` processes play groups at once (the results in the order of the seeds).
    A game depends on its seed and its group's seeds: a randomized search picks each move's
    decisions in a grounding shared with the group's other moves (group 1: on its own). The
    summary's `group` is the size played: `jobs` 1 with that `group` plays the same games."""
    started = time.perf_counter()
    group = group_size(games, group, jobs)
    groups = [list(range(seed + i, seed + min(i + group, games)))
              for i in range(0, games, group)]
    many = partial(play_games, players=players, max_steps=max_steps, check=check,
                   edition=edition, expansions=tuple(expansions))
    jobs = max(1, min(jobs, len(groups)))
    if jobs == 1:
        results = [r for g in groups for r in many(g)]
    else:
        # spawned, not forked: a fork copies the engine's locks and threads mid-use
        with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
            results = [r for rs in pool.map(many, groups) for r in rs]
    seconds = time.perf_counter() - started
    steps = sum(r.steps for r in results)
    wins: Counter[str] = Counter(r.winner for r in results if r.winner)
    return {
        "games": games, "players": players, "seed": seed, "max_steps": max_steps,
        "edition": edition, "expansions": sorted(set(expansions)),
        "ended": dict(Counter(r.ended for r in results)),
        "wins_by_player": dict(sorted(wins.items())),
        "average_turns": round(sum(r.turns for r in results) / games, 2) if games else 0,
        "average_steps": round(steps / games, 2) if games else 0,
        "moves": steps,
        "jobs": jobs,
        "group": group,
        "seconds": round(seconds, 2),
        "moves_per_second": round(steps / seconds, 1) if seconds else None,
        "violations": [v for r in results for v in r.violations],
        # the moves that hit the engine's time limit, each with its game's seed and its table
        "time_limits": [{"seed": r.seed, **r.time_limit} for r in results if r.time_limit],
        "results": [r.to_json() for r in results],
    }
