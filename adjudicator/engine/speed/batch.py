"""Several tables in one grounding: concurrent rulings of one game share clingo's fixed cost.

Grounding costs about the same per rule whatever the facts (docs/ENGINE.md, "Programs"), so a
ruling pays mostly for handing the rules to clingo and grounding them once. When several
requests of one game arrive together (a threaded server under load), their tables are ruled in
one program: every predicate that depends on the table gets the table's number as a new first
argument (`tagged_program`), each table's facts are tagged the same way, and the one answer set
is split back into one per table. The tables cannot see each other (no rule joins two table
numbers), so each table's atoms are exactly those of its own program; the tests check this on
every scenario state. What a batch saves per table is measured by bench/speed_parts.py.

`solve(facts, edition, expansions)` is what `ruling.ruling_for` calls: alone (the command line,
a quiet server) it is `solving.solve`; while another call is grounding, later calls queue, and the
next free caller grounds everything queued at once (at most `MAX_BATCH` tables), having first
waited a moment (LINGER) for the callers it can expect under steady load. A batch whose
program has other than one answer set, any grounder message or any failure (its facts do not
parse, say), or that runs past its share of the time limit (SLOT_SHARE), is ruled again table by
table, each table by its own caller's thread, outside the one grounding a process runs at a
time: one bad or slow table never decides another's ruling, nor holds the others' grounding.

`solve_all` queues several tables of one caller at once (`ruling.rulings_for`: the outcomes of
a move, each ruled), so that they are grounded together even on a quiet server. Such tables
often differ in a few predicates only (a discard's outcomes: where the discarded cards went);
they are grounded in a narrow program (narrow.py: `narrow_program`), which renames apart only
what those predicates reach and grounds the rest once.

Nothing here decides a rule: the rules are rules_asp's, only renamed apart per table.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import solve as solving  # as `solving`: this module's own `solve` is the batched one
from .narrow import NARROW_PROGRAMS, Narrow, narrow_program, reached_from
from .rename import Built, Game, Program, per_table_predicates, renamed, split, tagged_text

# Tables at most in one grounding: a move's outcomes (a 21-card hand's 21 discards) fit in one;
# a server's batches rarely reach it (2 workers, 32 clients: about 16 each).
MAX_BATCH = 32
# Groundings at once per process. 1: with 2, a second caller starts grounding the few tables
# that came in meanwhile, so batches shrink and each table costs more (bench/HISTORY.md).
MAX_RUNNING = 1
# Group commit: a caller free to ground first waits, at most LINGER seconds, until as many tables
# are queued as the last batch ruled plus those that queued while it ran (`_expect`). Under steady
# load those callers come back as soon as they have their answers, so batches keep their size;
# without the wait, the first to come back is ruled alone and the rest split in two smaller
# batches. A caller that
# expects only itself (a quiet server) never waits. FLUXX_LINGER=0 turns it off (for comparing).
LINGER_DEFAULT = 0.004


def _linger_from_env() -> float:
    """FLUXX_LINGER in seconds, kept within [0, 1]; the default when unset or not a number."""
    try:
        value = float(os.environ.get("FLUXX_LINGER", LINGER_DEFAULT))
    except ValueError:
        return LINGER_DEFAULT
    return min(max(value, 0.0), 1.0) if value == value else LINGER_DEFAULT  # NaN: default


LINGER = _linger_from_env()
# What the one grounding at a time may spend on a batch, or on a table ruled alone in it: this
# share of the time limit (solve.time_limit(); 2 s of the default 10). Everyone queued waits for
# it, so a table or a batch that runs past it is interrupted and each of its tables is ruled
# again alone by its own caller, outside the slot (a table alone with what is left of its time
# limit, each table of a batch with the whole of it): a table that hits the limit costs its own
# request alone, and holds the others for at most the share. A batch of 16 real tables takes
# well under a tenth of it.
SLOT_SHARE = 0.2
# Grounding cannot be interrupted, so a table whose grounding alone would run past the share
# must not enter the slot: a table of more fact lines than this (a real table has at most a few
# hundred, one per card in a known place; the reader's caps allow thousands, in sub-hands) is
# ruled alone in its caller's thread, like FLUXX_BATCH=0.
MAX_BATCH_FACTS = 1000


# ---- the programs: the game's, and the narrow ones ----------------------------------------------
def _build_tagged(game: Game) -> Program:
    """The game's rules program, every predicate of a table renamed apart."""
    statements = solving.parse_private(*game)
    return renamed(statements, per_table_predicates(statements))


TAGGED: Built[Game, Program] = Built(_build_tagged, "fluxx-batch-program")


def tagged_program(edition: str | None, expansions: Iterable[str] = ()) -> Program:
    """The renamed-apart rules program of a game, built once per process (`Built.get`)."""
    return TAGGED.get((edition, tuple(sorted(set(expansions)))))


def _ready(game: Game) -> bool:
    """Whether the renamed program of `game` is built; if not, builds it in the background."""
    return TAGGED.ready(game) is not None


def _build_narrow(key: Narrow) -> Program:
    """The game's rules program, only what the differing predicates reach renamed apart."""
    game, inputs = key
    statements = solving.parse_private(*game)
    return renamed(statements, reached_from(statements, inputs))


# the narrow rules programs (one caller's tables: a move's outcomes, solve_all)
NARROW: Built[Narrow, Program] = Built(_build_narrow, "fluxx-narrow-batch-program",
                                       most=NARROW_PROGRAMS)


# ---- one grounding for several tables ----------------------------------------------------------
def solve_batch(facts: Sequence[str], edition: str, expansions: Iterable[str] = (),
                common: str = "", limit_s: float | None = None,
                narrow: bool = False) -> list[solving.Solution] | None:
    """The solutions of several tables of one game from one grounding, or None when the batch
    cannot stand for its tables (not exactly one answer set, a grounder message, facts clingo
    does not parse): the caller then rules them one by one. `common`: facts of every table alike
    (the catalog's, facts.catalog_text), added once. With `narrow`, tables that differ in few
    predicates (one caller's: a move's outcomes) use a narrow program (`narrow_program`).
    Raises solving.TimeLimitError like solving.solve, past `limit_s` seconds (default
    solving.time_limit())."""
    game = (edition, tuple(sorted(set(expansions))))
    found = narrow_program(NARROW, game, facts) if narrow else None
    if found is not None:
        program, tagged = found
    else:
        program = tagged_program(edition, expansions)
        text = tagged_text(facts)
        if text is None:
            return None
        tagged = text
    # The common facts are a text of their own, the same object for every batch of the game:
    # indexed once (relevance.index_text) and parsed once (solving._fact_statements).
    texts = ([common] if common else []) + [tagged]
    try:
        whole = solving.run(program.statements, texts, shown_handles=True,  # split reads handles
                            limit_s=limit_s)
    except RuntimeError:  # clingo's own failure (a parse error): never the other tables' fault
        return None
    if whole.models != 1 or whole.warnings:
        return None
    stats = dict(whole.stats, batch=len(facts))
    return [solving.Solution(models=1, symbols=answer, stats=dict(stats))
            for answer in split(whole.symbols, len(facts), program.per_table,
                                program.per_table_names, program.readings)]


# ---- combining concurrent calls -----------------------------------------------------------------
@dataclass
class _Job:
    facts: str
    game: tuple[str, tuple[str, ...]]
    common: str = ""
    done: bool = False
    solution: solving.Solution | None = None
    error: BaseException | None = None
    # ruled again alone by its caller, outside the slot, within `budget` seconds (see _run)
    retry: bool = False
    budget: float | None = None
    # queued with others of one caller (solve_all): no sign of how many callers to expect
    together: bool = False

    def result(self) -> solving.Solution:
        if self.error is not None:
            raise self.error
        assert self.solution is not None
        return self.solution


def _alone(job: _Job, limit_s: float | None = None) -> None:
    try:
        # the common facts as a text of their own: the same object for every table of a game,
        # so its facts are indexed once (relevance.index_text)
        job.solution = solving.solve(job.facts, extra=[job.common], edition=job.game[0],
                                    expansions=job.game[1], limit_s=limit_s)
    except solving.TimeLimitError:  # said as the table's own limit, whatever was left of it
        job.error = solving.TimeLimitError(solving.time_limit())
    except BaseException as exc:  # handed to the caller's thread, which raises it
        job.error = exc


def _retry(jobs: Iterable[_Job], started: float | None = None) -> None:
    """The jobs to be ruled again alone, each by its own caller (`_Combiner.solve`), with what
    is left of its time limit after `started`, or the whole of it (a batch's time is no single
    table's fault)."""
    left = None if started is None else solving.time_limit() - (time.perf_counter() - started)
    for job in jobs:
        job.solution, job.error, job.retry, job.budget = None, None, True, left


def _settle(job: _Job) -> solving.Solution:
    """The job's solution (or its error raised), ruling it alone first if `_run` left it to be
    ruled again: in the calling thread, outside the slot, while the others' groundings go on."""
    if job.retry:
        job.retry = False
        if job.budget is not None and job.budget <= 0:
            job.error = solving.TimeLimitError(solving.time_limit())
        else:
            _alone(job, job.budget)
    return job.result()


def _hand_back(jobs: list[_Job]) -> list[_Job]:
    """The jobs to ground: `jobs` but the only table of its game among tables of other games
    (a server's tables are of several games), which is marked done, to be ruled alone by its
    caller (`retry`), who is woken at once and rules it while the others' batch is grounded.
    Held in the one grounding at a time, a lone ruling (as long as half a batch of 8 or more)
    kept every caller of the batch waiting for it."""
    games = Counter((job.game, job.common) for job in jobs)
    if len(games) < 2:
        return jobs
    grounded = []
    for job in jobs:
        if games[(job.game, job.common)] == 1:
            _retry([job])
            job.done = True
        else:
            grounded.append(job)
    return grounded


def _run(jobs: list[_Job]) -> None:
    """Rules every job within the slot's share of the time limit (SLOT_SHARE), or leaves it to
    be ruled again alone by its caller (`retry`): a batch that cannot stand for its tables, for
    whatever reason, or that runs past the share; a table alone that runs past it. Never
    raises: each job gets its solution, its error or its retry."""
    groups: dict[tuple[tuple[str, tuple[str, ...]], str], list[_Job]] = {}
    for job in jobs:
        groups.setdefault((job.game, job.common), []).append(job)
    share = solving.time_limit() * SLOT_SHARE
    for (game, common), group in groups.items():
        if len(group) > 1 and _ready(game):
            try:
                solutions = solve_batch([j.facts for j in group], game[0], game[1], common,
                                        limit_s=share, narrow=all(j.together for j in group))
            except Exception:  # the time limit, an engine failure: each table on its own
                solutions = None
            if solutions is None:
                _retry(group)
            else:
                for job, solution in zip(group, solutions, strict=True):
                    job.solution = solution
            continue
        for job in group:
            started = time.perf_counter()
            _alone(job, share)
            if isinstance(job.error, solving.TimeLimitError):
                _retry([job], started)  # its own time: what is left of its limit
    for job in jobs:
        job.done = True


class _Combiner:
    """Callers queue their table; a caller that finds fewer than MAX_RUNNING groundings under
    way rules what is queued (up to MAX_BATCH), after waiting for the tables it can expect
    (LINGER), and wakes the others. Alone, a call is solving.solve at once."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._cv = threading.Condition()
        self._queue: list[_Job] = []
        self._running = 0
        # the callers of the last batch plus those that queued meanwhile: under steady load,
        # the tables the next batch can expect (see LINGER)
        self._expect = 1

    def solve(self, facts: str, edition: str, expansions: Iterable[str],
              common: str = "") -> solving.Solution:
        job = _Job(facts, (edition, tuple(sorted(set(expansions)))), common)
        self._take_part(job)
        return _settle(job)

    def solve_all(self, facts: Sequence[str], edition: str, expansions: Iterable[str],
                  common: str = "") -> list[solving.Solution]:
        """The solutions of tables one caller needs together, queued at once: they are ruled
        in the batches this caller (or another) grounds, MAX_BATCH tables at a time."""
        game = (edition, tuple(sorted(set(expansions))))
        jobs = [_Job(text, game, common, together=True) for text in facts]
        with self._cv:
            self._queue.extend(jobs)
        for job in jobs:
            self._serve(job)
        return [_settle(job) for job in jobs]

    def _take_part(self, job: _Job) -> None:
        """Queues `job` and returns when it is done: ruled by this caller or by another."""
        # no wake-up: the caller whose table completes the count grounds the batch itself
        with self._cv:
            self._queue.append(job)
        self._serve(job)

    def _serve(self, job: _Job) -> None:
        """Returns when the queued `job` is done, grounding the queue's first tables whenever
        a grounding is free."""
        while True:
            with self._cv:
                # wait while the job is being ruled by another caller, or no grounding is free
                while not job.done and (self._running >= MAX_RUNNING or not self._queue):
                    self._cv.wait()
                if job.done:
                    return
                # free to ground: give the callers of the last batch a moment to come back
                deadline = time.monotonic() + LINGER
                while (len(self._queue) < min(self._expect, MAX_BATCH) and not job.done
                       and self._running < MAX_RUNNING):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cv.wait(remaining)
                if job.done:
                    return
                if self._running >= MAX_RUNNING or not self._queue:
                    continue
                self._running += 1
                batch = self._queue[:MAX_BATCH]
                del self._queue[:MAX_BATCH]
                grounded = _hand_back(batch)
                if len(grounded) < len(batch):
                    self._cv.notify_all()  # the callers of the tables handed back
                    if job.done:  # this caller's own: another caller grounds the rest
                        self._queue[:0] = grounded
                        self._running -= 1
                        return
            try:
                _run(grounded)
            except BaseException as exc:  # _run hands errors to the jobs; anything else too
                for other in grounded:
                    if not other.done:
                        other.error, other.done = exc, True
            finally:
                with self._cv:
                    self._running -= 1
                    # the callers of this batch and those queued meanwhile come back together
                    # under steady load; one caller's tables queued together (solve_all) do not
                    self._expect = max(1, sum(not j.together for j in [*batch, *self._queue]))
                    self._cv.notify_all()


_COMBINER = _Combiner()


# Batches are on unless FLUXX_BATCH=0 (every table ruled alone: for comparing).
BATCH_ENV = "FLUXX_BATCH"


def batching() -> bool:
    return os.environ.get(BATCH_ENV, "1") != "0"


def solve(facts: str, edition: str, expansions: Iterable[str] = (),
          common: str = "") -> solving.Solution:
    """solving.solve for the facts of one table of `edition` with `expansions` (plus `common`,
    the facts that every table of the game shares: facts.catalog_text), ruled together with the
    tables that other threads ask for at the same time; a table of more than MAX_BATCH_FACTS
    fact lines alone, at once."""
    if not batching() or facts.count("\n") > MAX_BATCH_FACTS:
        job = _Job(facts, (edition, tuple(sorted(set(expansions)))), common)
        _alone(job)
        return _settle(job)
    return _COMBINER.solve(facts, edition, expansions, common)


def solve_all(facts: Sequence[str], edition: str, expansions: Iterable[str] = (),
              common: str = "") -> list[solving.Solution]:
    """`solve` for several tables of one game that one caller needs at once (the outcomes of
    a move, each to be ruled): grounded together, MAX_BATCH at a time, with whatever other
    threads ask for meanwhile; a table of more than MAX_BATCH_FACTS fact lines alone. Each
    solution is the one `solve` gives its table (a batch that cannot stand for its tables is
    ruled again table by table, as for concurrent callers)."""
    game = (edition, tuple(sorted(set(expansions))))
    # before the renamed program is built (_ready builds it in the background), each table alone,
    # as concurrent callers are: never several lone groundings in one turn of the slot
    if not batching() or len(facts) < 2 or not _ready(game):
        return [solve(text, edition, expansions, common) for text in facts]
    small = {i for i, text in enumerate(facts) if text.count("\n") <= MAX_BATCH_FACTS}
    together = iter(_COMBINER.solve_all([facts[i] for i in sorted(small)], edition, expansions,
                                        common))
    return [next(together) if i in small else solve(text, edition, expansions, common)
            for i, text in enumerate(facts)]
