"""The full-game simulator: random legal moves through the engine, with the invariants
checked after every move (adjudicator.referee.simulate.invariant_violations): no card lost or
duplicated, limits met at the end of every turn, exactly one ruling per state, every game ends in a
win or at the step cap. The games run on all CPUs; timings are printed by bench/play_bench.py, not
asserted."""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from adjudicator.cards.catalog import catalog_for
from adjudicator.cli import main
from adjudicator.engine.solve import TimeLimitError
from adjudicator.engine.speed import plays
from adjudicator.referee import simulate as simulate_module
from adjudicator.referee.ruling import ruling_for
from adjudicator.referee.simulate import (
    card_places,
    deal,
    deck,
    group_size,
    invariant_violations,
    play_game,
    simulate,
)
from adjudicator.table.reader import parse_state

GAMES = 200  # short games: 2 to 6 players, 5 moves each, seeds 0..199
SHORT_STEPS = 5


def _short(seed: int):
    return play_game(seed, players=2 + seed % 5, max_steps=SHORT_STEPS)


@pytest.mark.slow
def test_hundreds_of_short_games_keep_the_invariants() -> None:
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(_short, range(GAMES)))
    assert len(results) == GAMES
    assert [r.violations for r in results if r.violations] == []
    assert {r.ended for r in results} <= {"win", "step_cap"}
    assert all(r.steps == SHORT_STEPS for r in results if r.ended == "step_cap")
    assert sum(r.steps for r in results) >= GAMES  # every game moved


@pytest.mark.parametrize(("seed", "players"), [(101, 3), (4, 2)])
@pytest.mark.slow
def test_a_whole_game_ends_in_a_win(seed: int, players: int) -> None:
    result = play_game(seed, players=players, max_steps=400)
    assert result.violations == []
    assert result.ended == "win", result
    assert result.winner in ("Ann", "Bo", "Cy")
    assert result.turns > 1


def test_the_deal() -> None:
    state = deal(random.Random(0), 4)
    game = catalog_for("fluxx")
    assert len(deck(game)) == 82  # 84 cards less Basic Rules (on the table) and the promo card
    assert [p.hand_size for p in state.players] == [3, 3, 3, 3]
    assert state.draw_pile_size == 82 - 12 and state.turn.hand_at_start == 3
    assert invariant_violations(state, ruling_for(state), Counter(deck(game))) == []


def test_the_invariants_catch_a_lost_or_doubled_card() -> None:
    state = deal(random.Random(1), 3)
    full = Counter(deck(catalog_for("fluxx")))
    ruling = ruling_for(state)
    lost = state.draw_pile.pop()
    assert any("lost" in v for v in invariant_violations(state, ruling, full))
    state.draw_pile.append(lost)
    state.discard_pile.append(state.draw_pile[0])
    assert any("duplicated" in v for v in invariant_violations(state, ruling, full))


def test_the_invariants_catch_a_limit_broken_at_turn_end() -> None:
    state = deal(random.Random(2), 3)
    state.rules = ["hand_limit_1"]
    ruling = ruling_for(state)
    full = Counter(deck(catalog_for("fluxx")))
    problems = invariant_violations(state, ruling, full, ended_turn_of="Bo")
    assert any("Hand Limit" in p for p in problems)


def test_cli_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--players", "2", "--max-steps", "3",
                 "--seed", "9"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["violations"] == []
    assert sum(summary["ended"].values()) == 2
    assert main(["simulate", "--players", "9"]) == 2
    assert main(["simulate", "--jobs", "0"]) == 2


@pytest.mark.slow
def test_games_played_at_once_are_the_games_played_alone() -> None:
    """Two processes play the same games as one with the group size they played: each game
    depends on its seed and its group's seeds only."""
    together = simulate(6, players=2, seed=11, max_steps=6, edition="math", jobs=2, group=4)
    assert together["group"] == 3  # two groups of 3, one per process, not 4 and then 2
    alone = simulate(6, players=2, seed=11, max_steps=6, edition="math", group=3)
    assert together["jobs"] == 2 and alone["jobs"] == 1

    def kept(summary: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in summary["results"]]

    assert kept(together) == kept(alone)
    assert [r["seed"] for r in together["results"]] == [11, 12, 13, 14, 15, 16]
    assert sum(r["steps"] for r in together["results"]) > 3


@pytest.mark.parametrize(("games", "group", "jobs", "size", "groups"), [
    (166, 16, 2, 14, 12),  # 6 groups a process, rather than 11 groups of 16 (6 and 5)
    (150, 32, 2, 25, 6),  # 3 groups a process, rather than 5 groups (4 of 32, one of 22)
    (32, 16, 2, 16, 2), (6, 4, 2, 3, 2), (5, 16, 1, 16, 1), (5, 16, 2, 3, 2), (1, 16, 2, 1, 1),
    (7, 1, 2, 1, 7)])
def test_groups_share_the_processes_evenly(games: int, group: int, jobs: int, size: int,
                                           groups: int) -> None:
    assert group_size(games, group, jobs) == size
    assert math.ceil(games / size) == groups


def test_games_in_a_group_are_played_together_and_replay_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A group's moves are grounded together (plays.solve_plays over several games' plays, the
    rulings in batches), and the same seeds give the same games again; a group of one is the
    game played alone."""
    grounded: list[int] = []
    together_ = plays.solve_plays
    monkeypatch.setattr(plays, "solve_plays", lambda facts, *a, **k: (
        grounded.append(len(facts)), together_(facts, *a, **k))[1])
    first = simulate(3, players=2, seed=40, max_steps=4, group=3)
    assert grounded and max(grounded) == 3  # the three games' plays in one grounding
    again = simulate(3, players=2, seed=40, max_steps=4, group=3)

    def kept(summary: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in summary["results"]]

    assert kept(first) == kept(again) and first["violations"] == []
    grounded.clear()
    single = simulate(1, players=2, seed=41, max_steps=4, group=1)
    assert grounded == []  # alone: no round
    assert kept(single) == [{k: v for k, v in play_game(41, players=2, max_steps=4).to_json()
                             .items() if k != "seconds"}]


def test_the_invariants_count_copies() -> None:
    """Math Fluxx has four Zeros: a state with one of them gone, three still in play, is
    reported; so is a fifth."""
    state = deal(random.Random(3), 3, "math")
    full = Counter(deck(catalog_for("math")))
    assert full["zero"] == 4 and full["two"] == 3 and sum(full.values()) == 99
    ruling = ruling_for(state)
    assert invariant_violations(state, ruling, full) == []
    where = next(z for z in [state.draw_pile] + [p.hand for p in state.players]
                 if z and "zero" in z)
    where.remove("zero")
    assert card_places(state)["zero"] == 3
    assert any("lost {'zero': 1}" in v for v in invariant_violations(state, ruling, full))
    where += ["zero", "zero"]
    assert any("duplicated {'zero': 1}" in v for v in invariant_violations(state, ruling, full))


def test_a_hand_limit_taking_effect_as_the_phase_ends_binds_at_the_next_end() -> None:
    """Fluxxnomic (seed 66 of the simulator, 120 steps): Hand limit 5 waited in the phase and
    took effect as it ended ("not enacted until the beginning of a phase"), so it did not bind
    at that end: Bo holding 7 cards after it is no violation; its discard comes at the next end
    of a phase (the ruling says so)."""
    state = parse_state({
        "edition": "fluxxnomic", "active": "Cy", "rules": ["Hand limit 5"],
        "players": [{"name": "Ann", "hand": ["Love"]},
                    {"name": "Bo", "hand": ["Rules reset", "Hippyism", "Night and day",
                                            "Steal a keeper", "Nice try", "Gambling", "Book"]},
                    {"name": "Cy", "hand": ["Moon"]}],
        "turn": {"hand_at_start": 1}, "phase": {"number": 12}})
    ruling = ruling_for(state)
    assert ruling["limits"]["hand"] == 5
    assert "phase_random_discard" in [f["key"] for f in ruling["findings"]]
    assert invariant_violations(state, ruling, Counter(), "Bo", None) == []
    over = invariant_violations(state, ruling, Counter(), "Bo", 5)
    assert over == ["Bo holds 7 cards after the phase, over 5"]


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["math", "fluxxnomic"])
def test_a_short_game_keeps_every_copy(edition: str) -> None:
    result = play_game(7, players=3, max_steps=8, edition=edition)
    assert result.violations == [] and result.time_limit is None
    assert result.ended in ("win", "step_cap") and result.steps > 0
    assert result.edition == edition


@pytest.mark.parametrize("group", [1, 2])
def test_a_move_over_the_time_limit_ends_its_game_only(monkeypatch: pytest.MonkeyPatch,
                                                       group: int) -> None:
    """The move that hit the engine's time limit is reported with its table; the batch goes on,
    the other game of its group too."""
    second_deal = deal(random.Random(6), 2).to_json()  # the table of the second game's first move
    real = simulate_module.try_play

    def slow_second_game(state: Any, action: Any, *args: Any, **kwargs: Any) -> Any:
        if state.to_json() == second_deal:
            raise TimeLimitError(10.0)
        return real(state, action, *args, **kwargs)

    monkeypatch.setattr(simulate_module, "try_play", slow_second_game)
    summary = simulate(2, players=2, seed=5, max_steps=3, group=group)
    first, second = summary["results"]
    assert first["ended"] in ("win", "step_cap") and first["time_limit"] is None
    assert first["steps"] == 3 or first["ended"] == "win"
    assert second["ended"] == "time_limit"
    hit = summary["time_limits"]
    assert len(hit) == 1 and hit[0]["seed"] == 6 and hit[0]["action"]["kind"]
    assert parse_state(hit[0]["state"]).players[0].name == "Ann"  # the table, as a state
    assert summary["violations"] == []


def test_cli_simulate_edition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--players", "2", "--max-steps", "2",
                 "--edition", "fluxx", "--expansions", "creepers,surprises"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["edition"] == "fluxx" and summary["expansions"] == ["creepers", "surprises"]
    assert main(["simulate", "--edition", "nope"]) == 2
    assert main(["simulate", "--edition", "math", "--expansions", "creepers"]) == 2


def test_a_fluxxnomic_deal_makes_its_cards_and_the_phase_end_limit_is_checked() -> None:
    """Fluxxnomic has no deck (seed 003: cards are made at random): three cards each, no draw
    pile; after a phase ends under Hand limit 5, a hand over 5 is reported, whoever holds it."""
    state = deal(random.Random(3), 3, "fluxxnomic")
    assert state.deckless and "draw_pile" not in state.to_json()
    assert [p.hand_size for p in state.players] == [3, 3, 3]
    ruling = ruling_for(state)
    assert invariant_violations(state, ruling, Counter()) == []
    state.players[1].hand = ["book"] * 6
    state.players[1].hand_size = 6
    assert any("Bo holds 6" in v
               for v in invariant_violations(state, ruling, Counter(), "Ann", 5))
