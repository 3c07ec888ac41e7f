"""Rules that fired for no earlier table of the same plan: left out, then checked.

Why: clingo pays about as much for a rule that never fires as for one that does (docs/ENGINE.md,
"Programs"). relevance.py leaves out the rules that no fact of a table can make fire, but about
half of the rules it keeps still fire for none of the benchmark tables: their bodies need two
New Rules of one kind in play, a number above another, a rule card that is not on the table
(`not has_rule_of(draw)`), and so on. Telling that takes the values, that is, grounding. So the
answer sets tell it, and every ruling checks it:

- after a table is grounded with every rule of its plan (relevance.Plan), the body of each rule
  is evaluated on the answer set; the rules whose bodies hold for no binding are the plan's
  *unfired* rules (after a miss, only the rules unfired every time stay so);
- the next table of the same plan is grounded without them, and their bodies are evaluated on
  its answer set. If none holds there, that answer set is the whole program's, and its only one:
  a set M in which no body of the rules D holds is an answer set of a program P exactly when it
  is one of P without D (the reduct of such a rule is satisfied by M whatever its head), and a
  stratified program (no choice, no recursion through negation or an aggregate) has at most one
  answer set. Otherwise, or when the program without them has not exactly one answer set, the
  table is grounded again with every rule, and the plan's unfired rules are learnt anew.

Only stratified programs are thinned. A rule whose body holds an aggregate, a conditional
literal, a pool, an interval or anything else this module does not evaluate is never left out;
an evaluation it cannot finish at run time (an ordering of two non-numbers, arithmetic on a
non-number) counts as a body that holds, so the table is grounded again with every rule.

Nothing here decides a rule: the bodies are rules_asp's, evaluated on clingo's own answer set.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import clingo
import clingo.ast as A
from clingo.symbol import Symbol

from .relevance import symbolic_atoms
from .terms import INTERNED, Term, TermSyntaxError, parse, symbol_text

UNFIRED_ENV = "FLUXX_UNFIRED"  # "0": ground every rule of the plan (for comparing)
# A rule is left out only if checking its body took at most this many steps (literals tried
# plus atoms met) on the answer set it was learnt from: a step costs about a microsecond of
# Python, grounding a rule some tens (bench/README.md); beyond it the rule is cheaper to ground.
CHECK_WORK = int(os.environ.get("FLUXX_CHECK_WORK", "12"))
_T = A.ASTType
_NUMBER = clingo.SymbolType.Number
_FUNCTION = clingo.SymbolType.Function
_CMP = A.ComparisonOperator
_OPS = {A.BinaryOperator.Plus: lambda a, b: a + b,
        A.BinaryOperator.Minus: lambda a, b: a - b,
        A.BinaryOperator.Multiplication: lambda a, b: a * b}
# statements that say nothing about which atoms are true
_QUIET = {_T.Program, _T.ShowSignature, _T.ShowTerm, _T.Defined, _T.Comment, _T.Definition}
_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1
Signature = tuple[str, int]
Key = int | str  # an argument as compared: a number's value, any other term's text


class NotUnderstood(Exception):
    """A body (or a part of one) this module does not evaluate."""


def enabled() -> bool:
    return os.environ.get(UNFIRED_ENV, "1") != "0"


def _key(term: Term) -> Key:
    return term.number if term.type == _NUMBER else str(term)


def _number(value: int) -> Term:
    return Term(_NUMBER, str(value), number=value)


# ---- an answer set's atoms, by signature --------------------------------------------------------
# The reading of each atom met so far, by clingo's handle (see terms.symbol_text: clingo 5 interns
# symbols for the life of the process).
_READ: dict[int, tuple[Signature, tuple[tuple[Key, ...], Term]]] = {}
_READ_MAX = 1 << 16


def handles(sequence: Sequence[Any]) -> list[Any]:
    """The atoms of a model's `symbols()` as clingo's handles (plain ints: no Symbol object made
    per atom), or as the symbols where the handles are not to be had (see terms.symbol_text)."""
    raw = getattr(sequence, "_p_symbols", None) if INTERNED else None
    return list(raw) if raw is not None else list(sequence)


def _read(item: Any) -> tuple[Signature, tuple[tuple[Key, ...], Term]]:
    """An atom (a handle, a clingo symbol or a Term) as its signature, the keys of its
    arguments and itself."""
    rep = item if isinstance(item, int) else getattr(item, "_rep", None)
    found = _READ.get(rep) if isinstance(rep, int) and INTERNED else None
    if found is None:
        if isinstance(item, Term):
            term = item
        else:
            term = parse(symbol_text(Symbol(item) if isinstance(item, int) else item))
        name = ("-" + term.name) if term.negative else term.name
        found = ((name, len(term.arguments)), (tuple(_key(a) for a in term.arguments), term))
        if isinstance(rep, int) and INTERNED:
            if len(_READ) >= _READ_MAX:
                _READ.clear()
            _READ[rep] = found
    return found


class Atoms:
    """The atoms of one answer set whose names `names` lists, ready for evaluating bodies."""

    def __init__(self, symbols: Iterable[Any], names: frozenset[str]) -> None:
        self.rows: dict[Signature, list[tuple[tuple[Key, ...], Term]]] = {}
        self._sets: dict[Signature, set[tuple[Key, ...]]] = {}
        self._indexes: dict[tuple[Signature, tuple[int, ...]], dict[tuple[Key, ...], list[
            tuple[tuple[Key, ...], Term]]]] = {}
        rows = self.rows
        found = _READ.get
        for item in symbols:
            entry = found(item) if type(item) is int else None
            if entry is None:
                entry = _read(item)
            sig = entry[0]
            if sig[0] in names:
                if sig in rows:
                    rows[sig].append(entry[1])
                else:
                    rows[sig] = [entry[1]]

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
        todo = list(atoms)

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

        while todo:
            best = min(todo, key=cost)
            todo.remove(best)
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
            seen, todo = {j}, [j]  # through negation from i to j: may j reach i?
            while todo:
                k = todo.pop()
                if k == i:
                    return False
                for nxt, _ in edges[k]:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
    return True


_CONSTS: dict[int, tuple[Sequence[Any], frozenset[str]]] = {}


def _program_consts(program: Sequence[Any]) -> frozenset[str]:
    """Under the AST lock: the #const names of `program`, once per program."""
    found = _CONSTS.get(id(program))
    if found is None or found[0] is not program:
        if len(_CONSTS) >= 64:
            _CONSTS.clear()
        found = _CONSTS[id(program)] = (program, _consts(program))
    return found[1]


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

    def __init__(self, statements: Sequence[Any], program: Sequence[Any] | None = None,
                 lock: Any = None) -> None:
        """`program`: the whole program the plan `statements` was taken from (its #consts);
        `lock` guards reading the shared AST. Nothing is read before the plan is to be learnt
        from (`learning`)."""
        self.statements = statements
        self._program, self._ast_lock = program, lock
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
        with self._ast_lock or threading.Lock():
            consts = _consts(self.statements)
            if self._program is not None:
                consts |= _program_consts(self._program)
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


def entry(statements: Sequence[Any], lock: Any, program: Sequence[Any] | None = None) -> Entry:
    """The entry of a plan's statements, taken from `program` (made once; `lock` guards reading
    the shared AST)."""
    last = _LAST.get(id(statements))
    if last is not None and last[0] is statements:
        return last[1]
    key = tuple(map(id, statements))
    with _ENTRIES_LOCK:
        found = _ENTRIES.get(key)
    if found is None:
        made = Entry(statements, program, lock)
        with _ENTRIES_LOCK:
            found = _ENTRIES.setdefault(key, made)
            while len(_ENTRIES) > _ENTRIES_MAX:  # the oldest plan goes first
                del _ENTRIES[next(iter(_ENTRIES))]
    with _ENTRIES_LOCK:
        if len(_LAST) >= _ENTRIES_MAX:
            _LAST.clear()
        _LAST[id(statements)] = (statements, found)
    return found
