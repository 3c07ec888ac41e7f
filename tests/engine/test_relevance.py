"""Leaving out the rules that cannot fire (adjudicator/engine/speed/relevance.py) changes no ruling.

The analysis is checked two ways: on small programs whose answer is known, and by ruling every
scenario table of the suite, the benchmark's crowded table and tables met in simulated games
with the pruning on and off (FLUXX_PRUNE) and comparing the whole rulings.
"""

from __future__ import annotations

import gc
import json
import sys
from typing import Any

import clingo
import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.engine import solve
from adjudicator.engine.facts import catalog_text, state_facts, table_facts
from adjudicator.engine.speed import relevance
from adjudicator.referee import moves
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import random_walk
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState
from tests.rules.test_plays import CASES as PLAY_CASES
from tests.rules.test_plays import PLAYABLE, full_table
from tests.rules.test_scenarios import CASES


def parse(text: str) -> list[clingo.ast.AST]:
    out: list[clingo.ast.AST] = []
    clingo.ast.parse_string(text, lambda s: out.append(s)
                            if s.ast_type != clingo.ast.ASTType.Comment else None)
    return out


def kept_rules(program: str, *facts: str) -> list[str]:
    statements = parse(program)
    kept, _ = relevance.Relevance(statements).prune(list(facts))
    return [str(s) for s in kept if s.ast_type == clingo.ast.ASTType.Rule and s.body]


def shown(statements: Any, facts: str) -> list[str]:
    ctl = clingo.Control(["--warn=none"])
    solve.add_statements(ctl, statements)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    out: list[str] = []
    ctl.solve(on_model=lambda m: out.extend(sorted(map(str, m.symbols(shown=True)))))
    return out


# ---- the analysis on programs whose answer is known ---------------------------------------------
PROGRAM = """
in_force(C) :- rule(C), not superseded(C).
bonus(poor_bonus, 1) :- in_force(poor_bonus), poor.
bonus(rich_bonus, 1) :- in_force(rich_bonus).
poor :- seat(S), keepers(S, 0).
total(N) :- N = #sum { B, C : bonus(C, B) }.
"""


def test_a_rule_whose_card_is_not_on_the_table_is_left_out() -> None:
    kept = kept_rules(PROGRAM, "rule(poor_bonus).\nseat(0).\nkeepers(0,0).")
    assert not any(r.startswith("bonus(rich_bonus") for r in kept)
    assert any(r.startswith("bonus(poor_bonus") for r in kept)
    assert any(r.startswith("total(") for r in kept)  # an aggregate never drops a rule


def test_a_rule_is_kept_when_its_card_is_there() -> None:
    kept = kept_rules(PROGRAM, "rule(rich_bonus).")
    assert any(r.startswith("bonus(rich_bonus") for r in kept)
    assert not any(r.startswith("bonus(poor_bonus") for r in kept)  # nor is poor_bonus derivable


def test_negative_literals_and_comparisons_never_drop_a_rule() -> None:
    kept = kept_rules("a :- b, not c.\nd :- e(N), N > 100.\nb. e(1).", "")
    assert len(kept) == 2


def test_recursion_is_kept() -> None:
    program = "reach(X,Y) :- edge(X,Y).\nreach(X,Z) :- reach(X,Y), edge(Y,Z).\nloop :- reach(a,a)."
    kept = kept_rules(program, "edge(a,b).\nedge(b,a).")
    assert len(kept) == 3
    assert shown(parse(program), "edge(a,b).\nedge(b,a).").count("loop") == 1


def test_a_head_variable_binds_the_body() -> None:
    program = "p(X) :- q(X).\nr :- p(a).\ns :- p(b)."
    kept = kept_rules(program, "q(a).")
    assert "r :- p(a)." in kept and "s :- p(b)." not in kept


def test_const_names_are_unknown_values() -> None:
    # `n` is replaced by 3 when grounding: a literal naming it must not be judged by the name
    assert len(kept_rules("#const n = 3.\nbig :- size(n).", "size(3).")) == 1


def test_a_text_that_is_not_plain_facts_keeps_everything() -> None:
    statements = parse(PROGRAM)
    analysis = relevance.Relevance(statements)
    kept, left_out = analysis.prune(["rule(x).", "rule(rich_bonus) :- seat(0)."])
    assert left_out == 0 and tuple(kept) == tuple(statements)


def test_quoted_names_and_nested_terms_in_facts() -> None:
    program = 'hit :- name(0, "A, \\"b\\"").\nmiss :- name(0, "B").\nt :- tup((1,2)).'
    kept = kept_rules(program, 'name(0,"A, \\"b\\"").\ntup((1,2)).')
    assert "miss" not in " ".join(kept)
    assert any(r.startswith("hit") for r in kept)


def test_an_answer_is_reused_only_by_facts_that_answer_alike() -> None:
    analysis = relevance.Relevance(parse(PROGRAM))
    first, _ = analysis.prune(["rule(poor_bonus)."])
    again, _ = analysis.prune(["rule(poor_bonus).\nunread(3)."])  # no rule asks for it
    other, _ = analysis.prune(["rule(rich_bonus)."])
    assert again is first
    assert other is not first
    assert any("rich_bonus" in str(s) for s in other)


# A review's counterexamples (each pruned q away before the fix): facts whose text is not the
# text of their value, #const names in the facts, pools of atoms, block comments.
ODD_FACTS = [
    ("q :- p(2).", fact) for fact in (
        "p(1+1).", "p(4/2).", "p(|-2|).", "p(5\\3).", "p(3^1).", "p(2**1).", "p((2)).", "p(0x2).",
        "p(0b10).", "p(0o2).", "%**% p(2).", "%*x*%p(2).", "p(2%*c*%).")
] + [
    ("q :- p(0).", "p(-0)."), ("q :- p(a).", "p((a))."), ("q :- p(f).", "p(f())."),
    ("q :- p(3000000000).", "p(3000000000)."), ("#const n=2.\nq :- p(2).", "p(n)."),
    ("#const a=b.\nq :- p(b).", "p(a)."), ("q :- p(c).", "p(a,b;c)."), ("q :- p.", "p(a;)."),
    ("q :- p.", "p(;a)."), ("q :- p.", "p()."),
]


def _fresh_index(text: str) -> relevance.FactIndex | None:
    """index_text as if no line had been met before."""
    saved = dict(relevance._LINE_FACTS)
    relevance._LINE_FACTS.clear()
    try:
        return relevance.index_text.__wrapped__(text)
    finally:
        relevance._LINE_FACTS.clear()
        relevance._LINE_FACTS.update(saved)


@pytest.mark.parametrize("text", [
    "p(1).\nq(a,\"x, y\").\n% note\n\nr.", "p(1).\nq(b,(1,2)).\nconst_name(n).",
    "p(1).\nq(a,\"x, y\").\nr :- p(1).", "p(1).\n%* block *%\nr.", "p(1).\np(a;b).",
    *(facts for _, facts in ODD_FACTS)])
def test_lines_met_before_are_read_alike(text: str) -> None:
    # each line is read once per process (relevance._LINE_FACTS): a text whose lines were met
    # in other texts is indexed as if read afresh, names included (a #const could replace them)
    for other in ("p(1).\nr.", "q(a,\"x, y\").", "const_name(n).\n% note", text):
        relevance.index_text(other + "\nunique_to_this_call.")
    cached = relevance.index_text.__wrapped__(text)
    fresh = _fresh_index(text)
    lines = relevance.fact_lines(text)
    assert (cached is None) == (fresh is None) == (lines is None)
    if cached is not None and fresh is not None:
        assert (cached.facts, cached.names, cached.lines) == (fresh.facts, fresh.names,
                                                             fresh.lines)
        assert lines == [line for _, line in fresh.lines]  # what solve.py parses for clingo


def test_a_batch_line_is_read_as_its_table_line_was() -> None:
    # a batch's line (rename.tag_facts) is read from its table's line when that was met before:
    # the index is the one a fresh reading gives, for every line of real tables and odd ones
    from adjudicator.engine.speed.rename import tagged_text
    texts = [table_facts(state, catalog_for("fluxx")) for state in random_walk(4, 3, 6)]
    texts.append('q(a,"x, y").\nq(b,(1,2)).\nz.\nv(-3,a).\nbig(2147483648).')
    for text in texts:
        relevance.index_text(text)  # the tables alone first, as their rulings read them
    batch = tagged_text(texts)
    assert batch is not None
    cached = relevance.index_text.__wrapped__(batch)
    fresh = _fresh_index(batch)
    assert cached is not None and fresh is not None
    assert (cached.facts, cached.names, cached.lines) == (fresh.facts, fresh.names, fresh.lines)
    for line in batch.split("\n"):
        assert relevance._read_line(line) == relevance._line_fact(line), line


@pytest.mark.parametrize("program, facts", ODD_FACTS)
def test_facts_written_oddly_never_lose_a_rule(program: str, facts: str) -> None:
    statements = parse(program + "\n#show q/0.")
    kept, _ = relevance.Relevance(statements).prune([facts])
    assert shown(kept, facts) == shown(statements, facts) == ["q"]


def test_a_derivation_deeper_than_the_stack_keeps_every_rule() -> None:
    depth = sys.getrecursionlimit()  # a frame at least per step of the derivation
    chain = "\n".join(f"p{i} :- p{i + 1}." for i in range(depth))
    statements = parse(chain + "\nq :- p0.\nunused :- nothing.")
    kept, left_out = relevance.Relevance(statements).prune([f"p{depth}."])
    assert left_out == 0 and tuple(kept) == tuple(statements)


def test_answers_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relevance, "TRACES", 8)
    n = relevance.TRACES + 4
    analysis = relevance.Relevance(parse("\n".join(f"hit({i}) :- rule(c{i})." for i in range(n))))
    answers = [analysis.prune([f"rule(c{i})."])[0] for i in range(n)]
    kept = analysis._answers[1]
    assert kept.leaves == n - relevance.TRACES  # full at the ninth: started afresh
    again, _ = analysis.prune([f"rule(c{n - 1})."])
    assert again is answers[n - 1]
    first, _ = analysis.prune(["rule(c0)."])  # forgotten: made again, the same rules kept
    assert [str(s) for s in first] == [str(s) for s in answers[0]]
    assert kept.leaves == n - relevance.TRACES + 1


def test_the_tree_of_answers_gives_the_garbage_collector_nothing_per_node() -> None:
    # its nodes are numbers in dicts of numbers, which Python's collector does not track: a
    # tree of objects walked by every full collection made a serving process pause twice as long
    n = 40
    analysis = relevance.Relevance(parse("\n".join(
        f"hit({i}) :- rule(c{i}), step(s{i})." for i in range(n))))
    for i in range(n):
        analysis.prune([f"rule(c{i}).\nstep(s{i})."])
    tree = analysis._answers[1].tree
    assert tree.size > n and analysis._answers[1].leaves == n
    assert not gc.is_tracked(tree.asks) and not gc.is_tracked(tree.child)


@pytest.mark.slow
def test_the_tables_of_a_game_are_not_analysed_again() -> None:
    # the tables a game meets, as the simulator plays it: each answer made once stays kept
    # while the game goes on (a bound of 16 answers analysed more than half of them again)
    game = ("fluxx", ("creepers", "surprises"))
    catalog = catalog_for(*game)
    tables = [[table_facts(state, catalog), catalog_text(catalog)]
              for state in random_walk(11, 3, 36, *game)]
    analysis = relevance.Relevance(solve.program(edition=game[0], expansions=game[1]))
    made = [0]
    trace = analysis._trace

    def counted(indexes: Any) -> Any:
        made[0] += 1
        return trace(indexes)

    analysis._trace = counted  # type: ignore[method-assign]
    first = [analysis.plan(texts).statements for texts in tables]
    assert made[0] > 16
    made[0] = 0
    again = [analysis.plan(texts).statements for texts in tables]
    assert made[0] == 0 and all(a is b for a, b in zip(again, first, strict=True))


def test_a_rule_is_explored_again_where_an_earlier_rule_answered_otherwise() -> None:
    # `b`'s exploration reads `a`, whose answer depends on the table (card(x)): with the same
    # answer to `b`'s own probe (card(y)) but another one for `a`, the kept exploration of `b`
    # must not be taken
    program = "a :- card(x).\nb :- a, card(y).\nc :- b.\n#show c/0."
    analysis = relevance.Relevance(parse(program))
    assert analysis.prune(["card(x).\ncard(y)."])[1] == 0  # every rule fires
    for facts in ("card(y).", "card(x).\ncard(y)."):
        index = relevance.index_text(facts)
        assert index is not None
        cold = relevance.Relevance(analysis.statements)
        assert _traced(analysis, [index]) == _traced(cold, [index])
    assert [str(s) for s in kept_rules(program, "card(y).")] == []


def _unread_by_rounds(analysis: relevance.Relevance,
                      dropped: set[int]) -> tuple[set[int], set[Any] | None]:
    """What `_unread_rules` answers, worked out as its rule says: round after round, leave out
    every normal rule whose heads no statement kept reads."""
    dropped = set(dropped)
    while True:
        reads: set[Any] = set()
        for i in range(len(analysis.statements)):
            if i in dropped:
                continue
            loose = analysis.loose.get(i)
            if loose is None:
                return dropped, None
            reads |= loose
            reads.update(atom.signature for atom in analysis.rules.get(i, ()))
        if not analysis.shows:
            return dropped, reads
        unread = {i for i, heads in analysis.normal.items()
                  if i not in dropped and not any(sig in reads for sig in heads)}
        if not unread:
            return dropped, reads
        dropped |= unread


def test_rules_nothing_reads_go_in_chains_and_a_rule_reading_itself_stays() -> None:
    program = ("a :- t.\nb :- a.\nc :- b.\nd :- d, t.\ne :- t.\nf :- e.\n#show f/0.\n"
               "g(X) :- t, X = #count { 1 : c }.\n#show g/1.")
    analysis = relevance.Relevance(parse(program))
    rules = {str(s): i for i, s in enumerate(analysis.statements)}
    # f's rule left out: e goes; c is read by g's aggregate, so c, b and a stay; d reads itself
    dropped, reads = analysis._unread_rules({rules["f :- e."]})
    assert {str(analysis.statements[i]) for i in dropped} == {"f :- e.", "e :- t."}
    assert reads == {("t", 0), ("a", 0), ("b", 0), ("c", 0), ("d", 0), ("f", 0), ("g", 1)}
    # g's rule left out too: c, b and a go
    dropped, _ = analysis._unread_rules({rules["f :- e."], rules[next(r for r in rules
                                                                    if r.startswith("g("))]})
    assert {str(analysis.statements[i]) for i in dropped} == {
        "f :- e.", "e :- t.", "g(X) :- t; X = #count { 1: c }.", "c :- b.", "b :- a.", "a :- t."}
    for left_out in ({rules["f :- e."]}, set()):
        assert analysis._unread_rules(left_out) == _unread_by_rounds(analysis, left_out)


@pytest.mark.parametrize("program", [
    # heads of several signatures (pools): a rule stays while any of its heads is read
    "p(1;2,3) :- t.\np(2,3;1) :- t.\nq(1;2,3) :- t.\nx :- p(1).\ny :- q(2,3).\n#show x/0.",
    # a classical negation is not understood: nothing more is left out, and nothing is read
    "a :- t.\nb :- a.\nc :- r(X), -s(X).\n#show c/0.",
    # without any #show every atom is shown: every head is read
    "a :- t.\nb :- a.\nc :- b."])
def test_rules_nothing_reads_in_odd_programs_as_round_after_round(program: str) -> None:
    analysis = relevance.Relevance(parse(program))
    rules = sorted(analysis.rules)
    for left_out in [set(), *({i} for i in rules), set(rules[::2])]:
        assert analysis._unread_rules(set(left_out)) == _unread_by_rounds(analysis, left_out)


@pytest.mark.slow
def test_rules_nothing_reads_are_those_left_out_round_after_round() -> None:
    """`_unread_rules`, counting readers, leaves out what leaving out round after round every
    rule nothing kept reads does: for the sets of rules that the forward analysis left out on a
    sample of scenarios and of simulated games with their plays, and for random ones."""
    import random

    asked: list[tuple[relevance.Relevance, frozenset[int]]] = []
    whole = relevance.Relevance._unread_rules

    def recorded(self: relevance.Relevance, dropped: set[int]) -> Any:
        asked.append((self, frozenset(dropped)))
        return whole(self, dropped)

    relevance.Relevance._unread_rules = recorded  # type: ignore[method-assign]
    try:
        for _, case in RULED[::9]:
            ruling_for(parse_state(case["state"]))
        for seed, game in enumerate([("fluxx", ("creepers", "surprises")), ("math", ()),
                                     ("fluxxnomic", ())]):
            for state in random_walk(seed + 40, 3, 12, *game):
                moves.play_response(state, {"kind": "draw"})
    finally:
        relevance.Relevance._unread_rules = whole  # type: ignore[method-assign]
    assert len(asked) > 20
    rng = random.Random(7)
    checked = 0
    for analysis, dropped in asked:
        rules = sorted(analysis.rules)
        for left_out in (set(dropped), set(rng.sample(rules, len(rules) // 2))):
            fresh = relevance.Relevance(analysis.statements, analysis.backwards)
            assert fresh._unread_rules(set(left_out)) == _unread_by_rounds(analysis, left_out)
            checked += 1
    assert checked > 40


def _plans_asked(run: Any) -> list[tuple[relevance.Relevance, list[str]]]:
    """Every (analysis, texts) that `run()` asks a plan of (rulings and plays alike)."""
    asked: list[tuple[relevance.Relevance, list[str]]] = []
    whole = relevance.Relevance.plan

    def recorded(self: relevance.Relevance, texts: Any) -> Any:
        asked.append((self, list(texts)))
        return whole(self, texts)

    relevance.Relevance.plan = recorded  # type: ignore[method-assign]
    try:
        run()
    finally:
        relevance.Relevance.plan = whole  # type: ignore[method-assign]
    return asked


class _Forgets(dict[Any, Any]):
    """A cache that keeps nothing."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return default


def _traced(analysis: relevance.Relevance, indexes: list[relevance.FactIndex]) -> tuple[Any, ...]:
    trace, questions = analysis._trace(indexes)
    return (tuple(id(s) for s in trace.kept), trace.texts, trace.dropped, trace.wanted,
            tuple(questions))


@pytest.mark.slow
def test_what_traces_share_changes_no_plan_and_no_question() -> None:
    """What a trace keeps for the next ones (each pattern's producers and facts, each probe's
    question, the facts' answers to patterns) leaves every plan and every question as a trace
    that has none of it makes them: the tables of scenarios, of simulated games and their plays'
    facts, traced by the analyses the games warmed and by a cold one, table by table."""
    games = [("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]
    scenarios = [parse_state(c["state"]) for _, c in RULED][::6]

    def play() -> None:
        for state in scenarios:
            ruling_for(state)
        for seed, game in enumerate(games):
            for _ in random_walk(seed, 3, 16, *game):
                pass

    asked = _plans_asked(play)
    assert len(asked) > 100
    cold: dict[int, relevance.Relevance] = {}
    modes: set[bool] = set()
    for analysis, texts in asked[::max(1, len(asked) // 200)]:
        warm = [relevance.index_text(t) for t in texts]
        fresh = [relevance.index_text.__wrapped__(t) for t in texts]
        if None in warm or not analysis.enabled:
            continue
        other = cold.get(id(analysis))
        if other is None:  # it keeps nothing that traces could share, nor within a trace
            other = cold[id(analysis)] = relevance.Relevance(analysis.statements,
                                                             analysis.backwards)
            other._ways_made, other._selected, other._questions = _Forgets(), _Forgets(), _Forgets()
            other._unread, other.static._matched = _Forgets(), _Forgets()
            other._replays = _Forgets()
        for index in fresh:
            index._matched = _Forgets()  # type: ignore[union-attr]
        modes.add(analysis.backwards)
        reference = _traced(other, fresh)  # type: ignore[arg-type]
        assert reference[2] > 0
        assert _traced(analysis, warm) == reference  # type: ignore[arg-type]
    assert modes == {True, False}  # rulings and plays both


def test_a_table_asks_one_path_of_questions_whatever_the_answers_kept() -> None:
    analysis = relevance.Relevance(parse("\n".join(f"hit({i}) :- rule(c{i})." for i in range(40))))
    for i in range(40):
        analysis.prune([f"rule(c{i})."])
    asked: list[tuple[object, ...]] = []
    index = relevance.index_text("rule(c7).")
    assert index is not None
    has = index.has

    def counted(*question: object) -> bool:
        asked.append(question)
        return has(*question)  # type: ignore[arg-type]

    index.has = counted  # type: ignore[method-assign]
    try:
        analysis.prune(["rule(c7)."])
    finally:
        del index.has
    assert 0 < len(asked) == len(set(asked)) <= 40  # each question once, none twice


def test_pruned_and_full_programs_agree_on_a_small_program() -> None:
    statements = parse(PROGRAM)
    for facts in ("rule(poor_bonus).\nseat(0).\nkeepers(0,0).", "rule(rich_bonus).", ""):
        kept, _ = relevance.Relevance(statements).prune([facts])
        assert shown(kept, facts) == shown(statements, facts)


# ---- facts: the program's are kept, a table's that nothing kept reads are not ----------------
FACTS_PROGRAM = """
cite(bonus, "rulebook:a").
cite(penalty, "rulebook:b").
cite(penalty, card(penalty_card)).
shown_fact(1).
#show shown_fact/1.
counted(1). counted(2).
negated(x).
choice_fact(1) ; choice_fact(2).
{ free(1) }.
finding(bonus) :- rule(bonus_card).
finding(penalty) :- rule(penalty_card).
cites(K, S) :- finding(K), cite(K, S).
total(N) :- N = #count { X : counted(X) }.
odd :- seat(S), not negated(S).
unshown(K) :- cite(K, _).
#show cites/2.
#show total/1.
#show odd/0.
"""


def planned(program: str, *texts: str) -> relevance.Plan:
    return relevance.Relevance(parse(program)).plan(list(texts))


def test_the_programs_own_facts_are_kept() -> None:
    plan = planned(FACTS_PROGRAM, "rule(bonus_card).\nseat(y).")
    kept = {str(s) for s in plan.statements}
    # every fact of the program, whoever reads it: cite(penalty, ...) that no kept rule joins
    # (finding(penalty) cannot be derived: telling so cost more than grounding them), facts
    # shown, counted in an aggregate, under negation, a disjunction, a choice
    facts = [str(s) for s in parse(FACTS_PROGRAM)
             if s.ast_type == clingo.ast.ASTType.Rule and not s.body]
    assert len(facts) == 9 and 'cite(penalty,"rulebook:b").' in facts
    assert [f for f in facts if f not in kept] == []
    # the rule that cannot fire and unshown/1, neither shown nor read, are left out
    assert plan.rules_left_out == 2 and plan.facts_left_out == 0
    assert not any(str(s).startswith("unshown") for s in plan.statements)
    assert shown(plan.statements, plan.texts[0]) == shown(parse(FACTS_PROGRAM), plan.texts[0])


def test_text_facts_of_a_signature_no_kept_statement_reads_are_left_out() -> None:
    facts = "rule(bonus_card).\nseat(y).\nseat_name(0,\"Ann\").\nunread(3)."
    plan = planned(FACTS_PROGRAM, facts)
    assert plan.texts[0].splitlines() == ["rule(bonus_card).", "seat(y)."]
    assert plan.facts_left_out == 2  # the two lines of signatures nothing reads
    # a later table that the same answer stands for is filtered the same way
    again = planned(FACTS_PROGRAM, "rule(bonus_card).\nseat(z).\nunread(4).")
    assert again.texts[0].splitlines() == ["rule(bonus_card).", "seat(z)."]


def test_a_rule_whose_head_nothing_reads_is_left_out_in_turn() -> None:
    program = "a(X) :- r(X).\nb(X) :- a(X).\nc :- b(1).\nd :- r(2).\n{ e } :- r(1).\n#show d/0."
    plan = planned(program, "r(1).\nr(2).")
    kept = [str(s) for s in plan.statements]
    # c reads b, b reads a: none shown, none read by a kept rule; a choice is always kept
    assert kept == ["d :- r(2).", "{ e } :- r(1).", "#show d/0."]
    assert shown(plan.statements, plan.texts[0]) == shown(parse(program), "r(1).\nr(2).")


def test_without_a_show_statement_every_rule_is_shown_and_kept() -> None:
    plan = planned("a(X) :- r(X).\nb :- a(1).", "r(1).")
    assert plan.rules_left_out == 0


def test_a_show_of_what_nothing_can_make_true_is_left_out() -> None:
    program = "a :- r(1).\nb :- r(2).\n#show a/0.\n#show b/0.\n#show r/1.\n#show s/1."
    analysis = relevance.Relevance(parse(program))
    kept = [str(s) for s in analysis.plan(["r(1)."]).statements]
    assert "#show a/0." in kept and "#show r/1." in kept  # a fires; r/1 is among the facts
    assert "#show b/0." not in kept and "#show s/1." not in kept
    # the table is asked: a table with s/1 facts is not answered by the first one's answer
    other = analysis.plan(["r(1).\ns(3)."])
    assert "#show s/1." in [str(s) for s in other.statements]
    assert shown(other.statements, "r(1).\ns(3).") == ["a", "r(1)", "s(3)"]
    # never the last one: a program without #show shows every atom
    alone = [str(s) for s in planned("b :- r(2).\n#show b/0.", "r(1).").statements]
    assert "#show b/0." in alone


def test_an_atom_not_understood_keeps_every_fact() -> None:
    # a classical negation in a body: facts are passed whole, rules are still judged
    program = "p(1). p(2).\nq :- r(X), -s(X).\nt :- u."
    plan = planned(program, "r(1).\nunread(1).")
    assert plan.texts[0] == "r(1).\nunread(1)."
    assert "p(1)." in [str(s) for s in plan.statements]


# ---- whole rulings with and without the pruning -------------------------------------------------
def without_stats(ruling: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ruling.items() if k != "engine"}


def switched(state: TableState, monkeypatch: pytest.MonkeyPatch, env: str, counter: str,
             warm: bool = False) -> dict[str, Any]:
    """The ruling of `state` with the switch `env` on (after a first ruling, when `warm`) and
    off: they must agree, and the one with it off counts nothing in `counter`. Returns the one
    with it on."""
    monkeypatch.setenv(env, "1")
    if warm:
        ruling_for(state)
    on = ruling_for(state)
    monkeypatch.setenv(env, "0")
    off = ruling_for(state)
    assert off["engine"].get(counter) == 0
    assert on["engine"].get("warnings") == off["engine"].get("warnings")
    assert without_stats(on) == without_stats(off)
    return on


def both_ways(state: TableState, monkeypatch: pytest.MonkeyPatch) -> None:
    switched(state, monkeypatch, solve.PRUNE_ENV, "rules_left_out")


RULED = [(cid, c) for cid, c in CASES if "expect_error" not in c]


@pytest.mark.parametrize("case", [c for _, c in RULED], ids=[cid for cid, _ in RULED])
@pytest.mark.slow
def test_every_scenario_rules_alike(case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    both_ways(parse_state(case["state"]), monkeypatch)


def test_rules_are_left_out_of_an_ordinary_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(solve.PRUNE_ENV, "1")
    state = parse_state({"players": [{"name": "Ann", "hand": ["Jackpot"]},
                                     {"name": "Bo", "hand_size": 3}], "active": "Ann"})
    assert ruling_for(state)["engine"]["rules_left_out"] > 100


GAMES = [("fluxx", ()), ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


@pytest.mark.parametrize("edition, expansions", GAMES)
@pytest.mark.slow
def test_every_program_is_understood_and_pruned(edition: str, expansions: tuple[str, ...],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons above would pass unnoticed if the analysis gave up on a program (as it
    once did on the play program's pooled fact): both programs of every game must shed rules."""
    monkeypatch.setenv(solve.PRUNE_ENV, "1")
    state = parse_state({"edition": edition, "expansions": list(expansions),
                         "players": [{"name": "Ann", "hand_size": 2},
                                     {"name": "Bo", "hand_size": 3}], "active": "Ann"})
    facts = state_facts(state)
    rules = solve.program(edition=edition, expansions=expansions)
    plays = moves.game_program((edition, tuple(sorted(expansions))))
    for statements in (rules, plays):
        _, left_out, body_rules = solve.pruned(statements, [facts])
        assert 0 < left_out < body_rules


@pytest.mark.slow
def test_the_crowded_table_rules_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.rulings import crowded_table
    both_ways(parse_state(crowded_table()), monkeypatch)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_simulated_tables_rule_alike(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables met along a game of random legal moves (3 players, up to 10 moves)."""
    for state in random_walk(seed, 3, 10):
        both_ways(state, monkeypatch)


# ---- plays with and without the pruning ---------------------------------------------------------
def without_engine(value: Any) -> Any:
    """A play response without the engine's figures (they differ: that is the point)."""
    if isinstance(value, dict):
        return {k: without_engine(v) for k, v in value.items() if k != "engine"}
    if isinstance(value, list):
        return [without_engine(v) for v in value]
    return value


def normal(response: dict[str, Any]) -> dict[str, Any]:
    """A play response without the engine's figures, its outcomes in a fixed order: the solver
    meets the answer sets of a smaller program in another order."""
    out = without_engine(response)
    keys = [json.dumps(o, sort_keys=True) for o in out["outcomes"]]
    if "groups" in out:  # indices into the outcomes: the outcomes they name, in a fixed order
        out["groups"] = sorted((json.dumps(g["choices"], sort_keys=True),
                                sorted(keys[i] for i in g["outcomes"])) for g in out["groups"])
    out["outcomes"] = sorted(out["outcomes"], key=lambda o: json.dumps(o, sort_keys=True))
    return out


def all_outcomes(state: TableState, move: dict[str, Any]) -> list[str]:
    result = moves.apply_action(state, {"kind": "play", **move}, limit=100_000,
                               with_ruling=False)
    return sorted(json.dumps(o.to_json(), sort_keys=True) for o in result.outcomes)


def plays_alike(state_data: dict[str, Any], move: dict[str, Any],
                monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(state_data)
    monkeypatch.setenv(solve.PRUNE_ENV, "1")
    pruned = normal(moves.play_response(state, dict(move)))
    monkeypatch.setenv(solve.PRUNE_ENV, "0")
    full = normal(moves.play_response(state, dict(move)))
    if not full.get("outcomes_truncated"):
        assert pruned == full
        return
    # past MAX_OUTCOMES each lists the first outcomes its solver met: the same number, and
    # all of them are outcomes of the move (every outcome, enumerated both ways, is the same)
    assert len(pruned["outcomes"]) == len(full["outcomes"])
    assert {k: v for k, v in pruned.items() if k != "outcomes"} == {
        k: v for k, v in full.items() if k != "outcomes"}
    everything = all_outcomes(state, move)
    monkeypatch.setenv(solve.PRUNE_ENV, "1")
    assert all_outcomes(state, move) == everything
    # (what each listed outcome says beyond its table and findings, its ruling and what it
    # changed, is made of those: play_response adds it, apply_action alone does not)
    told = ("ruling", "changes", "wins")
    listed = {json.dumps({k: v for k, v in o.items() if k not in told}, sort_keys=True)
              for o in pruned["outcomes"]}
    assert listed <= {json.dumps({k: v for k, v in json.loads(o).items() if k not in told},
                                 sort_keys=True) for o in everything}


@pytest.mark.parametrize("case", [c for _, c in PLAY_CASES], ids=[cid for cid, _ in PLAY_CASES])
@pytest.mark.slow
def test_every_play_scenario_plays_alike(case: dict[str, Any],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    plays_alike(case["state"], case["play"], monkeypatch)


@pytest.mark.parametrize("card", PLAYABLE)
@pytest.mark.slow
def test_every_card_plays_alike(card: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plays_alike(full_table(card), {"card": card}, monkeypatch)


@pytest.mark.parametrize("edition, expansions", GAMES)
@pytest.mark.slow
def test_looking_up_producers_by_constant_changes_no_answer(
        edition: str, expansions: tuple[str, ...]) -> None:
    """Relevance._candidates only skips heads that cannot unify: the plans are the same as when
    every producer is tried, for the scenario tables of the game, both programs, both modes."""
    states = [parse_state(c["state"]) for _, c in RULED]
    states = [s for s in states if s.edition == edition
              and tuple(sorted(s.expansions)) == tuple(sorted(expansions))][:12]
    assert states
    rules = solve.program(edition=edition, expansions=expansions)
    plays = moves.game_program((edition, tuple(sorted(expansions))))
    for statements in (rules, plays):
        for backwards in (True, False):
            narrowed = relevance.Relevance(statements, backwards)
            everything = relevance.Relevance(statements, backwards)
            everything._candidates = (  # type: ignore[method-assign]
                lambda sig, pattern, r=everything: r.producers.get(sig, []))
            for state in states:
                texts = [state_facts(state)]
                a, b = narrowed.plan(texts), everything.plan(texts)
                assert [str(s) for s in a.statements] == [str(s) for s in b.statements]
                assert a.texts == b.texts
