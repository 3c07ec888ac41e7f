"""The relevance analysis of fresh fact sets: CPU per trace, this code against another revision's.

The fact sets: every one that needed a fresh analysis (`Relevance._trace`) while the simulator
played games of the default game, with Creepers and Surprises, Math Fluxx and Fluxxnomic (plays
and rulings alike, both halves of the analysis as each program uses them). Each is then analysed
again by this tree's relevance.py and by the one of `--against` (a git revision), in turns, set
by set (the side that goes first flips each time), each side on its own Relevance of the same
program, warmed by the same sets first (`--warm`), the rest measured: CPU time
(time.process_time) per trace. The plans and questions of the two sides are compared too.
Prints figures, asserts nothing.

    python bench/trace_bench.py [--against main] [--games 4] [--moves 40] [--warm 40]
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.engine.speed import relevance  # noqa: E402
from adjudicator.referee.simulate import play_game  # noqa: E402

GAMES = (("fluxx", ()), ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ()))


def other_module(revision: str) -> types.ModuleType:
    """relevance.py as it is at `revision`, as a module of the same package."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{revision}:adjudicator/engine/speed/relevance.py"],
        check=True, capture_output=True, text=True).stdout
    module = types.ModuleType("adjudicator.engine.speed._relevance_other")
    module.__package__ = "adjudicator.engine.speed"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{revision}:relevance.py", "exec"), module.__dict__)
    return module


def collect(games: int, moves: int) -> list[tuple[Any, bool, list[Any]]]:
    """(statements, backwards, indexes) of every fresh trace the simulated games made."""
    found: list[tuple[Any, bool, list[Any]]] = []
    whole = relevance.Relevance._trace

    def recorded(self: relevance.Relevance, indexes: Any) -> Any:
        found.append((self.statements, self.backwards, list(indexes)))
        return whole(self, indexes)

    relevance.Relevance._trace = recorded  # type: ignore[method-assign]
    try:
        for seed in range(games):
            for edition, expansions in GAMES:
                play_game(seed, max_steps=moves, edition=edition, expansions=expansions)
    finally:
        relevance.Relevance._trace = whole  # type: ignore[method-assign]
    return found


def plan_of(trace: Any, questions: Any) -> tuple[Any, ...]:
    return (tuple(id(s) for s in trace.kept), trace.texts, trace.dropped, trace.wanted,
            tuple(questions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="main")
    parser.add_argument("--games", type=int, default=1, help="games of each edition")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--warm", type=int, default=40, help="sets analysed first, not measured")
    args = parser.parse_args()
    other = other_module(args.against)
    sets = collect(args.games, args.moves)
    gc.freeze()  # a collection falls on whichever side happens to allocate then
    gc.disable()
    analyses: dict[tuple[int, bool], tuple[Any, Any]] = {}
    spent = [0.0, 0.0]
    differ = measured = 0
    for n, (statements, backwards, indexes) in enumerate(sets):
        key = (id(statements), backwards)
        if key not in analyses:
            analyses[key] = (relevance.Relevance(statements, backwards),
                             other.Relevance(statements, backwards))
        sides = analyses[key]
        results: list[Any] = [None, None]
        order = (0, 1) if n % 2 else (1, 0)
        times = [0.0, 0.0]
        for side in order:
            start = time.process_time()
            results[side] = sides[side]._trace(indexes)
            times[side] = time.process_time() - start
        differ += plan_of(*results[0]) != plan_of(*results[1])
        if n >= args.warm:
            measured += 1
            spent[0] += times[0]
            spent[1] += times[1]
    print(f"{len(sets)} fresh traces collected, {measured} measured "
          f"({len(analyses)} programs); plans or questions that differ: {differ}")
    if measured:
        print(f"ms CPU per trace: this tree {spent[0] * 1000 / measured:.1f}, "
              f"{args.against} {spent[1] * 1000 / measured:.1f}")


if __name__ == "__main__":
    main()
