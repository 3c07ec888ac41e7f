"""Several tables in one program: a program renamed apart per table, and back.

Every predicate whose atoms depend on the table gets the table's number as a new first
argument, in the rules (`tag_program`, `renamed`: a game's parsed statements, solve.parse_private)
and in each table's facts (`tagged_text`: facts.py's texts, one fact per line). The tables cannot
see each other (no rule joins two table numbers), so the one answer set, cut back into one per
table (`split`), holds for each table exactly the atoms of its own program.

Used by batch.py (concurrent rulings), narrow.py (tables that differ in few predicates) and
plays.py (plays asked together); `Built` keeps what is built once per process. Nothing here
decides a rule: the rules are rules_asp's, only renamed apart.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import clingo
import clingo.ast as A

from ...memo import Memo
from ..terms import Term, handle, parse, symbol_text
from .relevance import symbolic_atoms

TABLE = "table"  # table(T): the table numbers of a batch
_VAR = "Table__"  # the variable that carries the table number through a rule
# Input predicates that are the same for every table of one game (the catalog facts), so a batch
# of one game shares them; every other predicate without a rule is per table.
SHARED_INPUTS = frozenset({("edition", 1), ("expansion", 1), ("card", 1), ("card_type", 2),
                           ("card_text_missing", 1)})
# facts.py writes these names with no other arity, so a fact line is shared by its name alone
_SHARED_NAMES = frozenset(name for name, _ in SHARED_INPUTS)
FACT_LINE = re.compile(r"([a-z_][A-Za-z0-9_']*)([(.])")
_T = A.ASTType
# statements that carry no atoms to rename (anything else is refused: see tag_program)
_AS_IS = {_T.Program, _T.Definition, _T.Comment}


# ---- the program: rename apart per table --------------------------------------------------------
def _alternatives(symbol: A.AST) -> list[A.AST]:
    """The atoms a symbol stands for: each of a pool's (`kind(play;surprise).` is two facts),
    else the symbol itself."""
    return list(symbol.arguments) if symbol.ast_type == _T.Pool else [symbol]


def signatures(node: Any) -> set[tuple[str, int]]:
    """The predicates (name, arity) of the atoms in `node`: a statement, a part or a list."""
    found: list[A.AST] = []
    symbolic_atoms(node, found)
    return {(s.name, len(s.arguments)) for atom in found for s in _alternatives(atom.symbol)
            if s.ast_type == _T.Function}


def per_table_predicates(statements: Iterable[A.AST]) -> frozenset[tuple[str, int]]:
    """The predicates whose atoms depend on the table: the inputs that no rule defines (apart
    from SHARED_INPUTS), and every predicate a rule derives from one of them."""
    rules = [(signatures(s.head), signatures(s.body)) for s in statements
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
            if not signatures(s.head) & per_table and not signatures(s.body) & per_table:
                out.append(s)  # shared: card data and what follows from it alone
                continue
            loc = s.location
            table = A.Literal(loc, A.Sign.NoSign, A.SymbolicAtom(
                A.Function(loc, TABLE, [A.Variable(loc, _VAR)], 0)))
            tagged = rename(s)
            out.append(tagged.update(body=[*tagged.body, table]))
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
    (solve.parse_private), so it holds no lock that requests need meanwhile.

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


def per_table_names(statements: Sequence[A.AST],
                    per_table: frozenset[tuple[str, int]]) -> frozenset[str]:
    """The names that only per-table predicates bear (`split` cuts their atoms unread)."""
    shared = set().union(*(signatures(s) for s in statements)) - per_table
    return frozenset({n for n, _ in per_table} - {n for n, _ in shared})


def renamed(statements: Sequence[A.AST], per_table: frozenset[tuple[str, int]]) -> Program:
    """The program of `statements` renamed apart for the predicates `per_table`."""
    return Program(tuple(tag_program(statements, per_table)), per_table,
                   per_table_names(statements, per_table))


# ---- facts and answer sets ----------------------------------------------------------------------
def tag_facts(facts: str, table: int, shared: dict[str, None]) -> list[str]:
    """The per-table facts of one table (facts.py's text, one fact per line) with the table
    number as first argument; the shared ones (the catalog) are collected in `shared`."""
    out: list[str] = []
    for line in facts.split("\n"):  # facts.py's lines: what relevance.py and clingo read
        m = FACT_LINE.match(line)
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
