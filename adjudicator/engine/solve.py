"""Runs the rules engine: the program of a table's game plus the facts of one table state.

A game's program is composed of hub files (rules_asp/hubs/ruling_*.lp, each a list of #include):
the core hub, the hub of the edition and the hub of each expansion (`hub_files`); a table is
grounded with only the rules its game can use (grounding costs about the same per rule whatever
the facts). Without an edition the program is the full hub rules_asp/hubs/ruling.lp, which
includes every hub. The move program (referee/moves.py) is composed the same way from
rules_asp/hubs/moves_*.lp.

The .lp files of a composition are parsed once per process (the parsed statements are cached,
comments dropped); every call builds a fresh `clingo.Control`, so concurrent requests never share
solver state. A state must have exactly one answer set: the solver is asked for two, and zero or
two are reported as an engine error (never a silent pick). Grounder warnings are captured, not
printed. Grounding plus solving runs under a time limit (`time_limit()`); hitting it raises
`TimeLimitError`, never a hang.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import clingo
import clingo.ast

from ..errors import InputError, error
from ..memo import Memo
from ..resources import rules_dir
from . import terms
from .speed.relevance import Plan, Relevance, fact_lines

HUBS = "hubs"  # the folder of rules_asp/ that holds every hub
HUB = "ruling.lp"  # the full ruling program: every ruling hub
PLAY_HUB = "moves.lp"  # the full move program: every move hub
# Hub file names: <prefix>_core.lp, <prefix>_<edition>.lp, <prefix>_<expansion>.lp.
HUB_PREFIX = "ruling"
PLAY_HUB_PREFIX = "moves"
CORE = "core"
# The parsed program is shared by every thread of a process, and clingo's AST objects are not
# thread-safe: two threads adding the same statements to their own Controls at once corrupt
# them ("invalid ast: term expected" on every later call, then a segmentation fault). Parsing
# and adding statements therefore hold this lock; grounding and solving run in parallel.
_AST_LOCK = threading.Lock()
# Grounding plus solving one table must end within this many seconds (env FLUXX_SOLVE_TIMEOUT
# overrides): a pathological table is answered with an error, never a hung worker.
TIME_LIMIT_ENV = "FLUXX_SOLVE_TIMEOUT"
DEFAULT_TIME_LIMIT_S = 10.0


class TimeLimitError(InputError):
    """The engine hit its time limit: a 400 in the contract's error shape, CLI exit 2."""

    def __init__(self, limit_s: float, path: str = "") -> None:
        super().__init__(error(path, "time_limit", limit=f"{limit_s:g}"))
        self.limit_s = limit_s


def time_limit() -> float:
    """Seconds allowed for grounding and solving one table (FLUXX_SOLVE_TIMEOUT, default 10)."""
    raw = os.environ.get(TIME_LIMIT_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_TIME_LIMIT_S
    return value if value > 0 else DEFAULT_TIME_LIMIT_S


class _Watchdog:
    """One thread per process that interrupts a search past its deadline.

    Solving runs in the caller's thread (clingo's `yield_` mode); a call only registers its
    Control here and removes it when done, so there is no thread or wake-up per ruling (a
    background solve per call, clingo's `async_`, costs a thread switch and a wait per ruling,
    more than a small table's search). The thread polls at
    most every `POLL_S` seconds while a search is registered: a deadline is kept within that
    margin. It is started lazily in each process (gunicorn forks its workers).
    """

    POLL_S = 0.1

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[int, tuple[float, clingo.Control]] = {}
        self._count = 0
        self._pid = 0

    def watch(self, ctl: clingo.Control, deadline: float) -> int:
        with self._lock:
            if self._pid != os.getpid():
                self._pid = os.getpid()
                threading.Thread(target=self._loop, name="clingo-watchdog", daemon=True).start()
            self._count += 1
            self._running[self._count] = (deadline, ctl)
            return self._count

    def release(self, key: int) -> bool:
        """Unregisters a search; False if the watchdog interrupted it first."""
        with self._lock:
            return self._running.pop(key, None) is not None

    def _loop(self) -> None:
        while True:
            with self._lock:
                now = time.perf_counter()
                for key, (deadline, ctl) in list(self._running.items()):
                    if deadline <= now:
                        del self._running[key]  # released under the lock: ctl is still alive
                        ctl.interrupt()
                earliest = min((d for d, _ in self._running.values()), default=now + 1.0)
            time.sleep(min(self.POLL_S, max(0.001, earliest - now)))


_WATCHDOG = _Watchdog()


def solve_within(ctl: clingo.Control, started: float,
                 on_model: Callable[[clingo.Model], object],
                 limit_s: float | None = None,
                 assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> None:
    """Solves a grounded `ctl` (under `assumptions`), calling `on_model` per answer set, within
    the time left of the limit counted from `started` (a `time.perf_counter()` value taken
    before grounding).

    Grounding cannot be interrupted, so its time is checked once it ends (the reader's size caps
    keep it bounded); the search is interrupted at the deadline (within `_Watchdog.POLL_S`).
    Either way the limit raises `TimeLimitError`.
    """
    limit = time_limit() if limit_s is None else limit_s
    remaining = limit - (time.perf_counter() - started)
    if remaining <= 0:
        raise TimeLimitError(limit)
    key = _WATCHDOG.watch(ctl, time.perf_counter() + remaining)
    try:
        with ctl.solve(assumptions=list(assumptions), yield_=True) as handle:
            for model in handle:
                on_model(model)
            interrupted = handle.get().interrupted
    finally:
        in_time = _WATCHDOG.release(key)
    if interrupted or not in_time:
        raise TimeLimitError(limit)


@dataclass
class Solution:
    """What one run of the engine produced."""

    models: int  # 0, 1 or 2 (2 means "more than one")
    # the shown atoms of the first answer set: clingo's symbols (or their handles, when
    # run(shown_handles=True) was asked), or terms.Term when the table was ruled in a batch
    symbols: list[Any]
    warnings: list[str] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.models == 1


def hubs_dir() -> Path:
    return rules_dir() / HUBS


def hub_path() -> Path:
    return hubs_dir() / HUB


def hub_files(edition: str | None = None, expansions: Iterable[str] = (), *,
              play: bool = False) -> tuple[Path, ...]:
    """The hub files of the program for a game of `edition` with `expansions`: the core hub, the
    edition's hub and each expansion's hub (in name order), or the full hub when no edition is
    given. With `play`, the play program's hubs instead: the play core hub and the play hub of
    each expansion that has one (the editions have no play files of their own).

    Which concern files each hub includes is data in rules_asp/, never here. An edition or an
    expansion without a rules hub raises ValueError (the reader only lets known names through).
    """
    folder = hubs_dir()
    if edition is None:
        return (folder / (PLAY_HUB if play else HUB),)
    parts = (edition, *sorted(set(expansions)))
    for part in parts:
        if part == CORE or not (folder / f"{HUB_PREFIX}_{part}.lp").is_file():
            raise ValueError(f"no rules hub for the edition or expansion {part!r}")
    prefix = PLAY_HUB_PREFIX if play else HUB_PREFIX
    paths = [folder / f"{prefix}_{part}.lp" for part in (CORE, *parts)]
    return tuple(p for p in paths if not play or p.is_file())


@cache
def _parse(paths: tuple[str, ...]) -> tuple[clingo.ast.AST, ...]:
    """The parsed statements of the files and of every file they include, without comments.

    One parse for the whole composition: clingo includes a file once per parse, so a concern
    file that two hubs include is added once. clingo 5.8 parses comments into statements (about
    a third of them); they cost time to add and mean nothing to the grounder."""
    statements: list[clingo.ast.AST] = []

    def keep(statement: clingo.ast.AST) -> None:
        if statement.ast_type != clingo.ast.ASTType.Comment:
            statements.append(statement)

    def quiet(code: clingo.MessageCode, message: str) -> None:
        # "already included file": the point of one parse; any other message is printed
        if "already included" not in message:
            print(message, file=sys.stderr)

    clingo.ast.parse_files(list(paths), keep, logger=quiet)
    return tuple(statements)


def parsed(paths: Sequence[Path]) -> tuple[clingo.ast.AST, ...]:
    """The cached parsed statements of `paths` (a composition of hubs)."""
    with _AST_LOCK:
        return _parse(tuple(str(p) for p in paths))


def parse_private(edition: str | None = None, expansions: Iterable[str] = (), *,
                  play: bool = False) -> list[clingo.ast.AST]:
    """A fresh parse of a composition (with `play`, of its play hubs: `hub_files`), neither
    cached nor shared with any other thread, for a caller that rewrites the statements at
    length (batch.py, plays.py) and must not hold the lock that every request needs meanwhile:
    only the parse itself (tens of milliseconds) holds it."""
    paths = tuple(str(p) for p in hub_files(edition, expansions, play=play))
    with _AST_LOCK:
        return list(_parse.__wrapped__(paths))


def program(path: Path | None = None, *, edition: str | None = None,
            expansions: Iterable[str] = ()) -> tuple[clingo.ast.AST, ...]:
    """The parsed rules program: the file `path`, or the composition for `edition` and
    `expansions` (`hub_files`; the full hub when no edition is given)."""
    return parsed([path] if path is not None else hub_files(edition, expansions))


def play_program(edition: str | None = None,
                 expansions: Iterable[str] = ()) -> tuple[clingo.ast.AST, ...]:
    """The parsed play program alone (the play hubs of the composition; the rules program is
    `program`'s)."""
    return parsed(hub_files(edition, expansions, play=True))


def add_statements(ctl: clingo.Control, statements: Sequence[clingo.ast.AST],
                   texts: Sequence[str] = ()) -> None:
    """Adds parsed (shared) statements to `ctl`, then the program `texts`; every use of
    `program()`'s statements, or of any other cached AST, must go through here (see _AST_LOCK).

    A text of plain facts one per line (what facts.py writes) is added as the parsed statements
    of its lines, each line parsed once per process (`_fact_statements`): clingo parses a text
    anew at every `add`, at about three times the cost of adding a parsed fact."""
    parsed_texts = [_fact_statements(text) for text in texts]
    with _AST_LOCK, clingo.ast.ProgramBuilder(ctl) as builder:
        for statement in statements:
            builder.add(statement)
        for facts in parsed_texts:
            for statement in facts or ():
                builder.add(statement)
    for text, facts in zip(texts, parsed_texts, strict=True):
        if facts is None:
            ctl.add("base", [], text)


# The parsed statement of each fact line met so far (shared ASTs: added under _AST_LOCK only).
_FACT_LINES: Memo[str, clingo.ast.AST] = Memo(1 << 15)


@lru_cache(maxsize=256)
def _fact_statements(text: str) -> tuple[clingo.ast.AST, ...] | None:
    """The parsed statements of a text of plain facts, one per line (relevance.index_text
    reads it so), or None for any other text (it is then added as text). The lines not met
    before are parsed together; each fact line is one statement."""
    lines = fact_lines(text)
    if lines is None:
        return None
    missing = [line for line in dict.fromkeys(lines) if line not in _FACT_LINES]
    if missing:
        found: list[clingo.ast.AST] = []
        clingo.ast.parse_string("\n".join(missing), lambda s: found.append(s) if s.ast_type not in (
            clingo.ast.ASTType.Program, clingo.ast.ASTType.Comment) else None)
        if len(found) != len(missing):
            return None
        for line, statement in zip(missing, found, strict=True):
            _FACT_LINES.keep(line, statement)
    try:
        return tuple(_FACT_LINES[line] for line in lines)
    except KeyError:  # the memo was full and started afresh meanwhile: add it as text
        return None


def _collector(sink: list[str]) -> Callable[[clingo.MessageCode, str], None]:
    def log(code: clingo.MessageCode, message: str) -> None:
        sink.append(f"{code.name}: {message.strip()}")

    return log


def solve(facts: str, path: Path | None = None, extra: Sequence[str] = (), *,
          edition: str | None = None, expansions: Iterable[str] = (),
          limit_s: float | None = None) -> Solution:
    """Grounds the rules with `facts` (program text) and returns up to two answer sets' worth.
    The rules are the program of `edition` with `expansions` (the game of the facts: pass the
    table state's), or the full hub when no edition is given, or the file `path`. `limit_s`:
    the seconds allowed (default `time_limit()`)."""
    return run(program(path, edition=edition, expansions=expansions), [facts, *extra],
               limit_s=limit_s)


def run(statements: Sequence[clingo.ast.AST], texts: Sequence[str], *,
        shown_handles: bool = False, limit_s: float | None = None) -> Solution:
    """Grounds parsed `statements` (shared ones are added under the lock) with program `texts`
    in a fresh Control, under the time limit, and returns up to two answer sets' worth: the
    one way the engine grounds and solves (solve, and batch.py's renamed program).

    What is grounded is the plan (relevance.py: the rules the facts can fire). `shown_handles`:
    the Solution's symbols are clingo's handles of the shown atoms (terms.handles: no Symbol
    object made per atom), for a caller that reads them by handle (rename.split). `limit_s`: the
    seconds allowed, from the call (default `time_limit()`; batch.py gives a batch less)."""
    started = time.perf_counter()
    grounding = plan(statements, texts)
    analysed = time.perf_counter()
    warnings: list[str] = []
    # a pruned program lacks rules the full one has: atoms of their heads would be reported as
    # occurring in no rule head (the full programs are checked clean of it:
    # tests/engine/test_engine.py)
    warn = ["--warn=all", "--warn=no-atom-undefined"] if grounding.pruned else ["--warn=all"]
    ctl = clingo.Control(["--models=2", *warn], logger=_collector(warnings), message_limit=100)
    add_statements(ctl, grounding.statements, grounding.texts)
    ctl.ground([("base", [])])
    grounded = time.perf_counter()
    found: list[list[Any]] = []

    def on_model(model: clingo.Model) -> None:
        # only the first answer set's atoms are kept; the second only says "more than one"
        if found:
            found.append([])
        else:
            shown = model.symbols(shown=True)
            found.append(terms.handles(shown) if shown_handles else list(shown))

    solve_within(ctl, started, on_model, limit_s)
    done = time.perf_counter()
    # ground_ms from the start: the analysis, adding and grounding
    stats = _stats(ctl, grounded - started, done - grounded)
    stats["rules"] = _relevance(statements).body_rules - grounding.rules_left_out
    stats["rules_left_out"] = grounding.rules_left_out
    stats["facts_left_out"] = grounding.facts_left_out
    stats["prune_ms"] = round((analysed - started) * 1000, 3)
    return Solution(models=len(found), symbols=found[0] if found else [], warnings=warnings,
                    stats=stats)


# Leaving out the rules that cannot fire (relevance.py) is on unless FLUXX_PRUNE=0: the switch is
# for comparing (tests/engine/test_relevance.py, bench/rulings.py): the answer sets are the same,
# though the solver may meet them in another order (a play's outcomes; a seeded random pick).
PRUNE_ENV = "FLUXX_PRUNE"
_RELEVANCE: dict[tuple[int, bool], tuple[Sequence[clingo.ast.AST], Relevance]] = {}
_RELEVANCE_MAX = 64


def pruning() -> bool:
    return os.environ.get(PRUNE_ENV, "1") != "0"


def plan(statements: Sequence[clingo.ast.AST], texts: Sequence[str], *,
         backwards: bool = True) -> Plan:
    """What to ground for the facts `texts`: `statements` without the rules that cannot fire and
    (`backwards`) the rules, facts and #show that nothing kept reads, and `texts` without such
    facts (relevance.py). The analysis of a program is made once and kept while the program is
    (the cached compositions always are)."""
    analysis = _relevance(statements, backwards)
    if not pruning():
        return Plan(statements, tuple(texts), 0, 0)
    return analysis.plan(texts)


def pruned(statements: Sequence[clingo.ast.AST],
           texts: Sequence[str]) -> tuple[Sequence[clingo.ast.AST], int, int]:
    """`plan`'s statements, how many rules it left out and how many rules with a body the
    program has."""
    grounding = plan(statements, texts)
    return grounding.statements, grounding.rules_left_out, _relevance(statements).body_rules


def _relevance(statements: Sequence[clingo.ast.AST], backwards: bool = True) -> Relevance:
    key = (id(statements), backwards)
    # every ruling passes here: a dict lookup needs no lock, only building one (it reads the
    # shared AST) takes the engine's lock
    entry = _RELEVANCE.get(key)
    if entry is not None and entry[0] is statements:
        return entry[1]
    with _AST_LOCK:
        entry = _RELEVANCE.get(key)
        if entry is None or entry[0] is not statements:
            if len(_RELEVANCE) >= _RELEVANCE_MAX:
                _RELEVANCE.clear()
            entry = _RELEVANCE[key] = (statements, Relevance(statements, backwards))
    return entry[1]


def _stats(ctl: clingo.Control, ground_s: float, solve_s: float) -> dict[str, float]:
    # the grounder's atoms, not clingo's `statistics` (clingo builds that whole dict on each read)
    return {
        "ground_ms": round(ground_s * 1000, 3),
        "solve_ms": round(solve_s * 1000, 3),
        "atoms": len(ctl.symbolic_atoms),
    }
