"""Plays: the scenario table tests/rules/scenarios/plays.yaml, every card of the rulebook deck
played from a fully known table, the API and CLI faces, and the play program's hygiene.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import clingo
import clingo.ast
import pytest
import yaml

from adjudicator.cards.catalog import catalog_for
from adjudicator.cli import main
from adjudicator.engine import solve
from adjudicator.errors import InputError
from adjudicator.referee import moves
from adjudicator.referee.simulate import card_places, deck
from adjudicator.resources import rules_dir
from adjudicator.table.reader import parse_state
from tests.scenario_files import scenario_cases

OWN_FILES = ("moves/next_table.lp", "moves/legality.lp", "moves/drawing.lp", "moves/actions.lp",
             "moves/turn_moves.lp")


CASES = scenario_cases("plays*.yaml")


def matches(expected: Any, actual: Any) -> bool:
    """Dicts: a subset, key by key; lists: item by item, same length; the rest: equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return expected == actual


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    state = parse_state(case["state"])
    return moves.play_response(state, dict(case["play"]))


def assert_odds_add_up(response: dict[str, Any]) -> None:
    """Outcomes are grouped by their decisions (`groups`, one per decision when there are
    several outcomes); where every outcome of a group is listed and drew something at random,
    the probabilities of the group add up to 1, with those of the group's random results whose
    effect is unknown (`outcomes_unknown`, listed without a table)."""
    outcomes = response["outcomes"]
    if len(outcomes) < 2:
        assert "groups" not in response
        return
    listed = sorted(i for g in response["groups"] for i in g["outcomes"])
    assert listed == list(range(len(outcomes)))
    for group in response["groups"]:
        odds = [outcomes[i].get("probability") for i in group["outcomes"]]
        assert all(outcomes[i].get("choices", {}).items() >= group["choices"].items()
                   for i in group["outcomes"])
        if response.get("outcomes_truncated") or None in odds:
            assert len(group["outcomes"]) == 1 or None not in odds, group
            continue
        odds += [u["probability"] for u in response.get("outcomes_unknown", [])
                 if u["choices"].items() >= group["choices"].items()]
        assert sum(Fraction(o) for o in odds) == 1, group


def test_play_scenarios_exist() -> None:
    assert len(CASES) >= 50
    ids = [cid for cid, _ in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[cid for cid, _ in CASES])
def test_play_scenario(case: dict[str, Any]) -> None:
    assert case.get("source"), "every scenario names its source"
    want = case["expect_play"]
    response = run_case(case)
    assert response["ok"] is True
    assert response["legal"] is want.get("legal", True), response["reasons"]
    said = [r["text"]["en"] for r in response["reasons"]]
    assert len(said) == len(set(said)), f"a reason given twice: {said}"
    if "reasons" in want:
        keys = {r["key"] for r in response["reasons"]}
        assert set(want["reasons"]) <= keys, keys
        assert all(r["sources"] for r in response["reasons"])
    if not response["legal"]:
        assert response["outcomes"] == []
        return
    outcomes = response["outcomes"]
    if want.get("outcomes") == 0:  # the answer asks for a decision first (Gambling's n)
        assert not outcomes and response["open_choices"]
        assert {o["key"] for o in response["open_choices"]} == set(want["open_choices"])
        return
    assert outcomes, "a legal play has at least one outcome"
    if "outcomes" in want:
        assert len(outcomes) == want["outcomes"], [o.get("choices") for o in outcomes]
    if "open_choices" in want:
        assert [c["key"] for c in response["open_choices"]] == want["open_choices"]
    if "state" in want:
        assert matches(want["state"], outcomes[0]["state"]), outcomes[0]["state"]
    if "probability" in want:  # the first outcome's
        assert outcomes[0].get("probability") == want["probability"], outcomes[0].get("choices")
    if "any_state" in want:
        assert any(matches(want["any_state"], o["state"]) for o in outcomes), (
            [o["state"] for o in outcomes])
    if "ruling" in want:
        assert matches(want["ruling"], outcomes[0]["ruling"]), outcomes[0]["ruling"]
    if "groups" in want:  # the decisions of each group, and its outcomes' probabilities
        got = sorted(repr((g["choices"], sorted(str(outcomes[i].get("probability"))
                                                 for i in g["outcomes"])))
                     for g in response["groups"])
        assert got == sorted(repr((g["choices"], sorted(g["probabilities"])))
                             for g in want["groups"])
    # the random results whose effect is unknown, listed without a table (a promo card picked)
    assert response.get("outcomes_unknown", []) == want.get("outcomes_unknown", [])
    if "findings" in want:
        keys = {f["key"] for f in outcomes[0]["play_findings"]}
        assert set(want["findings"]) <= keys, keys
    if "no_findings" in want:
        keys = {f["key"] for f in outcomes[0]["play_findings"]}
        assert not set(want["no_findings"]) & keys, keys
    if "changes" in want:  # the first outcome's events, in order
        assert matches(want["changes"], outcomes[0]["changes"]), outcomes[0]["changes"]
    if "no_changes" in want:  # event kinds no outcome has
        told = {c["event"] for o in outcomes for c in o["changes"]}
        assert not set(want["no_changes"]) & told, told
    assert_odds_add_up(response)
    for outcome in outcomes:
        assert outcome["ruling"]["ok"], outcome["ruling"]
        assert all(f["sources"] for f in outcome["play_findings"])
        parse_state(outcome["state"])  # every outcome is a valid table state


# ---- every card of seed 000, played from a table where every card is known -----
GAME = catalog_for("fluxx")
PLAYABLE = [c.id for c in GAME if c.type not in ("basic_rules", "promo")]


def full_table(card: str) -> dict[str, Any]:
    """Ann holds `card` and four more; everyone has cards, Keepers and rules; all cards known."""
    rest = [c for c in deck(GAME) if c != card]
    keepers = [c for c in rest if GAME.get(c).type == "keeper"]
    others = [c for c in rest if GAME.get(c).type != "keeper"]
    ann_keepers, bo_keepers, cy_keepers = keepers[:2], keepers[2:4], keepers[4:5]
    rules = [c for c in others if c in ("draw_2", "play_3", "inflation")]
    goals = [c for c in others if c == "toast"]
    others = [c for c in others if c not in rules + goals]
    hand, bo, cy = others[:4], others[4:7], others[7:9]
    discard = others[9:14]
    pile = others[14:] + keepers[5:]
    return {"players": [{"name": "Ann", "hand": [card] + hand, "keepers": ann_keepers},
                        {"name": "Bo", "hand": bo, "keepers": bo_keepers},
                        {"name": "Cy", "hand": cy, "keepers": cy_keepers}],
            "active": "Ann", "rules": rules, "goals": goals,
            "turn": {"drawn": 3, "played": 0}, "draw_pile": pile, "discard_pile": discard}


def test_full_table_holds_the_whole_deck() -> None:
    state = parse_state(full_table("jackpot"))
    assert card_places(state) == Counter(deck(GAME))


@pytest.mark.parametrize("card", PLAYABLE)
@pytest.mark.slow
def test_every_card_is_playable(card: str) -> None:
    """Every card of seed 000: a legal play with outcomes; no card lost or duplicated; the card
    lands where its type says (a Keeper in front of Ann, a rule or Goal in the centre, an Action
    in the discard pile or, while its sub-hand is played out, the discard pile too)."""
    state = parse_state(full_table(card))
    result = moves.apply_action(state, {"kind": "play", "card": card}, seed=1)
    assert result.legal, result.reasons
    assert result.outcomes
    kind = GAME.get(card).type
    for outcome in result.outcomes:
        new = outcome.state
        assert card_places(new) == Counter(deck(GAME)), card
        assert outcome.ruling["ok"]
        if kind == "keeper":
            assert card in new.player("Ann").keepers
        elif kind == "goal":
            assert card in new.goals
        elif kind == "new_rule":
            assert card in new.rules or (card == "reverse_order" and len(new.players) == 2)
        else:
            assert card in new.discard_pile
        uses = 1
        assert new.turn.played == state.turn.played + uses


@pytest.mark.parametrize("pile", [["milk", "cookies", "sun", "dreams"],
                                  ["milk", "?", "sun", "dreams"]])
def test_a_play_that_draws_nothing_leaves_the_pile_as_the_table_gives_it(
        pile: list[str]) -> None:
    """The rules say the pile is kept (drawing.lp: next_draw_pile_kept) rather than listing it
    again; the outcome's pile is the table's, in order, and a pile with a card nobody saw stays
    a count (its known cards have no known place), as when the rules listed it."""
    data = {"players": [{"name": "Ann", "hand": ["moon", "jackpot"]},
                        {"name": "Bo", "hand": ["bread"]}],
            "active": "Ann", "turn": {"drawn": 1, "played": 0}, "draw_pile": pile}
    kept = moves.apply_action(parse_state(data), {"kind": "play", "card": "moon"})
    assert kept.legal and len(kept.outcomes) == 1
    after = kept.outcomes[0].state
    assert after.draw_pile == (pile if "?" not in pile else None)
    assert after.draw_pile_size == 4
    # a card that draws (Jackpot: 3 cards) leaves the rest of the pile
    drawn = moves.apply_action(parse_state(data), {"kind": "play", "card": "jackpot"})
    assert drawn.legal and len(drawn.outcomes) == 1
    assert drawn.outcomes[0].state.draw_pile == ["dreams"]
    assert drawn.outcomes[0].state.draw_pile_size == 1


def test_promo_card_effect_unknown() -> None:
    state = parse_state(full_table("join_the_fluxx_fan_club"))
    result = moves.play_response(state, {"card": "Join the Fluxx Fan Club"})
    assert result["legal"] is True
    assert result["outcomes"] == []
    assert result["reasons"][0]["key"] == "play_text_missing"
    assert result["reasons"][0]["sources"][0]["id"] == "card:join_the_fluxx_fan_club"


def test_a_random_pick_of_a_card_of_unknown_effect_whatever_order_clingo_meets_it(
        monkeypatch) -> None:
    """First Play Random with Join the Fluxx Fan Club in hand: the answer is the same whether
    clingo meets the answer set that picks it first or last (it was read from the first one: no
    outcome at all, or an outcome with the card still in hand)."""
    state = parse_state({
        "players": [{"name": "Ann", "hand": ["Love", "Join the Fluxx Fan Club", "Milk"]},
                    {"name": "Bo", "hand": ["Cookies"]}],
        "active": "Ann", "rules": ["First Play Random", "Play 2"], "goals": [],
        "turn": {"drawn": 1, "played": 0}, "draw_pile": 30, "discard_pile": []})
    answers = [moves.play_response(state, {"kind": "play_random"})]
    solved = moves._solve
    for order in (reversed, lambda m: m[1:] + m[:1]):
        monkeypatch.setattr(moves, "_solve", lambda *a, order=order, **k: (
            lambda found: (list(order(found[0])), found[1]))(solved(*a, **k)))
        answers.append(moves.play_response(state, {"kind": "play_random"}))
    for answer in answers:
        assert answer["legal"] is True
        assert sorted(o["choices"]["random"][0] for o in answer["outcomes"]) == ["love", "milk"]
        assert all(o["probability"] == "1/3" for o in answer["outcomes"])
        assert all("join_the_fluxx_fan_club" in o["state"]["players"][0]["hand"]
                   for o in answer["outcomes"])
        assert answer["outcomes_unknown"] == [
            {"choices": {"random": ["join_the_fluxx_fan_club"]}, "probability": "1/3"}]
        assert [r["key"] for r in answer["reasons"]] == ["play_text_missing"]
        assert answer["open_choices"] == [{"key": "random", "kind": "chance", "options": [
            "join_the_fluxx_fan_club", "love", "milk"]}]
    def told(answer: dict[str, Any]) -> list[str]:  # the engine's timings aside
        return sorted(json.dumps({**o, "ruling": {k: v for k, v in o["ruling"].items()
                                                  if k != "engine"}}, sort_keys=True)
                      for o in answer["outcomes"])

    for answer in answers[1:]:  # the same outcomes, whatever order they come in
        assert told(answer) == told(answers[0])


def test_bad_choice_is_an_input_error() -> None:
    case = next(c for _, c in CASES if c["id"] == "lets-simplify-chosen")
    state = parse_state(case["state"])
    with pytest.raises(InputError) as info:
        moves.play_response(state, {"card": "Let's Simplify",
                                   "choices": {"rules": ["Draw 2", "Play 2", "Inflation",
                                                         "Poor Bonus"]}})
    assert info.value.items[0].path == "/play/choices"
    assert "rules" in info.value.items[0].suggestions
    with pytest.raises(InputError) as info:
        moves.play_response(state, {"card": "Let's Simplify", "choices": {"rulez": []}})
    assert info.value.items[0].path == "/play/choices/rulez"


def test_legal_actions_follow_the_sub_hand() -> None:
    case = next(c for _, c in CASES if c["id"] == "sub-hand-first")
    state = parse_state(case["state"])
    assert moves.legal_actions(state) == [
        {"kind": "play", "player": "Ann", "card": "milk"},
        {"kind": "play", "player": "Ann", "card": "peace"}]


# ---- faces -----
def test_api_play(client) -> None:
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    res = client.post("/api/play", json={"state": case["state"],
                                         "play": {"card": "交换手牌", "player": "Ann"}})
    assert res.status_code == 200
    body = res.get_json()
    assert body["ok"] and body["legal"]
    assert [c["key"] for c in body["open_choices"]] == ["opponent"]
    assert {o["choices"]["opponent"][0] for o in body["outcomes"]} == {"Bo", "Cy"}


def test_api_play_errors(client) -> None:
    res = client.post("/api/play", json={"state": {"players": []}, "play": {"card": "Jackpot"}})
    assert res.status_code == 400
    assert res.get_json()["errors"][0]["path"].startswith("/state")
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    res = client.post("/api/play", json={"state": case["state"], "play": {"card": "Jackpt"}})
    assert res.status_code == 400
    err = res.get_json()["errors"][0]
    assert err["path"] == "/play/card" and "Jackpot" in err["suggestions"]


def test_cli_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump(case["state"], allow_unicode=True), encoding="utf-8")
    assert main(["play", str(path), "Trade Hands", "--choices", '{"opponent": "Bo"}',
                 "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["legal"] and len(body["outcomes"]) == 1
    assert body["outcomes"][0]["state"]["players"][0]["hand"] == ["cookies", "milk"]
    assert main(["play", str(path), "Cookies"]) == 1
    assert "not legal" in capsys.readouterr().out
    assert main(["play", str(path), "Trade Hands", "--choices", "{"]) == 2


def test_cli_play_text_with_open_choices(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # The text view prints each open choice (its field `key` once): Use What You Take has two.
    case = next(c for _, c in CASES if c["id"] == "use-what-you-take-odds")
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump(case["state"], allow_unicode=True), encoding="utf-8")
    assert main(["play", str(path), "Use What You Take"]) == 0
    out = capsys.readouterr().out
    assert "open choice opponent (choice)" in out and "(probability 1/4)" in out


@pytest.mark.parametrize(("lang", "line"), [
    ("en", 'not listed, its effect unknown: {"random": ["join_the_fluxx_fan_club"]} '
           "(probability 1/3)"),
    ("zh", "未列出（效果未知）：随机抽到的牌：「加入Fluxx爱好者俱乐部」（概率1/3）"),
])
def test_cli_play_text_lists_a_random_pick_of_unknown_effect(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, line: str) -> None:
    case = next(c for _, c in CASES
                if c["id"] == "first-play-random-may-pick-a-card-of-unknown-effect")
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump(case["state"], allow_unicode=True), encoding="utf-8")
    assert main(["play", str(path), "--kind", "play_random", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert line in out.splitlines(), out


# ---- hygiene -----
def _heads(paths: list[Path]) -> set[tuple[str, int]]:
    heads: set[tuple[str, int]] = set()

    def visit(stm: clingo.ast.AST) -> None:
        if stm.ast_type != clingo.ast.ASTType.Rule:
            return
        head = stm.head
        literals = [e.literal for e in head.elements] if hasattr(head, "elements") else [head]
        for lit in literals:
            if lit.ast_type == clingo.ast.ASTType.Literal and \
                    lit.atom.ast_type == clingo.ast.ASTType.SymbolicAtom:
                sym = lit.atom.symbol
                if sym.ast_type == clingo.ast.ASTType.Function:
                    heads.add((sym.name, len(sym.arguments)))

    clingo.ast.parse_files([str(p) for p in paths], visit)
    return heads


def test_play_program_defines_nothing_of_the_core() -> None:
    """The play files share the core engine's grounding: they must not define its predicates
    (apart from the shared outputs finding/cites and the citation data cite/2, the card data
    card_numeral, and the hook extra_turn the core leaves to plays)."""
    core = [p for p in rules_dir().rglob("*.lp") if p.parent.name not in ("moves", "hubs")]
    shared = _heads(core) & _heads([rules_dir() / f for f in OWN_FILES])
    assert shared <= {("finding", 3), ("cites", 3), ("cite", 2), ("card_numeral", 4),
                      ("cite_clockwise", 1), ("cite_reshuffle", 1)}, shared


def test_play_program_grounds_without_warnings() -> None:
    state = parse_state(full_table("everybody_gets_1"))
    facts = moves.build_facts(state, {"kind": "play", "card": "everybody_gets_1"}, seed=2)
    warnings: list[str] = []
    ctl = clingo.Control(["--warn=all"], logger=lambda code, msg: warnings.append(msg))
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for statement in solve.program() + moves._play_statements():
            builder.add(statement)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    ours = [w for w in warnings if "/moves/" in w]
    assert not ours, ours


def test_every_own_lp_file_has_a_header() -> None:
    for name in OWN_FILES:
        text = (rules_dir() / name).read_text(encoding="utf-8")
        assert text.startswith("% Purpose:"), name
        assert "% Input:" in text and "% Output:" in text, name


def test_seeded_draw_from_an_unknown_pile_is_concrete() -> None:
    case = next(c for _, c in CASES if c["id"] == "jackpot-unknown-pile-seeded")
    state = parse_state(case["state"])
    unseeded = moves.play_response(state, {"card": "Jackpot"})["outcomes"][0]["state"]
    # the known card stays known, the three drawn are unknown ("?")
    assert unseeded["players"][0]["hand"] == ["love", "?", "?", "?"]
    assert unseeded["draw_pile"] == 17
    seeded = moves.play_response(state, {"card": "Jackpot", "seed": 5})["outcomes"][0]["state"]
    hand, pile = seeded["players"][0]["hand"], seeded["draw_pile"]
    assert len(hand) == 4 and "love" in hand and len(pile) == 17
    assert not set(hand) & set(pile) and "cookies" not in hand + pile
    again = moves.play_response(state, {"card": "Jackpot", "seed": 5})["outcomes"][0]["state"]
    assert again == seeded  # the same seed, the same run


def test_ruling_agrees_with_legal_actions_on_an_open_sub_hand() -> None:
    """The ruling reads the state's sub_hands (extension_state.lp): its legal moves are the
    sub-hand's cards, the hand's plays and the end of turn wait (FAQ 002-60)."""
    from adjudicator.referee.ruling import ruling_for

    state = parse_state({
        "players": [{"name": "Ann", "hand": ["Milk"]}, {"name": "Bo", "hand_size": 3}],
        "active": "Ann", "turn": {"hand_at_start": 2, "drawn": 1, "played": 1},
        "sub_hands": [{"player": "Ann", "card": "Draw 2 and Use 'Em",
                       "cards": ["Peace", "Jackpot"], "plays_left": 2}]})
    ruling = ruling_for(state)
    legal = {(m["kind"], m.get("card")) for m in ruling["legal_moves"]}
    assert legal == {("play", "peace"), ("play", "jackpot")}
    assert all(m["sub_hand"] == "draw_2_and_use_em" for m in ruling["legal_moves"])
    assert {(a["kind"], a["card"]) for a in moves.legal_actions(state, ruling)} == legal
    waiting = {(n["kind"], n.get("card")) for n in ruling["not_yet"]}
    assert {("play", "milk"), ("end_turn", None)} <= waiting


def test_sub_hand_field_errors_have_a_path() -> None:
    from adjudicator.errors import InputError
    from adjudicator.referee.ruling import ruling_for

    with pytest.raises(InputError) as info:
        ruling_for(parse_state({
            "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 3}],
            "active": "Ann",
            "sub_hands": [{"player": "Ann", "card": "Draw 2 and Use 'Em", "cards": ["Nope"]}]}))
    assert info.value.items[0].path == "/sub_hands/0/cards/0"


# ---- limits and labels -------------------------------------------------------------------------
def test_play_solving_is_under_the_engine_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # both of moves.py's searches (outcomes and brave open choices) answer the limit, not a hang
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "0.000001")
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    state = parse_state(case["state"])
    facts = moves.build_facts(state, {"kind": "play", "card": "trade_hands"}, {}, None,
                             catalog_for(state.edition, state.expansions))
    with pytest.raises(solve.TimeLimitError):
        moves._solve(facts, moves.MAX_OUTCOMES)
    with pytest.raises(solve.TimeLimitError):
        moves._brave(facts)


def test_api_play_past_the_time_limit_is_a_400_in_the_contract_shape(
        client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(solve.TIME_LIMIT_ENV, "0.000001")
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    res = client.post("/api/play", json={"state": case["state"],
                                         "play": {"card": "Trade Hands", "player": "Ann"}})
    assert res.status_code == 400
    body = res.get_json()
    assert body["ok"] is False
    [err] = body["errors"]
    assert set(err) >= {"path", "message", "suggestions"} and err["path"] == "/play"
    assert "time limit" in err["message"]["en"] and "时限" in err["message"]["zh"]


def test_play_brave_options_match_the_outcomes() -> None:
    # brave mode: the last model holds the union over all answer sets (both opponents here)
    case = next(c for _, c in CASES if c["id"] == "trade-hands")
    state = parse_state(case["state"])
    facts = moves.build_facts(state, {"kind": "play", "card": "trade_hands"}, {}, None,
                             catalog_for(state.edition, state.expansions))
    picks = {str(s.arguments[1]) for s in moves._brave(facts) if s.name == "pick"}
    assert picks == {"1", "2"}  # Bo and Cy, not just the first answer set's pick


def test_every_legal_move_kind_has_a_label() -> None:
    from adjudicator.referee.ruling import MOVE_LABELS, MOVE_ORDER

    pattern = re.compile(r"^[^%]*?\blegal_move\(\s*[A-Z_][A-Za-z0-9_]*\s*,\s*([a-z][A-Za-z0-9_]*)",
                         re.MULTILINE)
    kinds = {m.group(1) for path in rules_dir().rglob("*.lp")
             for m in pattern.finditer(path.read_text(encoding="utf-8"))}
    assert {"draw", "play", "surprise", "resolve", "end_turn"} <= kinds
    assert kinds - set(MOVE_LABELS) == set()
    assert kinds - set(MOVE_ORDER) == set()
    for en, zh in MOVE_LABELS.values():
        assert en and zh and en != zh
