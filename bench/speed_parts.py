"""What each part of the speed machinery buys, on tables that real games reach.

The tables: states the simulator reaches (adjudicator/referee/simulate.py's random legal moves
from a deal of the rulebook deck) in the default game, with Creepers, with Surprises, with both,
in Math Fluxx and in Fluxxnomic, plus every Math Fluxx and Fluxxnomic table of
tests/rules/scenarios/*.yaml; each distinct table once. Every other table warms the process (a
server that has ruled some tables of these games); the rest are measured. For each part, CPU time
(time.process_time) per ruling with the part on and off, the two sides alternating table by
table in this one process (the side that goes first flips each time, so that load from other
processes and what the first side leaves warm fall on both alike): once with the tables new to
both sides, as a server meets the states of a game, then once more, the tables met before. For
lone rulings (`ruling.ruling_for`, as the command line and a quiet server rule) and for batches
(`batch.solve_batch` of BATCH tables of one game, each rendered: what a loaded server does).
Prints figures, asserts nothing.

    python bench/speed_parts.py [--games 1] [--moves 20] [--batch 4] [--save F | --load F]

`--save F` writes the tables collected (the collection is most of a default run's time),
`--load F` rules those instead of simulating anew.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from adjudicator.resources import read_yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.cards.catalog import catalog_for  # noqa: E402
from adjudicator.engine import solve, terms  # noqa: E402
from adjudicator.engine.facts import catalog_text, table_facts  # noqa: E402
from adjudicator.engine.speed import batch, plays, relevance  # noqa: E402
from adjudicator.errors import InputError  # noqa: E402
from adjudicator.memo import Memo  # noqa: E402
from adjudicator.referee import render, ruling  # noqa: E402
from adjudicator.referee.simulate import random_walk  # noqa: E402
from adjudicator.table.reader import parse_state  # noqa: E402
from adjudicator.table.state import TableState  # noqa: E402

GAMES = (("fluxx", ()), ("fluxx", ("creepers",)), ("fluxx", ("surprises",)),
         ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ()))
SCENARIO_EDITIONS = ("math", "fluxxnomic")


# ---- the tables ---------------------------------------------------------------------------------
def simulated(games: int, moves: int) -> Iterator[TableState]:
    for edition, expansions in GAMES:
        for g in range(games):
            yield from random_walk(7000 + g, 2 + (g * 2) % 5, moves, edition, expansions)


def scenario_tables() -> Iterator[TableState]:
    for path in sorted((ROOT / "tests" / "rules" / "scenarios").glob("*.yaml")):
        for case in read_yaml(path) or []:
            data = case.get("state")
            if not isinstance(data, dict) or data.get("edition") not in SCENARIO_EDITIONS:
                continue
            try:
                yield parse_state(data)
            except InputError:
                continue


def distinct(states: Iterator[TableState]) -> list[TableState]:
    seen: set[str] = set()
    out = []
    for state in states:
        facts = table_facts(state, catalog_for(state.edition, state.expansions))
        if facts not in seen:
            seen.add(facts)
            out.append(state)
    return out


def collect(args: argparse.Namespace) -> list[TableState]:
    if args.load:  # pickled: a simulated table mid-move need not be one the reader takes
        return list(pickle.loads(Path(args.load).read_bytes()))
    states = distinct(iter([*simulated(args.games, args.moves), *scenario_tables()]))
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(states))
    return states


# ---- switches -----------------------------------------------------------------------------------
@contextmanager
def env(name: str, value: str) -> Iterator[None]:
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ[name]
        else:
            os.environ[name] = before


@contextmanager
def forwards_only() -> Iterator[None]:
    """The rulings' plan without its backward half (what nothing reads), as plays plan."""
    whole = solve.plan

    def forwards(statements: Any, texts: Any, *, backwards: bool = True) -> relevance.Plan:
        return whole(statements, texts, backwards=False)

    solve.plan = forwards  # type: ignore[assignment]
    try:
        yield
    finally:
        solve.plan = whole  # type: ignore[assignment]


@contextmanager
def parsed_each_time() -> Iterator[None]:
    """Every composition parsed anew (solve._parse uncached); what that adds to the engine's
    caches of analyses and plans is taken out again, so the other side stays warm."""
    cached = solve._parse
    kept = dict(solve._RELEVANCE)
    solve._parse = cached.__wrapped__  # type: ignore[assignment]
    try:
        yield
    finally:
        solve._parse = cached  # type: ignore[assignment]
        solve._RELEVANCE.clear()
        solve._RELEVANCE.update(kept)


def memos() -> list[Memo[Any, Any]]:
    """Every bounded memo of the engine and the ruling (memo.py's): fact lines parsed and read,
    symbols' texts, finding texts, the readings of batches' atoms."""
    found: list[Memo[Any, Any]] = [solve._FACT_LINES, relevance._LINE_FACTS, terms._TEXTS,
                                   render._FINDING_TEXTS]
    built = [*batch.TAGGED.built.values(), *plays.PROGRAMS.built.values()]
    return found + [program.readings for program in built]


@contextmanager
def memos_emptied() -> Iterator[None]:
    """The memos empty, as in a process that meets everything for the first time; what they
    held is put back afterwards, so the other side stays warm."""
    kept = [(memo, dict(memo)) for memo in memos()]
    for memo, _ in kept:
        memo.clear()
    try:
        yield
    finally:
        for memo, held in kept:
            memo.clear()
            memo.update(held)


@contextmanager
def nothing() -> Iterator[None]:
    yield


# ---- measuring ----------------------------------------------------------------------------------
Work = Callable[[], Any]


def rule_alone(state: TableState) -> Work:
    return lambda: ruling.ruling_for(state)


def rule_batch(game: tuple[str, tuple[str, ...]], states: list[TableState]) -> Work:
    """The group ruled in one grounding and each table rendered (a group that does not stand is
    ruled table by table, as the server does)."""
    def work() -> None:
        edition, expansions = game
        catalog = catalog_for(edition, expansions)
        solutions = batch.solve_batch([table_facts(s, catalog) for s in states], edition,
                                      expansions, catalog_text(catalog))
        if solutions is None:
            for state in states:
                ruling.ruling_for(state, catalog)
        else:
            for state, solution in zip(states, solutions, strict=True):
                ruling.ruling_from(state, catalog, solution)
    return work


def cpu(work: Work, switch: Callable[[], Any] | None = None,
        before: Callable[[], None] | None = None) -> float:
    """CPU seconds of one piece of work, with `switch` (a context) around it and `before` done
    first, untimed."""
    with (switch() if switch is not None else nothing()):
        if before is not None:
            before()
        started = time.process_time()
        work()
        return time.process_time() - started


def in_turns(warm: list[Work], works: list[Work], off: Callable[[], Any] | None = None,
             before: Callable[[], None] | None = None,
             other: Callable[[Work], Work] | None = None) -> tuple[float, float, float, float]:
    """CPU seconds of every piece of `works` with the part on and off, the two sides
    alternating piece by piece (the side that goes first flips each time, so that a drift of
    the machine's speed, and what the first of the two leaves warm for the other, fall on both
    alike): first when the tables are new (after a pass of each side over `warm`: tables of
    other games), then once more, the tables met before. `other`: the off side's work for a
    piece (by default the same work with `off` switched on around it). Returns on and off for
    new tables, on and off for tables met before."""
    def side_b(work: Work) -> float:
        return cpu(other(work) if other is not None else work, off, before)

    for work in warm:
        cpu(work)
        side_b(work)
    spent = [0.0, 0.0, 0.0, 0.0]
    flip = False
    for turn in (0, 2):
        for work in works:
            if flip:
                spent[turn + 1] += side_b(work)
                spent[turn] += cpu(work)
            else:
                spent[turn] += cpu(work)
                spent[turn + 1] += side_b(work)
            flip = not flip
    return spent[0], spent[1], spent[2], spent[3]


def groups_of(states: list[TableState], size: int) -> list[tuple[tuple[str, tuple[str, ...]],
                                                                 list[TableState]]]:
    by_game: dict[tuple[str, tuple[str, ...]], list[TableState]] = {}
    for state in states:
        by_game.setdefault((state.edition, tuple(sorted(state.expansions))), []).append(state)
    out = []
    for game, members in by_game.items():
        for start in range(0, len(members) - size + 1, size):
            out.append((game, members[start:start + size]))
    return out


def trace_misses(states: list[TableState]) -> Iterator[tuple[str, int, float]]:
    """For each bound on the relevance answers kept per program: fresh analyses in one pass
    over the tables once the kept answers are warm, and ms per ruling."""
    made = [0]
    whole = relevance.Relevance._trace

    def counted(self: relevance.Relevance, *args: Any) -> Any:
        made[0] += 1
        return whole(self, *args)

    relevance.Relevance._trace = counted  # type: ignore[method-assign]
    bound = relevance.TRACES
    try:
        for label, traces in (("16", 16), (f"{bound} (now)", bound)):  # 16: the old bound
            relevance.TRACES = traces
            for _, analysis in solve._RELEVANCE.values():
                analysis._answers.clear()
            for state in states:  # warm: every table's answer is kept if the bound allows
                ruling.ruling_for(state)
            made[0] = 0
            spent = sum(cpu(rule_alone(state)) for state in states)
            yield label, made[0], spent * 1000 / len(states)
    finally:
        relevance.TRACES = bound
        relevance.Relevance._trace = whole  # type: ignore[method-assign]


def row(name: str, how: str, spent: tuple[float, float, float, float], count: int) -> str:
    """ms per ruling on and off, what the part saves and that as a share of the ruling with it
    on (negative: it costs), for new tables and for tables met before."""
    on, off, on_again, off_again = (x * 1000 / count for x in spent)
    return (f"{name:48} {how:22} {on:7.2f} {off:7.2f} {off - on:6.2f} {(off - on) / on:5.0%}  "
            f"{on_again:7.2f} {off_again:7.2f} {off_again - on_again:6.2f} "
            f"{(off_again - on_again) / on_again:5.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="simulated games per game kind")
    parser.add_argument("--moves", type=int, default=20, help="moves per simulated game at most")
    parser.add_argument("--batch", type=int, default=4, help="tables per batch")
    parser.add_argument("--save", help="write the tables collected to this file")
    parser.add_argument("--load", help="rule the tables of this file (from --save)")
    args = parser.parse_args()

    started = time.process_time()
    states = collect(args)
    kinds: dict[str, int] = {}
    for s in states:
        name = "+".join((s.edition, *sorted(s.expansions)))
        kinds[name] = kinds.get(name, 0) + 1
    print(f"{len(states)} distinct tables ({', '.join(f'{k} {v}' for k, v in kinds.items())}); "
          f"collected in {time.process_time() - started:.1f} s CPU")
    # every other table warms (a server that has ruled some tables of these games), the rest
    # are measured: each new to both sides at first
    warm_states, measured = states[0::2], states[1::2]
    warm = [rule_alone(s) for s in warm_states]
    alone = [rule_alone(s) for s in measured]
    groups = groups_of(measured, args.batch)
    warm_batches = [rule_batch(game, members) for game, members in groups_of(warm_states,
                                                                              args.batch)]
    batches = [rule_batch(game, members) for game, members in groups]
    in_groups = sum(len(g) for _, g in groups)
    print(f"ms of CPU per ruling, each part on and off, alternating table by table (lone) and "
          f"batch by batch ({len(groups)} batches of {args.batch}), over {len(measured)} tables "
          f"new to both sides, then over the same tables met before\n")
    print(f"{'part':48} {'off by':22} {'new: on':>7} {'off':>7} {'saves':>6} {'':>5}  "
          f"{'met: on':>7} {'off':>7} {'saves':>6}")

    parts: list[tuple[str, str, Callable[[], Any], Callable[[], None] | None]] = [
        ("relevance (cannot fire, nothing reads)", "FLUXX_PRUNE=0",
         lambda: env("FLUXX_PRUNE", "0"), None),
        ("  of which the backward half (nothing reads)", "plan(backwards=False)",
         forwards_only, None),
        ("memos (memo.py: fact lines, texts, readings)", "emptied before each",
         memos_emptied, None),
    ]
    for name, how, switch, before in parts:
        print(row(name, how, in_turns(warm, alone, switch, before), len(alone)))
        print(row("  in batches", how, in_turns(warm_batches, batches, switch, before),
                  in_groups))

    # batches: the tables of a batch ruled in one grounding against each ruled alone
    def each_alone(work: Work) -> Work:
        members = (groups[batches.index(work)] if work in batches else
                   groups_of(warm_states, args.batch)[warm_batches.index(work)])[1]
        return lambda: [ruling.ruling_for(s) for s in members]

    print(row(f"batches (one grounding for {args.batch} tables)", "each table alone",
              in_turns(warm_batches, batches, other=each_alone), in_groups))

    # the parsed programs kept per process: off, every ruling parses its composition anew (and
    # analyses it anew: the analysis is kept with the parsed program); a few tables suffice
    few = alone[:: max(1, len(alone) // 3)][:3]
    print(row(f"parsed programs kept ({len(few)} tables)", "parsed for each ruling",
              in_turns([], few, parsed_each_time), len(few)))

    print("\nrelevance answers kept per program (relevance.TRACES): fresh analyses in a pass "
          "over every table once every answer was made")
    for label, made, ms in trace_misses(states):
        print(f"  {label:>14}: {made:4d} analyses of {len(states)} tables, {ms:.2f} ms a ruling")
    print(f"\ntotal {time.process_time() - started:.1f} s CPU")


if __name__ == "__main__":
    main()
