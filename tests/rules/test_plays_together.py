"""Several plays of one table answered together (adjudicator/referee/together.py, POST
/api/plays) get each the answer the play gets alone: for every scenario table and tables of
simulated games of every edition, each listed and each held move, and every card of the hand."""

from __future__ import annotations

import json
from typing import Any

import clingo.ast
import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.engine import solve
from adjudicator.engine.speed import narrow, plays, rename
from adjudicator.errors import InputError
from adjudicator.referee import moves, rounds
from adjudicator.referee.moves import play_response
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import random_walk
from adjudicator.referee.together import play_responses
from adjudicator.table.reader import parse_state
from adjudicator.table.schema import MAX_PLAYS
from adjudicator.table.state import TableState
from tests.scenario_files import scenario_cases

GAMES = [("fluxx", ()), ("fluxx", ("creepers",)), ("fluxx", ("surprises",)),
         ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what depends on how it was worked out: the engine's figures of each
    outcome's ruling, and (for a play whose outcomes are all listed) their order, which is
    clingo's for the program it grounds: each outcome is compared by its content, and each group
    of outcomes by the contents of its outcomes."""
    answer = json.loads(_text(answer))
    for outcome in answer.get("outcomes", []):
        (outcome.get("ruling") or {}).pop("engine", None)
    if answer.get("outcomes_truncated"):  # which outcomes are listed depends on that order too
        answer["outcomes"] = len(answer["outcomes"])
        answer.pop("groups", None)
        return answer
    texts = [_text(o) for o in answer.get("outcomes", [])]
    answer["outcomes"] = sorted(texts)
    answer["groups"] = sorted(
        _text({**g, "outcomes": sorted(texts[i] for i in g["outcomes"])})
        for g in answer.get("groups", []))
    return answer


def moves_of(state: TableState) -> list[dict[str, Any]]:
    """The plays to ask together on a table: every listed and held move of its ruling and a
    play of every card of the active player's hand, each once, at most MAX_PLAYS."""
    ruling = ruling_for(state)
    found = [m["play"] for m in ruling.get("legal_moves", []) + ruling.get("not_yet", [])]
    hand = state.player(state.active).hand or []
    found += [{"card": card} for card in hand]
    unique = {_text(p): p for p in found}
    return list(unique.values())[:MAX_PLAYS]


def assert_alike(state: TableState, requests: list[dict[str, Any]],
                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert plays.PROGRAMS.get((state.edition, tuple(state.expansions))) is not None
    alone: list[Any] = []
    for request in requests:
        try:
            alone.append(comparable(play_response(state, request)))
        except InputError as err:  # a move the table refuses as input: refused together too
            alone.append(err)
    if any(isinstance(a, InputError) for a in alone):
        with pytest.raises(InputError):
            play_responses(state, requests)
        requests = [r for r, a in zip(requests, alone, strict=True)
                    if not isinstance(a, InputError)]
        alone = [a for a in alone if not isinstance(a, InputError)]
    grounded: list[int] = []
    together_ = plays.solve_plays
    monkeypatch.setattr(plays, "solve_plays", lambda facts, *a, **k: (
        grounded.append(len(facts)), together_(facts, *a, **k))[1])
    assert [comparable(a) for a in play_responses(state, requests)] == alone
    assert len(requests) < 2 or grounded and grounded[0] >= 2  # the plays grounded together
    monkeypatch.undo()


def _scenario_tables() -> list[tuple[str, dict[str, Any]]]:
    return [(cid, case["state"]) for cid, case in scenario_cases() if "expect_error" not in case]


TABLE = {"players": [{"name": "Ann", "hand": ["Taxation", "Jackpot", "Draw 2", "Trade Hands",
                                              "Milk", "Rules Reset"]},
                     {"name": "Bo", "hand": ["Peace", "Love", "Time"]},
                     {"name": "Cy", "hand": ["Sun", "Moon"]}],
         "active": "Ann", "turn": {"hand_at_start": 6, "drawn": 1}}
# another table of the game: plays of TABLE and of OTHER differ in nearly every fact
OTHER = {**TABLE, "players": [{"name": "Ann", "hand": ["Jackpot", "Milk", "Cookies"]},
                               {"name": "Bo", "hand": ["Peace"]}]}


def test_every_card_of_a_hand_together_as_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(TABLE)
    requests = [{"card": c} for c in state.player("Ann").hand or []]
    plays.PROGRAMS.get(("fluxx", ()))
    alone = [comparable(play_response(state, r)) for r in requests]
    assert any(len(a["outcomes"]) > 1 for a in alone)  # Taxation: whom each player gives
    asked: list[int] = []
    together_ = plays.solve_plays
    monkeypatch.setattr(plays, "solve_plays", lambda facts, *a, **k: (
        asked.append(len(facts)), together_(facts, *a, **k))[1])
    assert [comparable(a) for a in play_responses(state, requests)] == alone
    assert asked[0] == len(requests)  # every play program grounded with the others at first
    assert rounds.ROUND.get() is None


def test_plays_of_one_table_need_no_renamed_program(monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(TABLE)
    requests = [{"card": "Jackpot"}, {"card": "Milk"}]
    alone = [comparable(play_response(state, r)) for r in requests]
    asked: list[Any] = []  # the renamed program, not built yet, is never asked for
    monkeypatch.setattr(plays.PROGRAMS, "ready", lambda game: asked.append(game))
    lone = moves.solve_alone
    grounded: list[bool] = []
    monkeypatch.setattr(moves, "solve_alone", lambda facts, *a, **k: (
        grounded.append(True), lone(facts, *a, **k))[1])
    assert [comparable(a) for a in play_responses(state, requests)] == alone
    assert grounded == [] and asked == []  # grounded together, the play chosen, at once


def test_plays_of_several_tables_wait_for_the_renamed_program() -> None:
    facts = [moves.build_facts(parse_state(t), {"kind": "play", "card": "jackpot", "player": "Ann"},
                               {}, None, catalog_for("fluxx", ())) for t in (TABLE, OTHER)]
    assert narrow.differing(facts) is None
    # not built yet: the caller solves each play alone
    assert plays.solve_plays(facts, [4, 4], lambda: None,
                             moves.game_program(("fluxx", ()))) is None


def test_plays_whose_grounding_together_fails_are_answered_each_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(TABLE)
    requests = [{"card": "Jackpot"}, {"card": "Taxation"}]
    alone = [comparable(play_response(state, r)) for r in requests]
    assert plays.PROGRAMS.get(("fluxx", ())) is not None
    monkeypatch.setattr(plays, "solve_plays", lambda *a, **k: None)  # past its share of time
    assert [comparable(a) for a in play_responses(state, requests)] == alone

    lone = moves.solve_alone

    def too_slow_for_taxation(facts: str, *args: Any, **kwargs: Any) -> Any:
        if "do_play(0,taxation)." in facts:
            raise solve.TimeLimitError(10.0)
        return lone(facts, *args, **kwargs)

    monkeypatch.setattr(moves, "solve_alone", too_slow_for_taxation)
    with pytest.raises(solve.TimeLimitError) as late:
        play_responses(state, requests)
    assert [i.path for i in late.value.items] == ["/plays/1"]  # the play that hit the limit
    assert rounds.ROUND.get() is None


def test_a_refused_play_is_refused_at_its_place_and_the_round_ends() -> None:
    state = parse_state(TABLE)
    with pytest.raises(InputError) as refused:
        play_responses(state, [{"card": "Jackpot"}, {"card": "Jakpot"}])
    assert [i.path for i in refused.value.items] == ["/plays/1/card"]
    assert refused.value.items[0].suggestions == ["Jackpot"]
    assert rounds.ROUND.get() is None
    assert play_response(state, {"card": "Jackpot"})["legal"]  # nothing of the round is left


@pytest.mark.parametrize("tables", [(TABLE, TABLE), (TABLE, OTHER)],
                         ids=["one table: the play chosen", "two tables: renamed apart"])
def test_a_grounding_of_plays_past_its_time_gives_way_to_each_play_alone(
        tables: tuple[dict[str, Any], dict[str, Any]]) -> None:
    program = plays.PROGRAMS.get(("fluxx", ()))
    assert program is not None
    alone = moves.game_program(("fluxx", ()))
    facts = [moves.build_facts(parse_state(t), {"kind": "play", "card": c, "player": "Ann"}, {},
                               None, catalog_for("fluxx", ()))
             for t, c in zip(tables, ("jackpot", "milk"), strict=True)]
    assert (narrow.differing(facts) is None) == (tables[1] is OTHER)
    assert plays.solve_plays(facts, [4, 4], lambda: program, alone, limit_s=0.0) is None
    found = plays.solve_plays(facts, [4, 4], lambda: program, alone)
    assert found is not None and [len(models) for models, _ in found] == [1, 1]

    def atoms(solved: tuple[list[list[Any]], bool]) -> tuple[list[list[str]], bool]:
        return [sorted(map(str, model)) for model in solved[0]], solved[1]

    assert [atoms(s) for s in found] == [atoms(moves.solve_alone(f, 4, ("fluxx", ())))
                                         for f in facts]


def test_plays_of_one_table_are_grounded_once_the_play_chosen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(TABLE)
    requests = [{"card": c} for c in state.player("Ann").hand or []]
    plays.PROGRAMS.get(("fluxx", ()))
    alone = [comparable(play_response(state, r)) for r in requests]
    texts: list[tuple[str, str]] = []
    chosen = plays.chosen_texts
    monkeypatch.setattr(plays, "chosen_texts", lambda *a: (texts.append(chosen(*a)), texts[-1])[1])
    assert [comparable(a) for a in play_responses(state, requests)] == alone
    assert texts, "the plays of one table are grounded in the play program, the play chosen"
    shared, own = texts[0]
    # the table's facts once, as facts; each play's move holds while that play is asked
    assert "in_hand(0,jackpot)." in shared.split("\n") and "do_play" not in shared
    assert own.split("\n")[0] == f"{{ {plays.ASKED}(0..{len(requests) - 1}) }}."
    assert sorted(own.split("\n")[1:]) == sorted(
        f"do_play(0,{c}) :- {plays.ASKED}({n})." for n, c in enumerate(
            ("taxation", "jackpot", "draw_2", "trade_hands", "milk", "rules_reset")))


TOY = """
p(X) :- q(X).
r :- not p(a).
many :- #count{ X: p(X) } >= 2.
{ pick(X) : p(X) } = 1 :- go.
:- pick(b), block.
s(X) :- pick(X).
#show p/1. #show r/0. #show many/0. #show s/1.
"""


def test_the_play_chosen_gives_each_play_its_own_answer_sets() -> None:
    """The splitting argument on a program of its own: a play's own line that another play's
    facts derive (p(a)), read under `not` and in a #count, a choice and a constraint, a play
    with no line of its own and two alike: each play's answer sets are those of its facts."""
    statements: list[Any] = []
    clingo.ast.parse_string(TOY, statements.append)
    program = tuple(s for s in statements if s.ast_type != clingo.ast.ASTType.Program)
    facts = ["q(b).\np(a).\ngo.\n", "q(b).\nq(a).\ngo.\nblock.\n", "q(b).\n", "q(b).\ngo.\n",
             "q(b).\ngo.\n"]
    assert narrow.differing(facts) is not None  # the chosen path

    def alone(text: str) -> list[list[str]]:
        ctl = clingo.Control(["--models=0", "--project=show", "--warn=none"])
        ctl.add("base", [], TOY + text)
        ctl.ground([("base", [])])
        found: list[list[str]] = []
        ctl.solve(on_model=lambda m: found.append(sorted(map(str, m.symbols(shown=True)))))
        return sorted(found)

    found = plays.solve_plays(facts, [10] * len(facts), lambda: None, program)
    assert found is not None
    expected = [alone(f) for f in facts]
    assert [sorted(sorted(map(str, m)) for m in models) for models, _ in found] == expected
    assert expected[1] == [["many", "p(a)", "p(b)", "s(a)"]]  # the constraint rules out pick(b)
    assert expected[2] == [["p(b)", "r"]]


def test_the_play_chosen_keeps_limits_more_and_samples() -> None:
    state = parse_state(TABLE)
    game = ("fluxx", ())
    facts = [moves.build_facts(state, {"kind": "play", "card": c, "player": "Ann"}, {}, None,
                               catalog_for(*game)) for c in ("taxation", "milk")]
    alone = [moves.solve_alone(f, 100, game) for f in facts]
    sets = [{tuple(sorted(map(str, m))) for m in models} for models, _ in alone]
    assert len(sets[0]) > 2 and len(sets[1]) == 1  # Taxation: whom each player gives
    program = moves.game_program(game)
    found = plays.solve_plays(facts, [2, 1], lambda: None, program)
    assert found is not None
    (taxed, more), (milk, no_more) = found
    assert len(taxed) == 2 and more and {tuple(sorted(map(str, m))) for m in taxed} <= sets[0]
    # exactly as many answer sets as the limit: no more
    assert [sorted(map(str, m)) for m in milk] == [list(s) for s in sets[1]] and not no_more
    sampled = plays.solve_plays(facts, [1, 1], lambda: None, program, samples=[3, 11])
    assert sampled is not None
    for (models, more_), own in zip(sampled, sets, strict=True):
        assert len(models) == 1 and not more_ and tuple(sorted(map(str, models[0]))) in own
    # a sampled play, then one that is not: it gets its limit of answer sets again, and more
    mixed = plays.solve_plays(facts[::-1] + facts[:1], [1, 1, 2], lambda: None, program,
                              samples=[5, 7, None])
    assert mixed is not None and len(mixed[2][0]) == 2 and mixed[2][1]
    assert {tuple(sorted(map(str, m))) for m in mixed[2][0]} <= sets[0]


def test_the_guard_names_no_predicate_of_a_program() -> None:
    for edition, expansions in GAMES:
        statements = (solve.program(edition=edition, expansions=expansions)
                      + solve.play_program(edition, expansions))
        assert not any(n == plays.SOLVED for n, _ in rename.per_table_predicates(statements))
        assert not any(n == plays.ASKED for n, _ in rename.signatures(list(statements)))
        # only what #show names is shown (so never asked_play/1, which plays.py adds)
        assert any(s.ast_type == clingo.ast.ASTType.ShowSignature for s in statements)


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "table"), _scenario_tables(),
                         ids=[c for c, _ in _scenario_tables()])
def test_every_scenario_tables_moves_together_as_alone(
        cid: str, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    state = parse_state(table)
    requests = moves_of(state)
    if len(requests) > 1:
        assert_alike(state, requests, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join((g[0], *g[1])))
def test_simulated_tables_moves_together_as_alone(game: tuple[str, tuple[str, ...]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    asked = 0
    for seed in range(2):
        for state in random_walk(seed, 3, 12, game[0], game[1]):
            requests = moves_of(state)
            if len(requests) > 1:
                assert_alike(state, requests, monkeypatch)
                asked += 1
    assert asked >= 10


# ---- POST /api/plays and `fluxx-adjudicator play FILE CARD CARD ...` --------------------
def test_the_api_answers_each_play_as_post_api_play_does(client) -> None:
    plays.PROGRAMS.get(("fluxx", ()))
    asked = [{"card": "Taxation"}, {"card": "Jackpot"}, {"kind": "end_turn"}]
    answer = client.post("/api/plays", json={"state": TABLE, "plays": asked})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["ok"] is True and len(body["answers"]) == 3
    alone = [client.post("/api/play", json={"state": TABLE, "play": p}).get_json()
             for p in asked]
    assert [comparable(a) for a in body["answers"]] == [comparable(a) for a in alone]
    assert body["answers"][2]["legal"] is False  # the play owed comes first, as alone


@pytest.mark.parametrize(("plays_", "path"), [
    ([{"card": "Jackpot"}, {"card": "Jakpot"}], "/plays/1/card"),
    ([], "/plays"),
    ([{"card": "Jackpot"}] * (MAX_PLAYS + 1), "/plays"),
    ([{"card": "Jackpot", "choices": {"opponnent": "Bo"}}], "/plays/0/choices/opponnent"),
    (None, "/plays"),
])
def test_the_api_refuses_a_bad_play_at_its_place(client, plays_, path: str) -> None:
    body: dict[str, Any] = {"state": TABLE}
    if plays_ is not None:
        body["plays"] = plays_
    answer = client.post("/api/plays", json=body)
    assert answer.status_code == 400
    assert [e["path"] for e in answer.get_json()["errors"]] == [path]


def test_the_command_line_plays_each_card_on_the_table(tmp_path, capsys) -> None:
    from adjudicator.cli import main

    path = tmp_path / "table.json"
    path.write_text(json.dumps(TABLE), encoding="utf-8")
    assert main(["play", str(path), "Jackpot", "Milk", "--json"]) == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    assert [comparable(a) for a in answers] == [
        comparable(play_response(parse_state(TABLE), {"card": c})) for c in ("Jackpot", "Milk")]
    assert main(["play", str(path), "Jackpot", "Milk", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "【Jackpot】" in out and "【Milk】" in out and "合法" in out
    assert main(["play", str(path), "Jackpot", "Milk", "--state-out",
                 str(tmp_path / "next.json")]) == 2
    assert "--state-out" in capsys.readouterr().err
