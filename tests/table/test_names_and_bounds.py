"""Names that look alike are one name, names hold nothing invisible, every number of the input
is bounded, and text no UTF-8 can hold is refused: all at the field's path, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.table import schema
from adjudicator.table.reader import (
    MAX_YAML_TEXT,
    load_state_text,
    parse_state,
    read_play,
    read_play_request,
)

TABLE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Draw 2", "Jackpot"]}, {"name": "Bo", "hand_size": 3}],
    "active": "Ann",
}
# the engine's integers are 32 bits wide: each of these once wrapped into a wrong ruling
WRAPPING = [4294967297, 2147483648, 2**31, 10**30]


def refused(data: Any) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse_state(data)
    for item in caught.value.items:
        assert item.en and item.zh
    return [item.path for item in caught.value.items]


def named(*names: str, active: str | None = None) -> dict[str, Any]:
    return {"players": [{"name": n, "hand_size": 1} for n in names],
            "active": active if active is not None else names[0]}


# --- numbers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", WRAPPING)
def test_extra_turns_beyond_the_bound_are_refused_at_their_path(value: int) -> None:
    assert refused({**TABLE, "extra_turns": value}) == ["/extra_turns"]


@pytest.mark.parametrize("value", WRAPPING)
def test_plays_left_beyond_the_bound_is_refused_at_its_path(value: int) -> None:
    frames = [{"player": "Ann", "card": "Draw 2 and Use 'Em", "cards": ["Jackpot"],
               "plays_left": value}]
    assert refused({**TABLE, "sub_hands": frames}) == ["/sub_hands/0/plays_left"]


def _integers(node: Any, where: str, found: list[tuple[str, dict[str, Any]]]) -> None:
    if isinstance(node, dict):
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "integer" in kinds:
            found.append((where, node))
        for key, value in node.items():
            _integers(value, f"{where}/{key}", found)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _integers(value, f"{where}/{i}", found)


def test_every_integer_of_the_schema_is_bounded() -> None:
    found: list[tuple[str, dict[str, Any]]] = []
    _integers(schema.SCHEMAS, "", found)
    assert {w.split("/")[1] for w, _ in found} >= {"Count", "TableState", "Play"}
    for where, node in found:
        assert "minimum" in node and "maximum" in node, where
        if where.startswith("/Play/"):  # the seed: Python's random, never a fact
            assert node["maximum"] <= 2**63 - 1 and node["minimum"] >= -(2**63)
        else:  # a count the engine reads as a 32-bit integer
            assert 0 <= node["minimum"] and node["maximum"] <= schema.MAX_COUNT, where


def test_a_seed_beyond_64_bits_is_refused_at_its_path() -> None:
    state, _ = read_play_request({"state": TABLE, "play": {"card": "Jackpot"}})
    with pytest.raises(InputError) as caught:
        read_play(state, {"card": "Jackpot", "seed": 2**64})
    assert [i.path for i in caught.value.items] == ["/play/seed"]


def test_a_yaml_integer_of_thousands_of_digits_is_a_clear_error() -> None:
    with pytest.raises(InputError) as caught:
        load_state_text("players:\n- name: Ann\n  hand_size: " + "9" * 5000 + "\nactive: Ann\n")
    assert caught.value.status == 400
    assert "digits" in caught.value.items[0].en and caught.value.items[0].zh


@pytest.mark.parametrize("number", ["0x" + "f" * 4000, "0b" + "1" * 60000,
                                    "1" + ":59" * 3000])
@pytest.mark.parametrize("field", ["draw_pile", "name"])
def test_a_yaml_integer_in_another_base_too_long_to_write_is_a_clear_error(number, field) -> None:
    """Hexadecimal, binary and base 60 YAML integers escape Python's digit limit as they are
    read, but no message could write them out: refused as a decimal one of that size is."""
    text = ("players:\n- {name: Ann, hand: [Jackpot]}\n- {name: Bo, hand_size: 3}\nactive: Ann\n"
            f"draw_pile: {number}\n" if field == "draw_pile" else
            f"players:\n- {{name: {number}, hand: [Jackpot]}}\n- {{name: Bo}}\nactive: Bo\n")
    with pytest.raises(InputError) as caught:
        load_state_text(text)
    assert "digits" in caught.value.items[0].en and caught.value.items[0].zh


def test_a_json_integer_of_thousands_of_digits_is_a_clear_error() -> None:
    with pytest.raises(InputError) as caught:
        load_state_text('{"players": [], "draw_pile": ' + "9" * 5000 + "}")
    assert "digits" in caught.value.items[0].en


def test_yaml_beyond_its_own_limit_is_refused_naming_the_limit() -> None:
    text = "players:\n- name: Ann\n  hand_size: 1\nactive: Ann\nnotes: |\n" + (
        "  " + "x" * 78 + "\n") * (MAX_YAML_TEXT // 80 + 1)
    assert len(text) > MAX_YAML_TEXT
    with pytest.raises(InputError) as caught:
        load_state_text(text)
    assert caught.value.status == 413
    assert f"{MAX_YAML_TEXT}" in caught.value.items[0].en
    assert f"{MAX_YAML_TEXT}" in caught.value.items[0].zh


# --- text no UTF-8 can hold ------------------------------------------------------------------

@pytest.mark.parametrize("text,path", [
    ('{"players": [{"name": "\\ud800", "hand": []}, {"name": "Bo", "hand_size": 1}], '
     '"active": "Bo"}', "/players/0/name"),
    ('{"players": [{"name": "Ann", "hand": ["\\udfff"]}, {"name": "Bo", "hand_size": 1}], '
     '"active": "Ann"}', "/players/0/hand/0"),
    ('{"players": [], "active": "Ann", "\\ud83d": 1}', ""),
])
def test_a_lone_surrogate_is_refused_at_its_path(text: str, path: str) -> None:
    with pytest.raises(InputError) as caught:
        load_state_text(text)
    assert [i.path for i in caught.value.items] == [path]
    assert "surrogate" in caught.value.items[0].en
    # the decoded value, as the API's JSON reader hands it on, is refused by the schema alike
    import json

    with pytest.raises(InputError) as caught:
        parse_state(json.loads(text))
    assert path in [i.path for i in caught.value.items]


def test_a_surrogate_pair_is_one_character_and_fine() -> None:
    state = load_state_text('{"players": [{"name": "\\ud83d\\ude00", "hand": []}, '
                            '{"name": "Bo", "hand_size": 1}], "active": "Bo"}')
    assert parse_state(state).players[0].name == "\U0001f600"


# --- names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["\r", "\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c",
                                 "\x1d", "\x1e", "\x00", "\x7f", "\u200b", "\u200d", "\ufeff",
                                 "\u202e", "\u2060", "\u3164", "\ufe0f", "\U000e0001",
                                 "\u2800"])
def test_a_name_with_a_control_or_invisible_character_is_refused(bad: str) -> None:
    assert refused(named("Ann", f"Bo{bad}x.")) == ["/players/1/name"]


@pytest.mark.parametrize("marks", ["\u0300", "\u0301\u0302", "\u20dd"])
def test_a_name_of_combining_marks_alone_is_refused(marks: str) -> None:
    """A mark draws on the letter before it: with none, the name shows no letter."""
    assert refused(named("Ann", marks)) == ["/players/1/name"]
    assert parse_state(named("Ann", "Zo\u0308e")).players[1].name == "Zöe"


def test_the_message_names_the_character_in_both_languages() -> None:
    with pytest.raises(InputError) as caught:
        parse_state(named("Ann", "Bo\u200b"))
    item = caught.value.items[0]
    assert "U+200B" in item.en and "U+200B" in item.zh and "3" in item.en


def test_names_that_look_alike_are_one_name() -> None:
    assert refused(named("Ann", "Ann\u200b")) == ["/players/1/name"]  # invisible
    assert refused(named("Zo\u00eb", "Zoe\u0308")) == ["/players/1/name"]  # NFC == NFD


@pytest.mark.parametrize("other", ["Ann ", " Ann", "Ann\u00a0", "\u3000Ann", "Ann\u2003",
                                   "\uff21nn"])
def test_names_that_differ_in_spaces_or_letter_width_are_one_name(other: str) -> None:
    assert refused(named("Ann", other)) == ["/players/1/name"]
    assert refused(named("A nn", "A\u00a0 nn")) == ["/players/1/name"]


def test_spaces_in_a_name_are_kept_as_one_plain_space_and_references_match() -> None:
    state = parse_state(named("\u00a0Ann\u3000 Lee ", "Bo", active="Ann Lee"))
    assert state.players[0].name == "Ann Lee" and state.active == "Ann Lee"
    assert read_play(state, {"kind": "end_turn", "player": "Ann\u00a0Lee"})


def test_a_full_width_name_is_the_plain_name_wherever_it_is_named() -> None:
    state = parse_state(named("\uff21nn", "Bo", active="Ann"))
    assert state.players[0].name == "Ann" and state.active == "Ann"
    assert read_play(state, {"kind": "end_turn", "player": "\uff21nn"})


def test_a_name_is_kept_composed_and_every_reference_matches_it() -> None:
    state = parse_state({**named("Zoe\u0308", "Bo", active="Zo\u00eb"),
                         "pending": [{"player": "Zoe\u0308", "card": "Jackpot"}]})
    assert state.players[0].name == "Zo\u00eb" and state.active == "Zo\u00eb"
    assert state.pending[0].player == "Zo\u00eb"
    assert read_play(state, {"kind": "end_turn", "player": "Zoe\u0308"})


@pytest.mark.parametrize("name", ["张 三", "Ann Lee", "O'Brien", "x).", ":- a.", "#show",
                                  "% c", "\U0001f600", "Zo\u00eb"])
def test_ordinary_and_odd_but_visible_names_are_accepted(name: str) -> None:
    assert parse_state(named(name, "Bo")).players[0].name == name


def test_a_name_is_as_long_as_the_table_keeps_it() -> None:
    """The limit of 60 characters holds for the name as kept (NFKC): one character typed can
    become many ("\ufdfa" is 18), which would otherwise be echoed in every answer."""
    name = "\ufdfa" * 59 + "a"
    with pytest.raises(InputError) as caught:
        parse_state({"players": [{"name": name, "hand": ["Milk"]}, {"name": "Bo", "hand_size": 1}],
                     "active": "Bo"})
    assert [i.path for i in caught.value.items] == ["/players/0/name"]
    assert "1063" in caught.value.items[0].en
    nomic = parse_state({"edition": "fluxxnomic", "players": [{"name": "Ann", "hand": []},
                                                             {"name": "Bo", "hand_size": 2}],
                         "active": "Ann"})
    with pytest.raises(InputError) as caught:
        read_play(nomic, {"kind": "join", "player": name})
    assert [i.path for i in caught.value.items] == ["/play/player"]


def test_a_yaml_integer_python_writes_out_is_bounded_as_any_count(monkeypatch) -> None:
    """A decimal of 4,000 digits is within Python's limit: refused by the count's own bound,
    its path named; with the limit switched off (0) small numbers still read."""
    text = "players:\n- {name: Ann, hand: [Jackpot]}\n- {name: Bo, hand_size: 3}\nactive: Ann\n"
    with pytest.raises(InputError) as caught:
        parse_state(load_state_text(text + "draw_pile: " + "9" * 4000 + "\n"))
    assert [i.path for i in caught.value.items] == ["/draw_pile"]
    monkeypatch.setattr("sys.get_int_max_str_digits", lambda: 0)
    assert load_state_text(text + "draw_pile: 5\n")["draw_pile"] == 5


def test_a_former_players_name_is_as_long_as_the_table_keeps_it() -> None:
    with pytest.raises(InputError) as caught:
        parse_state({"edition": "fluxxnomic", "active": "Ann",
                     "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 2}],
                     "phase": {"number": 3, "former_players": [
                         {"player": "\ufdfa" * 59 + "a", "last_phase": 1}]}})
    assert [i.path for i in caught.value.items] == ["/phase/former_players/0/player"]

