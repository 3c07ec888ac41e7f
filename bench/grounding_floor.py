"""Where a lone ruling's time goes, and the floor of grounding a fresh program per ruling.

Run by hand (figures are printed, never asserted):

    python bench/grounding_floor.py            # 60 timed runs per measurement
    python bench/grounding_floor.py -n 200

It prints:
1. clingo's own cost per rule: programs of 100, 300 and 600 one-line rules (each with ten
   instances) grounded in a fresh Control. This is the grounder's fixed cost per rule, whatever
   the facts.
2. Each game's program: statements, rules, the rules that depend on the table (adjudicator/
   rename.py's `per_table_predicates`), and the grounding time with no table and with a 4-player
   table. Together with 1 this is the floor of any design that grounds the rules afresh per
   ruling.
3. A lone 4-player ruling of the default game, stage by stage, each stage timed on its own run
   of the same steps solve.run takes (Control, adding the parsed rules, adding the facts,
   grounding, solving with the shown atoms read, the statistics, freeing the Control), then
   reading the table and rendering the ruling.
4. Why clingo calls per atom matter under load: clingo's Python API releases the GIL on every
   call into the library, so a thread that turns 2,000 symbols into text waits for the GIL
   about once per symbol while another thread runs Python.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import clingo
import clingo.ast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulings import machine, seated_table  # noqa: E402

from adjudicator.cards.catalog import catalog_for  # noqa: E402
from adjudicator.engine import solve  # noqa: E402
from adjudicator.engine.facts import catalog_text, table_facts  # noqa: E402
from adjudicator.engine.speed import rename  # noqa: E402
from adjudicator.referee.ruling import ruling_for  # noqa: E402
from adjudicator.table.reader import parse_state  # noqa: E402

GAMES: list[tuple[str, tuple[str, ...]]] = [
    ("fluxx", ()), ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


def quiet(code: clingo.MessageCode, message: str) -> None:
    """Grounder messages are not what is measured here."""


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def ground_text(program: str) -> None:
    ctl = clingo.Control(logger=quiet)
    ctl.add("base", [], program)
    ctl.ground([("base", [])])


def per_rule_cost(runs: int) -> float:
    print("1. clingo's cost per rule (fresh Control, program text, ground only)")
    print(f"{'rules':>8}{'ground ms':>11}{'us/rule':>9}")
    facts = "q(1..10).\n"
    cost = 0.0
    for n in (100, 300, 600):
        program = facts + "\n".join(f"p{i}(X) :- q(X)." for i in range(n))
        timings: list[float] = []
        for _ in range(runs):
            ctl = clingo.Control(logger=quiet)
            ctl.add("base", [], program)
            t0 = time.perf_counter()
            ctl.ground([("base", [])])
            timings.append((time.perf_counter() - t0) * 1000)
        ms = statistics.median(timings)
        cost = ms * 1000 / n
        print(f"{n:>8}{ms:>11.2f}{cost:>9.1f}")
    return cost


def ground_only(statements: tuple[clingo.ast.AST, ...], texts: list[str], runs: int) -> float:
    timings = []
    for _ in range(runs):
        ctl = clingo.Control(["--models=2"], logger=quiet)
        solve.add_statements(ctl, statements)
        for text in texts:
            ctl.add("base", [], text)
        t0 = time.perf_counter()
        ctl.ground([("base", [])])
        timings.append((time.perf_counter() - t0) * 1000)
    return statistics.median(timings)


def programs(runs: int, cost_us: float) -> dict[str, tuple[int, float]]:
    print("\n2. each game's program (statements added from the cached parse; ground only)")
    print(f"{'game':<28}{'stmts':>6}{'rules':>6}{'table':>6}{'facts':>6}"
          f"{'empty ms':>9}{'4p ms':>7}{'rules x cost':>13}")
    state = parse_state(seated_table(4, 1))
    found: dict[str, tuple[int, float]] = {}
    for edition, expansions in GAMES:
        statements = solve.program(edition=edition, expansions=expansions)
        parsed = solve.parse_private(edition, expansions)
        rules = [s for s in parsed if s.ast_type == clingo.ast.ASTType.Rule]
        facts_only = [s for s in rules if not s.body]
        per_table = rename.per_table_predicates(parsed)
        table_rules = [s for s in rules if rename.signatures(s.head) & per_table]
        game = catalog_for(edition, expansions)
        common = catalog_text(game)
        texts = [common]
        if edition == "fluxx" and not expansions:
            texts.append(table_facts(state, game))
        empty = ground_only(statements, [common], runs)
        four = ground_only(statements, texts, runs) if len(texts) > 1 else float("nan")
        label = "+".join((edition, *expansions))
        body_rules = len(rules) - len(facts_only)
        print(f"{label:<28}{len(statements):>6}{len(rules):>6}{len(table_rules):>6}"
              f"{len(facts_only):>6}{empty:>9.2f}{four:>7.2f}"
              f"{body_rules * cost_us / 1000:>13.2f}")
        found[label] = (body_rules, empty)
    print("   rules: rules and facts; table: rules whose head depends on the table; facts: "
          "rules without a body;\n   rules x cost: the rules with a body times the cost per "
          "rule of part 1")
    return found


def stages(runs: int) -> dict[str, float]:
    print("\n3. a lone 4-player ruling of the default game, stage by stage (median ms), as the "
          "engine runs it:\n   the rules it cannot fire left out (adjudicator/engine/speed/"
          "relevance.py; the table's answer already known)")
    data = seated_table(4, 1)
    state = parse_state(data)
    game = catalog_for("fluxx")
    texts = [table_facts(state, game), catalog_text(game)]
    statements = solve.program(edition="fluxx")
    names = ["control", "prune", "add rules", "add facts", "ground", "solve+read", "atoms",
             "free"]
    samples: dict[str, list[float]] = {n: [] for n in names}
    grounding = solve.plan(statements, texts)
    for _ in range(runs):
        marks = [time.perf_counter()]
        ctl = clingo.Control(["--models=2", "--warn=all", "--warn=no-atom-undefined"],
                             logger=quiet)
        marks.append(time.perf_counter())
        grounding = solve.plan(statements, texts)
        marks.append(time.perf_counter())
        solve.add_statements(ctl, grounding.statements)
        marks.append(time.perf_counter())
        solve.add_statements(ctl, (), grounding.texts)  # parsed fact lines, as solve.run does
        marks.append(time.perf_counter())
        ctl.ground([("base", [])])
        marks.append(time.perf_counter())
        with ctl.solve(yield_=True) as handle:
            shown = [list(m.symbols(shown=True)) for m in handle]
        marks.append(time.perf_counter())
        len(ctl.symbolic_atoms)
        marks.append(time.perf_counter())
        del ctl
        marks.append(time.perf_counter())
        assert len(shown) == 1
        for name, (a, b) in zip(names, zip(marks[:-1], marks[1:], strict=True), strict=True):
            samples[name].append((b - a) * 1000)
    medians = {n: statistics.median(v) for n, v in samples.items()}
    whole = median_ms(lambda: ruling_for(parse_state(data)), runs)
    engine_ms = median_ms(lambda: solve.solve(texts[0], extra=[texts[1]], edition="fluxx"), runs)
    for name in names:
        print(f"   {name:<12}{medians[name]:>7.2f}")
    print(f"   {'sum':<12}{sum(medians.values()):>7.2f}   (solve.solve alone: {engine_ms:.2f})")
    body_rules = solve.pruned(statements, texts)[2]
    left_out = grounding.rules_left_out
    print(f"   rules grounded: {body_rules - left_out} of {body_rules} "
          f"({left_out} left out; {grounding.facts_left_out} facts not handed to clingo)")
    print(f"   whole ruling (read, facts, engine, render): {whole:.2f}")
    return dict(medians, whole=whole, engine=engine_ms, grounded=body_rules - left_out)


def gil_calls() -> None:
    print("\n4. 2,000 symbols turned into text (two clingo calls each)")
    symbols = [clingo.parse_term(f"finding(draw,k{i},(p({i % 10}),{i},3))") for i in range(2000)]

    def to_text() -> float:
        t0 = time.perf_counter()
        for s in symbols:
            str(s)
        return (time.perf_counter() - t0) * 1000

    alone = to_text()
    stop = threading.Event()

    def busy() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    other = threading.Thread(target=busy)
    other.start()
    try:
        contended = to_text()
    finally:
        stop.set()
        other.join()
    print(f"   alone {alone:.1f} ms; while another thread runs Python: {contended:.1f} ms "
          f"(switch interval {sys.getswitchinterval() * 1000:g} ms)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--runs", type=int, default=60, help="timed runs per measurement")
    args = ap.parse_args(argv)
    print(machine())
    print()
    cost = per_rule_cost(args.runs)
    games = programs(args.runs, cost)
    medians = stages(args.runs)
    gil_calls()
    rules, empty = games["fluxx"]
    own_cost = empty * 1000 / rules
    outside = (medians["control"] + medians["prune"] + medians["add rules"]
               + medians["add facts"] + medians["solve+read"] + medians["atoms"] + medians["free"]
               + max(0.0, medians["whole"] - medians["engine"]))
    left = 5.0 - outside
    print(f"\nthe default game's program grounds at about {own_cost:.1f} us per rule with a body "
          f"({rules} rules, {empty:.2f} ms with no table);")
    print(f"a lone ruling spends {outside:.2f} ms outside grounding (Control, pruning, rules, "
          f"facts, solving, atoms, freeing, reading and rendering) and {medians['ground']:.2f} "
          f"ms grounding its {medians['grounded']:.0f} rules;")
    if left > 0:
        room = int(left * 1000 / own_cost)
        print(f"within 5 ms, grounding would have {left:.2f} ms: about {room} rules of this kind")
    else:
        print("within 5 ms nothing would be left for grounding")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
