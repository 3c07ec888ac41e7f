"""Can these numbers compute this target? Exact arithmetic for Math Fluxx's Math Rules.

This module is arithmetic only: which numbers a player's Keepers stand for, which two of them may
be read together as one two-digit number, how many numbers a computation must use, and whether
the Goal applies, are decided by the rules program (rules_asp/ruling/goals_math.lp, with the card
data of rules_asp/cards/math_goals.lp); it reads the answers as facts (engine/math_facts.py).

The question: is there an expression over some (at least `operands`) of the numbers, each used at
most once, with + - × / ^ and exact roots, whose value is the target, where up to `combine` pairs
of numbers, each pair one of `joins`, may first be read together as one number (their digits side
by side: 2 and 5 make 25)? Values are exact rationals
(`Fraction`); a power needs a whole exponent, a root a whole index of 2 or more and a rational
result (the principal root: an even root of a negative number is not taken). Every number in the
working stays within `LIMIT` (numerator and denominator) and every exponent or index within
`MAX_EXPONENT`: the bound the ruling states with a "no".

The search is over sub-multisets of the numbers (equal Keepers are one choice, not several),
smallest first, so a witness uses as few Keepers as it can. A multiset M reaches t when it splits
into A and B such that some value x of A (all of A's values, memoized by multiset) and the value
y that the target then asks of B (t - x, t / x, the root of t...) is reached by B, recursively
(memoized by multiset and target); a multiset of four that keeps being asked about new targets
gets its whole value set made once (`PROMOTE`), and each later target is a look-up. When every
sub-multiset has been tried the answer "no" is a proof (within the bound); a search that
exhausts its budget of steps answers "undecided".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

# The bound of the working: |numerator| and denominator of every number at most LIMIT; exponents
# and root indices at most MAX_EXPONENT in size.
LIMIT = 10**12
MAX_EXPONENT = 64
# Steps (operations tried and sub-searches) before the answer is "undecided".
DEFAULT_BUDGET = 20_000
# The quick first look joins parts of at most this many numbers.
QUICK = 3
# ... from this many Keepers on (below it the whole search is as fast)
QUICK_FROM = 6
# A multiset of this many numbers asked about target by target: after this many steps spent so
# (its searches failing), and when it will be asked again, its whole value set is made instead
# and every later target is a look-up. Four numbers: their value set is a few thousand values.
PROMOTE = {4: 1000}

OPS = ("plus", "minus", "times", "div", "pow", "root")

# An expression: ("k", v) a Keeper's number, ("c", a, b) the numbers a and b read together (the
# two-digit number of Combine Digits), or (op, left, right) with op one of OPS; ("root", x, n) is
# the n-th root of x.
Expr = tuple
Leaf = tuple[int, tuple[int, ...]]  # (value, ()) a Keeper, (ab, (a, b)) two numbers read together
Join = tuple[int, int]
Key = tuple[Leaf, ...]


class OutOfBudget(Exception):
    """The search used its budget of steps."""


@dataclass(frozen=True)
class Decision:
    """The answer: "can" (with the witness), "cannot" (proved within the bound) or "undecided"
    (the budget ran out); `tried` is how many Keepers the search had to choose from."""

    status: str
    witness: Expr | None
    tried: int
    steps: int


# A rational is an int when whole and a Fraction otherwise: the same values (3 == Fraction(3),
# with the same hash), and whole numbers, most of the working, stay at the speed of ints.
Q = int | Fraction


def _norm(v: Q) -> Q:
    return v.numerator if type(v) is Fraction and v.denominator == 1 else v


def _div(x: Q, y: Q) -> Q:
    """x / y exactly (y != 0)."""
    if type(x) is int and type(y) is int:
        q, r = divmod(x, y)
        return q if r == 0 else Fraction(x, y)
    return _norm(x / y)


def _fits(v: Q) -> bool:
    return abs(v.numerator) <= LIMIT and v.denominator <= LIMIT


def _iroot(n: int, k: int) -> int | None:
    """The exact k-th root of n >= 0, or None."""
    if n < 2:
        return n
    r = round(n ** (1.0 / k)) if n.bit_length() < 1000 else 1 << (n.bit_length() // k)
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**k == n:
            return c
    return None


def exact_root(x: Q, n: int) -> Q | None:
    """The principal n-th root of x when it is rational (odd roots of negatives too)."""
    if x < 0:
        if n % 2 == 0:
            return None
        r = exact_root(-x, n)
        return -r if r is not None else None
    num, den = _iroot(x.numerator, n), _iroot(x.denominator, n)
    if num is None or den is None:
        return None
    return num if den == 1 else Fraction(num, den)


def power(x: Q, e: int) -> Q | None:
    """x ** e within the bound (0 ** e needs e > 0)."""
    if abs(e) > MAX_EXPONENT or (x == 0 and e <= 0):
        return None
    size = max(abs(x.numerator), x.denominator)
    if size > 1 and (size.bit_length() - 1) * abs(e) > LIMIT.bit_length():
        return None
    v = _norm(x**e) if e >= 0 else _div(1, x ** -e)
    return v if _fits(v) else None


def apply(op: str, x: Q, y: Q) -> Q | None:
    """x op y, or None where it is undefined or leaves the bound."""
    if op == "plus":
        v = _norm(x + y)
    elif op == "minus":
        v = _norm(x - y)
    elif op == "times":
        v = _norm(x * y)
    elif op == "div":
        if y == 0:
            return None
        v = _div(x, y)
    elif op == "pow":
        return power(x, y.numerator) if y.denominator == 1 else None
    else:  # root: the y-th root of x
        if y.denominator != 1 or not 2 <= y.numerator <= MAX_EXPONENT:
            return None
        v = exact_root(x, y.numerator)
        if v is None:
            return None
    return v if _fits(v) else None


def evaluate(expr: Expr) -> Q | None:
    """The value of an expression (None where a step is undefined)."""
    if expr[0] == "k":
        return expr[1]
    if expr[0] == "c":
        return read_together(expr[1], expr[2])
    x, y = evaluate(expr[1]), evaluate(expr[2])
    if x is None or y is None:
        return None
    return apply(expr[0], x, y)


def read_together(a: int, b: int) -> int:
    """The number whose digits are a's then b's (2 and 5: 25)."""
    return int(f"{a}{b}")


def leaves(expr: Expr) -> list[Expr]:
    """The numbers an expression uses, left to right."""
    if expr[0] in ("k", "c"):
        return [expr]
    return leaves(expr[1]) + leaves(expr[2])


# ---- the search ---------------------------------------------------------------------------------
_ANY = "any"          # B may take any value (0 * y, with the target 0)
_NONZERO = "nonzero"  # any value but 0 (0 / y; y ^ 0)
_INT = "int"          # any whole number within MAX_EXPONENT (1 ^ y)
_POSITIVE = "positive"  # a whole number 1..MAX_EXPONENT (0 ^ y)
_INDEX = "index"      # a whole number 2..MAX_EXPONENT (the root of 0 or 1)
_ODD_INDEX = "odd_index"  # an odd whole number 3..MAX_EXPONENT (the root of -1)
_EVEN = "even"        # an even whole number within MAX_EXPONENT ((-1) ^ y == 1)
_ODD = "odd"          # an odd one ((-1) ^ y == -1)
# the whole numbers each of these asks for
_RANGES = {
    _INT: range(-MAX_EXPONENT, MAX_EXPONENT + 1),
    _POSITIVE: range(1, MAX_EXPONENT + 1),
    _INDEX: range(2, MAX_EXPONENT + 1),
    _ODD_INDEX: range(3, MAX_EXPONENT + 1, 2),
    _EVEN: range(-MAX_EXPONENT, MAX_EXPONENT + 1, 2),
    _ODD: range(1 - MAX_EXPONENT, MAX_EXPONENT, 2),
}
Want = Q | str


def _leaf_expr(leaf: Leaf) -> Expr:
    value, parts = leaf
    return ("c", *parts) if parts else ("k", value)


def _sub_keys(key: Key) -> Iterator[Key]:
    """Every distinct sub-multiset of `key` (sorted tuples), the empty one and `key` included."""
    counts = sorted(Counter(key).items())
    for picks in product(*(range(n + 1) for _, n in counts)):
        yield tuple(leaf for (leaf, _), k in zip(counts, picks, strict=True) for _ in range(k))


def _minus(key: Key, part: Key) -> Key:
    rest = Counter(key)
    rest.subtract(part)
    return tuple(sorted(rest.elements()))


def _log(v: Q) -> float:
    return math.log(abs(v.numerator)) - math.log(v.denominator)


def _exponent_of(base: Q, t: Q) -> list[int] | str:
    """The whole exponents e with base ** e == t (_INT: any whole exponent, for 1 ** e == 1)."""
    if base == 0:
        return _POSITIVE if t == 0 else []
    if base == 1:
        return _INT if t == 1 else []
    if base == -1:
        return [e for e in (2, 1) if base**e == t]  # (-1) ** B: B even or odd; see _parity
    if t == 0:
        return []
    e = round(_log(t) / _log(base))
    return [e] if power(base, e) == t else []


class Search:
    """One multiset of numbers: memoized value sets and sub-searches, and the step budget."""

    def __init__(self, budget: int, largest: int = 0) -> None:
        self.budget = budget
        self.largest = largest  # the most numbers a multiset asked about holds
        self.steps = 0
        self._values: dict[Key, dict[Q, Expr]] = {}
        self._reach: dict[tuple[Key, Q], Expr | None] = {}
        self._splits: dict[Key, list[tuple[Key, Key]]] = {}
        self._spent: dict[Key, tuple[int, int]] = {}  # targets asked and steps spent, by multiset

    def splits(self, key: Key) -> list[tuple[Key, Key]]:
        """The ways to cut the multiset in two non-empty parts (a, b), |a| <= |b|, smaller a
        first; a split into equal halves comes both ways."""
        found = self._splits.get(key)
        if found is None:
            found = []
            for a in _sub_keys(key):
                b = _minus(key, a)
                if a and b and len(a) <= len(b):
                    found.append((a, b))
            found.sort(key=lambda ab: len(ab[0]))
            self._splits[key] = found
        return found

    def _step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.budget:
            raise OutOfBudget

    def values(self, key: Key) -> dict[Q, Expr]:
        """Every value the whole multiset makes (each number used once), with one expression."""
        found = self._values.get(key)
        if found is not None:
            return found
        if len(key) == 1:
            found = {key[0][0]: _leaf_expr(key[0])}
        else:
            found = {}
            for a, b in self.splits(key):
                if len(a) == len(b) and a > b:
                    continue  # each split once: a and b are both operands of every op below
                va, vb = self.values(a), self.values(b)
                self._step(len(va) * len(vb))
                for x, ex in va.items():
                    for y, ey in vb.items():
                        for op in OPS:
                            for left, right, lx, ly in ((ex, ey, x, y), (ey, ex, y, x)):
                                v = apply(op, lx, ly)
                                if v is not None and v not in found:
                                    found[v] = (op, left, right)
                                if op in ("plus", "times"):
                                    break  # commutative
        self._values[key] = found
        return found

    def _wants(self, x: Q, t: Q) -> Iterator[tuple[str, bool, Want]]:
        """(op, x on the left, what B must be) for every way "x op B" or "B op x" makes t."""
        yield "plus", True, _norm(t - x)
        yield "minus", True, _norm(x - t)
        yield "minus", False, _norm(t + x)
        if x != 0:
            yield "times", True, _div(t, x)
            yield "div", False, _norm(t * x)
        elif t == 0:
            yield "times", True, _ANY
        if t != 0 and x != 0:
            yield "div", True, _div(x, t)
        elif t == 0 and x == 0:
            yield "div", True, _NONZERO
        exponents = _exponent_of(x, t)  # x ^ B
        if isinstance(exponents, str):
            yield "pow", True, exponents
        elif x == -1:  # (-1) ^ B is 1 for even B and -1 for odd B: B any number of that parity
            for e in exponents:
                yield "pow", True, _EVEN if e == 2 else _ODD
        else:
            for e in exponents:
                yield "pow", True, e
        if x.denominator == 1 and abs(x.numerator) <= MAX_EXPONENT:  # B ^ x
            e = x.numerator
            if e == 0:
                if t == 1:
                    yield "pow", False, _NONZERO
            elif t != 0 or e > 0:
                r = exact_root(t if e > 0 else _div(1, t), abs(e))
                if r is not None:
                    yield "pow", False, r
                    if e % 2 == 0 and r != 0:
                        yield "pow", False, -r
        indices = self._indices(t, x)  # root(x, B): an index n with t ** n == x
        if isinstance(indices, str):
            yield "root", True, indices
        else:
            for n in indices:
                yield "root", True, n
        if x.denominator == 1 and 2 <= x.numerator <= MAX_EXPONENT:  # root(B, x)
            n = x.numerator
            if t >= 0 or n % 2:
                v = power(t, n)
                if v is not None:
                    yield "root", False, v

    @staticmethod
    def _indices(t: Q, x: Q) -> list[int] | str:
        if t < 0 and x >= 0:
            return []
        if t in (0, 1):
            return _INDEX if x == t else []
        if t == -1:
            return _ODD_INDEX if x == -1 else []
        if x == 0 or (x < 0) != (t < 0):
            return []
        n = round(_log(x) / _log(t))
        if not 2 <= n <= MAX_EXPONENT or (t < 0 and n % 2 == 0):
            return []
        return [n] if power(t, n) == x else []

    def _any(self, key: Key, nonzero: bool) -> Expr | None:
        """Some expression of the whole multiset (non-zero if asked): the sum of its numbers,
        which are never negative, is non-zero when any is."""
        expr = _leaf_expr(key[0])
        for leaf in key[1:]:
            expr = ("plus", expr, _leaf_expr(leaf))
        return None if nonzero and all(v == 0 for v, _ in key) else expr

    def _whole(self, key: Key, wanted: range) -> Expr | None:
        """An expression of the whole multiset whose value is one of `wanted` (whole numbers):
        the sum first, which is one most of the time, then each in turn."""
        total = sum(v for v, _ in key)
        if total in wanted:
            return self._any(key, False)
        for n in wanted:
            found = self.reach(key, n)
            if found is not None:
                return found
        return None

    def reach(self, key: Key, t: Q) -> Expr | None:
        """An expression of the whole multiset `key` whose value is t, or None."""
        memo = (key, t)
        if memo in self._reach:
            return self._reach[memo]
        self._step()
        found: Expr | None = None
        if len(key) <= 3 or key in self._values:
            found = self.values(key).get(t)
        else:
            before = self.steps
            found = self._split_reach(key, t)
            # a multiset asked about many targets: its whole value set, once, costs less than
            # more such searches (each later target is then a look-up)
            asked, spent = self._spent.get(key, (0, 0))
            asked, spent = asked + 1, spent + self.steps - before
            self._spent[key] = (asked, spent)
            again = asked >= 2 or len(key) < self.largest  # ... or will be: a larger one asks it
            if found is None and again and spent > PROMOTE.get(len(key), spent + 1):
                self.values(key)
        self._reach[memo] = found
        return found

    def _split_reach(self, key: Key, t: Q) -> Expr | None:
        for a, b in self.splits(key):
            for x, ex in self.values(a).items():
                for op, x_left, want in self._wants(x, t):
                    self._step()
                    if type(want) is str:
                        eb = (self._any(b, want == _NONZERO) if want in (_ANY, _NONZERO)
                              else self._whole(b, _RANGES[want]))
                    elif not _fits(want):
                        continue
                    else:
                        eb = self.reach(b, want)
                    if eb is not None:
                        return (op, ex, eb) if x_left else (op, eb, ex)
        return None


def _quick(search: Search, numbers: Key, t: Q) -> Expr | None:
    """The fast first look: an expression whose last operation joins two parts of at most
    QUICK numbers each, found by looking up, for each value x of one part, the value the target
    asks of the other among the small parts' values (an index by value), smaller parts first.
    A part is coded as an int, eight bits of count per distinct number, so that "a and b fit in
    the pool together" is one addition and one mask (for up to 127 equal numbers)."""
    pool = Counter(numbers)
    distinct = sorted(pool)
    shift = {leaf: 8 * i for i, leaf in enumerate(distinct)}
    bias = sum((127 - pool[leaf]) << shift[leaf] for leaf in distinct)
    high = sum(128 << shift[leaf] for leaf in distinct)
    elements = tuple(sorted(pool.elements()))
    by_size: dict[int, list[tuple[Key, int]]] = {}
    for size in range(1, QUICK + 1):  # only the small parts: not every sub-multiset of the pool
        for part in sorted(set(combinations(elements, size))):
            search._step()
            by_size.setdefault(size, []).append((part, sum(1 << shift[leaf] for leaf in part)))
    index: dict[Q, list[tuple[Key, int]]] = {}
    seen: list[tuple[Key, int]] = []
    for size in range(1, QUICK + 1):
        new = by_size.get(size, [])
        for part, code in new:
            for v in search.values(part):
                index.setdefault(v, []).append((part, code))
        seen += new
        for a, code_a in seen:  # pairs whose larger part has `size` numbers (and some again)
            for x, ex in search.values(a).items():
                search._step()
                for op, x_left, want in search._wants(x, t):
                    if type(want) is str:
                        continue
                    for b, code_b in index.get(want, ()):
                        if (len(a) == size or len(b) == size) and \
                                not (code_a + code_b + bias) & high:
                            eb = search.values(b)[want]
                            return (op, ex, eb) if x_left else (op, eb, ex)
    return None


def _join_options(numbers: list[int], joins: Iterable[Join]) -> list[Join]:
    """The pairs of `joins` that two of `numbers` (two different ones: a number is used once)
    can make, once each."""
    counts = Counter(numbers)
    return [(a, b) for a, b in sorted(set(joins))
            if counts[a] and counts[b] and (a != b or counts[a] >= 2)]


def alone(numbers: list[int], target: int, combine: int = 0,
          joins: Iterable[Join] = ()) -> Expr | None:
    """One of `numbers`, or (with `combine`) a pair of `joins` read together, whose value is
    `target`: a computation of one number."""
    if target in numbers:
        return ("k", target)
    if combine:
        for a, b in _join_options(numbers, joins):
            if read_together(a, b) == target:
                return ("c", a, b)
    return None


def decide(numbers: list[int], target: int, combine: int = 0,
           budget: int = DEFAULT_BUDGET, *, joins: Iterable[Join] = (),
           operands: int = 2) -> Decision:
    """Can some `operands` or more of `numbers` compute `target`? With `combine` (1, or True), up
    to one pair of the numbers, a pair of `joins` (first, second), may be read together as one
    number first (it counts as one number, made of two); with 2, up to two such pairs. Which
    pairs, how many and how many numbers are the rules program's to say (math_facts.py asks for
    each)."""
    search = Search(budget, len(numbers))
    t = target
    base: Key = tuple(sorted((v, ()) for v in numbers))
    starts: list[tuple[Key, tuple[Leaf, ...]]] = [(base, ())]
    joins = tuple(joins)
    for _ in range(int(combine)):
        more = []
        for rest, made in starts:
            for a, b in _join_options([v for v, parts in rest if not parts], joins):
                leaf = (read_together(a, b), (a, b))
                if not made or leaf >= made[-1]:  # each set of two-digit numbers once
                    more.append((_minus(rest, ((a, ()), (b, ()))), (*made, leaf)))
        starts += [s for s in more if s not in starts]
    quick: Expr | None = None
    try:
        # many Keepers: a quick look first (it finds most equations at once); then every choice
        # of fewer Keepers than it used, fewest first, so that the witness uses as few as any
        for rest, made in starts if len(numbers) >= QUICK_FROM else ():
            quick = _quick(search, rest + made, t)
            if quick is not None:
                break
        most = len(numbers) if quick is None else keepers_used(quick) - 1
        for size in range(1, most + 1):  # Keepers used, fewest first
            for rest, made in starts:
                pick = size - 2 * len(made)
                if pick < 0 or pick + len(made) < max(operands, 1):
                    continue
                for sub in sorted(set(combinations(rest, pick))):
                    search._step()
                    found = search.reach(tuple(sorted(sub + made)), t)
                    if found is not None:
                        return Decision("can", found, len(numbers), search.steps)
    except OutOfBudget:
        if quick is not None:  # an equation was found: the search for a shorter one ran out
            return Decision("can", quick, len(numbers), search.steps)
        return Decision("undecided", None, len(numbers), search.steps)
    if quick is not None:
        return Decision("can", quick, len(numbers), search.steps)
    return Decision("cannot", None, len(numbers), search.steps)


def keepers_used(expr: Expr) -> int:
    """How many Keepers an expression uses (a two-digit number of Combine Digits uses two)."""
    return sum(2 if leaf[0] == "c" else 1 for leaf in leaves(expr))


# ---- the equation as text -----------------------------------------------------------------------
_SIGN = {"plus": "+", "minus": "−", "times": "×", "div": "/"}
_RANK = {"plus": 1, "minus": 1, "times": 2, "div": 2, "pow": 3, "root": 4}
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def equation_text(expr: Expr) -> str:
    """An expression in the usual notation: ("pow", 1 + 1 + 1 + 2, 2) -> "(1 + 1 + 1 + 2)^2";
    the n-th root of x is "ⁿ√x" ("²√9": the index is one of the numbers used)."""
    kind = expr[0]
    if kind == "k":
        return str(expr[1])
    if kind == "c":
        return f"{expr[1]}{expr[2]}"
    left, right = expr[1], expr[2]
    if kind == "root":
        # the index is a Keeper's number too, so it is always written: ²√9 uses a Two
        index = right[1] if right[0] == "k" else None
        sign = (str(index).translate(_SUPERSCRIPT) if index is not None
                else f"({equation_text(right)})") + "√"
        return sign + _wrap(left, 4)
    if kind == "pow":
        return f"{_wrap(left, 5)}^{_wrap(right, 4)}"  # (²√9)^2, not ²√9^2
    rank = _RANK[kind]
    if kind in ("plus", "times"):  # a chain of one commutative op: numbers first, smallest first
        terms = sorted(_chain(expr, kind), key=lambda e: (e[0] not in ("k", "c"),
                                                           _leaf_value(e)))
        return f" {_SIGN[kind]} ".join(_wrap(e, rank) for e in terms)
    a = _wrap(left, rank)
    # a right operand of - or / keeps its brackets at the same rank: 8 − (2 + 1)
    b = _wrap(right, rank + (0 if kind in ("plus", "times") else 1))
    return f"{a} {_SIGN[kind]} {b}"


def _chain(expr: Expr, op: str) -> list[Expr]:
    if expr[0] != op:
        return [expr]
    return _chain(expr[1], op) + _chain(expr[2], op)


def _leaf_value(expr: Expr) -> int:
    if expr[0] == "k":
        return expr[1]
    return read_together(expr[1], expr[2]) if expr[0] == "c" else 0


def _wrap(expr: Expr, rank: int) -> str:
    text = equation_text(expr)
    inner = 5 if expr[0] in ("k", "c") else _RANK[expr[0]]
    return f"({text})" if inner < rank else text
