"""Concurrent clients get correct, independent rulings.

Several threads post different tables to POST /api/ruling at the same moment (a barrier
releases them together), over and over; every answer must equal the ruling the same table got
when asked alone. A solver, program or cache shared between requests that leaked state from
one table into another would show up here as a ruling that differs from its serial one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

SCENARIOS = Path(__file__).parent / "scenarios"
THREADS = 8
ROUNDS = 4


def comparable(ruling: dict[str, Any]) -> dict[str, Any]:
    """A ruling without the engine's timing statistics (they differ from run to run)."""
    return {k: v for k, v in ruling.items() if k != "engine"}


def scenario_states() -> list[dict[str, Any]]:
    states = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if isinstance(case, dict) and isinstance(case.get("state"), dict):
                states.append(case["state"])
    return states


@pytest.fixture
def tables(client) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Up to 3 x THREADS tables whose serial rulings all differ, with those rulings."""
    chosen: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen: set[str] = set()
    for state in scenario_states():
        response = client.post("/api/ruling", json=state)
        body = response.get_json()
        if response.status_code != 200 or not body.get("ok"):
            continue
        key = repr(comparable(body))
        if key in seen:
            continue
        seen.add(key)
        chosen.append((state, comparable(body)))
        if len(chosen) == 3 * THREADS:
            break
    assert len(chosen) >= THREADS, "the scenarios should give at least one table per thread"
    return chosen


def test_concurrent_rulings_equal_their_serial_rulings(app, tables) -> None:
    barrier = threading.Barrier(THREADS)
    mismatches: list[str] = []
    failures: list[BaseException] = []

    def worker(index: int) -> None:
        client = app.test_client()  # one client per thread, the app shared
        try:
            for round_ in range(ROUNDS):
                # each thread takes a different table each round; all start together
                state, expected = tables[(index + round_ * THREADS) % len(tables)]
                barrier.wait(timeout=60)
                response = client.post("/api/ruling", json=state)
                got = comparable(response.get_json())
                if response.status_code != 200 or got != expected:
                    mismatches.append(f"thread {index}, round {round_}: "
                                      f"{response.status_code} for {state.get('players')}")
        except BaseException as exc:  # noqa: BLE001 - reported below, with the thread's name
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not failures, failures
    assert not any(t.is_alive() for t in threads)
    assert mismatches == []


def test_the_tables_differ_so_a_leak_would_show(tables) -> None:
    rulings = [repr(ruling) for _, ruling in tables]
    assert len(set(rulings)) == len(rulings)
