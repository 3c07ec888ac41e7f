"""`fluxx-adjudicator simulate --games N --players K [--edition E] [--expansions X,Y]`: whole
games of random legal moves, summed up (adjudicator/referee/simulate.py)."""

from __future__ import annotations

import argparse
import json

from ..cards.catalog import EDITIONS, EXPANSION_BASE, EXPANSIONS
from ..errors import InputError, error


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("simulate", help="play whole games of random legal moves")
    s.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    s.add_argument("--players", type=int, default=3, help="players per game, 2-6 (default 3)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    s.add_argument("--max-steps", type=int, default=300,
                   help="moves per game before it counts as a step cap (default 300)")
    s.add_argument("--edition", default="fluxx",
                   help=f"the edition dealt: {', '.join(EDITIONS)} (default fluxx)")
    s.add_argument("--expansions", default="",
                   help=f"comma-separated expansions shuffled in ({', '.join(EXPANSIONS)}; "
                        f"{EXPANSION_BASE} only)")
    s.add_argument("--jobs", type=int, default=1,
                   help="groups of games played at once, each in its own process (default 1; "
                        "about the number of cores to use them all)")
    s.add_argument("--group", type=int, default=None,
                   help="games played in lockstep in one process, their calls into the engine "
                        "worked out together (at most; default 32; 1: each game on its own; "
                        "with --jobs, groups that share the processes evenly)")
    s.add_argument("--json", action="store_true", help="print every game's result as JSON")
    s.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    from ..referee.simulate import GROUP, simulate

    if not 2 <= args.players <= 6:
        raise InputError(error("/players", "simulate_players"))
    if args.group is not None and args.group < 1:
        raise InputError(error("/group", "simulate_positive"))
    if args.games < 1 or args.max_steps < 1 or args.jobs < 1:
        raise InputError(error("/jobs" if args.jobs < 1 else "/games", "simulate_positive"))
    if args.edition not in EDITIONS:
        raise InputError(error("/edition", "simulate_edition", list(EDITIONS),
                               editions=", ".join(EDITIONS)))
    expansions = [x.strip() for x in args.expansions.split(",") if x.strip()]
    unknown = [x for x in expansions if x not in EXPANSIONS]
    if unknown or (expansions and args.edition != EXPANSION_BASE):
        raise InputError(error("/expansions", "simulate_expansions", list(EXPANSIONS),
                               expansions=", ".join(EXPANSIONS), base=EXPANSION_BASE))
    summary = simulate(args.games, args.players, args.seed, args.max_steps,
                       edition=args.edition, expansions=expansions, jobs=args.jobs,
                       group=args.group or GROUP)
    if not args.json:
        summary = {k: v for k, v in summary.items() if k != "results"}
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0 if not summary["violations"] and not summary["time_limits"] else 1
