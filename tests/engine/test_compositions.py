"""The composed programs rule exactly as the full program.

A table is grounded with only the hubs of its edition and expansions (solve.hub_files); the
full hub rules_asp/hubs/ruling.lp includes them all. For every scenario state, the states that the
scenario plays lead to, and a few hundred states of simulated games in each edition, the composed
program and the full program must give one answer set each with the same shown atoms; the play
program likewise gives the same outcomes. A difference means a hub leaves out a file the game
needs. Every composition also grounds without any clingo message under --warn=all.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from typing import Any

import clingo
import pytest

from adjudicator.cards.catalog import EDITIONS, EXPANSION_BASE, EXPANSIONS, catalog_for
from adjudicator.engine import solve
from adjudicator.engine.facts import state_facts
from adjudicator.errors import InputError
from adjudicator.referee import moves
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import deal
from adjudicator.resources import rules_dir
from adjudicator.table.reader import parse_state
from adjudicator.table.state import TableState
from tests.scenario_files import scenario_cases

# (edition, expansions) of every game the reader accepts: expansions add to EXPANSION_BASE only
GAMES = [(e, ()) for e in EDITIONS] + [
    (EXPANSION_BASE, tuple(c)) for n in range(1, len(EXPANSIONS) + 1)
    for c in combinations(EXPANSIONS, n)]
SIMULATED = {"fluxx": 8, "math": 3, "fluxxnomic": 3}  # games per edition
STEPS = 20  # moves per simulated game at most


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(cid, case) for cid, case in scenario_cases() if "expect_error" not in case]


CASES = _cases()
PLAY_CASES = [(cid, case) for cid, case in CASES if "play" in case]


def _shown(facts: str, edition: str | None, expansions: tuple[str, ...]) -> tuple[int, set[str]]:
    solution = solve.solve(facts, edition=edition, expansions=expansions)
    assert not solution.warnings, solution.warnings
    return solution.models, {str(s) for s in solution.symbols}


def assert_same_ruling(state: TableState, label: str) -> None:
    facts = state_facts(state, catalog_for(state.edition, state.expansions))
    full_models, full = _shown(facts, None, ())
    models, composed = _shown(facts, state.edition, tuple(state.expansions))
    assert full_models == 1 and models == 1, (label, full_models, models)
    assert composed == full, (label, sorted(full - composed), sorted(composed - full))


def _action(state: TableState, move: dict[str, Any]) -> dict[str, Any]:
    kind = move.get("kind", "play")
    player = move.get("player") or (state.active if kind == "play" else None)
    return {"kind": kind, "player": player, "card": move.get("card")}


@cache
def follow_up_states() -> list[tuple[str, TableState]]:
    """The states the play scenarios' moves lead to (played with the composed programs)."""
    out = []
    for cid, case in PLAY_CASES:
        try:
            response = moves.play_response(parse_state(case["state"]), dict(case["play"]))
        except InputError:
            continue
        for i, outcome in enumerate(response["outcomes"]):
            out.append((f"{cid}#{i}", parse_state(outcome["state"])))
    return out


@cache
def simulated_states() -> list[tuple[str, TableState]]:
    """States of random games of legal moves in every edition (the simulator's moves)."""
    out = []
    for edition, games in SIMULATED.items():
        for g in range(games):
            rng = random.Random(1000 + g)
            state = deal(rng, 2 + g % 4, edition)
            for step in range(STEPS):
                out.append((f"{edition}-{g}-{step}", state))
                ruling = ruling_for(state)
                # (the simulator's moves: a join, open at every moment, would only grow the table)
                actions = [a for a in moves.legal_actions(state, ruling) if a["kind"] != "join"]
                if ruling.get("winner") or not actions:
                    break
                result = moves.apply_action(state, rng.choice(actions), seed=rng.randrange(1 << 30),
                                           with_ruling=False, sample=rng.randrange(1 << 30))
                if not result.outcomes:
                    break
                state = rng.choice(result.outcomes).state
    return out


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[cid for cid, _ in CASES])
@pytest.mark.slow
def test_scenario_state_rules_alike(case: dict[str, Any]) -> None:
    try:
        state = parse_state(case["state"])
    except InputError:
        pytest.skip("not a valid state (tests/rules/test_scenarios.py says why)")
    assert_same_ruling(state, case["id"])


@pytest.mark.slow
def test_follow_up_states_rule_alike() -> None:
    states = follow_up_states()
    assert len(states) >= len(PLAY_CASES) // 2
    for label, state in states:
        assert_same_ruling(state, label)


@pytest.mark.slow
def test_simulated_states_rule_alike() -> None:
    states = simulated_states()
    assert len(states) >= 200
    assert {s.edition for _, s in states} == set(EDITIONS)
    for label, state in states:
        assert_same_ruling(state, label)


def _outcomes(facts: str, game: tuple[str | None, tuple[str, ...]]) -> tuple[list[Any], bool]:
    models, more = moves._solve(facts, moves.MAX_OUTCOMES, None, game)
    return sorted(sorted(map(str, m)) for m in models), more


@pytest.mark.parametrize("case", [c for _, c in PLAY_CASES], ids=[cid for cid, _ in PLAY_CASES])
@pytest.mark.slow
def test_play_program_gives_the_same_outcomes(case: dict[str, Any]) -> None:
    state = parse_state(case["state"])
    move = dict(case["play"])
    choices = {k: v for k, v in (move.get("choices") or {}).items() if k not in moves.DRIVER_KEYS}
    try:
        facts = moves.build_facts(state, _action(state, move), choices, move.get("seed"))
    except InputError:
        pytest.skip("the move is refused before the engine runs")
    full = _outcomes(facts, moves.FULL)
    composed = _outcomes(facts, (state.edition, tuple(state.expansions)))
    assert full[0], "the move has at least one answer set"
    assert composed == full


def test_games_cover_every_edition_and_expansion() -> None:
    assert {e for e, _ in GAMES} == set(EDITIONS)
    assert {x for _, xs in GAMES for x in xs} == set(EXPANSIONS)
    assert (EXPANSION_BASE, tuple(EXPANSIONS)) in GAMES


def test_full_hub_includes_every_hub_and_each_file_once() -> None:
    """ruling.lp includes the core and every edition and expansion hub; each concern file is in
    exactly one hub (so composing hubs never adds a statement twice)."""
    folder = solve.hubs_dir()
    hubs = {e for e, _ in GAMES} | set(EXPANSIONS) | {solve.CORE}
    full = solve.hub_path().read_text(encoding="utf-8")
    assert {f'#include "{solve.HUB_PREFIX}_{h}.lp".' in full for h in hubs} == {True}
    owner: dict[str, str] = {}
    for prefix in (solve.HUB_PREFIX, solve.PLAY_HUB_PREFIX):
        for hub in sorted(folder.glob(f"{prefix}_*.lp")):
            for name in moves._included(hub):
                assert name not in owner, (name, owner.get(name), hub.name)
                owner[name] = hub.name
    # every .lp file outside hubs/ is a concern file, but doc.lp (comments only, never grounded)
    concern = {p.relative_to(rules_dir()).as_posix() for p in rules_dir().rglob("*.lp")
               if p.parent != folder and p.name != "doc.lp"}
    assert set(owner) == concern, concern ^ set(owner)


def test_full_hubs_ground_warn_clean() -> None:
    """The whole ruling program (hubs/ruling.lp), alone and with the whole move program
    (hubs/moves.lp), grounds without any message under --warn=all on no facts at all."""
    for paths in ((solve.hub_path(),), (solve.hub_path(), solve.hubs_dir() / solve.PLAY_HUB)):
        messages: list[str] = []
        ctl = clingo.Control(["--warn=all"], logger=lambda code, msg, m=messages: m.append(msg))
        for path in paths:
            ctl.load(str(path))
        ctl.ground([("base", [])])
        assert not messages, (paths, messages)


def test_compositions_are_smaller_than_the_full_program() -> None:
    full = len(solve.program())
    for edition, expansions in GAMES:
        composed = solve.program(edition=edition, expansions=expansions)
        assert len(composed) < full, (edition, expansions)
        assert all(s.ast_type != clingo.ast.ASTType.Comment for s in composed)


def test_unknown_edition_or_expansion_is_refused() -> None:
    with pytest.raises(ValueError):
        solve.hub_files("chess")
    with pytest.raises(ValueError):
        solve.hub_files("fluxx", ["zombies"])
    with pytest.raises(ValueError):
        solve.hub_files("core")


def _minimal_state(edition: str, expansions: tuple[str, ...]) -> TableState:
    return parse_state({"edition": edition, "expansions": list(expansions),
                        "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 2}],
                        "active": "Ann"})


@pytest.mark.parametrize("game", GAMES, ids=[f"{e}+{'+'.join(x) or 'none'}" for e, x in GAMES])
def test_composition_grounds_warn_clean(game: tuple[str, tuple[str, ...]]) -> None:
    """Each composition, loaded by plain clingo from its hub files, grounds without any message
    under --warn=all: with no facts at all, and with a small table of its game; so does the move
    program of the game (with its ruling program) on no facts and on a move."""
    edition, expansions = game
    state = _minimal_state(edition, expansions)
    move = moves.build_facts(state, {"kind": "draw", "player": "Ann"})
    for facts, with_play in (("", False), (state_facts(state), False), ("", True), (move, True)):
        messages: list[str] = []
        ctl = clingo.Control(["--warn=all"], logger=lambda code, msg, m=messages: m.append(msg))
        for path in solve.hub_files(edition, expansions):
            ctl.load(str(path))
        if with_play:
            for path in solve.hub_files(edition, expansions, play=True):
                ctl.load(str(path))
        ctl.add("base", [], facts)
        ctl.ground([("base", [])])
        assert not messages, (game, with_play, messages)
