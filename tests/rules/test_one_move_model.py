"""One move model: the moves a ruling lists are exactly the moves a play accepts. For every
scenario table (and the tables of simulated games, tests/rules/test_simulate.py), each entry of
`legal_moves` has a `play` that `POST /api/play` accepts, and each `not_yet` entry's `play` is
refused with the entry's own reason key (rules_asp/moves/legality.lp reads the ruling's lists).
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.errors import InputError
from adjudicator.referee.moves import play_response, try_play
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import random_walk
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState
from tests.scenario_files import scenario_cases, scenario_file


def disagreements(state: TableState, ruling: dict[str, Any] | None = None) -> list[str]:
    """Every listed move the play endpoint refuses, every held move it accepts or refuses for
    another reason, each as a line naming the move."""
    ruling = ruling or ruling_for(state)
    out: list[str] = []
    if not ruling.get("ok"):
        return out
    for move in ruling["legal_moves"]:
        try:
            answer = play_response(state, dict(move["play"]))
        except InputError as err:
            out.append(f"listed {move['play']} refused as input: {err}")
            continue
        if not answer["legal"]:
            out.append(f"listed {move['play']} refused: "
                       f"{[r['key'] for r in answer['reasons']]}")
    for move in ruling.get("not_yet", []):
        try:
            answer = play_response(state, dict(move["play"]))
        except InputError as err:
            out.append(f"held {move['play']} refused as input: {err}")
            continue
        keys = [r["key"] for r in answer.get("reasons", [])]
        if answer["legal"] or move["reason_key"] not in keys:
            out.append(f"held {move['play']} ({move['reason_key']}): legal {answer['legal']}, "
                       f"reasons {keys}")
    return out


def _tables() -> list[tuple[str, dict[str, Any]]]:
    return [(cid, case["state"]) for cid, case in scenario_cases() if "expect_error" not in case]


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "table"), _tables(), ids=[c for c, _ in _tables()])
def test_every_listed_move_plays_and_every_held_move_is_refused_alike(
        cid: str, table: dict[str, Any]) -> None:
    assert not disagreements(parse_state(table)), cid


def test_a_ruling_lists_the_end_of_turn_discard_and_holds_the_end_of_turn() -> None:
    """Ann active, Hand Limit 2, 3 cards, draw and play done: the discard is the move, and
    ending the turn waits for it, in the ruling and in the play endpoint alike."""
    state = parse_state({
        "players": [{"name": "Ann", "hand": ["Milk", "Jackpot", "Peace"]},
                    {"name": "Bo", "hand_size": 2}],
        "active": "Ann", "rules": ["Hand Limit 2"],
        "turn": {"hand_at_start": 3, "drawn": 1, "played": 1}})
    ruling = ruling_for(state)
    assert [m["play"] for m in ruling["legal_moves"] if m["kind"] != "join"] == [
        {"kind": "discard", "player": "Ann"}]
    [end] = [m for m in ruling["not_yet"] if m["kind"] == "end_turn"]
    assert end["reason_key"] == "reason_discards_owed"
    refused = play_response(state, {"kind": "end_turn"})
    assert not refused["legal"] and [r["key"] for r in refused["reasons"]] == [
        "reason_discards_owed"]
    assert play_response(state, {"kind": "discard"})["legal"]
    assert not disagreements(state, ruling)


def test_a_play_of_a_card_the_table_does_not_show_asks_which() -> None:
    state = parse_state({"players": [{"name": "Ann", "hand_size": 2},
                                     {"name": "Bo", "hand": ["Milk"]}],
                         "active": "Ann", "turn": {"hand_at_start": 2, "drawn": 1}})
    [move] = [m for m in ruling_for(state)["legal_moves"] if m["kind"] == "play"]
    assert move["play"] == {"kind": "play", "player": "Ann"}
    answer = play_response(state, move["play"])
    assert answer["legal"] and answer["outcomes"] == []
    [choice] = answer["open_choices"]
    assert choice["key"] == "card" and "jackpot" in choice["options"]
    assert "milk" not in choice["options"]  # Bo holds it: seen
    known = parse_state({"players": [{"name": "Ann", "hand": ["Jackpot"]},
                                     {"name": "Bo", "hand_size": 1}], "active": "Ann"})
    refused = play_response(known, {"kind": "play"})
    assert not refused["legal"] and refused["reasons"][0]["key"] == "name_the_card"


def test_first_play_random_holds_a_chosen_first_play() -> None:
    """With Play 2 in force, First Play Random: the ruling offers the random pick and holds an
    ordinary first play back; the play endpoint refuses that play with the same reason."""
    state = parse_state({"players": [{"name": "Ann", "hand": ["Milk", "Jackpot"]},
                                     {"name": "Bo", "hand_size": 2}],
                         "active": "Ann", "rules": ["First Play Random", "Play 2"],
                         "turn": {"hand_at_start": 2, "drawn": 1}})
    ruling = ruling_for(state)
    assert [m["kind"] for m in ruling["legal_moves"] if m["kind"] != "join"] == ["play_random"]
    held = [m for m in ruling["not_yet"] if m["kind"] == "play"]
    assert {m["reason_key"] for m in held} == {"reason_first_play_random"}
    refused = play_response(state, {"card": "Milk"})
    assert not refused["legal"]
    assert [r["key"] for r in refused["reasons"]] == ["reason_first_play_random"]
    assert not disagreements(state, ruling)


def _played_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(cid, case) for cid, case in scenario_cases("plays*.yaml")
            if "play" in case and "expect_error" not in case]


def _sent_back(state: TableState, play: dict[str, Any]) -> list[str]:
    """Each outcome's `choices`, sent back with the same play, give that outcome."""
    answer = play_response(state, dict(play))
    problems = []
    for outcome in answer["outcomes"] if len(answer["outcomes"]) > 1 else []:
        again = play_response(state, {**play, "choices": {
            **(play.get("choices") or {}), **outcome.get("choices", {})}})
        if outcome["state"] not in [o["state"] for o in again["outcomes"]]:
            problems.append(f"{outcome.get('choices')}: not that outcome")
    return problems


def test_an_outcomes_choices_sent_back_verbatim_give_that_outcome() -> None:
    """Let's Do That Again offers the Action or rule to take back; the outcome's choices
    ({"card": ["trade_hands"]}, as the response gives them) are accepted as they came, and the
    card set aside is the one move of the next table."""
    state = parse_state({
        "players": [{"name": "Ann", "hand": ["Let's Do That Again", "Milk", "Taxation"]},
                    {"name": "Bo", "hand": ["Peace"]}],
        "active": "Ann", "discard_pile": ["Trade Hands", "Jackpot"],
        "turn": {"hand_at_start": 3, "drawn": 1}})
    assert not _sent_back(state, {"card": "Let's Do That Again"})
    assert not _sent_back(state, {"card": "Taxation", "choices": {}})
    answer = play_response(state, {"card": "Let's Do That Again",
                                   "choices": {"card": ["trade_hands"]}})
    [outcome] = answer["outcomes"]
    after = parse_state(outcome["state"])
    assert [m["play"] for m in ruling_for(after)["legal_moves"] if m["kind"] != "join"] == [
        {"kind": "play", "player": "Ann", "card": "trade_hands"}]


@pytest.mark.slow
@pytest.mark.parametrize(("cid", "case"), _played_cases(), ids=[c for c, _ in _played_cases()])
def test_every_scenario_outcomes_choices_sent_back_give_it(cid: str, case: dict) -> None:
    assert not _sent_back(parse_state(case["state"]), dict(case["play"])), cid


def _case_state(stem: str, cid: str) -> TableState:
    return parse_state(next(c for c in scenario_file(stem) if c["id"] == cid)["state"])


FREE_ACTION_TABLES = [
    ("creepers", "war-moves-peace"), ("creepers", "war-blocks-end-of-turn"),
    ("creepers", "war-own-turn-blocks-end"), ("creepers", "death-start-of-turn"),
    ("creepers", "death-owed-after-draw"), ("creepers", "death-discard-blocks-end-of-turn"),
    ("creepers", "death-duty-done"), ("creepers", "death-discards-itself"),
    ("creepers", "taxes-free-action-no-play"),
    ("plays_creepers_surprises", "taxes-discards-money-and-itself"),
    ("free_actions", "gowi-ends-turn-at-once"), ("free_actions", "gowi-then-limits"),
    ("plays_free_actions", "gowi-discards-draws-3-and-ends"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("stem", "cid"), FREE_ACTION_TABLES,
                         ids=[f"{s}:{c}" for s, c in FREE_ACTION_TABLES])
def test_free_action_tables_agree(stem: str, cid: str) -> None:
    """Each free action a ruling lists is accepted with its play (its choices included), and a
    duty that holds the end of the turn refuses it with the ruling's own reason."""
    assert disagreements(_case_state(stem, cid)) == []


def test_a_free_action_without_its_choice_asks_for_it() -> None:
    """War posted without the player: legal, one outcome per player, the open choice names them;
    a choice the ruling does not list is an input error naming the options."""
    state = _case_state("creepers", "war-moves-peace")
    answer = play_response(state, {"kind": "free_action", "player": "Bo", "card": "War"})
    assert answer["legal"] and len(answer["outcomes"]) == 2
    assert answer["open_choices"] == [{"key": "opponent", "kind": "choice",
                                       "options": ["Ann", "Cy"]}]
    with pytest.raises(InputError) as info:
        play_response(state, {"kind": "free_action", "player": "Bo", "card": "War",
                              "choices": {"opponent": "Bo"}})
    assert info.value.items[0].path == "/play/choices"


def test_get_on_with_it_with_an_extra_turn_starts_with_the_new_hand() -> None:
    state = parse_state({"edition": "math", "players": [{"name": "Ann", "hand": ["Zero"]},
                                                        {"name": "Bo", "hand": ["Two"]}],
                         "active": "Ann", "rules": ["Get On With It"], "extra_turns": 1,
                         "turn": {"hand_at_start": 1, "drawn": 1, "played": 0},
                         "draw_pile": ["Five", "Six", "Seven", "Eight"]})
    answer = play_response(state, {"kind": "free_action", "card": "Get On With It"})
    [outcome] = answer["outcomes"]
    assert outcome["state"]["active"] == "Ann"
    assert outcome["state"]["turn"] == {"hand_at_start": 3, "drawn": 0, "played": 0}


def test_a_free_action_no_file_applies_says_its_effect_is_not_modelled() -> None:
    """A listed free action whose effect no move file applies (here a ruling entry added by hand:
    no card of the decks has one yet) is made with the table unchanged and the finding
    free_action_not_modelled, cited: never "nothing happens"."""
    from adjudicator.referee import moves

    state = parse_state({"players": [{"name": "Ann", "hand": ["Love"], "keepers": ["Milk"]},
                                     {"name": "Bo", "hand_size": 2}], "active": "Ann"})
    facts = moves.build_facts(state, {"kind": "free_action", "card": "Milk"})
    facts += "legal_move(0,free_action,(card(milk),)).\n"
    models, _ = moves._solve(facts, 2, game=("fluxx", ()))
    [atoms] = models
    shown = {str(a) for a in atoms}
    assert "finding(play,free_action_not_modelled,(p(0),milk))" in shown
    assert 'cites(free_action_not_modelled,(p(0),milk),"rulebook:free-actions")' in shown
    assert "next_keeper(0,milk,1)" in shown and not any(a.startswith("illegal(") for a in shown)
    assert not any("nothing_happens" in a for a in shown)


# ---- the tables real games reach ------------------------------------------------------------
GAMES = [("fluxx", ()), ("fluxx", ("creepers",)), ("fluxx", ("surprises",)),
         ("fluxx", ("creepers", "surprises")), ("math", ()), ("fluxxnomic", ())]


def _quick_disagreements(state: TableState) -> list[str]:
    """As `disagreements`, by the legality of each move alone (try_play: the body read as the
    endpoint reads it, one outcome, no rulings of the outcomes)."""
    ruling = ruling_for(state)
    out: list[str] = []
    for move in ruling["legal_moves"]:
        result = try_play(state, dict(move["play"]), limit=1)
        if not result.legal:
            out.append(f"listed {move['play']} refused: {[r['key'] for r in result.reasons]}")
    for move in ruling.get("not_yet", []):
        result = try_play(state, dict(move["play"]), limit=1)
        keys = [r["key"] for r in result.reasons]
        if result.legal or move["reason_key"] not in keys:
            out.append(f"held {move['play']} ({move['reason_key']}): {result.legal}, {keys}")
    return out


@pytest.mark.slow
def test_three_hundred_tables_of_simulated_games_agree() -> None:
    """At least 300 distinct tables of random games of every edition, with and without the
    expansions: every listed move plays, every held move is refused with its reason."""
    seen: set[str] = set()
    problems: list[str] = []
    for i, (edition, expansions) in enumerate(GAMES):
        for seed in range(3):
            for state in random_walk(100 * i + seed, 3, 20, edition, expansions):
                key = repr(state.to_json())
                if key in seen:
                    continue
                seen.add(key)
                problems += [f"{edition}{list(expansions)} seed {seed}: {p}"
                             for p in _quick_disagreements(state)]
    assert len(seen) >= 300
    assert not problems, "\n".join(problems[:20])
