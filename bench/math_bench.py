"""How fast is the Math Rules decision (adjudicator/engine/math_search.py)?

    python bench/math_bench.py [-n TABLES]

For 3 to 10 Keepers (random hands from the Math Fluxx deck: Zero x4, One x4, Two x3, Three to
Nine x2, Ten x1) and every Goal with a known number: the decision's p95 (a fresh search, no memo),
beside a plain enumeration of every expression tree (tests/engine/test_math_search.py's brute
force) on the same cases, as far as it finishes (up to ENUMERATION_MAX Keepers), and the ratio.
Then a whole ruling with 8 Keepers under Math Rules (parse, facts, search, clingo, layout) against
a plain 4-player Fluxx ruling (bench/rulings.py's table): p95 of each and the multiple (target at
most 10). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.cards.catalog import catalog_for  # noqa: E402
from adjudicator.engine import math_facts  # noqa: E402
from adjudicator.engine.math_search import decide  # noqa: E402
from adjudicator.referee.ruling import ruling_for  # noqa: E402
from adjudicator.table.reader import parse_state  # noqa: E402
from bench.rulings import p95, seated_table  # noqa: E402
from tests.engine.test_math_search import brute_force  # noqa: E402

ENUMERATION_MAX = 4  # five Keepers already take seconds a case in the plain enumeration
JOINS = math_facts.card_data("math").joins  # the pairs Combine Digits reads together
DECK = [0] * 4 + [1] * 4 + [2] * 3 + [v for v in range(3, 10) for _ in range(2)] + [10]


def targets() -> dict[str, int]:
    game = catalog_for("math", ())
    return {c.id: c.attrs["target"] for c in game
            if c.type == "goal" and isinstance(c.attrs.get("target"), int)}


def hands(n: int, count: int, rng: random.Random) -> list[list[int]]:
    return [sorted(rng.sample(DECK, n)) for _ in range(count)]


def ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def decisions(tables: int, rng: random.Random) -> None:
    goals = sorted(set(targets().values()))
    print(f"decision, {tables} hands x {len(goals)} Goal numbers per size, plain and with "
          "Combine Digits")
    print(f"{'Keepers':>7} {'p95 ms':>8} {'max ms':>8} {'undecided':>9} {'no':>5} "
          f"{'enum p95':>9} {'ratio':>7}")
    for n in range(3, 11):
        times, enum, undecided, no = [], [], 0, 0
        for hand in hands(n, tables, rng):
            for t in goals:
                for combine in (False, True):
                    answer = None

                    def run(hand=hand, t=t, combine=combine) -> None:
                        nonlocal answer
                        answer = decide(hand, t, combine, joins=JOINS)

                    times.append(ms(run))
                    undecided += answer.status == "undecided"
                    no += answer.status == "cannot"
                    if n <= ENUMERATION_MAX:
                        enum.append(ms(lambda h=hand, t=t, c=combine: brute_force(h, t, c)))
        line = f"{n:>7} {p95(times):>8.2f} {max(times):>8.2f} {undecided:>9} {no:>5}"
        if enum:
            line += f" {p95(enum):>9.2f} {p95(enum) / p95(times):>6.1f}x"
        else:
            line += f" {'(capped)':>9}"
        print(line)


def math_table(hand: list[int], goal: str) -> dict:
    game = catalog_for("math", ())
    names = {c.attrs["value"]: c.name_en for c in game
             if c.type == "keeper" and isinstance(c.attrs.get("value"), int)}
    return {"edition": "math", "active": "Ann", "rules": ["Math Rules"], "goals": [goal],
            "players": [{"name": "Ann", "hand_size": 2, "keepers": [names[v] for v in hand]},
                        {"name": "Bo", "hand_size": 2}, {"name": "Cy", "hand_size": 2},
                        {"name": "Di", "hand_size": 2}]}


def rulings(runs: int, rng: random.Random) -> None:
    plain = seated_table(4)
    for _ in range(5):
        ruling_for(parse_state(plain))
    base = [ms(lambda: ruling_for(parse_state(plain))) for _ in range(runs)]
    goal_ids = sorted(targets())
    math_times = []
    for hand in hands(8, runs, rng):
        table = math_table(hand, rng.choice(goal_ids))
        math_facts._DECISIONS.clear()  # a fresh search each time, as for a new table
        math_times.append(ms(lambda t=table: ruling_for(parse_state(t))))
    ratio = p95(math_times) / p95(base)
    print(f"\nwhole ruling: plain 4-player Fluxx p95 {p95(base):.2f} ms; Math Rules, 8 Keepers "
          f"p95 {p95(math_times):.2f} ms: {ratio:.1f}x (target at most 10x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--tables", type=int, default=20)
    args = parser.parse_args(argv)
    rng = random.Random(4)
    decisions(args.tables, rng)
    rulings(max(60, args.tables * 5), rng)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
