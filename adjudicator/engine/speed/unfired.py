"""Rules that fired for no earlier table of the same plan: left out, then checked.

Why: clingo pays about as much for a rule that never fires as for one that does (docs/ENGINE.md,
"Programs"). relevance.py leaves out the rules that no fact of a table can make fire, but about
half of the rules it keeps still fire for none of the benchmark tables: their bodies need two
New Rules of one kind in play, a number above another, a rule card that is not on the table
(`not has_rule_of(draw)`), and so on. Telling that takes the values, that is, grounding. So the
answer sets tell it, and every ruling checks it:

- the second time a plan (relevance.Plan's statements) is grounded with every rule, the body of
  each rule is evaluated on the answer set (bodies.py); the rules whose bodies hold for no
  binding, and cost little to check, are the plan's *unfired* rules (after a miss, only the rules
  unfired every time stay so; the first time, nothing is learnt: a one-off table never pays);
- the next table of the same plan is grounded without them, and their bodies are evaluated on
  its answer set. If none holds there, that answer set is the whole program's, and its only one:
  a set M in which no body of the rules D holds is an answer set of a program P exactly when it
  is one of P without D (the reduct of such a rule is satisfied by M whatever its head), and a
  stratified program (no choice, no recursion through negation or an aggregate) has at most one
  answer set. Otherwise, or when the program without them has not exactly one answer set, the
  table is grounded again with every rule, and the plan's unfired rules are learnt anew.

Only stratified programs are thinned (`stratified`: by their form, atoms told apart by their
constant arguments), and only when the other texts are plain facts. A rule whose body bodies.py
does not evaluate (an aggregate, a condition, a pool, ...) is never left out; an evaluation it
cannot finish at run time counts as a body that holds, so the table is grounded again whole.

Nothing here decides a rule: the bodies are rules_asp's, evaluated on clingo's own answer set.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import clingo.ast as A

from ..terms import TermSyntaxError
from .bodies import Atoms, Body, NotUnderstood
from .relevance import symbolic_atoms

UNFIRED_ENV = "FLUXX_UNFIRED"  # "0": ground every rule of the plan (for comparing)
# A rule is left out only if checking its body took at most this many steps (literals tried
# plus atoms met) on the answer set it was learnt from: a step costs about a microsecond of
# Python, grounding a rule some tens (bench/README.md); beyond it the rule is cheaper to ground.
CHECK_WORK = int(os.environ.get("FLUXX_CHECK_WORK", "12"))
_T = A.ASTType
# statements that say nothing about which atoms are true
_QUIET = {_T.Program, _T.ShowSignature, _T.ShowTerm, _T.Defined, _T.Comment, _T.Definition}


def enabled() -> bool:
    return os.environ.get(UNFIRED_ENV, "1") != "0"


# ---- programs -----------------------------------------------------------------------------------
# An atom as the dependency check sees it: name, and each argument's constant text or None
AtomShape = tuple[str, tuple[str | None, ...]]


def _shape(symbol: Any, consts: frozenset[str]) -> AtomShape | None:
    negative = ""
    if symbol.ast_type == _T.UnaryOperation and symbol.operator_type == A.UnaryOperator.Minus:
        symbol, negative = symbol.argument, "-"
    if symbol.ast_type != _T.Function:
        return None
    args: list[str | None] = []
    for arg in symbol.arguments:
        constant = arg.ast_type == _T.SymbolicTerm or (
            arg.ast_type == _T.Function and not arg.arguments and not arg.external)
        text = str(arg) if constant else None
        args.append(None if text in consts else text)  # a #const may be any value
    return (negative + symbol.name, tuple(args))


def _shapes(node: Any, consts: frozenset[str]) -> list[AtomShape] | None:
    found: list[Any] = []
    symbolic_atoms(node, found)
    shapes = [_shape(atom.symbol, consts) for atom in found]
    return None if any(s is None for s in shapes) else shapes  # type: ignore[return-value]


def _unify(a: AtomShape, b: AtomShape) -> bool:
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(
        x is None or y is None or x == y for x, y in zip(a[1], b[1], strict=True))


# What the dependency check needs of one statement: None (it may give a program several answer
# sets: a choice, a disjunction, anything unknown), () (it adds no answer set: a constraint, a
# #show, ...), or its head and body atoms (each with: through negation or an aggregate?).
Shape = tuple[AtomShape, tuple[tuple[AtomShape, bool], ...]] | tuple[()] | None


def _statement_shape(s: Any, consts: frozenset[str]) -> Shape:
    if s.ast_type in _QUIET:
        return ()
    if s.ast_type != _T.Rule or s.head.ast_type != _T.Literal or s.head.sign != A.Sign.NoSign:
        return None
    if s.head.atom.ast_type == _T.BooleanConstant:
        return ()  # a constraint: it removes answer sets, never adds one
    head = _shapes(s.head, consts)
    if head is None or len(head) != 1:
        return None
    body: list[tuple[AtomShape, bool]] = []
    for literal in s.body:
        positive = literal.ast_type == _T.Literal and literal.sign == A.Sign.NoSign \
            and literal.atom.ast_type == _T.SymbolicAtom
        shapes = _shapes(literal, consts)
        if shapes is None:
            return None
        body += [(shape, not positive) for shape in shapes]
    return (head[0], tuple(body))


@dataclass(frozen=True)
class _Compiled:
    statement: Any  # kept: its id is the key
    shape: Shape
    body: Body | None  # None: never left out


# Each statement read once per process (reading a clingo AST is a call into clingo per attribute)
_COMPILED: dict[tuple[int, frozenset[str]], _Compiled] = {}
_COMPILED_MAX = 1 << 15


def _compiled(s: Any, consts: frozenset[str] = frozenset()) -> _Compiled:
    """Under the AST lock: what this module needs of the statement `s` of a program whose
    `#const`s define `consts`."""
    found = _COMPILED.get((id(s), consts))
    if found is not None and found.statement is s:
        return found
    body = None
    if s.ast_type == _T.Rule and s.body and s.head.ast_type == _T.Literal \
            and s.head.atom.ast_type == _T.SymbolicAtom:
        try:
            body = Body(s.body, consts)
        except (NotUnderstood, TermSyntaxError):
            body = None
    made = _Compiled(s, _statement_shape(s, consts), body)
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.clear()
    _COMPILED[(id(s), consts)] = made
    return made


def stratified(statements: Sequence[Any]) -> bool:
    """Whether the program has at most one answer set by its form: normal rules and
    constraints only, and no atom depends on itself through negation or an aggregate. Atoms are
    told apart by their constant arguments (`play_mode(count) :- not play_mode(all), ...` is
    fine), anything else in an argument may be any value."""
    consts = _consts(statements)
    return _stratified([_compiled(s, consts).shape for s in statements])


def _consts(statements: Sequence[Any]) -> frozenset[str]:
    """The names the `#const` statements among `statements` define."""
    return frozenset(s.name for s in statements if s.ast_type == _T.Definition)


def _stratified(shapes: Sequence[Shape]) -> bool:
    heads: list[AtomShape] = []
    bodies: list[tuple[tuple[AtomShape, bool], ...]] = []
    for shape in shapes:
        if shape is None:
            return False
        if shape:
            heads.append(shape[0])
            bodies.append(shape[1])
    by_name: dict[str, list[int]] = {}
    for i, head in enumerate(heads):
        by_name.setdefault(head[0], []).append(i)
    # rule i depends on rule j when an atom of i's body may be j's head
    edges: list[list[tuple[int, bool]]] = [
        [(j, loose) for shape, loose in body for j in by_name.get(shape[0], ())
         if _unify(shape, heads[j])] for body in bodies]
    for i, out in enumerate(edges):
        for j, loose in out:
            if not loose:
                continue
            seen, stack = {j}, [j]  # through negation from i to j: may j reach i?
            while stack:
                k = stack.pop()
                if k == i:
                    return False
                for nxt, _ in edges[k]:
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
    return True


@dataclass(frozen=True)
class Lean:
    """One plan without its unfired rules."""

    statements: tuple[Any, ...]
    left_out: tuple[Body, ...]
    names: frozenset[str]  # the names of the atoms their bodies read

    def holds(self, symbols: Iterable[Any]) -> bool:
        """Whether the answer set of `statements` (all its atoms) is the whole plan's: no body of
        a rule left out holds in it."""
        try:
            atoms = Atoms(symbols, self.names)
            present = atoms.rows.keys()
            # most bodies need an atom of a predicate the answer set has none of
            return not any(body.needs <= present and body.holds(atoms) for body in self.left_out)
        except (NotUnderstood, TermSyntaxError):
            return False


class Entry:
    """What is known of one plan's rules: their compiled bodies and which ones never fired."""

    MISSES = 8  # checks that failed before a plan is no longer thinned

    def __init__(self, statements: Sequence[Any], consts: frozenset[str] = frozenset(),
                 lock: Any = None) -> None:
        """`consts`: the #const names of the whole program the plan `statements` was taken
        from (relevance.Relevance.consts); `lock` guards reading the shared AST. Nothing is
        read before the plan is to be learnt from (`learning`)."""
        self.statements = statements
        self._program_consts, self._ast_lock = consts, lock
        self.stratified: bool | None = None  # not yet known
        self.bodies: dict[int, Body] = {}
        self.names: frozenset[str] = frozenset()
        self.unfired: frozenset[int] | None = None  # left out: unfired for every table learnt
        self.lean: Lean | None = None
        self.misses = 0
        self.relearn = True  # the next whole answer set is to be learnt from
        self.wholes = 0  # times the plan was grounded whole
        self._lock = threading.Lock()

    def _read(self) -> None:
        """Reads the plan's statements: is it stratified, and its rules' bodies compiled."""
        with self._ast_lock if self._ast_lock is not None else nullcontext():
            consts = _consts(self.statements) | self._program_consts
            compiled = [_compiled(s, consts) for s in self.statements]
        stratified = _stratified([c.shape for c in compiled])
        if stratified:
            self.bodies = {i: c.body for i, c in enumerate(compiled) if c.body is not None}
            self.names = frozenset(sig[0] for b in self.bodies.values() for sig in b.sigs)
        self.stratified = stratified

    @property
    def learning(self) -> bool:
        """Whether the next answer set of the whole plan should be read for unfired rules: not
        the first one (learning costs several groundings' worth of Python, which only a plan met
        again pays back: a one-off table, or a command-line run, never learns)."""
        if self.wholes == 0 or not self.relearn or self.misses >= self.MISSES:
            return False
        if self.stratified is None:
            self._read()
        return bool(self.bodies)

    def grounded_whole(self) -> None:
        """The plan was grounded whole once more."""
        self.wholes += 1

    def learn(self, symbols: Iterable[Any]) -> None:
        """Reads which rules fired in an answer set of the whole plan: those whose bodies hold
        for no binding, and cost little to check (CHECK_WORK), are left out next time."""
        try:
            atoms = Atoms(symbols, self.names)
        except TermSyntaxError:  # an atom this module cannot read: nothing is left out
            with self._lock:
                self.unfired, self.lean, self.relearn = frozenset(), None, False
            return
        sizes = {sig: len(rows) for sig, rows in atoms.rows.items()}
        unfired: dict[int, Body] = {}
        for i, body in self.bodies.items():
            try:
                if body.holds(atoms):
                    continue
                # unfired: ordered for answer sets like this one, and what its check costs
                ordered, work = body.ordered(sizes), [0]
                if not ordered.holds(atoms, work) and work[0] <= CHECK_WORK:
                    unfired[i] = ordered
            except NotUnderstood:
                continue
        with self._lock:
            now = frozenset(unfired) if self.unfired is None else self.unfired & set(unfired)
            self.unfired, self.relearn = now, False
            if now:
                left = [unfired[i] for i in sorted(now)]
                self.lean = Lean(
                    tuple(s for i, s in enumerate(self.statements) if i not in now),
                    tuple(left), frozenset(sig[0] for b in left for sig in b.sigs))

    def missed(self) -> None:
        """A check failed: the next whole answer set is learnt from (the rules unfired then
        and before stay left out)."""
        with self._lock:
            self.misses += 1
            self.lean, self.relearn = None, True


# Entries by plan: a plan is the tuple of its statements (relevance.py makes one per trace, and
# may make it again once the trace is forgotten), told apart by the ids of its statements; an
# entry keeps its statements, so no other statement can take one of those ids meanwhile.
_ENTRIES: dict[tuple[int, ...], Entry] = {}
_LAST: dict[int, tuple[Sequence[Any], Entry]] = {}  # by the plan object itself: no key to make
_ENTRIES_MAX = 256
_ENTRIES_LOCK = threading.Lock()


def entry(statements: Sequence[Any], lock: Any, consts: frozenset[str] = frozenset()) -> Entry:
    """The entry of a plan's statements (made once; `lock` guards reading the shared AST,
    `consts`: the #const names of the program the plan was taken from)."""
    last = _LAST.get(id(statements))
    if last is not None and last[0] is statements:
        return last[1]
    key = tuple(map(id, statements))
    with _ENTRIES_LOCK:
        found = _ENTRIES.get(key)
    if found is None:
        made = Entry(statements, consts, lock)
        with _ENTRIES_LOCK:
            found = _ENTRIES.setdefault(key, made)
            while len(_ENTRIES) > _ENTRIES_MAX:  # the oldest plan goes first
                del _ENTRIES[next(iter(_ENTRIES))]
    with _ENTRIES_LOCK:
        if len(_LAST) >= _ENTRIES_MAX:
            _LAST.clear()
        _LAST[id(statements)] = (statements, found)
    return found
