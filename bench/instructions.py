"""Instructions per ruling, counted by valgrind: the work a ruling does, at any machine speed.

Run by hand (figures are printed, never asserted; needs valgrind, Debian package `valgrind`):

    python bench/instructions.py                 # the 4-player table
    python bench/instructions.py --players 2 4 10 --parts

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
from adjudicator.reader import parse_state
from adjudicator.ruling import ruling_for
data = seated_table({players}, 1)
for _ in range({runs}):
    assert ruling_for(parse_state(data))["ok"]
"""
# clingo's entry points whose inclusive cost --parts prints
PARTS = ("clingo_control_ground", "clingo_program_builder_add", "clingo_control_add",
         "clingo_control_free", "clingo_control_new", "clingo_control_solve",
         "clingo_model_symbols_size", "clingo_symbol_to_string")


def count(players: int, runs: int, out_file: str) -> int:
    """Instructions of a child Python that rules the table `runs` times."""
    code = CHILD.format(bench=str(HERE), players=players, runs=runs)
    env = dict(os.environ, FLUXX_SOLVE_TIMEOUT="100000")
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
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian package `valgrind`)")
        return 1
    print(f"instructions per ruling (callgrind; {HIGH} rulings minus {LOW}, divided by "
          f"{HIGH - LOW}); millions")
    with tempfile.TemporaryDirectory() as tmp:
        for players in args.players:
            low_file, high_file = f"{tmp}/low.out", f"{tmp}/high.out"
            low = count(players, LOW, low_file)
            high = count(players, HIGH, high_file)
            per = (high - low) / (HIGH - LOW)
            print(f"{players} players: {per / 1e6:.2f}M")
            if args.parts:
                a, b = parts(low_file), parts(high_file)
                clingo_total = 0.0
                for name in PARTS:
                    value = (b.get(name, 0) - a.get(name, 0)) / (HIGH - LOW)
                    clingo_total += value
                    if value > 0:
                        print(f"   {name:<28}{value / 1e6:>7.2f}M")
                print(f"   {'the rest (Python)':<28}{(per - clingo_total) / 1e6:>7.2f}M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
