"""The (finding key, source) pairs that the rules programs can cite, read from their text.

A finding's sources are cites/3 atoms: cite(Key, Source) facts (ruling/citations.lp turns them
into cites/3) and rules whose head is cites(Key, Args, Source). Both are read from the parsed
statements of every composition of the rules and play programs (the games the reader accepts,
adjudicator/engine/solve.py's hubs), without grounding: most of those rules fire only on tables
that no scenario sets, and that is where a citation off target would go unnoticed.

Only rules that can fire in their game count: those whose positive body atoms can all be
derived (the least fixpoint over the predicates and the constants of their arguments; a
predicate no composition has a rule for is an input, which any table may hold, except edition/1
and expansion/1, which hold the game's own). A key or a source written as a variable is followed
to the body atoms that bind it: the values that the heads of that predicate's rules can put at
that place (followed again where the head has a variable there), or the constant of a comparison
`Var = constant`; where several bind it, only the values all of them allow (and none that a
`Var != constant` rules out). A variable
that nothing binds to known values raises StaticReadError, so that a new way of citing is
noticed instead of skipped. Card sources (a term card(C) or a string "card:...") are left out:
a card states its own rule.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import clingo
from clingo.ast import AST, ASTType, ComparisonOperator, Sign

from adjudicator.cards.catalog import EDITIONS, EXPANSION_BASE, EXPANSIONS
from adjudicator.engine import solve

# (edition, expansions) of every game the reader accepts: expansions add to EXPANSION_BASE only
GAMES: list[tuple[str, tuple[str, ...]]] = [(e, ()) for e in EDITIONS] + [
    (EXPANSION_BASE, tuple(c)) for n in range(1, len(EXPANSIONS) + 1)
    for c in combinations(EXPANSIONS, n)]

Pred = tuple[str, int]


@dataclass(frozen=True)
class Var:
    name: str


CARD = "card(*)"  # the value of a card term with variables, card(C)
# A term read plainly (clingo's AST is slow to walk): a ground term as its text, a variable, a
# card term with variables as CARD, anything else (an operation, a pool, an interval) as None.
Term = str | Var | None


@dataclass(frozen=True)
class Atom:
    pred: Pred
    args: tuple[Term, ...]

    def fixed(self) -> tuple[tuple[int, str], ...]:
        """(position, value) of its ground arguments."""
        return tuple((i, a) for i, a in enumerate(self.args) if isinstance(a, str) and a != CARD)


@dataclass(frozen=True)
class Rule:
    head: Atom
    atoms: tuple[Atom, ...]  # the positive atoms of the body
    equal: tuple[tuple[str, str], ...]  # (variable, constant) of the body's `Var = constant`
    unequal: tuple[tuple[str, str], ...]  # and of its `Var != constant`
    file: str
    line: int


class StaticReadError(ValueError):
    """A citation whose key or source the text does not bind to known values."""


def _term(term: AST) -> Term:
    if term.ast_type == ASTType.Variable:
        return Var(term.name)
    if term.ast_type == ASTType.SymbolicTerm:
        return str(term)
    if term.ast_type == ASTType.Function and not term.external:
        args = [_term(a) for a in term.arguments]
        if all(isinstance(a, str) and a != CARD for a in args):
            return str(term)
        return CARD if term.name == "card" else None
    return None


def _atom(atom: AST) -> Atom | None:
    if atom.ast_type != ASTType.SymbolicAtom:
        return None
    fn = atom.symbol
    if fn.ast_type == ASTType.Function and not fn.external:
        return Atom((fn.name, len(fn.arguments)), tuple(_term(a) for a in fn.arguments))
    if fn.ast_type == ASTType.SymbolicTerm and fn.symbol.type == clingo.SymbolType.Function:
        return Atom((fn.symbol.name, 0), ())
    return None


def _compared(comparison: AST) -> tuple[ComparisonOperator, str, str] | None:
    """(operator, variable, constant) of `Var = constant` or `Var != constant` (either way
    round)."""
    if len(comparison.guards) != 1:
        return None
    op = comparison.guards[0].comparison
    if op not in (ComparisonOperator.Equal, ComparisonOperator.NotEqual):
        return None
    sides = (_term(comparison.term), _term(comparison.guards[0].term))
    for left, right in (sides, sides[::-1]):
        if isinstance(left, Var) and isinstance(right, str) and right != CARD:
            return op, left.name, right
    return None


def _heads(statement: AST) -> Iterator[tuple[AST, list[AST]]]:
    """The atoms a rule's head can derive, each with the body it holds under."""
    head, body = statement.head, list(statement.body)
    if head.ast_type == ASTType.Literal:
        yield head.atom, body
    elif head.ast_type in (ASTType.Disjunction, ASTType.Aggregate):
        for element in head.elements:
            yield element.literal.atom, body + list(element.condition)
    elif head.ast_type == ASTType.HeadAggregate:
        for element in head.elements:
            yield element.condition.literal.atom, body + list(element.condition.condition)


def _file(name: str) -> str:
    return os.path.normpath(name)


def read_rules(statements: Iterable[AST]) -> list[Rule]:
    """The rules of parsed statements (unpooled), read plainly."""
    out = []
    for statement in statements:
        if statement.ast_type != ASTType.Rule:
            continue
        for unpooled in statement.unpool():
            for head_atom, body in _heads(unpooled):
                head = _atom(head_atom)
                if head is None:
                    continue
                atoms, compared = [], []
                for lit in body:
                    if lit.ast_type != ASTType.Literal or lit.sign != Sign.NoSign:
                        continue
                    if lit.atom.ast_type == ASTType.Comparison:
                        if (found := _compared(lit.atom)) is not None:
                            compared.append(found)
                    elif (atom := _atom(lit.atom)) is not None:
                        atoms.append(atom)
                where = statement.location.begin
                out.append(Rule(
                    head, tuple(atoms),
                    tuple((v, c) for op, v, c in compared if op == ComparisonOperator.Equal),
                    tuple((v, c) for op, v, c in compared if op == ComparisonOperator.NotEqual),
                    _file(where.filename), where.line))
    return out


def _agrees(args: Sequence[Term], fixed: Iterable[tuple[int, str]]) -> bool:
    """Whether a head's arguments can take the constants `fixed`."""
    return not any(isinstance(args[i], str) and args[i] != CARD and args[i] != v
                   for i, v in fixed)


class Program:
    """The rules of one composition that can fire in its game, by head predicate, and the
    values their heads can put at each place."""

    def __init__(self, rules: Sequence[Rule], inputs: dict[Pred, frozenset[str]],
                 derived: frozenset[Pred]) -> None:
        """`derived`: the predicates some composition has rules for; any other is an input,
        which any table may hold, except those in `inputs`, which hold only the values given."""
        self.inputs = inputs
        self.derived = derived
        self.rules: dict[Pred, list[Rule]] = defaultdict(list)
        waiting = list(rules)
        while True:  # the least fixpoint: a rule fires once its body atoms can be derived
            fires = [self._can_fire(rule) for rule in waiting]
            if not any(fires):
                break
            for rule, fire in zip(waiting, fires, strict=True):
                if fire:
                    self.rules[rule.head.pred].append(rule)
            waiting = [rule for rule, fire in zip(waiting, fires, strict=True) if not fire]
        self._memo: dict[tuple, frozenset[str] | None] = {}

    def _can_fire(self, rule: Rule) -> bool:
        for atom in rule.atoms:
            fixed = atom.fixed()
            if atom.pred in self.inputs:
                if not all(v in self.inputs[atom.pred] for _, v in fixed):
                    return False
            elif atom.pred in self.derived and not any(
                    _agrees(r.head.args, fixed) for r in self.rules.get(atom.pred, ())):
                return False
        return True

    def values_at(self, pred: Pred, pos: int, fixed: tuple[tuple[int, str], ...] = (),
                  stack: frozenset = frozenset()) -> frozenset[str] | None:
        """The values an atom of `pred` can have at `pos`, among the heads that agree with
        `fixed`; None where some head's value there is not known (or the heads recurse)."""
        key = (pred, pos, fixed)
        if key in self._memo:
            return self._memo[key]
        if key in stack:
            return None
        out: set[str] = set()
        for rule in self.rules.get(pred, ()):
            if not _agrees(rule.head.args, fixed):
                continue
            found = self.term_values(rule.head.args[pos], rule, stack | {key})
            if found is None:
                out = None
                break
            out |= found
        result = None if out is None else frozenset(out)
        if not stack:  # a value read through a cut recursion is not the whole answer
            self._memo[key] = result
        return result

    def term_values(self, term: Term, rule: Rule,
                    stack: frozenset = frozenset()) -> frozenset[str] | None:
        """The values `term` can have in `rule` (a variable: as its body binds it)."""
        if not isinstance(term, Var):
            return None if term is None else frozenset({term})
        bound = [frozenset({v}) for name, v in rule.equal if name == term.name]
        for atom in rule.atoms:
            if atom.pred not in self.derived:
                continue
            for i, a in enumerate(atom.args):
                if a == term:
                    found = self.values_at(atom.pred, i, atom.fixed(), stack)
                    if found is not None:
                        bound.append(found)
        if not bound:
            return None
        return frozenset.intersection(*bound) - {v for name, v in rule.unequal if name == term.name}


def _source(value: str) -> str | None:
    """A source id from a value: None for a card."""
    if value == CARD or value.startswith("card("):
        return None
    sym = clingo.parse_term(value)
    if sym.type != clingo.SymbolType.String:
        raise StaticReadError(f"a source that is neither a string nor a card: {value}")
    return None if sym.string.startswith("card:") else sym.string


def program_pairs(prog: Program) -> set[tuple[str, str]]:
    """(key, non-card source) of every cite/2 and cites/3 head that can fire in a program."""
    out: set[tuple[str, str]] = set()
    for pred in (("cite", 2), ("cites", 3)):
        for rule in prog.rules.get(pred, ()):
            if pred[0] == "cites" and any(a.pred == ("cite", 2) for a in rule.atoms):
                continue  # citations.lp's rule that turns cite/2 into cites/3: read as cite/2
            keys = prog.term_values(rule.head.args[0], rule)
            sources = prog.term_values(rule.head.args[-1], rule)
            if keys is None or sources is None:
                raise StaticReadError(f"{rule.file}:{rule.line}: a {pred[0]} whose "
                                      f"{'key' if keys is None else 'source'} is not read")
            out |= {(k, s) for k in keys for v in sources if (s := _source(v)) is not None}
    return out


@cache
def static_pairs() -> frozenset[tuple[str, str]]:
    """(key, non-card source) that the rules and play programs of every game can cite."""
    # the full programs' rules, read once; each game's are those of the files its hubs include
    full = read_rules(solve.parsed(solve.hub_files() + solve.hub_files(play=True)))
    derived = frozenset(rule.head.pred for rule in full)
    full_files = {rule.file for rule in full}
    out: set[tuple[str, str]] = set()
    for edition, expansions in GAMES:
        paths = solve.hub_files(edition, expansions) + solve.hub_files(edition, expansions,
                                                                       play=True)
        files = {_file(s.location.begin.filename) for s in solve.parsed(paths)
                 if s.ast_type == ASTType.Rule}
        if not files <= full_files:
            raise StaticReadError(f"files the full hubs do not include: {files - full_files}")
        inputs = {("edition", 1): frozenset({edition}), ("expansion", 1): frozenset(expansions)}
        out |= program_pairs(Program([r for r in full if r.file in files], inputs, derived))
    return frozenset(out)
