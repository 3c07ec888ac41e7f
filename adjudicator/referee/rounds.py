"""Rounds: several tasks (plays of a table, whole simulated games) that run as they run alone,
while what they ask of the engine is worked out together.

Each task runs in a thread of its own, with `ROUND` set in its context. Where it needs the
engine, moves._solve (a play program's answer sets), moves._rule and ruling.ruling_for (tables'
rulings) ask the round and wait. Once every task of the round waits or has ended, the round's
`work_out` is given everything asked, in the order of the tasks (so that a randomized search
meets the same plays in the same order on every run), and the answers go back to the tasks that
asked, which run on to their next need or their end. A task runs its own code once, from start
to end; only its calls into the engine wait for the others'.

Nothing here decides a rule: a round changes only when the engine is asked, never what.
"""

from __future__ import annotations

import contextvars
import copy
import threading
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..engine.terms import Term
from ..table.state import TableState

Solved = tuple[list[list[Term]], bool]  # a play program's answer sets and whether there were more
PlayNeed = tuple[str, int, int | None]  # a play program's facts, limit, sample seed (moves._solve)
# what a round's work_out answers: each play need's answer sets and each table's ruling, in the
# order asked, an exception where that one failed (the task that asked raises it)
WorkOut = Callable[[list[PlayNeed], list[TableState]],
                   tuple[list[Solved | BaseException], list[dict[str, Any] | BaseException]]]


@dataclass
class _Waiter:
    """A task waiting for its answers."""

    seat: int
    woken: threading.Event = field(default_factory=threading.Event)
    answers: dict[Any, Any] = field(default_factory=dict)


@dataclass
class _Asked:
    """One thing asked in a round, the tasks that wait for it and the first to ask (seat and
    order of asking), which places it in the order `work_out` is given."""

    need: Any
    first: tuple[int, int]
    waiters: list[_Waiter] = field(default_factory=list)


class Round:
    """The tasks of one call (`run`) of one game, and what they have asked of the engine."""

    def __init__(self, game: tuple[str | None, tuple[str, ...]], work_out: WorkOut) -> None:
        self.game = game
        self._work_out = work_out
        self._lock = threading.Condition()
        self._running = 0  # tasks neither waiting nor ended
        self._asked: dict[tuple[str, Any], _Asked] = {}
        self._count = 0  # things asked so far: the order of asking within a seat

    def run(self, tasks: Sequence[Callable[[], Any]]) -> list[tuple[bool, Any]]:
        """Runs every task to its end; for each, (True, what it returned) or (False, the
        exception it raised)."""
        ended: list[tuple[bool, Any]] = [(False, RuntimeError("the task did not end"))] * len(tasks)
        self._running = len(tasks)
        threads = [threading.Thread(target=contextvars.copy_context().run,
                                    args=(self._seat, seat, task, ended), daemon=True,
                                    name=f"fluxx-round-{seat}")
                   for seat, task in enumerate(tasks)]
        for thread in threads:
            thread.start()
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._running == 0)
                asked, self._asked = self._asked, {}
            if not asked:
                break
            self._answer(sorted(asked.items(), key=lambda item: item[1].first))
        for thread in threads:
            thread.join()
        return ended

    def solution(self, facts: str, limit: int, sample: int | None) -> Solved:
        """A play program's answer sets, worked out with the round's other needs."""
        found = self._wait({("play", (facts, limit, sample)): (facts, limit, sample)})
        models, more = next(iter(found.values()))
        return list(models), more  # a list of its own: the play may sort it

    def rulings_of(self, states: Sequence[TableState]) -> list[dict[str, Any]]:
        """The rulings of tables, worked out with the round's other needs."""
        keys = [("ruling", fingerprint(s)) for s in states]
        found = self._wait(dict(zip(keys, states, strict=True)))
        return [found[key] for key in keys]

    # ---- inside ---------------------------------------------------------------------------------
    def _seat(self, seat: int, task: Callable[[], Any], ended: list[tuple[bool, Any]]) -> None:
        ROUND.set(self)
        _SEAT.set(seat)
        try:
            ended[seat] = (True, task())
        except BaseException as err:  # noqa: BLE001 - handed to the caller of run, as raised
            ended[seat] = (False, err)
        finally:
            with self._lock:
                self._running -= 1
                self._lock.notify_all()

    def _wait(self, needs: dict[tuple[str, Any], Any]) -> dict[tuple[str, Any], Any]:
        if not needs:  # nothing to wait for (a wait would end the round: nothing is asked)
            return {}
        waiter = _Waiter(_SEAT.get())
        with self._lock:
            for key, need in needs.items():
                self._count += 1
                asked = self._asked.setdefault(key, _Asked(need, (waiter.seat, self._count)))
                asked.first = min(asked.first, (waiter.seat, self._count))
                asked.waiters.append(waiter)
            self._running -= 1
            self._lock.notify_all()
        waiter.woken.wait()
        failed = [a for a in waiter.answers.values() if isinstance(a, BaseException)]
        if failed:
            raise failed[0]
        return waiter.answers

    def _answer(self, asked: list[tuple[tuple[str, Any], _Asked]]) -> None:
        plays = [(k, a) for k, a in asked if k[0] == "play"]
        tables = [(k, a) for k, a in asked if k[0] == "ruling"]
        try:
            solved, rulings = self._work_out([a.need for _, a in plays],
                                             [a.need for _, a in tables])
            answers = list(zip(plays + tables, [*solved, *rulings], strict=True))
        except BaseException as err:  # noqa: BLE001 - each task that asked raises it
            answers = [(item, err) for item in plays + tables]
        woken: dict[int, _Waiter] = {}
        for (key, one), answer in answers:
            for n, waiter in enumerate(one.waiters):
                # two tasks that ask for one table's ruling: each gets a ruling of its own
                mine = copy.deepcopy(answer) if n and key[0] == "ruling" else answer
                waiter.answers[key] = mine
                woken[id(waiter)] = waiter
        with self._lock:
            self._running += len(woken)
        for waiter in woken.values():
            waiter.woken.set()


def fingerprint(state: TableState) -> str:
    """A text that tells table states apart (two outcomes that leave the same table are one)."""
    return repr(state.to_json())


# The round of the task running in this context (a round's thread), if any: one call's round is
# never another's.
ROUND: ContextVar[Round | None] = ContextVar("fluxx_play_round", default=None)
_SEAT: ContextVar[int] = ContextVar("fluxx_round_seat", default=0)
