"""The arithmetic of a draw from a pile the table gives as a count: which sets of cards it may
draw and the odds of each. Which cards are unseen, and when a draw's cards are worth listing,
are the rules' (rules_asp/moves/unseen_draws.lp); this module only counts.

N cards drawn from the top of a pile whose cards are any of the T unseen copies, all alike,
are any N of them: a set taking K_c of the U_c unseen copies of each card c has the
hypergeometric odds prod C(U_c, K_c) / C(T, N). The sets add up to 1 (Vandermonde's identity).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction


def odds(unseen: dict[str, int], drawn: list[str]) -> Fraction:
    """The odds of drawing exactly the cards `drawn` (as a multiset) from the unseen copies."""
    total = sum(unseen.values())
    counts: dict[str, int] = {}
    for card in drawn:
        counts[card] = counts.get(card, 0) + 1
    ways = math.prod(math.comb(unseen.get(c, 0), k) for c, k in counts.items())
    return Fraction(ways, math.comb(total, len(drawn)))


def draws(unseen: dict[str, int], n: int) -> Iterator[list[str]]:
    """Every set of n cards the unseen copies allow, each once, as a sorted list of card ids:
    the cards with more unseen copies first (their sets are the likelier ones), then by id.
    Lazily: a caller that lists only the first few never makes the rest."""
    cards = sorted(unseen, key=lambda c: (-unseen[c], c))

    def extend(start: int, left: int) -> Iterator[list[str]]:
        if left == 0:
            yield []
            return
        for i in range(start, len(cards)):
            card = cards[i]
            for k in range(min(left, unseen[card]), 0, -1):
                for rest in extend(i + 1, left - k):
                    yield [card] * k + rest

    for found in extend(0, n):
        yield sorted(found)
