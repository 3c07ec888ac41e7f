"""The static reader of the programs' citations (tests/rules/static_cites.py) reads what a rule
can cite, leaves out what cannot fire, and refuses what it cannot read."""

from __future__ import annotations

import clingo.ast
import pytest

from tests.rules.static_cites import Program, StaticReadError, program_pairs, read_rules


def _pairs(text: str, edition: str = "fluxx",
           elsewhere: frozenset = frozenset()) -> set[tuple[str, str]]:
    """`elsewhere`: predicates the rules of other games derive (so not inputs)."""
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_string(text, statements.append)
    rules = read_rules(statements)
    derived = frozenset(rule.head.pred for rule in rules) | elsewhere
    inputs = {("edition", 1): frozenset({edition}), ("expansion", 1): frozenset()}
    return program_pairs(Program(rules, inputs, derived))


def test_facts_and_constant_heads() -> None:
    assert _pairs("""
        cite(a, "rulebook:x").  cite(a, card(veto)).  cite(a, "card:surprises/veto").
        cites(b, (C,), "faq:002-01") :- finding(play, b, (C,)).
        cites(b, (C,), card(C)) :- finding(play, b, (C,)).
        finding(play, b, (C,)) :- in_hand(_, C).
        cites(K, A, S) :- finding(_, K, A), cite(K, S).
    """) == {("a", "rulebook:x"), ("b", "faq:002-01")}


def test_variables_are_followed_to_what_binds_them() -> None:
    assert _pairs("""
        src("faq:002-03").  src("rulebook:free-actions").
        cites(c, A, S) :- finding(play, c, A), src(S).
        finding(play, c, ()) :- active(_).
        met(G, m1, (G,)) :- goal(G).  met(G, m2, (G,)) :- goal(G).  met(G, m3, (G,)) :- goal(G).
        finding(goals, K, A) :- met(_, K, A).
        finding(goals, other, ()) :- goal(_).
        cites(K, A, "rulebook:goals") :- finding(goals, K, A), met(_, K, A), K != m3.
        cites(K, A, "rulebook:winning") :- finding(goals, K, A), K = (m1; other).
    """) == {("c", "faq:002-03"), ("c", "rulebook:free-actions"), ("m1", "rulebook:goals"),
             ("m2", "rulebook:goals"), ("m1", "rulebook:winning"),
             ("other", "rulebook:winning")}


def test_a_rule_that_cannot_fire_in_the_game_is_left_out() -> None:
    program = """
        cycle :- edition(E), win_cycle(E).
        cites(d, A, "rulebook:fluxxnomic-winning") :- finding(goals, d, A), cycle.
        cites(d, A, "rulebook:winning") :- finding(goals, d, A), edition(fluxx).
        finding(goals, d, ()) :- goal(_).
    """
    # the Fluxxnomic card data (win_cycle/1) is not in a plain Fluxx game's program
    assert _pairs(program, elsewhere=frozenset({("win_cycle", 1)})) == {("d", "rulebook:winning")}
    assert _pairs(program + "win_cycle(fluxxnomic).", "fluxxnomic") == {
        ("d", "rulebook:fluxxnomic-winning")}


def test_an_unbound_key_or_source_is_refused() -> None:
    with pytest.raises(StaticReadError, match="source"):
        _pairs('cites(e, A, S) :- finding(play, e, A), S = @source(A).')
    with pytest.raises(StaticReadError, match="key"):
        _pairs('cites(K, A, "faq:002-01") :- finding(play, K, A).')
