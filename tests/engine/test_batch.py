"""Tables ruled together in one grounding (adjudicator/engine/speed/batch.py) get exactly the
answer set each gets alone; concurrent callers are combined; a batch that cannot stand for its
tables is ruled table by table."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any

import clingo.ast
import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.engine import solve, terms
from adjudicator.engine.facts import catalog_text, state_facts, table_facts
from adjudicator.engine.speed import batch, narrow, rename
from adjudicator.engine.terms import Term
from adjudicator.errors import InputError
from adjudicator.memo import Memo
from adjudicator.referee.ruling import ruling_for
from adjudicator.table.reader import parse_state
from tests.rules.test_scenarios import CASES


@pytest.fixture(autouse=True)
def _no_time_limit_in_the_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests check which tables are ruled together: a batch past the engine's time limit
    is ruled table by table instead (test_a_batch_over_the_time_limit_is_ruled_table_by_table),
    which a machine loaded by other work can cause. The limit is lifted so that only the batching
    decides."""
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "600")


def scenario_tables() -> dict[tuple[str, tuple[str, ...]], list[str]]:
    """The facts of every scenario table that reads, by game."""
    games: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
    for _, case in CASES:
        try:
            state = parse_state(case["state"])
        except (InputError, KeyError):
            continue
        games[(state.edition, tuple(sorted(state.expansions)))].append(state_facts(state))
    return games


GAMES = scenario_tables()


def alone(facts: str, game: tuple[str, tuple[str, ...]]) -> set[str]:
    solution = solve.solve(facts, edition=game[0], expansions=game[1])
    assert solution.models == 1
    return {str(s) for s in solution.symbols}


@pytest.mark.parametrize("game", sorted(GAMES), ids=lambda g: "+".join((g[0], *g[1])))
@pytest.mark.slow
def test_every_scenario_table_rules_alike_in_a_batch(game: tuple[str, tuple[str, ...]]) -> None:
    tables = GAMES[game]
    assert tables
    for start in range(0, len(tables), 8):
        chunk = tables[start:start + 8]
        solutions = batch.solve_batch(chunk, game[0], game[1])
        assert solutions is not None, "a batch of scenario tables should stand"
        for facts, solution in zip(chunk, solutions, strict=True):
            assert solution.models == 1 and solution.stats["batch"] == len(chunk)
            assert {str(s) for s in solution.symbols} == alone(facts, game)


@pytest.mark.slow
def test_common_facts_apart_and_atoms_read_from_the_cache_rule_alike() -> None:
    # what the server does: the catalog's facts as their own text (the same object every time),
    # and each answer-set atom read once per program (Program.readings) from the second batch on
    game = ("fluxx", ())
    states = []
    for _, case in CASES:
        try:
            state = parse_state(case["state"])
        except (InputError, KeyError):
            continue
        if (state.edition, tuple(state.expansions)) == game:
            states.append(state)
    states = states[:12]
    assert len(states) == 12
    catalog = catalog_for(*game)
    common = catalog_text(catalog)
    tables = [table_facts(s, catalog) for s in states]
    program = batch.tagged_program(*game)
    for chunk in (tables[:6], tables[6:], tables[3:9]):
        solutions = batch.solve_batch(chunk, game[0], game[1], common)
        assert solutions is not None and (bool(program.readings) == terms.INTERNED)
        for facts, solution in zip(chunk, solutions, strict=True):
            assert {str(s) for s in solution.symbols} == alone(facts + common, game)


@pytest.mark.slow
def test_split_with_and_without_the_cache_alike(monkeypatch) -> None:
    program = batch.tagged_program("fluxx", ())
    tables = GAMES[("fluxx", ())][:3]
    lines: list[str] = []
    shared: dict[str, None] = {}
    for k, text in enumerate(tables):
        lines += rename.tag_facts(text, k, shared) + [f"table({k})."]
    whole = solve.run(program.statements, ["\n".join([*shared, *lines])])
    plain = rename.split(whole.symbols, 3, program.per_table, program.per_table_names)
    cache: Memo[int, tuple[int, Term]] = Memo(1 << 16)
    for _ in range(2):  # filling the cache, then reading from it
        cached = rename.split(whole.symbols, 3, program.per_table, program.per_table_names, cache)
        assert [[str(t) for t in a] for a in cached] == [[str(t) for t in a] for a in plain]
    assert len(cache) == (len(whole.symbols) if terms.INTERNED else 0)
    # the shown atoms as clingo's handles (what solve_batch asks for) split alike
    by_handle = solve.run(program.statements, ["\n".join([*shared, *lines])],
                           shown_handles=True)
    if terms.INTERNED:
        assert all(type(h) is int for h in by_handle.symbols)
    monkeypatch.setattr(terms, "_TEXTS", Memo(1 << 16))  # each handle's text asked of clingo
    for memo in (None, Memo(1 << 16)):
        split = rename.split(by_handle.symbols, 3, program.per_table, program.per_table_names,
                            memo)
        assert [sorted(map(str, a)) for a in split] == [sorted(map(str, a)) for a in plain]


@pytest.mark.slow
def test_the_renaming_knows_every_statement_of_every_program() -> None:
    for edition, expansions in GAMES:
        program = batch.tagged_program(edition, expansions)
        assert ("finding", 3) in program.per_table and ("card_type", 2) not in program.per_table


def test_an_unknown_statement_kind_is_refused() -> None:
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_string("#external seat(1).", statements.append)
    with pytest.raises(ValueError, match="cannot rename apart"):
        rename.tag_program(statements, frozenset({("seat", 1)}))


def test_a_table_that_cannot_batch_is_ruled_alone() -> None:
    game = ("fluxx", ())
    good = GAMES[game][0]
    # a count that is not a number: clingo warns ("operation undefined"), so no batch stands
    bad = good.replace("hand_size(0,", 'hand_size(0,"x"). hand_size_unused(0,', 1)
    assert batch.solve_batch([good, bad], *game) is None
    jobs = [batch._Job(good, game), batch._Job(bad, game)]
    batch._run(jobs)
    assert all(job.done and job.retry for job in jobs)  # each caller rules its own again
    solutions = [batch._settle(job) for job in jobs]
    assert {str(s) for s in solutions[0].symbols} == alone(good, game)
    assert "batch" not in solutions[0].stats  # ruled alone
    assert solutions[1].warnings  # the bad table's own ruling keeps its warnings


def test_the_only_table_of_its_game_is_ruled_by_its_caller_outside_the_slot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of tables of one game and one table of another: the one table is handed back
    to its caller at once, who rules it alone while the others' batch is grounded; every
    answer is the table's alone. Tables of one game are all grounded."""
    game, other = ("fluxx", ()), ("fluxx", ("creepers",))
    batch.tagged_program(*game)  # built (a server builds it in the background: _ready)
    tables = GAMES[game][:2]
    lone = GAMES[other][0]
    jobs = [batch._Job(facts, game) for facts in tables] + [batch._Job(lone, other)]
    assert batch._hand_back(jobs) == jobs[:2]
    assert jobs[2].done and jobs[2].retry and not jobs[0].done
    assert batch._hand_back(jobs[:2]) == jobs[:2]  # one game: nothing handed back
    # through the combiner: the lone table's answer comes while the batch is still grounding
    # (its game's program parsed and analysed first, as a running server has them)
    expected = {name: alone(facts, which) for name, facts, which in
                [("a", tables[0], game), ("b", tables[1], game), ("lone", lone, other)]}
    real = batch.solve_batch
    grounding = threading.Event()
    done_at: dict[str, float] = {}

    def slow_batch(*args, **kwargs):
        grounding.set()
        time.sleep(1.0)
        done_at["batch"] = time.perf_counter()
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "solve_batch", slow_batch)
    combiner = batch._Combiner()
    results: dict[str, solve.Solution] = {}
    with combiner._cv:
        combiner._running = batch.MAX_RUNNING  # every caller queues, as under load
    callers = [("a", tables[0], game), ("b", tables[1], game), ("lone", lone, other)]

    def ask(name: str, facts: str, which: tuple[str, tuple[str, ...]]) -> None:
        results[name] = combiner.solve(facts, *which)
        done_at.setdefault(name, time.perf_counter())

    threads = [threading.Thread(target=ask, args=c) for c in callers]
    for t in threads:
        t.start()
    while True:
        with combiner._cv:
            if len(combiner._queue) == len(callers):
                combiner._running = batch.MAX_RUNNING - 1
                combiner._cv.notify_all()
                break
        time.sleep(0.001)
    for t in threads:
        t.join(timeout=60)
    assert grounding.is_set() and done_at["lone"] < done_at["batch"]
    assert results["lone"].stats.get("batch") is None  # ruled alone
    assert results["a"].stats.get("batch") == results["b"].stats.get("batch") == 2
    for name in expected:
        assert {str(s) for s in results[name].symbols} == expected[name]


def test_a_batch_over_the_time_limit_is_ruled_table_by_table(monkeypatch) -> None:
    game = ("fluxx", ())
    tables = GAMES[game][:3]

    def too_slow(*args, **kwargs):
        raise solve.TimeLimitError(0.001)

    monkeypatch.setattr(batch, "solve_batch", too_slow)
    jobs = [batch._Job(facts, game) for facts in tables]
    batch._run(jobs)
    for facts, job in zip(tables, jobs, strict=True):
        assert {str(s) for s in batch._settle(job).symbols} == alone(facts, game)


def test_concurrent_callers_are_ruled_in_one_batch() -> None:
    game = ("fluxx", ())
    tables = GAMES[game][:6]
    batch.tagged_program(*game)  # built (a server builds it in the background: _ready)
    combiner = batch._Combiner()
    results: dict[int, solve.Solution] = {}
    # hold the combiner as if a grounding were under way, so every caller queues
    with combiner._cv:
        combiner._running = batch.MAX_RUNNING
    threads = [threading.Thread(target=lambda k=k: results.__setitem__(
        k, combiner.solve(tables[k], *game))) for k in range(len(tables))]
    for t in threads:
        t.start()
    while True:
        with combiner._cv:
            if len(combiner._queue) == len(tables):
                combiner._running = batch.MAX_RUNNING - 1  # one grounding free: one batch
                combiner._cv.notify_all()
                break
        time.sleep(0.001)
    for t in threads:
        t.join(timeout=60)
    assert sorted(results) == list(range(len(tables)))
    for k, facts in enumerate(tables):
        assert results[k].stats.get("batch") == len(tables)
        assert {str(s) for s in results[k].symbols} == alone(facts, game)


def test_one_callers_tables_are_ruled_together_each_as_alone() -> None:
    """A move's outcomes are ruled in batches of MAX_BATCH (ruling.rulings_for): every ruling
    is the one its table gets alone, in the order asked."""
    game = ("fluxx", ())
    batch.tagged_program(*game)  # built (a server builds it in the background: _ready)
    tables = (GAMES[game] * 3)[:batch.MAX_BATCH + 3]
    solutions = batch.solve_all(tables, *game)
    sizes = [s.stats.get("batch") for s in solutions]
    assert sizes == [batch.MAX_BATCH] * batch.MAX_BATCH + [3] * 3
    for facts, solution in zip(tables, solutions, strict=True):
        assert {str(s) for s in solution.symbols} == alone(facts, game)


def test_a_moves_outcomes_are_ruled_together_and_as_alone() -> None:
    from adjudicator.referee.moves import play_response

    state = parse_state({"players": [{"name": "Ann", "hand_size": 2},
                                     {"name": "Bo", "hand": ["Milk", "Moon", "Sun", "Bread"]}],
                         "active": "Ann", "rules": ["Hand Limit 1"], "turn": {"hand_at_start": 2}})
    batch.tagged_program("fluxx")
    answer = play_response(state, {"kind": "discard", "player": "Bo"})
    assert len(answer["outcomes"]) == 4
    for outcome in answer["outcomes"]:
        ruled = dict(outcome["ruling"], engine=None)
        assert ruled == dict(ruling_for(parse_state(outcome["state"])), engine=None)
        assert outcome["ruling"]["engine"]["batch"] == 4


@pytest.mark.parametrize("game", [("fluxx", ()), ("fluxx", ("creepers", "surprises")),
                                  ("math", ())],
                         ids=lambda g: "+".join((g[0], *g[1])))
def test_outcomes_that_differ_in_few_predicates_rule_alike_in_a_narrow_program(
        monkeypatch: pytest.MonkeyPatch, game: tuple[str, tuple[str, ...]]) -> None:
    """A discard's outcomes differ only in the discarded cards' places: they are ruled in a
    narrow program (only what those facts reach renamed apart per table), each ruling the one
    its table gets alone."""
    from adjudicator.referee.moves import play_response

    monkeypatch.setattr(batch.NARROW, "ready", batch.NARROW.get)  # built at once when asked
    used: list[frozenset[tuple[str, int]]] = []
    narrow_program = narrow.narrow_program

    def spy(built, game, facts):  # type: ignore[no-untyped-def]
        found = narrow_program(built, game, facts)
        if found is not None:
            used.append(narrow.differing(facts)[0])  # type: ignore[index]
        return found

    monkeypatch.setattr(batch, "narrow_program", spy)
    hand = (["One", "Two", "Three", "Five"] if game[0] == "math"
            else ["Milk", "Moon", "Sun", "Bread"])
    state = parse_state({"edition": game[0], "expansions": list(game[1]),
                         "players": [{"name": "Ann", "hand_size": 2}, {"name": "Bo", "hand": hand}],
                         "active": "Ann", "rules": ["Hand Limit 1"], "turn": {"hand_at_start": 2}})
    batch.tagged_program(*game)
    answer = play_response(state, {"kind": "discard", "player": "Bo"})
    assert len(answer["outcomes"]) == 4
    assert used and {("discard", 2), ("in_hand", 2)} <= used[-1] <= {
        ("discard", 2), ("in_hand", 2), ("hand_copies", 3)}
    program = batch.NARROW.get((game, used[-1]))
    # what the outcomes differ in and what it reaches is renamed; the rest (every outcome has
    # the same seats, rules and hand sizes) is grounded once
    assert {("discard", 2), ("in_hand", 2), ("legal_move", 3), ("finding", 3)} <= program.per_table
    assert not {("seat", 1), ("hand_size", 2), ("card_type", 2)} & program.per_table
    for outcome in answer["outcomes"]:
        ruled = dict(outcome["ruling"], engine=None)
        assert ruled == dict(ruling_for(parse_state(outcome["state"])), engine=None)
        assert outcome["ruling"]["engine"]["batch"] == 4


def test_a_narrow_program_renames_what_the_differing_facts_reach() -> None:
    statements = solve.program(edition="fluxx")
    per_table = narrow.reached_from(statements, frozenset({("discard", 2)}))
    assert ("discard", 2) in per_table and not {("seat", 1), ("card_type", 2)} & per_table
    # the condition of a choice's elements is read, not derived: `1 = { goal_out(G): goal(G) }`
    # (the play program's)
    moved = narrow.reached_from(statements + solve.play_program("fluxx", ()),
                                frozenset({("do_play", 2)}))
    assert ("goal_out", 1) in moved and ("goal", 1) not in moved
    facts = ["seat(0).\nseat(1).\ndiscard(milk,0).\n", "seat(0).\nseat(1).\ndiscard(time,0).\n"]
    assert narrow.differing(facts) == (frozenset({("discard", 2)}),
                                      {"seat(0).", "seat(1).", ""})
    assert narrow.narrow_text(facts, {"seat(0).", "seat(1).", ""}, per_table).split("\n") == [
        "seat(0).", "seat(1).", "discard(0,milk,0).", "table(0).", "discard(1,time,0).",
        "table(1)."]
    program: list[Any] = []
    clingo.ast.parse_string("q(X) :- p(X). r(X, Y) :- q(X, Y). s :- r(1, 2).", program.append)
    # q/1 renamed is q/2, so q/2 (and what it derives) is renamed too
    assert narrow.reached_from(program, frozenset({("p", 1)})) == {
        ("p", 1), ("q", 1), ("q", 2), ("r", 2), ("s", 0)}
    many = [f"p{k}(1).\n" for k in range(narrow.NARROW_INPUTS + 1)]
    assert narrow.differing(many) is None  # too many predicates apart: the game's program


def test_narrow_programs_are_bounded_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    built = rename.Built(lambda key: key, "test-built", most=2)
    monkeypatch.setattr(built, "get", lambda key: built.built.setdefault(key, key))
    for key in ("a", "b", "c"):
        built.ready(key)
    for _ in range(500):  # the builds run in background threads: a loaded machine is slow
        if len(built.built) == 2:
            break
        time.sleep(0.01)
    assert built.ready("a") == "a" and built.ready("b") == "b"
    assert built.ready("c") is None and "c" not in built.built  # past the bound: never built


def test_tables_that_differ_in_many_predicates_take_the_games_program() -> None:
    tables = GAMES[("fluxx", ())][:4]
    assert narrow.differing(tables) is None  # different tables: found at the first pair
    assert narrow.differing(["seat(0).\nkeeper(0,milk).", "seat(0).\nkeeper(0,moon)."]) == (
        frozenset({("keeper", 2)}), {"seat(0)."})
    assert narrow.differing(["seat(0).", "seat(0).\np :- q."]) is None  # not a fact


def test_a_lone_ruling_is_not_batched() -> None:
    state = parse_state({"players": [{"name": "Ann", "hand": ["Jackpot"]},
                                     {"name": "Bo", "hand_size": 3}], "active": "Ann"})
    ruling = ruling_for(state)
    assert ruling["ok"] and "batch" not in ruling["engine"]


@pytest.mark.slow
def test_a_program_not_yet_built_is_built_in_the_background(monkeypatch) -> None:
    game = ("fluxxnomic", ())
    monkeypatch.setattr(batch.TAGGED, "built", {})
    tables = GAMES[game][:2]
    assert len(tables) == 2
    jobs = [batch._Job(facts, game) for facts in tables]
    batch._run(jobs)  # not built yet: each table alone, at once
    # (a table alone past its share under load is ruled again by its caller: _settle)
    assert all("batch" not in batch._settle(job).stats for job in jobs)
    deadline = time.monotonic() + 60
    while not batch._ready(game):
        assert time.monotonic() < deadline, "the background build never finished"
        time.sleep(0.05)
    assert game in batch.TAGGED.built


def test_the_next_batch_waits_for_the_callers_of_the_last(monkeypatch) -> None:
    """Group commit: after a batch of 3, the first caller to come back waits (at most LINGER)
    for the other two, so the three are ruled together again instead of one alone."""
    game = ("fluxx", ())
    tables = GAMES[game][:3]
    batch.tagged_program(*game)
    monkeypatch.setattr(batch, "LINGER", 30.0)  # far longer than the test: only the count ends it
    combiner = batch._Combiner()
    combiner._expect = 3  # as left by a batch of 3
    results: dict[int, solve.Solution] = {}

    def ask(k: int) -> None:
        results[k] = combiner.solve(tables[k], *game)

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    time.sleep(0.3)  # the first caller is waiting, not grounding alone
    assert not results and len(combiner._queue) == 1
    others = [threading.Thread(target=ask, args=(k,)) for k in (1, 2)]
    started = time.monotonic()
    for t in others:
        t.start()
    for t in [first, *others]:
        t.join(timeout=20)
    assert time.monotonic() - started < 10  # the count ended the wait, not the 30 s deadline
    assert [results[k].stats.get("batch") for k in range(3)] == [3, 3, 3]
    for k, facts in enumerate(tables):
        assert {str(s) for s in results[k].symbols} == alone(facts, game)
    assert combiner._expect == 3


def test_the_wait_for_callers_that_do_not_come_is_bounded(monkeypatch) -> None:
    game = ("fluxx", ())
    facts = GAMES[game][0]
    monkeypatch.setattr(batch, "LINGER", 0.2)
    combiner = batch._Combiner()
    combiner._expect = 4  # callers were there, and have gone
    started = time.monotonic()
    answers: list[solve.Solution] = []
    caller = threading.Thread(target=lambda: answers.append(combiner.solve(facts, *game)))
    caller.start()
    caller.join(timeout=30)  # an unbounded wait fails here instead of hanging the suite
    assert answers, "the caller still waits for callers that never came"
    solution = answers[0]
    waited = time.monotonic() - started
    assert "batch" not in solution.stats  # ruled alone once the wait ran out
    assert 0.2 <= waited < 30
    assert combiner._expect == 1  # what the next caller expects: itself
    monkeypatch.setattr(batch, "LINGER", 30.0)
    started = time.monotonic()
    combiner.solve(facts, *game)
    assert time.monotonic() - started < 10  # ruled at once: nobody else is expected


def test_linger_from_the_environment(monkeypatch) -> None:
    for given, expected in (("0", 0.0), ("0.01", 0.01), ("inf", 1.0), ("-3", 0.0),
                            ("nan", batch.LINGER_DEFAULT), ("soon", batch.LINGER_DEFAULT)):
        monkeypatch.setenv("FLUXX_LINGER", given)
        assert batch._linger_from_env() == expected, given
    monkeypatch.delenv("FLUXX_LINGER")
    assert batch._linger_from_env() == batch.LINGER_DEFAULT


def test_a_failure_outside_the_engine_reaches_every_caller_of_the_batch(monkeypatch) -> None:
    """Should ruling a batch raise (not an engine error, which _run hands to each job), every
    caller of that batch hears of it; none waits for ever."""
    def broken(jobs: list) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(batch, "_run", broken)
    combiner = batch._Combiner()
    with pytest.raises(RuntimeError, match="broken"):
        combiner.solve(GAMES[("fluxx", ())][0], "fluxx", ())
    assert combiner._running == 0 and not combiner._queue


@pytest.mark.slow
def test_a_constraint_applies_to_each_table_of_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    # no encoding has an integrity constraint yet: the program of the game gets one, which
    # refuses every table whose active player sits at seat 1
    game = ("fluxx", ())
    constraint: list[clingo.ast.AST] = []
    clingo.ast.parse_string(":- active(S), S = 1.", constraint.append)
    statements = (*solve.parse_private(*game), *constraint)
    monkeypatch.setattr(solve, "parse_private", lambda edition, expansions=(): list(statements))
    monkeypatch.setattr(solve, "program", lambda path=None, *, edition=None, expansions=(): (
        statements))
    monkeypatch.setattr(batch.TAGGED, "built", {})
    batch.tagged_program(*game)
    tables = GAMES[game]
    refused = [t for t in tables if "\nactive(1)." in f"\n{t}"][:2]
    kept = [t for t in tables if "\nactive(1)." not in f"\n{t}"][:3]
    assert refused and kept
    for chunk in ([*kept[:2], refused[0], kept[2], *refused[1:]], kept):
        lone = [solve.solve(t, edition=game[0]) for t in chunk]
        jobs = [batch._Job(t, game) for t in chunk]
        batch._run(jobs)
        for job, want in zip(jobs, lone, strict=True):
            got = batch._settle(job)
            assert got.models == want.models
            assert {str(s) for s in got.symbols} == {str(s) for s in want.symbols}
    assert [s.models for s in lone] == [1] * len(kept)
    assert all(job.result().stats.get("batch") == len(kept) for job in jobs)  # the batch stood


def test_batches_switched_off_rule_each_table_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ("fluxx", ())
    facts = GAMES[game][0]
    monkeypatch.setenv(batch.BATCH_ENV, "0")
    ruled: list[str] = []
    monkeypatch.setattr(batch._COMBINER, "solve", lambda *args: ruled.append("combined"))
    solution = batch.solve(facts, *game)
    assert not ruled and {str(s) for s in solution.symbols} == alone(facts, game)


def test_one_callers_tables_do_not_raise_the_count_to_wait_for() -> None:
    """A batch of one caller's tables (solve_all) says nothing of how many callers will come
    back: the next batch waits for no more callers than concurrent ones were (LINGER)."""
    game = ("fluxx", ())
    batch.tagged_program(*game)
    combiner = batch._Combiner()
    combiner.solve_all((GAMES[game] * 3)[:5], *game)
    assert combiner._expect == 1


@pytest.mark.slow
def test_a_pool_of_facts_is_shared_and_read_in_each_table_of_a_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # `seat_kind(first;second).` is two facts of the program (a pool): no table defines them, so
    # they are shared, and a rule that joins them with a table's atoms holds in each table (read
    # as an input of its own, the rule would find no `seat_kind` in any table of a batch)
    game = ("fluxx", ())
    extra: list[clingo.ast.AST] = []
    clingo.ast.parse_string("seat_kind(first;second).\n"
                            "seated_first(S) :- active(S), seat_kind(first).\n"
                            "#show seated_first/1.", extra.append)
    statements = (*solve.parse_private(*game), *extra)
    monkeypatch.setattr(solve, "parse_private", lambda edition, expansions=(): list(statements))
    monkeypatch.setattr(solve, "program", lambda path=None, *, edition=None, expansions=(): (
        statements))
    monkeypatch.setattr(batch.TAGGED, "built", {})
    program = batch.tagged_program(*game)
    assert ("seat_kind", 1) not in program.per_table
    tables = GAMES[game][:3]
    solutions = batch.solve_batch(tables, *game)
    assert solutions is not None
    for facts, solution in zip(tables, solutions, strict=True):
        got = {str(s) for s in solution.symbols}
        assert any(s.startswith("seated_first(") for s in got)
        assert got == {str(s) for s in solve.solve(facts, edition=game[0]).symbols}
