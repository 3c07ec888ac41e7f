"""Several plays of one table answered together (`play_responses`: "what would each of my cards
do?"), each answer the one `moves.play_response` gives the play alone.

The plays are answered in rounds. In a round each unanswered play runs as it runs alone, until
it needs what the engine has not worked out yet: the answer sets of its play program
(moves._solve), or the rulings of its outcomes (moves._rule). It then records what it needs and
stops (`Wait`). Between rounds, what the plays need is worked out together: their play programs
in one grounding (engine/speed/plays.py), their outcomes' rulings in batches (ruling.rulings_for),
and the next round runs them again, now to their next need or to their answer (rounds.py holds
the round). A play's answer sets are those it has alone, so every answer is the lone one, but
for the order of a play's outcomes: clingo's, for the program it grounds.

Nothing here decides a rule: it only changes when the engine is asked, never what.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import solve
from ..engine.speed import batch, plays
from ..errors import ErrorItem, InputError
from ..table.state import TableState
from . import moves
from .rounds import ROUND, Round, Solved, Wait
from .ruling import rulings_for


def play_responses(state: TableState, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers of `moves.play_response` to each play of `requests` on `state`, worked out
    together. A play that is refused (InputError) raises for the whole call, its paths under
    /plays/<index> rather than /play."""
    game = (state.edition, tuple(state.expansions))
    program = plays.PROGRAMS.ready(game) if batch.batching() and len(requests) > 1 else None
    here = Round(game)
    token = ROUND.set(here) if program is not None else None
    answers: list[dict[str, Any] | None] = [None] * len(requests)
    try:
        while True:
            for index, request in enumerate(requests):
                if answers[index] is None:
                    try:
                        answers[index] = moves.play_response(state, request)
                    except Wait:
                        pass
                    except solve.TimeLimitError as err:
                        raise solve.TimeLimitError(err.limit_s, f"/plays/{index}") from None
                    except InputError as err:
                        raise _under(err, index) from None
            if not here.asked and not here.asked_rulings:
                break
            try:
                _work_out(here, program, game)
            except solve.TimeLimitError as err:  # no single play's: said of them all
                raise solve.TimeLimitError(err.limit_s, "/plays") from None
    finally:
        if token is not None:
            ROUND.reset(token)
    done = [a for a in answers if a is not None]
    assert len(done) == len(requests)  # every play was answered (the loop ends only then)
    return done


def _work_out(here: Round, program: batch.Program | None,
              game: tuple[str | None, tuple[str, ...]]) -> None:
    """What the plays of the round asked for: their play programs' answer sets, together, and
    their outcomes' rulings, in batches."""
    if here.asked:
        keys = list(here.asked)
        here.asked.clear()
        here.solved.update(zip(keys, _solve(keys, program, game), strict=True))
    if here.asked_rulings:
        keys, states = zip(*here.asked_rulings.items(), strict=True)
        here.asked_rulings.clear()
        here.rulings.update(zip(keys, rulings_for(list(states)), strict=True))


def _solve(keys: list[tuple[str, int]], program: batch.Program | None,
           game: tuple[str | None, tuple[str, ...]]) -> list[Solved]:
    """The answer sets of each play program's facts and limit: together where there are
    several, else (or where the grounding together runs past its share of the time limit)
    each alone, as moves._solve solves it."""
    if program is not None and len(keys) > 1:
        found = plays.solve_plays([f for f, _ in keys], [n for _, n in keys], program,
                                  limit_s=solve.time_limit() * batch.SLOT_SHARE)
        if found is not None:
            return found
    return [moves.solve_alone(facts, limit, game) for facts, limit in keys]


def _under(err: InputError, index: int) -> InputError:
    """`err` of a play, its fields under /plays/<index> (play_response says /play)."""
    def moved(path: str) -> str:
        inside = path == "/play" or path.startswith("/play/")
        return f"/plays/{index}{path[len('/play'):]}" if inside else path

    return InputError([ErrorItem(moved(i.path), i.en, i.zh, i.suggestions,
                                 tuple(moved(r) for r in i.related)) for i in err.items],
                      err.status, err.retry_after)
