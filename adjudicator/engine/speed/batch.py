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
they are grounded in a narrow program (`narrow_program`), which renames apart only what those
predicates reach and grounds the rest once.

Nothing here decides a rule: the rules are rules_asp's, only renamed apart per table.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import clingo
import clingo.ast as A

from ...memo import Memo
from .. import solve as solving  # as `solving`: this module's own `solve` is the batched one
from ..terms import Term, handle, parse, symbol_text
from .relevance import symbolic_atoms

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
TABLE = "table"  # table(T): the table numbers of a batch
_VAR = "Table__"  # the variable that carries the table number through a rule
# Input predicates that are the same for every table of one game (the catalog facts), so a batch
# of one game shares them; every other predicate without a rule is per table.
SHARED_INPUTS = frozenset({("edition", 1), ("expansion", 1), ("card", 1), ("card_type", 2),
                           ("card_text_missing", 1)})
# facts.py writes these names with no other arity, so a fact line is shared by its name alone
_SHARED_NAMES = frozenset(name for name, _ in SHARED_INPUTS)
_LINE = re.compile(r"([a-z_][A-Za-z0-9_']*)([(.])")
_T = A.ASTType
# statements that carry no atoms to rename (anything else is refused: see tag_program)
_AS_IS = {_T.Program, _T.Definition, _T.Comment}


# ---- the program: rename apart per table --------------------------------------------------------
def _alternatives(symbol: A.AST) -> list[A.AST]:
    """The atoms a symbol stands for: each of a pool's (`kind(play;surprise).` is two facts),
    else the symbol itself."""
    return list(symbol.arguments) if symbol.ast_type == _T.Pool else [symbol]


def _signatures(node: Any) -> set[tuple[str, int]]:
    found: list[A.AST] = []
    symbolic_atoms(node, found)
    return {(s.name, len(s.arguments)) for atom in found for s in _alternatives(atom.symbol)
            if s.ast_type == _T.Function}


def per_table_predicates(statements: Iterable[A.AST]) -> frozenset[tuple[str, int]]:
    """The predicates whose atoms depend on the table: the inputs that no rule defines (apart
    from SHARED_INPUTS), and every predicate a rule derives from one of them."""
    rules = [(_signatures(s.head), _signatures(s.body)) for s in statements
             if s.ast_type == _T.Rule]
    defined = set().union(*(heads for heads, _ in rules))
    used = set().union(*(body for _, body in rules))
    return derived_from(rules, (used - defined) - SHARED_INPUTS)


def derived_from(rules: Sequence[tuple[set[tuple[str, int]], set[tuple[str, int]]]],
                 start: Iterable[tuple[str, int]]) -> frozenset[tuple[str, int]]:
    """`start` and every predicate derived from it: the heads of each rule (what it derives,
    what it reads) that reads one, and so on."""
    found = set(start)
    changed = True
    while changed:
        changed = False
        for heads, reads in rules:
            if reads & found and not heads <= found:
                found |= heads
                changed = True
    return frozenset(found)


class _Rename(A.Transformer):
    """Adds the table variable as the first argument of every per-table atom."""

    def __init__(self, per_table: frozenset[tuple[str, int]]) -> None:
        self.per_table = per_table

    def visit_SymbolicAtom(self, atom: A.AST) -> A.AST:
        symbol = atom.symbol
        if symbol.ast_type == _T.Pool:
            return atom.update(symbol=symbol.update(
                arguments=[self._tagged(s) for s in symbol.arguments]))
        tagged = self._tagged(symbol)
        return atom if tagged is symbol else atom.update(symbol=tagged)

    def _tagged(self, symbol: A.AST) -> A.AST:
        if symbol.ast_type == _T.Function and \
                (symbol.name, len(symbol.arguments)) in self.per_table:
            table = A.Variable(symbol.location, _VAR)
            return symbol.update(arguments=[table, *symbol.arguments])
        return symbol


def tag_program(statements: Sequence[A.AST],
                per_table: frozenset[tuple[str, int]]) -> list[A.AST]:
    """The program for a batch: each rule that reads or derives a per-table atom gets the table
    variable in every per-table atom and `table(T)` in its body (so the variable is bound even
    in a rule whose other literals are negative or aggregates); #show and #defined follow the
    arity. An integrity constraint derives nothing, so it is told by its body: one that reads a
    table's atoms holds per table (left shared, it would read atoms no batch has, and never
    apply)."""
    rename = _Rename(per_table)
    out: list[A.AST] = []
    for s in statements:
        if s.ast_type == _T.Rule:
            if not _signatures(s.head) & per_table and not _signatures(s.body) & per_table:
                out.append(s)  # shared: card data and what follows from it alone
                continue
            loc = s.location
            table = A.Literal(loc, A.Sign.NoSign, A.SymbolicAtom(
                A.Function(loc, TABLE, [A.Variable(loc, _VAR)], 0)))
            renamed = rename(s)
            out.append(renamed.update(body=[*renamed.body, table]))
        elif s.ast_type in (_T.ShowSignature, _T.Defined):
            out.append(s.update(arity=s.arity + 1) if (s.name, s.arity) in per_table else s)
        elif s.ast_type in _AS_IS:
            out.append(s)
        else:  # a statement kind the renaming does not know: refuse rather than guess
            raise ValueError(f"cannot rename apart per table: {s}")
    return out


@dataclass
class Program:
    statements: tuple[A.AST, ...]
    per_table: frozenset[tuple[str, int]]
    per_table_names: frozenset[str]  # names that no shared predicate bears
    # the reading of each answer-set atom met so far, by clingo's handle (split)
    readings: Memo[int, tuple[int, Term]] = field(default_factory=lambda: Memo(1 << 16))


Game = tuple[str | None, tuple[str, ...]]  # (edition, expansions in name order)
K = TypeVar("K", bound=Hashable)
P = TypeVar("P")


class Built(Generic[K, P]):
    """What is built once per process for each key (a game, a renamed-apart program): the build
    (a Python walk over every statement, far longer than a ruling) works on private parses
    (solving.parse_private), so it holds no lock that requests need meanwhile.

    `get` builds at once where need be (two threads that build at once keep the first result);
    `ready` answers what is built and otherwise builds it in the background, answering None
    meanwhile: a server must not stall the requests that first need it (longer still under
    load), which are answered one by one until it is built. With `most`, `ready` builds no more
    than that many keys (and answers None for any other key): where the keys come from the
    requests, a client cannot make a process build without end."""

    def __init__(self, build: Callable[[K], P], name: str, most: int | None = None) -> None:
        self._build = build
        self._name = name  # of the background thread
        self._most = most
        self._lock = threading.Lock()
        self.built: dict[K, P] = {}
        self._building: set[K] = set()

    def get(self, key: K) -> P:
        with self._lock:
            found = self.built.get(key)
        if found is not None:
            return found
        made = self._build(key)
        with self._lock:
            return self.built.setdefault(key, made)

    def ready(self, key: K) -> P | None:
        with self._lock:
            found = self.built.get(key)
            if found is not None or key in self._building:
                return found
            if self._most is not None and len(self.built) + len(self._building) >= self._most:
                return None
            self._building.add(key)

        def build() -> None:
            try:
                self.get(key)
            finally:
                with self._lock:
                    self._building.discard(key)

        threading.Thread(target=build, name=self._name, daemon=True).start()
        return None


def _build_tagged(game: Game) -> Program:
    edition, expansions = game
    statements = solving.parse_private(edition, expansions)
    per_table = per_table_predicates(statements)
    return Program(tuple(tag_program(statements, per_table)), per_table,
                   per_table_names(statements, per_table))


TAGGED: Built[Game, Program] = Built(_build_tagged, "fluxx-batch-program")


def tagged_program(edition: str | None, expansions: Iterable[str] = ()) -> Program:
    """The renamed-apart rules program of a game, built once per process (`Built.get`)."""
    return TAGGED.get((edition, tuple(sorted(set(expansions)))))


def per_table_names(statements: Sequence[A.AST],
                    per_table: frozenset[tuple[str, int]]) -> frozenset[str]:
    """The names that only per-table predicates bear (`split` cuts their atoms unread)."""
    shared = set().union(*(_signatures(s) for s in statements)) - per_table
    return frozenset({n for n, _ in per_table} - {n for n, _ in shared})


def _ready(game: Game) -> bool:
    """Whether the renamed program of `game` is built; if not, builds it in the background."""
    return TAGGED.ready(game) is not None


# ---- tables that differ in few predicates: a narrow program -------------------------------------
# Tables that differ only in a few predicates' facts (the outcomes of one discard: discard/2,
# in_hand/2 and hand_copies/3; plays of one table: do_play/2) need only what those facts reach
# renamed apart: the rest of the program reads what every table has, and is grounded once for
# all of them. A narrow program is built per set of differing predicates, for tables that
# differ in at most NARROW_INPUTS of them, and at most NARROW_PROGRAMS per process and kind of
# program (the sets come from the requests).
NARROW_INPUTS = 6
NARROW_PROGRAMS = 24
Signature = tuple[str, int]
Narrow = tuple[Game, frozenset[Signature]]


def _derives(rule: A.AST) -> tuple[set[Signature], set[Signature]]:
    """What a rule derives (the atoms of its head, not the conditions of a choice's elements)
    and what it reads (its body, those conditions and an aggregate's guards)."""
    head, reads = rule.head, _signatures(list(rule.body))
    if head.ast_type == _T.Literal:
        return _signatures(head), reads
    if head.ast_type == _T.HeadAggregate:
        elements = [(e.condition.literal, [*e.terms, *e.condition.condition])
                    for e in head.elements]
    else:  # a choice (Aggregate) or a disjunction: each element a literal and its condition
        elements = [(e.literal, list(e.condition)) for e in head.elements]
    guards = [g.term for g in (getattr(head, "left_guard", None),
                               getattr(head, "right_guard", None)) if g is not None]
    return (_signatures([atom for atom, _ in elements]),
            reads | _signatures([c for _, cond in elements for c in cond]) | _signatures(guards))


def reached_from(statements: Sequence[A.AST],
                 inputs: frozenset[Signature]) -> frozenset[Signature]:
    """`inputs` (the predicates of the facts in which tables differ) and every predicate a
    rule derives from one of them: what a narrow program renames apart. What a rule derives is
    told apart from what it reads (`1 = { goal_out(G): goal(G) }` derives goal_out/1, not
    goal/1), or nearly every predicate would be reached. Renamed, p/n becomes p/n+1, so a
    predicate p/n+1 of the program is renamed too (else its atoms and the renamed ones of p/n
    would be one predicate)."""
    rules = [_derives(s) for s in statements if s.ast_type == _T.Rule]
    every = set().union(*(_signatures(s) for s in statements if s.ast_type == _T.Rule))
    reached = derived_from(rules, inputs)
    while clash := {(n, a + 1) for n, a in reached if (n, a + 1) in every} - reached:
        reached = derived_from(rules, reached | clash)
    return reached


def _signature(line: str) -> Signature:
    symbol = clingo.parse_term(line.rstrip()[:-1])
    return symbol.name, len(symbol.arguments)


def differing(facts: Sequence[str]) -> tuple[frozenset[Signature], set[str]] | None:
    """The predicates of the fact lines that not every table has (when they bear at most
    NARROW_INPUTS names), and the lines every table has; None for tables that differ in more
    (found as soon as they do: tables of different games differ at once), or where such a line
    is not a fact."""
    first = set(facts[0].split("\n"))
    common = set(first)
    lines: set[str] = set()
    names: set[str] = set()
    for text in facts[1:]:
        other = set(text.split("\n"))
        apart = (first ^ other) - lines
        common &= other
        for line in apart:
            if line.strip():
                m = _LINE.match(line)
                if m is None:
                    return None
                names.add(m.group(1))
                lines.add(line)
        if len(names) > NARROW_INPUTS:
            return None
    lines -= common
    try:
        return frozenset(_signature(line) for line in lines), common
    except RuntimeError:  # clingo's parse error: not a fact
        return None


def narrow_text(facts: Sequence[str], common: set[str], per_table: frozenset[Signature]) -> str:
    """The facts of several tables for a narrow program: each line of a per-table predicate
    tagged with its table's number, every other line (the same in every table) once."""
    names = {name for name, _ in per_table}
    tagged = {line for line in common if _per_table(line, names, per_table)}
    out = [line for line in facts[0].split("\n")
           if line in common and line not in tagged and line.strip()]
    for table, text in enumerate(facts):
        for line in text.split("\n"):
            if (line not in common or line in tagged) and line.strip():
                m = _LINE.match(line)
                if m is None:
                    raise ValueError(f"not a fact: {line!r}")
                out.append(f"{m.group(1)}({table},{line[m.end():]}" if m.group(2) == "("
                           else f"{m.group(1)}({table}).")
        out.append(f"{TABLE}({table}).")
    return "\n".join(out)


def _per_table(line: str, names: set[str], per_table: frozenset[Signature]) -> bool:
    m = _LINE.match(line)
    return m is not None and m.group(1) in names and _signature(line) in per_table


def narrow_program(built: Built[Narrow, Program], game: Game,
                   facts: Sequence[str]) -> tuple[Program, str] | None:
    """The narrow program of `built` for tables of `game` with these facts, and their facts'
    text, when the tables differ in few predicates and it is built (else it is built in the
    background, within `built`'s bound, and the caller uses the game's program meanwhile)."""
    found = differing(facts)
    if found is None or len(found[0]) > NARROW_INPUTS:  # a name of several arities
        return None
    inputs, common = found
    program = built.ready((game, inputs))
    if program is None:
        return None
    try:
        return program, narrow_text(facts, common, program.per_table)
    except (ValueError, RuntimeError):
        return None


def _build_narrow(key: Narrow) -> Program:
    (edition, expansions), inputs = key
    statements = solving.parse_private(edition, expansions)
    per_table = reached_from(statements, inputs)
    return Program(tuple(tag_program(statements, per_table)), per_table,
                   per_table_names(statements, per_table))


# the narrow rules programs (one caller's tables: a move's outcomes, solve_all)
NARROW: Built[Narrow, Program] = Built(_build_narrow, "fluxx-narrow-batch-program",
                                       most=NARROW_PROGRAMS)


# ---- facts and answer sets ----------------------------------------------------------------------
def tag_facts(facts: str, table: int, shared: dict[str, None]) -> list[str]:
    """The per-table facts of one table (facts.py's text, one fact per line) with the table
    number as first argument; the shared ones (the catalog) are collected in `shared`."""
    out: list[str] = []
    for line in facts.split("\n"):  # facts.py's lines: what relevance.py and clingo read
        m = _LINE.match(line)
        if m is None:
            if line.strip():  # not a fact (facts.py writes nothing else): rule it alone
                raise ValueError(f"not a fact: {line!r}")
            continue
        name = m.group(1)
        if name in _SHARED_NAMES:
            shared[line] = None
        elif m.group(2) == "(":
            out.append(f"{name}({table},{line[m.end():]}")
        else:
            out.append(f"{name}({table}).")
    return out


def tagged_text(facts: Sequence[str]) -> str | None:
    """The facts of several tables as one text, each table's tagged with its number (its
    position in `facts`) and its `table(T)`, the shared ones once; None when a text holds
    anything but facts (it cannot be renamed apart)."""
    shared: dict[str, None] = {}
    lines: list[str] = []
    try:
        for table, text in enumerate(facts):
            lines += tag_facts(text, table, shared)
            lines.append(f"{TABLE}({table}).")
    except ValueError:
        return None
    return "\n".join([*shared, *lines])


_TAGGED_ATOM = re.compile(r"(-?[a-z_][A-Za-z0-9_']*)\((\d+)(,|\))")


def split(atoms: Sequence[clingo.Symbol], tables: int, per_table: frozenset[tuple[str, int]],
          per_table_names: frozenset[str] = frozenset(),
          cache: Memo[int, tuple[int, Term]] | None = None) -> list[list[Term]]:
    """One answer set of a batch as the answer set of each table. A per-table atom is
    `name(T,args...)`: the table number is cut from its text, and the rest is read as the
    table's own atom (`per_table_names`: names that only per-table predicates bear, whose
    atoms can be cut without reading them first). An atom of another predicate belongs to
    every table. `cache` (one per program: Program.readings) keeps each atom's reading by
    clingo's handle (see terms.symbol_text), so an atom met in an earlier batch costs one
    lookup."""
    out: list[list[Term]] = [[] for _ in range(tables)]
    memo = cache if cache is not None else Memo(len(atoms) + 1)
    for symbol in atoms:
        rep = handle(symbol)
        read = memo.get(rep) if rep is not None else None
        if read is None:
            read = _reading(symbol, per_table, per_table_names)
            if rep is not None:
                memo.keep(rep, read)
        table, term = read
        if table < 0:
            for answer in out:
                answer.append(term)
        else:
            out[table].append(term)
    return out


def _reading(symbol: clingo.Symbol, per_table: frozenset[tuple[str, int]],
             per_table_names: frozenset[str]) -> tuple[int, Term]:
    """An atom of a batch's answer set as (its table number, the table's own atom), or (-1, the
    atom) for one that belongs to every table."""
    text = symbol_text(symbol)
    m = _TAGGED_ATOM.match(text)
    name = m.group(1).lstrip("-") if m is not None else ""
    if m is not None and name in per_table_names:
        rest = text[m.end():]
        return (int(m.group(2)),
                parse(f"{m.group(1)}({rest}" if m.group(3) == "," else m.group(1)))
    term = parse(text)
    if term.arguments and (term.name, len(term.arguments) - 1) in per_table:
        own = Term(clingo.SymbolType.Function, None, term.name, term.arguments[1:],
                   term.negative)
        return (term.arguments[0].number, own)
    return (-1, term)


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
            try:
                _run(batch)
            except BaseException as exc:  # _run hands errors to the jobs; anything else too
                for other in batch:
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
