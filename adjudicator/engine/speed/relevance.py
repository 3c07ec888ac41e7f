"""Which rules of a program can ever fire on a table: the rest is left out before grounding.

Why: clingo's grounder pays about the same for every rule with a body whatever the facts
(bench/grounding_floor.py measures it), and most rules concern cards, chains and situations that
a given table does not have: on a table of the default game most of its rules with a body
cannot fire. Leaving the others out before grounding
does not change the shown atoms of any answer set; it only saves the grounder's fixed cost per
rule. (The solver
may meet them in another order: a play lists its outcomes in another order, and a seeded random
pick, the simulator's, may fall on another outcome; each stays the same from run to run.)

The test is a sound over-approximation of what can be derived, on the program's own terms:

- `possible(p(c1,...,_))`: some fact (of the program, or of the texts added with it) matches the
  pattern, or some rule has a head atom that unifies with it and every positive body literal of
  that rule, with the head's variables bound by the pattern's constants, is `possible`.
  Recursion through a pattern already being examined counts as possible (cycles are never
  pruned), so the test only errs towards keeping a rule.
- A rule with a body is kept unless one of its positive body literals is not `possible`. Negative
  literals, comparisons, aggregates and conditional literals are never used to drop a rule.
- Anything not understood keeps everything: a head that is not a plain atom, a pool, a choice
  or a disjunction of plain atoms; a program part other than `base`; a text that is not plain
  facts one per line (`index_text` returns None); a fact naming a `#const` of the program
  (clingo replaces it there too); a derivation deeper than Python's stack. A `#const` name in
  the program and a fact's argument not written as clingo prints its value (1+1, 0x2) are
  "anything".

Then, backwards from what is shown (`Relevance.plan`): a normal rule whose head no kept statement
reads and no `#show` names is left out too (repeatedly; the splitting theorem keeps the shown
atoms of every answer set), and so is every line of a facts text whose signature nothing kept
reads; choices and disjunctions are never left out; without any `#show` (every atom shown) no
rule is left out this way. The program's own facts are all kept: telling which of them no kept
rule could join cost more than grounding them (bench/HISTORY.md).

The analysis of a table costs about as much as grounding the rules it drops, so each answer is
kept with the questions it asked of the table's facts (`_Trace`); a later table whose facts answer
them alike gets the same answer without a new analysis. The analysis asks its next question by
the answers so far and by nothing else, so the answers kept form a tree of questions
(`_Answers`): a new table follows one path of it, asking each question once however many
answers are kept. Tables of real games need many answers (each new situation of a game asks
something new), and a bound that is met while a game goes on would analyse afresh what was just
forgotten; past `TRACES` answers per program the tree starts afresh.

A table the tree does not know is analysed, but not all afresh: the patterns the analysis meets
come from the program alone (the facts only answer yes or no), so what depends on them alone is
kept for every trace (each pattern's number, the producers whose head unifies with it, the
program's facts it matches, each probe's question). And the forward half explores the rules one
by one, each exploration depending on nothing but what it reads of the earlier rules' answers and
the facts' answers to its probes; the last exploration of each rule is kept (`_Replay`), and a
trace that reads the same there and gets the same answers to those probes takes its outcome
without exploring again, step for step what it would have done (tables of one game differ in a
few cards: most rules are taken so). A trace makes the plan, the questions and their order that a
trace with nothing kept makes (tests/engine/test_relevance.py compares them table by table).

A pruned program lacks rules that the full one has, so clingo would report atoms of the dropped
heads as "not occurring in any rule head": solve.py turns that message off for a pruned run
(the full programs are checked clean of it, tests/engine/test_engine.py).
tests/engine/test_relevance.py rules every scenario of the suite with and without the pruning and
compares the answers.
"""

from __future__ import annotations

import itertools
import re
import threading
import weakref
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import clingo
import clingo.ast as ast
from clingo.ast import ASTType

from ...memo import Memo

# A pattern's argument: a constant (as clingo prints it) or None (anything).
Args = tuple[str | None, ...]
# A rule's argument before binding: ("c", constant), ("v", variable name) or None (anything).
RuleArg = tuple[str, str] | None
Signature = tuple[str, int]

_FACT = re.compile(r"(_*[a-z][A-Za-z0-9_']*)(?:\((.*)\))?\.\Z")
# A value written the way clingo prints it (a number, a name, a string): anything else (1+1, 0x2,
# (a), f()) is compared as "anything", since its text is not the text of its value.
_VALUE = re.compile(r"""(0|-?[1-9][0-9]*|(_*[a-z][A-Za-z0-9_']*)|"(?:[^"\\]|\\.)*")\Z""")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
# Answers kept per program (the leaves of its tree of questions); past it, the tree starts afresh.
# Simulated games keep adding answers at about one for every two new tables, and a kept answer
# costs a few kilobytes (its path's questions, most of them shared with other answers).
TRACES = 1024
# Sets of rules left out for which the rules nothing reads are kept (Relevance._unread_rules).
UNREAD_SETS = 64
# Combinations of the program's facts followed when joining one rule body (beyond: kept).
JOIN_LIMIT = 256
_KNOWN = {ASTType.Rule, ASTType.Defined, ASTType.ShowSignature, ASTType.ShowTerm,
          ASTType.Definition, ASTType.Program}


@dataclass(frozen=True, slots=True)
class _Atom:
    name: str
    arity: int
    args: tuple[RuleArg, ...]
    # made once, read by every trace (see _instance): the signature, the pattern with only the
    # constants (None at each variable), the variables' positions and names, the pattern with
    # nothing bound; `fact_only` is set by Relevance (only the program's facts make it true)
    signature: Signature = field(init=False, compare=False, repr=False)
    constants: Args = field(init=False, compare=False, repr=False)
    variables: tuple[tuple[int, str], ...] = field(init=False, compare=False, repr=False)
    blank: Args = field(init=False, compare=False, repr=False)
    fact_only: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "signature", (self.name, self.arity))
        put(self, "constants", tuple(a[1] if a is not None and a[0] == "c" else None
                                     for a in self.args))
        put(self, "variables", tuple((i, a[1]) for i, a in enumerate(self.args)
                                     if a is not None and a[0] == "v"))
        put(self, "blank", (None,) * self.arity)
        put(self, "fact_only", False)


@dataclass
class _Producer:
    """A way to make an atom of one signature true: a head atom and its rule's positive body."""

    head: tuple[RuleArg, ...]
    body: tuple[_Atom, ...]


@dataclass
class FactIndex:
    """Facts by signature; `matches` answers "does any fact match this pattern"."""

    facts: dict[Signature, list[Args]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)  # the plain names among the values
    # the text's fact lines with their signatures (index_text), so that a text can be passed
    # on without the facts no kept rule reads
    lines: list[tuple[Signature, str]] = field(default_factory=list)
    # (signature, positions) -> the facts' values at those positions, or None when some fact
    # has no single value there (an interval): built on first use, never changed
    _projections: dict[tuple[Signature, tuple[int, ...]], set[Args] | None] = field(
        default_factory=dict)
    # (signature, pattern) -> `matches`' answer: the program's facts and a cached text's (the
    # catalog's) are asked the same patterns by every trace
    _matched: dict[tuple[Signature, Args], bool] = field(default_factory=dict)

    def add(self, signature: Signature, args: Args) -> None:
        self.facts.setdefault(signature, []).append(args)
        self._matched.clear()

    def matches(self, signature: Signature, pattern: Args) -> bool:
        if signature not in self.facts:
            return False
        key = (signature, pattern)
        known = self._matched.get(key)
        if known is None:
            known = self._matched[key] = next(self.select(signature, pattern), None) is not None
        return known

    def select(self, signature: Signature, pattern: Args) -> Iterator[Args]:
        for args in self.facts.get(signature, ()):
            for want, have in zip(pattern, args, strict=True):
                if want is not None and have is not None and want != have:
                    break
            else:
                yield args

    def has(self, signature: Signature, positions: tuple[int, ...], values: Args) -> bool:
        """`matches` for a pattern with `values` at `positions` and anything elsewhere, by a
        set lookup (a trace asks the same few hundred questions of every new table)."""
        if not positions:
            return bool(self.facts.get(signature))
        key = (signature, positions)
        try:
            projection = self._projections[key]
        except KeyError:
            facts = self.facts.get(signature, ())
            projection = None if any(a[i] is None for a in facts for i in positions) else {
                tuple(a[i] for i in positions) for a in facts}
            self._projections[key] = projection
        if projection is None:
            pattern: list[str | None] = [None] * len(self.facts[signature][0])
            for i, v in zip(positions, values, strict=True):
                pattern[i] = v
            return self.matches(signature, tuple(pattern))
        return values in projection


def _split_args(text: str) -> list[str] | None:
    """Top-level comma-separated arguments (quotes and parentheses respected); None if odd, or
    if a `;` at the top level makes a pool of atoms (p(a,b;c) is p(a,b) and p(c))."""
    if not text.strip():
        return None  # p() is the atom p
    if '"' not in text and "(" not in text:
        return None if ";" in text else text.split(",")
    out: list[str] = []
    depth = 0
    current: list[str] = []
    quoted = escaped = False
    for ch in text:
        if quoted:
            current.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
        elif ch == ";" and depth == 0:
            return None
        if ch == "," and depth == 0:
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    if quoted or depth:
        return None
    out.append("".join(current))
    return out


# What each line of a facts text says, by its text (see index_text): its signature, the values of
# its arguments and the plain names among them; _SKIP for a blank or comment line; None for
# anything but a fact. Table texts differ from ruling to ruling but mostly of lines met before
# (a batch's tagged lines too), so each line is read once per process.
_SKIP: tuple[()] = ()
_LINE_FACTS: Memo[str, tuple[Signature, Args, tuple[str, ...]] | tuple[()] | None] = Memo(1 << 16)


def _line_fact(raw: str) -> tuple[Signature, Args, tuple[str, ...]] | tuple[()] | None:
    line = raw.strip()
    if "%*" in line or "*%" in line:
        return None
    if not line or line.startswith("%"):
        return _SKIP
    found = _FACT.match(line)
    if found is None or ":-" in line:
        return None
    name, inner = found.group(1), found.group(2)
    if inner is None:
        return ((name, 0), (), ())
    parts = _split_args(inner)
    if parts is None:
        return None
    names: list[str] = []
    values = tuple(_value(a.strip(), names) for a in parts)
    return ((name, len(parts)), values, tuple(names))


# A batch's fact line (rename.tag_facts: the table's number put before the arguments) says what
# the table's own line says with that number first: where the table's line was read before (the
# table ruled alone, or in an earlier batch), it is read from that, not parsed again.
_TAGGED_LINE = re.compile(r"(_*[a-z][A-Za-z0-9_']*)\((0|[1-9][0-9]{0,8})(,|\)\.\Z)")


_UNREAD: Any = object()  # not in _LINE_FACTS (whose values include None)


def _read_line(raw: str) -> tuple[Signature, Args, tuple[str, ...]] | tuple[()] | None:
    read = _LINE_FACTS.get(raw, _UNREAD)
    if read is not _UNREAD:
        return read
    tagged = _TAGGED_LINE.match(raw)
    if tagged is not None:
        name, number, after = tagged.groups()
        own = _LINE_FACTS.get(f"{name}({raw[tagged.end():]}" if after == "," else f"{name}.")
        if own:  # a fact of the table's (not a blank line, not a rule)
            (_, arity), values, names = own
            return _LINE_FACTS.keep(raw, ((name, arity + 1), (number, *values), names))
    return _LINE_FACTS.keep(raw, _line_fact(raw))


def fact_lines(text: str) -> list[str] | None:
    """The fact lines of `text` as index_text reads them (stripped; no blank or comment lines),
    or None when it holds anything but facts one per line; without building its index."""
    lines: list[str] = []
    known = _LINE_FACTS.get
    for raw in text.split("\n"):
        read = known(raw, _UNREAD)
        if read is _UNREAD:
            read = _read_line(raw)
        if read:  # not _SKIP
            lines.append(raw.strip())
        elif read is None:
            return None
    return lines


@lru_cache(maxsize=256)
def index_text(text: str) -> FactIndex | None:
    """The facts of program text written one per line (engine/facts.py), or None when the
    text holds anything else (a rule, a directive, a block comment, a pool of atoms): then
    nothing may be pruned. Cached: the catalog's facts (facts.catalog_text) come with every
    ruling of a game; an index is never changed once built."""
    index = FactIndex()
    # FactIndex.add and the memo's lookup inlined: the outcomes of a move, ruled together, come
    # as one text of a thousand lines or more, most of them read before
    facts, lines, names_met, known = index.facts, index.lines, index.names, _LINE_FACTS.get
    for raw in text.split("\n"):
        read = known(raw, _UNREAD)
        if read is _UNREAD:
            read = _read_line(raw)
        if not read:
            if read is None:
                return None
            continue  # _SKIP
        signature, values, names = read
        found = facts.get(signature)
        if found is None:
            facts[signature] = [values]
        else:
            found.append(values)
        if names:
            names_met.update(names)
        lines.append((signature, raw.strip()))
    return index


def _value(text: str, names: list[str]) -> str | None:
    """An argument as clingo prints its value, or None ("anything": an interval, an operation,
    a term clingo would print otherwise); a plain name is added to `names`."""
    found = _VALUE.match(text)
    if found is None:
        return None
    if found.group(2) is not None:
        names.append(text)  # a name a #const of the program could replace
    elif text[0] != '"' and not _INT_MIN <= int(text) <= _INT_MAX:
        return None
    return text


class Relevance:
    """The analysis of one parsed program, built once per program (solve.py caches it)."""

    def __init__(self, statements: Sequence[ast.AST], backwards: bool = True) -> None:
        self.enabled = True
        # whether to leave out also what nothing reads (unread rules, facts, #show): it pays
        # where answers are reused (a ruling's program); a play's outcomes are often new tables,
        # where the longer analysis costs more than it saves (bench/HISTORY.md)
        self.backwards = backwards
        self._consts: set[str] = set()
        for s in statements:
            if s.ast_type not in _KNOWN or (s.ast_type == ASTType.Program and s.name != "base"):
                self.enabled = False
            elif s.ast_type == ASTType.Definition:
                self._consts.add(s.name)
        self.statements = tuple(statements)
        self.body_rules = sum(1 for s in statements if s.ast_type == ASTType.Rule and s.body)
        self.static = FactIndex()
        self.producers: dict[Signature, list[_Producer]] = {}
        # index in `statements` -> positive body atoms of each rule with a body
        self.rules: dict[int, tuple[_Atom, ...]] = {}
        self._lock = threading.Lock()
        # the statements kept, one tuple per set left out: answers alike share one plan
        self._kept: Memo[tuple[frozenset[int], ...], tuple[ast.AST, ...]] = Memo(
            TRACES, switchable=False)  # FLUXX_PRUNE switches this one
        self._answers: dict[int, _Answers] = {}  # by the number of texts
        self._unread: dict[frozenset[int], tuple[set[int], set[Signature] | None]] = {}
        read_heads: dict[int, list[_Atom]] = {}  # each rule's head atoms (reading the AST is slow)
        for i, s in enumerate(statements):
            if s.ast_type != ASTType.Rule or not self.enabled:
                continue
            heads = self._heads(s.head)
            if heads is None:
                self.enabled = False
                break
            read_heads[i] = heads
            body = tuple(a for a in (self._body_atom(b) for b in s.body) if a is not None)
            if not s.body and all(all(a is None or a[0] == "c" for a in h.args) for h in heads):
                for h in heads:  # a fact of the program (or a choice of facts)
                    self.static.add(h.signature, tuple(None if a is None else a[1] for a in h.args))
                continue
            for h in heads:
                self.producers.setdefault(h.signature, []).append(_Producer(h.args, body))
            if s.body:
                self.rules[i] = body
        # made true by the program's facts alone (or by the added facts: asked each time)
        self.fact_only = frozenset(self.static.facts) - frozenset(self.producers)
        for body in [*self.rules.values(), *(p.body for ps in self.producers.values()
                                             for p in ps)]:
            for atom in body:
                object.__setattr__(atom, "fact_only", atom.signature in self.fact_only)
        # What every trace works out alike, whatever the table (made on first use, each entry
        # written whole, so threads tracing at once need no lock): each pattern met ->
        # its number (the traces' memos and `_Replay` are keyed by it: a number hashes at no
        # cost); a pattern's number -> each producer whose head unifies with the pattern, with
        # its body and the head's bindings (`_ways`); (signature, pattern) -> the program's
        # facts that match it (joins); a probe (text number, signature, pattern) -> its
        # question (`_made`). The patterns come from the program alone (the facts only answer
        # yes or no), so these stay as large as the program makes them.
        self._numbers: dict[tuple[Signature, Args], int] = {}
        self._count = itertools.count()
        self._ways_made: dict[int, tuple[
            tuple[tuple[_Atom, ...], dict[str, str]], ...]] = {}
        self._selected: dict[tuple[Signature, Args], tuple[Args, ...]] = {}
        self._questions: dict[tuple[int, Signature, Args], Question] = {}
        # by the number of texts: the last exploration of each rule (`_Replay`)
        self._replays: dict[int, dict[int, _Replay]] = {}
        self._idle = frozenset(i for i, s in enumerate(statements)
                               if s.ast_type in (ASTType.Defined, ASTType.Program))
        # (signature, position) -> (constant -> the producers whose head could hold it there,
        # in program order; the producers that could hold any constant not listed)
        self._by_constant: dict[tuple[Signature, int], tuple[
            dict[str, list[_Producer]], list[_Producer]]] = {}
        for sig, producers in self.producers.items():
            for pos in range(sig[1]):
                constants = {p.head[pos][1] for p in producers
                             if p.head[pos] is not None and p.head[pos][0] == "c"}
                if not constants:
                    continue
                anything = [p for p in producers
                            if p.head[pos] is None or p.head[pos][0] == "v"]
                self._by_constant[(sig, pos)] = ({c: [p for p in producers if p.head[pos] in (
                    None, ("c", c)) or p.head[pos][0] == "v"] for c in constants}, anything)
        # what each statement reads other than through the positive body atoms of `rules`
        # (negated, in an aggregate or a condition, shown): None when not understood
        self.loose: dict[int, frozenset[Signature] | None] = {}
        # normal rules with a body (a plain atom or a pool of them as head): their signatures
        self.normal: dict[int, tuple[Signature, ...]] = {}
        # every rule's (and fact's) head signatures
        self.head_sigs: dict[int, frozenset[Signature]] = {}
        # the #show statements (without any, every atom is shown)
        self.show_statements = [i for i, s in enumerate(statements)
                                if s.ast_type in (ASTType.ShowSignature, ASTType.ShowTerm)]
        self.shows = bool(self.show_statements)
        # the signature each `#show p/n.` names (read here once: an AST's attributes are calls
        # into clingo)
        self._shown: dict[int, Signature] = {
            i: (statements[i].name, statements[i].arity) for i in self.show_statements
            if statements[i].ast_type == ASTType.ShowSignature and statements[i].name}
        if self.enabled and backwards:  # what the backward analysis reads
            for i, s in enumerate(statements):
                self.loose[i] = self._loose(s)
                if i not in read_heads:
                    continue
                heads = read_heads[i]
                self.head_sigs[i] = frozenset(h.signature for h in heads)
                plain_head = (s.head.ast_type == ASTType.Literal
                              and s.head.sign == ast.Sign.NoSign)
                if i in self.rules and plain_head and heads:
                    self.normal[i] = tuple(h.signature for h in heads)
        # for `_unread_rules`: what each statement reads, loosely or as positive body atoms
        # (None: not understood), how many statements read each signature, and the normal rules
        # by head signature
        self._reads_of: list[frozenset[Signature] | None] = [
            None if (loose := self.loose.get(i)) is None
            else loose | frozenset(atom.signature for atom in self.rules.get(i, ()))
            for i in range(len(self.statements))]
        self._not_understood = frozenset(i for i, r in enumerate(self._reads_of) if r is None)
        self._readers: dict[Signature, int] = {}
        for found in self._reads_of:
            for sig in found or ():
                self._readers[sig] = self._readers.get(sig, 0) + 1
        self._heads_at: dict[Signature, list[int]] = {}
        for i, heads in self.normal.items():
            for sig in set(heads):
                self._heads_at.setdefault(sig, []).append(i)

    # ---- reading the program ------------------------------------------------------------------
    def _arg(self, term: ast.AST) -> RuleArg:
        if term.ast_type == ASTType.SymbolicTerm:
            sym = term.symbol
            if sym.type in (clingo.SymbolType.Number, clingo.SymbolType.String):
                return ("c", str(sym))
            if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.positive:
                # a #const name is replaced by its value when grounding: unknown here
                return None if sym.name in self._consts else ("c", str(sym))
            return None
        if term.ast_type == ASTType.Variable:
            return None if term.name == "_" else ("v", term.name)
        return None

    def _atom(self, term: ast.AST) -> _Atom | None:
        if term.ast_type == ASTType.Function and not term.external:
            return _Atom(term.name, len(term.arguments),
                         tuple(self._arg(a) for a in term.arguments))
        if term.ast_type == ASTType.SymbolicTerm:
            sym = term.symbol
            if sym.type == clingo.SymbolType.Function and sym.positive and not sym.arguments:
                return _Atom(sym.name, 0, ())
        return None

    def _plain(self, literal: ast.AST) -> _Atom | None:
        if (literal.ast_type == ASTType.Literal and literal.sign == ast.Sign.NoSign
                and literal.atom.ast_type == ASTType.SymbolicAtom):
            return self._atom(literal.atom.symbol)
        return None

    def _heads(self, head: ast.AST) -> list[_Atom] | None:
        """The atoms a head can make true; [] for an integrity constraint; None: not understood."""
        if head.ast_type == ASTType.Literal:
            if head.atom.ast_type == ASTType.BooleanConstant and not head.atom.value:
                return []
            if (head.sign == ast.Sign.NoSign and head.atom.ast_type == ASTType.SymbolicAtom
                    and head.atom.symbol.ast_type == ASTType.Pool):
                # `p(a;b).` is parsed as the pool of p(a) and p(b)
                pooled = [self._atom(t) for t in head.atom.symbol.arguments]
                return None if any(a is None for a in pooled) else [a for a in pooled if a]
            atom = self._plain(head)
            return None if atom is None else [atom]
        if head.ast_type in (ASTType.Disjunction, ASTType.Aggregate):
            out = [self._plain(e.literal) for e in head.elements]
        elif head.ast_type == ASTType.HeadAggregate:
            out = [self._plain(e.condition.literal) for e in head.elements]
        else:
            return None
        return None if any(a is None for a in out) else [a for a in out if a is not None]

    def _body_atom(self, literal: ast.AST) -> _Atom | None:
        return self._plain(literal) if literal.ast_type == ASTType.Literal else None

    def _loose(self, statement: ast.AST) -> frozenset[Signature] | None:
        """The signatures `statement` reads other than as a positive body atom of `rules` (a
        plain head is written, not read); None if some atom is not understood."""
        found: set[Signature] = set()
        if statement.ast_type == ASTType.ShowSignature:
            return frozenset({(statement.name, statement.arity)})
        if statement.ast_type == ASTType.Rule:
            parts: list[ast.AST] = [b for b in statement.body if self._body_atom(b) is None]
            head = statement.head
            if head.ast_type != ASTType.Literal or head.sign != ast.Sign.NoSign:
                parts.append(head)
        elif statement.ast_type == ASTType.ShowTerm:
            parts = list(statement.body)
        else:
            return frozenset()
        return frozenset(found) if all(_reads(p, found) for p in parts) else None

    def _candidates(self, sig: Signature, pattern: Args) -> list[_Producer]:
        """The producers of `sig` whose head could unify with `pattern`, in program order: the
        fewest that the pattern's constants leave (a head with another constant at a position
        never unifies, so skipping it changes no answer and asks nothing)."""
        best = self.producers.get(sig, [])
        for pos, value in enumerate(pattern):
            if value is None:
                continue
            index = self._by_constant.get((sig, pos))
            if index is None:
                continue
            narrowed = index[0].get(value, index[1])
            if len(narrowed) < len(best):
                best = narrowed
        return best

    def _ways(self, sig: Signature, pattern: Args) -> tuple[
            tuple[tuple[_Atom, ...], dict[str, str]], ...]:
        """The producers of `sig` whose head unifies with `pattern`, in program order, each as
        its body and the head's bindings (never changed: shared by every trace)."""
        ways = []
        for producer in self._candidates(sig, pattern):
            bound = _unify(producer.head, pattern)
            if bound is not None:
                ways.append((producer.body, bound))
        return tuple(ways)

    def _unread_rules(self, dropped: set[int]) -> tuple[set[int], set[Signature] | None]:
        """`dropped` plus the normal rules whose head nothing kept reads (again and again until
        none is), and the signatures that the rest read, loosely or as positive body atoms
        (None, and nothing more left out, when a statement kept is not understood). It depends
        on `dropped` alone, so it is kept for the last few sets met (a table that needs a new
        analysis often drops the same rules as one before). The answer is shared: never
        changed by a caller.

        Each signature's readers among the statements kept are counted: a rule left out takes
        its readings away, and a rule whose heads are left with no reader is left out in turn (a
        rule that reads its own head keeps itself). Leaving out only ever takes readers away, so
        the order in which rules go does not change which go: the same as leaving out, round
        after round, every rule that nothing kept reads (one pass over the program a round
        made this about six times dearer on a program of 1,700 statements: bench/HISTORY.md)."""
        key = frozenset(dropped)
        known = self._unread.get(key)
        if known is not None:
            return known
        out = set(dropped)
        reads: set[Signature] | None = None
        if self._not_understood <= key:
            count = dict(self._readers)
            reads_of = self._reads_of
            for i in key:
                for sig in reads_of[i] or ():
                    count[sig] -= 1
            if self.shows:  # without a #show every atom is shown: every head is read
                normal, heads_at = self.normal, self._heads_at
                waiting = [i for sig, rules in heads_at.items() if not count.get(sig)
                           for i in rules]
                while waiting:
                    i = waiting.pop()
                    if i in out or any(count.get(sig) for sig in normal[i]):
                        continue
                    out.add(i)
                    for sig in reads_of[i] or ():
                        count[sig] -= 1
                        if not count[sig]:
                            waiting += heads_at.get(sig, ())
            reads = {sig for sig, n in count.items() if n}
        with self._lock:
            if len(self._unread) >= UNREAD_SETS:
                self._unread.clear()
            self._unread[key] = (out, reads)
        return out, reads

    # ---- one table ----------------------------------------------------------------------------
    def prune(self, texts: Sequence[str]) -> tuple[Sequence[ast.AST], int]:
        """The statements to ground with `texts`, and how many rules were left out (all of them
        kept, 0, when the program or a text is not understood)."""
        plan = self.plan(texts)
        return plan.statements, plan.rules_left_out

    def plan(self, texts: Sequence[str]) -> Plan:
        """What to ground for the facts `texts`: the statements without the rules that cannot
        fire (and, backwards, those whose heads nothing kept reads), and the texts without the
        facts no kept statement reads."""
        if not self.enabled:
            return Plan(self.statements, tuple(texts), 0, 0)
        indexes = []
        for text in texts:
            found = index_text(text)
            if found is None:
                return Plan(self.statements, tuple(texts), 0, 0)
            indexes.append(found)
        if self._consts and any(self._consts & index.names for index in indexes):
            # clingo replaces those names in the facts too
            return Plan(self.statements, tuple(texts), 0, 0)
        answers = self._answers.get(len(indexes))
        trace = answers.find(indexes) if answers is not None else None
        if trace is None:
            try:
                trace, questions = self._trace(indexes)
            except RecursionError:  # derivations deeper than Python's stack: keep every rule
                return Plan(self.statements, tuple(texts), 0, 0)
            with self._lock:
                self._answers.setdefault(len(indexes), _Answers()).add(questions, trace)
        passed = tuple(trace.text(k, index, text)
                       for k, (index, text) in enumerate(zip(indexes, texts, strict=True)))
        lines_out = sum(len(index.lines) for index in indexes) - sum(
            0 if not t else t.count("\n") + 1 for t in passed)
        return Plan(trace.kept, passed, trace.dropped, lines_out)

    def _trace(self, indexes: Sequence[FactIndex]) -> tuple[_Trace, list[tuple[Question, bool]]]:
        """Which rules cannot fire with the added facts `indexes`, and every question asked of
        those facts on the way, in the order asked, with its answer (the answer depends on
        nothing else)."""
        probes: dict[tuple[int, Signature, Args], bool] = {}
        memo: dict[int, bool] = {}  # by the pattern's number (`_numbers`)
        recall = memo.get
        static = self.static.matches
        ways_of, known_ways = self._ways, self._ways_made
        selected = self._selected
        numbers, number = self._numbers, self._count
        # what each rule's exploration did, for `_Replay`: the patterns in the order first
        # met (and each one's place in it), every probe asked with its answer, and the patterns
        # met that were made before the rule's exploration began (at `start`), with their answers
        order: list[int] = []
        born: dict[int, int] = {}
        log: list[tuple[tuple[int, Signature, Args], bool]] = []
        earlier: list[tuple[int, bool]] = []
        start = [0]

        def asked(sig: Signature, pattern: Args) -> bool:
            """Does an added fact match? (recorded: the trace's questions)"""
            found = False
            for k, index in enumerate(indexes):
                probe = (k, sig, pattern)
                found = probes[probe] = index.matches(sig, pattern)
                log.append((probe, found))
                if found:
                    break
            return found

        def possible(sig: Signature, pattern: Args) -> bool:
            key = numbers.get((sig, pattern))
            if key is None:  # (setdefault: one number, whichever thread gets there first)
                key = numbers.setdefault((sig, pattern), next(number))
            known = recall(key)
            if known is not None:
                if born[key] < start[0]:
                    earlier.append((key, known))
                return known
            born[key] = len(order)
            order.append(key)
            memo[key] = True  # a cycle through this pattern: assume it can be derived
            if not (static(sig, pattern) or asked(sig, pattern)):
                ways = known_ways.get(key)
                if ways is None:
                    ways = known_ways[key] = ways_of(sig, pattern)
                for body, bound in ways:
                    if satisfiable(body, bound):
                        break
                else:
                    memo[key] = False
                    return False
            return True

        def satisfiable(body: tuple[_Atom, ...], bound: dict[str, str]) -> bool:
            """Could the body hold with `bound`? The atoms that only the program's own facts
            make true are joined (their variables bound fact by fact, up to JOIN_LIMIT
            combinations); every other atom is then checked with the bindings. (Each atom's
            pattern is made here, as _instance makes it: a call less per atom.)"""
            joined: list[_Atom] | None = None
            for atom in body:  # every such atom is asked, in body order
                if atom.fact_only and not asked(atom.signature, atom.blank):
                    if joined is None:
                        joined = [atom]
                    else:
                        joined.append(atom)
            if joined is None:
                for atom in body:
                    if atom.variables:
                        pattern = list(atom.constants)
                        for i, name in atom.variables:
                            pattern[i] = bound.get(name)
                        if not possible(atom.signature, tuple(pattern)):
                            return False
                    elif not possible(atom.signature, atom.constants):
                        return False
                return True
            rest = [a for a in body if a not in joined]
            budget = [JOIN_LIMIT]
            last = len(joined)

            def join(i: int, bound: dict[str, str]) -> bool:
                if i == last:
                    return all(possible(a.signature, _instance(a, bound)) for a in rest)
                atom = joined[i]
                key = (atom.signature, _instance(atom, bound))
                facts = selected.get(key)
                if facts is None:
                    facts = selected[key] = tuple(self.static.select(*key))
                for args in facts:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return True  # too many combinations to follow: assume it can hold
                    more = _extend(bound, atom.args, args)
                    if more is not None and join(i + 1, more):
                        return True
                return False

            return join(0, bound)

        def replayed(replay: _Replay) -> bool:
            """Would this trace explore the rule as `replay` did (the same answers where it
            reads earlier ones, none of its own patterns answered yet, the facts' same answers
            to its probes)? Then it takes the outcome: the answers, then the probes in order."""
            for key, known in replay.earlier:
                if recall(key) != known:
                    return False
            for key, _ in replay.made:
                if key in memo:
                    return False
            for (k, sig, pattern), found in replay.asked:
                if indexes[k].matches(sig, pattern) != found:
                    return False
            for key, known in replay.made:
                born[key] = len(order)
                order.append(key)
                memo[key] = known
            for probe, found in replay.asked:
                probes[probe] = found
            return True

        replays = self._replays.get(len(indexes))
        if replays is None:
            replays = self._replays.setdefault(len(indexes), {})
        dropped = set()
        for i, body in self.rules.items():
            replay = replays.get(i)
            if replay is not None and replayed(replay):
                fires = replay.fires
            else:
                made, asks = len(order), len(log)
                start[0] = made
                earlier.clear()
                fires = satisfiable(body, {})
                # (each read and each probe once, the first time: the probes' order is theirs)
                replays[i] = _Replay(tuple(dict.fromkeys(earlier)),
                                     tuple((key, memo[key]) for key in order[made:]),
                                     tuple(dict.fromkeys(log[asks:])), fires)
            if not fires:
                dropped.add(i)
        start[0] = 0  # the backward half is not replayed
        if not self.backwards:
            return self._made(indexes, probes, dropped)
        # What the kept statements read: a table's facts of a signature that nothing kept reads
        # are left out. A normal rule whose head no kept statement reads (nor shows) is left
        # out too, until none is: each such rule's atoms are then read only by rules already
        # left out, so every answer set of the rest extends to exactly one of the whole (the
        # splitting theorem).
        dropped, reads = self._unread_rules(dropped)
        texts: tuple[str | None, ...] = (None,) * len(indexes)
        if reads is not None:
            texts = tuple(_lines(index, reads) for index in indexes)
        # A `#show p/n` that nothing kept and no fact of the table can make true shows nothing
        # (asking the table is a question of the trace); one is always kept: a program without
        # any #show would show every atom.
        produced: set[Signature] = set()
        for i, sigs in self.head_sigs.items():
            if i not in dropped:
                produced |= sigs
        silent = {i for i, sig in self._shown.items()
                  if sig not in produced and not asked(sig, (None,) * sig[1])}
        if len(silent) == len(self.show_statements):
            silent = set()
        return self._made(indexes, probes, dropped, silent, texts,
                          frozenset(reads) if reads is not None else None)

    def _made(self, indexes: Sequence[FactIndex], probes: dict[tuple[int, Signature, Args], bool],
              dropped: set[int], silent: Collection[int] = (),
              texts: tuple[str | None, ...] | None = None,
              wanted: frozenset[Signature] | None = None
              ) -> tuple[_Trace, list[tuple[Question, bool]]]:
        """The trace that keeps every statement but the rules `dropped` and the #show `silent`,
        and the questions `probes` in the order asked."""
        # with anything left out the engine turns off the message that `#defined` silences, and
        # every part is `base`: neither kind of statement is worth adding
        idle = self._idle if dropped else frozenset()
        key = (frozenset(dropped), frozenset(silent))
        kept = self._kept.get(key)
        if kept is None:  # one tuple per set of statements: answers alike share it
            keep = bytearray(b"\x01") * len(self.statements)
            for i in itertools.chain(dropped, silent, idle):
                keep[i] = 0
            kept = self._kept.keep(key, tuple(itertools.compress(self.statements, keep)))
        known = self._questions
        questions = []
        for probe, result in probes.items():  # in the order first asked
            question = known.get(probe)
            if question is None:  # the same probes come back in trace after trace
                k, sig, pattern = probe
                positions = tuple(i for i, v in enumerate(pattern) if v is not None)
                question = known[probe] = (k, sig, positions, tuple(pattern[i] for i in positions))
            questions.append((question, result))
        # the sources are held weakly: a kept answer must not keep every table's index alive
        trace = _Trace(tuple(weakref.ref(index) for index in indexes), kept, len(dropped),
                       texts or (None,) * len(indexes), wanted)
        return trace, questions


@dataclass(frozen=True, slots=True)
class _Replay:
    """What the exploration of one rule's body (the forward half of `Relevance._trace`) did:
    the patterns it read that earlier rules had answered, with their answers; the patterns it
    answered itself, in the order met, with their answers; every probe of the facts it asked
    with its answer, in order; and whether the body can hold. The exploration depends on
    nothing but those reads and those probes' answers, so a later trace that finds the same
    answers to the earlier patterns, none of its own patterns answered yet and the same answers
    to the probes would explore it step for step alike: it takes the outcome instead,
    the answers and the probes in the same order."""

    earlier: tuple[tuple[int, bool], ...]  # by the patterns' numbers (Relevance._numbers)
    made: tuple[tuple[int, bool], ...]
    asked: tuple[tuple[tuple[int, Signature, Args], bool], ...]
    fires: bool


# A question of the analysis to a table's facts: the text's number, the signature, the positions
# bound and the values there (FactIndex.has).
Question = tuple[int, Signature, tuple[int, ...], Args]


@dataclass(frozen=True, eq=False)
class _Trace:
    """One answer of `Relevance`: it stands for any facts that answer its questions alike."""

    sources: tuple[weakref.ref[FactIndex], ...]  # the indexes it was made with
    kept: tuple[ast.AST, ...]
    dropped: int
    # each source's text without the facts no kept statement reads (None: pass it whole)
    texts: tuple[str | None, ...]
    wanted: frozenset[Signature] | None  # the signatures the kept statements read

    def text(self, k: int, index: FactIndex, text: str) -> str:
        """The text to ground for source `k`: made once for the index the trace was made with
        (a cached text: the catalog's facts), filtered by signature for any other."""
        if self.wanted is None:
            return text
        made = self.texts[k] if index is self.sources[k]() else None
        return made if made is not None else _lines(index, self.wanted)


class _Tree:
    """The nodes of `_Answers` as numbers (the root is 0), in dicts of numbers, which Python's
    garbage collector does not track: as objects, one per node, they were about 60% of what it
    tracked in a process that had answered a few dozen "what if"s, and every full collection
    walked them all (a pause twice as long; bench/HISTORY.md)."""

    __slots__ = ("asks", "child", "traces", "questions", "numbers", "size")

    def __init__(self) -> None:
        self.asks: dict[int, int] = {}  # node -> the number of the question asked there
        self.child: dict[int, int] = {}  # 2 * node + answer (1: yes) -> the node it leads to
        self.traces: dict[int, _Trace] = {}  # leaf -> the answer for the tables that came so
        self.questions: list[Question] = []  # by number
        self.numbers: dict[Question, int] = {}
        self.size = 1


class _Answers:
    """The answers kept for one program, as the tree of the questions each one asked: the
    analysis asks its first question of every table, and its next one by the answers so far,
    so answers that agree on their first questions asked the same next one. A table is looked
    up by asking the questions along one path; a leaf reached stands for it, since the table
    answers every question of that trace as the trace's own table did. Past `TRACES` leaves the
    tree starts afresh (memo.py's way: no bookkeeping per lookup)."""

    def __init__(self) -> None:
        self.tree = _Tree()

    @property
    def leaves(self) -> int:
        return len(self.tree.traces)

    def find(self, indexes: Sequence[FactIndex]) -> _Trace | None:
        tree = self.tree  # (one tree throughout: `add` may start a new one meanwhile)
        asks, child, traces, questions = tree.asks, tree.child, tree.traces, tree.questions
        node: int | None = 0
        while node is not None:
            trace = traces.get(node)
            if trace is not None:
                return trace
            number = asks.get(node)
            if number is None:
                return None
            k, sig, positions, values = questions[number]
            node = child.get(2 * node + indexes[k].has(sig, positions, values))
        return None

    def add(self, questions: Sequence[tuple[Question, bool]], trace: _Trace) -> None:
        """Keeps `trace` at the end of the path of its `questions` (under the caller's lock)."""
        if len(self.tree.traces) >= TRACES:
            self.tree = _Tree()
        tree = self.tree
        asks, child, traces, numbers = tree.asks, tree.child, tree.traces, tree.numbers
        node = 0
        for question, answer in questions:
            if node in traces:
                return  # an answer for these tables is kept already
            number = numbers.get(question)
            if number is None:
                number = numbers[question] = len(tree.questions)
                tree.questions.append(question)
            asked = asks.get(node)
            if asked is None:
                asks[node] = number
            elif asked != number:
                return  # the analysis asked otherwise after the same answers: not kept
            key = 2 * node + answer
            next_node = child.get(key)
            if next_node is None:
                next_node = child[key] = tree.size
                tree.size += 1
            node = next_node
        if node not in traces and node not in asks:
            traces[node] = trace


@dataclass(frozen=True)
class Plan:
    """What to ground for one table (Relevance.plan)."""

    statements: Sequence[ast.AST]
    texts: tuple[str, ...]
    rules_left_out: int
    facts_left_out: int  # the texts' facts no kept statement reads

    @property
    def pruned(self) -> bool:
        return bool(self.rules_left_out or self.facts_left_out)


def _lines(index: FactIndex, wanted: frozenset[Signature] | set[Signature]) -> str:
    return "\n".join(line for sig, line in index.lines if sig in wanted)


def _instance(atom: _Atom, bound: dict[str, str]) -> Args:
    """The pattern of `atom` with the variables `bound` (None: anything)."""
    if not atom.variables:
        return atom.constants
    pattern = list(atom.constants)
    for i, name in atom.variables:
        pattern[i] = bound.get(name)
    return tuple(pattern)


def _extend(bound: dict[str, str], args: tuple[RuleArg, ...],
            values: Args) -> dict[str, str] | None:
    """`bound` plus the variables of `args` bound to a fact's `values`; None on a clash."""
    more = dict(bound)
    for a, value in zip(args, values, strict=True):
        if a is None or value is None or a[0] != "v":
            continue
        if more.setdefault(a[1], value) != value:
            return None
    return more


def symbolic_atoms(node: Any, out: list[ast.AST]) -> None:
    """Appends every atom (SymbolicAtom) of `node`, an AST or a sequence of them, to `out`."""
    if isinstance(node, ast.AST):
        if node.ast_type == ASTType.SymbolicAtom:
            out.append(node)
            return
        for key in node.child_keys:
            symbolic_atoms(getattr(node, key), out)
    elif isinstance(node, Sequence) and not isinstance(node, str):
        for item in node:
            symbolic_atoms(item, out)


def _reads(node: ast.AST, found: set[Signature]) -> bool:
    """Adds the signature of every atom in `node` to `found`; False if one is not understood
    (a classical negation, an external function)."""
    atoms: list[ast.AST] = []
    symbolic_atoms(node, atoms)
    for atom in atoms:
        term = atom.symbol
        for t in term.arguments if term.ast_type == ASTType.Pool else [term]:
            if t.ast_type == ASTType.Function and not t.external:
                found.add((t.name, len(t.arguments)))
            elif (t.ast_type == ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function
                  and t.symbol.positive):
                found.add((t.symbol.name, len(t.symbol.arguments)))
            else:
                return False
    return True


def _unify(head: tuple[RuleArg, ...], pattern: Args) -> dict[str, str] | None:
    bound: dict[str, str] = {}
    for h, want in zip(head, pattern, strict=True):
        if h is None or want is None:
            continue
        kind, value = h
        if kind == "c":
            if value != want:
                return None
        elif bound.setdefault(value, want) != want:
            return None
    return bound
