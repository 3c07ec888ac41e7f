"""The equation a Math Rules ruling shows (engine/math_search.py): the usual notation, and the
honest "undecided" when the search's budget runs out."""

from __future__ import annotations

from fractions import Fraction

from adjudicator.engine.math_facts import card_data
from adjudicator.engine.math_search import decide, equation_text, evaluate

JOINS = card_data("math").joins  # the pairs Combine Digits reads together (rules_asp/cards/)


def test_usual_notation() -> None:
    three = ("plus", ("plus", ("k", 1), ("k", 1)), ("plus", ("k", 1), ("k", 2)))
    assert equation_text(("pow", three, ("k", 2))) == "(1 + 1 + 1 + 2)^2"
    assert equation_text(("times", ("k", 4), ("plus", ("div", ("k", 2), ("k", 8)), ("k", 6)))) \
        == "4 × (6 + 2 / 8)"
    assert equation_text(("minus", ("k", 8), ("minus", ("k", 3), ("k", 1)))) == "8 − (3 − 1)"
    assert equation_text(("root", ("k", 9), ("k", 2))) == "²√9"
    assert equation_text(("root", ("plus", ("k", 6), ("k", 2)), ("k", 3))) == "³√(2 + 6)"
    assert equation_text(("plus", ("c", 1, 5), ("k", 10))) == "10 + 15"


def test_witnesses_evaluate_to_the_target() -> None:
    for numbers, target in (([1, 1, 1, 2, 2], 25), ([2, 4, 6, 8], 25), ([9, 8, 7, 6, 5], 137)):
        found = decide(numbers, target)
        assert found.status == "can"
        assert evaluate(found.witness) == Fraction(target)


def test_a_spent_budget_is_undecided_never_no() -> None:
    assert decide([0, 1, 1, 2, 3, 9], 137, budget=500).status == "undecided"
    assert decide([0, 1, 1, 2, 3, 9], 137, budget=10**7).status == "cannot"


def test_one_two_digit_number_only() -> None:
    """FAQ 004-q5: "You may only create ONE two-digit number": 10 × 10 = 100 needs two."""
    assert decide([1, 0, 1, 0], 100, combine=True, joins=JOINS).status == "cannot"
    # One and Zero make 10 only with Combine Digits (FAQ 004-q3): 10 ^ 2 = 100
    assert decide([1, 0, 2], 100).status == "cannot"
    assert decide([1, 0, 2], 100, combine=True, joins=JOINS).status == "can"


def test_a_number_alone_only_when_asked() -> None:
    """How many numbers a computation must use is the rules program's (goals_math.lp): the
    search answers for the count it is given."""
    assert decide([7, 3], 7).status == "cannot"
    assert decide([7, 3], 7, operands=1).witness == ("k", 7)
    assert decide([1, 0], 10, combine=1, joins=JOINS).status == "cannot"
    assert decide([1, 0], 10, combine=1, joins=JOINS, operands=1).witness == ("c", 1, 0)
    # which pairs may be read together is given too: none, no two-digit number
    assert decide([1, 0, 2], 100, combine=1).status == "cannot"
