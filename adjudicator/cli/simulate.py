"""`fluxx-adjudicator simulate --games N --players K`: whole games of random legal moves, summed
up (adjudicator/referee/simulate.py)."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError, error


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("simulate", help="play whole games of random legal moves")
    s.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    s.add_argument("--players", type=int, default=3, help="players per game, 2-6 (default 3)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    s.add_argument("--max-steps", type=int, default=300,
                   help="moves per game before it counts as a step cap (default 300)")
    s.add_argument("--json", action="store_true", help="print every game's result as JSON")
    s.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    from ..referee.simulate import simulate

    if not 2 <= args.players <= 6:
        raise InputError(error("/players", "simulate_players"))
    if args.games < 1 or args.max_steps < 1:
        raise InputError(error("/games", "simulate_positive"))
    summary = simulate(args.games, args.players, args.seed, args.max_steps)
    if not args.json:
        summary = {k: v for k, v in summary.items() if k != "results"}
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0 if not summary["violations"] else 1
