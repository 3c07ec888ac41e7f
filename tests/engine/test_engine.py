"""The engine's machinery: facts, one answer set or an error, warnings, threads, web and CLI."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import clingo
import pytest

from adjudicator.cli import main
from adjudicator.engine import solve
from adjudicator.engine.facts import state_facts, term
from adjudicator.referee import moves
from adjudicator.referee.ruling import ruling_for, ruling_text
from adjudicator.table.reader import parse_state

TABLE = {
    "players": [
        {"name": "Ann", "hand": ["Draw 2", "爱"], "keepers": ["Peace"]},
        {"name": "Bo", "hand_size": 3, "keepers": ["Milk"]},
    ],
    "active": "Ann",
    "rules": ["Draw 3", "Inflation"],
    "goals": ["Hippyism"],
    "turn": {"hand_at_start": 2, "drawn": 0, "played": 0},
    "draw_pile": 40,
    "discard_pile": ["Jackpot"],
}


def state(**changes):
    data = json.loads(json.dumps(TABLE))
    data.update(changes)
    return parse_state(data)


def test_term_quotes_ids_starting_with_a_digit() -> None:
    assert term("draw_2") == "draw_2"
    assert term("10_cards_in_hand") == '"10_cards_in_hand"'


def test_facts_name_seats_counts_and_cards() -> None:
    facts = state_facts(state())
    for fact in ("active(0).", "nseats(2).", "hand_known(0).", "in_hand(0,love).",
                 "hand_size(1,3).", "keeper_count(1,1).", "rule_order(inflation,1).",
                 'card("10_cards_in_hand").', "card_type(draw_2,new_rule).", "discard(jackpot,0)."):
        assert fact in facts
    assert "hand_known(1)." not in facts


def test_facts_count_keeper_copies() -> None:
    s = parse_state({"edition": "math", "players": [
        {"name": "Ann", "hand": [], "keepers": ["Zero", "Zero", "One"]},
        {"name": "Bo", "hand_size": 1}], "active": "Ann"})
    facts = state_facts(s)
    assert "keeper_count(0,3)." in facts and "keeper_copies(0,zero,2)." in facts
    # Math Fluxx prints Draw 2 by name only; Play All But 1's text is quoted in the FAQ
    assert "card_text_missing(draw_2)." in facts
    assert "card_text_missing(play_all_but_1)." not in facts


def test_ruling_has_the_contract_fields() -> None:
    ruling = ruling_for(state())
    assert ruling["ok"] is True
    for key in ("winner", "tied", "turn", "limits", "discards", "legal_moves", "findings"):
        assert key in ruling
    assert "pending" not in ruling
    assert ruling["turn"]["player"] == "Ann"
    # Inflation: Draw 3 asks for 4
    assert ruling["turn"]["draw"] == {"total": 4, "drawn": 0, "remaining": 4}
    for finding in ruling["findings"]:
        assert finding["text"]["en"] and finding["text"]["zh"]
        for source in finding["sources"]:
            # the contract's fields, and `scope` for a passage of another deck (FORMATS.md)
            assert {"id", "kind", "url"} <= set(source) <= {"id", "kind", "url", "scope"}
            assert source.get("scope", "other_deck") == "other_deck"


def test_pending_is_kept_when_given() -> None:
    ruling = ruling_for(state(pending=[{"player": "Ann", "card": "Jackpot"}],
                              discard_pile=[]))
    assert ruling["pending"]["card"] == "jackpot"
    assert ruling["pending"]["player"] == "Ann"


def test_exactly_one_answer_set_is_checked() -> None:
    facts = state_facts(state())
    assert solve.solve(facts).models == 1
    assert solve.solve(facts, extra=["{ choice_for_test }."]).models == 2
    assert solve.solve(facts, extra=[":- active(_)."]).models == 0


@pytest.mark.parametrize("added, key", [(["{ choice_for_test }."], "engine_many_models"),
                                        ([":- active(_)."], "engine_no_model")])
def test_engine_failure_is_an_error_not_a_pick(monkeypatch, added, key) -> None:
    real = solve.solve
    monkeypatch.setattr(solve, "solve", lambda facts, extra=(), **game: real(
        facts, extra=[*extra, *added], **game))
    ruling = ruling_for(state())
    assert ruling["ok"] is False
    assert "winner" not in ruling
    assert "Engine error" in ruling["errors"][0]["message"]["en"]
    assert "引擎错误" in ruling["errors"][0]["message"]["zh"]


WARN_STATES = [
    TABLE,
    {"players": [{"name": n, "hand_size": 2} for n in "ABCDEF"], "active": "C",
     "rules": ["Reverse Order", "Hand Limit 0", "Keeper Limit 2"]},
    {"edition": "math", "players": [{"name": "A", "hand": []}, {"name": "B", "hand_size": 0}],
     "active": "A", "rules": ["Play All But 1", "Get On With It"],
     "turn": {"hand_at_start": 0}},
    {"players": [{"name": "A", "hand_size": 0}, {"name": "B", "hand_size": 0}], "active": "B"},
    {"edition": "fluxxnomic",
     "players": [{"name": "A", "hand": ["Sun"]}, {"name": "B", "hand_size": 4}],
     "active": "A", "rules": ["Do some more", "Nice try"], "goals": ["Hippyism"]},
]


@pytest.mark.parametrize("data", WARN_STATES)
def test_turn_fields_have_the_contract_types(data) -> None:
    """docs/FORMATS.md: draw total/remaining are ints; play total is an int, "all" or "all_but_1";
    limits are ints or null; discards and legal moves carry their fields, in every edition."""
    ruling = ruling_for(parse_state(data))
    draw, play = ruling["turn"]["draw"], ruling["turn"]["play"]
    assert isinstance(draw["total"], int) and isinstance(draw["remaining"], int)
    assert isinstance(play["total"], int) or play["total"] in ("all", "all_but_1")
    assert isinstance(play["remaining"], int)
    assert all(v is None or isinstance(v, int) for v in ruling["limits"].values())
    for d in ruling["discards"]:
        assert set(d) >= {"player", "zone", "count", "when"} and d["when"] in ("now", "end_of_turn")
    for m in ruling["legal_moves"]:
        assert {"player", "kind"} <= set(m)


def test_keeper_discards_read_in_keepers_in_chinese() -> None:
    ruling = ruling_for(parse_state({
        "players": [{"name": "Ann", "hand": ["Jackpot"]},
                    {"name": "Bo", "hand_size": 3, "keepers": ["Time", "Money", "Bread"]}],
        "active": "Bo", "rules": ["Keeper Limit 2", "Hand Limit 0"]}))
    texts = {f["args"][1]: f["text"]["zh"] for f in ruling["findings"] if f["key"] == "discard_now"}
    assert texts["hand"].endswith("须立刻弃掉1张。")
    ended = [f["text"]["zh"] for f in ruling["findings"] if f["key"] == "limit_ignored_during_turn"]
    assert ended and all("件" in t for t in ended if "所有物" in t)


@pytest.mark.parametrize("data", WARN_STATES)
def test_clingo_warn_clean(data) -> None:
    """The hub grounds without any grounder/parser message (clingo --warn=all)."""
    messages: list[str] = []
    ctl = clingo.Control(["--warn=all"], logger=lambda code, msg: messages.append(msg))
    ctl.load(str(solve.hub_path()))
    ctl.add("base", [], state_facts(parse_state(data)))
    ctl.ground([("base", [])])
    assert not messages, messages
    assert not ruling_for(parse_state(data))["engine"].get("warnings")


def test_uncited_finding_is_reported() -> None:
    solution = solve.solve(state_facts(state()),
                            extra=["finding(test, test_key, (1,))."])
    shown = {str(s) for s in solution.symbols}
    assert "engine_error(uncited(test_key,(1,)))" in shown


def test_no_engine_errors_on_the_sample() -> None:
    assert not ruling_for(state())["engine"].get("errors")


def test_concurrent_rulings_agree() -> None:
    states = [parse_state(d) for d in WARN_STATES]
    expected = [json.dumps(ruling_for(s)["findings"]) for s in states]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda i: json.dumps(ruling_for(states[i % 4])["findings"]),
                            range(32)))
    assert got == [expected[i % 4] for i in range(32)]


def test_text_view_in_both_languages() -> None:
    ruling = ruling_for(state())
    assert "Draw: total 4" in ruling_text(ruling, "en")
    assert "抓牌：共4张" in ruling_text(ruling, "zh")


# ---- web -------------------------------------------------------------------------------------
def test_post_ruling(client) -> None:
    response = client.post("/api/ruling", json=TABLE)
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True and body["turn"]["draw"]["total"] == 4


def test_post_ruling_bad_json(client) -> None:
    response = client.post("/api/ruling", data="{not json", content_type="application/json")
    assert response.status_code == 400
    body = response.get_json()
    assert body["ok"] is False and body["errors"][0]["message"]["zh"]


def test_post_ruling_empty_body(client) -> None:
    response = client.post("/api/ruling", data="", content_type="application/json")
    assert response.status_code == 400


def test_post_ruling_bad_card_has_path(client) -> None:
    data = json.loads(json.dumps(TABLE))
    data["players"][0]["hand"] = ["Draw 22"]
    response = client.post("/api/ruling", json=data)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["path"] == "/players/0/hand/0"


# ---- CLI -------------------------------------------------------------------------------------
def test_cli_rule_json(tmp_path, capsys) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(TABLE), encoding="utf-8")
    assert main(["rule", str(path), "--json"]) == 0
    ruling = json.loads(capsys.readouterr().out)
    assert ruling["turn"]["draw"]["remaining"] == 4


def test_cli_rule_yaml_zh(tmp_path, capsys) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("players:\n  - {name: Ann, hand: []}\n  - {name: Bo, hand_size: 2}\n"
                    "active: Ann\nrules: [Draw 5, No-Hand Bonus]\nturn: {hand_at_start: 0}\n",
                    encoding="utf-8")
    assert main(["rule", str(path), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "抓牌：共8张" in out and "无手牌奖励" in out


def test_cli_rule_bad_input_exits_2(tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"players": 3}', encoding="utf-8")
    assert main(["rule", str(path)]) == 2
    assert "/players" in capsys.readouterr().err
    assert main(["rule", str(tmp_path / "missing.json")]) == 2


def test_every_lp_file_has_its_header() -> None:
    """Each .lp file opens with Purpose, then names its Input and Output predicates."""
    for path in sorted(solve.hub_path().parent.parent.rglob("*.lp")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("% Purpose:"), path.name
        assert "\n% Input:" in text and "\n% Output:" in text, path.name


def test_hub_includes_every_lp_file() -> None:
    """No concern file is left out of the full hub, through the hubs it includes (moves/*.lp
    belong to the move program: its full hub moves.lp includes every one of them)."""
    folder = solve.hubs_dir()
    rules = set(moves._included(solve.hub_path()))
    plays = set(moves._included(folder / solve.PLAY_HUB))
    for path in sorted(folder.parent.rglob("*.lp")):
        if path.parent == folder or path.name == "doc.lp":  # the hubs; doc.lp is comments only
            continue
        name = path.relative_to(folder.parent).as_posix()
        assert name in (plays if path.parent.name == "moves" else rules), name


def test_math_witness_reads_as_an_expression() -> None:
    """goal_met_math shows its computation in ordinary notation, not as a clingo term."""
    ruling = ruling_for(parse_state({
        "edition": "math",
        "players": [{"name": "Ann", "hand_size": 1, "keepers": ["Four", "Three", "Seven"]},
                    {"name": "Bo", "hand_size": 3}],
        "active": "Ann", "rules": ["Math Rules"], "goals": ["Silver Jubilee"]}))
    (finding,) = [f for f in ruling["findings"] if f["key"] == "goal_met_math"]
    for lang in ("en", "zh"):
        assert "4 + 3 × 7 = 25" in finding["text"][lang]
    assert ruling["winner"] == "Ann"
