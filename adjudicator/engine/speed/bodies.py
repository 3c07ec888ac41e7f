"""Rule bodies evaluated on an answer set: for each, whether it holds for some binding.

What unfired.py checks its left-out rules with (and learns them by). Input: a rule body as
clingo's AST (`Body`), and the atoms of an answer set (`Atoms`, read from clingo's handles,
symbols or terms.Term). Output: `Body.holds(atoms)`, True or False, or NotUnderstood.

The evaluation must never say False where clingo would ground the body as true: that would
leave out a rule that fires. So it evaluates only what it reads exactly as clingo does (atoms,
`not` and `not not`, comparisons and their chains, `X = expr` either way, `+ - *` within 32
bits, anonymous variables), and raises NotUnderstood for anything else: at compile time for an
aggregate, a condition, a pool, an interval, a classical negation or a `#const` name (such a
rule is never left out), at run time for an ordering of non-numbers or arithmetic beyond 32 bits
(the caller then grounds the table again whole). tests/engine/test_unfired.py checks it against
clingo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import clingo
import clingo.ast as A

from ...memo import Memo
from ..terms import INTERNED, Term, handle, parse, symbol_text

_T = A.ASTType
_NUMBER = clingo.SymbolType.Number
_FUNCTION = clingo.SymbolType.Function
_CMP = A.ComparisonOperator
_OPS = {A.BinaryOperator.Plus: lambda a, b: a + b,
        A.BinaryOperator.Minus: lambda a, b: a - b,
        A.BinaryOperator.Multiplication: lambda a, b: a * b}
_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1
Signature = tuple[str, int]
Key = int | str  # an argument as compared: a number's value, any other term's text


class NotUnderstood(Exception):
    """A body (or a part of one) this module does not evaluate."""


def _key(term: Term) -> Key:
    return term.number if term.type == _NUMBER else str(term)


def _number(value: int) -> Term:
    return Term(_NUMBER, str(value), number=value)


# ---- an answer set's atoms, by signature --------------------------------------------------------
# The reading of each atom met so far, by clingo's handle (see terms.symbol_text: clingo 5 interns
# symbols for the life of the process).
_READ: Memo[int, tuple[Signature, tuple[tuple[Key, ...], Term]]] = Memo(1 << 16)


def handles(sequence: Sequence[Any]) -> list[Any]:
    """The atoms of a model's `symbols()` as clingo's handles (plain ints: no Symbol object made
    per atom), or as the symbols where the handles are not to be had (see terms.symbol_text)."""
    raw = getattr(sequence, "_p_symbols", None) if INTERNED else None
    return list(raw) if raw is not None else list(sequence)


def _read(item: Any) -> tuple[Signature, tuple[tuple[Key, ...], Term]]:
    """An atom (a handle, a clingo symbol or a Term) as its signature, the keys of its
    arguments and itself."""
    rep = handle(item)
    found = _READ.get(rep) if rep is not None else None
    if found is None:
        if isinstance(item, Term):
            term = item
        else:
            term = parse(symbol_text(item))  # a handle, or a clingo symbol
        name = ("-" + term.name) if term.negative else term.name
        found = ((name, len(term.arguments)), (tuple(_key(a) for a in term.arguments), term))
        if rep is not None:
            _READ.keep(rep, found)
    return found


class Atoms:
    """The atoms of one answer set whose names `names` lists, ready for evaluating bodies."""

    def __init__(self, symbols: Iterable[Any], names: frozenset[str]) -> None:
        self.rows: dict[Signature, list[tuple[tuple[Key, ...], Term]]] = {}
        self._sets: dict[Signature, set[tuple[Key, ...]]] = {}
        self._indexes: dict[tuple[Signature, tuple[int, ...]], dict[tuple[Key, ...], list[
            tuple[tuple[Key, ...], Term]]]] = {}
        rows = self.rows
        items = symbols if isinstance(symbols, list) else list(symbols)
        # the readings of handles met before, looked up in one pass (most are: see _READ);
        # clingo's symbols and Terms (no handles to be had) are read one by one
        if items and type(items[0]) is int:
            entries = list(map(_READ.get, items))
            if None in entries:
                entries = [e if e is not None else _read(i)
                           for i, e in zip(items, entries, strict=True)]
        else:
            entries = list(map(_read, items))
        for sig, row in entries:
            if sig[0] in names:
                kept = rows.get(sig)
                if kept is None:
                    rows[sig] = [row]
                else:
                    kept.append(row)

    def lookup(self, sig: Signature, positions: tuple[int, ...],
               keys: tuple[Key, ...]) -> list[tuple[tuple[Key, ...], Term]]:
        """The atoms of `sig` whose arguments at `positions` are `keys` (an index per
        signature and positions, made when first asked for)."""
        if not positions:
            return self.rows.get(sig, [])
        index = self._indexes.get((sig, positions))
        if index is None:
            index = self._indexes[(sig, positions)] = {}
            for row in self.rows.get(sig, ()):
                index.setdefault(tuple(row[0][p] for p in positions), []).append(row)
        return index.get(keys, [])

    def has(self, sig: Signature, keys: tuple[Key, ...]) -> bool:
        found = self._sets.get(sig)
        if found is None:
            found = self._sets[sig] = {k for k, _ in self.rows.get(sig, ())}
        return keys in found


# ---- bodies -------------------------------------------------------------------------------------
# A pattern: ("any",) | ("var", name) | ("const", key, Term) | ("fun", name, args)
# | ("op", fn, a, b)
Pattern = tuple[Any, ...]


def _pattern(node: Any, consts: frozenset[str] = frozenset()) -> Pattern:
    """`consts`: the names a `#const` of the program defines (clingo puts their values in
    their place: such a name is not evaluated here)."""
    kind = node.ast_type
    if kind == _T.Variable:
        return ("any",) if node.name == "_" else ("var", node.name)
    if kind == _T.SymbolicTerm:
        symbol = node.symbol
        if symbol.type not in (_NUMBER, _FUNCTION, clingo.SymbolType.String):
            raise NotUnderstood(str(node))
        if symbol.type == _FUNCTION and not symbol.arguments and symbol.name in consts:
            raise NotUnderstood(f"the #const {symbol.name}")
        term = parse(str(symbol))
        return ("const", _key(term), term)
    if kind == _T.Function and not node.external:
        if not node.arguments and node.name in consts:
            raise NotUnderstood(f"the #const {node.name}")
        return ("fun", node.name, tuple(_pattern(a, consts) for a in node.arguments))
    if kind == _T.BinaryOperation and node.operator_type in _OPS:
        return ("op", _OPS[node.operator_type], _pattern(node.left, consts),
                _pattern(node.right, consts))
    if kind == _T.UnaryOperation and node.operator_type == A.UnaryOperator.Minus:
        return ("op", _OPS[A.BinaryOperator.Minus], ("const", 0, _number(0)),
                _pattern(node.argument, consts))
    raise NotUnderstood(str(node))


def _variables(pattern: Pattern) -> set[str]:
    if pattern[0] == "var":
        return {pattern[1]}
    if pattern[0] == "fun":
        return set().union(*(_variables(a) for a in pattern[2]))
    if pattern[0] == "op":
        return _variables(pattern[2]) | _variables(pattern[3])
    return set()


def _value(pattern: Pattern, bound: dict[str, Term]) -> Term:
    """The term a pattern with every variable bound stands for."""
    kind = pattern[0]
    if kind == "var":
        found = bound.get(pattern[1])
        if found is None:
            raise NotUnderstood(f"{pattern[1]} is not bound")
        return found
    if kind == "const":
        return pattern[2]
    if kind == "fun":
        return Term(_FUNCTION, None, pattern[1], tuple(_value(a, bound) for a in pattern[2]))
    if kind == "op":
        left, right = _value(pattern[2], bound), _value(pattern[3], bound)
        if left.type != _NUMBER or right.type != _NUMBER:
            raise NotUnderstood("arithmetic on a non-number")
        result = pattern[1](left.number, right.number)
        if not all(_INT_MIN <= n <= _INT_MAX for n in (left.number, right.number, result)):
            # clingo's numbers are 32-bit and wrap (not always alike): left to clingo
            raise NotUnderstood("arithmetic beyond 32 bits")
        return _number(result)
    raise NotUnderstood("an anonymous variable outside an atom")


def _match(pattern: Pattern, key: Key, term: Term, bound: dict[str, Term]) -> bool:
    """Whether `term` (whose key is `key`) matches `pattern`, binding its free variables in
    `bound` (the caller passes a copy it may drop)."""
    kind = pattern[0]
    if kind == "any":
        return True
    if kind == "const":
        return pattern[1] == key
    if kind == "var":
        have = bound.get(pattern[1])
        if have is None:
            bound[pattern[1]] = term
            return True
        return _key(have) == key
    if kind == "fun":
        args = pattern[2]
        if term.type != _FUNCTION or term.negative or term.name != pattern[1] \
                or len(term.arguments) != len(args):
            return False
        return all(_match(p, _key(t), t, bound) for p, t in zip(args, term.arguments, strict=True))
    return _key(_value(pattern, bound)) == key  # arithmetic: its variables are bound first


_COMPARE = {_CMP.Equal: lambda a, b: a == b, _CMP.NotEqual: lambda a, b: a != b,
            _CMP.LessThan: lambda a, b: a < b, _CMP.LessEqual: lambda a, b: a <= b,
            _CMP.GreaterThan: lambda a, b: a > b, _CMP.GreaterEqual: lambda a, b: a >= b}


def _compare(op: Any, left: Term, right: Term) -> bool:
    if op in (_CMP.Equal, _CMP.NotEqual):
        return _COMPARE[op](_key(left), _key(right))
    if left.type != _NUMBER or right.type != _NUMBER:
        raise NotUnderstood("an ordering of non-numbers")
    return _COMPARE[op](left.number, right.number)


def _has_any(pattern: Pattern) -> bool:
    if pattern[0] == "any":
        return True
    if pattern[0] == "fun":
        return any(_has_any(a) for a in pattern[2])
    if pattern[0] == "op":
        return _has_any(pattern[2]) or _has_any(pattern[3])
    return False


@dataclass(frozen=True)
class _Step:
    kind: str  # "atom", "not", "test", "cmp", "assign", "bool"
    sig: Signature = ("", 0)
    args: tuple[Pattern, ...] = ()
    negated: bool = False  # "cmp": `not X < Y`
    left: Pattern = ("any",)
    guards: tuple[tuple[Any, Pattern], ...] = ()
    var: str = ""
    value: bool = True
    # "atom": the positions bound when the step is reached (looked up in an index), their
    # patterns, and the other positions with theirs (matched)
    known: tuple[int, ...] = ()
    known_args: tuple[Pattern, ...] = ()
    direct: tuple[tuple[int, str], ...] = ()  # positions of variables met first here
    matched: tuple[tuple[int, Pattern], ...] = ()  # any other unbound position


def _ground(pattern: Pattern, bound: set[str]) -> bool:
    return pattern[0] != "any" and not _has_any(pattern) and _variables(pattern) <= bound


class Body:
    """A rule body, compiled for evaluation on an answer set (`holds`)."""

    def __init__(self, body: Sequence[Any], consts: frozenset[str] = frozenset()) -> None:
        pending: list[tuple[_Step, set[str]]] = []
        atoms: list[_Step] = []
        for literal in body:
            if literal.ast_type != _T.Literal:
                raise NotUnderstood(str(literal))
            atom, sign = literal.atom, literal.sign
            if atom.ast_type == _T.SymbolicAtom:
                symbol = atom.symbol
                if symbol.ast_type != _T.Function or symbol.external:
                    raise NotUnderstood(str(literal))
                args = tuple(_pattern(a, consts) for a in symbol.arguments)
                sig = (symbol.name, len(args))
                if sign == A.Sign.NoSign:
                    atoms.append(_Step("atom", sig, args))
                else:
                    kind = "not" if sign == A.Sign.Negation else "test"
                    pending.append((_Step(kind, sig, args),
                                    set().union(*(_variables(a) for a in args))))
            elif atom.ast_type == _T.Comparison:
                if sign == A.Sign.DoubleNegation:
                    raise NotUnderstood(str(literal))
                left = _pattern(atom.term, consts)
                guards = tuple((g.comparison, _pattern(g.term, consts)) for g in atom.guards)
                negated = sign != A.Sign.NoSign
                names = _variables(left).union(*(_variables(p) for _, p in guards))
                if not negated and len(guards) == 1 and guards[0][0] == _CMP.Equal \
                        and "var" in (left[0], guards[0][1][0]):
                    # `X = expr` (either side): binds X once expr is bound, or tests it
                    pending.append((_Step("assign", left=left, guards=guards), names))
                    continue
                pending.append((_Step("cmp", negated=negated, left=left, guards=guards), names))
            elif atom.ast_type == _T.BooleanConstant:
                truth = bool(atom.value) != (sign == A.Sign.Negation)
                pending.append((_Step("bool", value=truth), set()))
            else:
                raise NotUnderstood(str(literal))
        self.sigs = frozenset(s.sig for s in atoms) | frozenset(
            s.sig for s, _ in pending if s.kind in ("not", "test"))
        self.needs = frozenset(s.sig for s in atoms)  # the predicates of its positive atoms
        self._atoms, self._pending = atoms, pending
        self.steps = self._order(atoms, pending, {})

    def ordered(self, sizes: dict[Signature, int]) -> Body:
        """The same body, its atoms joined in the order that `sizes` (atoms per signature in a
        recent answer set) makes cheapest."""
        body = Body.__new__(Body)
        body.sigs, body.needs = self.sigs, self.needs
        body._atoms, body._pending = self._atoms, self._pending
        body.steps = self._order(self._atoms, self._pending, sizes)
        return body

    @staticmethod
    def _order(atoms: list[_Step], pending: list[tuple[_Step, set[str]]],
               sizes: dict[Signature, int]) -> tuple[_Step, ...]:
        """The positive atoms, the one expected to give the fewest bindings first (its bound
        positions are looked up in an index), and every other literal as soon as its variables
        are bound (an assignment `X = expr` once expr's are: it then binds X, or tests it if X
        is bound already)."""
        bound: set[str] = set()
        steps: list[_Step] = []
        waiting = list(pending)
        unplaced = list(atoms)

        def flush() -> None:
            progress = True
            while progress:
                progress = False
                for item in list(waiting):
                    step, names = item
                    if step.kind == "assign":
                        left, right = step.left, step.guards[0][1]
                        if names <= bound:  # both sides bound: a test
                            step = _Step("cmp", left=left, guards=step.guards)
                        elif left[0] == "var" and _variables(right) <= bound:
                            step = _Step("assign", var=left[1], left=right)
                        elif right[0] == "var" and _variables(left) <= bound:
                            step = _Step("assign", var=right[1], left=left)
                        else:
                            continue
                        bound.update(names)
                    elif not names <= bound:
                        continue
                    steps.append(step)
                    waiting.remove(item)
                    progress = True

        flush()
        def cost(step: _Step) -> tuple[float, int]:
            arity = len(step.args)
            known = sum(_ground(a, bound) for a in step.args)
            if known == arity:
                return (0.0, -known)  # a lookup that binds nothing
            rows = sizes.get(step.sig, 10)
            return (rows ** ((arity - known) / arity), -known)

        while unplaced:
            best = min(unplaced, key=cost)
            unplaced.remove(best)
            known = tuple(i for i, a in enumerate(best.args) if _ground(a, bound))
            direct: list[tuple[int, str]] = []
            matched: list[tuple[int, Pattern]] = []
            for i, a in enumerate(best.args):
                if i in known or a[0] == "any":
                    continue
                if a[0] == "var" and a[1] not in bound:
                    direct.append((i, a[1]))
                    bound.add(a[1])
                else:
                    matched.append((i, a))
            steps.append(_Step("atom", best.sig, best.args, known=known,
                               known_args=tuple(best.args[i] for i in known),
                               direct=tuple(direct), matched=tuple(matched)))
            bound.update(set().union(*(_variables(a) for a in best.args)))
            flush()
        if waiting:
            raise NotUnderstood("a literal whose variables no atom binds")
        return tuple(steps)

    def holds(self, atoms: Atoms, work: list[int] | None = None) -> bool:
        """Whether the body holds in the answer set for some binding (NotUnderstood: cannot
        tell); `work` (a one-item list) counts the literals tried and the atoms met."""
        return self._from(0, {}, atoms, work)

    def _from(self, i: int, bound: dict[str, Term], atoms: Atoms,
              work: list[int] | None) -> bool:
        steps = self.steps
        while i < len(steps):
            step = steps[i]
            kind = step.kind
            if work is not None:
                work[0] += 1
            if kind == "atom":
                keys = tuple(_key(_value(p, bound)) for p in step.known_args)
                rows = atoms.lookup(step.sig, step.known, keys)
                if work is not None:
                    work[0] += len(rows)
                if not step.direct and not step.matched:
                    if not rows:
                        return False
                    i += 1
                    continue
                for values, term in rows:
                    trial = bound.copy()
                    arguments = term.arguments
                    for k, name in step.direct:
                        trial[name] = arguments[k]
                    if all(_match(p, values[k], arguments[k], trial) for k, p in step.matched) \
                            and self._from(i + 1, trial, atoms, work):
                        return True
                return False
            if kind in ("not", "test"):
                found = self._exists(step, bound, atoms)
                if found == (kind == "not"):
                    return False
            elif kind == "assign":
                bound = {**bound, step.var: _value(step.left, bound)}
            elif kind == "cmp":
                left = _value(step.left, bound)
                truth = True
                for op, pattern in step.guards:
                    right = _value(pattern, bound)
                    if not _compare(op, left, right):
                        truth = False
                        break
                    left = right
                if truth == step.negated:
                    return False
            elif not step.value:  # "bool"
                return False
            i += 1
        return True

    @staticmethod
    def _exists(step: _Step, bound: dict[str, Term], atoms: Atoms) -> bool:
        if all(p[0] != "any" and not _has_any(p) for p in step.args):
            return atoms.has(step.sig, tuple(_key(_value(p, bound)) for p in step.args))
        for keys, term in atoms.rows.get(step.sig, ()):
            trial = dict(bound)
            if all(_match(p, k, t, trial) for p, k, t
                   in zip(step.args, keys, term.arguments, strict=True)):
                return True
        return False
