"""Benchmark: how long a ruling takes for tables of 2, 4 and 6 players.

Prints, per table size, the median and 95th percentile of a full ruling (`ruling_for`: facts,
grounding, solving, JSON) and of the engine alone, and the ground program's size (atoms and
rules of clingo's statistics). Prints figures only; it asserts nothing.

    python bench/ruling_bench.py [--runs 200] [--per-file]

`--per-file` also prints what each concern file of the table's program (the core hub and the
Fluxx hub, docs/ENGINE.md "Programs") adds to grounding the 4-player table (files added one by
one in include order, best of 9 runs each): where to look when rulings get slow.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

import clingo

from adjudicator.engine import solve
from adjudicator.engine.facts import state_facts
from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

HANDS = [["Jackpot", "Taxation", "Trade Hands"], ["Rotate Hands", "Draw 2"],
         ["Steal a Keeper", "Play 3"], ["Everybody Gets 1", "Hand Limit 1"],
         ["Rules Reset", "Trash a Keeper"], ["No Limits", "Empty the Trash"]]
KEEPERS = [["Love", "Peace"], ["Milk", "Cookies", "Bread"], ["Moon"], ["Sun", "Sleep"],
           ["Time", "Money", "Dreams"], ["Rocket"]]


def table(players: int) -> dict:
    return {
        "players": [{"name": f"P{i}", "hand": HANDS[i], "keepers": KEEPERS[i]}
                    for i in range(players)],
        "active": "P0",
        "rules": ["Draw 3", "Play 2", "Keeper Limit 2", "Hand Limit 2", "Poor Bonus",
                  "Rich Bonus", "Inflation", "Reverse Order", "First Play Random"],
        "goals": ["Hippyism"],
        "turn": {"hand_at_start": 2, "drawn": 1, "played": 0},
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ground_ms(files: list[str], facts: str, runs: int = 9) -> float:
    best = float("inf")
    for _ in range(runs):
        ctl = clingo.Control(["--models=2"], logger=lambda code, msg: None)
        for name in files:
            ctl.load(str(solve.hub_path().parent / name))
        ctl.add("base", [], facts)
        started = time.process_time()
        ctl.ground([("base", [])])
        best = min(best, time.process_time() - started)
    return best * 1000


def concern_files(edition: str = "fluxx") -> list[str]:
    """The concern files of the program of `edition`, in include order."""
    files: list[str] = []
    for hub in solve.hub_files(edition):
        files += re.findall(r'^#include "([^"]+)"', hub.read_text(encoding="utf-8"), re.M)
    return files


def per_file() -> None:
    files = concern_files()
    facts = state_facts(parse_state(table(4)))
    print(f"\n{'file (4 players)':<28} {'ground cpu ms':>14} {'added':>8}")
    before = ground_ms([], facts)
    for i, name in enumerate(files):
        now = ground_ms(files[: i + 1], facts)
        print(f"{name:<28} {now:>14.2f} {now - before:>+8.2f}")
        before = now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--per-file", action="store_true", help="grounding cost of each file")
    args = parser.parse_args()
    print("wall ms = elapsed time; cpu ms = this process's CPU time (steadier on a busy machine)")
    print(f"{'players':>7} {'median ms':>10} {'p95 ms':>8} {'cpu median':>11} {'cpu p95':>8} "
          f"{'engine median':>14} {'engine p95':>11} {'atoms':>6} {'rules':>6}")
    for n in (2, 4, 6):
        state = parse_state(table(n))
        facts = state_facts(state)
        ruling_for(state)  # warm-up: parses the .lp files once per process
        wall, cpu, solve_only = [], [], []
        for _ in range(args.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            ruling = ruling_for(state)
            t1, c1 = time.perf_counter(), time.process_time()
            solve.solve(facts, edition=state.edition, expansions=state.expansions)
            t2 = time.perf_counter()
            wall.append((t1 - t0) * 1000)
            cpu.append((c1 - c0) * 1000)
            solve_only.append((t2 - t1) * 1000)
        assert ruling["ok"], ruling
        stats = ruling["engine"]
        print(f"{n:>7} {statistics.median(wall):>10.2f} {percentile(wall, 0.95):>8.2f} "
              f"{statistics.median(cpu):>11.2f} {percentile(cpu, 0.95):>8.2f} "
              f"{statistics.median(solve_only):>14.2f} {percentile(solve_only, 0.95):>11.2f} "
              f"{stats['atoms']:>6} {stats['rules']:>6}")
    if args.per_file:
        per_file()


if __name__ == "__main__":
    main()
