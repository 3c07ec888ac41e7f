"""Benchmark of moves where players wait: "what if" on every card of a 7-card hand and a
21-card hand's discard to Hand Limit 1, each as a multiple of a lone ruling of the same table,
and simulated games across the editions (moves per second, the time of N games, invariant
violations).

    python bench/play_bench.py [--tables 5] [--games 192] [--max-steps 40] [--jobs CORES]
                               [--group 16]

Figures only; nothing is asserted (timings depend on the machine and its load). The tables are
mid-game tables of simulated games (random legal moves from a deal), the active player's hand
made up to 7 cards from the draw pile, at a moment that player may play a card (the play
phase). Targets (bench/README.md): what if at most 14 lone rulings, the 21-card discard at most
10, 1,000 games under 10 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import replace
from typing import Any

from adjudicator.engine.speed import batch, plays
from adjudicator.referee.moves import play_response
from adjudicator.referee.ruling import ruling_for, rulings_for
from adjudicator.referee.simulate import GROUP, deal, random_walk, simulate
from adjudicator.referee.together import play_responses
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState

GAMES = [("fluxx", ()), ("fluxx", ("creepers",)), ("fluxx", ("surprises",)),
         ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


def _seconds(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def seven_card_table(seed: int) -> TableState | None:
    """A mid-game table whose active player holds 7 known cards (topped up from the pile)."""
    *_, state = random_walk(seed, 3, 10)
    pile = list(state.draw_pile or [])
    active = state.player(state.active)
    need = 7 - len(active.hand or [])
    if active.hand is None or need < 0 or len(pile) < need:
        return None
    players = [replace(p, hand=p.hand + pile[:need], hand_size=p.hand_size + need)
               if p.name == state.active else p for p in state.players]
    table = replace(state, players=players, draw_pile=pile[need:],
                    draw_pile_size=state.draw_pile_size - need, pending=[])
    return parse_state(table.to_json())  # through the reader, as a client's table


def warm(state: TableState) -> None:
    """Builds what a running server has built by its first requests: the program that rules a
    move's outcomes together (batch.py builds it in the background on first use) and the
    analyses of it and of the play program (a play and two outcomes ruled together on other
    tables of the game: about three seconds, once per process), and the program of plays asked
    together (engine/speed/plays.py) with its analysis."""
    batch.tagged_program(state.edition, state.expansions)
    game = (state.edition, tuple(state.expansions))
    plays.PROGRAMS.get(game)  # the plays' program asked together (POST /api/plays)
    if game not in _WARM:
        _WARM.add(game)
        others = [parse_state(deal(random.Random(-k), 3, state.edition,
                                   state.expansions).to_json()) for k in (1, 2)]
        play_response(others[0], {"kind": "draw"})
        play_responses(others[1], [{"kind": "draw"}, {"kind": "end_turn"}])
        rulings_for(others)


_WARM: set[tuple[str, tuple[str, ...]]] = set()


def may_play_a_card(ruling: dict[str, Any]) -> bool:
    """Whether the ruling lets the active player play a card from the hand now: "what if I
    play this?" is asked in the play phase (at a table with no plays left, every card answers
    "not yet", which costs a play program's grounding but rules no outcome)."""
    return not ruling.get("winner") and any(
        m["play"].get("kind", "play") == "play" and m["play"].get("card")
        for m in ruling.get("legal_moves", []))


def bench_what_if(tables: int) -> None:
    ratios: list[float] = []
    together: list[float] = []
    for seed in range(tables * 12):
        state = seven_card_table(seed)
        if state is None or not may_play_a_card(ruling_for(state)):
            continue
        warm(state)
        lone = statistics.median(_seconds(lambda s=state: ruling_for(s)) for _ in range(3))
        asked = [{"card": c} for c in state.player(state.active).hand or []]
        # the 7 plays in one request (POST /api/plays), then one by one: whatever the first
        # leaves in the process's memos helps the second
        joined = _seconds(lambda s=state, a=asked: play_responses(s, a))
        every = _seconds(lambda s=state, a=asked: [play_response(s, p) for p in a])
        ratios.append(every / lone)
        together.append(joined / lone)
        print(f"  table {seed}: lone ruling {1000 * lone:.1f} ms, what if on 7 cards one by one "
              f"{1000 * every:.0f} ms = {every / lone:.1f} rulings, in one request "
              f"{1000 * joined:.0f} ms = {joined / lone:.1f} rulings")
        if len(ratios) == tables:
            break
    print(f"what if, 7 cards: one by one median {statistics.median(ratios):.1f} lone rulings, "
          f"in one request (POST /api/plays) {statistics.median(together):.1f} "
          f"(target at most 14)")


def bench_discard() -> None:
    names = ["Jackpot", "Draw 2", "Taxation", "Trade Hands", "Milk", "Moon", "Sun", "Bread",
             "Toaster", "Love", "Peace", "Time", "Money", "Dreams", "Sleep", "Chocolate",
             "Cookies", "Television", "Brain", "Rocket", "Rules Reset"]
    state = parse_state({"players": [{"name": "Ann", "hand_size": 2},
                                     {"name": "Bo", "hand": names}],
                         "active": "Ann", "rules": ["Hand Limit 1"],
                         "turn": {"hand_at_start": 2}})
    warm(state)
    lone = statistics.median(_seconds(lambda: ruling_for(state)) for _ in range(3))
    answer: dict = {}
    spent = _seconds(lambda: answer.update(play_response(state, {"kind": "discard",
                                                                 "player": "Bo"})))
    print(f"discard of 20 from a 21-card hand: {1000 * spent:.0f} ms = {spent / lone:.1f} lone "
          f"rulings ({1000 * lone:.1f} ms; {len(answer['outcomes'])} outcomes listed, "
          f"truncated {answer.get('outcomes_truncated', False)}; target at most 10)")


def bench_games(games: int, max_steps: int, jobs: int, group: int) -> None:
    moves = seconds = 0.0
    violations = limits = played = 0
    for edition, expansions in GAMES:
        n = max(1, games // len(GAMES))
        summary = simulate(n, players=3, seed=1000, max_steps=max_steps, edition=edition,
                           expansions=expansions, jobs=jobs, group=group)
        played += n
        moves += summary["moves"]
        seconds += summary["seconds"]
        violations += len(summary["violations"])
        limits += len(summary["time_limits"])
        print(f"  {edition}{'+' + '+'.join(expansions) if expansions else ''}: {n} games, "
              f"{summary['moves']} moves in {summary['seconds']} s, "
              f"{summary['moves_per_second']} moves/s, ended {summary['ended']}")
    per_game = seconds / played
    # each simulate call starts its processes afresh (they parse the programs and build their
    # analyses, a few seconds each): a run of fewer games pays that start more often per game
    # than 1,000 games would, so the figure at this rate is an upper bound
    print(f"games: {played} in {seconds:.1f} s ({jobs} processes, groups of {group}), "
          f"{moves / seconds:.1f} moves/s, {violations} invariant violations, {limits} time "
          f"limits; 1,000 games at this rate (at most {max_steps} moves each): "
          f"{1000 * per_game / 60:.1f} min (target under 10)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    # two groups of every game kind per process: the rate of a long run's groups
    parser.add_argument("--games", type=int, default=len(GAMES) * 2 * GROUP)
    parser.add_argument("--max-steps", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--group", type=int, default=GROUP)
    args = parser.parse_args()
    bench_what_if(args.tables)
    bench_discard()
    bench_games(args.games, args.max_steps, args.jobs, args.group)


if __name__ == "__main__":
    main()
