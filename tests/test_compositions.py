"""The composed programs rule exactly as the full program.

A table is grounded with only the hubs of its edition and expansions (engine.hub_files); the
full hub rules_asp/fluxx.lp includes them all. For every scenario state, the states that the
scenario plays lead to, and a few hundred states of simulated games in each edition, the composed
program and the full program must give one answer set each with the same shown atoms; the play
program likewise gives the same outcomes. A difference means a hub leaves out a file the game
needs. Every composition also grounds without any clingo message under --warn=all.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import clingo
import pytest
import yaml

from adjudicator import engine, play
from adjudicator.catalog import EDITIONS, EXPANSION_BASE, EXPANSIONS, catalog_for
from adjudicator.errors import InputError
from adjudicator.facts import state_facts
from adjudicator.reader import parse_state
from adjudicator.ruling import ruling_for
from adjudicator.simulate import deal
from adjudicator.state import TableState

SCENARIOS = Path(__file__).parent / "scenarios"
# (edition, expansions) of every game the reader accepts: expansions add to EXPANSION_BASE only
GAMES = [(e, ()) for e in EDITIONS] + [
    (EXPANSION_BASE, tuple(c)) for n in range(1, len(EXPANSIONS) + 1)
    for c in combinations(EXPANSIONS, n)]
SIMULATED = {"fluxx": 8, "math": 3, "fluxxnomic": 3}  # games per edition
STEPS = 20  # moves per simulated game at most


def _cases() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if "expect_error" not in case:
                cases.append((f"{path.stem}:{case['id']}", case))
    return cases


CASES = _cases()
PLAY_CASES = [(cid, case) for cid, case in CASES if "play" in case]


def _shown(facts: str, edition: str | None, expansions: tuple[str, ...]) -> tuple[int, set[str]]:
    solution = engine.solve(facts, edition=edition, expansions=expansions)
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
            response = play.play_response(parse_state(case["state"]), dict(case["play"]))
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
                actions = play.legal_actions(state, ruling)
                if ruling.get("winner") or not actions:
                    break
                result = play.apply_action(state, rng.choice(actions), seed=rng.randrange(1 << 30),
                                           with_ruling=False, sample=rng.randrange(1 << 30))
                if not result.outcomes:
                    break
                state = rng.choice(result.outcomes).state
    return out


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[cid for cid, _ in CASES])
def test_scenario_state_rules_alike(case: dict[str, Any]) -> None:
    try:
        state = parse_state(case["state"])
    except InputError:
        pytest.skip("not a valid state (tests/test_scenarios.py says why)")
    assert_same_ruling(state, case["id"])


def test_follow_up_states_rule_alike() -> None:
    states = follow_up_states()
    assert len(states) >= len(PLAY_CASES) // 2
    for label, state in states:
        assert_same_ruling(state, label)


def test_simulated_states_rule_alike() -> None:
    states = simulated_states()
    assert len(states) >= 200
    assert {s.edition for _, s in states} == set(EDITIONS)
    for label, state in states:
        assert_same_ruling(state, label)


def _outcomes(facts: str, game: tuple[str | None, tuple[str, ...]]) -> tuple[list[Any], bool]:
    models, more = play._solve(facts, play.MAX_OUTCOMES, None, game)
    return sorted(sorted(map(str, m)) for m in models), more


@pytest.mark.parametrize("case", [c for _, c in PLAY_CASES], ids=[cid for cid, _ in PLAY_CASES])
def test_play_program_gives_the_same_outcomes(case: dict[str, Any]) -> None:
    state = parse_state(case["state"])
    move = dict(case["play"])
    choices = {k: v for k, v in (move.get("choices") or {}).items() if k not in play.DRIVER_KEYS}
    try:
        facts = play.build_facts(state, _action(state, move), choices, move.get("seed"))
    except InputError:
        pytest.skip("the move is refused before the engine runs")
    full = _outcomes(facts, play.FULL)
    composed = _outcomes(facts, (state.edition, tuple(state.expansions)))
    assert full[0], "the move has at least one answer set"
    assert composed == full


def test_games_cover_every_edition_and_expansion() -> None:
    assert {e for e, _ in GAMES} == set(EDITIONS)
    assert {x for _, xs in GAMES for x in xs} == set(EXPANSIONS)
    assert (EXPANSION_BASE, tuple(EXPANSIONS)) in GAMES


def test_full_hub_includes_every_hub_and_each_file_once() -> None:
    """fluxx.lp includes the core and every edition and expansion hub; each concern file is in
    exactly one hub (so composing hubs never adds a statement twice)."""
    folder = engine.hub_path().parent
    hubs = {e for e, _ in GAMES} | set(EXPANSIONS) | {engine.CORE}
    full = engine.hub_path().read_text(encoding="utf-8")
    assert {f'#include "{engine.HUB_PREFIX}_{h}.lp".' in full for h in hubs} == {True}
    owner: dict[str, str] = {}
    for prefix in (engine.HUB_PREFIX, engine.PLAY_HUB_PREFIX):
        for hub in sorted(folder.glob(f"{prefix}_*.lp")):
            for name in play._included(hub):
                assert name not in owner, (name, owner.get(name), hub.name)
                owner[name] = hub.name
    concern = {p.name for p in folder.glob("*.lp") if "hub" not in p.name and p.name != engine.HUB}
    assert set(owner) == concern, concern ^ set(owner)


def test_compositions_are_smaller_than_the_full_program() -> None:
    full = len(engine.program())
    for edition, expansions in GAMES:
        composed = engine.program(edition=edition, expansions=expansions)
        assert len(composed) < full, (edition, expansions)
        assert all(s.ast_type != clingo.ast.ASTType.Comment for s in composed)


def test_unknown_edition_or_expansion_is_refused() -> None:
    with pytest.raises(ValueError):
        engine.hub_files("chess")
    with pytest.raises(ValueError):
        engine.hub_files("fluxx", ["zombies"])
    with pytest.raises(ValueError):
        engine.hub_files("core")


def _minimal_state(edition: str, expansions: tuple[str, ...]) -> TableState:
    return parse_state({"edition": edition, "expansions": list(expansions),
                        "players": [{"name": "Ann", "hand": []}, {"name": "Bo", "hand_size": 2}],
                        "active": "Ann"})


@pytest.mark.parametrize("game", GAMES, ids=[f"{e}+{'+'.join(x) or 'none'}" for e, x in GAMES])
def test_composition_grounds_warn_clean(game: tuple[str, tuple[str, ...]]) -> None:
    """Each composition, loaded by plain clingo from its hub files, grounds without any message
    under --warn=all: with no facts at all, and with a small table of its game; so does the play
    program of the game on a move."""
    edition, expansions = game
    state = _minimal_state(edition, expansions)
    move = play.build_facts(state, {"kind": "draw", "player": "Ann"})
    for facts, with_play in (("", False), (state_facts(state), False), (move, True)):
        messages: list[str] = []
        ctl = clingo.Control(["--warn=all"], logger=lambda code, msg, m=messages: m.append(msg))
        for path in engine.hub_files(edition, expansions):
            ctl.load(str(path))
        if with_play:
            for path in engine.hub_files(edition, expansions, play=True):
                ctl.load(str(path))
        ctl.add("base", [], facts)
        ctl.ground([("base", [])])
        assert not messages, (game, with_play, messages)
