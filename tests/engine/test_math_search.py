"""engine/math_search.py against a brute force: a plain enumeration of every expression tree over
every choice of the numbers (by index: equal numbers are not collapsed, nothing is memoized by
multiset, the target guides nothing). The two share only `apply`, the arithmetic of one step;
the brute force makes Combine Digits' two-digit numbers itself, from every ordered pair of
single-digit numbers (first digit not 0)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.math_facts import card_data
from adjudicator.engine.math_search import OPS, apply, decide, evaluate, leaves

# the pairs Combine Digits reads together, as the card data gives them (rules_asp/cards/)
JOINS = card_data("math").joins
TARGETS = [12, 13, 16, 23, 24, 25, 27, 28, 33, 42, 50, 60, 64, 66, 75, 76, 88, 99, 100, 101,
           137, 153]


def tree_values(numbers: tuple[Fraction, ...]) -> set[Fraction]:
    """The value of every expression tree that uses each of `numbers` exactly once."""
    if len(numbers) == 1:
        return {numbers[0]}
    out: set[Fraction] = set()
    n = len(numbers)
    for mask in range(1, 2 ** n - 1):  # the root's left operand: every non-empty proper part
        left = tuple(numbers[i] for i in range(n) if mask >> i & 1)
        right = tuple(numbers[i] for i in range(n) if not mask >> i & 1)
        for x in tree_values(left):
            for y in tree_values(right):
                for op in OPS:
                    v = apply(op, x, y)
                    if v is not None:
                        out.add(v)
    return out


def brute_force(numbers: list[int], target: int, combine: bool) -> bool:
    options: list[list[Fraction]] = [[Fraction(v) for v in numbers]]
    if combine:
        for i, a in enumerate(numbers):
            for j, b in enumerate(numbers):
                if i != j and 1 <= a <= 9 and 0 <= b <= 9:
                    rest = [v for k, v in enumerate(numbers) if k not in (i, j)]
                    options.append([Fraction(v) for v in rest] + [Fraction(10 * a + b)])
    for values in options:
        for k in range(2, len(values) + 1):
            for chosen in combinations(values, k):
                if Fraction(target) in tree_values(chosen):
                    return True
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(numbers=st.lists(st.integers(min_value=0, max_value=10), min_size=2, max_size=5),
       target=st.sampled_from(TARGETS) | st.integers(min_value=-20, max_value=200),
       combine=st.booleans())
@pytest.mark.slow
def test_search_agrees_with_brute_force(numbers: list[int], target: int, combine: bool) -> None:
    found = decide(numbers, target, combine, budget=10**8, joins=JOINS)
    assert found.status == ("can" if brute_force(numbers, target, combine) else "cannot"), (
        numbers, target, combine)
    if found.witness is not None:
        assert evaluate(found.witness) == Fraction(target)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(numbers=st.lists(st.integers(min_value=0, max_value=10), min_size=6, max_size=6),
       target=st.sampled_from(TARGETS), combine=st.booleans())
@pytest.mark.slow
def test_six_keepers(numbers: list[int], target: int, combine: bool) -> None:
    """Six Keepers: a "can" the brute force confirms through the witness's own Keepers (the
    whole enumeration of six is some minutes in Python); a "cannot" by the whole brute force."""
    found = decide(numbers, target, combine, budget=10**8, joins=JOINS)
    if found.status == "can":
        assert evaluate(found.witness) == Fraction(target)
        used = [10 * leaf[1] + leaf[2] if leaf[0] == "c" else leaf[1]
                for leaf in leaves(found.witness)]
        assert Fraction(target) in tree_values(tuple(Fraction(v) for v in used))
    else:
        assert found.status == "cannot"
        assert not brute_force(numbers, target, combine), (numbers, target, combine)
