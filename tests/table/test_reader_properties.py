"""Property tests of the state reader: random and malformed states never crash it.

Whatever JSON arrives (random trees, objects with the contract's field names holding random
values, valid tables with one part mutated), `parse_state` either returns a `TableState` or
raises `InputError` whose every item names a JSON pointer and explains itself in both languages.
A state it accepts reads back to the same state from its own JSON.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.errors import InputError
from adjudicator.table.reader import KNOWN_FIELDS, load_state_text, parse_state
from adjudicator.table.state import TableState

PROPERTY = settings(max_examples=150, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

CARD_WORDS = ["Draw 2", "draw_3", "Inflation", "爱", "Peace", "Love", "Hippyism", "Jackpot",
              "Trade Hands", "Stop That!", "Radioactive Potato", "War", "?", "", "basic_rules",
              "10 Cards in Hand", "Double Agenda", "Keeper Limit 2"]
NAMES = ["Ann", "Bo", "Cy", "<script>alert(1)</script>", "", " ", "安", "Ann"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.sampled_from(CARD_WORDS + NAMES),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=6),
                            st.dictionaries(st.text(max_size=10) | st.sampled_from(KNOWN_FIELDS),
                                            inner, max_size=6)),
    max_leaves=30,
)

VALID: dict[str, Any] = {
    "edition": "fluxx",
    "expansions": [],
    "players": [
        {"name": "Ann", "hand": ["Draw 2", "爱"], "keepers": ["Peace"], "creepers": []},
        {"name": "Bo", "hand_size": 3, "keepers": ["Milk"]},
        {"name": "Cy", "hand": ["Jackpot"], "keepers": []},
    ],
    "active": "Ann",
    "rules": ["Draw 3", "Inflation"],
    "goals": ["Hippyism"],
    "turn": {"hand_at_start": 2, "drawn": 0, "played": 0},
    "draw_pile": 40,
    "discard_pile": ["Trade Hands"],
    "pending": [],
}


def outcome(data: Any) -> TableState | InputError:
    """What the reader makes of `data`: a TableState or an InputError; anything else fails."""
    try:
        state = parse_state(data)
    except InputError as err:
        assert err.items, "an InputError must say what is wrong"
        for item in err.items:
            assert item.path == "" or item.path.startswith("/"), item.path
            assert item.en.strip() and item.zh.strip(), item
            assert all(isinstance(s, str) for s in item.suggestions)
        body = err.to_json()
        assert body["ok"] is False and len(body["errors"]) == len(err.items)
        return err
    assert isinstance(state, TableState)
    return state


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value, as a tuple of keys and indexes."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


@st.composite
def mutated_states(draw: st.DrawFn) -> Any:
    """The valid table with one to three places replaced, deleted or duplicated."""
    state: Any = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(state)))
        action = draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if not where:
            state = draw(json_values) if action == "replace" else state
            continue
        parent = state
        for key in where[:-1]:
            parent = parent[key]
        last = where[-1]
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
        else:
            parent[last] = [copy.deepcopy(parent[last])] * 2
    return state


def test_the_unmutated_table_is_valid() -> None:
    assert isinstance(outcome(copy.deepcopy(VALID)), TableState)


@PROPERTY
@given(json_values)
@pytest.mark.slow
def test_random_json_never_crashes_the_reader(data: Any) -> None:
    outcome(data)


@PROPERTY
@given(st.fixed_dictionaries({}, optional={k: json_values for k in KNOWN_FIELDS}))
@pytest.mark.slow
def test_the_contract_fields_with_random_values_never_crash_the_reader(data: Any) -> None:
    outcome(data)


@PROPERTY
@given(mutated_states())
@pytest.mark.slow
def test_mutated_tables_never_crash_the_reader(data: Any) -> None:
    result = outcome(data)
    if isinstance(result, TableState):
        # what the reader accepts, it reads back identically from its own JSON
        again = parse_state(result.to_json())
        assert again.to_json() == result.to_json()


@PROPERTY
@given(st.text(max_size=200) | st.sampled_from([
    "{", "[1, 2", "players: [", "a: &x [1]\nb: *x", "{\"players\": [}", "- - - -", "\x00",
    "!!python/object:os.system ['ls']", "?", "[" * 100 + "]" * 100]))
@pytest.mark.slow
def test_random_text_never_crashes_the_text_loader(text: str) -> None:
    try:
        data = load_state_text(text)
    except InputError as err:
        assert all(item.en and item.zh for item in err.items)
        return
    outcome(data)
