"""The table-state reader: parsing JSON/YAML, name resolution, defaults, and every validation
error with its JSON pointer, in both languages."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.table.reader import MAX_ITEMS, load_state_text, parse_state, read_state_text

CJK = re.compile(r"[\u3400-\u9fff]")


def base() -> dict[str, Any]:
    """The contract's example table, with Bo's Keeper changed to Moon (the example puts Love
    both in Ann's hand, as 爱, and in front of Bo; the deck has one Love)."""
    return {
        "edition": "fluxx",
        "expansions": [],
        "players": [
            {"name": "Ann", "hand": ["Draw 2", "爱"], "keepers": ["Peace"], "creepers": []},
            {"name": "Bo", "hand_size": 3, "keepers": ["Moon"]},
        ],
        "active": "Ann",
        "rules": ["Draw 3", "Inflation"],
        "goals": ["Hippyism"],
        "turn": {"hand_at_start": 2, "drawn": 0, "played": 0},
        "draw_pile": 40,
        "discard_pile": ["Jackpot"],
        "pending": [],
    }


def errors_of(data: Any) -> list[dict[str, Any]]:
    with pytest.raises(InputError) as info:
        parse_state(data)
    out = info.value.to_json()
    assert out["ok"] is False
    for item in out["errors"]:
        assert item["message"]["en"] and CJK.search(item["message"]["zh"]), item
    return out["errors"]


def paths_of(data: Any) -> list[str]:
    return [e["path"] for e in errors_of(data)]


def with_(change: Any) -> dict[str, Any]:
    data = base()
    change(data)
    return data


# -- good input ----------------------------------------------------------------------------

def test_contract_example_reads_to_ids() -> None:
    state = parse_state(base())
    ann, bo = state.players
    assert ann.hand == ["draw_2", "love"] and ann.hand_size == 2 and ann.keepers == ["peace"]
    assert bo.hand is None and bo.hand_size == 3 and bo.keepers == ["moon"] and bo.creepers == []
    assert state.rules == ["draw_3", "inflation"] and state.goals == ["hippyism"]
    assert state.active == "Ann" and state.active_index == 0
    assert state.draw_pile_size == 40 and state.draw_pile is None
    assert state.discard_pile == ["jackpot"] and state.pending == []
    assert (state.turn.hand_at_start, state.turn.drawn, state.turn.played) == (2, 0, 0)


def test_round_trip_through_to_json() -> None:
    state = parse_state(base())
    again = parse_state(json.loads(json.dumps(state.to_json())))
    assert again == state


def test_contract_example_as_printed_is_refused_for_love_twice_unless_copies_unchecked() -> None:
    data = base()
    data["players"][1]["keepers"] = ["Love"]
    errs = errors_of(data)
    assert [e["path"] for e in errs] == ["/players/1/keepers/0"]
    assert "/players/0/hand/1" in errs[0]["message"]["en"]
    assert parse_state(data, check_copies=False).players[1].keepers == ["love"]


def test_defaults() -> None:
    state = parse_state({"players": [{"name": "Ann", "hand": ["Jackpot", "Taxation"]},
                                     {"name": "Bo", "hand_size": 0}], "active": "Ann"})
    assert state.edition == "fluxx" and state.expansions == []
    assert state.players[0].keepers == [] and state.players[0].creepers == []
    assert state.rules == [] and state.goals == [] and state.discard_pile == []
    assert state.turn.hand_at_start == 2 and state.turn.drawn == 0 and state.turn.played == 0
    # the deck less the 2 cards in hand and the Basic Rules card
    assert state.draw_pile_size == 84 - 3 and state.draw_pile is None
    assert state.pending == [] and state.extra == {}


def test_hand_at_start_defaults_to_the_active_players_hand_size() -> None:
    data = base()
    data["active"] = "Bo"
    del data["turn"]
    assert parse_state(data).turn.hand_at_start == 3


def test_extra_top_level_fields_are_kept() -> None:
    data = base()
    data["note"] = {"table": 4}
    state = parse_state(data)
    assert state.extra == {"note": {"table": 4}}
    assert state.to_json()["note"] == {"table": 4}


def test_basic_rules_in_rules_is_accepted_and_dropped() -> None:
    data = base()
    data["rules"] = ["Basic Rules", "Draw 3"]
    assert parse_state(data).rules == ["draw_3"]


def test_double_agenda_allows_two_goals() -> None:
    data = base()
    data["rules"] = ["双重目标"]
    data["goals"] = ["Toast", "Hippyism"]
    assert parse_state(data).goals == ["toast", "hippyism"]


def test_draw_pile_as_list_and_pending() -> None:
    data = base()
    data["expansions"] = ["surprises", "creepers"]
    data["draw_pile"] = ["Taxes", "Stop That!", "Rotate Hands"]
    data["players"][1]["creepers"] = ["War"]
    data["pending"] = [{"player": "Ann", "card": "Trade Hands"},
                       {"player": "Bo", "card": "Canceled Plans"}]
    state = parse_state(data)
    assert state.draw_pile == ["taxes", "stop_that", "rotate_hands"]
    assert state.draw_pile_size == 3
    assert state.players[1].creepers == ["war"]
    assert [(p.player, p.card) for p in state.pending] == [
        ("Ann", "trade_hands"), ("Bo", "canceled_plans")]
    assert state.expansions == ["surprises", "creepers"]


def test_other_editions() -> None:
    state = parse_state({"edition": "math", "players": [
        {"name": "A", "hand": ["Zero", "0"], "keepers": ["Seven", "7"]},
        {"name": "B", "hand_size": 2}], "active": "B", "goals": ["How Many Trombones? (76)"],
        "rules": ["Math Rules"]})
    assert state.players[0].hand == ["zero", "zero"]  # Zero has 4 copies
    assert state.players[0].keepers == ["seven", "seven"]
    assert state.goals == ["how_many_trombones"] and state.rules == ["math_rules"]
    nomic = parse_state({"edition": "fluxxnomic", "players": [
        {"name": "A", "keepers": ["Book"] * 6, "hand": []}, {"name": "B", "hand_size": 9}],
        "active": "A", "goals": ["I might need a bookshelf"]})
    assert nomic.players[0].keepers == ["book"] * 6  # no deck: copies are unlimited
    assert "draw_pile" not in nomic.to_json()  # and no draw pile


def test_yaml_and_json_text() -> None:
    yaml_text = """
players:
  - {name: Ann, hand: [Draw 2, 爱]}
  - name: Bo
    hand_size: 3
active: Ann
rules: [Let's Simplify]
"""
    # Let's Simplify is an Action: refused in the rules
    with pytest.raises(InputError) as info:
        read_state_text(yaml_text)
    assert [i.path for i in info.value.items] == ["/rules/0"]
    state = read_state_text(yaml_text.replace("Let's Simplify", "No-Hand Bonus"))
    assert state.rules == ["no_hand_bonus"] and state.players[0].hand == ["draw_2", "love"]
    assert load_state_text(json.dumps(base())) == base()


@pytest.mark.parametrize("text,needle", [
    ('{"players": [', "not valid JSON"),
    ("players: [a, b", "neither valid JSON nor valid YAML"),
    ("a: &x [1]\nb: *x", "aliases"),
    ("", "empty"),
    ("   \n", "empty"),
])
def test_text_syntax_errors_at_the_root(text: str, needle: str) -> None:
    with pytest.raises(InputError) as info:
        load_state_text(text)
    assert [i.path for i in info.value.items] == [""]
    assert needle in info.value.items[0].en and CJK.search(info.value.items[0].zh)


def test_text_too_long() -> None:
    with pytest.raises(InputError) as info:
        load_state_text(" " * 1_000_001)
    assert info.value.status == 413


@pytest.mark.parametrize("data", [None, [], "players", 3, True, [base()]])
def test_non_object_input(data: Any) -> None:
    assert paths_of(data) == [""]


# -- every validation error names its field ---------------------------------------------------

def _set(path: list[Any], value: Any):
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _del(path: list[Any]):
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


CASES: list[tuple[str, Any, list[str], list[str]]] = [
    # (case, change, expected paths, expected suggestions of the first error, if any)
    ("unknown edition", _set(["edition"], "fluxxx"), ["/edition"], ["fluxx"]),
    ("edition not text", _set(["edition"], 1), ["/edition"], []),
    ("unknown expansion", _set(["expansions"], ["creeper"]), ["/expansions/0"], ["creepers"]),
    ("expansions not a list", _set(["expansions"], "creepers"), ["/expansions"], []),
    ("expansion on math", lambda d: d.update(edition="math", expansions=["creepers"], players=[
        {"name": "A", "hand_size": 0}, {"name": "B", "hand_size": 0}], active="A", rules=[],
        goals=[], discard_pile=[]), ["/expansions"], []),
    ("players missing", _del(["players"]), ["/players", "/active"], []),
    ("players not a list", _set(["players"], {"name": "Ann"}), ["/players", "/active"], []),
    ("one player", lambda d: d["players"].pop(), ["/players"], []),
    ("thirteen players", lambda d: d["players"].extend(
        {"name": f"P{i}", "hand_size": 0} for i in range(11)), ["/players"], []),
    ("player not an object", _set(["players", 1], "Bo"), ["/players/1"], []),
    ("player without name", _del(["players", 1, "name"]), ["/players/1/name"], []),
    ("empty name", _set(["players", 1, "name"], "  "), ["/players/1/name"], []),
    ("long name", _set(["players", 1, "name"], "B" * 61), ["/players/1/name"], []),
    ("duplicate name", _set(["players", 1, "name"], "Ann"), ["/players/1/name"], []),
    ("unknown player field", _set(["players", 1, "keeper"], []), ["/players/1/keeper"],
     ["keepers"]),
    ("negative hand size", _set(["players", 1, "hand_size"], -1), ["/players/1/hand_size"], []),
    ("hand size not int", _set(["players", 1, "hand_size"], "3"), ["/players/1/hand_size"], []),
    ("hand size bool", _set(["players", 1, "hand_size"], True), ["/players/1/hand_size"], []),
    ("no hand nor size", _del(["players", 1, "hand_size"]), ["/players/1"],
     ["hand", "hand_size"]),
    ("hand and size disagree", _set(["players", 0, "hand_size"], 3),
     ["/players/0/hand_size"], []),
    ("hand not a list", _set(["players", 0, "hand"], "Draw 2"), ["/players/0/hand"], []),
    ("unknown card and a copy too many in hand",
     _set(["players", 1, "hand"], ["Draw 2", "Draw 6"]),
     ["/players/1/hand_size", "/players/1/hand/0", "/players/1/hand/1"], []),
    ("unknown card", _set(["players", 0, "hand", 1], "Jackpt"), ["/players/0/hand/1"],
     ["Jackpot"]),
    ("card not text", _set(["players", 0, "hand", 1], 7), ["/players/0/hand/1"], []),
    ("basic rules in hand", _set(["players", 0, "hand", 1], "基本规则"), ["/players/0/hand/1"],
     []),
    ("goal among keepers", _set(["players", 0, "keepers"], ["Toast"]),
     ["/players/0/keepers/0"], []),
    ("keeper among creepers", _set(["players", 0, "creepers"], ["Peace"]),
     ["/players/0/creepers/0"], []),
    ("creeper without the expansion", _set(["players", 1, "creepers"], ["Taxes"]),
     ["/players/1/creepers/0"], ["Taxes"]),
    ("surprise without the expansion", _set(["discard_pile"], ["Veto!"]),
     ["/discard_pile/0"], ["Veto!"]),
    ("creeper in hand", lambda d: d.update(expansions=["creepers"]) or d["players"][0].update(
        hand=["War", "Draw 2"]), ["/players/0/hand/0"], []),
    ("action among rules", _set(["rules", 0], "Taxation"), ["/rules/0"], []),
    ("keeper among goals", _set(["goals"], ["Love"]), ["/goals/0"], []),
    ("two goals", _set(["goals"], ["Toast", "Hippyism"]), ["/goals"], []),
    ("three goals with double agenda", lambda d: d.update(
        rules=["Double Agenda"], goals=["Toast", "Hippyism", "Bed Time"]), ["/goals"], []),
    ("basic rules in discard", _set(["discard_pile"], ["Basic Rules"]), ["/discard_pile/0"], []),
    ("discard not a list", _set(["discard_pile"], "Jackpot"), ["/discard_pile"], []),
    ("card twice", _set(["discard_pile"], ["Jackpot", "Peace"]), ["/discard_pile/1"], []),
    ("card thrice", _set(["discard_pile"], ["Draw 3", "抓3张牌"]),
     ["/discard_pile/0", "/discard_pile/1"], []),
    ("active missing", _del(["active"]), ["/active"], ["Ann", "Bo"]),
    ("active unknown", _set(["active"], "ann"), ["/active"], ["Ann"]),
    ("active typo", _set(["active"], "Boo"), ["/active"], ["Bo"]),
    ("active not text", _set(["active"], 0), ["/active"], []),
    ("turn not object", _set(["turn"], 3), ["/turn"], []),
    ("turn negative", _set(["turn", "drawn"], -2), ["/turn/drawn"], []),
    ("turn float", _set(["turn", "played"], 1.5), ["/turn/played"], []),
    ("turn unknown field", _set(["turn", "plays"], 1), ["/turn/plays"], ["played"]),
    ("draw pile negative", _set(["draw_pile"], -1), ["/draw_pile"], []),
    ("draw pile text", _set(["draw_pile"], "forty"), ["/draw_pile"], []),
    ("draw pile too big", _set(["draw_pile"], 80), ["/draw_pile"], ["72"]),
    ("draw pile list wrong card", _set(["draw_pile"], ["Rotate Hands", "Draw 7"]),
     ["/draw_pile/1"], ["Draw 2", "Draw 3", "Draw 4"]),
    ("pending not list", _set(["pending"], {"player": "Ann"}), ["/pending"], []),
    ("pending not object", _set(["pending"], ["Ann"]), ["/pending/0"], []),
    ("pending unknown player", _set(["pending"], [{"player": "Cy", "card": "Taxation"}]),
     ["/pending/0/player"], []),
    ("pending without card", _set(["pending"], [{"player": "Bo"}]), ["/pending/0/card"], []),
    ("pending unknown card", _set(["pending"], [{"player": "Bo", "card": "Taxes!"}]),
     ["/pending/0/card"], []),
    ("pending unknown field", _set(["pending"], [{"player": "Ann", "card": "Taxation", "x": 1}]),
     ["/pending/0/x"], []),
    ("pending first card out of turn", _set(["pending"], [{"player": "Bo", "card": "Taxation"}]),
     ["/pending/0/player"], ["Ann"]),
    ("huge list", _set(["discard_pile"], ["Jackpot"] * (MAX_ITEMS + 1)), ["/discard_pile"], []),
    ("huge list in extra", _set(["extra"], {"a": list(range(MAX_ITEMS + 1))}), ["/extra/a"], []),
    ("deep nesting", _set(["extra"], json.loads("[" * 40 + "]" * 40)), None, []),
]


@pytest.mark.parametrize("case,change,paths,suggestions", CASES, ids=[c[0] for c in CASES])
def test_validation_error(case: str, change: Any, paths: list[str] | None,
                          suggestions: list[str]) -> None:
    data = with_(change)
    errs = errors_of(data)
    got = [e["path"] for e in errs]
    if paths is None:
        assert len(got) == 1 and got[0].startswith("/extra/0/0")
    else:
        assert sorted(got) == sorted(paths), got
    if suggestions:
        first = next(e for e in errs if e["path"] == (paths or got)[0])
        assert first["suggestions"][: len(suggestions)] == suggestions


def test_all_errors_are_collected_at_once() -> None:
    data = base()
    data["edition"] = "fluxx"
    data["players"][0]["hand"] = ["Draw 6", "Jackpot"]
    data["players"][1]["hand_size"] = -3
    data["active"] = "Cy"
    data["goals"] = ["Love"]
    data["turn"] = {"drawn": -1}
    paths = paths_of(data)
    assert paths == ["/players/0/hand/0", "/players/1/hand_size", "/active", "/goals/0",
                     "/turn/drawn", "/discard_pile/0"]


def test_unknown_card_message_and_suggestions() -> None:
    errs = errors_of(with_(_set(["players", 0, "hand", 0], "抓六张牌")))
    assert errs[0]["path"] == "/players/0/hand/0"
    assert "抓六张牌" in errs[0]["message"]["en"] and "抓六张牌" in errs[0]["message"]["zh"]
    # typed in Chinese, answered in Chinese
    assert errs[0]["suggestions"] and all(s.startswith("抓") and s.endswith("张牌")
                                          for s in errs[0]["suggestions"])


def test_copies_error_names_the_first_place() -> None:
    data = base()
    data["players"][1]["keepers"] = ["和平"]
    errs = errors_of(data)
    assert [e["path"] for e in errs] == ["/players/1/keepers/0"]
    assert "/players/0/keepers/0" in errs[0]["message"]["en"]
    assert "/players/0/keepers/0" in errs[0]["message"]["zh"]


def test_invalid_edition_still_reports_structure_errors() -> None:
    data = base()
    data["edition"] = "zombie"
    data["turn"] = {"drawn": -1}
    assert paths_of(data) == ["/edition", "/turn/drawn"]


def test_input_is_not_modified() -> None:
    data = base()
    before = copy.deepcopy(data)
    parse_state(data)
    assert data == before


def test_hand_sizes_beyond_the_deck_are_refused() -> None:
    data = {"players": [{"name": "A", "hand_size": 60}, {"name": "B", "hand_size": 30}],
            "active": "A"}
    assert paths_of(data) == ["/players/0/hand_size"]
    data["players"][1]["hand_size"] = 20  # 60 + 20 + Basic Rules = 81 <= 84: possible
    assert parse_state(data).draw_pile_size == 3


def test_deep_text_and_yaml_scalars() -> None:
    with pytest.raises(InputError) as info:
        load_state_text("[" * 100_000)
    assert [i.path for i in info.value.items] == [""]
    state = read_state_text("players:\n - {name: A, hand_size: 1}\n - {name: B, hand_size: 1}\n"
                            "active: A\nplayed_on: 2024-01-01\n")
    assert state.extra == {"played_on": "2024-01-01"}
    json.dumps(state.to_json())  # everything the reader keeps can be written back as JSON


def test_unknown_card_marker_in_hand_and_pile():
    """"?" stands for a card that is there but unknown: it counts, and is never resolved."""
    state = parse_state({
        "players": [{"name": "Ann", "hand": ["Draw 2", "?", "?"]}, {"name": "Bo", "hand_size": 1}],
        "active": "Ann",
        "draw_pile": ["?", "Jackpot"],
    })
    assert state.players[0].hand == ["draw_2", "?", "?"]
    assert state.players[0].hand_size == 3
    assert state.draw_pile == ["?", "jackpot"]


def test_unknown_card_marker_not_allowed_in_keepers():
    with pytest.raises(InputError) as err:
        parse_state({"players": [{"name": "Ann", "hand": [], "keepers": ["?"]},
                                 {"name": "Bo", "hand": []}], "active": "Ann"})
    assert err.value.items[0].path == "/players/0/keepers/0"


def test_start_duties_done_reads_creepers_and_round_trips() -> None:
    """turn.start_duties_done (Death's start-of-turn duty behind the active player) holds
    Creepers by name, kept as ids, written only when not empty; a Keeper there is refused."""
    table = {"expansions": ["creepers"],
             "players": [{"name": "Ann", "hand": ["Love"], "keepers": ["Milk"],
                          "creepers": ["Death"]}, {"name": "Bo", "hand_size": 2}],
             "active": "Ann", "turn": {"drawn": 1, "start_duties_done": ["死亡"]}}
    state = parse_state(table)
    assert state.turn.start_duties_done == ["death"]
    assert state.to_json()["turn"]["start_duties_done"] == ["death"]
    assert "start_duties_done" not in parse_state({**table, "turn": {"drawn": 1}}).to_json()["turn"]
    with pytest.raises(InputError) as info:
        parse_state({**table, "turn": {"start_duties_done": ["Milk"]}})
    assert [i.path for i in info.value.items] == ["/turn/start_duties_done/0"]


def test_goal_numbers_by_player_read_to_canonical_names_once() -> None:
    base = {"edition": "math", "active": "Ann", "goals": ["Your Own Age"],
            "players": [{"name": "Ann", "hand_size": 0}, {"name": "Bo", "hand_size": 0}]}
    state = parse_state({**base, "goal_numbers": {"Your Own Age": {"Ａnn": 34, "Bo": 29}}})
    assert state.extra["goal_numbers"] == {"your_own_age": {"Ann": 34, "Bo": 29}}
    with pytest.raises(InputError) as err:  # two spellings of one name
        parse_state({**base, "goal_numbers": {"Your Own Age": {"Ann": 34, "Ａnn": 35}}})
    assert [i.path for i in err.value.items] == ["/goal_numbers/Your Own Age/Ａnn"]
    with pytest.raises(InputError) as err:  # neither a number nor numbers by player
        parse_state({**base, "goal_numbers": {"Your Own Age": "34"}})
    assert [i.path for i in err.value.items] == ["/goal_numbers/Your Own Age"]


@pytest.mark.parametrize("number", [{"x": 1}, [1], "abc", float("nan"), True, 3.5, None])
def test_a_players_own_number_of_another_type_is_refused_at_its_place(number: object) -> None:
    """Numbers by player whose value is no whole number: refused at that player's number,
    named by its own type (it was a 500 for an object, a list, text or NaN)."""
    base = {"edition": "math", "active": "Ann", "goals": ["Your Own Age"],
            "players": [{"name": "Ann", "hand_size": 0}, {"name": "Bo", "hand_size": 0}]}
    with pytest.raises(InputError) as err:
        parse_state({**base, "goal_numbers": {"Your Own Age": {"Ann": number, "Bo": 29}}})
    assert [i.path for i in err.value.items] == ["/goal_numbers/Your Own Age/Ann"]
    assert "an object" not in err.value.items[0].en or number == {"x": 1}
