"""The round (adjudicator/referee/rounds.py): tasks in threads of their own, whose asks of the
engine are worked out together once every task waits or has ended, in the order of the tasks."""

from __future__ import annotations

import time
from typing import Any

from adjudicator.referee.rounds import ROUND, Round
from adjudicator.table.reader import parse_state

TABLE = parse_state({"players": [{"name": "Ann", "hand_size": 3}, {"name": "Bo", "hand_size": 3}],
                     "active": "Ann"})


def test_asks_are_worked_out_together_in_the_order_of_the_tasks() -> None:
    given: list[list[Any]] = []

    def work_out(needs: list[Any], tables: list[Any]) -> tuple[list[Any], list[Any]]:
        given.append([n[0] for n in needs])
        return [([[]], False) for _ in needs], [{"ok": True} for _ in tables]

    def task(name: str, delay: float) -> Any:
        def run() -> Any:
            here = ROUND.get()
            assert here is not None
            time.sleep(delay)  # the later seats ask first
            first = here.solution(f"{name}.", 1, None)
            assert here.rulings_of([]) == []  # nothing asked: no wait (the round goes on)
            second = here.solution(f"{name}-again.", 1, 7)
            return name, first, second, here.rulings_of([TABLE])
        return run

    here = Round(("fluxx", ()), work_out)
    ended = here.run([task("a", 0.05), task("b", 0.02), task("c", 0.0), lambda: "none asked"])
    assert given == [["a.", "b.", "c."], ["a-again.", "b-again.", "c-again."], []]
    assert [value[0] if ok and isinstance(value, tuple) else value for ok, value in ended] == [
        "a", "b", "c", "none asked"]
    rulings = [value[3][0] for _, value in ended[:3]]
    assert rulings == [{"ok": True}] * 3
    assert rulings[0] is not rulings[1]  # one table asked by three tasks: a ruling each
    assert ROUND.get() is None


def test_a_failure_is_raised_by_the_task_that_asked_and_the_others_end() -> None:
    def work_out(needs: list[Any], tables: list[Any]) -> tuple[list[Any], list[Any]]:
        return [ValueError(n[0]) if n[0] == "bad." else ([[]], False) for n in needs], []

    def asks(facts: str) -> Any:
        here = ROUND.get()
        assert here is not None
        return here.solution(facts, 1, None)

    ended = Round(("fluxx", ()), work_out).run([lambda: asks("good."), lambda: asks("bad."),
                                                 lambda: 1 / 0])
    assert ended[0] == (True, ([[]], False))
    assert not ended[1][0] and str(ended[1][1]) == "bad."
    assert not ended[2][0] and isinstance(ended[2][1], ZeroDivisionError)
