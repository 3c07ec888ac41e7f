"""The round of together.play_responses: what the plays it answers together need from the
engine and what has been worked out for them. moves._solve and moves._rule read it (`ROUND`)
and, where it lacks what they need, record it and raise `Wait`; outside a call of
play_responses there is no round and they ground as usual.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..engine.terms import Term
from ..table.state import TableState

Solved = tuple[list[list[Term]], bool]  # a play program's answer sets and whether there were more


class Wait(Exception):
    """A play of a round needs what the round has not worked out yet (recorded in the round)."""


@dataclass
class Round:
    """What the plays of one call need and what has been worked out for them, by key: a play
    program's facts and limit (moves._solve), an outcome table's fingerprint (moves._rule)."""

    game: tuple[str | None, tuple[str, ...]]
    solved: dict[tuple[str, int], Solved] = field(default_factory=dict)
    rulings: dict[str, dict[str, Any]] = field(default_factory=dict)
    handed: set[str] = field(default_factory=set)  # rulings given out once: copies after
    asked: dict[tuple[str, int], None] = field(default_factory=dict)
    asked_rulings: dict[str, TableState] = field(default_factory=dict)

    def solution(self, facts: str, limit: int) -> Solved:
        """The answer sets of a play program's facts, or Wait after asking for them."""
        found = self.solved.get((facts, limit))
        if found is None:
            self.asked[(facts, limit)] = None
            raise Wait
        return list(found[0]), found[1]  # a list of its own: the play may sort it

    def rulings_of(self, states: Sequence[TableState]) -> list[dict[str, Any]]:
        """The rulings of outcome tables, or Wait after asking for those not worked out yet."""
        keys = [fingerprint(s) for s in states]
        missing = {k: s for k, s in zip(keys, states, strict=True) if k not in self.rulings}
        if missing:
            self.asked_rulings.update(missing)
            raise Wait
        out = []
        for key in keys:
            # two plays that lead to the same table: each gets a ruling of its own
            out.append(copy.deepcopy(self.rulings[key]) if key in self.handed
                       else self.rulings[key])
            self.handed.add(key)
        return out


def fingerprint(state: TableState) -> str:
    """A text that tells table states apart (two outcomes that leave the same table are one)."""
    return repr(state.to_json())


# The round of the call under way in this context (thread or task), if any: one call's round is
# never another's.
ROUND: ContextVar[Round | None] = ContextVar("fluxx_play_round", default=None)
