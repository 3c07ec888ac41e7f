"""The one JSON Schema of the request bodies (adjudicator/table/schema.py): an error per keyword
with its JSON pointer in both languages, the bounds, the extension fields read before any fact is
written, the paths of a play request, and the schema `/api/openapi.json` publishes being the
validator's own."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine import facts
from adjudicator.errors import InputError
from adjudicator.messages import table_messages
from adjudicator.table import schema
from adjudicator.table.reader import parse_state
from adjudicator.web.api.openapi import spec

CJK = re.compile(r"[\u3400-\u9fff]")

STATE: dict[str, Any] = {
    "players": [{"name": "Ann", "hand": ["Milk"]}, {"name": "Bo", "hand_size": 3}],
    "active": "Ann",
    "turn": {"hand_at_start": 2, "drawn": 1, "played": 1},
    "sub_hands": [{"player": "Ann", "card": "Draw 2 and Use 'Em",
                   "cards": ["Peace", "Jackpot"], "plays_left": 2}],
    "extra_turns": 1,
}


def state(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(STATE)
    out.update(changes)
    return out


def errors_of(data: Any) -> list[dict[str, Any]]:
    with pytest.raises(InputError) as info:
        parse_state(data)
    items = info.value.to_json()["errors"]
    for item in items:
        assert item["message"]["en"] and CJK.search(item["message"]["zh"]), item
    return items


def one_error(data: Any) -> dict[str, Any]:
    (item,) = errors_of(data)
    return item


# ---- one error per keyword, at its pointer, in both languages ----------------------------------
KEYWORDS: list[tuple[str, Any, str, str]] = [
    # (keyword, a state, the path, words of the English message)
    ("type", state(turn=3), "/turn", "Expected an object, got a whole number"),
    ("required", {"players": STATE["players"]}, "/active", "whose turn"),
    ("additionalProperties", state(turn={"plays": 1}), "/turn/plays", "Unknown field 'plays'"),
    ("minimum", state(extra_turns=-1), "/extra_turns", "Must be 0 or more, got -1"),
    ("maximum", state(extra_turns=schema.MAX_COUNT + 1), "/extra_turns",
     f"At most {schema.MAX_COUNT}, got {schema.MAX_COUNT + 1}"),
    ("minItems", state(players=STATE["players"][:1], active="Ann"), "/players",
     "A game has 2 to 12 players; got 1"),
    ("maxItems", state(discard_pile=["Jackpot"] * (schema.MAX_ITEMS + 1)), "/discard_pile",
     f"Too many items: {schema.MAX_ITEMS + 1} (at most {schema.MAX_ITEMS})"),
    ("maxProperties", state(note={str(i): i for i in range(schema.MAX_ITEMS + 1)}), "/note",
     "Too many fields"),
    ("maxLength", state(goals=["x" * (schema.MAX_CARD_NAME + 1)]), "/goals/0",
     f"Too long: {schema.MAX_CARD_NAME + 1} characters (at most {schema.MAX_CARD_NAME})"),
    ("enum", state(expansions=["creeper"]), "/expansions/0", "Unknown expansion 'creeper'"),
    ("pattern", state(players=[{"name": "  ", "hand_size": 1}, {"name": "Bo", "hand_size": 3}],
                      active="Bo", sub_hands=None), "/players/0/name", "non-empty"),
    ("anyOf", state(players=[{"name": "Ann"}, {"name": "Bo", "hand_size": 3}]), "/players/0",
     "hand_size"),
    ("not", state(pending=[{"player": "Ann", "card": "Jackpot", "choices": {"then": {"a": {
        "then": {"b": {"then": {"c": {"then": {"d": {"then": {"e": {"then": {}}}}}}}}}}}}}]),
     "/pending/0/choices/then/a/then/b/then/c/then/d/then/e/then", "nested too deeply"),
]


@pytest.mark.parametrize(("keyword", "data", "path", "words"), KEYWORDS,
                         ids=[k[0] for k in KEYWORDS])
def test_each_keyword_names_its_path_in_both_languages(keyword: str, data: Any, path: str,
                                                        words: str) -> None:
    problems = schema.problems("TableState", data)
    assert keyword in {p.keyword for p in problems}
    item = one_error(data)
    assert item["path"] == path
    assert words in item["message"]["en"], item


def _keywords(node: Any) -> set[str]:
    """The keywords of a schema and of every schema inside it."""
    if not isinstance(node, dict):
        return set()
    found = {k for k in node if not k.startswith(("x-", "$"))}
    for key in ("properties", "$defs"):
        for sub in (node.get(key) or {}).values():
            found |= _keywords(sub)
    for key in ("items", "additionalProperties", "not", "if", "then", "propertyNames"):
        found |= _keywords(node.get(key))
    for sub in node.get("anyOf") or []:
        found |= _keywords(sub)
    return found


# keywords that never fail on their own: they hold subschemas or describe the value
SILENT = {"properties", "items", "if", "then", "propertyNames", "description", "examples",
          "default"}


def test_every_keyword_the_schema_uses_has_a_message_in_both_languages() -> None:
    keywords = set().union(*map(_keywords, schema.SCHEMAS.values())) - SILENT
    assert {"type", "required", "additionalProperties", "maximum", "maxItems", "enum",
            "pattern", "anyOf", "not"} <= keywords
    texts = table_messages()
    missing = [k for k in sorted(keywords) if f"schema.{k}" not in texts]
    assert not missing, missing
    for k in keywords:
        assert texts[f"schema.{k}"]["en"] and CJK.search(texts[f"schema.{k}"]["zh"])


def test_every_named_message_exists() -> None:
    """Each message a schema names for one of its keywords (x-messages) is in table.yaml."""
    texts = table_messages()

    def named(node: Any) -> list[str]:
        out: list[str] = []
        if isinstance(node, dict):
            for value in (node.get(schema.MESSAGES) or {}).values():
                out += list(value.values()) if isinstance(value, dict) else [value]
            for value in node.values():
                out += named(value)
        elif isinstance(node, list):
            for value in node:
                out += named(value)
        return out

    assert [k for k in named(schema.SCHEMAS) if k not in texts] == []


def test_the_reader_texts_of_a_shape_error_are_kept() -> None:
    first = errors_of({"active": "Ann"})[0]
    assert first["path"] == "/players" and first["message"]["en"] == (
        "Missing: the players at the table (a list of 2 to 12).")
    item = one_error(state(turn={"drawn": -2}))
    assert item["message"] == {"en": "Must be 0 or more, got -2.",
                               "zh": "必须大于或等于 0，实际是 -2。"}
    item = one_error({"players": STATE["players"], "active": "Ann",
                      "y": {"a": list(range(schema.MAX_ITEMS + 1))}})
    assert item["path"] == "/y/a" and item["message"]["en"] == (
        f"Too many items: {schema.MAX_ITEMS + 1} (at most {schema.MAX_ITEMS}).")


# ---- the extension fields: checked, bounded, read before any fact is written ---------------------
def test_extension_fields_are_read_as_ids_with_their_defaults() -> None:
    read = parse_state(state(sub_hands=[{"player": "Ann", "card": "Draw 2 and Use 'Em",
                                         "cards": ["和平", "Jackpot"]}], extra_turns=2.0))
    assert read.extra["sub_hands"] == [{"player": "Ann", "card": "draw_2_and_use_em",
                                        "cards": ["peace", "jackpot"], "unknown": 0,
                                        "plays_left": 2}]
    assert read.extra["extra_turns"] == 2 and isinstance(read.extra["extra_turns"], int)
    assert parse_state(read.to_json()) == read


@pytest.mark.parametrize(("sub_hands", "extra_turns", "path"), [
    ([{"player": "Ann", "card": "Jackpot", "plays_left": schema.MAX_COUNT + 1}], 0,
     "/sub_hands/0/plays_left"),
    ([{"player": "Ann", "card": "Jackpot", "unknown": -1}], 0, "/sub_hands/0/unknown"),
    ([{"player": "Ann", "card": "Jackpot"}], schema.MAX_COUNT + 1, "/extra_turns"),
    ([{"player": "Ann", "card": "Jackpot"}], "1", "/extra_turns"),
    ("Ann", 0, "/sub_hands"),
    ([{"player": "Ann"}], 0, "/sub_hands/0/card"),
    ([{"player": "Cy", "card": "Jackpot"}], 0, "/sub_hands/0/player"),
    ([{"player": "Ann", "card": "Jackpot", "cards": ["Nope"]}], 0, "/sub_hands/0/cards/0"),
    ([{"player": "Ann", "card": "Jackpot", "hand": []}], 0, "/sub_hands/0/hand"),
])
def test_extension_fields_are_refused_at_their_path(sub_hands: Any, extra_turns: Any,
                                                    path: str) -> None:
    assert one_error(state(sub_hands=sub_hands, extra_turns=extra_turns))["path"] == path


def test_extension_fields_are_checked_before_any_fact_is_written(monkeypatch) -> None:
    def no_facts(*_args: Any) -> list[str]:
        raise AssertionError("facts written for a state that was not checked")

    monkeypatch.setattr(facts, "extension_facts", no_facts)
    bad = state(sub_hands=[{"player": "Ann", "card": "Nope"}], extra_turns=-1)
    assert {e["path"] for e in errors_of(bad)} == {"/sub_hands/0/card", "/extra_turns"}


def test_writing_the_facts_of_the_extension_fields_raises_no_input_error() -> None:
    import inspect

    source = inspect.getsource(facts.extension_facts)
    assert "InputError" not in source and "seat_of" not in source and "card_id" not in source


# ---- POST /api/play: every path under /state or /play --------------------------------------------
def _play(client, body: Any) -> list[dict[str, Any]]:
    response = client.post("/api/play", json=body)
    assert response.status_code == 400, response.get_json()
    return response.get_json()["errors"]


def test_a_bad_sub_hand_in_a_play_request_is_under_state(client) -> None:
    body = {"state": state(sub_hands=[{"player": "Ann", "card": "Jackpot", "cards": ["Nope"],
                                       "plays_left": -1}]), "play": {"card": "Peace"}}
    paths = [e["path"] for e in _play(client, body)]
    assert paths == ["/state/sub_hands/0/cards/0", "/state/sub_hands/0/plays_left"]
    body["state"]["sub_hands"] = [{"player": "Ann", "card": "Jackpot"}]
    body["state"]["extra_turns"] = True
    assert [e["path"] for e in _play(client, body)] == ["/state/extra_turns"]


@pytest.mark.parametrize(("play", "path"), [
    ({"card": 7}, "/play/card"),
    ({"kind": "fly"}, "/play/kind"),
    ({"card": "Peace", "seed": "x"}, "/play/seed"),
    ({"card": "Peace", "player": "Cy"}, "/play/player"),
    ({"card": "Peace", "choices": []}, "/play/choices"),
    ({"card": "Peace", "choices": {"opponent": "Cy"}}, "/play/choices/opponent"),
    ({"card": "Peace", "choices": {"then": {"x": {"rulez": 1}}}}, "/play/choices/then/x/rulez"),
    ({"card": "Peace", "extra": 1}, "/play/extra"),
    ("Peace", "/play"),
])
def test_a_bad_play_field_is_under_play(client, play: Any, path: str) -> None:
    errors = _play(client, {"state": state(sub_hands=None), "play": play})
    assert [e["path"] for e in errors] == [path]


def test_state_and_play_errors_come_together_each_under_its_root(client) -> None:
    errors = _play(client, {"state": state(turn={"drawn": -1}), "play": {"card": 7}})
    assert [e["path"] for e in errors] == ["/state/turn/drawn", "/play/card"]
    assert [e["path"] for e in _play(client, {"play": {"card": "Peace"}})] == ["/state"]
    assert [e["path"] for e in _play(client, {"state": state()})] == ["/play"]
    assert [e["path"] for e in _play(client, {"state": [], "play": {"card": 7}})] == [
        "/state", "/play/card"]


# ---- the published schema is the validator's ---------------------------------------------------
def test_openapi_publishes_the_validators_schema_objects(client) -> None:
    components = spec()["components"]["schemas"]
    for name, body in schema.SCHEMAS.items():
        assert components[name] is body, name
    published = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert published["TableState"] == schema.SCHEMAS["TableState"]
    assert published["PlayRequest"] == schema.SCHEMAS["PlayRequest"]
    ops = client.get("/api/openapi.json").get_json()["paths"]
    assert ops["/api/ruling"]["post"]["requestBody"]["content"]["application/json"][
        "schema"] == schema.ref("TableState")
    assert ops["/api/play"]["post"]["requestBody"]["content"]["application/json"][
        "schema"] == schema.ref("PlayRequest")


# ---- the compiled validator and the library agree ----------------------------------------------
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(),
              st.text(max_size=8), st.sampled_from(["Ann", "Bo", "Jackpot", "?", "fluxx"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from([*schema.STATE_FIELDS,
                                                             *schema.PLAYER_FIELDS,
                                                             *schema.SUB_HAND_FIELDS, "x"]),
                                            inner, max_size=5)),
    max_leaves=25)


@pytest.mark.slow
@settings(max_examples=200, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_the_compiled_validator_and_the_library_agree(data: Any) -> None:
    fast, slow = schema._validators("TableState")
    for candidate in (data, {**STATE, "turn": data}, {**STATE, "sub_hands": [data]},
                      {**STATE, "players": [data, STATE["players"][1]]}):
        assert fast.is_valid(candidate) == slow.is_valid(candidate), candidate


def test_a_play_with_an_unknown_choice_key_is_refused_before_any_fact(monkeypatch) -> None:
    """read_play refuses it with close spellings; the move code only adds the keys the move
    asks for. No fact is written for the refusal (facts.state_facts is never called)."""
    from adjudicator.table.reader import UnknownChoiceKeys, read_play

    monkeypatch.setattr(facts, "state_facts", lambda *a, **k: pytest.fail("facts written"))
    table = parse_state(state())
    with pytest.raises(UnknownChoiceKeys) as info:
        read_play(table, {"card": "Milk", "choices": {"oponent": "Bo"}})
    assert info.value.keys == ["oponent"]
    [item] = info.value.items
    assert item.path == "/play/choices/oponent" and item.suggestions == ["opponent", "owner"]
    with pytest.raises(InputError) as both:  # beside another error: refused together, plainly
        read_play(table, {"card": "Milkk", "choices": {"oponent": "Bo"}})
    assert not isinstance(both.value, UnknownChoiceKeys)
    assert [i.path for i in both.value.items] == ["/play/card", "/play/choices/oponent"]


@pytest.mark.parametrize(("text", "words"), [
    ('{"players": [1 2]}', "a comma is missing"), ('{"a": 1,}', "a field name must be in"),
    ('{"a": "x}', "a text in quotes is not closed"), ('{}x', "there is more text")])
def test_a_json_syntax_error_is_said_in_words_in_both_languages(text: str, words: str) -> None:
    from adjudicator.errors import InputError
    from adjudicator.table.reader import load_state_text

    with pytest.raises(InputError) as info:
        load_state_text(text)
    item = info.value.items[0]
    assert words in item.en and "Expecting" not in item.en and "Expecting" not in item.zh
