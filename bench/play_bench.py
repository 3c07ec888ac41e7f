"""Benchmark of plays: prints plays per second (one card played on a mid-game table, with the
outcome's ruling) and simulated games per second (random legal moves, invariants checked).

    python bench/play_bench.py [--plays 40] [--games 5] [--players 3] [--max-steps 60]

Figures only; nothing is asserted (timings depend on the machine and its load).
"""

from __future__ import annotations

import argparse
import random
import time

from adjudicator.referee.moves import apply_action, legal_actions
from adjudicator.referee.simulate import random_walk, simulate


def mid_game(seed: int, players: int, moves: int = 12):
    """A table some random moves into a game (the simulator's moves)."""
    *_, state = random_walk(seed, players, moves)
    return state


def bench_plays(n: int, players: int) -> None:
    rng = random.Random(0)
    timings = []
    for i in range(n):
        state = mid_game(i, players)
        cards = [a for a in legal_actions(state) if a["kind"] == "play"]
        if not cards:
            continue
        action = rng.choice(cards)
        started = time.perf_counter()
        apply_action(state, action, seed=i)
        timings.append(time.perf_counter() - started)
    total = sum(timings)
    print(f"plays: {len(timings)} in {total:.2f} s = {len(timings) / total:.1f} plays/s "
          f"(all outcomes, each with its ruling; mean {1000 * total / len(timings):.0f} ms)")


def bench_games(games: int, players: int, max_steps: int) -> None:
    summary = simulate(games, players=players, seed=1000, max_steps=max_steps)
    print(f"games: {games} in {summary['seconds']:.2f} s = "
          f"{games / summary['seconds']:.3f} games/s; {summary['moves']} moves = "
          f"{summary['moves_per_second']} moves/s; ended {summary['ended']}; "
          f"average turns {summary['average_turns']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=40)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--max-steps", type=int, default=60)
    args = parser.parse_args()
    bench_plays(args.plays, args.players)
    bench_games(args.games, args.players, args.max_steps)


if __name__ == "__main__":
    main()
