"""Instructions per ruling, counted by valgrind: the work a ruling does, at any machine speed.

Run by hand (figures are printed, never asserted; needs valgrind, Debian package `valgrind`):

    python bench/instructions.py                 # the 4-player table
    python bench/instructions.py --players 2 4 10 --parts
    python bench/instructions.py --workload api   # POST /api/ruling, 13 tables in turn
    python bench/instructions.py --workload batch # new batches of 4 tables
    python bench/instructions.py --workload served # the same, from request to answer body

Why: wall and CPU times on a shared virtual machine drift by a third within an hour (the
`machine speed` that bench/rulings.py prints), more than most changes to the engine. valgrind's
callgrind counts the machine instructions a program runs, the same from run to run. A child
Python rules the same table LOW times, then HIGH times, under callgrind; the difference divided
by HIGH - LOW is one ruling without the start-up (imports, parsing the rules, the first
analysis). `--parts` adds what clingo's entry points take of it (grounding, adding statements,
creating and freeing the Control, solving); the rest is Python. Under valgrind a ruling is about
50 times slower, so the engine's time limit is lifted in the child.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOW, HIGH = 5, 25
CHILD = """
import sys
sys.path.insert(0, {bench!r})
from rulings import seated_table
from adjudicator.table.reader import parse_state
from adjudicator.referee.ruling import ruling_for
data = seated_table({players}, 1)
for _ in range({runs}):
    assert ruling_for(parse_state(data))["ok"]
"""
# --workload api: POST /api/ruling through the Flask app (test client: no sockets), the 13
# tables http_load.py rotates; per request
CHILD_API = """
import json, sys
sys.path.insert(0, {bench!r})
from http_load import bodies
from adjudicator.web import create_app
client = create_app().test_client()
posts = bodies()
def post(body):
    answer = client.post("/api/ruling", data=body, content_type="application/json")
    assert answer.status_code == 200
for body in posts * 2:
    post(body)
for body in posts * {runs}:
    post(body)
"""
# --workload batch: batches of 4 of the 12 seated tables http_load.py rotates, each batch a new
# combination (as under load: which tables come together varies); per table
CHILD_BATCH = """
import random, sys
sys.path.insert(0, {bench!r})
from rulings import seated_table
from adjudicator.engine.speed import batch
from adjudicator.cards.catalog import catalog_for
from adjudicator.engine.facts import catalog_text, table_facts
from adjudicator.table.reader import parse_state
game = catalog_for("fluxx", ())
common = catalog_text(game)
tables = [table_facts(parse_state(seated_table(n, seed)), game) for n in (2, 4, 6, 10)
          for seed in (1, 2, 3)]
rng = random.Random(5)
groups = [rng.sample(tables, 4) for _ in range(20 + 10 * {runs})]
for group in groups[:20]:
    assert batch.solve_batch(group, "fluxx", (), common) is not None
for group in groups[20:]:
    assert batch.solve_batch(group, "fluxx", (), common) is not None
"""
# --workload served: what a table costs from request body to answer body when it is ruled in a
# batch of 4 (as under load): the JSON read, the state read, its facts, the batch, the ruling
# rendered and written as JSON; the 12 seated tables of http_load.py, new combinations
CHILD_SERVED = """
import random, sys
sys.path.insert(0, {bench!r})
from http_load import bodies
from adjudicator.engine.speed import batch
from adjudicator.cards.catalog import catalog_for
from adjudicator.engine.facts import catalog_text, table_facts
from adjudicator.table.reader import parse_state
from adjudicator.referee.ruling import ruling_from
import json, orjson
posts = [body for body in bodies() if b"creepers" not in body]
game = catalog_for("fluxx", ())
common = catalog_text(game)
rng = random.Random(5)
groups = [rng.sample(posts, 4) for _ in range(20 + 10 * {runs})]
def serve(group):
    states = [parse_state(json.loads(body)) for body in group]
    solutions = batch.solve_batch([table_facts(s, game) for s in states], "fluxx", (), common)
    for state, solution in zip(states, solutions):
        assert orjson.dumps(ruling_from(state, game, solution))
for group in groups:
    serve(group)
"""
UNITS = {"table": 1, "api": 13, "batch": 40, "served": 40}  # rulings per run
# clingo's entry points whose inclusive cost --parts prints
PARTS = ("clingo_control_ground", "clingo_program_builder_add", "clingo_control_add",
         "clingo_control_free", "clingo_control_new", "clingo_control_solve",
         "clingo_model_symbols_size", "clingo_symbol_to_string")


def count(players: int, runs: int, out_file: str, workload: str = "table") -> int:
    """Instructions of a child Python that rules the table `runs` times (or runs the workload
    `runs` times)."""
    child = {"table": CHILD, "api": CHILD_API, "batch": CHILD_BATCH,
             "served": CHILD_SERVED}[workload]
    code = child.format(bench=str(HERE), players=players, runs=runs)
    # a fixed hash seed: dict and set layouts, and so the counts, alike from run to run
    env = dict(os.environ, FLUXX_SOLVE_TIMEOUT="100000", PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
         sys.executable, "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind run failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def parts(out_file: str) -> dict[str, int]:
    """Inclusive instructions of clingo's entry points in one callgrind output."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                          capture_output=True, text=True, check=False).stdout
    found: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+\S*?:(clingo_\w+) ", line)
        if m and m.group(2) in PARTS:
            found[m.group(2)] = int(m.group(1).replace(",", ""))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--parts", action="store_true", help="what clingo's entry points take")
    ap.add_argument("--workload", choices=sorted(UNITS), default="table",
                    help="table: one table ruled again and again (--players); api: POST "
                         "/api/ruling through the app, 13 tables in turn; batch: new batches of "
                         "4 tables; served: the same from request body to answer body")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian package `valgrind`)")
        return 1
    # a run of the api and batch workloads is 13 and 40 rulings: fewer runs for the same work
    low_runs, high_runs = (LOW, HIGH) if args.workload == "table" else (1, 3)
    unit = UNITS[args.workload] * (high_runs - low_runs)
    print(f"instructions per ruling (callgrind; {args.workload} workload, {high_runs} runs minus "
          f"{low_runs}, divided by the {unit} rulings between); millions")
    with tempfile.TemporaryDirectory() as tmp:
        for players in (args.players if args.workload == "table" else [0]):
            low_file, high_file = f"{tmp}/low.out", f"{tmp}/high.out"
            low = count(players, low_runs, low_file, args.workload)
            high = count(players, high_runs, high_file, args.workload)
            per = (high - low) / unit
            label = f"{players} players" if args.workload == "table" else args.workload
            print(f"{label}: {per / 1e6:.2f}M")
            if args.parts:
                a, b = parts(low_file), parts(high_file)
                clingo_total = 0.0
                for name in PARTS:
                    value = (b.get(name, 0) - a.get(name, 0)) / unit
                    clingo_total += value
                    if value > 0:
                        print(f"   {name:<28}{value / 1e6:>7.2f}M")
                print(f"   {'the rest (Python)':<28}{(per - clingo_total) / 1e6:>7.2f}M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
