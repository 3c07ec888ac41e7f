"""How fast is a ruling? In process, for 2, 4, 6 and 10 players and a crowded table.

Run by hand (figures are printed, never asserted):

    python bench/rulings.py            # 100 timed runs per table
    python bench/rulings.py -n 300 --profile

For every table the script times, in the same run and on the same facts:
- the service: `parse_state` + `ruling_for` + `json.dumps` (what POST /api/ruling does minus HTTP),
  with a breakdown (read, facts, engine, render);
- bare clingo: a fresh `clingo.Control`, the hub files of the table's game (its edition's and
  expansions' composition, as the service grounds: solve.hub_files) loaded from disk, the same
  facts added, ground, solve (models enumerated, shown atoms read) -- what a plain clingo user
  would run;
- ground+solve only: the same, with the parsed program cached as the engine does (the floor of
  any design that builds a fresh solver per request).
The overhead ratio is service / bare clingo. Targets (bench/README.md): 4 players < 5 ms median,
overhead < 1.5x, cost from 2 to 10 players <= 3x.
Then, batched (adjudicator/engine/speed/batch.py): the engine's cost per table when 1 to 16
tables of one game are grounded together, and a whole ruling's CPU time when 16 threads ask at once.
It runs with the server's memory allocator, jemalloc where the machine has it
(adjudicator/allocator.py); `--allocator system` keeps the C library's malloc.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

import clingo
import clingo.ast

from adjudicator import allocator
from adjudicator.cards.catalog import catalog_for
from adjudicator.engine import solve
from adjudicator.engine.facts import catalog_text, state_facts, table_facts
from adjudicator.engine.speed import batch
from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state

Game = tuple[str | None, tuple[str, ...]]  # (edition, expansions); no edition: the full hub
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
TABLE_RULES = ["draw_2", "play_2", "hand_limit_2", "keeper_limit_3"]


def seated_table(players: int, seed: int = 7) -> dict[str, Any]:
    """A mid-game table: every player holds 3 known cards and 1 Keeper; 4 rules, 1 Goal."""
    game = catalog_for("fluxx")
    rng = random.Random(seed)
    keepers = [c.id for c in game.of_type("keeper")]
    rng.shuffle(keepers)
    goal = "hippyism"
    used = set(TABLE_RULES) | {goal} | set(keepers[:players])
    deck = [c.id for c in game if c.playable and c.id not in used and c.type != "keeper"]
    rng.shuffle(deck)
    seats = []
    for i in range(players):
        seats.append({"name": NAMES[i], "hand": deck[3 * i: 3 * i + 3], "keepers": [keepers[i]]})
    return {"edition": "fluxx", "players": seats, "active": NAMES[0], "rules": TABLE_RULES,
            "goals": [goal], "turn": {"hand_at_start": 3, "drawn": 1, "played": 0},
            "discard_pile": deck[3 * players: 3 * players + 3]}


def crowded_table(players: int = 6) -> dict[str, Any]:
    """Every card of Fluxx with the Creepers and Surprises in play: all Keepers and Creepers
    dealt round the table, every New Rule and Meta Rule on the table, two Goals (Double Agenda
    is among the rules), every other card in a hand."""
    game = catalog_for("fluxx", ("creepers", "surprises"))
    seats: list[dict[str, Any]] = [
        {"name": NAMES[i], "hand": [], "keepers": [], "creepers": []} for i in range(players)]
    for i, card in enumerate(c.id for c in game.of_type("keeper")):
        seats[i % players]["keepers"].append(card)
    for i, card in enumerate(c.id for c in game.of_type("creeper")):
        seats[i % players]["creepers"].append(card)
    rules = [c.id for c in game.of_type("new_rule", "meta_rule")]
    goals = [c.id for c in game.of_type("goal")]
    rest = goals[2:] + [c.id for c in game.of_type("action", "surprise", "promo")]
    for i, card in enumerate(rest):
        seats[i % players]["hand"].append(card)
    return {"edition": "fluxx", "expansions": ["creepers", "surprises"], "players": seats,
            "active": NAMES[0], "rules": rules, "goals": goals[:2], "draw_pile": 0,
            "turn": {"hand_at_start": len(seats[0]["hand"]), "drawn": 0, "played": 0}}


def tables() -> list[tuple[str, dict[str, Any]]]:
    out = [(f"{n} players", seated_table(n)) for n in (2, 4, 6, 10)]
    out.append(("crowded (6p, all cards)", crowded_table()))
    return out


# --- what is timed -------------------------------------------------------------------------

def service(data: dict[str, Any]) -> str:
    return json.dumps(ruling_for(parse_state(data)), ensure_ascii=False)


def service_unpruned(data: dict[str, Any]) -> str:
    """The service with every rule grounded (FLUXX_PRUNE=0: engine/speed/relevance.py off)."""
    before = os.environ.get(solve.PRUNE_ENV)
    os.environ[solve.PRUNE_ENV] = "0"
    try:
        return service(data)
    finally:
        if before is None:
            del os.environ[solve.PRUNE_ENV]
        else:
            os.environ[solve.PRUNE_ENV] = before


def _ground_and_solve(ctl: clingo.Control, facts: str) -> int:
    """Adds the facts, grounds and solves; the number of shown atoms (so nothing is skipped)."""
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    shown = 0
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            shown += len(model.symbols(shown=True))
    return shown


def bare_clingo(facts: str, game: Game = (None, ())) -> int:
    """Plain clingo: load the hub files of the game (the full hub without an edition) from disk,
    add the facts, ground, solve."""
    ctl = clingo.Control(["--models=2"])
    for path in solve.hub_files(*game):
        ctl.load(str(path))
    return _ground_and_solve(ctl, facts)


def ground_solve(facts: str, game: Game = (None, ())) -> int:
    """The floor of a fresh solver per request: the parsed program is cached (as solve.py does);
    only building the Control, grounding and solving are timed."""
    ctl = clingo.Control(["--models=2"])
    # cached ASTs go through the engine's lock
    solve.add_statements(ctl, solve.program(edition=game[0], expansions=game[1]))
    return _ground_and_solve(ctl, facts)


def game_of(data: dict[str, Any]) -> Game:
    state = parse_state(data)
    return state.edition, tuple(state.expansions)


def timed(fn: Callable[[], Any], runs: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def interleaved(fns: list[Callable[[], Any]], runs: int,
                warmup: int = 3) -> list[tuple[list[float], list[float]]]:
    """Times each function `runs` times, taking turns, so that a change in the machine's load
    during the run touches every mode alike. Per function: (wall ms, CPU ms) samples; the CPU
    time of this process (every thread: clingo solves in its own) is what a ruling costs even
    when other programs share the machine."""
    for fn in fns:
        for _ in range(warmup):
            fn()
    out: list[tuple[list[float], list[float]]] = [([], []) for _ in fns]
    for _ in range(runs):
        for fn, (wall, cpu) in zip(fns, out, strict=True):
            started, cpu_started = time.perf_counter(), time.process_time()
            fn()
            cpu.append((time.process_time() - cpu_started) * 1000)
            wall.append((time.perf_counter() - started) * 1000)
    return out


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[18] if len(samples) >= 20 else max(samples)


def stages(data: dict[str, Any], runs: int) -> dict[str, float]:
    """Median milliseconds of each stage of a ruling."""
    state = parse_state(data)
    game = catalog_for(state.edition, state.expansions)
    facts = state_facts(state, game)
    composition = {"edition": state.edition, "expansions": state.expansions}
    solution = solve.solve(facts, **composition)
    read = statistics.median(timed(lambda: parse_state(data), runs))
    fact = statistics.median(timed(lambda: state_facts(state, game), runs))
    eng = statistics.median(timed(lambda: solve.solve(facts, **composition), runs))
    # render: ruling_for with the engine's answer given (the difference of two medians was
    # mostly noise: freeing a Control lands on whichever call the garbage collector picks)
    with mock.patch.object(batch, "solve", return_value=solution):
        render = statistics.median(timed(lambda: ruling_for(state, game), runs))
    return {"read": read, "facts": fact, "engine": eng, "render": max(0.0, render - fact),
            "ground_ms": solution.stats.get("ground_ms", 0.0), "atoms": solution.stats["atoms"],
            "statements": len(solve.program(**composition))}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                         cpu)
    except OSError:
        model = cpu
    return (f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, "
            f"clingo {clingo.__version__}, load average {os.getloadavg()[0]:.2f}, "
            f"machine speed {speed():.0f} ms")


def speed() -> float:
    """CPU milliseconds of a fixed pure-Python loop (the best of three): how fast this machine
    runs at the moment. A shared virtual machine's speed drifts (the same loop can take twice as
    long an hour later), and every figure drifts with it: compare runs with it."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        sum(i * i for i in range(3_000_000))
        best = min(best, (time.process_time() - started) * 1000)
    return best


def batched(runs: int) -> None:
    """Tables of one game ruled in one grounding (adjudicator/engine/speed/batch.py): the engine's
    cost per table for batches of 1 to 16 four-player tables, and a whole ruling's CPU per table
    when 16 threads ask for rulings at once (as a threaded server's requests do)."""
    states = [parse_state(seated_table(4, seed)) for seed in range(16)]
    game = catalog_for("fluxx")
    facts = [table_facts(s, game) for s in states]
    common = catalog_text(game)
    print("\nbatched (engine/speed/batch.py): 4-player tables of one game in one grounding")
    print(f"{'tables':>8}{'batch ms':>10}{'per table':>11}")
    for k in (1, 2, 4, 8, 16):
        def run(k: int = k) -> None:
            if k == 1:
                solve.solve(facts[0] + common, edition="fluxx")
            else:
                assert batch.solve_batch(facts[:k], "fluxx", (), common) is not None
        samples = [t for t, _ in (timed_once(run) for _ in range(runs))]
        m = statistics.median(samples)
        print(f"{k:>8}{m:>10.2f}{m / k:>11.2f}")
    done = [0]
    lock = threading.Lock()
    stop = time.perf_counter() + 5.0

    def caller(i: int) -> None:
        while time.perf_counter() < stop:
            service(seated_table(4, i))
            with lock:
                done[0] += 1

    cpu0, wall0 = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=caller, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"16 threads asking at once: {done[0] / wall:.0f} rulings per second in one process, "
          f"{cpu * 1000 / done[0]:.2f} ms CPU per ruling (service: read, facts, engine, render)")


def timed_once(fn: Callable[[], Any]) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--runs", type=int, default=100, help="timed runs per table and mode")
    ap.add_argument("--profile", action="store_true",
                    help="also print the median of each stage of a ruling")
    ap.add_argument("--allocator", choices=("serving", "system"), default="serving",
                    help="serving: jemalloc where the machine has it, as the server runs "
                         "(adjudicator/allocator.py); system: the C library's malloc")
    args = ap.parse_args(argv)
    if args.allocator == "serving" and argv is None:
        allocator.use_jemalloc()  # executes this script again with it
    print(f"{machine()}, malloc {allocator.in_use()}")
    print(f"{args.runs} timed runs per table; milliseconds\n")
    print("service: parse_state + ruling_for + json.dumps; bare: clingo loads the hub files of the "
          "table's game (edition and\nexpansions), grounds and solves the same facts; gr+sol: the "
          "same with the parsed program cached;\nall: the service grounding every rule "
          "(FLUXX_PRUNE=0, no rule left out: adjudicator/engine/speed/relevance.py);\n"
          "wall = median and p95 wall clock, cpu = median "
          "CPU time, min = fastest run\n"
          "(on a busy machine the fastest run is the closest to the cost on an idle one)\n")
    head = (f"{'table':<24}{'atoms':>6} | {'service':>7}{'p95':>7}{'cpu':>6}{'min':>6} | "
            f"{'bare':>7}{'p95':>7}{'cpu':>6}{'min':>6} | {'gr+sol':>6}{'min':>6} | "
            f"{'ratio':>5}{'cpu':>6}{'min':>6} | {'all':>5}")
    print(head)
    print("-" * len(head))
    medians: dict[str, float] = {}
    cpu_medians: dict[str, float] = {}
    mins: dict[str, float] = {}
    for label, data in tables():
        state = parse_state(data)
        facts = state_facts(state)
        game = game_of(data)
        atoms = solve.solve(facts, edition=game[0], expansions=game[1]).stats["atoms"]
        (svc, svc_cpu), (bare, bare_cpu), (floor, floor_cpu), (full, _) = interleaved(
            [lambda d=data: service(d), lambda f=facts, g=game: bare_clingo(f, g),
             lambda f=facts, g=game: ground_solve(f, g), lambda d=data: service_unpruned(d)],
            args.runs)
        med = statistics.median
        m_svc, m_bare = med(svc), med(bare)
        medians[label] = m_svc
        cpu_medians[label] = med(svc_cpu)
        mins[label] = min(svc)
        print(f"{label:<24}{atoms:>6} | "
              f"{m_svc:>7.1f}{p95(svc):>7.1f}{med(svc_cpu):>6.1f}{min(svc):>6.1f} | "
              f"{m_bare:>7.1f}{p95(bare):>7.1f}{med(bare_cpu):>6.1f}{min(bare):>6.1f} | "
              f"{med(floor):>6.1f}{min(floor):>6.1f} | "
              f"{m_svc / m_bare:>4.2f}x{med(svc_cpu) / med(bare_cpu):>5.2f}x"
              f"{min(svc) / min(bare):>5.2f}x | {med(full):>5.1f}")
        if args.profile:
            s = stages(data, max(10, args.runs // 4))
            print(f"{'':<24}stages: read {s['read']:.2f}, facts {s['facts']:.2f}, "
                  f"engine {s['engine']:.2f} (ground {s['ground_ms']:.2f} in the last run), "
                  f"render {s['render']:.2f}; program {s['statements']} statements "
                  f"({'+'.join(filter(None, (game[0], *game[1])))})")
    print("\nthe service alone, one ruling after another (nothing else timed in between: the "
          "columns above take turns\nwith bare clingo and the full program, whose groundings "
          "crowd the caches and the allocator)")
    alone: dict[str, float] = {}
    for label, data in tables():
        samples = timed(lambda d=data: service(d), 3 * args.runs)
        alone[label] = statistics.median(samples)
        print(f"{label:<24} median {alone[label]:>5.2f}  p95 {p95(samples):>5.2f}  "
              f"min {min(samples):>5.2f}")
    batched(max(5, args.runs // 4))
    growth = medians["10 players"] / medians["2 players"]
    cpu_growth = cpu_medians["10 players"] / cpu_medians["2 players"]
    print()
    print(f"4-player ruling median: {medians['4 players']:.2f} ms wall, "
          f"{cpu_medians['4 players']:.2f} ms CPU, fastest {mins['4 players']:.2f} ms; "
          f"alone {alone['4 players']:.2f} ms (target < 5 ms)")
    print(f"cost growth 2 -> 10 players: {growth:.2f}x wall, {cpu_growth:.2f}x CPU, "
          f"{mins['10 players'] / mins['2 players']:.2f}x fastest (target <= 3x)")
    print("ratio = service median / bare clingo median (target < 1.5x)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (above {os.cpu_count()}: other "
          "programs competed for the CPUs; trust the CPU columns more)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
