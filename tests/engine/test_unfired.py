"""Leaving out the rules that fired for no earlier table of a plan
(adjudicator/engine/speed/unfired.py) changes no ruling.

Checked three ways: the body evaluator on small answer sets whose answers are known; small
programs run through the engine, where the check must catch a rule that fires after all; and
every scenario table of the suite, the crowded table and simulated tables, ruled with the rules
left out (after an earlier table of the same plan taught which) and with every rule grounded.
"""

from __future__ import annotations

from typing import Any

import clingo
import pytest

from adjudicator.engine import solve
from adjudicator.engine.speed import bodies, unfired
from adjudicator.engine.terms import parse as term
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import random_walk
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState
from tests.engine.test_relevance import switched
from tests.rules.test_scenarios import CASES


def parse(text: str) -> list[clingo.ast.AST]:
    out: list[clingo.ast.AST] = []
    clingo.ast.parse_string(text, lambda s: out.append(s)
                            if s.ast_type != clingo.ast.ASTType.Comment else None)
    return out


def body(text: str) -> bodies.Body:
    """The compiled body of the one rule `text`."""
    rule = [s for s in parse(text) if s.ast_type == clingo.ast.ASTType.Rule][0]
    return bodies.Body(rule.body)


ATOMS = ["p(1)", "p(3)", "q(a,(1,2))", 'r("s")', "k(draw)", "k(play)", "flag"]


def holds(rule: str, atoms: list[str] = ATOMS) -> bool:
    compiled = body(rule)
    names = frozenset(name for name, _ in compiled.sigs)
    return compiled.holds(bodies.Atoms([term(a) for a in atoms], names))


# ---- the body evaluator -------------------------------------------------------------------------
@pytest.mark.parametrize("rule, expected", [
    ("h :- p(X), X > 2.", True),
    ("h :- p(X), X > 3.", False),
    ("h :- p(X), 1 < X < 3.", False),
    ("h :- p(X), 0 < X <= 1.", True),
    ("h :- q(_, (A,B)), A + B = 3.", True),
    ("h :- q(_, (A,B)), A * B > 2.", False),
    ("h :- p(X), not p(X+2).", True),  # p(3): there is no p(5)
    ("h :- p(X), p(Y), X != Y, X - Y = 2.", True),
    ("h :- not r(_).", False),
    ("h :- not s(_).", True),
    ("h :- p(X), Y = X*2, Y = 6.", True),
    ("h :- p(X), Y = X*2, Y = 4.", False),
    ("h :- k(K), K != draw, K != play.", False),
    ('h :- r(S), S = "s".', True),
    ("h :- flag, not not flag.", True),
    ("h :- p(X), not flag.", False),
    ("h :- #false.", False),
    ("h :- q(a,(X,_)), p(X).", True),
    ("h :- q(b,_).", False),
    ("h :- p(X), X = Y.", True),  # X = Y binds Y
])
def test_a_body_holds_as_clingo_would_ground_it(rule: str, expected: bool) -> None:
    assert holds(rule) is expected
    # and clingo agrees: the rule's head is derived exactly when the body holds
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(f"{a}." for a in ATOMS) + "\n" + rule)
    ctl.ground([("base", [])])
    assert any(str(a.symbol) == "h" for a in ctl.symbolic_atoms) is expected


@pytest.mark.parametrize("rule", [
    "h :- #count { X: p(X) } > 1.",  # an aggregate
    "h :- k((draw;play)).",  # a pool
    "h :- p(1..3).",  # an interval
    "h :- p(X) : k(X).",  # a conditional literal
    "h :- -p(1).",  # classical negation
])
def test_a_body_it_does_not_evaluate_is_never_left_out(rule: str) -> None:
    with pytest.raises(bodies.NotUnderstood):
        body(rule)


def test_a_const_name_is_not_evaluated() -> None:
    """clingo puts a #const's value in its place: the name is not the constant it looks like."""
    rule = [s for s in parse("h :- p(X), X = n.") if s.ast_type == clingo.ast.ASTType.Rule][0]
    with pytest.raises(bodies.NotUnderstood):
        bodies.Body(rule.body, frozenset({"n"}))
    statements = parse("#const n = 3. a(X) :- b(X), X = n. #show a/1.")
    solve.run(statements, ["b(1)."])
    solve.run(statements, ["b(2)."])
    assert shown(solve.run(statements, ["b(3)."])) == {"a(3)"}


@pytest.mark.parametrize("rule, facts", [
    ("h :- big(X), q(X*X).", ["big(65536)", "q(0)"]),  # 65536 * 65536 wraps to 0 in clingo
    ("h :- m(X), X+1 < 0.", ["m(2147483647)"]),
    ("h :- p(-2147483648).", ["p(-2147483648)"]),  # clingo reads -(2147483648), wrapped
])
def test_arithmetic_beyond_32_bits_is_left_to_clingo(rule: str, facts: list[str]) -> None:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(f"{a}." for a in facts) + "\n" + rule)
    ctl.ground([("base", [])])
    assert any(str(a.symbol) == "h" for a in ctl.symbolic_atoms)  # clingo: the body holds
    with pytest.raises(bodies.NotUnderstood):
        holds(rule, facts)


def test_a_text_that_is_not_plain_facts_is_never_thinned() -> None:
    """Only the statements are checked for what makes a program stratified."""
    statements = parse("a(X) :- b(X), X > 2. #show a/1. #show b/1.")
    for n in range(4):
        solution = solve.run(statements, [f"b({n}). c :- b({n})."])
        assert solution.stats["rules_unfired"] == 0


def test_an_ordering_of_non_numbers_cannot_be_told() -> None:
    with pytest.raises(bodies.NotUnderstood):
        holds("h :- k(K), K < z.")


def test_atoms_read_alike_from_handles_symbols_and_terms() -> None:
    ctl = clingo.Control()
    ctl.add("base", [], "\n".join(f"{a}." for a in ATOMS) + '\n-p(2). s("a\\"b").')
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        model = next(iter(handle))
        sequence = model.symbols(atoms=True)
        symbols = list(sequence)
        handles = bodies.handles(sequence)
    names = frozenset({"p", "-p", "q", "r", "k", "flag", "s"})
    terms = [term(str(s)) for s in symbols]
    read = [bodies.Atoms(x, names).rows for x in (handles, symbols, terms)]
    assert read[0] == read[1] == read[2]
    assert ("-p", 1) in read[0] and ("p", 1) in read[0] and len(read[0][("p", 1)]) == 2


# ---- which programs are thinned -----------------------------------------------------------------
@pytest.mark.parametrize("program, expected", [
    ("a :- b. c :- not a.", True),
    ("m(count) :- not m(all). m(all) :- x.", True),  # told apart by their constants
    ("m(X) :- y(X), not m(all). m(all) :- x.", False),  # m(X) may be m(all)
    ("p :- not q. q :- not p.", False),
    ("n(N) :- N = #count { X: n(X) }.", False),  # recursion through an aggregate
    ("{ a }. b :- a.", False),  # a choice
    ("a ; b.", False),  # a disjunction
    (":- a, b. a :- c.", True),  # a constraint adds no answer set
    ("#const k = 3. a(k) :- not a(3), x.", False),  # k is 3
])
def test_only_stratified_programs_are_thinned(program: str, expected: bool) -> None:
    assert unfired.stratified(parse(program)) is expected


def shown(solution: solve.Solution) -> set[str]:
    return {str(s) for s in solution.symbols}


def test_a_rule_that_fired_for_no_table_is_left_out_then_checked() -> None:
    statements = parse("a(X) :- b(X), X > 2. c :- not a(_). #show a/1. #show c/0.")
    once = solve.run(statements, ["b(0)."])  # met once: nothing learnt (a one-off plan)
    assert once.stats["rules_unfired"] == 0 and shown(once) == {"c"}
    first = solve.run(statements, ["b(1)."])  # met again: learnt from; a's rule did not fire
    assert first.stats["rules_unfired"] == 0 and shown(first) == {"c"}
    second = solve.run(statements, ["b(2)."])  # a's rule left out; the check passes
    assert second.stats["rules_unfired"] == 1 and "regrounded" not in second.stats
    assert shown(second) == {"c"}
    third = solve.run(statements, ["b(5)."])  # left out, but it fires: grounded again
    assert third.stats.get("regrounded") is True and third.stats["rules_unfired"] == 0
    assert shown(third) == {"a(5)"}
    # learnt anew: a's rule fired once, c's did then: neither is left out for this plan again
    fourth = solve.run(statements, ["b(0)."])
    assert fourth.stats["rules_unfired"] == 0 and "regrounded" not in fourth.stats
    assert shown(fourth) == {"c"}


def test_a_check_it_cannot_finish_grounds_the_table_again() -> None:
    statements = parse("a(X) :- b(X), X < 3. #show a/1. #show b/1.")
    solve.run(statements, ["b(5)."])
    solve.run(statements, ["b(6)."])
    assert solve.run(statements, ["b(7)."]).stats["rules_unfired"] == 1
    odd = solve.run(statements, ["b(z)."])  # z < 3: an ordering this module leaves to clingo
    assert odd.stats.get("regrounded") is True and shown(odd) == {"b(z)"}


def test_a_program_with_two_answer_sets_is_never_thinned() -> None:
    statements = parse("p :- not q, r. q :- not p, r. s(X) :- t(X), X > 5. #show p/0. #show s/1.")
    for _ in range(3):
        solution = solve.run(statements, ["r. t(1)."])
        assert solution.models == 2 and solution.stats["rules_unfired"] == 0


def test_the_switch_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    statements = parse("a(X) :- b(X), X > 2. #show a/1. #show b/1.")
    solve.run(statements, ["b(1)."])
    solve.run(statements, ["b(0)."])
    monkeypatch.setenv(unfired.UNFIRED_ENV, "0")
    assert solve.run(statements, ["b(2)."]).stats["rules_unfired"] == 0
    monkeypatch.setenv(unfired.UNFIRED_ENV, "1")
    assert solve.run(statements, ["b(2)."]).stats["rules_unfired"] == 1


# ---- whole rulings with and without --------------------------------------------------------------
LEFT_OUT: list[int] = []  # rules left out per lean ruling, over the scenarios


@pytest.fixture(scope="module", autouse=True)
def nothing_learnt_yet() -> None:
    """This module's rulings start from no plan learnt (other modules' tables teach other
    plans, and a plan that met many kinds of tables leaves fewer rules out)."""
    unfired._ENTRIES.clear()
    unfired._LAST.clear()


def both_ways(state: TableState, monkeypatch: pytest.MonkeyPatch) -> None:
    # earlier tables of the same plan: the second teaches (or checks what was taught)
    monkeypatch.setenv(unfired.UNFIRED_ENV, "1")
    ruling_for(state)
    lean = switched(state, monkeypatch, unfired.UNFIRED_ENV, "rules_unfired", warm=True)
    LEFT_OUT.append(lean["engine"].get("rules_unfired", 0))


RULED = [(cid, c) for cid, c in CASES if "expect_error" not in c]


@pytest.mark.parametrize("case", [c for _, c in RULED], ids=[cid for cid, _ in RULED])
@pytest.mark.slow
def test_every_scenario_rules_alike(case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    both_ways(parse_state(case["state"]), monkeypatch)


@pytest.mark.slow
def test_most_scenarios_were_ruled_lean() -> None:
    """The comparisons above would pass unnoticed if nothing were ever left out."""
    if len(LEFT_OUT) < len(RULED):
        pytest.skip("runs after the scenario comparisons (run the whole module)")
    lean = [n for n in LEFT_OUT if n > 0]
    assert len(lean) > len(LEFT_OUT) // 2


@pytest.mark.slow
def test_the_crowded_table_rules_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.rulings import crowded_table
    both_ways(parse_state(crowded_table()), monkeypatch)
    assert LEFT_OUT[-1] > 50


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_simulated_tables_rule_alike(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables met along a game of random legal moves (3 players, up to 10 moves)."""
    for state in random_walk(seed, 3, 10):
        both_ways(state, monkeypatch)
