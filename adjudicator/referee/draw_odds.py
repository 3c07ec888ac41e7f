"""The arithmetic of a draw from a pile the table gives as a count: which sets of cards it may
draw and the odds of each. Which cards are unseen, and when a draw's cards are worth listing,
are the rules' (rules_asp/moves/unseen_draws.lp); this module only counts.

N cards drawn from the top of a pile whose cards are any of the T unseen copies, all alike,
are any N of them: a set taking K_c of the U_c unseen copies of each card c has the
hypergeometric odds prod C(U_c, K_c) / C(T, N). The sets add up to 1 (Vandermonde's identity).

A draw into a hand in a game with Creepers goes on until N cards that are not Creepers are drawn
(a Creeper drawn is put in front of the player and replaced): of the T unseen copies the pile
may hold (the rules' creeper_pool/1: a hand holds no Creeper), c are Creepers and M = T - c are
not. The pile's top cards are a uniform ordering of some of the T
copies, so the odds that exactly s given Creeper copies come before the N-th other card are
those of the first N + s cards holding those s copies and N others, the last one not a
Creeper: M!/(M-N)! orderings of the others times C(N+s-1, s) s! places of the Creepers among the
first N+s-1, over the T!/(T-N-s)! orderings of N+s copies, which is C(M, N) N / ((N+s) C(T, N+s))
(`copies_first`). A set of Creepers taking K of the U copies of each has C(U, K) ways of
choosing its copies. Over every set the odds add up to 1 (the negative hypergeometric law).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations


def odds(unseen: dict[str, int], drawn: list[str], hidden: int = 0,
         unhidden: frozenset[str] = frozenset()) -> Fraction:
    """The odds of drawing exactly the cards `drawn` (as a multiset) from the unseen copies.
    With `hidden`: that many of the unseen copies lie in hands, none of them a copy of a card of
    `unhidden` (a Creeper: the rules say which, creeper_moves.lp), and the pile's cards are any
    of the others. A set taking b copies of the M copies that may be hidden keeps them out of
    the H hidden with odds C(M - b, H) / C(M, H); it is then any n of the T - H copies left:
    prod C(U, K) C(M - b, H) / (C(M, H) C(T - H, n)). The sets add up to 1 (C(M, b) C(M - b, H)
    is C(M, H) C(M - H, b), then Vandermonde's identity)."""
    total = sum(unseen.values())
    counts: dict[str, int] = {}
    for card in drawn:
        counts[card] = counts.get(card, 0) + 1
    ways = math.prod(math.comb(unseen.get(c, 0), k) for c, k in counts.items())
    if not hidden:
        return Fraction(ways, math.comb(total, len(drawn)))
    may_hide = total - sum(u for c, u in unseen.items() if c in unhidden)
    taken = sum(k for c, k in counts.items() if c not in unhidden)
    return Fraction(ways * math.comb(may_hide - taken, hidden),
                    math.comb(may_hide, hidden) * math.comb(total - hidden, len(drawn)))


def copies_first(total: int, creepers: int, n: int, s: int) -> Fraction:
    """The odds that s given Creeper copies, and no other, are drawn before the n-th card that
    is not a Creeper, the cards coming from `total` unseen copies of which `creepers` are
    Creepers (the module's header derives it)."""
    others = total - creepers
    if n <= 0 or others < n or n + s > total:
        return Fraction(0)
    return Fraction(math.comb(others, n) * n, (n + s) * math.comb(total, n + s))


def creeper_draws(creepers: dict[str, int], total: int, n: int,
                  most: int) -> list[tuple[list[str], Fraction]]:
    """Every set of at most `most` Creeper copies a draw of n cards into a hand may bring (the
    Creepers' unseen copies `creepers`, of `total` unseen copies), with its odds, the likelier
    first (then the smaller, then by ids); sets that cannot happen are left out. The sets are
    few (2^c for c single Creepers: 16 in the Creepers expansion), so all are made."""
    c = sum(creepers.values())
    found: list[tuple[list[str], Fraction]] = []
    for s in range(min(most, c) + 1):
        each = copies_first(total, c, n, s)
        for drawn in draws(creepers, s):
            ways = math.prod(math.comb(creepers[k], drawn.count(k)) for k in set(drawn))
            if each * ways:
                found.append((drawn, each * ways))
    return sorted(found, key=lambda pair: (-pair[1], len(pair[0]), pair[0]))


Class = tuple[int, bool]  # the cards alike: (unseen copies U, whether a hand may hide them)
Shape = tuple[tuple[Class, int, int], ...]  # (class, copies taken K, how many cards)


def draws(unseen: dict[str, int], n: int, hidden: int = 0,
          unhidden: frozenset[str] = frozenset()) -> Iterator[list[str]]:
    """Every set of n cards the unseen copies allow, each once, as a sorted list of card ids,
    the likelier first (`hidden`, `unhidden`: as for `odds`), lazily: a caller that lists only
    the first few never makes the rest. A set's odds depend only on its shape, which of its
    cards take how many of how many unseen copies, of the cards a hand may hide or not: the
    shapes are few and ordered by their odds, and the sets of one shape are made in order of
    ids."""
    classes: dict[Class, list[str]] = defaultdict(list)  # the cards of each class
    for card in sorted(unseen):
        classes[(unseen[card], bool(hidden) and card not in unhidden)].append(card)
    may_hide = sum(u for c, u in unseen.items() if c not in unhidden)
    pairs = [(cls, k) for cls in sorted(classes) for k in range(1, cls[0] + 1)]
    weighed = [(_ways(sh, hidden, may_hide), sh) for sh in _shapes(pairs, classes, n)]
    for ways, shape in sorted(weighed, key=lambda pair: (-pair[0], pair[1])):
        if ways:  # (a set that takes more copies than the hands leave can't be drawn)
            yield from _sets_of(shape, classes)


def _ways(shape: Shape, hidden: int = 0, may_hide: int = 0) -> int:
    """A set's odds of its shape, times C(T, n) (times C(M, H) with cards hidden: `odds`)."""
    ways = math.prod(math.comb(u, k) ** m for (u, _), k, m in shape)
    if not hidden:
        return ways
    taken = sum(k * m for (_, hides), k, m in shape if hides)
    return ways * math.comb(may_hide - taken, hidden)


def _shapes(pairs: list[tuple[Class, int]], classes: dict[Class, list[str]], n: int,
            used: dict[Class, int] | None = None) -> Iterator[Shape]:
    """The shapes of n copies: for each (U, K) of `pairs` in turn, how many cards take K of
    their U copies, no class giving more cards than it has."""
    used = used or {}
    if n == 0:
        yield ()
        return
    if not pairs:
        return
    (u, k), rest = pairs[0], pairs[1:]
    room = len(classes[u]) - used.get(u, 0)
    for m in range(min(room, n // k), -1, -1):
        for tail in _shapes(rest, classes, n - m * k, {**used, u: used.get(u, 0) + m}):
            yield ((u, k, m), *tail) if m else tail


def _sets_of(shape: Shape, classes: dict[Class, list[str]]) -> Iterator[list[str]]:
    """The sets of one shape: in each class, disjoint choices of the cards taking each K."""
    def place(i: int, free: dict[Class, list[str]]) -> Iterator[list[str]]:
        if i == len(shape):
            yield []
            return
        u, k, m = shape[i]
        for chosen in combinations(free[u], m):
            left = {**free, u: [c for c in free[u] if c not in chosen]}
            for rest in place(i + 1, left):
                yield [c for c in chosen for _ in range(k)] + rest

    for found in place(0, dict(classes)):
        yield sorted(found)
