"""Benchmark of moves where players wait: "what if" on every card of a 7-card hand and a
21-card hand's discard to Hand Limit 1, each as a multiple of a lone ruling of the same table,
and simulated games across the editions (moves per second, the time of N games, invariant
violations).

    python bench/play_bench.py [--tables 5] [--hands 5] [--games 1000] [--max-steps 40]
                               [--jobs CORES] [--group 32] [--collector serving|python]
                               [--allocator serving|system]

Figures only; nothing is asserted (timings depend on the machine and its load). The tables are
mid-game tables of simulated games (random legal moves from a deal), the active player's hand
made up to 7 cards from the draw pile, at a moment that player may play a card (the play
phase). Targets (bench/README.md): what if at most 14 lone rulings, the 21-card discard at most
10, 1,000 games under 10 minutes. `--collector serving` (the default) runs with the garbage
collector's thresholds of the served workers (web/server.py), which answer the "what if"s and
discards of users; `python` keeps Python's own, as a process of the CLI has them (the games'
processes of `--jobs` above 1 are spawned with Python's own, whichever is chosen).
`--allocator serving` (the default) runs with jemalloc where the machine has it, as the server
and the simulator do (adjudicator/allocator.py; the games' processes inherit it); `system` keeps
the C library's malloc.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
from dataclasses import replace
from typing import Any

from adjudicator import allocator
from adjudicator.cards.catalog import catalog_for
from adjudicator.engine.speed import batch
from adjudicator.referee.moves import play_response
from adjudicator.referee.ruling import ruling_for, rulings_for
from adjudicator.referee.simulate import GROUP, deal, deck, random_walk, simulate
from adjudicator.referee.source_scope import scope_of
from adjudicator.referee.together import play_responses
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState
from adjudicator.web.server import tune_collector

GAMES = [("fluxx", ()), ("fluxx", ("creepers",)), ("fluxx", ("surprises",)),
         ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


def _seconds(work) -> float:
    return _timed(work)[0]


def _timed(work) -> tuple[float, float]:
    """The wall time and the process's CPU time (all its threads: a request's plays run in
    threads of their own, rounds.py) that `work` takes, in seconds. On this shared machine the
    CPU time is the steadier of the two (bench/README.md)."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def _lone(state: TableState) -> tuple[float, float]:
    """A lone ruling of `state`: the medians of three, wall and CPU time, in seconds."""
    runs = [_timed(lambda: ruling_for(state)) for _ in range(3)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


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
    analyses of it and of the play program (a play, plays asked together and two outcomes ruled
    together on other tables of the game: about three seconds, once per process), the narrow
    program of a discard's outcomes, and the decks of the FAQ entries (read on the first ruling
    that cites one: about 25 ms, once per process)."""
    scope_of("faq:002-01", state.edition)
    batch.tagged_program(state.edition, state.expansions)
    game = (state.edition, tuple(state.expansions))
    # the outcomes of a discard, ruled together: they differ in the discarded cards' places
    batch.NARROW.get((game, frozenset({("discard", 2), ("in_hand", 2), ("hand_copies", 3)})))
    if game not in _WARM:
        _WARM.add(game)
        others = [parse_state(deal(random.Random(-k), 3, state.edition,
                                   state.expansions).to_json()) for k in (1, 2)]
        play_response(others[0], {"kind": "draw"})
        play_responses(others[1], [{"kind": "draw"}, {"kind": "end_turn"}])
        hand = others[1].player(others[1].active).hand or []
        play_responses(others[1], [{"card": c} for c in hand])  # the plays' analysis
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
    together_cpu: list[float] = []
    times: list[tuple[float, float]] = []  # (lone ruling, the 7 plays in one request), seconds
    for seed in range(tables * 12):
        state = seven_card_table(seed)
        if state is None or not may_play_a_card(ruling_for(state)):
            continue
        warm(state)
        lone, lone_cpu = _lone(state)
        asked = [{"card": c} for c in state.player(state.active).hand or []]
        # the 7 plays in one request (POST /api/plays), then one by one: whatever the first
        # leaves in the process's memos helps the second
        joined, joined_cpu = _timed(lambda s=state, a=asked: play_responses(s, a))
        every = _seconds(lambda s=state, a=asked: [play_response(s, p) for p in a])
        ratios.append(every / lone)
        together.append(joined / lone)
        together_cpu.append(joined_cpu / lone_cpu)
        times.append((lone, joined))
        print(f"  table {seed}: lone ruling {1000 * lone:.1f} ms, what if on 7 cards one by one "
              f"{1000 * every:.0f} ms = {every / lone:.1f} rulings, in one request "
              f"{1000 * joined:.0f} ms = {joined / lone:.1f} rulings "
              f"(CPU time {joined_cpu / lone_cpu:.1f})")
        if len(ratios) == tables:
            break
    print(f"what if, 7 cards: one by one median {statistics.median(ratios):.1f} lone rulings, "
          f"in one request (POST /api/plays) {statistics.median(together):.1f} "
          f"(by CPU time {statistics.median(together_cpu):.1f}; target at most 14); medians "
          f"{1000 * statistics.median(t[0] for t in times):.1f} ms a lone ruling, "
          f"{1000 * statistics.median(t[1] for t in times):.0f} ms a request")


def discard_table(hand: list[str]) -> TableState:
    """Bo holds `hand` (21 cards) under Hand Limit 1 while Ann plays: Bo owes a discard of 20."""
    return parse_state({"players": [{"name": "Ann", "hand_size": 2}, {"name": "Bo", "hand": hand}],
                        "active": "Ann", "rules": ["Hand Limit 1"],
                        "turn": {"hand_at_start": 2}})


def bench_discard(hands: int) -> None:
    """The discard of 20 from a 21-card hand: first the process's first such discard, then
    `hands` other hands dealt at random, each a table and 21 outcome tables new to the process
    (the steady state of a server that has answered such a discard before: the relevance
    analysis keeps what it learnt of the program from earlier tables, bench/README.md)."""
    names = ["Jackpot", "Draw 2", "Taxation", "Trade Hands", "Milk", "Moon", "Sun", "Bread",
             "Toaster", "Love", "Peace", "Time", "Money", "Dreams", "Sleep", "Chocolate",
             "Cookies", "Television", "Brain", "Rocket", "Rules Reset"]
    cards = [c for c in deck(catalog_for("fluxx")) if c != "hand_limit_1"]
    rng = random.Random(21)
    ratios: list[float] = []
    ratios_cpu: list[float] = []
    times: list[tuple[float, float]] = []  # (lone ruling, the discard), seconds
    warm(discard_table(names))  # once per game: every hand is of the default game
    for k, hand in enumerate([names] + [rng.sample(cards, 21) for _ in range(hands)]):
        state = discard_table(hand)
        lone, lone_cpu = _lone(state)
        answer: dict = {}
        spent, spent_cpu = _timed(lambda s=state, a=answer: a.update(
            play_response(s, {"kind": "discard", "player": "Bo"})))
        print(f"  {'first' if k == 0 else f'hand {k}'}: {1000 * spent:.0f} ms = "
              f"{spent / lone:.1f} lone rulings ({1000 * lone:.1f} ms; CPU time "
              f"{spent_cpu / lone_cpu:.1f}; {len(answer['outcomes'])} outcomes listed, "
              f"truncated {answer.get('outcomes_truncated', False)})")
        if k:
            ratios.append(spent / lone)
            ratios_cpu.append(spent_cpu / lone_cpu)
            times.append((lone, spent))
    print(f"discard of 20 from a 21-card hand: median {statistics.median(ratios):.1f} lone "
          f"rulings over {hands} new hands after the first (by CPU time "
          f"{statistics.median(ratios_cpu):.1f}; target at most 10); medians "
          f"{1000 * statistics.median(t[0] for t in times):.1f} ms a lone ruling, "
          f"{1000 * statistics.median(t[1] for t in times):.0f} ms a discard")


def bench_games(games: int, max_steps: int, jobs: int, group: int) -> None:
    """`games` games spread over the six game kinds, each kind's in one `simulate` call (its
    processes started for it). At 1,000 games the time printed is the time measured; a
    smaller run's rate counts each call's start (a few seconds) over fewer games, so its
    1,000 games are an upper bound."""
    moves = seconds = 0.0
    violations = limits = played = 0
    for k, (edition, expansions) in enumerate(GAMES):
        n = games // len(GAMES) + (1 if k < games % len(GAMES) else 0)
        if n == 0:
            continue
        summary = simulate(n, players=3, seed=1000, max_steps=max_steps, edition=edition,
                           expansions=expansions, jobs=jobs, group=group)
        played += n
        moves += summary["moves"]
        seconds += summary["seconds"]
        violations += len(summary["violations"])
        limits += len(summary["time_limits"])
        print(f"  {edition}{'+' + '+'.join(expansions) if expansions else ''}: {n} games "
              f"(groups of {summary['group']}), {summary['moves']} moves in "
              f"{summary['seconds']} s, {summary['moves_per_second']} moves/s, "
              f"ended {summary['ended']}")
    measured = played >= 1000
    thousand = seconds if measured else 1000 * seconds / played
    print(f"games: {played} in {seconds:.1f} s ({jobs} processes, groups of at most {group}), "
          f"{moves / seconds:.1f} moves/s, {violations} invariant violations, {limits} time "
          f"limits; 1,000 games (at most {max_steps} moves each): {thousand / 60:.1f} min "
          f"{'measured' if measured else 'at this rate, an upper bound'} (target under 10)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--max-steps", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--group", type=int, default=GROUP)
    parser.add_argument("--collector", choices=("serving", "python"), default="serving")
    parser.add_argument("--allocator", choices=("serving", "system"), default="serving")
    args = parser.parse_args()
    if args.allocator == "serving":
        allocator.use_jemalloc()  # executes this script again with it (the games' processes too)
    if args.collector == "serving":
        tune_collector()
    print(f"garbage collector: {args.collector} thresholds {gc.get_threshold()}; "
          f"malloc: {allocator.in_use()}")
    if args.tables > 0:
        bench_what_if(args.tables)
    if args.hands > 0:
        bench_discard(args.hands)
    if args.games > 0:
        bench_games(args.games, args.max_steps, args.jobs, args.group)


if __name__ == "__main__":
    main()
